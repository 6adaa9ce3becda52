"""Language lexicons: the words of each language, loaded from data files.

Every language is one JSON file in `lexicons/` with the same keys (see `en.json`). Code never
branches on a language code; it asks the lexicon. `types.json` holds what type and state words
mean in Home Assistant terms and is shared by all languages.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .text import normalize, script_of, tokens

LEXICON_DIR = Path(__file__).parent / "lexicons"
_SHARED_FILES = {
    "types.json",
    "zh_hant_to_hans.json",
    "zh_pinyin.json",
    "statuses.json",
    "measures.json",
}

Target = tuple[str, str | None]  # (domain, device_class or None for any)

# Kinds whose words may be matched through their stem ("lights", "devices", "songs").
INFLECTABLE_KINDS = frozenset(
    {
        "type",
        "generic",
        "media",
        "everywhere",
        "value",
        "filler",
        "quant_all",
        "quant_any",
        "percent",
    }
)


@dataclass(frozen=True, slots=True)
class TypeSpec:
    """What a type word means: tiers of (domain, device_class) targets."""

    type_id: str
    tiers: tuple[tuple[Target, ...], ...]
    name_domains: frozenset[str] = frozenset()
    name_only: bool = False

    @property
    def domains(self) -> frozenset[str]:
        return frozenset(d for tier in self.tiers for d, _ in tier)


@dataclass(frozen=True, slots=True)
class TypeTable:
    types: dict[str, TypeSpec]
    states: dict[str, tuple[tuple[Target, ...], ...]]  # state → tiers of targets
    defaults: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Lexicon:
    """One language's words, indexed by normalised token keys."""

    language: str
    name: str
    script: str
    aliases: tuple[str, ...]
    suffix_rules: tuple[tuple[str, str, int, bool], ...]
    phrases: dict[tuple[str, ...], list[tuple[str, str]]] = field(default_factory=dict)
    raw_forms: dict[tuple[str, ...], dict[tuple[str, str], set[tuple[str, ...]]]] = field(
        default_factory=dict
    )
    action_types: dict[str, str] = field(default_factory=dict)
    numbers: dict[str, int] = field(default_factory=dict)
    messages: dict[str, str] = field(default_factory=dict)
    max_phrase_len: int = 1
    type_words: dict[str, list[str]] = field(default_factory=dict)
    floor_levels: dict[str, int] = field(default_factory=dict)
    compound_words: bool = False  # German-style compounds: "Schlafzimmerlicht"
    # View-rule connectives ("und", "或者"), normalised; see `views.parser`.
    rule_and: tuple[str, ...] = ()
    rule_or: tuple[str, ...] = ()
    # Words for "a room" in general: never a part of one room's name ("which room is warmest").
    room_words: frozenset[str] = frozenset()
    # Natural questions (see `questions.compiler`): phrase tokens → (category, value) where
    # the category is a section of the lexicon: question kinds, statuses, comparisons, units,
    # fillers. Kept apart from `phrases` so commands are read exactly as before.
    question_phrases: dict[tuple[str, ...], list[tuple[str, str]]] = field(default_factory=dict)
    question_words: set[str] = field(default_factory=set)  # every token of those phrases
    state_words: dict[str, str] = field(default_factory=dict)  # HA state → how it is said
    _key_cache: dict[str, str] = field(default_factory=dict, repr=False)

    def key(self, token: str) -> str:
        """The matching key of one normalised token: a light, rule-based stem."""
        cached = self._key_cache.get(token)
        if cached is not None:
            return cached
        key = token
        for suffix, replacement, min_stem, _ in self.suffix_rules:
            if token.endswith(suffix) and len(token) - len(suffix) >= min_stem:
                key = token[: len(token) - len(suffix)] + replacement
                break
        if len(self._key_cache) < 20_000:
            self._key_cache[token] = key
        return key

    def is_plural(self, token: str) -> bool:
        """Whether the token's ending is one of the language's plural endings."""
        for suffix, _, min_stem, plural in self.suffix_rules:
            if token.endswith(suffix) and len(token) - len(suffix) >= min_stem:
                return plural
        return False

    def keys(self, text: str) -> tuple[str, ...]:
        return tuple(self.key(t) for t in tokens(normalize(text)))

    def lookup(
        self, keys: tuple[str, ...], raw: tuple[str, ...] | None = None
    ) -> list[tuple[str, str]]:
        """Readings of a token sequence. With `raw`, words whose inflection carries meaning
        (verbs, particles, pronouns…) must match as written: "switches on" is not "switch on"."""
        entries = self.phrases.get(keys, [])
        if raw is None or not entries:
            return entries
        forms = self.raw_forms.get(keys, {})
        return [e for e in entries if e[0] in INFLECTABLE_KINDS or raw in forms.get(e, ())]

    def message(self, key: str, /, **values: Any) -> str:
        template = self.messages.get(key, "")
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return template


