"""A real Home Assistant with a benchmark home in its registries: this integration's entry made
by its config flow, every entity with a state and exposed to Assist (plus unexposed look-alikes
that must never reach a prompt), the index rebuilt."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

ASSISTANT = "conversation"
PLATFORM = "bench"
UNEXPOSED_PER_HOME = 5


@dataclass
class BuiltHome:
    """What the registries got, for the checks after each prompt."""

    exposed: set[str]
    unexposed: set[str]
    satellites: dict[str, str]  # home area id -> device id of a voice satellite there
    renamed: dict[str, str]  # home entity ids Home Assistant cannot hold -> the id used instead
    area_ids: dict[str, str]  # home area id -> Home Assistant area id
    duplicates: list[str]  # entity ids the home lists more than once (the last one wins)
    seconds: float = 0.0


def ha_language(language: str) -> str:
    """The conversation language Home Assistant uses for the home's language tag."""
    lang = (language or "en").lower().replace("_", "-")
    return "zh-cn" if lang.split("-")[0] == "zh" else lang


async def async_build_home(
    hass: Any, home: dict[str, Any], owner: str, satellite_areas: Sequence[str] = ()
) -> BuiltHome:
    """Write `home` (benchmark JSON format) into a fresh `hass` through the registry APIs.

    `homeassistant` must be set up (it owns the expose settings). Entities that carry a device
    name get a device of that name, owned by the config entry `owner` (devices need one);
    areas in `satellite_areas` get a voice-satellite device.
    """
    from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
    from homeassistant.core import valid_entity_id
    from homeassistant.helpers import area_registry as ar
    from homeassistant.helpers import device_registry as dr
    from homeassistant.helpers import entity_registry as er
    from homeassistant.helpers import floor_registry as fr
    from homeassistant.helpers import label_registry as lr
    from homeassistant.util import slugify

    started = time.perf_counter()

    floor_reg, area_reg, label_reg = fr.async_get(hass), ar.async_get(hass), lr.async_get(hass)
    dev_reg, ent_reg = dr.async_get(hass), er.async_get(hass)

    floor_ids: dict[str, str] = {}
    for level, floor in enumerate(home.get("floors") or []):
        created = floor_reg.async_create(
            floor["name"], aliases=set(floor.get("aliases") or []), level=level
        )
        floor_ids[floor["floor_id"]] = created.floor_id
    area_ids: dict[str, str] = {}
    for area in home.get("areas") or []:
        created_area = area_reg.async_create(
            area["name"],
            aliases=set(area.get("aliases") or []),
            floor_id=floor_ids.get(area.get("floor_id") or ""),
        )
        area_ids[area["area_id"]] = created_area.id
    label_ids: dict[str, str] = {}
    for entity in home["entities"]:
        for name in entity.get("labels") or []:
            if name not in label_ids:
                label_ids[name] = label_reg.async_create(name).label_id

    renamed: dict[str, str] = {}

    def add(entity: dict[str, Any], expose: bool) -> None:
        entity_id = entity["entity_id"]
        domain, object_id = entity_id.split(".", 1)
        if not valid_entity_id(entity_id):  # e.g. "sensor.traveling speed" in a dev home
            object_id = slugify(object_id)
            renamed[entity_id] = entity_id = f"{domain}.{object_id}"
        device_id = None
        if entity.get("device_name"):
            device_id = dev_reg.async_get_or_create(
                config_entry_id=owner,
                identifiers={(PLATFORM, entity_id)},
                name=entity["device_name"],
            ).id
        # The entity's own name in its registry entry, as an integration registers it: from
        # 2026.10 the device-control prompt names entities from the registry, not the state.
        entry = ent_reg.async_get_or_create(
            domain,
            PLATFORM,
            entity_id,
            suggested_object_id=object_id,
            device_id=device_id,
            original_name=entity["name"],
        )
        if entry.entity_id != entity_id:
            ent_reg.async_update_entity(entry.entity_id, new_entity_id=entity_id)
        ent_reg.async_update_entity(
            entity_id,
            area_id=area_ids.get(entity.get("area_id") or ""),
            aliases=registry_aliases(entry.aliases, entity.get("aliases") or []),
            labels={label_ids[name] for name in entity.get("labels") or []},
        )
        attributes: dict[str, Any] = {"friendly_name": entity["name"]}
        if entity.get("device_class"):
            attributes["device_class"] = entity["device_class"]
        state = entity.get("state")
        hass.states.async_set(entity_id, "unknown" if state is None else str(state), attributes)
        async_expose_entity(hass, ASSISTANT, entity_id, expose)

    exposed: set[str] = set()
    duplicates: list[str] = []
    for entity in home["entities"]:
        if renamed.get(entity["entity_id"], entity["entity_id"]) in exposed:
            duplicates.append(entity["entity_id"])
        add(entity, True)
        exposed.add(renamed.get(entity["entity_id"], entity["entity_id"]))
    # Look-alikes that are not exposed: same name, domain and room as an exposed entity.
    unexposed: set[str] = set()
    entities = home["entities"]
    step = max(1, len(entities) // UNEXPOSED_PER_HOME)
    for i, original in enumerate(entities[::step][:UNEXPOSED_PER_HOME]):
        twin = {
            **original,
            "entity_id": f"{original['domain']}.bench_unexposed_{i}",
            "device_name": None,
        }
        add(twin, False)
        unexposed.add(twin["entity_id"])

    satellites: dict[str, str] = {}
    for area_id in satellite_areas:
        if area_id in area_ids:
            satellites[area_id] = dev_reg.async_get_or_create(
                config_entry_id=owner,
                identifiers={(PLATFORM, f"satellite_{area_id}")},
                name=f"Satellite {area_id}",
            ).id
            dev_reg.async_update_device(satellites[area_id], area_id=area_ids[area_id])
    await hass.async_block_till_done()
    return BuiltHome(
        exposed, unexposed, satellites, renamed, area_ids, duplicates, time.perf_counter() - started
    )


def registry_aliases(current: Any, aliases: Sequence[str]) -> Any:
    """`aliases` as the UI stores them: a set before 2026.10, then an ordered list that keeps
    the registry's computed-name marker where the registry put it."""
    if isinstance(current, set | frozenset):
        return set(aliases)
    return [*(a for a in current or () if not isinstance(a, str)), *aliases]


async def async_setup_integration(hass: Any) -> Any:
    """`conversation` and a Context Retrieval entry made by its config flow, with its defaults
    (Home Assistant's own agent downstream)."""
    from homeassistant.setup import async_setup_component

    from custom_components.context_retrieval.const import DOMAIN, HOME_ASSISTANT_AGENT

    assert await async_setup_component(hass, "conversation", {})
    result = await hass.config_entries.flow.async_init(
        DOMAIN,
        context={"source": "user"},
        data={"agent_id": HOME_ASSISTANT_AGENT, "language": "auto"},
    )
    if result.get("type") != "create_entry":
        raise RuntimeError(f"the Context Retrieval config flow ended with {result}")
    await hass.async_block_till_done()
    entry = hass.config_entries.async_get_entry(result["result"].entry_id)
    if entry is None or getattr(entry.state, "value", entry.state) != "loaded":
        raise RuntimeError("the Context Retrieval entry did not set up")
    return entry


async def async_settle(hass: Any, entry: Any) -> None:
    """Let the registry changes' debounced rebuilds pass, then build the index once more, so
    that no rebuild runs while prompts are measured."""
    from custom_components.context_retrieval.const import REBUILD_DEBOUNCE_SECONDS

    await hass.async_block_till_done()
    await asyncio.sleep(REBUILD_DEBOUNCE_SECONDS * 2 + 0.5)
    await hass.async_block_till_done()
    await entry.runtime_data.manager.async_rebuild()
    await hass.async_block_till_done()
