"""Snapshots of the home: each demo entity's state and the attributes a command can set, read
from Home Assistant's `GET /api/states`, compared, and matched against a dialog's targets."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .model import VALUES, Given, Target

# Attributes a command can change. What changes by itself (current temperature, hvac_action,
# a humidifier's action) is left out: a snapshot must only differ when something was done.
TRACKED = (
    "brightness",
    "current_position",
    "temperature",
    "target_temp_high",
    "target_temp_low",
    "humidity",
    "percentage",
    "volume_level",
    "is_volume_muted",
    "source",
    "preset_mode",
    "fan_mode",
    "last_triggered",  # a script that ran
)


@dataclass(frozen=True)
class EntityState:
    state: str
    attributes: tuple[tuple[str, Any], ...] = ()  # the TRACKED ones present, in that order

    def attribute(self, name: str) -> Any:
        return dict(self.attributes).get(name)

    def value(self, name: str) -> float | None:
        """A value in the data's unit (VALUES): brightness and volume as percentages."""
        attribute, factor, _ = VALUES[name]
        raw = self.attribute(attribute)
        if raw is None or isinstance(raw, bool):
            return None
        try:
            return round(float(raw) * factor, 1)
        except (TypeError, ValueError):
            return None

    def describe(self) -> str:
        """Short and readable: `on brightness=71`."""
        parts = [self.state]
        for name in VALUES:
            value = self.value(name)
            if value is not None:
                parts.append(f"{name}={value:g}")
        if self.attribute("last_triggered"):
            parts.append(f"ran={self.attribute('last_triggered')}")
        return " ".join(parts)


Snapshot = Mapping[str, EntityState]


def snapshot(
    states: Iterable[Mapping[str, Any]], entity_ids: Iterable[str]
) -> dict[str, EntityState]:
    """The entities of `entity_ids` out of `GET /api/states`; a missing one reads 'missing'."""
    by_id = {s["entity_id"]: s for s in states}
    result = {}
    for entity_id in entity_ids:
        raw = by_id.get(entity_id)
        if raw is None:
            result[entity_id] = EntityState("missing")
            continue
        attributes = raw.get("attributes") or {}
        result[entity_id] = EntityState(
            str(raw["state"]),
            tuple((name, attributes[name]) for name in TRACKED if name in attributes),
        )
    return result


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """Entities whose state or tracked attributes differ, in a stable order."""
    return sorted(e for e in set(before) | set(after) if before.get(e) != after.get(e))


def matches(target: Target, before: EntityState | None, after: EntityState) -> bool:
    if target.changed:
        return before != after
    if target.states is not None and after.state not in target.states:
        return False
    for name, low, high in target.ranges:
        value = after.value(name)
        if value is None or not low <= value <= high:
            return False
    return True


def given_target(domain: str, given: Given) -> Target:
    """What a given state must read as once applied (a media player that is not off reads as
    whatever its on state is)."""
    states: tuple[str, ...] | None = None
    if given.state is not None and not (domain == "media_player" and given.state != "off"):
        states = (given.state,)
    ranges = tuple(
        (name, value - VALUES[name][2], value + VALUES[name][2]) for name, value in given.values
    )
    return Target(states=states, ranges=ranges)
