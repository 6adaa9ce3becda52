"""Time learning each language's lexicon from Home Assistant's intent data.

    .venv/bin/python -m bench.learn_lexicons [--languages it nl ...]

Per language: seconds to learn cold (nothing cached), and the number of learned words.
The budget is 1 s per language; a second call is a cache hit.
"""

from __future__ import annotations

import argparse
import sys
import time

from custom_components.context_retrieval.core.base import intents_lexicon, intents_templates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--languages", nargs="*", default=None)
    args = parser.parse_args(argv)
    languages = args.languages or list(intents_lexicon.intent_languages())
    print("| language | learn s | words |\n|---|---|---|")
    worst = 0.0
    for language in languages:
        for cached in (
            intents_lexicon.learned_sections,
            intents_templates.template_units,
            intents_templates.is_word,
        ):
            cached.cache_clear()
        started = time.perf_counter()
        sections = intents_lexicon.learned_sections(language) or {}
        elapsed = time.perf_counter() - started
        words = sum(
            len(v) if isinstance(v, list) else sum(len(w) for w in v.values())
            for v in sections.values()
        )
        worst = max(worst, elapsed)
        print(f"| {language} | {elapsed:.3f} | {words} |")
    print(f"worst {worst:.3f} s over {len(languages)} languages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
