"""List the turns the engine misses (lenient), with what it read, for failure analysis.

    .venv/bin/python -m bench.misses --homes DIR --cases FILE [--language de] [--limit 50]

Each miss prints the sentence, the gold kind and spec, how many entities were expected and
got, the names of a few missing and extra ones, and the command the compiler read (action,
types, rooms, floors, mentions, unknown words). The scorer is the benchmark's own
(`score_preds.py`, found next to the cases' `dev/` folder).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from custom_components.context_retrieval.core import (
    ConversationState,
    DeviceIndex,
    home_from_dict,
    retrieve,
)

from . import suite


def _scorer(cases_path: Path) -> Any:
    path = cases_path.resolve().parent.parent / "score_preds.py"
    spec = importlib.util.spec_from_file_location("score_preds", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"no scorer at {path}")
    sys.path.insert(0, str(path.parent))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ir_summary(results: list[Any]) -> list[dict[str, Any]]:
    out = []
    for r in results:
        ir = r.ir
        out.append(
            {
                k: v
                for k, v in {
                    "action": ir.action,
                    "types": ir.type_groups,
                    "implied": ir.implied_type,
                    "areas": sorted(ir.scope_include),
                    "floors": sorted(ir.floor_include),
                    "x_areas": sorted(ir.scope_exclude),
                    "states": sorted(ir.states),
                    "mentions": [(m.text, len(m.entity_ids)) for m in ir.mentions],
                    "unknown": ir.unknown_terms,
                    "phrases": ir.phrases,
                    "q": ir.quantifier,
                    "here": ir.here,
                    "everywhere": ir.everywhere,
                }.items()
                if v
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--homes", required=True)
    parser.add_argument("--cases", required=True)
    parser.add_argument("--language", default=None)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args(argv)
    scorer = _scorer(Path(args.cases))
    homes = suite.load_homes(args.homes)
    cases = [
        c
        for c in suite.load_cases(args.cases)
        if args.language is None or c.get("language") == args.language
    ]
    indexes: dict[str, DeviceIndex] = {}
    names: dict[str, dict[str, str]] = {}
    shown = 0
    kinds: Counter[str] = Counter()
    for case in cases:
        home_id = case["home_id"]
        if home_id not in indexes:
            home = home_from_dict(homes[home_id])
            indexes[home_id] = DeviceIndex.build(
                home.devices, home.areas, home.floors, language=home.language
            )
            names[home_id] = {d.entity_id: f"{d.name}@{d.area_id}" for d in home.devices}
        state = ConversationState()
        for i, turn in enumerate(case["turns"]):
            results = retrieve(
                turn["text"],
                indexes[home_id],
                state=state,
                context_area=turn.get("context_area_id"),
                language=case.get("language"),
            )
            selected = list(dict.fromkeys(e for r in results for e in r.selected_ids))
            asked = any(r.clarification for r in results)
            pred = {
                "case_id": case["case_id"],
                "turn": i,
                "selected_entity_ids": selected,
                "clarification": {"q": 1} if asked else None,
            }
            row = scorer.score([{**case, "turns": case["turns"]}], [pred])[i]
            if row["lenient"]:
                continue
            kinds[turn.get("gold_kind", "?")] += 1
            if args.limit and shown >= args.limit:
                continue
            shown += 1
            gold = set(turn.get("gold_entity_ids") or [])
            got = set(selected)
            label = names[home_id]
            print(
                json.dumps(
                    {
                        "case": case["case_id"],
                        "text": turn["text"],
                        "kind": turn.get("gold_kind"),
                        "spec": turn.get("gold_spec"),
                        "gold": len(gold),
                        "got": len(got),
                        "asked": asked,
                        "ctx": turn.get("context_area_id"),
                        "missing": sorted(label.get(e, e) for e in gold - got)[:4],
                        "extra": sorted(label.get(e, e) for e in got - gold)[:4],
                        "ir": _ir_summary(results),
                    },
                    ensure_ascii=False,
                )
            )
    print(json.dumps({"misses_by_kind": kinds.most_common()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
