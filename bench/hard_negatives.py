"""Score the engine on utterances that are no command for the home.

    .venv/bin/python -m bench.hard_negatives [--cases tests/data/hard_negatives/cases.jsonl]
        [--show] [--write BENCHMARKS.md]

Every utterance of the set (see `tests/data/hard_negatives/README.md`) must select nothing.
A turn passes when no command of it selects an entity and none asks back; the table gives the
share that pass per language and per category, and how many listed devices as mentioned.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from custom_components.context_retrieval.core import (
    ConversationState,
    DeviceIndex,
    home_from_dict,
    retrieve,
)

from .report import write_section

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CASES = ROOT / "tests" / "data" / "hard_negatives" / "cases.jsonl"
START, END = "<!-- hard_negatives:start -->", "<!-- hard_negatives:end -->"


def load_cases(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per case: what the engine selected, asked and listed as mentioned."""
    indexes: dict[str, DeviceIndex] = {}
    rows = []
    for case in cases:
        home_path = case["home"]
        if home_path not in indexes:
            home = home_from_dict(json.loads((ROOT / home_path).read_text(encoding="utf-8")))
            indexes[home_path] = DeviceIndex.build(
                home.devices, home.areas, home.floors, language=home.language
            )
        results = retrieve(
            case["text"],
            indexes[home_path],
            state=ConversationState(),
            language=case["language"],
            context_area=case.get("context_area"),
        )
        selected = [e for r in results for e in r.selected_ids]
        asked = any(r.clarification is not None for r in results)
        mentioned = [e for r in results for e in (r.meta.mentioned or [])]
        reasons = [r.meta.not_commanded for r in results if r.meta.not_commanded is not None]
        rows.append(
            {
                **case,
                "selected": selected,
                "asked": asked,
                "mentioned": mentioned,
                "reasons": reasons,
                "passed": not selected and not asked,
            }
        )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    def line(label: str, group: list[dict[str, Any]]) -> str:
        n = len(group)
        passed = sum(r["passed"] for r in group)
        mentioned = sum(bool(r["mentioned"]) for r in group)
        return f"| {label} | {n} | {passed / n:.3f} | {mentioned} |"

    by_language: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_language[r["language"]].append(r)
        by_category[r["category"]].append(r)
    out = [
        "| language | utterances | nothing selected | with mentioned devices |",
        "|---|---|---|---|",
    ]
    out += [line(lang, group) for lang, group in sorted(by_language.items())]
    out += [line("**all**", rows), ""]
    out += [
        "| category | utterances | nothing selected | with mentioned devices |",
        "|---|---|---|---|",
    ]
    out += [line(cat, group) for cat, group in sorted(by_category.items())]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--show", action="store_true", help="print the utterances that fail")
    parser.add_argument("--write", default=None, help="put the table into this file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rows = run(load_cases(args.cases))
    text = table(rows)
    print(text)
    if args.show:
        for r in rows:
            if not r["passed"]:
                print(
                    json.dumps(
                        {k: r[k] for k in ("id", "text", "selected", "asked", "reasons")},
                        ensure_ascii=False,
                    )
                )
    if args.write:
        elapsed = time.perf_counter() - started
        body = f"## Hard negatives (`bench/hard_negatives.py`)\n\n{text}\n\n({elapsed:.0f} s)"
        write_section(Path(args.write), START, END, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
