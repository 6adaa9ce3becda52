"""Fixtures for the Home Assistant tests: a small home with registries, and a loaded entry."""

from __future__ import annotations

import json
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
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_mock_service

from custom_components.context_retrieval import queries, views
from custom_components.context_retrieval.const import DOMAIN
from tests.ha.demo import SERVICES, Recorded, live_handler
from tests.ha.fakes import async_setup_integration


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


DEMO_HOME = Path(__file__).resolve().parents[2] / "demo" / "home.json"
# What the demo home's devices can do in these tests (scripts/devhome gives the real server
# its own): lights dim, two take colours, covers take a position, fans a speed, players
# pause, skip and take a volume, thermostats a temperature between 16 and 30 °C.
DEMO_ATTRIBUTES: dict[str, dict[str, Any]] = {
    "light": {"supported_color_modes": ["brightness"], "color_mode": "brightness"},
    "climate": {
        "supported_features": 1 | 128 | 256,
        "hvac_modes": ["off", "cool", "heat"],
        "min_temp": 16,
        "max_temp": 30,
        "temperature": 26,
    },
    "cover": {"supported_features": 1 | 2 | 4 | 8, "current_position": 100},
    "fan": {"supported_features": 1 | 16 | 32, "percentage": 50},
    "media_player": {"supported_features": 1 | 4 | 8 | 16 | 32 | 128 | 256 | 16384},
    "vacuum": {"supported_features": 8192 | 16 | 8},
    "humidifier": {"supported_features": 0, "humidity": 50, "min_humidity": 30},
}
DEMO_COLOUR_LIGHTS = {"light.living_room_tv_backlight", "light.hue_go"}


@pytest.fixture
async def demo_home(hass: HomeAssistant) -> dict[str, Any]:
    """The demo home (demo/home.json) in the registries, with its states, exposed to Assist:
    the home the issues were seen in."""
    assert await async_setup_component(hass, "homeassistant", {})
    home: dict[str, Any] = json.loads(DEMO_HOME.read_text(encoding="utf-8"))
    floor_reg = fr.async_get(hass)
    floors = {
        f["floor_id"]: floor_reg.async_create(
            f["name"], aliases=set(f.get("aliases", [])), level=f.get("level")
        ).floor_id
        for f in home["floors"]
    }
    area_reg = ar.async_get(hass)
    areas = {
        a["area_id"]: area_reg.async_create(
            a["name"], aliases=set(a.get("aliases", [])), floor_id=floors.get(a.get("floor_id"))
        ).id
        for a in home["areas"]
    }
    label_reg = lr.async_get(hass)
    labels: dict[str, str] = {}
    for entity in home["entities"]:
        for name in entity.get("labels", []):
            if name not in labels:
                labels[name] = label_reg.async_create(name).label_id
    for entity in home["entities"]:
        attributes = dict(DEMO_ATTRIBUTES.get(entity["domain"], {}))
        if entity["entity_id"] in DEMO_COLOUR_LIGHTS:
            attributes.update(supported_color_modes=["hs", "color_temp"], color_mode="hs")
        if entity.get("device_class"):
            attributes["device_class"] = entity["device_class"]
        await add_entity(
            hass,
            entity["entity_id"],
            entity["name"],
            str(entity.get("state")),
            areas.get(entity.get("area_id")),
            aliases=set(entity.get("aliases", [])),
            labels={labels[n] for n in entity.get("labels", [])},
            **attributes,
        )
    return home


@pytest.fixture
async def demo_services(hass: HomeAssistant, demo_home: dict[str, Any]) -> Recorded:
    """The demo home, its domains' intents registered, their services recorded, and our agent
    in front of Home Assistant's."""
    assert await async_setup_component(hass, "intent", {})
    for domain in SERVICES:
        assert await async_setup_component(hass, domain, {})
    recorded = Recorded()
    for domain, services in SERVICES.items():
        for service in services:
            recorded[f"{domain}.{service}"] = async_mock_service(hass, domain, service)
    await async_setup_integration(hass)
    return recorded


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


# Services of the live home beyond those the recorded one has.
LIVE_EXTRA = {"vacuum": ("start", "return_to_base", "pause")}


@pytest.fixture
async def live_home(hass: HomeAssistant, demo_home: dict[str, Any]) -> dict[str, Any]:
    """The demo home with services that change its states as the real ones would, and our
    agent in front of Home Assistant's: what a conversation does to the home is read from
    the states, as the dialog benchmark does."""
    assert await async_setup_component(hass, "intent", {})
    for domain in {*SERVICES, *LIVE_EXTRA}:
        assert await async_setup_component(hass, domain, {})
    for domain, services in {**SERVICES, **LIVE_EXTRA}.items():
        for service in services:
            hass.services.async_register(domain, service, live_handler(hass, domain, service))
    await async_setup_integration(hass)
    return demo_home
