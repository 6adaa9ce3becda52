"""Loading the language files into a `LexiconSet`: every language plus the shared tables,
able to learn more words per language from Home Assistant's intent data."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from ..intents_data import intent_languages
from ..intents_lexicon import learned_sections
from ..text import normalize, script_of, tokens
from .building import build_lexicon
from .learned import merge_learned_data, skeleton_data
from .model import Lexicon
from .tables import TypeTable, ValueTable, load_types, load_values

LEXICON_DIR = Path(__file__).parent.parent / "lexicons"
SHARED_FILES = {
    "types.json",
    "zh_hant_to_hans.json",
    "zh_pinyin.json",
    "statuses.json",
    "status_kinds.json",
    "measures.json",
    "intents_map.json",
    "values.json",
}
Learner = Callable[[str], "dict[str, Any] | None"]


@dataclass(frozen=True, slots=True)
class LexiconSet:
    """Every loaded language plus the shared type table."""

    lexicons: dict[str, Lexicon]
    types: TypeTable
    default_language: str = "en"
    values: ValueTable = field(default_factory=ValueTable)
    # The hand-written files' data by language (after "extends"), for merging learned words.
    sources: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    # Language tag → learned sections (intents_lexicon.learned_sections); None: no learning.
    learner: Learner | None = field(default=None, repr=False, compare=False)
    learnable: Callable[[], tuple[str, ...]] = field(default=tuple, repr=False, compare=False)
    # Learned lexicons by language, shared by every set derived with `with_learned`: what
    # the intent data teaches is the same for every home, so it is learned once per process.
    _learned: dict[str, Lexicon] = field(default_factory=dict, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def learn(self, language: str | None) -> Lexicon:
        """The lexicon for `language` with the words learned from Home Assistant's intent
        data merged under the hand-written ones; learned once per language, then cached.
        This set itself is left as it is: `with_learned` gives a set that reads with it.

        Blocking (reads the intent data): call it from an executor, e.g. when an index is
        built. Without intent data, or for a language it lacks, this is `get`."""
        if not language or self.learner is None:
            return self.get(language)
        tag = language.lower().replace("_", "-")
        canonical = self._canonical(tag)
        with self._lock:
            cached = self._learned.get(canonical)
            if cached is not None:
                return cached
            codes = [c for c in self.learnable() if self._canonical(c) == canonical]
            if tag in self.learnable() and tag not in codes:
                codes.insert(0, tag)
            parts = [p for p in (self.learner(code) for code in codes) if p]
            base = self.sources.get(canonical)
            if not parts:
                lex = self.lexicons[canonical] if canonical in self.lexicons else self.get(tag)
            else:
                lex = build_lexicon(
                    merge_learned_data(
                        base or skeleton_data(canonical, self._default_messages()), parts
                    )
                )
                if canonical in self.lexicons:
                    # Learned words are shared by too many languages to tell them apart.
                    lex.detect_words = self.lexicons[canonical].detect_words
            self._learned[canonical] = lex
            return lex

    def _default_messages(self) -> dict[str, str]:
        return dict(self.sources.get(self.default_language, {}).get("messages", {}))

    def with_learned(self, *languages: str | None) -> LexiconSet:
        """This set, reading `languages` with their learned words (see `learn`). A new set
        that shares everything else; this one is unchanged, so whoever holds the bundled
        set never sees words another home's index learned."""
        added: dict[str, Lexicon] = {}
        for language in languages:
            if not language or self.learner is None:
                continue
            lex = self.learn(language)
            if self.lexicons.get(lex.language) is not lex:
                added[lex.language] = lex
        if not added:
            return self
        return replace(self, lexicons={**self.lexicons, **added})

    def _canonical(self, tag: str) -> str:
        """The language a tag belongs to: a bundled lexicon's (by code, alias or primary
        subtag), else the tag itself ("sv", "pt-br" when no Portuguese file exists)."""
        if tag in self.lexicons:
            return tag
        for lex in self.lexicons.values():
            if tag in lex.aliases:
                return lex.language
        primary = tag.split("-")[0]
        if primary in self.lexicons:
            return primary
        return tag

    def get(self, language: str | None) -> Lexicon:
        """The lexicon for a language tag such as "zh-CN", "en_US" or "de"; else the default."""
        if language:
            tag = language.lower().replace("_", "-")
            if tag in self.lexicons:
                return self.lexicons[tag]
            for lex in self.lexicons.values():
                if tag in lex.aliases:
                    return lex
            primary = tag.split("-")[0]
            if primary in self.lexicons:
                return self.lexicons[primary]
        return self.lexicons[self.default_language]

    def detect(self, text: str, fallback: str | None = None) -> str:
        """The language of `text`: by script, then by which lexicon knows most of its words."""
        norm = normalize(text)
        script = script_of(norm)
        same_script = [lex for lex in self.lexicons.values() if lex.script == script]
        # Languages marked by their own letters (kana, Hangul) are told apart by them first.
        marked = [
            lex
            for lex in same_script
            if lex.marker_chars and any(ch in lex.marker_chars for ch in norm)
        ]
        if marked:
            same_script = marked
        else:
            same_script = [lex for lex in same_script if not lex.marker_chars] or same_script
        if len(same_script) == 1:
            return same_script[0].language
        if not same_script:
            return self.get(fallback).language
        toks = tokens(norm)
        # A word known to several of the candidate languages ("la", "de", "luz") says less
        # than one only a single language knows ("accendi", "celui"): its weight is shared.
        scores: dict[str, float] = {}
        for tok in toks:
            knowing = [lex for lex in same_script if tok in lex.detect_words]
            for lex in knowing:
                share = lex.detect_words[tok] / len(knowing)
                scores[lex.language] = scores.get(lex.language, 0.0) + share
        if not scores:
            return self.get(fallback).language
        fallback_lang = self.get(fallback).language if fallback else self.default_language
        best = max(scores.values())
        winners = [lang for lang, s in scores.items() if best - s < 1e-9]
        if fallback_lang in winners:
            return fallback_lang
        return sorted(winners)[0]


