"""Reading a home from the benchmark/demo JSON format into engine records.

Format: see `../shared/benchmark/dev/README.md` ("Home format"); entities may also carry an
optional `device_name`, `device_id` and `actions`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .actions import default_actions
from .models import Area, Device, Floor, placement


@dataclass(slots=True)
class Home:
    home_id: str
    language: str | None
    devices: list[Device]
    areas: list[Area]
    floors: list[Floor]
    warnings: list[str] = field(default_factory=list)


def _strs(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(str(v) for v in value if isinstance(v, str | int | float) and str(v).strip())


def _str_or_none(value: Any) -> str | None:
    """A scalar id or name as text; lists, objects and blanks are not ids."""
    if isinstance(value, str | int | float) and not isinstance(value, bool) and str(value).strip():
        return str(value)
    return None


def _records(data: dict[str, Any], key: str, warnings: list[str]) -> list[dict[str, Any]]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        warnings.append(f"'{key}' is not a list; ignored")
        return []
    records = []
    for item in value:
        if isinstance(item, dict):
            records.append(item)
        else:
            warnings.append(f"skipped a malformed {key} entry: {str(item)[:80]}")
    return records


def home_from_dict(data: dict[str, Any]) -> Home:
    """Build a `Home`; malformed entries are skipped and reported in `warnings`, never raised."""
    warnings: list[str] = []
    if not isinstance(data, dict):
        return Home("home", None, [], [], [], ["home is not a JSON object"])
    floors = _floors(data, warnings)
    areas = _areas(data, warnings)
    floor_by_id = {f.floor_id: f for f in floors}
    area_by_id = {a.area_id: a for a in areas}
    devices: dict[str, Device] = {}
    for raw in _records(data, "entities", warnings):
        device = _device(raw, area_by_id, floor_by_id, warnings)
        if device is None:
            continue
        previous = devices.get(device.entity_id)
        if previous is not None:
            # The same entity listed twice with another name: keep one record, the second
            # name becomes an alias, so neither spelling is lost.
            extra = tuple(
                n
                for n in (device.name, *device.aliases)
                if n != previous.name and n not in previous.aliases
            )
            devices[device.entity_id] = replace(previous, aliases=previous.aliases + extra)
            warnings.append(f"{device.entity_id}: listed twice; merged names")
            continue
        devices[device.entity_id] = device
    return Home(
        home_id=_str_or_none(data.get("home_id")) or "home",
        language=_str_or_none(data.get("language")),
        devices=list(devices.values()),
        areas=areas,
        floors=floors,
        warnings=warnings,
    )


def _floors(data: dict[str, Any], warnings: list[str]) -> list[Floor]:
    floors: list[Floor] = []
    for f in _records(data, "floors", warnings):
        floor_id = _str_or_none(f.get("floor_id"))
        if floor_id is None:
            warnings.append(f"skipped a floor without a usable floor_id: {str(f)[:80]}")
            continue
        level = f.get("level")
        floors.append(
            Floor(
                floor_id,
                _str_or_none(f.get("name")) or floor_id,
                _strs(f.get("aliases")),
                level if isinstance(level, int) and not isinstance(level, bool) else None,
            )
        )
    return floors


def _areas(data: dict[str, Any], warnings: list[str]) -> list[Area]:
    areas: list[Area] = []
    for a in _records(data, "areas", warnings):
        area_id = _str_or_none(a.get("area_id"))
        if area_id is None:
            warnings.append(f"skipped an area without a usable area_id: {str(a)[:80]}")
            continue
        floor_id = _str_or_none(a.get("floor_id"))
        if a.get("floor_id") is not None and floor_id is None:
            warnings.append(f"area {area_id}: floor_id is not an id; ignored")
        areas.append(
            Area(area_id, _str_or_none(a.get("name")) or area_id, _strs(a.get("aliases")), floor_id)
        )
    return areas


def _device(
    raw: dict[str, Any],
    area_by_id: dict[str, Area],
    floor_by_id: dict[str, Floor],
    warnings: list[str],
) -> Device | None:
    """One entity's record; None (with a warning) when it has no usable entity_id."""
    entity_id = _str_or_none(raw.get("entity_id"))
    if entity_id is None:
        warnings.append(f"skipped an entity without entity_id: {str(raw)[:80]}")
        return None
    domain = _str_or_none(raw.get("domain")) or entity_id.split(".", 1)[0]
    name = _str_or_none(raw.get("name")) or entity_id.split(".", 1)[-1].replace("_", " ")
    area_key = _str_or_none(raw.get("area_id"))
    area = area_by_id.get(area_key) if area_key else None
    if raw.get("area_id") is not None and area is None:
        warnings.append(f"{entity_id}: unknown area {str(raw.get('area_id'))[:40]!r}")
    floor = floor_by_id.get(area.floor_id) if area and area.floor_id else None
    state = raw.get("state")
    return Device(
        entity_id=entity_id,
        name=name,
        domain=domain,
        aliases=_strs(raw.get("aliases")),
        device_class=_str_or_none(raw.get("device_class")),
        **placement(area, floor),
        labels=_strs(raw.get("labels")),
        device_name=_str_or_none(raw.get("device_name")),
        device_id=_str_or_none(raw.get("device_id")),
        actions=frozenset(_strs(raw.get("actions"))) or default_actions(domain),
        state=None if state is None else str(state),
    )


def load_home(path: str | Path) -> Home:
    return home_from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
