"""Speed of natural questions ("which lights are on upstairs?") on synthetic homes.

    .venv/bin/python -m bench.queries [--sizes 1000,5000] [--runs N] [--write BENCHMARKS.md]

For each size and language the home comes from `bench.synthetic.make_home`, with sensor
readings made plausible (seeded: one-decimal temperatures, humidities and power, whole-number
batteries, 1 % of entities unavailable) and a unit per sensor device class (°C, %, W, kWh, …)
in the state rows. A pool of questions of every shape (list, count, reading, average / highest
/ lowest / total, "is X locked?", "what is on in …", thresholds, low batteries) is built from
the home's own area and floor names, in English or Chinese. Then, each run timed separately
with `time.perf_counter` (after one untimed pass that warms the caches a running Home
Assistant has warm); p50 / p95 / max:

- compile + execute = `compile_question` + `execute` + `answer`: a question seen for the first
  time (every timed question starts by refreshing the state rows with `RowCache` after 1 % of
  the states changed, as the integration does);
- cached = what a cache hit costs: `policy.cached_choice` (the integration's lookup; a stored
  question is found by its first step, `PlanStore.exact` on a real SQLite file, every pool
  question saved with its plan, + `validate_plan` of the stored plan) + `execute` + `answer`;
- similar = `PlanStore.similar` (a reworded pool question) with 1,000 plans stored in the
  language (the pool plus questions from the same templates over every area and floor).

"confident" is the share of pool questions the compiler was sure about (informative only).
Targets: cached p95 ≤ 10 ms and compile + execute p95 ≤ 30 ms at 5,000 entities. `main`
returns non-zero only on errors, never on a missed target.
"""

from __future__ import annotations

import argparse
import sys
import time

from custom_components.context_retrieval.core import (
    default_lexicons,
)

from ..report import load_average, write_table
from .measure import STORED_PLANS, measure
from .tables import format_rows, format_targets, uncacheable_note


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="python -m bench.queries",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--sizes", default="1000,5000")
    parser.add_argument("--languages", default="en,zh")
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--stored",
        type=int,
        default=STORED_PLANS,
        help="plans in the store for the similarity lookups",
    )
    parser.add_argument("--write", metavar="FILE", help="update the queries section of FILE")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    started = time.perf_counter()
    load_before = load_average()
    lexicons = default_lexicons()
    rows = []
    for size in (int(s) for s in args.sizes.split(",") if s.strip()):
        for language in (x.strip() for x in args.languages.split(",") if x.strip()):
            print(f"measuring {size:,} entities, {language} …", file=sys.stderr, flush=True)
            rows.append(measure(size, language, args.runs, args.seed, lexicons, args.stored))
    table = "\n".join(
        [
            "## Natural questions: compile, cache hit, similar lookup",
            "",
            format_rows(rows),
            "",
            "Synthetic homes (`bench/synthetic/`) with plausible sensor readings and units; "
            f"{min((r['questions'] for r in rows), default=0)}+ questions per language from the "
            "home's own areas and floors (lists, counts, readings, average / highest / lowest / "
            'total, "is X locked?", what is on, thresholds, low batteries), '
            f"{args.runs} runs each, each timed on its own. Compile + execute = `compile_question` "
            "+ `execute` + `answer`; cached = `policy.cached_choice` (its exact step: "
            "`PlanStore.exact` on SQLite + `validate_plan`) + `execute` + `answer`; similar = "
            "`PlanStore.similar` over the stored plans of the "
            "language. Confident = share of the questions the compiler was sure about "
            "(informative). Uncacheable = questions whose compiled plan `validate_plan` rejects, "
            "so a stored copy could never be reused (left out of the store and of the cached "
            f"timings){uncacheable_note(rows)}. Each timed question first refreshes the state "
            "rows as the integration does (`RowCache` told which entities changed, as Home "
            "Assistant's state_changed events tell it; 1 % of the states change between "
            "questions). Load average "
            f"(1/5/15 min) before: {load_before}, after: {load_average()} (other work on the "
            "machine shows up in p95 and max).",
            "",
            format_targets(rows),
        ]
    )
    print(table)
    if args.write:
        write_table(
            args.write, "queries", table, "bench.queries", argv, time.perf_counter() - started
        )
    return 0
