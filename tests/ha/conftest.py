"""Fixtures for the Home Assistant tests: a small home with registries, and a loaded entry."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import pytest
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.helpers import label_registry as lr
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval import queries, views
from custom_components.context_retrieval.const import DOMAIN


async def call_retrieve(hass: HomeAssistant, text: str, **data: Any) -> dict[str, Any]:
    """The `retrieve` service's response for `text`."""
    return await hass.services.async_call(
        DOMAIN, "retrieve", {"text": text, **data}, blocking=True, return_response=True
    )


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: Any) -> None:
    """Let Home Assistant load this repository's integration in every test."""


@pytest.fixture(autouse=True)
def view_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets its own view rule database (the test config dir is shared)."""
    path = tmp_path / "context_retrieval_views.db"
    # `hass.config.path(absolute)` returns the absolute path unchanged.
    monkeypatch.setattr(views, "VIEW_DB_FILE", str(path))
    return path


@pytest.fixture(autouse=True)
def query_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets its own question cache."""
    path = tmp_path / "context_retrieval_queries.db"
    monkeypatch.setattr(queries, "QUERY_DB_FILE", str(path))
    return path


def registry_aliases(ent_reg: er.EntityRegistry, entity_id: str, aliases: set[str]) -> Any:
    """`aliases` as a user adds them in Home Assistant's UI: a set before 2026.10; from
    2026.10 an ordered list that keeps the marker of the computed name the registry put
    first when it created the entry."""
    entry = ent_reg.async_get(entity_id)
    current = entry.aliases if entry is not None else set()
    if isinstance(current, set | frozenset):
        return set(aliases)
    return [*(a for a in current if not isinstance(a, str)), *sorted(aliases)]


async def add_entity(
    hass: HomeAssistant,
    entity_id: str,
    name: str,
    state: str = "off",
    area_id: str | None = None,
    aliases: set[str] | None = None,
    labels: set[str] | None = None,
    expose: bool = True,
    **attributes: Any,
) -> None:
    """An entity with a registry entry, a state, an area and an expose setting."""
    ent_reg = er.async_get(hass)
    domain, object_id = entity_id.split(".", 1)
    # The name is the entity's own, as an integration registers it (from 2026.10 Home Assistant
    # computes the name it answers to from the registry entry, not from the state).
    entry = ent_reg.async_get_or_create(
        domain, "test", object_id, suggested_object_id=object_id, original_name=name
    )
    if entry.entity_id != entity_id:
        ent_reg.async_update_entity_id(entry.entity_id, new_entity_id=entity_id)
    ent_reg.async_update_entity(
        entity_id,
        area_id=area_id,
        aliases=registry_aliases(ent_reg, entity_id, aliases or set()),
        labels=labels or set(),
    )
    hass.states.async_set(entity_id, state, {"friendly_name": name, **attributes})
    async_expose_entity(hass, "conversation", entity_id, expose)


@pytest.fixture
async def home(hass: HomeAssistant) -> dict[str, str]:
    """Two floors, four rooms, duplicate names, an alias, a label and an unexposed entity."""
    assert await async_setup_component(hass, "homeassistant", {})
    floor_reg = fr.async_get(hass)
    down = floor_reg.async_create("一楼", aliases={"楼下", "downstairs"}, level=0)
    up = floor_reg.async_create("二楼", aliases={"楼上", "upstairs"}, level=1)
    area_reg = ar.async_get(hass)
    living = area_reg.async_create("客厅", aliases={"living room"}, floor_id=down.floor_id)
    kitchen = area_reg.async_create("厨房", aliases={"kitchen"}, floor_id=down.floor_id)
    bedroom = area_reg.async_create("主卧", aliases={"主卧室", "bedroom"}, floor_id=up.floor_id)
    study = area_reg.async_create("书房", aliases={"study"}, floor_id=up.floor_id)
    label = lr.async_get(hass).async_create("圣诞装饰")
    await add_entity(
        hass,
        "light.living_ceiling",
        "吸顶灯",
        "off",
        living.id,
        supported_color_modes=["brightness"],
    )
    await add_entity(
        hass,
        "light.living_lamp",
        "落地灯",
        "off",
        living.id,
        aliases={"老伙计"},
        supported_color_modes=["brightness"],
    )
    await add_entity(
        hass, "light.kitchen_ceiling", "吸顶灯", "off", kitchen.id, supported_color_modes=["onoff"]
    )
    await add_entity(
        hass,
        "light.bedroom_ceiling",
        "吸顶灯",
        "off",
        bedroom.id,
        supported_color_modes=["brightness"],
    )
    await add_entity(
        hass, "light.study_desk", "台灯", "off", study.id, supported_color_modes=["brightness"]
    )
    await add_entity(
        hass, "light.bedroom_desk", "台灯", "off", bedroom.id, supported_color_modes=["brightness"]
    )
    await add_entity(hass, "switch.xmas_tree", "圣诞树", "off", living.id, labels={label.label_id})
    await add_entity(
        hass, "climate.bedroom_ac", "空调", "off", bedroom.id, supported_features=1 | 128 | 256
    )
    await add_entity(
        hass,
        "cover.living_curtain",
        "窗帘",
        "open",
        living.id,
        device_class="curtain",
        supported_features=1 | 2 | 4 | 8,
    )
    await add_entity(hass, "lock.front_door", "入户门锁", "locked", living.id)
    await add_entity(hass, "switch.secret_plug", "Secret Plug", "off", study.id, expose=False)
    return {
        "living": living.id,
        "kitchen": kitchen.id,
        "bedroom": bedroom.id,
        "study": study.id,
        "label": label.label_id,
    }


@pytest.fixture
async def loaded_entry(
    hass: HomeAssistant, home: dict[str, str]
) -> AsyncGenerator[MockConfigEntry]:
    """The integration set up over the test home, forwarding to Home Assistant's own agent."""
    assert await async_setup_component(hass, "conversation", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Context Retrieval",
        unique_id=DOMAIN,
        data={"agent_id": "conversation.home_assistant", "language": "auto"},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    yield entry
    await hass.config_entries.async_unload(entry.entry_id)
