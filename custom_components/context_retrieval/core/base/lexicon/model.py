"""One language's lexicon: its words indexed by normalised token keys, built from the data of
its file (plus learned words, see `learned`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..text import is_cjk, normalize, tokens

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
    # Words after a number that make it a count of what follows ("two *of* the lights").
    partitives: frozenset[str] = frozenset()
    # Words after a number that make it a time of day: no setting, not now ("at 10 pm").
    clock_words: frozenset[str] = frozenset()
    # Words that put the command off to another time ("tomorrow", "tonight", "明天").
    later_words: frozenset[str] = frozenset()
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

    def duration_at(self, words: Sequence[str], i: int) -> int:
        """How many of `words` from `i` say a unit of time or a time of day ("minutes",
        "pm", "分钟" or "点钟" in its characters), 0 when none does: a number before them is
        when, not a value."""
        return _phrase_at(words, i, self.durations) or _phrase_at(words, i, self.clock_words)

    def later_at(self, words: Sequence[str], i: int) -> int:
        """How many of `words` from `i` put the command off ("tomorrow", "明天"), 0 if none."""
        return _phrase_at(words, i, self.later_words)

    def is_clock_time(self, word: str) -> bool:
        """A time of day written as one word: "10pm", "7am"."""
        digits = len(word) - len(word.lstrip("0123456789"))
        return 0 < digits < len(word) and word[digits:] in self.clock_words

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
        if not said:
            return self._hesitant_answer(whole)
        # "no, leave it", "sí, ábrela": the answer first, then what it means.
        for length in range(len(whole) - 1, 0, -1):
            start = whole[:length]
            if start in self.no_words:
                return False
            if start in self.yes_words:
                return True
        return None

    def _hesitant_answer(self, words: tuple[str, ...]) -> bool | None:
        """ "well yes", "um no": fillers only, where the language counts its answer words
        among them too; the answer words decide, and both said ("yes no") decide nothing."""
        meant = {
            (w,) in self.yes_words for w in words if (w,) in self.yes_words or (w,) in self.no_words
        }
        return meant.pop() if len(meant) == 1 else None

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


def _phrase_at(words: Sequence[str], i: int, phrases: frozenset[str]) -> int:
    """How many of `words` from `i` make one of `phrases` (CJK characters joined as written,
    other words with spaces), longest first; 0 when none does."""
    for n in (3, 2, 1):
        said = words[i : i + n]
        if len(said) == n:
            joined = "".join(said) if is_cjk(said[0][:1]) else " ".join(said)
            if joined in phrases:
                return n
    return 0
