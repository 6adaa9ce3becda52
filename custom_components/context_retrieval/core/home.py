"""Reading a home from the benchmark/demo JSON format into engine records.

Format: see `../shared/benchmark/dev/README.md` ("Home format"); entities may also carry an
optional `device_name` and `actions`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .capability import default_actions
from .models import Area, Device, Floor


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


def home_from_dict(data: dict[str, Any]) -> Home:
    """Build a `Home`; malformed entries are skipped and reported in `warnings`."""
    warnings: list[str] = []
    floors = [
        Floor(str(f["floor_id"]), str(f.get("name") or f["floor_id"]), _strs(f.get("aliases")))
        for f in data.get("floors") or [] if isinstance(f, dict) and f.get("floor_id")
    ]
    floor_by_id = {f.floor_id: f for f in floors}
    areas = [
        Area(str(a["area_id"]), str(a.get("name") or a["area_id"]), _strs(a.get("aliases")),
             a.get("floor_id"))
        for a in data.get("areas") or [] if isinstance(a, dict) and a.get("area_id")
    ]
    area_by_id = {a.area_id: a for a in areas}
    devices: dict[str, Device] = {}
    for raw in data.get("entities") or []:
        if not isinstance(raw, dict) or not raw.get("entity_id"):
            warnings.append(f"skipped an entity without entity_id: {str(raw)[:80]}")
            continue
        entity_id = str(raw["entity_id"])
        domain = str(raw.get("domain") or entity_id.split(".", 1)[0])
        name = str(raw.get("name") or entity_id.split(".", 1)[-1].replace("_", " "))
        area = area_by_id.get(raw.get("area_id") or "")
        if raw.get("area_id") and area is None:
            warnings.append(f"{entity_id}: unknown area {raw.get('area_id')!r}")
        floor = floor_by_id.get(area.floor_id) if area and area.floor_id else None
        actions = frozenset(_strs(raw.get("actions"))) or default_actions(domain)
        device = Device(
            entity_id=entity_id,
            name=name,
            domain=domain,
            aliases=_strs(raw.get("aliases")),
            device_class=raw.get("device_class") or None,
            area_id=area.area_id if area else None,
            area_name=area.name if area else None,
            area_aliases=area.aliases if area else (),
            floor_id=floor.floor_id if floor else None,
            floor_name=floor.name if floor else None,
            floor_aliases=floor.aliases if floor else (),
            labels=_strs(raw.get("labels")),
            device_name=str(raw["device_name"]) if raw.get("device_name") else None,
            actions=actions,
            state=None if raw.get("state") is None else str(raw.get("state")),
        )
        previous = devices.get(entity_id)
        if previous is not None:
            # The same entity listed twice with another name: keep one record, the second
            # name becomes an alias, so neither spelling is lost.
            extra = tuple(n for n in (device.name, *device.aliases)
                          if n != previous.name and n not in previous.aliases)
            devices[entity_id] = replace(previous, aliases=previous.aliases + extra)
            warnings.append(f"{entity_id}: listed twice; merged names")
            continue
        devices[entity_id] = device
    return Home(
        home_id=str(data.get("home_id") or "home"),
        language=data.get("language"),
        devices=list(devices.values()),
        areas=areas,
        floors=floors,
        warnings=warnings,
    )


def load_home(path: str | Path) -> Home:
    return home_from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
