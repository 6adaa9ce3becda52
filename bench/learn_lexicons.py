"""Time learning each language's lexicon from Home Assistant's intent data.

    .venv/bin/python -m bench.learn_lexicons [--languages it nl ...] [--write BENCHMARKS.md]

Per language: seconds to learn cold (nothing cached: the language's templates expanded and read
for the first time), seconds for the second call (the per-language cache), and the number of
learned words. Target: ≤ 1 s per language learned, and a cache hit on the second call.
"""

from __future__ import annotations

import argparse
import sys
import time

from custom_components.context_retrieval.core.base import (
    intents_data,
    intents_lexicon,
    intents_templates,
)

from . import report

SECTION = "learn"
BUDGET_S = 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--languages", nargs="*", default=None)
    parser.add_argument("--write", help="replace this section of the Markdown file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    languages = args.languages or list(intents_data.intent_languages())
    rows = ["| language | learn s (cold) | again s (cached) | words |", "|---|---|---|---|"]
    worst = worst_cached = 0.0
    worst_language = ""
    for language in languages:
        for cached in (
            intents_lexicon.learned_sections,
            intents_templates.template_units,
            intents_templates.is_word,
        ):
            cached.cache_clear()
        t0 = time.perf_counter()
        sections = intents_lexicon.learned_sections(language) or {}
        t1 = time.perf_counter()
        intents_lexicon.learned_sections(language)
        t2 = time.perf_counter()
        words = sum(
            len(v) if isinstance(v, list) else sum(len(w) for w in v.values())
            for v in sections.values()
        )
        if t1 - t0 > worst:
            worst, worst_language = t1 - t0, language
        worst_cached = max(worst_cached, t2 - t1)
        rows.append(f"| {language} | {t1 - t0:.3f} | {t2 - t1:.6f} | {words} |")
    met = "yes" if worst <= BUDGET_S else "**no**"
    text = "\n".join(
        [
            "### Languages learned from Home Assistant's intent data (`bench/learn_lexicons.py`)",
            "",
            *rows,
            "",
            "| target | measured | met |",
            "|---|---|---|",
            f"| ≤ {BUDGET_S:g} s per language learned, {len(languages)} languages | worst "
            f"{worst:.3f} s ({worst_language}) | {met} |",
            f"| second call served from the cache | worst {worst_cached * 1e6:.0f} µs | "
            f"{'yes' if worst_cached < 0.001 else '**no**'} |",
        ]
    )
    print(text)
    elapsed = time.perf_counter() - started
    if args.write:
        report.write_table(
            args.write, SECTION, text, "bench.learn_lexicons", list(argv or sys.argv[1:]), elapsed
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