def _resolve_extends(raw: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Files may extend another ("zh-hk" extends "zh"): the base's words plus their own."""
    out: dict[str, dict[str, Any]] = {}

    def resolve(language: str, depth: int = 0) -> dict[str, Any]:
        if language in out:
            return out[language]
        data = raw[language]
        base_name = data.get("extends")
        if not base_name or base_name not in raw or depth > 4:
            out[language] = data
            return data
        base = resolve(base_name, depth + 1)
        merged: dict[str, Any] = json.loads(json.dumps(base))
        for key, value in data.items():
            if (
                isinstance(value, dict)
                and isinstance(merged.get(key), dict)
                and key not in ("messages",)
            ):
                for sub, words in value.items():
                    old = merged[key].get(sub)
                    merged[key][sub] = (
                        old + [w for w in words if w not in old]
                        if isinstance(old, list) and isinstance(words, list)
                        else words
                    )
            elif (
                isinstance(value, list) and isinstance(merged.get(key), list) and key != "suffixes"
            ):
                merged[key] = merged[key] + [w for w in value if w not in merged[key]]
            elif isinstance(value, dict) and key == "messages":
                merged[key] = {**merged.get(key, {}), **value}
            else:
                merged[key] = value
        merged.pop("extends", None)
        out[language] = merged
        return merged

    for language in raw:
        resolve(language)
    return out


def load_lexicons(
    directory: Path | None = None,
    learner: Learner | None = None,
    learnable: Callable[[], tuple[str, ...]] | None = None,
) -> LexiconSet:
    """Load every language file in `directory` (default: the bundled lexicons).

    With a `learner`, `LexiconSet.learn(language)` adds the words learned from Home
    Assistant's intent data (see `intents_lexicon`) under a language's hand-written ones."""
    directory = directory or LEXICON_DIR
    raw: dict[str, dict[str, Any]] = {}
    for path in sorted(directory.glob("*.json")):
        if path.name in SHARED_FILES:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        raw[str(data["language"])] = data
    sources = _resolve_extends(raw)
    lexicons = {language: build_lexicon(data) for language, data in sources.items()}
    types = load_types(directory / "types.json")
    values_path = directory / "values.json"
    values = load_values(values_path) if values_path.exists() else ValueTable()
    return LexiconSet(
        lexicons=lexicons,
        types=types,
        values=values,
        sources=sources,
        learner=learner,
        learnable=learnable or tuple,
    )


@cache
def default_lexicons() -> LexiconSet:
    """The bundled lexicons, loaded once, able to learn more from Home Assistant's intent
    data (`learn`); the bundled files are read-only data."""
    return load_lexicons(learner=learned_sections, learnable=intent_languages)
