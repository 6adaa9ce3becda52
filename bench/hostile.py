"""Hostile names and patterns: the text helpers and the rename preview on what used to take
seconds (issue 20).

    .venv/bin/python -m bench.hostile [--write BENCHMARKS.md]

1. The text helpers (`redact`, `clean`, `strip_controls`, `normalize`) on 10,000- and
   100,000-character hostile texts (`1.1.1…x`, `a@a@…`, `eyJ-eyJ-…`, `+1 (+1 (…`, `aB1+…`):
   best of 3. `redact` of `"1." * 5000 + "x"` took 0.72 s before (its e-mail and phone patterns
   retried at every position); a linear helper takes ten times as long for ten times the text.
2. A rename preview over a home of 1,000 names, 5 of them hostile (60 `a` then `!`, 200 `x`,
   `word word … !`, `1.1.1…z`, `a,a,…`), for the issue's pattern and the 50 catastrophic-
   backtracking patterns below (the end-to-end loop-lag test runs them too) on the linear
   matcher: the time and steps of the slowest, and how many ran out of budget. (Python's `re`
   does not finish some of them on these names in any time one would wait: it is not run.)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from custom_components.context_retrieval.core.base.redact import clean, redact
from custom_components.context_retrieval.core.base.text import normalize, strip_controls
from custom_components.context_retrieval.core.rename import (
    RenameError,
    RenameSpec,
    RenameTarget,
    new_budget,
    preview,
)

from .report import write_table

SHAPES = {
    "1.1.1…x": "1.",
    "a@a@…": "a@",
    "eyJ-eyJ-…": "eyJ-",
    "+1 (+1 (…": "+1 (",
    "aB1+aB1+…": "aB1+",
}
HELPERS: dict[str, Callable[[str], Any]] = {
    "redact": redact,
    "clean": clean,
    "strip_controls": strip_controls,
    "normalize": normalize.__wrapped__,
}
ISSUE_PATTERN = ".*.*.*.*.*.*.*#"
CATASTROPHIC = [
    r"(a+)+$",
    r"(a+)+b",
    r"^(a+)+$",
    r"(a|aa)+$",
    r"(a|a?)+$",
    r"(a|aa|aaa)+b",
    r"(.*a){12}",
    r"(a*)*$",
    r"(a*)+$",
    r"((a+)*)+$",
    r"(a*b*)*c",
    r"(ab|a)*c",
    r"((ab)*|a)*c",
    r"(a+|b+)*c",
    r"(a?){30}a{30}",
    r"(a{1,10}){1,10}$",
    r"(?:a+)+(?:b+)+c",
    r"(a+)+(b+)+c",
    r"^(a+)+$|^b",
    r"(x+x+)+y",
    r"(x|x)+y",
    r"(x*)*y",
    r"(x+)*y",
    r"(.*)*#",
    r"(.+)+#",
    r"(.?)*#",
    r"(\w+)+#",
    r"(\w*)*#",
    r"(\w|\d)+$",
    r"(\w+\d*)+$",
    r"(\w+\s?)*$",
    r"^(\w+\s?)*$",
    r"(\S+\s*)+#",
    r"(\s*\w+)+!x",
    r"(\d+)*$",
    r"^(\d+)+$",
    r"(\d*)*x",
    r"(?:\d+\.?)+y",
    r"(\d+\.)+\d+#",
    r"([a-zA-Z]+)*$",
    r"^([a-z]+)+$",
    r"([\w.]+)+@",
    r"([a-z0-9]+[._-]?)+@",
    r"(.*?,){11}P",
    r"(.*){1,32000}[bc]",
    r"^(([a-z])+.)+[A-Z]([a-z])+$",
    r"^[a-zA-Z]+(([',. -][a-zA-Z ])?[a-zA-Z]*)*$",
    r"^([a-zA-Z0-9])(([\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}"
    r"(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",
    r"^(\([0-9]{3}\))?[0-9]{3}-[0-9]{4}$|^((a+)+)+$",
    r"(?i)(LAMP|lamp|Lamp)+(s|S)+$",
]
HOSTILE_NAMES = ["a" * 60 + "!", "x" * 200, "word " * 40 + "!", "1." * 100 + "z", "a," * 60 + "a"]


def _best(run: Callable[[], Any], times: int = 3) -> float:
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def helper_rows() -> list[str]:
    rows = [
        "| helper | text | 10,000 chars ms | 100,000 chars ms | ratio |",
        "|---|---|---|---|---|",
    ]
    for helper, function in HELPERS.items():
        for shape, unit in SHAPES.items():
            small, big = ((unit * (n // len(unit) + 1))[:n] for n in (10_000, 100_000))
            a, b = _best(partial(function, small)), _best(partial(function, big))
            rows.append(f"| {helper} | `{shape}` | {a * 1000:.2f} | {b * 1000:.2f} | {b / a:.1f} |")
    return rows


def preview_rows() -> list[str]:
    targets = [RenameTarget(f"light.l{i}", f"Room {i % 40} Lamp {i}") for i in range(995)]
    targets += [RenameTarget(f"switch.h{i}", name) for i, name in enumerate(HOSTILE_NAMES)]
    slowest = (0.0, 0, "")
    out_of_budget = refused = 0
    total = 0.0
    for pattern in [ISSUE_PATTERN, *CATASTROPHIC]:
        budget = new_budget()
        started = time.perf_counter()
        try:
            preview(targets, RenameSpec(pattern, "-", regex=True), budget=budget)
        except RenameError as err:
            out_of_budget += err.reason == "regex_budget"
            refused += err.reason != "regex_budget"
        seconds = time.perf_counter() - started
        total += seconds
        slowest = max(slowest, (seconds, budget.spent, pattern))
    return [
        "| patterns | names | total s | slowest s | its steps | slowest pattern | out of budget "
        "| refused |",
        "|---|---|---|---|---|---|---|---|",
        f"| {1 + len(CATASTROPHIC)} | {len(targets)} | {total:.2f} | {slowest[0]:.3f} | "
        f"{slowest[1]:,} | `{slowest[2]}` | {out_of_budget} | {refused} |",
    ]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", metavar="FILE", help="update the hostile section of FILE")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    table = "\n".join(
        [
            "## Hostile names and patterns (`bench/hostile.py`)",
            "",
            "Text helpers on hostile texts (best of 3):",
            "",
            *helper_rows(),
            "",
            "Rename preview with the issue's pattern and 50 catastrophic-backtracking patterns "
            "on the linear matcher (budget: 3,000,000 steps or 3 s per preview):",
            "",
            *preview_rows(),
        ]
    )
    print(table)
    if args.write:
        write_table(
            args.write, "hostile", table, "bench.hostile", argv, time.perf_counter() - started
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
