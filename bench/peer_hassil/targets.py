"""A matched sentence's slots resolved to entity ids the way Home Assistant's intent helpers
(`async_match_targets`) resolve them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .hassil_api import Slot, result_intent_name, result_slots

# Intents whose handler only ever targets one domain (required_domains / platforms in HA, and
# the rule the benchmark's gold uses). Intents not listed here are domain-agnostic
# (HassTurnOn/Off, HassToggle, HassGetState, HassSetPosition): only their slots restrict.
INTENT_DOMAINS: dict[str, frozenset[str]] = {
    "HassLightSet": frozenset({"light"}),
    "HassClimateGetTemperature": frozenset({"climate"}),
    "HassClimateSetTemperature": frozenset({"climate"}),
    "HassFanSetSpeed": frozenset({"fan"}),
    "HassMediaNext": frozenset({"media_player"}),
    "HassMediaPrevious": frozenset({"media_player"}),
    "HassMediaPause": frozenset({"media_player"}),
    "HassMediaUnpause": frozenset({"media_player"}),
    "HassMediaPlayerMute": frozenset({"media_player"}),
    "HassMediaPlayerUnmute": frozenset({"media_player"}),
    "HassMediaSearchAndPlay": frozenset({"media_player"}),
    "HassSetVolume": frozenset({"media_player"}),
    "HassSetVolumeRelative": frozenset({"media_player"}),
    "HassVacuumStart": frozenset({"vacuum"}),
    "HassVacuumReturnToBase": frozenset({"vacuum"}),
    "HassLawnMowerStartMowing": frozenset({"lawn_mower"}),
    "HassLawnMowerDock": frozenset({"lawn_mower"}),
}
# Intents whose handler passes `single_target=True` to async_match_targets (climate intents).
SINGLE_TARGET_INTENTS: frozenset[str] = frozenset(
    {"HassClimateGetTemperature", "HassClimateSetTemperature"}
)


@dataclass(frozen=True)
class Target:
    """MatchTargetsConstraints + preferences as an intent handler would build them."""

    intent: str
    name: str | None = None
    area: str | None = None
    floor: str | None = None
    domains: frozenset[str] | None = None
    device_classes: frozenset[str] | None = None
    preferred_area_id: str | None = None
    single_target: bool = False

    @property
    def has_constraints(self) -> bool:
        """False when the request would target every entity in the home (HA refuses)."""
        return bool(
            self.name
            or self.area
            or self.floor
            or self.domains
            or self.device_classes
            or self.single_target
        )


def _as_set(value: Any) -> frozenset[str]:
    """Slot value (str or list, like cv.ensure_list) as a set of strings."""
    if value is None:
        return frozenset()
    if isinstance(value, (list, tuple, set, frozenset)):
        return frozenset(str(v) for v in value)
    return frozenset({str(value)})


def _slot_str(slots: dict[str, Slot], key: str) -> str | None:
    slot = slots.get(key)
    if slot is None or slot.value is None or slot.value == "":
        return None
    return str(slot.value)


def target_from_result(result: Any, preferred_area_id: str | None = None) -> Target:
    """Turn a hassil result into target constraints, as the HA intent handlers do.

    `name == "all"` means no name; the `domain` slot replaces the intent's own domain (HA then
    rejects domains outside it, so we intersect); `device_class` restricts further.
    """
    intent = result_intent_name(result)
    slots = result_slots(result)
    name = _slot_str(slots, "name")
    if name == "all":
        name = None
    domains = INTENT_DOMAINS.get(intent)
    if "domain" in slots:
        slot_domains = _as_set(slots["domain"].value)
        domains = slot_domains & domains if domains is not None else slot_domains
    device_classes = _as_set(slots["device_class"].value) if "device_class" in slots else None
    return Target(
        intent=intent,
        name=name,
        area=_slot_str(slots, "area"),
        floor=_slot_str(slots, "floor"),
        domains=domains,
        device_classes=device_classes or None,
        preferred_area_id=preferred_area_id,
        single_target=intent in SINGLE_TARGET_INTENTS,
    )


def _norm(text: str) -> str:
    """HA's `_normalize_name`: trim + casefold."""
    return text.strip().casefold()


