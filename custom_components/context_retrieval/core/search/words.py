"""Which words of a search query an entity's names and room share.

A fuzzy score finds "tele" in "détecteur de fuite" and "台灯" in 阳台灯 (the balcony light:
阳台 is a room word); neither is a match of a word the person typed. `read_query` reads the
query once (its Latin words without accents and without the words that only tie a phrase
together, its Chinese/Japanese/Korean stretches, the rooms it names) and `fit` tells for one
entity how far its texts hold those words:

- `factor` 1.0 when a word of the query is a whole word of a text, `INSIDE_WORD_FACTOR` when a
  CJK stretch is found only inside a longer word, else `NO_SHARED_WORD_FACTOR`;
- `coverage` the share of the query's word characters the texts hold as whole words
  ("书房的台灯" is covered far more by the study's 老台灯 than by another room's 台灯);
- `place` `OTHER_ROOM_FACTOR` for an entity outside every room the query names, `kind`
  `OTHER_KIND_FACTOR` for one of none of the device types it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from ..base.index import DeviceIndex
from ..base.lexicon import Lexicon
from ..base.text import (
    cjk_runs,
    cuts_a_word,
    fold_accents,
    has_cjk,
    mentions,
    normalize,
    tokens,
)

# A name that holds the query only inside a longer word of its own ("台灯" in 阳台灯, the
# balcony light: 阳台 is a room word) is no match of that word; one that shares no word with
# the query at all (characters in common only) is a weak one.
INSIDE_WORD_FACTOR = 0.4
NO_SHARED_WORD_FACTOR = 0.6
# Latin words that differ by one slip (a letter added, dropped, changed or two swapped) still
# count as the same word when the longer has at least this many letters ("ceilng", "lamps");
# shorter ones must be equal ("desk" is not "dusk").
NEAR_WORD_MIN_LEN = 5
# CJK runs up to this long are also looked at stretch by stretch (longer ones: too many).
MAX_CJK_RUN_SPLIT = 12
# An entity outside the room(s) the query names is less likely the one meant; so is one of
# another kind than the query names ("落地扇", a floor fan, for "落地灯", a floor lamp).
OTHER_ROOM_FACTOR = 0.8
OTHER_KIND_FACTOR = 0.8
# What a hit keeps when its names hold none of the query's words: the rest goes by how much
# of the query they hold (see `coverage`).
COVERAGE_FLOOR = 0.8


@dataclass(frozen=True, slots=True)
class QueryWords:
    """What one query says, read once per search."""

    latin: tuple[str, ...]  # accent-folded, the words that name something
    # Each CJK run as typed, with the stretches of it that count as words for `coverage`
    # (start, stretch): read once per query, not once per entity.
    cjk: tuple[tuple[str, tuple[tuple[int, str], ...]], ...]
    pieces: tuple[str, ...]  # the runs and their stretches of two characters or more
    function_words: frozenset[str]  # of the query's language, folded
    room_words: tuple[str, ...]  # the home's CJK room words: where CJK words end
    places: frozenset[str]  # area ids the query names
    # What the query says besides the rooms it names ("灯" of "厨房的灯", "light" of "kitchen
    # light"), accent-folded; "" when it names no room or nothing else.
    rest: str = ""
    kinds: frozenset[str] = frozenset()  # device types the query names (types.json ids)


@dataclass(frozen=True, slots=True)
class WordFit:
    """How one entity's texts hold the query's words."""

    factor: float
    coverage: float
    place: float
    kind: float = 1.0

    @property
    def weight(self) -> float:
        """What the entity's keyword and semantic scores are multiplied by."""
        return self.place * self.kind * (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * self.coverage)


def read_query(index: DeviceIndex, norm: str) -> QueryWords:
    """The words of the normalised query `norm`, read with the home's room words and the
    function words of the home's language and of the query's own."""
    languages = {index.language, index.detect_language(norm, fallback=index.language)}
    lexicons = [index.lexicons.get(lang) for lang in languages]
    function = frozenset(fold_accents(w) for lex in lexicons for w in lex.function_words)
    said = [fold_accents(t) for t in tokens(norm) if not has_cjk(t)]
    # A query of function words only ("de") still looks for them.
    latin = tuple(t for t in said if t not in function) or tuple(said)
    rooms = tuple(index.rooms.cjk_words)
    places = frozenset(named_rooms(index, norm, lexicons))
    return QueryWords(
        latin=latin,
        cjk=tuple((run, _counted_pieces(run, rooms, function)) for run in cjk_runs(norm)),
        pieces=tuple(_cjk_pieces(norm, rooms, function)),
        function_words=function,
        room_words=rooms,
        places=places,
        rest=_rest(index, norm, places, latin, function, lexicons) if places else "",
        kinds=frozenset(
            type_id
            for lex in lexicons
            for type_id, written in lex.type_words.items()
            if any(_names_kind(norm, w) for w in written)
        ),
    )


