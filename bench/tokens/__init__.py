"""Prompt size: Home Assistant's device-control LLM API against "Context Retrieval", in a real
Home Assistant (`python -m bench.tokens`; cli.py says how to run it and what it measures).

home.py fills a Home Assistant's registries with a benchmark home; measure.py asks both LLM APIs
every turn and counts the prompts; jobs.py runs each home in a child process; tables.py writes
the report.
"""

from .cli import main
from .jobs import run_home
from .measure import TokenCounter, async_measure_home, prompt_ids
from .tables import render

__all__ = ["TokenCounter", "async_measure_home", "main", "prompt_ids", "render", "run_home"]
