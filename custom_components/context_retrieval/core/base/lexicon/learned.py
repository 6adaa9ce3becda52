"""Words learned from Home Assistant's intent data, merged under a language's hand-written
ones: the hand-written file always keeps its own readings."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..text import has_cjk, normalize

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
    "question_particles",
}


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


@dataclass(frozen=True, slots=True)
class _HandWords:
    """What the hand-written file already says, which learned words may not change."""

    taken: frozenset[str]  # every word and phrase of the file, normalised
    # Its phrases of two or more words: a learned phrase holding one would win over it by
    # length ("in the room" over "the room"), so the file's reading stands.
    taken_multi: frozenset[tuple[str, ...]]
    # Its words for rooms and kinds of device: a learned verb holding one is a piece of a
    # template's object ("车库的" of "关闭车库的门"), never a verb of its own.
    nouns: frozenset[str]
    cjk_nouns: tuple[str, ...]

    @classmethod
    def of(cls, hand: dict[str, Any]) -> _HandWords:
        taken = {
            w for key, value in hand.items() if key not in _METADATA for w in _word_strings(value)
        }
        taken |= {
            normalize(k) for section in ("numbers", "floor_levels") for k in hand.get(section, {})
        }
        nouns = {
            normalize(w)
            for section in ("room_kinds", "types")
            for words in (hand.get(section) or {}).values()
            if isinstance(words, list)
            for w in words
            if isinstance(w, str) and len(normalize(w)) > 1
        }
        return cls(
            frozenset(taken),
            frozenset(tuple(w.split(" ")) for w in taken if " " in w),
            frozenset(nouns),
            tuple(n for n in nouns if has_cjk(n)),
        )

    def free(self, word: str) -> bool:
        """Whether the file leaves `word` to the learned layer."""
        norm = normalize(word)
        if norm in self.taken:
            return False
        parts = tuple(norm.split(" "))
        return not any(
            parts[i:j] in self.taken_multi
            for i in range(len(parts))
            for j in range(i + 2, len(parts) + 1)
            if (i, j) != (0, len(parts))
        )

    def verb(self, word: str) -> bool:
        norm = normalize(word)
        return norm not in self.nouns and not any(n in norm for n in self.cjk_nouns)


def _merge_keyed(
    target: dict[str, list[str]],
    section: str,
    learned: dict[str, list[str]],
    words_of: _HandWords,
) -> None:
    """A learned section of keyed word lists into the file's: values join unless the file
    has them under any key; other words only when the file leaves them free (and a verb
    only when it holds no room or kind word)."""
    own = {w for words in target.values() for w in words}
    free, verb = words_of.free, words_of.verb
    for key, words in learned.items():
        bucket = target.setdefault(key, [])
        if section in VALUE_SECTIONS:
            bucket.extend(w for w in words if w not in own and w not in bucket)
        elif section == "actions":
            bucket.extend(w for w in words if free(w) and verb(w) and w not in bucket)
        else:
            bucket.extend(w for w in words if free(w) and w not in bucket)


def merge_learned_data(hand: dict[str, Any], learned: list[dict[str, Any]]) -> dict[str, Any]:
    """`hand` with learned words added under it: a word the hand-written file uses anywhere
    keeps the file's meaning only; new words join their learned section."""
    merged: dict[str, Any] = json.loads(json.dumps(hand))  # a deep copy of plain JSON data
    words_of = _HandWords.of(hand)
    free = words_of.free
    # A file may narrow what the learned layer adds ("learn_sections": [] for a language
    # whose file already says everything the templates could).
    allowed = set(hand.get("learn_sections", LEARNED_SECTIONS)) & set(LEARNED_SECTIONS)
    for part in learned:
        for section, value in part.items():
            if section not in allowed:
                continue
            if isinstance(value, dict):
                _merge_keyed(merged.setdefault(section, {}), section, value, words_of)
            else:
                bucket = merged.setdefault(section, [])
                bucket.extend(w for w in value if free(w) and w not in bucket)
    return merged


def skeleton_data(language: str, default_messages: dict[str, str]) -> dict[str, Any]:
    """What a language without a hand-written file starts from: its code, and the default
    language's messages (a question is better asked in English than not at all)."""
    return {
        "language": language,
        "name": language,
        "script": "latin",
        "messages": dict(default_messages),
    }
