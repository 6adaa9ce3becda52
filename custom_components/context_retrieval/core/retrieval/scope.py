"""Scope: the deterministic pre-filter over the rooms and floors a command names.

- exclude is always hard; include is hard but falls back to "exclude only" when it empties the
  result (`scope_include_fallback`);
- the registry decides where a device is, as in Home Assistant ("Kitchen Light 3" filed under
  the living room is a living-room light, "Study Lamp" filed nowhere is in no room); the room
  named in a device's *name* is used only when the command names a room the home does not
  know ("the pool lights" with no pool area);
- a name that names two or more rooms is undecided and never used to filter.
Floors are scoped exactly like rooms.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from itertools import filterfalse

from ..base.index import DeviceIndex
from ..base.text import has_cjk, is_cjk, mentions, normalize, tokens


@dataclass(slots=True)
class ScopeResult:
    entity_ids: list[str]
    include_fallback: bool = False
    room_name_used: int = 0
    room_name_ambiguous: int = 0
    room_unknown_terms: list[str] = field(default_factory=list)
    include_matched: bool = False  # the include filter (if any) kept at least one device


@dataclass(slots=True)
class _Members:
    """Who is in a set of rooms (or floors): by the registry, and by name where in doubt."""

    registry: set[str]
    by_name: set[str]  # only through the device's name (its room is in doubt)

    @property
    def all(self) -> set[str]:
        return self.registry | self.by_name


def _members(
    index: DeviceIndex, places: set[str], is_room: bool, unknown_hits: dict[str, set[str]]
) -> _Members:
    p = index.postings
    registry_index = p.by_area if is_room else p.by_floor
    name_index = p.by_name_room if is_room else p.by_name_floor
    registry: set[str] = set()
    by_name: set[str] = set()
    for place in places:
        registry |= registry_index.get(place, set())
        by_name |= name_index.get(place, set())
        by_name |= unknown_hits.get(place, set())
    return _Members(registry, by_name - registry)


def _unknown_hits(
    index: DeviceIndex, unknown: list[str], ambiguous: set[str]
) -> dict[str, set[str]]:
    """Devices whose names name an unknown room word, per word.

    A command-level unknown turns the name fallback on for every device; a name that then
    names two rooms (the unknown word and a known one, or two unknown words) is undecided.
    """
    hits: dict[str, set[str]] = {term: set() for term in unknown}
    if not unknown:
        return hits
    # What each term needs in a name before it can be said there, found once, and the names
    # that hold its first word (a CJK term: its first CJK character): a large home has
    # thousands of names and few hold the word.
    probes = [(term, (term,) if has_cjk(term) else tuple(tokens(term))) for term in unknown]
    pool: set[str] = set()
    for term in unknown:
        first = next((ch for ch in term if is_cjk(ch)), None) if has_cjk(term) else None
        word = first or next(iter(tokens(term)), None)
        if word is None:  # no word to look for: every name is read
            pool = set(index.entries)
            break
        pool |= index.postings.by_name_word.get(word, set())
    for eid in pool:
        entry = index.entries[eid]
        name = entry.norm_names[0] if entry.norm_names else ""
        said = {
            term
            for term, parts in probes
            if all(part in name for part in parts) and mentions(name, term)
        }
        if not said:
            continue
        if len(said) > 1 or entry.name_room is not None:
            ambiguous.add(eid)
            continue
        hits[next(iter(said))].add(eid)
    return hits


def _after_exclude(
    index: DeviceIndex, base: AbstractSet[str], removed: set[str], whole: bool
) -> list[str]:
    """What the exclusions leave, in the home's order."""
    if whole:
        # One pass in the home's order: "every light but one room" keeps nearly all.
        return list(filterfalse(removed.__contains__, index.entries))
    return index.ordered(base - removed)


