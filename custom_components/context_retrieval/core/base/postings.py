"""One indexed entity (`DeviceEntry`) and the postings that find entities by domain, area,
floor, label and type word without scanning the home."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from .actions import device_actions
from .models import Device
from .phrase_table import AMBIGUOUS, base_name
from .text import tokens


@dataclass(slots=True)
class DeviceEntry:
    device: Device
    norm_names: tuple[str, ...]  # name first, then aliases
    norm_device_name: str | None
    name_room: str | None  # area_id the name mentions, AMBIGUOUS, or None
    name_floor: str | None
    room_conflict: bool  # the name's room may place it (never: the registry decides)
    floor_conflict: bool
    name_types: frozenset[str]
    labels_norm: frozenset[str]


@dataclass
class Postings:
    """Inverted indexes over the home, so filters cost what they return, not the home size."""

    by_area: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    by_floor: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    # Devices whose room is in doubt, by the room / floor their name names.
    by_name_room: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    by_name_floor: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    room_conflict: set[str] = field(default_factory=set)
    floor_conflict: set[str] = field(default_factory=set)
    room_ambiguous: set[str] = field(default_factory=set)
    floor_ambiguous: set[str] = field(default_factory=set)
    by_domain: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    by_class: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    by_name_type: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    by_label: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    # Name without a trailing number: "插座", "插座2", "Motion Sensor 3" share a base name.
    by_base_name: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    # Entities by each word of their name (a CJK character is a word): a room word the home
    # does not know is looked for among the names that hold it, not in every name.
    by_name_word: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    # Entities able to do any of a set of capabilities, made on first use and kept current by
    # every add and discard: "all the lights but one room" checks thousands of members.
    _capable: dict[frozenset[str], set[str]] = field(default_factory=dict)

    def capable(self, caps: frozenset[str], devices: Iterable[Device]) -> set[str]:
        """Every entity whose actions share one of `caps`, found among `devices` (the whole
        home) the first time these caps are asked for (the caller must not change the set)."""
        found = self._capable.get(caps)
        if found is None:
            found = {d.entity_id for d in devices if not caps.isdisjoint(device_actions(d))}
            self._capable[caps] = found
        return found

    def add(self, entry: DeviceEntry) -> None:
        self._apply(entry, add=True)

    def discard(self, entry: DeviceEntry) -> None:
        self._apply(entry, add=False)

    def _apply(self, entry: DeviceEntry, add: bool) -> None:
        d = entry.device
        eid = d.entity_id
        buckets: list[set[str]] = [self.by_domain[d.domain]]
        if d.area_id:
            buckets.append(self.by_area[d.area_id])
        if d.floor_id:
            buckets.append(self.by_floor[d.floor_id])
        if d.device_class:
            buckets.append(self.by_class[(d.domain, d.device_class)])
        buckets.extend(self.by_name_type[t] for t in entry.name_types)
        buckets.extend(self.by_label[label] for label in d.labels)
        if entry.norm_names:
            buckets.append(self.by_base_name[base_name(entry.norm_names[0])])
            buckets.extend(self.by_name_word[w] for w in set(tokens(entry.norm_names[0])))
        if entry.room_conflict:
            buckets.append(self.room_conflict)
            if entry.name_room == AMBIGUOUS:
                buckets.append(self.room_ambiguous)
            elif entry.name_room is not None:
                buckets.append(self.by_name_room[entry.name_room])
        if entry.floor_conflict:
            buckets.append(self.floor_conflict)
            if entry.name_floor == AMBIGUOUS:
                buckets.append(self.floor_ambiguous)
            elif entry.name_floor is not None:
                buckets.append(self.by_name_floor[entry.name_floor])
        actions = device_actions(d)
        buckets.extend(
            members for caps, members in self._capable.items() if not caps.isdisjoint(actions)
        )
        for bucket in buckets:
            if add:
                bucket.add(eid)
            else:
                bucket.discard(eid)
