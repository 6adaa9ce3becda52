"""Speed of natural questions on synthetic homes (`python -m bench.queries`; cli.py says what is
timed and the targets).

questions.py: the homes, their state rows and the questions; measure.py: one size and language
timed; tables.py: the report.
"""

from .cli import main
from .measure import measure
from .questions import bench_home, filler_questions, questions_for, state_rows
from .tables import format_targets

__all__ = [
    "bench_home",
    "filler_questions",
    "format_targets",
    "main",
    "measure",
    "questions_for",
    "state_rows",
]