def _included(
    index: DeviceIndex,
    rooms: set[str],
    floors: set[str],
    hits: dict[str, set[str]],
    base: AbstractSet[str],
    removed: set[str],
) -> tuple[set[str], set[str]]:
    """What lies in every place said (rooms and floors) and was not excluded, and which of
    the places' members were placed by their names."""
    inside_all: set[str] | None = None
    via_name: set[str] = set()
    for places, is_room in ((rooms, True), (floors, False)):
        if places:
            inside = _members(index, places, is_room, hits if is_room else {})
            inside_all = inside.all if inside_all is None else inside_all & inside.all
            via_name |= inside.by_name
    return ((inside_all or set()) & base) - removed, via_name


def _undecided(
    index: DeviceIndex, base: AbstractSet[str], rooms_said: bool, floors_said: bool
) -> set[str]:
    """The devices of `base` whose names name two or more rooms (or floors) said about."""
    p = index.postings
    undecided: set[str] = set()
    if rooms_said:
        undecided |= p.room_ambiguous & base
    if floors_said:
        undecided |= p.floor_ambiguous & base
    return undecided


def _every(index: DeviceIndex, candidates: Iterable[str] | None) -> list[str]:
    """`candidates` of this home (default: every device), in the home's order."""
    if candidates is None:
        return list(index.entries)
    return index.ordered({c for c in candidates if c in index})


def apply_scope(
    index: DeviceIndex,
    candidates: Iterable[str] | None = None,
    include_areas: set[str] | None = None,
    exclude_areas: set[str] | None = None,
    include_floors: set[str] | None = None,
    exclude_floors: set[str] | None = None,
    unknown_rooms: Iterable[str] = (),
) -> ScopeResult:
    """Filter `candidates` (default: every device) by the command's rooms and floors.

    Area/floor sets hold ids of the home; `unknown_rooms` are room words the home does not
    know, tried against device names only (no table maps words to rooms). The work is
    proportional to the devices in the named rooms, not to the size of the home.
    """
    unknown = list(dict.fromkeys(n for n in (normalize(t) for t in unknown_rooms) if n))
    include_rooms = {a for a in include_areas or () if a != "*"} | set(unknown)
    exclude_rooms = set(exclude_areas or ())
    floors_in = {f for f in include_floors or () if f != "*"}
    floors_out = set(exclude_floors or ())
    result = ScopeResult(entity_ids=[], room_unknown_terms=list(unknown))
    if not (include_rooms or exclude_rooms or floors_in or floors_out):
        result.entity_ids = _every(index, candidates)
        return result
    # The whole home is the home's own key view, not a copy of every id.
    whole = candidates is None
    base: AbstractSet[str] = (
        index.entries.keys() if whole else {c for c in candidates or () if c in index}
    )

    ambiguous: set[str] = set()
    hits = _unknown_hits(index, unknown, ambiguous)
    ambiguous |= _undecided(
        index, base, bool(include_rooms or exclude_rooms), bool(floors_in or floors_out)
    )

    # 1) exclude, always hard: by the registry, or by the name where the room is in doubt.
    room_out = _members(index, exclude_rooms, True, hits)
    floor_out = _members(index, floors_out, False, {})
    removed = room_out.all | floor_out.all
    name_used = (room_out.by_name | floor_out.by_name) & base
    # 2) include, hard, falling back to the exclude-only result: a room the home misfiles is
    #    better met with the rest of the request than with nothing.
    if not (include_rooms or floors_in):
        result.entity_ids = _after_exclude(index, base, removed, whole)
    else:
        kept, via_name = _included(index, include_rooms, floors_in, hits, base, removed)
        if kept:
            result.entity_ids = index.ordered(kept)
            result.include_matched = True
            name_used |= via_name & kept
        else:
            result.entity_ids = _after_exclude(index, base, removed, whole)
            result.include_fallback = True
    result.room_name_used = len(name_used)
    result.room_name_ambiguous = len(ambiguous)
    return result