def _parse_suffix_rules(raw: list[Any]) -> tuple[tuple[str, str, int, bool], ...]:
    """[suffix, replacement, min_stem_len, is_plural] entries; the flag says the ending marks a
    plural ("lights", "лампы"), not just a case or gender ending ("лампу", "Rollladen")."""
    rules: list[tuple[str, str, int, bool]] = []
    for item in raw:
        if isinstance(item, str):
            rules.append((item, "", 3, False))
        elif isinstance(item, list) and item:
            suffix = str(item[0])
            replacement = str(item[1]) if len(item) > 1 else ""
            min_stem = int(item[2]) if len(item) > 2 else 3
            plural = bool(item[3]) if len(item) > 3 else False
            rules.append((suffix, replacement, min_stem, plural))
    # Longest suffix first so "ies" wins over "s".
    rules.sort(key=lambda r: -len(r[0]))
    return tuple(rules)


def add_question(lex: Lexicon, phrase: str, category: str, value: str) -> None:
    # Matched as written, not by stem: "locks" is a noun, "lock" the status word.
    keys = tuple(tokens(normalize(phrase)))
    if not keys:
        return
    lex.question_words.update(keys)
    entries = lex.question_phrases.setdefault(keys, [])
    if (category, value) not in entries:
        entries.append((category, value))


def _build(data: dict[str, Any]) -> Lexicon:
    lex = Lexicon(
        language=data["language"],
        name=data.get("name", data["language"]),
        script=data.get("script", "latin"),
        aliases=tuple(a.lower() for a in data.get("aliases", [])),
        suffix_rules=_parse_suffix_rules(data.get("suffixes", [])),
        action_types={
            k: v for k, v in data.get("action_types", {}).items() if not k.startswith("_")
        },
        messages=dict(data.get("messages", {})),
        compound_words=bool(data.get("compound_words", False)),
        rule_and=tuple(normalize(w) for w in data.get("rule_and", [])),
        rule_or=tuple(normalize(w) for w in data.get("rule_or", [])),
        room_words=frozenset(normalize(w) for w in data.get("room_words", [])),
    )

    def add(phrase: str, kind: str, value: str) -> None:
        raw = tuple(tokens(normalize(phrase)))
        keys = tuple(lex.key(t) for t in raw)
        if not keys:
            return
        entries = lex.phrases.setdefault(keys, [])
        if (kind, value) not in entries:
            entries.append((kind, value))
        lex.raw_forms.setdefault(keys, {}).setdefault((kind, value), set()).add(raw)
        lex.max_phrase_len = max(lex.max_phrase_len, len(keys))

    for action, words in data.get("actions", {}).items():
        for w in words:
            add(w, "action", action)
    for w in data.get("particle_verbs", []):
        add(w, "particle_verb", "")
    for w, action in data.get("particles", {}).items():
        add(w, "particle", action)
    for w in data.get("determiners", []):
        add(w, "determiner", "")
    for quant, words in data.get("quantifiers", {}).items():
        for w in words:
            add(w, f"quant_{quant}", quant)
    for w in data.get("exclusion", []):
        add(w, "exclusion", "")
    for w in data.get("exclusion_suffix", []):
        add(w, "exclusion_suffix", "")
    for w in data.get("exclusion_postfix", []):
        add(w, "exclusion_postfix", "")
    for w in data.get("negation", []):
        add(w, "negation", "")
    for w in data.get("request_markers", []):
        add(w, "request", "")
    for number, words in data.get("pronouns", {}).items():
        kind = "pronoun_pl" if number == "plural" else "pronoun_sg"
        for w in words:
            add(w, kind, number)
    for w in data.get("here", []):
        add(w, "here", "")
    for w in data.get("everywhere", []):
        add(w, "everywhere", "")
    for direction, words in data.get("relative_floors", {}).items():
        for w in words:
            add(w, "floor_rel", direction)
    lex.floor_levels = {normalize(k): int(v) for k, v in data.get("floor_levels", {}).items()}
    for w in data.get("generic_device", []):
        add(w, "generic", "")
    for w in data.get("fillers", []):
        add(w, "filler", "")
    for w in data.get("split", []):
        add(w, "split", "")
    for w in data.get("conjunctions", []):
        add(w, "conj", "")
    for w in data.get("target_prepositions", []):
        add(w, "target_prep", "")
    for w in data.get("area_prepositions", []):
        add(w, "area_prep", "")
    for w in data.get("media_words", []):
        add(w, "media", "")
    for w in data.get("value_words", []):
        add(w, "value", "")
    for w in data.get("percent_words", []):
        add(w, "percent", "")
    for type_id, words in data.get("types", {}).items():
        lex.type_words[type_id] = [normalize(w) for w in words]
        for w in words:
            add(w, "type", type_id)
    for state, words in data.get("states", {}).items():
        if state.startswith("_"):
            continue
        for w in words:
            add(w, "state", state)
    for position, words in data.get("ordinals", {}).items():
        for w in words:
            add(w, "ordinal", position)
    for w in data.get("answer_all", []):
        add(w, "answer_all", "")
    for w in data.get("answer_cancel", []):
        add(w, "answer_cancel", "")
    for w, n in data.get("numbers", {}).items():
        lex.numbers[normalize(w)] = int(n)
        add(w, "number", str(n))
    for category, section in (
        ("kind", "question"),
        ("status", "question_status"),
        ("compare", "question_compare"),
        ("unit", "question_units"),
    ):
        for value, words in data.get(section, {}).items():
            for w in words:
                add_question(lex, w, category, value)
    for w in data.get("question_fillers", []):
        add_question(lex, w, "filler", "")
    lex.state_words = {str(k): str(v) for k, v in data.get("state_words", {}).items()}
    return lex


