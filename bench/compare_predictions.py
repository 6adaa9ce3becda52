"""Compare two prediction files of `bench.run_suite --out` turn by turn.

    .venv/bin/python -m bench.compare_predictions BEFORE.jsonl AFTER.jsonl [--meta] [--show 10]

A refactoring that must not change behaviour is checked this way: record predictions before,
change the code, record them again, and compare. Per turn (`case_id`, `turn`) the selected
entity ids (in order) and the clarification (question and option ids) must be equal; with
`--meta` also the per-command `meta` that `--verbose` recorded. Latency is ignored. Exit status
0 when every turn matches, 1 otherwise.

Results of `bench.dialogs` (out/dialogs/<tier>/results.jsonl) compare the same way, per agent,
dialog and turn: the reply, whether it asked, the verdict and every change to the home (a
scene's state, the time it ran, read as "<time>").
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

Key = tuple[str, int]


def load(path: str | Path) -> dict[Key, dict[str, Any]]:
    """Predictions by (case_id, turn); a turn listed twice keeps the last line. A results
    file of `bench.dialogs` is read too: its turns are keyed by "agent/dialog"."""
    out: dict[Key, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                pred = json.loads(line)
                case = pred["case_id"] if "case_id" in pred else f"{pred['agent']}/{pred['dialog']}"
                out[(str(case), int(pred["turn"]))] = pred
    return out


# What a dialog turn did to the home and said; a scene's new state is the time it ran.
DIALOG_FIELDS = ("reply", "response_type", "asked", "ok", "harmful", "wrong", "changes")
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?")


def _compared(pred: dict[str, Any], meta: bool) -> dict[str, Any]:
    if "dialog" in pred:
        kept = {name: pred.get(name) for name in DIALOG_FIELDS}
        kept["changes"] = json.loads(_TIMESTAMP.sub("<time>", json.dumps(kept["changes"])))
        return kept
    kept = {
        "selected_entity_ids": pred.get("selected_entity_ids"),
        "clarification": pred.get("clarification"),
    }
    if meta:
        kept["meta"] = pred.get("meta")
    return kept


def compare(
    before: dict[Key, dict[str, Any]], after: dict[Key, dict[str, Any]], meta: bool = False
) -> tuple[list[Key], list[Key], list[Key]]:
    """(turns that differ, turns only in `before`, turns only in `after`), each sorted."""
    differ = sorted(
        k
        for k in before.keys() & after.keys()
        if _compared(before[k], meta) != _compared(after[k], meta)
    )
    return differ, sorted(before.keys() - after.keys()), sorted(after.keys() - before.keys())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument(
        "--meta",
        action="store_true",
        help="also compare each command's meta (needs --verbose predictions)",
    )
    parser.add_argument("--show", type=int, default=10, help="print up to N differing turns")
    args = parser.parse_args(argv)
    before, after = load(args.before), load(args.after)
    differ, missing, extra = compare(before, after, args.meta)
    compared = len(before.keys() & after.keys())
    print(
        f"{args.before} vs {args.after}: {compared} turns compared, {len(differ)} differ, "
        f"{len(missing)} only before, {len(extra)} only after"
        f"{' (meta included)' if args.meta else ''}"
    )
    for key in differ[: args.show]:
        print(
            json.dumps(
                {
                    "case": key[0],
                    "turn": key[1],
                    "before": _compared(before[key], args.meta),
                    "after": _compared(after[key], args.meta),
                },
                ensure_ascii=False,
            )
        )
    return 0 if not (differ or missing or extra) else 1


if __name__ == "__main__":
    sys.exit(main())