def _rest(
    index: DeviceIndex,
    norm: str,
    places: frozenset[str],
    latin: tuple[str, ...],
    function: frozenset[str],
    lexicons: Sequence[Lexicon],
) -> str:
    """The query without the names of the rooms it names (in any inflection the lexicons
    know: "кухне" is "Кухня") and the function words around them."""
    names = [
        fold_accents(normalize(n))
        for area_id in places
        for n in (index.areas[area_id].name, *index.areas[area_id].aliases)
    ]
    cjk_names = sorted((n for n in names if has_cjk(n)), key=len, reverse=True)
    kept = [
        seg
        for run in cjk_runs(norm)
        for seg in _segments(run, cjk_names, function)
        if seg not in cjk_names
    ]
    said = list(latin)
    for name in (n for n in names if not has_cjk(n)):
        parts = list(tokens(name))
        for i in range(len(said) - len(parts) + 1):
            if parts and _same_words(said[i : i + len(parts)], parts, lexicons):
                said[i : i + len(parts)] = [""] * len(parts)
    return " ".join([*kept, *(w for w in said if w)])


def _same_words(said: Sequence[str], written: Sequence[str], lexicons: Sequence[Lexicon]) -> bool:
    """Whether the words said are the words written, as they are or in another inflection of
    one of `lexicons` (their stems)."""
    if list(said) == list(written):
        return True
    return any([lex.key(w) for w in said] == [lex.key(w) for w in written] for lex in lexicons)


def _segments(run: str, words: Sequence[str], function: frozenset[str]) -> list[str]:
    """`run` cut at the `words` it holds (longest first), each other stretch without the
    function words at its ends: "厨房的灯" → 厨房, 灯 (Chinese writes a phrase's words
    together; the home's room words are the edges it knows)."""
    taken = [False] * len(run)
    spans: list[tuple[int, int]] = []
    for word in sorted(words, key=len, reverse=True):
        at = run.find(word) if word else -1
        while at >= 0:
            if not any(taken[at : at + len(word)]):
                spans.append((at, at + len(word)))
                taken[at : at + len(word)] = [True] * len(word)
            at = run.find(word, at + 1)
    out: list[str] = []
    start = 0
    for a, b in sorted(spans):
        out += [_strip(run[start:a], function), run[a:b]]
        start = b
    out.append(_strip(run[start:], function))
    return [seg for seg in out if seg]


def _strip(text: str, function: frozenset[str]) -> str:
    """`text` without the function words at its ends ("的灯" → 灯)."""
    ends = sorted((w for w in function if w and has_cjk(w)), key=len, reverse=True)
    changed = True
    while text and changed:
        changed = False
        for word in ends:
            if text.startswith(word) and len(text) > len(word):
                text, changed = text[len(word) :], True
            elif text.endswith(word) and len(text) > len(word):
                text, changed = text[: -len(word)], True
    return "" if text in function else text


def fit(index: DeviceIndex, entity_id: str, words: QueryWords) -> WordFit:
    """`factor`, `coverage` and `place` of one entity (see the module's docstring)."""
    texts = _texts(index, entity_id)
    own = {fold_accents(t) for text in texts for t in tokens(text) if not has_cjk(t)}
    place = 1.0
    if words.places and index.device(entity_id).area_id not in words.places:
        place = OTHER_ROOM_FACTOR
    return WordFit(
        factor=_factor(texts, own, words),
        coverage=_coverage(texts, own, words),
        place=place,
        kind=1.0 if _of_a_kind(index, entity_id, words.kinds) else OTHER_KIND_FACTOR,
    )


def _names_kind(norm: str, word: str) -> bool:
    """Whether the query holds a type word: as characters in Chinese/Japanese/Korean, where
    the kind ends a compound ("灯" of "落地灯"), else as whole words, accents or not."""
    if has_cjk(word):
        return word in norm
    return mentions(fold_accents(norm), fold_accents(word))


def _of_a_kind(index: DeviceIndex, entity_id: str, kinds: frozenset[str]) -> bool:
    """Whether the entity is of one of `kinds` (or the query names none): its domain and
    device class, or a domain whose devices are that kind by their names (a switch may be a
    lamp)."""
    if not kinds:
        return True
    device = index.device(entity_id)
    specs = index.lexicons.types.types
    for kind in kinds:
        spec = specs.get(kind)
        if spec is None or device.domain in spec.name_domains:
            return True
        if any(
            d == device.domain and c in (None, device.device_class)
            for tier in spec.tiers
            for d, c in tier
        ):
            return True
    return False


def _factor(texts: list[str], own: set[str], words: QueryWords) -> float:
    inside = False
    for piece in words.pieces:
        for text in texts:
            found = cjk_occurrence(text, piece, words.room_words)
            if found == "whole":
                return 1.0
            inside = inside or found == "inside"
    if inside:
        return INSIDE_WORD_FACTOR
    if any(same_word(w, t) for t in own for w in words.latin):
        return 1.0
    return NO_SHARED_WORD_FACTOR