@dataclass(frozen=True, slots=True)
class LexiconSet:
    """Every loaded language plus the shared type table."""

    lexicons: dict[str, Lexicon]
    types: TypeTable
    default_language: str = "en"

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
        if len(same_script) == 1:
            return same_script[0].language
        if not same_script:
            return self.get(fallback).language
        toks = tokens(norm)
        scores: Counter[str] = Counter()
        for lex in same_script:
            for tok in toks:
                entries = lex.lookup((lex.key(tok),))
                if entries:
                    # Content words say more about the language than fillers shared by many.
                    weight = 1 if all(kind == "filler" for kind, _ in entries) else 2
                    scores[lex.language] += weight
        if not scores:
            return self.get(fallback).language
        best = max(scores.values())
        winners = [lang for lang, s in scores.items() if s == best]
        fallback_lang = self.get(fallback).language if fallback else self.default_language
        if fallback_lang in winners:
            return fallback_lang
        return sorted(winners)[0]


def _load_types(path: Path) -> TypeTable:
    data = json.loads(path.read_text(encoding="utf-8"))
    types: dict[str, TypeSpec] = {}
    for type_id, spec in data.get("types", {}).items():
        if type_id.startswith("_"):
            continue
        tiers = tuple(tuple((str(d), c) for d, c in tier) for tier in spec["tiers"])
        types[type_id] = TypeSpec(
            type_id=type_id,
            tiers=tiers,
            name_domains=frozenset(spec.get("name_domains", [])),
            name_only=bool(spec.get("name_only", False)),
        )
    states = {
        state: tuple(tuple((str(d), c) for d, c in tier) for tier in tiers)
        for state, tiers in data.get("states", {}).items()
        if not state.startswith("_")
    }
    defaults = {k: str(v) for k, v in data.get("defaults", {}).items() if not k.startswith("_")}
    return TypeTable(types=types, states=states, defaults=defaults)


def load_lexicons(directory: Path | None = None) -> LexiconSet:
    """Load every language file in `directory` (default: the bundled lexicons)."""
    directory = directory or LEXICON_DIR
    lexicons: dict[str, Lexicon] = {}
    for path in sorted(directory.glob("*.json")):
        if path.name in _SHARED_FILES:
            continue
        lex = _build(json.loads(path.read_text(encoding="utf-8")))
        lexicons[lex.language] = lex
    types = _load_types(directory / "types.json")
    return LexiconSet(lexicons=lexicons, types=types)


@cache
def default_lexicons() -> LexiconSet:
    """The bundled lexicons, loaded once: they are read-only data."""
    return load_lexicons()
