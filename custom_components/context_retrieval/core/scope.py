"""Deterministic scope pre-filter over rooms and floors (seed 001 "细节设计" 1–7).

- exclude is always hard; include is hard but falls back to "exclude only" when it empties the
  result (`scope_include_fallback`);
- the room named in a device's *name* is used only when the device's room is in doubt (empty,
  or its name names another room) or the command names a room the home does not know;
- a name that names two or more rooms is undecided and never used to filter.
Floors are scoped exactly like rooms.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .index import AMBIGUOUS, DeviceEntry, DeviceIndex
from .text import has_cjk, normalize, tokens


@dataclass(slots=True)
class ScopeResult:
    entity_ids: list[str]
    include_fallback: bool = False
    room_name_used: int = 0
    room_name_ambiguous: int = 0
    room_unknown_terms: list[str] = field(default_factory=list)
    include_matched: bool = False  # the include filter (if any) kept at least one device

    def meta(self) -> dict[str, object]:
        return {
            "scope_include_fallback": int(self.include_fallback),
            "room_name_used": self.room_name_used,
            "room_name_ambiguous": self.room_name_ambiguous,
            "room_unknown_terms": list(self.room_unknown_terms),
        }


@dataclass(slots=True)
class _Dimension:
    """One scoping dimension (rooms or floors) of one command."""

    include: set[str]
    exclude: set[str]
    unknown: list[str]  # normalised terms the home does not know

    @property
    def active(self) -> bool:
        return bool(self.include or self.exclude)


def _name_location(entry: DeviceEntry, extracted: str | None,
                   unknown: list[str]) -> tuple[str | None, bool]:
    """The location the device's name states, for this command; second value: ambiguous."""
    if unknown:
        name = entry.norm_names[0] if entry.norm_names else ""
        hits = {term for term in unknown if _mentions(name, term)}
        if extracted and extracted != AMBIGUOUS:
            hits.add(extracted)
        if len(hits) > 1:
            return None, True
        if hits:
            return next(iter(hits)), False
    if extracted == AMBIGUOUS:
        return None, True
    return extracted, False


def _mentions(name: str, term: str) -> bool:
    """`term` occurs in `name`: as characters for Chinese (at least two, seed 001 detail 1),
    as whole words otherwise ("den" is not in "Garden Light")."""
    if not term or not name:
        return False
    if has_cjk(term):
        return len(term) >= 2 and term in name
    words, parts = tokens(name), tokens(term)
    return any(words[i : i + len(parts)] == parts for i in range(len(words) - len(parts) + 1))


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
    know, tried against device names only (seed 001 detail 4: no mapping tables).
    """
    ids = list(index.entries) if candidates is None else [c for c in candidates if c in index]
    unknown = [normalize(t) for t in unknown_rooms if normalize(t)]
    rooms = _Dimension(set(include_areas or ()), set(exclude_areas or ()), unknown)
    floors = _Dimension(set(include_floors or ()), set(exclude_floors or ()), [])
    result = ScopeResult(entity_ids=ids, room_unknown_terms=list(unknown))
    if unknown:
        rooms.include.update(unknown)
    if not rooms.active and not floors.active:
        return result

    name_used: set[str] = set()
    ambiguous: set[str] = set()

    def location(entry: DeviceEntry, dim: _Dimension, is_room: bool) -> tuple[str | None,
                                                                              str | None]:
        """(registry location, name location if the fallback applies to this device)."""
        device = entry.device
        registry = device.area_id if is_room else device.floor_id
        conflict = entry.room_conflict if is_room else entry.floor_conflict
        # Seed 001 detail 4: use the name on a device-level conflict or a command-level unknown.
        if not (conflict or dim.unknown):
            return registry, None
        extracted = entry.name_room if is_room else entry.name_floor
        by_name, undecided = _name_location(entry, extracted, dim.unknown)
        if undecided:
            ambiguous.add(device.entity_id)
        return registry, by_name

    def excluded(entry: DeviceEntry, dim: _Dimension, is_room: bool) -> bool:
        if not dim.exclude:
            return False
        registry, by_name = location(entry, dim, is_room)
        if registry is not None and registry in dim.exclude:
            return True
        if by_name is not None and by_name in dim.exclude:
            name_used.add(entry.device.entity_id)
            return True
        return False

    def included(entry: DeviceEntry, dim: _Dimension, is_room: bool) -> bool:
        if not dim.include or "*" in dim.include:
            return True
        registry, by_name = location(entry, dim, is_room)
        if registry is not None and registry in dim.include:
            return True
        if by_name is not None and by_name in dim.include:
            name_used.add(entry.device.entity_id)
            return True
        return False

    after_exclude = [
        eid for eid in ids
        if not excluded(index.entries[eid], rooms, True)
        and not excluded(index.entries[eid], floors, False)
    ]
    has_include = bool((rooms.include and "*" not in rooms.include) or
                       (floors.include and "*" not in floors.include))
    if not has_include:
        result.entity_ids = after_exclude
    else:
        excluded_by_name = set(name_used)
        kept = [
            eid for eid in after_exclude
            if included(index.entries[eid], rooms, True)
            and included(index.entries[eid], floors, False)
        ]
        # Only devices whose name actually decided their fate count as "name used".
        name_used.intersection_update(excluded_by_name | set(kept))
        if kept:
            result.entity_ids = kept
            result.include_matched = True
        else:
            result.entity_ids = after_exclude
            result.include_fallback = True
            name_used.intersection_update(excluded_by_name)
    result.room_name_used = len(name_used)
    result.room_name_ambiguous = len(ambiguous)
    return result
