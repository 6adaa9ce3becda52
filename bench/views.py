"""Speed of view rules: preview and publish on synthetic homes (issue 4's targets).

    .venv/bin/python -m bench.views [--sizes 1000,10000] [--runs 500] [--write BENCHMARKS.md]

For each size and language the home comes from `bench.synthetic.make_home` with labels added
(seeded: every entity gets 0–3 of 30 labels, entities are grouped into devices of 1–4), then:

- `TagUniverse.build` time (what an index rebuild adds for views), median of 3;
- preview = `compile_deterministic` + `preview` of a rule, the work the `preview_view_rule`
  service does, over rules of every shape (labels, areas, floors, type words, namespaces,
  nesting, a 40-tag OR, natural connectives), each run timed separately; p50 / p95 / max;
- publish = compile + `ViewRuleStore.publish` into a real SQLite file (WAL, revisions pruned
  to 5) + evaluation, cycling 20 names so most publishes are updates; p50 / p95 / max.

Targets: preview p95 ≤ 20 ms and publish ≤ 50 ms at 10,000 entities.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from custom_components.context_retrieval.core import default_lexicons, home_from_dict
from custom_components.context_retrieval.core.views.compiler import compile_deterministic
from custom_components.context_retrieval.core.views.executor import preview
from custom_components.context_retrieval.core.views.store import ViewRuleStore
from custom_components.context_retrieval.core.views.universe import TagUniverse

from .report import percentile, write_table
from .synthetic import make_home

LABELS = {
    "en": [
        "Christmas",
        "Security",
        "Energy saver",
        "Kids",
        "Night mode",
        "Guests",
        "Holiday",
        "Garden",
        "Vacation",
        "Morning",
        "Evening",
        "Pets",
        "Cleaning",
        "Movie time",
        "Party",
        "Baby",
        "Outdoor",
        "Critical",
        "Battery",
        "Cloud",
        "Zigbee",
        "Z-Wave",
        "Matter",
        "Wi-Fi",
        "Spare",
        "Seasonal",
        "Sleep",
        "Work",
        "Reading",
        "Music",
    ],
    "zh": [
        "圣诞装饰",
        "安防",
        "节能",
        "儿童",
        "夜间模式",
        "访客",
        "节日",
        "花园",
        "度假",
        "早晨",
        "傍晚",
        "宠物",
        "清洁",
        "观影",
        "派对",
        "宝宝",
        "户外",
        "关键",
        "电池",
        "云端",
        "紫蜂",
        "Z-Wave",
        "Matter",
        "无线",
        "备用",
        "季节",
        "睡眠",
        "工作",
        "阅读",
        "音乐",
    ],
}


def labelled_home(size: int, language: str, seed: int) -> dict[str, Any]:
    """A synthetic home with labels and devices, as homes that use views have them."""
    home = make_home(size, language, seed)
    rng = random.Random(seed)
    names = LABELS[language]
    device = 0
    left = 0
    for entity in home["entities"]:
        entity["labels"] = sorted(
            set(entity.get("labels") or []) | set(rng.sample(names, rng.choice((0, 0, 1, 1, 2, 3))))
        )
        if left == 0:
            device += 1
            left = rng.randint(1, 4)
        entity["device_id"] = f"device_{device}"
        left -= 1
    return home


def rules_for(home: dict[str, Any], language: str) -> list[str]:
    """Rules of every shape over the tags this home has."""
    areas = [a["name"] for a in home["areas"]]
    floors = [f["name"] for f in home["floors"]]
    labels = LABELS[language]
    if language == "zh":
        rules = [
            f"{labels[0]} 并且 ({areas[0]} 或 {areas[1]})",
            f"灯 并且 ({areas[2]} 或者 {areas[3]} 或 {areas[4]})",
            f"{labels[1]} 或 (门 且 {floors[-1]})",
            f"({labels[2]} 和 {labels[3]}) 或 ({labels[4]} 与 窗帘)",
            f"{areas[5]}的灯",
            f"area:{areas[0]} & domain:light",
        ]
    else:
        rules = [
            f"{labels[0]} and ({areas[0]} or {areas[1]})",
            f"lights and ({areas[2]} or {areas[3]} or {areas[4]})",
            f"{labels[1]} or (doors and {floors[-1]})",
            f"({labels[2]} and {labels[3]}) or ({labels[4]} and blinds)",
            f"{areas[5]} lights",
            f"area:{areas[0]} & domain:light",
        ]
    connective = " 或 " if language == "zh" else " or "
    rules.append(connective.join(labels + areas[:10]))  # a 40-tag OR
    nested = labels[5]
    for i, label in enumerate(labels[6:13]):  # nesting 8 deep
        nested = f"({nested} {'AND' if i % 2 else 'OR'} {label})"
    rules.append(nested)
    rules.append(f"domain:sensor and device_class:temperature and {floors[0]}")
    return rules


def measure(size: int, language: str, runs: int, seed: int) -> dict[str, Any]:
    home = home_from_dict(labelled_home(size, language, seed))
    lexicons = default_lexicons()
    builds = []
    universe = None
    for _ in range(3):
        started = time.perf_counter()
        universe = TagUniverse.build(home.devices, home.areas, home.floors, lexicons)
        builds.append(time.perf_counter() - started)
    assert universe is not None
    rules = rules_for(labelled_home(size, language, seed), language)

    # Warm the caches a long-running Home Assistant would have warm (lexicon stems, regexes).
    for rule in rules:
        result = compile_deterministic(rule, universe, language)
        assert result.ok and result.rule is not None, (rule, result)
        preview(result.rule, universe)

    previews: list[float] = []
    hits: list[int] = []
    for i in range(runs):
        rule = rules[i % len(rules)]
        # Each preview starts from a fresh universe cache, as after an index rebuild.
        if i % len(rules) == 0:
            universe._cache.clear()
        started = time.perf_counter()
        result = compile_deterministic(rule, universe, language)
        assert result.rule is not None
        outcome = preview(result.rule, universe)
        previews.append((time.perf_counter() - started) * 1000)
        hits.append(outcome.entity_hits)

    publishes: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = ViewRuleStore(Path(tmp) / "views.db")
        store.open()
        for i in range(max(100, runs // 2)):
            rule = rules[i % len(rules)]
            started = time.perf_counter()
            result = compile_deterministic(rule, universe, language)
            assert result.rule is not None and result.rule_json is not None
            store.publish(
                f"view {i % 20}", rule, result.rule_json, "deterministic", result.rewrite_note
            )
            universe.evaluate(result.rule)
            publishes.append((time.perf_counter() - started) * 1000)
        revisions = max(len(store.revisions(f"view {n}")) for n in range(20))
        store.close()
    return {
        "size": size,
        "language": language,
        "rules": len(rules),
        "build_ms": statistics.median(builds) * 1000,
        "preview_p50": percentile(previews, 0.5),
        "preview_p95": percentile(previews, 0.95),
        "preview_max": max(previews),
        "publish_p50": percentile(publishes, 0.5),
        "publish_p95": percentile(publishes, 0.95),
        "publish_max": max(publishes),
        "median_hits": statistics.median(hits),
        "max_revisions": revisions,
    }


def format_rows(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| entities | language | universe build | preview p50 / p95 / max | "
        "publish p50 / p95 / max | median hits |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['size']:,} | {r['language']} | {r['build_ms']:.1f} ms | "
            f"{r['preview_p50']:.2f} / {r['preview_p95']:.2f} / {r['preview_max']:.2f} ms | "
            f"{r['publish_p50']:.2f} / {r['publish_p95']:.2f} / {r['publish_max']:.2f} ms | "
            f"{r['median_hits']:.0f} |"
        )
    return "\n".join(lines)


def format_targets(rows: list[dict[str, Any]]) -> str:
    big = [r for r in rows if r["size"] >= 10_000]
    if not big:
        return "(no 10,000-entity run: targets not checked)"
    preview_p95 = max(r["preview_p95"] for r in big)
    publish_p95 = max(r["publish_p95"] for r in big)
    publish_max = max(r["publish_max"] for r in big)
    return "\n".join(
        [
            f"- preview p95 ≤ 20 ms at 10,000 entities: {preview_p95:.2f} ms — "
            f"{'met' if preview_p95 <= 20 else 'NOT met'}",
            f"- publish ≤ 50 ms at 10,000 entities: p95 {publish_p95:.2f} ms, max "
            f"{publish_max:.2f} ms — {'met' if publish_p95 <= 50 else 'NOT met'}",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--languages", default="en,zh")
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", metavar="FILE", help="update the views section of FILE")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rows = []
    for size in (int(s) for s in args.sizes.split(",") if s.strip()):
        for language in (x.strip() for x in args.languages.split(",") if x.strip()):
            print(f"measuring {size:,} entities, {language} …", file=sys.stderr, flush=True)
            rows.append(measure(size, language, args.runs, args.seed))
    table = "\n".join(
        [
            "## View rules: preview and publish",
            "",
            format_rows(rows),
            "",
            "Synthetic homes (`bench/synthetic/`) with 30 labels spread over the entities; "
            f"{rows[0]['rules'] if rows else 0} rules of every shape (labels, areas, floors, type "
            "words, namespaces, 8-deep nesting, a 40-tag OR, a phrase split into tags). Preview "
            "= compile + evaluate + samples; publish = compile + SQLite write (WAL, 5 revisions "
            "kept) + evaluate.",
            "",
            format_targets(rows),
        ]
    )
    print(table)
    if args.write:
        write_table(args.write, "views", table, "bench.views", argv, time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