def find_area_ids(home: dict[str, Any], name: str) -> set[str]:
    """Areas whose id equals `name`, or whose name or alias equals it after normalising."""
    wanted = _norm(name)
    return {
        a["area_id"]
        for a in home.get("areas", [])
        if a["area_id"] == name
        or _norm(a["name"]) == wanted
        or any(_norm(alias) == wanted for alias in a.get("aliases") or [])
    }


def find_floor_ids(home: dict[str, Any], name: str) -> set[str]:
    """Floors whose id equals `name`, or whose name or alias equals it after normalising."""
    wanted = _norm(name)
    return {
        f["floor_id"]
        for f in home.get("floors", [])
        if f["floor_id"] == name
        or _norm(f["name"]) == wanted
        or any(_norm(alias) == wanted for alias in f.get("aliases") or [])
    }


def filter_by_name(entities: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """Entities whose id, name or an alias equals `name` (trim + casefold)."""
    wanted = _norm(name)
    return [
        e
        for e in entities
        if e["entity_id"] == name
        or _norm(e.get("name") or "") == wanted
        or any(_norm(alias) == wanted for alias in e.get("aliases") or [])
    ]


def filter_by_area_floor(
    home: dict[str, Any], entities: list[dict[str, Any]], target: Target
) -> list[dict[str, Any]]:
    """Keep entities in an area on the target floor and/or in the target area.

    An unknown floor or area name matches nothing (HA: INVALID_FLOOR / INVALID_AREA).
    """
    if not (target.floor or target.area):
        return entities
    areas = home.get("areas", [])
    possible = {a["area_id"] for a in areas}
    if target.floor:
        floor_ids = find_floor_ids(home, target.floor)
        possible = {a["area_id"] for a in areas if a.get("floor_id") in floor_ids}
    if target.area:
        possible &= find_area_ids(home, target.area)
    return [e for e in entities if e.get("area_id") in possible]


def unique_entities(entities: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per entity id (first wins).

    A fixture home may list the same entity id twice under different names; in HA that is a
    single state with a name and an alias, so it must count once below.
    """
    seen: set[str] = set()
    out = []
    for entity in entities:
        if entity["entity_id"] not in seen:
            seen.add(entity["entity_id"])
            out.append(entity)
    return out


def disambiguate_duplicate_names(
    entities: list[dict[str, Any]], target: Target
) -> list[dict[str, Any]]:
    """HA refuses a name shared by several matches unless the satellite's area singles them out.

    With two or more matches, keep those in the preferred area; if that still leaves two or
    more (or there is no preferred area), nothing is targeted (DUPLICATE_NAME).
    """
    if not target.name or len(entities) < 2:
        return entities
    if target.preferred_area_id:
        in_area = [e for e in entities if e.get("area_id") == target.preferred_area_id]
        if len(in_area) < 2:
            return in_area
    return []


def pick_single_target(entities: list[dict[str, Any]], target: Target) -> list[dict[str, Any]]:
    """For single-target intents (climate), several matches must narrow to one by the preferred
    area, else nothing is targeted (MULTIPLE_TARGETS)."""
    if not target.single_target or len(entities) <= 1:
        return entities
    if not target.preferred_area_id:
        return []
    in_area = [e for e in entities if e.get("area_id") == target.preferred_area_id]
    return in_area if len(in_area) == 1 else []


def resolve_target(home: dict[str, Any], target: Target) -> list[str]:
    """Entity ids for a target, following async_match_targets' order of filters:
    domain -> name -> device class -> floor/area -> (one record per id) -> duplicate names ->
    single target."""
    if not target.has_constraints:
        return []
    entities: list[dict[str, Any]] = list(home.get("entities", []))
    if target.domains is not None:
        entities = [e for e in entities if e["domain"] in target.domains]
    if target.name:
        entities = filter_by_name(entities, target.name)
    if target.device_classes:
        entities = [e for e in entities if e.get("device_class") in target.device_classes]
    entities = unique_entities(filter_by_area_floor(home, entities, target))
    entities = disambiguate_duplicate_names(entities, target)
    entities = pick_single_target(entities, target)
    return [e["entity_id"] for e in entities]
