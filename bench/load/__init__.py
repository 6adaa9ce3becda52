"""Load, soak and crash test of the integration in a real Home Assistant with the demo home
(`python -m bench.load`; cli.py says what each phase does).

calls.py: what a call is and how its answer counts; clients.py: REST and websocket clients and
the mix of calls; stress.py: 1. burst and 2. soak; crash.py: 3. crash; tables.py: the report;
server.py: the demo Home Assistant (scripts/devhome/).
"""

from .calls import (
    Call,
    classify_rest,
    classify_ws,
    has_backpressure,
    parse_vmrss,
    rss_mb,
    summarize,
)
from .cli import main, run
from .clients import mixed_calls
from .crash import crash_questions
from .server import load_devhome
from .tables import format_tables

__all__ = [
    "Call",
    "classify_rest",
    "classify_ws",
    "crash_questions",
    "format_tables",
    "has_backpressure",
    "load_devhome",
    "main",
    "mixed_calls",
    "parse_vmrss",
    "rss_mb",
    "run",
    "summarize",
]
