"""Demo: what the engine makes of an utterance in a home.

    python -m custom_components.context_retrieval.core "关掉除了卧室以外的所有灯" \
        --home demo/home.json
    python -m custom_components.context_retrieval.core --home demo/home.json  # interactive

Prints each command's selection, any clarification question, and the YAML context an
assistant would receive. In interactive mode the conversation state carries over, so "它" and
answers to clarification questions work.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .base.home import load_home
from .base.index import DeviceIndex
from .retrieval.pipeline import retrieve, selected_devices
from .retrieval.render import render_context
from .retrieval.results import RetrievalResult
from .retrieval.state import ConversationState

DEFAULT_HOME = Path(__file__).resolve().parents[3] / "demo" / "home.json"


def describe(
    results: list[RetrievalResult],
    index: DeviceIndex,
    show_yaml: bool = True,
    as_json: bool = False,
) -> str:
    """The results as JSON, or as lines a person reads (with the YAML context)."""
    if as_json:
        return json.dumps([_as_json(r) for r in results], ensure_ascii=False, indent=2, default=str)
    lines: list[str] = []
    for i, r in enumerate(results, 1):
        lines += _as_lines(i, r, index)
    chosen = selected_devices(results, index)
    if show_yaml and chosen:
        lex = index.lexicons.get(results[0].meta.language if results else None)
        context = render_context(chosen, header=lex.messages.get("yaml_header", ""), index=index)
        lines.append("")
        lines.append(f"YAML context ({context.tokens} tokens est.):")
        lines.append(context.yaml.rstrip())
    return "\n".join(lines)


def _as_json(r: RetrievalResult) -> dict[str, Any]:
    question = r.clarification
    return {
        "command": r.ir.raw,
        "action": r.ir.action,
        "selected": r.selected_ids,
        "clarification": None
        if question is None
        else {
            "question": question.question,
            "options": [{"entity_id": o.entity_id, "label": o.label} for o in question.options],
        },
        "candidates": [
            {
                "entity_id": c.entity_id,
                "score": c.total_score,
                "reasons": [str(reason) for reason in c.reasons],
            }
            for c in r.candidates
        ],
        "meta": r.meta.to_dict(),
    }


def _as_lines(i: int, r: RetrievalResult, index: DeviceIndex) -> list[str]:
    lines = [
        f"command {i}: {r.ir.raw!r}  action={r.ir.action}  "
        f"quantifier={r.ir.quantifier}  confidence={r.ir.confidence}"
    ]
    if r.clarification:
        lines.append(f"  asks back: {r.clarification.question}")
    for c in r.selected:
        device = index.device(c.entity_id)
        area = index.area_name(device.area_id) or "-"
        why = "; ".join(str(reason) for reason in c.reasons[:2])
        lines.append(f"  -> {c.entity_id}  ({device.name} @ {area})  {why}")
    if not r.selected and not r.clarification:
        lines.append("  -> nothing selected")
    notable = {
        k: v
        for k, v in r.meta.to_dict().items()
        if v and k not in ("language", "confidence", "capability_filter")
    }
    if notable:
        lines.append(f"  meta: {json.dumps(notable, ensure_ascii=False, default=str)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m custom_components.context_retrieval.core",
        description="Show which entities an utterance targets in a home.",
    )
    parser.add_argument("text", nargs="*", help="utterance(s); none = interactive")
    parser.add_argument("--home", default=str(DEFAULT_HOME), help="home JSON file")
    parser.add_argument("--language", default=None, help="force a language (default: detect)")
    parser.add_argument("--area", default=None, help="area id of the voice satellite")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--no-yaml", action="store_true", help="omit the YAML context")
    args = parser.parse_args(argv)

    try:
        home = load_home(args.home)
    except (OSError, ValueError) as err:
        print(f"cannot read home {args.home}: {err}", file=sys.stderr)
        return 2
    index = DeviceIndex.build(home.devices, home.areas, home.floors, language=home.language)
    state = ConversationState()

    def run(text: str) -> None:
        results = retrieve(text, index, state=state, language=args.language, context_area=args.area)
        print(describe(results, index, show_yaml=not args.no_yaml, as_json=args.json))

    if args.text:
        for text in args.text:
            if len(args.text) > 1:
                print(f"> {text}")
            run(text)
        return 0
    print(
        f"{home.home_id}: {len(home.devices)} entities, {len(home.areas)} areas. "
        "Type a command; empty line to quit."
    )
    for line in sys.stdin:
        if not line.strip():
            break
        run(line.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
