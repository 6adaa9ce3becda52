"""Bulk rename finds as people type them, judged by the rows the preview changes.

Each case (`tests/data/rename_eval/cases.jsonl`) is a find and a replacement over a home's
names and aliases, run as the rename service does: whole words (the default), the home's CJK
room and floor names and aliases as the words a match must not cut through. The expected
rows (entity, field, alias index) are computed here from the home's records by a whole-word
rule, not by the engine:

- the find occurs in the name or alias (case folded) with no letter or digit of a Latin
  word right before or after it ("lamp" is not in "lamps", "Tür" not in "Haustür");
- and, for Chinese, the occurrence does not cut through a room or floor word of the home
  ("台灯" in 阳台灯 cuts 阳台; "厅" in 客厅 cuts 客厅).

Figures per language: finds whose changed rows are exactly the expected ones, and rows the
preview changes where the find occurs only inside another word (target 0).

    .venv/bin/python -m bench.rename_eval [--write BENCHMARKS.md] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.report import write_table
from bench.search_eval import HOMES, cuts
from custom_components.context_retrieval.core.rename import RenameSpec, RenameTarget, preview

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "data" / "rename_eval" / "cases.jsonl"
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_HAS_CJK = re.compile(f"[{_CJK}]")
_LATIN_WORD_CHAR = re.compile(f"[^\\W{_CJK}]")

Row = tuple[str, str, int | None]


def home_words(home: dict[str, Any]) -> list[str]:
    """The home's CJK room and floor names and aliases, as the rename service passes them."""
    names = [n for a in home["areas"] for n in (a["name"], *a.get("aliases", []))]
    names += [n for f in home.get("floors", []) for n in (f["name"], *f.get("aliases", []))]
    return sorted({n.strip().casefold() for n in names if n and _HAS_CJK.search(n)})


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).lower()


def occurrences(find: str, text: str) -> list[tuple[int, int]]:
    """Where `find` occurs in `text`, case folded (overlaps included)."""
    f, t = _fold(find), _fold(text)
    out, at = [], t.find(f)
    while at >= 0:
        out.append((at, at + len(f)))
        at = t.find(f, at + 1)
    return out


def whole(find: str, text: str, words: list[str]) -> bool:
    """Whether `find` occurs in `text` as a whole word (see the module docstring)."""
    t = _fold(text)
    for start, end in occurrences(find, text):
        before = start > 0 and _LATIN_WORD_CHAR.match(t[start - 1]) is not None
        inner_first = _LATIN_WORD_CHAR.match(t[start]) is not None
        after = end < len(t) and _LATIN_WORD_CHAR.match(t[end]) is not None
        inner_last = _LATIN_WORD_CHAR.match(t[end - 1]) is not None
        if (before and inner_first) or (after and inner_last):
            continue
        if cuts(t, start, end, words):
            continue
        return True
    return False


def texts(entity: dict[str, Any]) -> list[tuple[Row, str]]:
    rows: list[tuple[Row, str]] = [((entity["entity_id"], "name", None), entity.get("name") or "")]
    rows += [
        ((entity["entity_id"], "alias", i), a) for i, a in enumerate(entity.get("aliases", []))
    ]
    return rows


def targets(home: dict[str, Any]) -> list[RenameTarget]:
    areas = {a["area_id"]: a["name"] for a in home["areas"]}
    return [
        RenameTarget(
            entity_id=e["entity_id"],
            name=e.get("name"),
            aliases=tuple(e.get("aliases", [])),
            area=areas.get(e.get("area_id") or ""),
        )
        for e in home["entities"]
    ]


def load_cases(path: Path = CASES) -> list[dict[str, Any]]:
    cases = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            case = json.loads(line)
            case["where"] = f"{path.name}:{n}"
            cases.append(case)
    return cases


def run(cases: list[dict[str, Any]], verbose: bool = False) -> dict[str, dict[str, Any]]:
    """Per language: finds, exact row sets, rows changed only inside another word, misses."""
    raw = {k: json.loads(p.read_text(encoding="utf-8")) for k, p in HOMES.items()}
    stats: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"finds": 0, "exact": 0, "rows": 0, "inside": 0, "misses": []}
    )
    for case in cases:
        home = raw[case["home"]]
        words = home_words(home)
        spec = RenameSpec(case["find"], case["replace"], target="both", whole_word=True)
        plan = preview(targets(home), spec, words=words)
        got = {(c.entity_id, c.field, c.index) for c in plan.changes}
        every = {row: text for e in home["entities"] for row, text in texts(e) if text}
        want = {row for row, text in every.items() if whole(case["find"], text, words)}
        inside = {row for row in got - want if occurrences(case["find"], every.get(row, ""))}
        row = stats[case["lang"]]
        row["finds"] += 1
        row["rows"] += len(got)
        row["exact"] += got == want
        row["inside"] += len(inside)
        if got != want:
            missing, extra = sorted(want - got, key=str), sorted(got - want, key=str)
            row["misses"].append((case["where"], case["find"], missing, extra))
    if verbose:
        for lang, row in sorted(stats.items()):
            for where, find, missing, extra in row["misses"]:
                print(f"MISS {where} [{lang}] {find!r} missing={missing} extra={extra}")
    return stats


def table(stats: dict[str, dict[str, Any]]) -> str:
    lines = [
        "| language | finds | rows changed | exact row set | rows matched only inside a word |",
        "|---|---:|---:|---:|---:|",
    ]
    total = {"finds": 0, "exact": 0, "rows": 0, "inside": 0}
    for lang in sorted(stats):
        row = stats[lang]
        for k in total:
            total[k] += row[k]
        lines.append(_line(lang, row))
    lines.append(_line("**all**", total))
    return "\n".join(lines)


def _line(name: str, row: dict[str, Any]) -> str:
    rate = row["exact"] / row["finds"] if row["finds"] else 0.0
    return (
        f"| {name} | {row['finds']} | {row['rows']} | {rate:.3f} ({row['exact']}) | "
        f"{row['inside']} |"
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=CASES, help="case file")
    parser.add_argument("--write", help="put the table into this markdown file")
    parser.add_argument("--verbose", action="store_true", help="print every miss")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    stats = run(load_cases(args.cases), args.verbose)
    text = table(stats)
    print(text)
    if args.write:
        intro = (
            "Bulk rename finds (`tests/data/rename_eval/cases.jsonl`, written for this "
            "benchmark) run as the rename service does: whole words, names and aliases, the "
            "home's CJK room/floor words not cut through. The expected rows are computed by the "
            "runner from each home's names by a whole-word rule. Target: 0 rows matched only "
            "inside another word.\n\n"
        )
        write_table(
            args.write,
            "rename-eval",
            "## Bulk rename finds (`bench/rename_eval.py`)\n\n" + intro + text,
            "bench.rename_eval",
            argv,
            time.perf_counter() - started,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
