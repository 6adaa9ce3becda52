"""Accuracy of the engine on large synthetic homes (English and Chinese).

    .venv/bin/python -m bench.accuracy_large [--sizes 2000[,10000]] [--cases 400] [--seed 0]
                                             [--write BENCHMARKS.md] [--errors N]

Homes and cases come from `bench.synthetic` (gold from the home data, README rules); the engine
runs through `bench.run_suite.run` and is scored by `bench.suite`, exactly like the dev suite.
Prints the per-language table and a breakdown by kind of turn. With `--write FILE` the result
replaces the part of FILE between `<!-- large:start -->` and `<!-- large:end -->`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from . import run_suite, suite
from .report import command_line, machine_info, machine_line, write_section
from .synthetic import make_cases, make_home

START, END = "<!-- large:start -->", "<!-- large:end -->"


def evaluate(
    size: int, languages: list[str], n_cases: int, seed: int
) -> tuple[list[dict[str, Any]], list[suite.TurnScore], list[dict[str, Any]]]:
    """Generate one home per language, write them as a suite, and run it."""
    with tempfile.TemporaryDirectory(prefix="ctx_large_") as tmp:
        homes_dir = Path(tmp) / "homes"
        homes_dir.mkdir()
        case_file = Path(tmp) / "cases.jsonl"
        cases: list[dict[str, Any]] = []
        for language in languages:
            home = make_home(size, language, seed)
            (homes_dir / f"{home['home_id']}.json").write_text(
                json.dumps(home, ensure_ascii=False), encoding="utf-8"
            )
            cases.extend(make_cases(home, n_cases, seed + 1))
        with open(case_file, "w", encoding="utf-8") as fh:
            for case in cases:
                fh.write(json.dumps(case, ensure_ascii=False) + "\n")
        return run_suite.run(homes_dir, [case_file])


def kind_table(scores: list[suite.TurnScore], cases: list[dict[str, Any]]) -> str:
    """Exact-set accuracy per kind of turn and language (scored by `bench.suite`)."""
    kinds = {
        (c["case_id"], i): t.get("gold_kind", "?") for c in cases for i, t in enumerate(c["turns"])
    }
    groups: dict[tuple[str, str], list[suite.TurnScore]] = defaultdict(list)
    for s in scores:
        groups[(kinds[(s.case_id, s.turn)], s.language)].append(s)
    languages = sorted({s.language for s in scores})
    header = (
        "| kind of turn | "
        + " | ".join(f"{lang} turns | {lang} accuracy | {lang} hit_any" for lang in languages)
        + " |"
    )
    lines = [header, "|---|" + "---|---|---|" * len(languages)]
    for kind in sorted({k for k, _ in groups}):
        cells = []
        for lang in languages:
            group = groups.get((kind, lang))
            if not group:
                cells.append("– | – | –")
                continue
            summary = suite.summarize(group)
            cells.append(f"{summary.turns} | {summary.accuracy:.3f} | {summary.accuracy_any:.3f}")
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def missed(
    predictions: list[dict[str, Any]],
    scores: list[suite.TurnScore],
    cases: list[dict[str, Any]],
    limit: int,
) -> list[str]:
    by_key = {(p["case_id"], p["turn"]): p for p in predictions}
    turns = {(c["case_id"], i): t for c in cases for i, t in enumerate(c["turns"])}
    out: list[str] = []
    for s in scores:
        if s.hit or len(out) >= limit:
            continue
        turn, pred = turns[(s.case_id, s.turn)], by_key[(s.case_id, s.turn)]
        gold = turn["gold_entity_ids"]
        got = pred["selected_entity_ids"]
        out.append(
            json.dumps(
                {
                    "case": s.case_id,
                    "turn": s.turn,
                    "text": turn["text"],
                    "kind": turn.get("gold_kind"),
                    "expect_clarification": turn["expect_clarification"],
                    "asked": bool(pred["clarification"]),
                    "gold_n": len(gold),
                    "got_n": len(got),
                    "gold": gold[:5],
                    "got": got[:5],
                },
                ensure_ascii=False,
            )
        )
    return out


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="2000", help="e.g. 2000,10000")
    parser.add_argument("--cases", type=int, default=400, help="cases per language and size")
    parser.add_argument("--languages", default="en,zh")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", metavar="FILE", help="update the large-home section of FILE")
    parser.add_argument("--errors", type=int, default=0, help="print up to N missed turns")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    languages = [x.strip() for x in args.languages.split(",") if x.strip()]
    sections = []
    for size in (int(s) for s in args.sizes.split(",") if s.strip()):
        t0 = time.perf_counter()
        predictions, scores, cases = evaluate(size, languages, args.cases, args.seed)
        title = (
            f"Synthetic {size:,}-entity homes ({args.cases} cases per language, seed {args.seed})"
        )
        section = "\n\n".join(
            [
                suite.format_table(suite.by_language(scores), title),
                kind_table(scores, cases),
                f"({time.perf_counter() - t0:.0f} s including generation and index builds)",
            ]
        )
        print(section + "\n", flush=True)
        for line in missed(predictions, scores, cases, args.errors):
            print(line)
        sections.append(section)
    elapsed = time.perf_counter() - started
    if args.write:
        body = "\n".join(
            [
                "## Accuracy on large synthetic homes",
                "",
                machine_line(machine_info()),
                f"Command: `{command_line('bench.accuracy_large', argv)}` ({elapsed:.0f} s).",
                "",
                "Homes and cases from `bench/synthetic/`; gold from the home data with the dev "
                "README's rules; scored by `bench/suite.py` like the dev suite.",
                "",
                "\n\n".join(sections),
            ]
        )
        write_section(args.write, START, END, body)
        print(f"wrote {args.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
