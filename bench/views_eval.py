"""View rules said as people say them, judged by the members they select.

Each case (`tests/data/views/cases_<language>.jsonl`) is a rule in words, the home it is read
in, and either the expected members as a small expression over the home's records
(`{"all": [{"domain": "light"}, {"any": [{"area": "kitchen"}, {"area": "dining_room"}]}]}`)
or `"refuse": true` for a rule naming something the home does not have. The expected set is
computed from the home file by `expected` below, never by the engine. A rule is published when
it compiles without unresolved words (what `views.ViewManager.async_publish` requires).

    .venv/bin/python -m bench.views_eval [--write BENCHMARKS.md] [--verbose]

Figures: exact member set per language, and refusals: of the rules with an unknown word, how
many were refused (target: all); of all rules, how many would have published with one (0).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.report import write_table
from custom_components.context_retrieval.core import default_lexicons, home_from_dict
from custom_components.context_retrieval.core.views.compiler import compile_deterministic
from custom_components.context_retrieval.core.views.universe import TagUniverse

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "views"
HOMES = {
    "en": DATA / "home_en.json",
    "demo": ROOT / "demo" / "home.json",
    "de": ROOT / "tests" / "data" / "homes" / "home_de.json",
    "fr": ROOT / "tests" / "data" / "homes" / "home_fr.json",
    "es": ROOT / "tests" / "data" / "homes" / "home_es.json",
}


def expected(expr: Any, home: dict[str, Any]) -> set[str]:
    """The entity ids an expression selects in a home file (its records, not the engine)."""
    floors = {a["area_id"]: a.get("floor_id") for a in home["areas"]}
    everyone = {e["entity_id"] for e in home["entities"]}

    def leaf(key: str, want: Any, entity: dict[str, Any]) -> bool:
        wanted = set(want) if isinstance(want, list) else {want}
        value: Any
        if key == "domain":
            value = entity["entity_id"].split(".", 1)[0]
        elif key == "area":
            value = entity.get("area_id")
        elif key == "floor":
            value = floors.get(entity.get("area_id") or "")
        elif key == "class":
            value = entity.get("device_class")
        elif key == "label":
            return bool(wanted & set(entity.get("labels") or []))
        elif key == "id":
            value = entity["entity_id"]
        else:
            raise ValueError(f"unknown key {key!r}")
        return value in wanted

    def ev(node: Any) -> set[str]:
        (key, value), *rest = node.items()
        if rest:  # several keys in one object: all of them
            return set.intersection(*(ev({k: v}) for k, v in node.items()))
        if key == "all":
            return set.intersection(*(ev(n) for n in value)) if value else everyone
        if key == "any":
            return set().union(*(ev(n) for n in value))
        if key == "not":
            return everyone - ev(value)
        return {e["entity_id"] for e in home["entities"] if leaf(key, value, e)}

    return ev(expr)


def load_cases(paths: list[Path]) -> list[dict[str, Any]]:
    cases = []
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip() and not line.lstrip().startswith("//"):
                case = json.loads(line)
                case["where"] = f"{path.name}:{n}"
                cases.append(case)
    return cases


def run(cases: list[dict[str, Any]], verbose: bool) -> dict[str, dict[str, int]]:
    lexicons = default_lexicons()
    raw = {k: json.loads(p.read_text(encoding="utf-8")) for k, p in HOMES.items()}
    universes = {}
    for key, data in raw.items():
        home = home_from_dict(data)
        universes[key] = TagUniverse.build(home.devices, home.areas, home.floors, lexicons)
    stats: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for case in cases:
        lang, universe = case["lang"], universes[case["home"]]
        result = compile_deterministic(case["rule"], universe, lang)
        published = result.ok and not result.unresolved_tags and result.rule is not None
        row = stats[lang]
        if case.get("refuse"):
            row["unknown"] += 1
            row["refused"] += not published
            row["published_unknown"] += published
            ok = not published
        else:
            row["cases"] += 1
            want = expected(case["expect"], raw[case["home"]])
            got = set(universe.evaluate(result.rule)[0]) if published and result.rule else None
            ok = got == want
            row["exact"] += ok
            if verbose and not ok:
                missing = sorted(want - (got or set()))[:5]
                extra = sorted((got or set()) - want)[:5]
                print(
                    f"MISS {case['where']} [{lang}] {case['rule']!r} -> "
                    f"{result.rule_text or result.error_message} "
                    f"unresolved={result.unresolved_tags} missing={missing} extra={extra}"
                )
        if verbose and case.get("refuse") and not ok:
            print(f"PUBLISHED {case['where']} [{lang}] {case['rule']!r} -> {result.rule_text}")
    return stats


def table(stats: dict[str, dict[str, int]]) -> str:
    lines = [
        "| language | rules | exact member set | rules with an unknown word | refused | "
        "published with an unknown word |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    total: dict[str, int] = defaultdict(int)
    for lang in sorted(stats):
        row = stats[lang]
        for key, value in row.items():
            total[key] += value
        lines.append(_line(lang, row))
    lines.append(_line("**all**", total))
    return "\n".join(lines)


def _line(name: str, row: dict[str, int]) -> str:
    rate = row["exact"] / row["cases"] if row["cases"] else 0.0
    return (
        f"| {name} | {row['cases']} | {rate:.3f} ({row['exact']}) | {row['unknown']} | "
        f"{row['refused']} | {row['published_unknown']} |"
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="*", type=Path, help="case files (default: all)")
    parser.add_argument("--write", help="put the table into this markdown file")
    parser.add_argument("--verbose", action="store_true", help="print every miss")
    args = parser.parse_args(argv)
    paths = args.cases or sorted(DATA.glob("cases_*.jsonl"))
    started = time.perf_counter()
    stats = run(load_cases(paths), args.verbose)
    text = table(stats)
    print(text)
    if args.write:
        intro = (
            "View rules said as people say them (`tests/data/views/cases_*.jsonl`, written for "
            "this benchmark; the expected members computed from each home's records by the "
            "expression in the case). A rule counts as exact when it publishes and selects "
            "exactly the expected entities; a rule with an unknown word must be refused.\n\n"
        )
        write_table(
            args.write,
            "views-eval",
            "## View rules read as people say them (`bench/views_eval.py`)\n\n" + intro + text,
            "bench.views_eval",
            argv,
            time.perf_counter() - started,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