def _coverage(texts: list[str], own: set[str], words: QueryWords) -> float:
    """The share of the query's word characters (Latin words, or CJK stretches of two
    characters or more found whole) the texts hold; function words count for neither."""
    total = covered = 0
    for run, pieces in words.cjk:
        hit = [False] * len(run)
        for at, piece in pieces:
            if any(cjk_occurrence(t, piece, words.room_words) == "whole" for t in texts):
                for i in range(at, at + len(piece)):
                    hit[i] = True
        counted = [h for h, ch in zip(hit, run, strict=True) if h or ch not in words.function_words]
        total += len(counted)
        covered += sum(counted)
    for word in words.latin:
        total += len(word)
        if any(same_word(word, t) for t in own):
            covered += len(word)
    return covered / total if total else 1.0


def _counted_pieces(
    run: str, rooms: Sequence[str], function: frozenset[str]
) -> tuple[tuple[int, str], ...]:
    """(start, stretch) of the stretches of a CJK run that count for `coverage`: two
    characters or more, or a stretch of its own between the home's room words."""
    segments = _segments(run, rooms, function)
    return tuple(
        (run.find(piece), piece)
        for piece in _cjk_pieces(run, rooms, function)
        if len(piece) >= 2 or piece in segments
    )


def _texts(index: DeviceIndex, entity_id: str) -> list[str]:
    """The entity's names, device name and its room's names, normalised."""
    entry = index.entries[entity_id]
    texts = [*entry.norm_names, *([entry.norm_device_name] if entry.norm_device_name else [])]
    area = index.areas.get(index.device(entity_id).area_id or "")
    if area is not None:  # "kitchen" names the kitchen's devices by their room
        texts += [normalize(a) for a in (area.name, *area.aliases)]
    return texts


def _cjk_pieces(norm: str, words: Sequence[str], function: frozenset[str]) -> list[str]:
    """The query's CJK runs, and in a run of several words ("书房的台灯") its stretches of two
    characters or more, longest first: Chinese writes the words of a phrase together. A
    stretch that cuts through one of the home's words as said is none ("台灯" in "阳台灯"),
    nor is one of function words only ("的"); the stretches between the home's words count
    whatever their length ("灯" of "厨房的灯")."""
    pieces: list[str] = []
    for run in cjk_runs(norm):
        pieces.append(run)
        # The stretches between the room words, one character or more ("灯" of "厨房的灯").
        pieces += _segments(run, words, function)
        if len(run) <= MAX_CJK_RUN_SPLIT:
            pieces += [
                run[i : i + n]
                for n in range(len(run) - 1, 1, -1)
                for i in range(len(run) - n + 1)
                if not cuts_a_word(run, i, i + n, words)
                and not all(ch in function for ch in run[i : i + n])
            ]
    return list(dict.fromkeys(pieces))


def named_rooms(index: DeviceIndex, norm: str, lexicons: Sequence[Lexicon] = ()) -> set[str]:
    """The areas the query names: a CJK name of two characters or more inside it, another
    name as whole words, accents or not ("salle a manger"), in any inflection `lexicons`
    know ("на кухне" names the Кухня)."""
    said = fold_accents(norm)
    words = list(tokens(said))
    found: set[str] = set()
    for area in index.areas.values():
        for name in (fold_accents(normalize(n)) for n in (area.name, *area.aliases)):
            parts = [] if has_cjk(name) else list(tokens(name))
            if mentions(said, name) or (
                parts
                and any(
                    _same_words(words[i : i + len(parts)], parts, lexicons)
                    for i in range(len(words) - len(parts) + 1)
                )
            ):
                found.add(area.area_id)
                break
    return found


def cjk_occurrence(text: str, run: str, words: Sequence[str]) -> str:
    """ "whole" when `run` occurs in `text` without cutting through a known word (a room word
    that begins before it or ends after it), "inside" when every occurrence does, "" when
    it does not occur."""
    start = text.find(run)
    seen = False
    while start >= 0:
        seen = True
        if not cuts_a_word(text, start, start + len(run), words):
            return "whole"
        start = text.find(run, start + 1)
    return "inside" if seen else ""


def same_word(said: str, word: str) -> bool:
    """Whether the typed word `said` is `word` (both accent-folded), one slip allowed in a
    long one ("lamparita" is another word than "lampara")."""
    if said == word:
        return True
    if max(len(said), len(word)) < NEAR_WORD_MIN_LEN:
        return False
    return OSA.distance(said, word, score_cutoff=1) <= 1


class Fits:
    """Each candidate's `WordFit`, worked out once per search."""

    def __init__(self, index: DeviceIndex, words: QueryWords) -> None:
        self.index = index
        self.words = words
        self._known: dict[str, WordFit] = {}

    def __call__(self, entity_id: str) -> WordFit:
        known = self._known.get(entity_id)
        if known is None:
            known = self._known[entity_id] = fit(self.index, entity_id, self.words)
        return known
