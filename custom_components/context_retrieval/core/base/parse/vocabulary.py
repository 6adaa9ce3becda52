"""The words a typo may be repaired to, per home and language: each word's written form and
whether the home uses it, names with one word blanked, CJK names with one character blanked.
Each table is made once and kept while the home stays as it is (`per_home`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..index import DeviceIndex
from ..lexicon import Lexicon
from ..phrase_table import Ref
from ..text import has_cjk, is_cjk


def per_home[T](
    index: DeviceIndex,
    name: str,
    lex: Lexicon,
    build: Callable[[], T],
    update: Callable[[T, set[str]], bool] | None = None,
) -> T:
    """A table made from the home for `lex`'s language, kept by the home's name tables
    (`NameTables.derived`) while the home stays as it is."""
    return index.names.derived(name, lex.language, build, update)


def surfaces(index: DeviceIndex, lex: Lexicon) -> dict[str, tuple[str, bool]]:
    """Each repair candidate's key → (a written form of it, whether it is a word of the home).
    A repaired word is put back as written, so a corrected name matches exactly."""

    def build() -> dict[str, tuple[str, bool]]:
        table: dict[str, tuple[str, bool]] = {}
        for keys, forms in lex.raw_forms.items():
            if len(keys) == 1:
                for raws in forms.values():
                    # Sorted: a set's order changes from run to run, the word put back must not.
                    for raw in sorted(raws):
                        table.setdefault(keys[0], (raw[0], False))
        for keys, refs in index.table(lex).entries.items():
            for ref in refs:
                if ref.source == "area_kind":
                    continue
                _add_home_words(table, keys, ref.raw)
        return table

    def update(table: dict[str, tuple[str, bool]], changed: set[str]) -> bool:
        # New names' words join; words of names gone may stay (a repair into one is kept only
        # if it then matches something).
        for entity_id in changed:
            for keys, raw in index.name_phrases(entity_id, lex):
                _add_home_words(table, keys, raw)
        return True

    return per_home(index, "_surfaces", lex, build, update)


def _add_home_words(
    table: dict[str, tuple[str, bool]], keys: tuple[str, ...], raw: tuple[str, ...]
) -> None:
    for key, written in zip(keys, raw, strict=False):
        if key not in table or not table[key][1]:
            table[key] = (written, True)


@dataclass(frozen=True, slots=True)
class NamePatterns:
    """Names of two or more words with one word blanked → the blanked word's keys; and every
    word those names hold, so a reader skips stretches no name is made of."""

    by_pattern: dict[tuple[str, ...], set[str]] = field(default_factory=dict)
    words: set[str] = field(default_factory=set)

    def add(self, keys: tuple[str, ...]) -> None:
        if 2 <= len(keys) <= MAX_PATTERN_WORDS and not has_cjk("".join(keys)):
            self.words.update(keys)
            for pos, key in enumerate(keys):
                self.by_pattern.setdefault((*keys[:pos], BLANK, *keys[pos + 1 :]), set()).add(key)


def name_patterns(index: DeviceIndex, lex: Lexicon) -> NamePatterns:
    """The home's `NamePatterns` in `lex`'s keys."""

    def build() -> NamePatterns:
        patterns = NamePatterns()
        for keys, refs in index.table(lex).entries.items():
            if not all(r.source == "area_kind" for r in refs):
                patterns.add(keys)
        return patterns

    def update(patterns: NamePatterns, changed: set[str]) -> bool:
        # As for the words: a pattern of a name gone only offers a repair nothing then matches.
        for entity_id in changed:
            for keys, _ in index.name_phrases(entity_id, lex):
                patterns.add(keys)
        return True

    return per_home(index, "_name_patterns", lex, build, update)


BLANK = "\x00"
# Names of more words than this are not repaired word by word.
MAX_PATTERN_WORDS = 8


def cjk_wildcards(index: DeviceIndex, lex: Lexicon) -> dict[str, list[Ref]]:
    """Room and device names with one character blanked, for one-character slips (书方→书房)."""

    def build() -> dict[str, list[Ref]]:
        table: dict[str, list[Ref]] = {}
        for keys, refs in index.table(lex).entries.items():
            if not 2 <= len(keys) <= 6 or not all(len(k) == 1 and is_cjk(k) for k in keys):
                continue
            for pos in range(len(keys)):
                pattern = "".join(keys[:pos]) + "?" + "".join(keys[pos + 1 :])
                table.setdefault(pattern, []).extend(
                    r for r in refs if r.kind in ("area", "entity")
                )
        return table

    return per_home(index, "_cjk_wild", lex, build)
