"""Room kinds: a generic room word covers every room of that kind.

"卧室" (bedroom) in a home with 主卧 and 次卧, "bedroom" with "Master Bedroom" and "Guest
Bedroom", "Schlafzimmer" with "Elternschlafzimmer" and "Kinderschlafzimmer": when no room is
called exactly that, the word means all rooms of its kind — to include and to leave out
("关掉除了卧室以外的所有灯" spares both bedrooms). The kinds and their words are language
data (`room_kinds` in each lexicon): a room is of a kind when one of its names contains one of
the kind's words (a CJK name as characters, so 主卧 contains 卧; other names word by word, and
in compounding languages as the end of a word).
"""

from __future__ import annotations

from ..index import DeviceIndex, Ref
from ..lexicon import Lexicon
from ..text import has_cjk, normalize, tokens

_MIN_CJK_WORD = 2  # one character is a marker inside names, not a word one says alone


def room_kind_refs(index: DeviceIndex, lex: Lexicon) -> dict[tuple[str, ...], list[Ref]]:
    """Token keys of every room-kind word of `lex` → the home's rooms of that kind.

    Cached on the index per language and index generation (rooms change rarely)."""
    cache: dict[str, tuple[tuple[int, int], dict[tuple[str, ...], list[Ref]]]]
    cache = index.__dict__.setdefault("_room_kinds", {})
    stamp = (len(index.areas), index.generation)
    cached = cache.get(lex.language)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    table: dict[tuple[str, ...], list[Ref]] = {}
    for words in lex.room_kinds.values():
        areas = sorted(_rooms_of_kind(index, lex, words))
        if not areas:
            continue
        for word in words:
            raw = tuple(tokens(normalize(word)))
            if not raw or (has_cjk(word) and len(normalize(word)) < _MIN_CJK_WORD):
                continue
            keys = tuple(lex.key(t) for t in raw)
            refs = table.setdefault(keys, [])
            have = {r.target for r in refs}
            refs.extend(Ref("area", a, "room_kind", raw) for a in areas if a not in have)
    cache[lex.language] = (stamp, table)
    return table


def _rooms_of_kind(index: DeviceIndex, lex: Lexicon, words: tuple[str, ...]) -> set[str]:
    markers = [normalize(w) for w in words if w.strip()]
    found: set[str] = set()
    for area in index.areas.values():
        for surface in (area.name, *area.aliases):
            if any(_contains(normalize(surface), marker, lex) for marker in markers):
                found.add(area.area_id)
                break
    return found


def _contains(name: str, marker: str, lex: Lexicon) -> bool:
    if has_cjk(marker):
        return marker in name
    name_keys = [lex.key(t) for t in tokens(name)]
    marker_keys = [lex.key(t) for t in tokens(marker)]
    width = len(marker_keys)
    if not width:
        return False
    if any(name_keys[i : i + width] == marker_keys for i in range(len(name_keys) - width + 1)):
        return True
    # "Elternschlafzimmer": the kind word closes a compound.
    return (
        lex.compound_words
        and width == 1
        and any(len(k) > len(marker_keys[0]) and k.endswith(marker_keys[0]) for k in name_keys)
    )
