"""One language's lexicon: its words indexed by normalised token keys, built from the data of
its file (plus learned words, see `learned`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..text import normalize, tokens

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
    # Every beginning of a phrase's keys, the whole phrase included: reading an utterance stops
    # lengthening a stretch of words as soon as no phrase begins with it.
    phrase_prefixes: set[tuple[str, ...]] = field(default_factory=set)
    type_words: dict[str, list[str]] = field(default_factory=dict)
    floor_levels: dict[str, int] = field(default_factory=dict)
    compound_words: bool = False  # German-style compounds: "Schlafzimmerlicht"
    # View-rule connectives ("und", "或者"), normalised; see `views.parser`.
    rule_and: tuple[str, ...] = ()
    rule_or: tuple[str, ...] = ()
    # Words that leave out what follows them ("except", "without", "除了") and what precedes
    # them ("excluded", "以外"); a word that ends a modifier ("的": "不在厨房的灯" leaves out
    # the kitchen, not the lights); words a rule says without naming anything ("labelled").
    rule_not: tuple[str, ...] = ()
    rule_not_after: tuple[str, ...] = ()
    rule_of: tuple[str, ...] = ()
    rule_fillers: frozenset[str] = frozenset()
    # Words for "a room" in general: never a part of one room's name ("which room is warmest").
    room_words: frozenset[str] = frozenset()
    # Kinds of room → the words for one ("bedroom": "bedroom", "guest room"…), normalised: a
    # room whose name holds one is of that kind, and the word said alone means every room of
    # the kind when no room has exactly that name ("卧室" is 主卧 and 次卧).
    room_kinds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Natural questions (see `questions.compiler`): phrase tokens → (category, value) where
    # the category is a section of the lexicon: question kinds, statuses, comparisons, units,
    # fillers. Kept apart from `phrases` so commands are read exactly as before.
    question_phrases: dict[tuple[str, ...], list[tuple[str, str]]] = field(default_factory=dict)
    question_words: set[str] = field(default_factory=set)  # every token of those phrases
    state_words: dict[str, str] = field(default_factory=dict)  # HA state → how it is said
    # Named values ("red", "max", "warm white", "brighter") by token keys: (category, value)
    # with category "color", "level", "color_temp" or "change"; see `parse.values`.
    value_names: dict[tuple[str, ...], list[tuple[str, str]]] = field(default_factory=dict)
    # Particles that close a question ("吗"): the sentence asks, whatever verb it has.
    question_particles: frozenset[str] = frozenset()
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
    # Words as written that tell the language apart in `detect`, with their weight (content
    # words 2, grammar 1). Taken from the hand-written file: learned function words are
    # shared by too many languages to say anything.
    detect_words: dict[str, int] = field(default_factory=dict)
    # Words before a value that make it the value to reach, not a step ("dim it to 30 %").
    value_to: frozenset[str] = frozenset()
    # Units of time: a number said with one is a delay, no setting ("in 5 minutes").
    durations: frozenset[str] = frozenset()
    # Replies to a yes/no question ("Unlock the front door?"), as written token tuples.
    yes_words: frozenset[tuple[str, ...]] = frozenset()
    no_words: frozenset[tuple[str, ...]] = frozenset()
    # Words that tie a phrase together and name nothing ("de" in "lámpara de lectura"):
    # determiners, conjunctions and prepositions, each token as written.
    function_words: frozenset[str] = frozenset()
    _key_cache: dict[str, str] = field(default_factory=dict, repr=False)
    _plural_cache: dict[str, bool] = field(default_factory=dict, repr=False)

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
        cached = self._plural_cache.get(token)
        if cached is not None:
            return cached
        plural = False
        for suffix, _, min_stem, is_plural in self.suffix_rules:
            if token.endswith(suffix) and len(token) - len(suffix) >= min_stem:
                plural = is_plural
                break
        if len(self._plural_cache) < 20_000:
            self._plural_cache[token] = plural
        return plural

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

    def yes_or_no(self, text: str) -> bool | None:
        """True for a reply that says yes, False for no, None for anything else: the whole
        reply, politeness aside ("yes please", "好的"), must be one of the words."""
        said = tuple(t for t in tokens(normalize(text)) if not self._filler(t))
        whole = tuple(tokens(normalize(text)))
        for words in (said, whole):
            if words in self.yes_words:
                return True
            if words in self.no_words:
                return False
        # "no, leave it", "sí, ábrela": the answer first, then what it means.
        for length in range(len(whole) - 1, 0, -1):
            start = whole[:length]
            if start in self.no_words:
                return False
            if start in self.yes_words:
                return True
        return None

    def condition_in(self, text: str) -> str | None:
        """The complaint about a room the text says ("too dark", "太热了"), if any: such a
        sentence asks for a device, it is no question about a state."""
        keys = tuple(self.key(t) for t in tokens(normalize(text)))
        for length in range(min(self.max_phrase_len, len(keys)), 0, -1):
            for start in range(len(keys) - length + 1):
                for kind, value in self.phrases.get(keys[start : start + length], []):
                    if kind == "condition":
                        return value
        return None

    def _filler(self, token: str) -> bool:
        return any(kind == "filler" for kind, _ in self.phrases.get((self.key(token),), []))

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


def _phrases(words: list[str]) -> frozenset[tuple[str, ...]]:
    return frozenset(t for w in words if (t := tuple(tokens(normalize(w)))))


def add_question(lex: Lexicon, phrase: str, category: str, value: str) -> None:
    # Matched as written, not by stem: "locks" is a noun, "lock" the status word.
    keys = tuple(tokens(normalize(phrase)))
    if not keys:
        return
    lex.question_words.update(keys)
    entries = lex.question_phrases.setdefault(keys, [])
    if (category, value) not in entries:
        entries.append((category, value))


_FUNCTION_SECTIONS = (
    "determiners",
    "conjunctions",
    "area_prepositions",
    "target_prepositions",
    "rule_of",
)


def _function_words(data: dict[str, Any]) -> frozenset[str]:
    return frozenset(
        token
        for section in _FUNCTION_SECTIONS
        for phrase in data.get(section, [])
        if isinstance(phrase, str)
        for token in tokens(normalize(phrase))
    )


# The sections whose words become phrases of the lexicon, in the order they are added (a phrase
# keeps its readings in that order): the section, the kind of its words, and its layout: a
# list of words, words by the value they say ("actions": turn_on → words), or each word with
# its value ("particles": word → action). "{}" in a kind is filled with the value.
_WORD_SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("actions", "action", "by_value"),
    ("particle_verbs", "particle_verb", "list"),
    ("particles", "particle", "by_word"),
    ("determiners", "determiner", "list"),
    ("quantifiers", "quant_{}", "by_value"),
    ("exclusion", "exclusion", "list"),
    ("exclusion_suffix", "exclusion_suffix", "list"),
    ("exclusion_postfix", "exclusion_postfix", "list"),
    ("negation", "negation", "list"),
    ("request_markers", "request", "list"),
    ("pronouns", "pronoun", "by_value"),
    ("here", "here", "list"),
    ("there", "there", "list"),
    ("conditions", "condition", "by_value"),
    ("everywhere", "everywhere", "list"),
    ("relative_floors", "floor_rel", "by_value"),
    ("generic_device", "generic", "list"),
    ("fillers", "filler", "list"),
    ("not_home", "not_home", "list"),
    ("split", "split", "list"),
    ("conjunctions", "conj", "list"),
    ("target_prepositions", "target_prep", "list"),
    ("area_prepositions", "area_prep", "list"),
    ("media_words", "media", "list"),
    ("value_words", "value", "list"),
    ("percent_words", "percent", "list"),
    ("types", "type", "by_value"),
    ("states", "state", "by_value"),
    ("ordinals", "ordinal", "by_value"),
    ("answer_all", "answer_all", "list"),
    ("answer_cancel", "answer_cancel", "list"),
)


def _section_words(section: Any, kind: str, layout: str) -> Iterator[tuple[str, str, str]]:
    """(phrase, kind, value) of each word of a section laid out as `_WORD_SECTIONS` says;
    a key beginning with "_" is a comment."""
    if not section:
        return
    if layout == "list":
        yield from ((w, kind, "") for w in section)
    elif layout == "by_word":
        yield from ((w, kind, value) for w, value in section.items())
    else:
        for value, words in section.items():
            if value.startswith("_"):
                continue
            for w in words:
                yield w, _kind_of_value(kind, value), value


def _kind_of_value(kind: str, value: str) -> str:
    if kind == "pronoun":  # a plural pronoun ("them") refers to several
        return "pronoun_pl" if value == "plural" else "pronoun_sg"
    return kind.format(value) if "{}" in kind else kind


def build_lexicon(data: dict[str, Any]) -> Lexicon:
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
        rule_not=tuple(normalize(w) for w in data.get("rule_not", [])),
        rule_not_after=tuple(normalize(w) for w in data.get("rule_not_after", [])),
        rule_of=tuple(normalize(w) for w in data.get("rule_of", [])),
        rule_fillers=frozenset(normalize(w) for w in data.get("rule_fillers", [])),
        room_words=frozenset(normalize(w) for w in data.get("room_words", [])),
        room_kinds={
            str(kind): tuple(normalize(w) for w in words)
            for kind, words in data.get("room_kinds", {}).items()
            if not str(kind).startswith("_")
        },
        marker_chars=frozenset(_char_ranges(data.get("marker_chars", ""))),
        separable_prefixes=frozenset(normalize(w) for w in data.get("separable_prefixes", [])),
        question_particles=frozenset(normalize(w) for w in data.get("question_particles", [])),
        plural_markers=frozenset(
            tuple(tokens(normalize(w))) for w in data.get("plural_markers", []) if w.strip()
        ),
        value_to=frozenset(normalize(w) for w in data.get("value_to", [])),
        durations=frozenset(normalize(w) for w in data.get("durations", [])),
        yes_words=_phrases(data.get("answer_yes", [])),
        no_words=_phrases(data.get("answer_no", [])),
        function_words=_function_words(data),
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
        lex.phrase_prefixes.update(keys[:end] for end in range(1, len(keys) + 1))

    for section, kind, layout in _WORD_SECTIONS:
        for phrase, word_kind, value in _section_words(data.get(section), kind, layout):
            add(phrase, word_kind, value)
    lex.floor_levels = {normalize(k): int(v) for k, v in data.get("floor_levels", {}).items()}
    lex.type_words = {
        type_id: [normalize(w) for w in words] for type_id, words in data.get("types", {}).items()
    }
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
    for w in data.get("minus_words", []):
        add(w, "value", "")
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
    for w in data.get("question_negation", []):
        add_question(lex, w, "negate", "")
    lex.state_words = {str(k): str(v) for k, v in data.get("state_words", {}).items()}
    lex.detect_words = _detect_words(lex)
    return lex


# Kinds of words every language has and shares with its neighbours ("de", "la", "a").
_GRAMMAR_KINDS = frozenset(
    {"filler", "determiner", "area_prep", "target_prep", "conj", "request", "number", "value"}
)


def _detect_words(lex: Lexicon) -> dict[str, int]:
    """Every word the lexicon knows as written, weighted 2 for a content word (a verb, a type,
    a pronoun) and 1 for grammar; question words count as content."""
    words: dict[str, int] = {}
    for forms in lex.raw_forms.values():
        for (kind, _), raws in forms.items():
            weight = 1 if kind in _GRAMMAR_KINDS else 2
            for raw in raws:
                for word in raw:
                    if len(raw) > 1:
                        # A word inside a longer phrase is weaker evidence than the phrase.
                        words[word] = max(words.get(word, 0), 1)
                    else:
                        words[word] = max(words.get(word, 0), weight)
    for phrase, readings in lex.question_phrases.items():
        content = any(category != "filler" for category, _ in readings)
        for word in phrase:
            weight = 2 if len(phrase) == 1 and content else 1
            words[word] = max(words.get(word, 0), weight)
    return words


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
