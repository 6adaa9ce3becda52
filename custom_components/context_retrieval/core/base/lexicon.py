"""Language lexicons: the words of each language, loaded from data files.

Every language is one JSON file in `lexicons/` with the same keys (see `en.json`). Code never
branches on a language code; it asks the lexicon. `types.json` holds what type and state words
mean in Home Assistant terms and is shared by all languages.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
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
    "intents_map.json",
    "values.json",
}
# Sections a learned layer may add words to; everything else is the hand-written file's.
LEARNED_SECTIONS = (
    "actions",
    "types",
    "states",
    "question_status",
    "question",
    "area_prepositions",
    "fillers",
    "request_markers",
    "here",
    "everywhere",
    "quantifiers",
    "determiners",
    "value_words",
    "media_words",
    "colors",
    "levels",
)
# Sections that name values, not readings of a word: a learned colour name is added even when
# the hand-written file uses the same word elsewhere ("rosso" is a set-colour verb too).
VALUE_SECTIONS = frozenset({"colors", "levels", "color_temps", "changes"})
# Sections whose words a learned layer may never take over (any reading of them is the file's).
_METADATA = {
    "language",
    "name",
    "script",
    "aliases",
    "suffixes",
    "messages",
    "compound_words",
    "action_types",
    "state_words",
    "extends",
    "marker_chars",
    "learn_sections",
    "plural_markers",
    "separable_prefixes",
}

Learner = Callable[[str], "dict[str, Any] | None"]

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


@dataclass(frozen=True, slots=True)
class ActionValue:
    """What a set action sets: the attribute, the unit a bare number is in, and the range
    Home Assistant accepts (by unit when the unit decides it)."""

    attribute: str
    unit: str | None = None
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ValueTable:
    """The language-independent meaning of values (`values.json`)."""

    actions: dict[str, ActionValue] = field(default_factory=dict)
    percent_by_domain: dict[str, str] = field(default_factory=dict)
    degrees_action: str | None = None
    kelvin_action: str | None = None
    levels: dict[str, float] = field(default_factory=dict)
    color_temps: dict[str, float] = field(default_factory=dict)
    attribute_types: dict[str, tuple[str, ...]] = field(default_factory=dict)


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
    # Named values ("red", "max", "warm white", "brighter") by token keys: (category, value)
    # with category "color", "level", "color_temp" or "change"; see `parse.values`.
    value_names: dict[tuple[str, ...], list[tuple[str, str]]] = field(default_factory=dict)
    # Kinds of room ("bedroom") → the words for it; see `parse.rooms`.
    room_kinds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Particles of separable verbs ("zurück" of "zurückschicken"): see `parse.reading`.
    separable_prefixes: frozenset[str] = frozenset()
    value_name_len: int = 1
    minus_words: frozenset[tuple[str, ...]] = frozenset()
    # Words after which a noun means several even where its plural looks like its singular
    # ("welche Fenster", "which windows"); read with the count question words.
    plural_markers: frozenset[tuple[str, ...]] = frozenset()
    # Letters only this language writes (kana for Japanese, Hangul for Korean): text with one
    # of them is this language, text without them is not.
    marker_chars: frozenset[str] = frozenset()
    # The hand-written phrases, when words were learned on top of them: only these tell the
    # language apart in `detect` (learned function words are shared by too many languages).
    detect_phrases: frozenset[tuple[str, ...]] | None = None
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
        marker_chars=frozenset(_char_ranges(data.get("marker_chars", ""))),
        separable_prefixes=frozenset(normalize(w) for w in data.get("separable_prefixes", [])),
        room_kinds={
            str(kind): tuple(str(w) for w in words)
            for kind, words in data.get("room_kinds", {}).items()
            if not str(kind).startswith("_")
        },
        plural_markers=frozenset(
            tuple(tokens(normalize(w))) for w in data.get("plural_markers", []) if w.strip()
        ),
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
    for category, section in (
        ("color", "colors"),
        ("level", "levels"),
        ("color_temp", "color_temps"),
        ("change", "changes"),
    ):
        for value, words in data.get(section, {}).items():
            if value.startswith("_"):
                continue
            for w in words:
                keys = tuple(lex.key(t) for t in tokens(normalize(w)))
                # A value is a known word: never a name fragment, never "repaired".
                add(w, "value", "")
                if keys:
                    bucket = lex.value_names.setdefault(keys, [])
                    if (category, value) not in bucket:
                        bucket.append((category, value))
                    lex.value_name_len = max(lex.value_name_len, len(keys))
    lex.minus_words = frozenset(
        tuple(tokens(normalize(w))) for w in data.get("minus_words", []) if w.strip()
    )
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
    values: ValueTable = field(default_factory=ValueTable)
    # The hand-written files' data by language (after "extends"), for merging learned words.
    sources: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    # Language tag → learned sections (intents_lexicon.learned_sections); None: no learning.
    learner: Learner | None = field(default=None, repr=False, compare=False)
    learnable: Callable[[], tuple[str, ...]] = field(default=tuple, repr=False, compare=False)
    learned: set[str] = field(default_factory=set, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def learn(self, language: str | None) -> Lexicon:
        """The lexicon for `language` with the words learned from Home Assistant's intent
        data merged under the hand-written ones; learned once per language, then cached.

        Blocking (reads the intent data): call it from an executor, e.g. when an index is
        built. Without intent data, or for a language it lacks, this is `get`."""
        if not language or self.learner is None:
            return self.get(language)
        tag = language.lower().replace("_", "-")
        canonical = self._canonical(tag)
        with self._lock:
            if canonical in self.learned:
                return self.lexicons.get(canonical) or self.get(language)
            codes = [c for c in self.learnable() if self._canonical(c) == canonical]
            if tag in self.learnable() and tag not in codes:
                codes.insert(0, tag)
            parts = [self.learner(code) for code in codes]
            self.learned.add(canonical)
            if not any(parts) and canonical in self.lexicons:
                return self.lexicons[canonical]
            if not any(parts):
                return self.get(language)
            base = self.sources.get(canonical)
            merged = merge_learned_data(base or _skeleton(canonical, self), [p for p in parts if p])
            lex = _build(merged)
            if base is not None:
                lex.detect_phrases = frozenset(self.lexicons[canonical].phrases)
            self.lexicons[canonical] = lex
            return lex

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
        scores: Counter[str] = Counter()
        for lex in same_script:
            for tok in toks:
                key = (lex.key(tok),)
                if lex.detect_phrases is not None and key not in lex.detect_phrases:
                    continue
                entries = lex.lookup(key)
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


def _load_values(path: Path) -> ValueTable:
    data = json.loads(path.read_text(encoding="utf-8"))
    actions: dict[str, ActionValue] = {}
    for action, spec in data.get("actions", {}).items():
        if action.startswith("_"):
            continue
        ranges: dict[str, tuple[float, float]] = {}
        if "range" in spec:
            low, high = spec["range"]
            ranges[str(spec.get("unit") or "")] = (float(low), float(high))
        for unit, (low, high) in spec.get("ranges", {}).items():
            ranges[str(unit)] = (float(low), float(high))
        actions[action] = ActionValue(str(spec["attribute"]), spec.get("unit"), ranges)

    def numbers(section: str) -> dict[str, float]:
        return {k: float(v) for k, v in data.get(section, {}).items() if not k.startswith("_")}

    return ValueTable(
        actions=actions,
        percent_by_domain={
            k: str(v) for k, v in data.get("percent_by_domain", {}).items() if not k.startswith("_")
        },
        degrees_action=data.get("degrees_action"),
        kelvin_action=data.get("kelvin_action"),
        levels=numbers("levels"),
        color_temps=numbers("color_temps"),
        attribute_types={
            k: tuple(v) for k, v in data.get("attribute_types", {}).items() if not k.startswith("_")
        },
    )


def _char_ranges(spec: str) -> set[str]:
    """ "\u3040-\u30ff…" → the characters of those ranges (single characters allowed)."""
    chars: set[str] = set()
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            chars.update(chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1))
            i += 3
        else:
            chars.add(spec[i])
            i += 1
    return chars


def _word_strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {normalize(value)}
    if isinstance(value, list):
        return {w for item in value for w in _word_strings(item)}
    if isinstance(value, dict):
        return {
            w
            for k, item in value.items()
            if not str(k).startswith("_")
            for w in _word_strings(item)
        }
    return set()


def merge_learned_data(hand: dict[str, Any], learned: list[dict[str, Any]]) -> dict[str, Any]:
    """`hand` with learned words added under it: a word the hand-written file uses anywhere
    keeps the file's meaning only; new words join their learned section."""
    merged: dict[str, Any] = json.loads(json.dumps(hand))  # a deep copy of plain JSON data
    taken = {w for key, value in hand.items() if key not in _METADATA for w in _word_strings(value)}
    taken |= {
        normalize(k) for section in ("numbers", "floor_levels") for k in hand.get(section, {})
    }
    # A learned phrase that contains a hand-written phrase of two or more words would win
    # over it by length ("in the room" over "the room"): the file's reading stands.
    taken_multi = {tuple(w.split(" ")) for w in taken if " " in w}

    def free(word: str) -> bool:
        norm = normalize(word)
        if norm in taken:
            return False
        parts = tuple(norm.split(" "))
        return not any(
            parts[i:j] in taken_multi
            for i in range(len(parts))
            for j in range(i + 2, len(parts) + 1)
            if (i, j) != (0, len(parts))
        )

    # A file may narrow what the learned layer adds ("learn_sections": [] for a language
    # whose file already says everything the templates could).
    allowed = set(hand.get("learn_sections", LEARNED_SECTIONS)) & set(LEARNED_SECTIONS)
    for part in learned:
        for section, value in part.items():
            if section not in allowed:
                continue
            if isinstance(value, dict):
                target = merged.setdefault(section, {})
                own = {w for words in target.values() for w in words}
                for key, words in value.items():
                    bucket = target.setdefault(key, [])
                    if section in VALUE_SECTIONS:
                        bucket.extend(w for w in words if w not in own and w not in bucket)
                    else:
                        bucket.extend(w for w in words if free(w) and w not in bucket)
            else:
                bucket = merged.setdefault(section, [])
                bucket.extend(w for w in value if free(w) and w not in bucket)
    return merged


def _skeleton(language: str, lexicons: LexiconSet) -> dict[str, Any]:
    """What a language without a hand-written file starts from: its code, and the default
    language's messages (a question is better asked in English than not at all)."""
    default = lexicons.sources.get(lexicons.default_language, {})
    return {
        "language": language,
        "name": language,
        "script": "latin",
        "messages": dict(default.get("messages", {})),
    }


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
        if path.name in _SHARED_FILES:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        raw[str(data["language"])] = data
    sources = _resolve_extends(raw)
    lexicons = {language: _build(data) for language, data in sources.items()}
    types = _load_types(directory / "types.json")
    values_path = directory / "values.json"
    values = _load_values(values_path) if values_path.exists() else ValueTable()
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
    from .intents_lexicon import intent_languages, learned_sections

    return load_lexicons(learner=learned_sections, learnable=intent_languages)
