"""The home's rooms and floors as words: the word sequences that name each (for reading a
name that holds a room, "Kitchen Light"), Chinese/Japanese/Korean room words (where words
end in text written without spaces), parts of those names ("卧室" of 主卧室), each room's
kinds ("Master Bedroom" is a bedroom), floor levels, and rooms holding a word.

Made once from the areas and floors (`RoomWords.build`) and made again when they change;
nothing else keeps these tables."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from .lexicon import Lexicon, LexiconSet
from .models import Area, Floor
from .phrase_table import find_room_terms, is_room_vocab_term
from .text import has_cjk, is_cjk, normalize, tokens


@dataclass(frozen=True, slots=True)
class RoomWords:
    """The words of one home's rooms and floors (see the module docstring)."""

    areas: Mapping[str, Area] = field(default_factory=dict)
    floors: Mapping[str, Floor] = field(default_factory=dict)
    lexicons: LexiconSet | None = None
    room_vocab: dict[tuple[str, ...], str] = field(default_factory=dict)
    floor_vocab: dict[tuple[str, ...], str] = field(default_factory=dict)
    room_vocab_len: int = 1  # the longest name in words
    floor_vocab_len: int = 1
    cjk_words: list[str] = field(default_factory=list)  # longest first
    parts: dict[str, set[str]] = field(default_factory=dict)
    # Every beginning of a part, the part included: a reader lengthens a stretch of CJK
    # characters only while it may still become a part.
    part_prefixes: frozenset[str] = frozenset()
    kinds: dict[str, frozenset[str]] = field(default_factory=dict)
    # Every area's names and aliases, normalised, in the areas' order; and the same as token
    # keys per language (made on first use): looked into on every utterance.
    surfaces: tuple[tuple[str, str], ...] = ()
    keys_by_language: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = field(
        default_factory=dict
    )

    @classmethod
    def build(
        cls, areas: Mapping[str, Area], floors: Mapping[str, Floor], lexicons: LexiconSet
    ) -> RoomWords:
        room_vocab = _vocabulary((a.area_id, (a.name, *a.aliases)) for a in areas.values())
        floor_vocab = _vocabulary((f.floor_id, (f.name, *f.aliases)) for f in floors.values())
        cjk = {
            norm
            for area in areas.values()
            for norm in (normalize(s) for s in (area.name, *area.aliases))
            if norm and has_cjk(norm)
        }
        parts = _parts(areas)
        return cls(
            areas=areas,
            floors=floors,
            lexicons=lexicons,
            room_vocab=room_vocab,
            floor_vocab=floor_vocab,
            room_vocab_len=max((len(k) for k in room_vocab), default=1),
            floor_vocab_len=max((len(k) for k in floor_vocab), default=1),
            cjk_words=sorted(cjk, key=len, reverse=True),
            parts=parts,
            part_prefixes=frozenset(p[:end] for p in parts for end in range(1, len(p) + 1)),
            kinds=_kinds(areas, lexicons),
            surfaces=tuple(
                (area.area_id, normalize(surface))
                for area in areas.values()
                for surface in (area.name, *area.aliases)
            ),
        )

    def rooms_in(self, words: tuple[str, ...] | list[str]) -> set[str]:
        """Area ids whose names occur in `words` (longest match, non-overlapping)."""
        return find_room_terms(words, self.room_vocab, self.room_vocab_len)

    def floors_in(self, words: tuple[str, ...] | list[str]) -> set[str]:
        """Floor ids whose names occur in `words`."""
        return find_room_terms(words, self.floor_vocab, self.floor_vocab_len)

    def part(self, text: str) -> set[str]:
        """Areas a part of a Chinese room name ("卧室") may mean; exact names are not parts."""
        return self.parts.get(text, set())

    def floor_levels(self) -> dict[str, int]:
        """Each floor's level: Home Assistant's own, else read from its name ("2楼", "First
        Floor", "Basement") with every language's level words; floors without one are left out."""
        levels: dict[str, int] = {}
        words: dict[str, int] = {}
        for lex in self.lexicons.lexicons.values() if self.lexicons else ():
            words.update(lex.floor_levels)
        ordered_words = sorted(words.items(), key=lambda kv: -len(kv[0]))
        for floor in self.floors.values():
            if floor.level is not None:
                levels[floor.floor_id] = floor.level
                continue
            for surface in (floor.name, *floor.aliases):
                norm = normalize(surface)
                digits = re.search(r"-?\d+", norm)
                if digits:
                    levels[floor.floor_id] = int(digits.group(0))
                    break
                hit = next(
                    (
                        lvl
                        for word, lvl in ordered_words
                        if word and (word in norm if has_cjk(word) else word in norm.split())
                    ),
                    None,
                )
                if hit is not None:
                    levels[floor.floor_id] = hit
                    break
        return levels

    def relative_floors(self, direction: str) -> set[str]:
        """ "upstairs" = every floor above the lowest; "downstairs" = the lowest (basements
        aside, when there is a ground floor above them)."""
        levels = self.floor_levels()
        if len(levels) < 2:
            return set()
        above_ground = {f: lvl for f, lvl in levels.items() if lvl >= 0} or levels
        lowest = min(above_ground.values())
        if direction == "up":
            return {f for f, lvl in levels.items() if lvl > lowest}
        return {f for f, lvl in above_ground.items() if lvl == lowest}

    def areas_containing(self, term: str, lex: Lexicon) -> set[str]:
        """Areas whose name or alias contains `term` as a part (CJK: ≥ 2 characters; Latin:
        whole words, ≥ 4 letters). Matching against the home's own names, not a synonym table."""
        norm = normalize(term)
        if not norm or norm in lex.room_words:
            return set()
        if has_cjk(norm):
            if len(norm) < 2:
                return set()
            return {a for a, surface in self.surfaces if norm in surface and norm != surface}
        keys = tuple(lex.key(t) for t in tokens(norm))
        if not keys or sum(len(k) for k in keys) < 4:
            return set()
        width = len(keys)
        return {
            area_id
            for area_id, skeys in self._surface_keys(lex)
            if len(skeys) > width
            and any(skeys[i : i + width] == keys for i in range(len(skeys) - width + 1))
        }

    def _surface_keys(self, lex: Lexicon) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each area's names as `lex`'s token keys, made once per language."""
        found = self.keys_by_language.get(lex.language)
        if found is None:
            found = tuple(
                (area_id, tuple(lex.key(t) for t in tokens(surface)))
                for area_id, surface in self.surfaces
            )
            self.keys_by_language[lex.language] = found
        return found


def _vocabulary(named: Iterable[tuple[str, tuple[str, ...]]]) -> dict[tuple[str, ...], str]:
    """Word sequences → the id they name, for names that are room vocabulary terms."""
    vocab: dict[tuple[str, ...], str] = {}
    for item_id, surfaces in named:
        for surface in surfaces:
            norm = normalize(surface)
            if norm and is_room_vocab_term(norm):
                keys = tuple(tokens(norm))
                if keys:
                    vocab.setdefault(keys, item_id)
    return vocab


def _cjk_windows(norm: str) -> Iterator[str]:
    """Every stretch of two to six CJK characters of `norm` shorter than the whole name."""
    for size in range(2, min(6, len(norm) - 1) + 1):
        for i in range(len(norm) - size + 1):
            part = norm[i : i + size]
            if all(is_cjk(ch) for ch in part):
                yield part


def _parts(areas: Mapping[str, Area]) -> dict[str, set[str]]:
    """Parts of Chinese room names ("卧室" of 主卧室 and 次卧室) name those rooms, unless the
    part is in so many rooms that it only means "room" ("房间" of 101房间, 102房间, …)."""
    parts: dict[str, set[str]] = defaultdict(set)
    for area in areas.values():
        for surface in (area.name, *area.aliases):
            norm = normalize(surface)
            if not has_cjk(norm):
                continue
            for part in _cjk_windows(norm):
                parts[part].add(area.area_id)
    return {p: ids for p, ids in parts.items() if len(ids) <= 3}


def _kinds_said(
    words: Sequence[str],
    phrases: dict[tuple[str, ...], set[str]],
    endings: dict[str, set[str]],
    longest: int,
) -> set[str]:
    """The room kinds a name's words say, as phrases or as the ending of a compound."""
    found: set[str] = set()
    for i in range(len(words)):
        for length in range(1, min(longest, len(words) - i) + 1):
            found |= phrases.get(tuple(words[i : i + length]), set())
    for word in words:
        for ending, of in endings.items():
            if len(word) > len(ending) and word.endswith(ending):
                found |= of
    return found


def _kinds(areas: Mapping[str, Area], lexicons: LexiconSet) -> dict[str, frozenset[str]]:
    """Each room's kinds, from the room-kind words of every language its names hold:
    "Master Bedroom" and "次卧" are bedrooms, so is "Elternschlafzimmer" (a compound
    ending in one)."""
    phrases: dict[tuple[str, ...], set[str]] = defaultdict(set)
    endings: dict[str, set[str]] = defaultdict(set)
    for kind, word in (
        (kind, word)
        for lex in lexicons.lexicons.values()
        for kind, words in lex.room_kinds.items()
        for word in words
    ):
        keys = tuple(tokens(word))
        if keys:
            phrases[keys].add(kind)
        if len(keys) == 1 and len(word) >= 4 and not has_cjk(word):
            endings[word].add(kind)
    longest = max((len(k) for k in phrases), default=1)
    kinds: dict[str, frozenset[str]] = {}
    for area in areas.values():
        found: set[str] = set()
        for surface in (area.name, *area.aliases):
            found |= _kinds_said(tokens(normalize(surface)), phrases, endings, longest)
        if found:
            kinds[area.area_id] = frozenset(found)
    return kinds
