"""An end-to-end dialog benchmark over the demo home (`python -m bench.dialogs`; cli.py says
how to run it): multi-turn dialogs of our own writing in five languages, said to a real Home
Assistant through our agent and Home Assistant's own, judged by what happens to the home.

model.py: what a dialog and a turn's expected outcome are; loader.py: the data files checked
against demo/home.json; states.py: snapshots of the home; judge.py: one turn's verdict;
server.py: the demo Home Assistant of a tier; home.py: resetting and giving states;
runner.py: saying the dialogs; tables.py: the report; cli.py: the command.
"""

from .cli import main
from .judge import Reply, Verdict, judge, reply_from
from .loader import load_dialogs, load_home, shortfalls, turn_counts
from .model import CATEGORIES, KINDS, LANGUAGES, DataError, Dialog, Turn, parse_dialog
from .states import EntityState, snapshot

__all__ = [
    "CATEGORIES",
    "KINDS",
    "LANGUAGES",
    "DataError",
    "Dialog",
    "EntityState",
    "Reply",
    "Turn",
    "Verdict",
    "judge",
    "load_dialogs",
    "load_home",
    "main",
    "parse_dialog",
    "reply_from",
    "shortfalls",
    "snapshot",
    "turn_counts",
]
