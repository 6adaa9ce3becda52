"""Building a `Lexicon` from one language's data: its settings and word sets, then every
phrase of its sections keyed by the language's token keys, named values, numbers and the
words questions are read with."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..text import normalize, tokens
from .model import Lexicon


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
    ("others", "others", "list"),
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
    ("answer_counts", "answer_count", "by_value"),
    ("answer_cancel", "answer_cancel", "list"),
    # Known words, so never repaired into another ("later" into "water"): when, not what.
    ("later_words", "later", "list"),
    ("clock_words", "clock", "list"),
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
    lex = _new_lexicon(data)
    for section, kind, layout in _WORD_SECTIONS:
        for phrase, word_kind, value in _section_words(data.get(section), kind, layout):
            _add_phrase(lex, phrase, word_kind, value)
    lex.floor_levels = {normalize(k): int(v) for k, v in data.get("floor_levels", {}).items()}
    lex.type_words = {
        type_id: [normalize(w) for w in words] for type_id, words in data.get("types", {}).items()
    }
    _add_value_names(lex, data)
    lex.minus_words = frozenset(
        tuple(tokens(normalize(w))) for w in data.get("minus_words", []) if w.strip()
    )
    for w in data.get("minus_words", []):
        _add_phrase(lex, w, "value", "")
    for w, n in data.get("numbers", {}).items():
        lex.numbers[normalize(w)] = int(n)
        _add_phrase(lex, w, "number", str(n))
    _add_question_words(lex, data)
    lex.state_words = {str(k): str(v) for k, v in data.get("state_words", {}).items()}
    lex.detect_words = _detect_words(lex)
    return lex


def _new_lexicon(data: dict[str, Any]) -> Lexicon:
    """The lexicon's settings and word sets, before any phrase is added."""
    return Lexicon(
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
        partitives=frozenset(normalize(w) for w in data.get("partitives", [])),
        clock_words=frozenset(normalize(w) for w in data.get("clock_words", [])),
        later_words=frozenset(normalize(w) for w in data.get("later_words", [])),
        durations=frozenset(normalize(w) for w in data.get("durations", [])),
        yes_words=_phrases(data.get("answer_yes", [])),
        no_words=_phrases(data.get("answer_no", [])),
        function_words=_function_words(data),
    )


def _add_phrase(lex: Lexicon, phrase: str, kind: str, value: str) -> None:
    """One reading of a phrase, keyed by its words' keys, with the words as written."""
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


def _add_value_names(lex: Lexicon, data: dict[str, Any]) -> None:
    """Colours, levels, colour temperatures and changes: values with names."""
    for category, section in (
        ("color", "colors"),
        ("level", "levels"),
        ("color_temp", "color_temps"),
        ("change", "changes"),
    ):
        for value, words in data.get(section, {}).items():
            if not value.startswith("_"):
                for w in words:
                    _add_value_name(lex, w, category, value)


def _add_value_name(lex: Lexicon, w: str, category: str, value: str) -> None:
    keys = tuple(lex.key(t) for t in tokens(normalize(w)))
    # A value is a known word: never a name fragment, never "repaired".
    _add_phrase(lex, w, "value", "")
    if keys:
        bucket = lex.value_names.setdefault(keys, [])
        if (category, value) not in bucket:
            bucket.append((category, value))
        lex.value_name_len = max(lex.value_name_len, len(keys))


def _add_question_words(lex: Lexicon, data: dict[str, Any]) -> None:
    """The words questions are read with, kept apart from the command phrases."""
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
                # A word inside a longer phrase is weaker evidence than the phrase.
                said = 1 if len(raw) > 1 else weight
                for word in raw:
                    words[word] = max(words.get(word, 0), said)
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
