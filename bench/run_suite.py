"""Run the engine over a benchmark suite and score it.

    .venv/bin/python -m bench.run_suite --homes DIR --cases FILE [--cases FILE ...] --out PRED.jsonl

Every turn of a case runs in order with one ConversationState per case (follow-ups and answers
to clarifications need it). One prediction line per turn; a table per language on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from custom_components.context_retrieval.core import (
    ConversationState,
    DeviceIndex,
    home_from_dict,
    retrieve,
)

from . import report, suite


def run(
    homes_dir: str | Path, case_files: list[str | Path], verbose: bool = False
) -> tuple[list[dict[str, Any]], list[suite.TurnScore], list[dict[str, Any]]]:
    homes = suite.load_homes(homes_dir)
    cases: list[dict[str, Any]] = []
    for path in case_files:
        cases.extend(suite.load_cases(path))
    indexes: dict[str, DeviceIndex] = {}
    for home_id, data in homes.items():
        home = home_from_dict(data)
        indexes[home_id] = DeviceIndex.build(
            home.devices, home.areas, home.floors, language=home.language
        )
    predictions = []
    for case in cases:
        index = indexes[case["home_id"]]
        state = ConversationState()
        for i, turn in enumerate(case["turns"]):
            start = time.perf_counter()
            results = retrieve(
                turn["text"],
                index,
                state=state,
                context_area=turn.get("context_area_id"),
                language=case.get("language"),
            )
            latency = (time.perf_counter() - start) * 1000
            clarification = next((r.clarification for r in results if r.clarification), None)
            selected = [eid for r in results for eid in r.selected_ids]
            pred = {
                "case_id": case["case_id"],
                "turn": i,
                "selected_entity_ids": list(dict.fromkeys(selected)),
                "clarification": None
                if clarification is None
                else {
                    "question": clarification.question,
                    "options": [o.entity_id for o in clarification.options],
                },
                "latency_ms": round(latency, 3),
            }
            if verbose:
                pred["meta"] = [r.meta.to_dict() for r in results]
            predictions.append(pred)
    scores = suite.score(cases, predictions)
    return predictions, scores, cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--homes", required=True)
    parser.add_argument("--cases", action="append", required=True)
    parser.add_argument("--out", default=None)
    parser.add_argument("--errors", type=int, default=0, help="print up to N missed turns")
    parser.add_argument("--verbose", action="store_true", help="include meta in predictions")
    parser.add_argument(
        "--write", default=None, help="put the table into this file between <!-- dev:start/end -->"
    )
    parser.add_argument(
        "--section", default="dev", help="the <!-- SECTION:start/end --> markers for --write"
    )
    parser.add_argument(
        "--group",
        choices=("tag", "language"),
        default="tag",
        help="a row per language tag as the cases write it (zh-CN, zh-HK apart; default) or "
        "per primary language (one zh)",
    )
    parser.add_argument("--title", default="context_retrieval engine", help="table title")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    predictions, scores, cases = run(args.homes, args.cases, verbose=args.verbose)
    elapsed = time.perf_counter() - started
    if args.out:
        suite.write_predictions(args.out, predictions)
    table = suite.format_table(suite.by_language(scores, args.group == "tag"), args.title)
    print(table)
    if args.write:
        report.write_table(
            args.write, args.section, table, "bench.run_suite", list(argv or sys.argv[1:]), elapsed
        )
    if args.errors:
        by_key = {(p["case_id"], p["turn"]): p for p in predictions}
        turns = {(c["case_id"], i): t for c in cases for i, t in enumerate(c["turns"])}
        shown = 0
        for s in scores:
            if s.hit or shown >= args.errors:
                continue
            shown += 1
            turn = turns[(s.case_id, s.turn)]
            pred = by_key[(s.case_id, s.turn)]
            print(
                json.dumps(
                    {
                        "case": s.case_id,
                        "turn": s.turn,
                        "text": turn["text"],
                        "gold": sorted(turn["gold_entity_ids"]),
                        "expect_clarification": turn.get("expect_clarification", False),
                        "got": sorted(pred["selected_entity_ids"]),
                        "asked": bool(pred["clarification"]),
                    },
                    ensure_ascii=False,
                )
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
