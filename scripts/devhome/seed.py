"""The registries as demo/home.json describes them, through the websocket commands Home
Assistant's own UI uses: floors and areas under home.json's ids, labels, entity ids, aliases,
areas and device classes, and exactly the demo entities exposed to Assist."""

from __future__ import annotations

import time
from typing import Any

from .api import Api
from .common import DevHomeError
from .package import Plan


async def seed_floors_and_areas(api: Api, home: dict[str, Any]) -> None:
    """Floors and areas exactly as in home.json, under home.json's ids."""
    floors = {f["floor_id"]: f for f in await api.ws("config/floor_registry/list")}
    areas = {a["area_id"]: a for a in await api.ws("config/area_registry/list")}
    wanted_floors = {f["floor_id"]: f for f in home.get("floors", [])}
    wanted_areas = {a["area_id"]: a for a in home.get("areas", [])}
    # First away with what is not ours (onboarding's default rooms), so names are free.
    for area_id in set(areas) - set(wanted_areas):
        await api.ws("config/area_registry/delete", area_id=area_id)
    for floor_id in set(floors) - set(wanted_floors):
        await api.ws("config/floor_registry/delete", floor_id=floor_id)
    for level, (floor_id, floor) in enumerate(wanted_floors.items()):
        if floor_id not in floors:
            created = await api.ws("config/floor_registry/create", name=floor_id)
            if created["floor_id"] != floor_id:
                raise DevHomeError(f"floor {floor_id!r} got the id {created['floor_id']!r}")
        await api.ws(
            "config/floor_registry/update",
            floor_id=floor_id,
            name=floor["name"],
            aliases=list(floor.get("aliases", [])),
            level=floor.get("level", level),
        )
    for area_id, area in wanted_areas.items():
        if area_id not in areas:
            created = await api.ws("config/area_registry/create", name=area_id)
            if created["area_id"] != area_id:
                raise DevHomeError(f"area {area_id!r} got the id {created['area_id']!r}")
        await api.ws(
            "config/area_registry/update",
            area_id=area_id,
            name=area["name"],
            aliases=list(area.get("aliases", [])),
            floor_id=area.get("floor_id"),
        )


async def seed_labels(api: Api, home: dict[str, Any]) -> dict[str, str]:
    """Labels by name; returns name → label_id."""
    labels = {lab["name"]: lab["label_id"] for lab in await api.ws("config/label_registry/list")}
    wanted = sorted({str(name) for e in home["entities"] for name in e.get("labels", [])})
    for name in set(labels) - set(wanted):
        await api.ws("config/label_registry/delete", label_id=labels.pop(name))
    for name in wanted:
        if name not in labels:
            created = await api.ws("config/label_registry/create", name=name)
            labels[name] = created["label_id"]
    return labels


async def seed_entities(
    api: Api,
    home: dict[str, Any],
    plan: Plan,
    entries: dict[tuple[str, str], Any],
    labels: dict[str, str],
) -> None:
    """Entity ids, aliases, areas, labels and device classes as in home.json; helpers hidden."""
    by_id = {e["entity_id"]: e for e in home["entities"]}
    current = {entry["entity_id"]: key for key, entry in entries.items()}
    for emulated in plan.entities:
        key = (emulated.domain, emulated.unique_id)
        entity_id = entries[key]["entity_id"]
        if entity_id != emulated.entity_id:
            holder = current.get(emulated.entity_id)
            if holder is not None:  # the id is taken (by a not-yet-renamed entity): move it
                spare = f"{emulated.entity_id}_displaced_{int(time.time())}"
                await api.ws(
                    "config/entity_registry/update",
                    entity_id=emulated.entity_id,
                    new_entity_id=spare,
                )
                entries[holder]["entity_id"] = spare
                current[spare] = holder
            await api.ws(
                "config/entity_registry/update",
                entity_id=entity_id,
                new_entity_id=emulated.entity_id,
            )
            current.pop(entity_id, None)
            current[emulated.entity_id] = key
            entries[key]["entity_id"] = emulated.entity_id
    # From 2026.10 an entity's aliases start with a marker (null over the API) that stands for
    # its computed name; a homeowner who adds aliases in the UI keeps it, and so does the demo.
    stored = await api.ws(
        "config/entity_registry/get_entries", entity_ids=[e.entity_id for e in plan.entities]
    )
    for emulated in plan.entities:
        source = by_id[emulated.entity_id]
        markers = [
            a for a in ((stored.get(emulated.entity_id) or {}).get("aliases") or []) if a is None
        ]
        await api.ws(
            "config/entity_registry/update",
            entity_id=emulated.entity_id,
            aliases=[*markers, *source.get("aliases", [])],
            area_id=source.get("area_id"),
            labels=[labels[name] for name in source.get("labels", [])],
        )
    states = {s["entity_id"]: s for s in await api.request("GET", "/api/states")}
    for emulated in plan.entities:
        wanted = by_id[emulated.entity_id].get("device_class")
        state = states.get(emulated.entity_id)
        if wanted and state and state["attributes"].get("device_class") != wanted:
            # e.g. template switches of 2025.4 cannot declare "outlet"; the registry can.
            await api.ws(
                "config/entity_registry/update", entity_id=emulated.entity_id, device_class=wanted
            )
    helpers = set(plan.helpers)
    for entry in entries.values():
        if entry["entity_id"] in helpers and entry.get("hidden_by") is None:
            await api.ws(
                "config/entity_registry/update", entity_id=entry["entity_id"], hidden_by="user"
            )


async def seed_exposure(api: Api, plan: Plan) -> None:
    """Exactly the demo entities exposed to Assist; nothing new exposed by itself."""
    await api.ws(
        "homeassistant/expose_new_entities/set", assistant="conversation", expose_new=False
    )
    ours = sorted(e.entity_id for e in plan.entities)
    everything = {s["entity_id"] for s in await api.request("GET", "/api/states")}
    everything |= {e["entity_id"] for e in await api.ws("config/entity_registry/list")}
    others = sorted(everything - set(ours))
    await api.ws(
        "homeassistant/expose_entity",
        assistants=["conversation"],
        entity_ids=ours,
        should_expose=True,
    )
    if others:
        await api.ws(
            "homeassistant/expose_entity",
            assistants=["conversation"],
            entity_ids=others,
            should_expose=False,
        )
