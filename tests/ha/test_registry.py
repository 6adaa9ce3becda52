"""Registry adapter: exposed entities become Device records, and the live index follows changes."""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import timedelta
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

import pytest
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import (
    async_expose_entity,
    async_should_expose,
)
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.helpers import label_registry as lr
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    MockEntity,
    async_fire_time_changed,
    setup_test_component_platform,
)

from custom_components.context_retrieval import registry
from custom_components.context_retrieval.const import (
    DOMAIN,
    LLM_API_ID,
    MAX_RECORD_NAME_CHARS,
    REBUILD_DEBOUNCE_SECONDS,
)
from custom_components.context_retrieval.core import Device, DeviceIndex
from custom_components.context_retrieval.registry import (
    IndexManager,
    actions_for,
    alias_texts,
    async_collect_home,
)
from tests.ha.conftest import add_entity, call_retrieve, registry_aliases
from tests.ha.fakes import api_prompt, async_add_fake_agent, async_setup_integration, our_agent_id

EXPOSED = {
    "light.living_ceiling",
    "light.living_lamp",
    "light.kitchen_ceiling",
    "light.bedroom_ceiling",
    "light.study_desk",
    "light.bedroom_desk",
    "switch.xmas_tree",
    "climate.bedroom_ac",
    "cover.living_curtain",
    "lock.front_door",
}


def _manager(entry: MockConfigEntry) -> IndexManager:
    return entry.runtime_data.manager


def _device(entry: MockConfigEntry, entity_id: str) -> Device:
    index = _manager(entry).index
    assert index is not None
    assert entity_id in index, f"{entity_id} is not in the index"
    return index.device(entity_id)


async def _settle(hass: HomeAssistant, rounds: int = 3) -> None:
    """Let pending changes pass the debounce and the build finish."""
    for _ in range(rounds):
        await hass.async_block_till_done()
        async_fire_time_changed(
            hass, dt_util.utcnow() + timedelta(seconds=REBUILD_DEBOUNCE_SECONDS * 2 + 1)
        )
        await hass.async_block_till_done()


def _selected(response: dict[str, Any]) -> set[str]:
    return {c["entity_id"] for cmd in response["commands"] for c in cmd["selected"]}


@pytest.fixture
async def hub(hass: HomeAssistant, home: dict[str, str]) -> dict[str, str]:
    """A device in the kitchen; one entity inherits its area, another has its own."""
    owner = MockConfigEntry(domain="test")
    owner.add_to_hass(hass)
    dev_reg = dr.async_get(hass)
    device = dev_reg.async_get_or_create(
        config_entry_id=owner.entry_id,
        identifiers={("test", "hub")},
        name="Kitchen Hub",
        manufacturer="Acme",
    )
    label = lr.async_get(hass).async_create("Smart Hub")
    dev_reg.async_update_device(device.id, area_id=home["kitchen"], labels={label.label_id})
    await add_entity(hass, "switch.hub_relay", "Hub Relay", "off")
    await add_entity(hass, "switch.hub_light_relay", "Hub Light Relay", "off", home["study"])
    ent_reg = er.async_get(hass)
    ent_reg.async_update_entity("switch.hub_relay", device_id=device.id)
    ent_reg.async_update_entity("switch.hub_light_relay", device_id=device.id)
    return {**home, "device": device.id, "hub_label": label.label_id}


# --- the snapshot ---------------------------------------------------------------------------


async def test_collect_home_only_exposed_entities(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    snapshot = async_collect_home(hass)
    ids = {d.entity_id for d in snapshot.devices}
    assert ids == EXPOSED
    assert "switch.secret_plug" not in ids
    assert all("Secret" not in d.name for d in snapshot.devices)
    assert {a.name for a in snapshot.areas} == {"客厅", "厨房", "主卧", "书房"}
    assert {f.name for f in snapshot.floors} == {"一楼", "二楼"}


async def test_collect_home_records(hass: HomeAssistant, home: dict[str, str]) -> None:
    devices = {d.entity_id: d for d in async_collect_home(hass).devices}

    lamp = devices["light.living_lamp"]
    assert lamp.name == "落地灯"
    assert lamp.domain == "light"
    assert lamp.aliases == ("老伙计",)
    assert lamp.area_id == home["living"]
    assert lamp.area_name == "客厅"
    assert lamp.area_aliases == ("living room",)
    assert lamp.floor_name == "一楼"
    assert set(lamp.floor_aliases) == {"楼下", "downstairs"}
    assert lamp.device_name is None
    assert {"turn_on", "turn_off", "set_brightness"} <= lamp.actions

    bedroom = devices["light.bedroom_ceiling"]
    assert set(bedroom.area_aliases) == {"主卧室", "bedroom"}
    assert bedroom.floor_name == "二楼"
    assert set(bedroom.floor_aliases) == {"楼上", "upstairs"}

    tree = devices["switch.xmas_tree"]
    assert tree.labels == ("圣诞装饰",)  # the label's name, not its id
    assert home["label"] not in tree.labels

    curtain = devices["cover.living_curtain"]
    assert curtain.device_class == "curtain"
    assert curtain.domain == "cover"
    assert {"open", "close", "set_position", "stop"} <= curtain.actions

    kitchen = devices["light.kitchen_ceiling"]  # supported_color_modes: onoff
    assert "set_brightness" not in kitchen.actions
    assert "set_color" not in kitchen.actions
    assert {"turn_on", "turn_off"} <= kitchen.actions

    assert {"lock", "unlock"} <= devices["lock.front_door"].actions


async def test_collect_home_area_comes_from_the_device(
    hass: HomeAssistant, hub: dict[str, str]
) -> None:
    devices = {d.entity_id: d for d in async_collect_home(hass).devices}
    relay = devices["switch.hub_relay"]
    assert relay.area_id == hub["kitchen"]  # the device's area
    assert relay.area_name == "厨房"
    assert relay.area_aliases == ("kitchen",)
    assert relay.floor_name == "一楼"
    assert relay.device_name == "Kitchen Hub"
    assert relay.labels == ("Smart Hub",)  # the device's label, by name

    own = devices["switch.hub_light_relay"]
    assert own.area_id == hub["study"]  # its own area wins over the device's
    assert own.area_name == "书房"
    assert own.floor_name == "二楼"
    assert own.device_name == "Kitchen Hub"


async def test_collect_home_prefers_the_device_name_given_by_the_user(
    hass: HomeAssistant, hub: dict[str, str]
) -> None:
    dr.async_get(hass).async_update_device(hub["device"], name_by_user="厨房网关")
    devices = {d.entity_id: d for d in async_collect_home(hass).devices}
    assert devices["switch.hub_relay"].device_name == "厨房网关"


@pytest.mark.parametrize(
    ("domain", "attributes", "present", "absent"),
    [
        ("cover", {"supported_features": 1 | 2 | 8}, {"open", "close", "stop"}, {"set_position"}),
        ("cover", {"supported_features": 1 | 2 | 4 | 8}, {"set_position"}, set()),
        (
            "light",
            {"supported_color_modes": ["onoff"]},
            {"turn_on", "turn_off"},
            {"set_brightness", "set_color", "set_color_temp"},
        ),
        (
            "light",
            {"supported_color_modes": ["color_temp"]},
            {"set_brightness", "set_color_temp"},
            {"set_color"},
        ),
        (
            "light",
            {"supported_color_modes": ["brightness"]},
            {"set_brightness"},
            {"set_color", "set_color_temp"},
        ),
        (
            "light",
            {"supported_color_modes": ["hs"]},
            {"set_brightness", "set_color", "set_color_temp"},
            set(),
        ),
        (
            "climate",
            {"supported_features": 1},
            {"set_temperature", "set_hvac_mode"},
            {"turn_on", "turn_off"},
        ),
        ("lock", {"supported_features": 0}, {"lock", "unlock"}, {"unlatch"}),
        (
            "media_player",
            {"supported_features": 4 | 8},
            {"set_volume", "mute"},
            {"media_next", "turn_on"},
        ),
    ],
)
def test_actions_for_supported_features(
    domain: str, attributes: dict[str, Any], present: set[str], absent: set[str]
) -> None:
    actions = actions_for(domain, attributes)
    assert present <= actions
    assert not absent & actions


# --- the live index -------------------------------------------------------------------------


async def test_index_starts_with_the_exposed_entities(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    manager = _manager(loaded_entry)
    assert manager.index_state == "ready"
    assert {d.entity_id for d in manager.index.devices()} == EXPOSED


def _learned_only_word(language: str) -> str:
    """A word Home Assistant's intent data teaches that the bundled file does not know."""
    from custom_components.context_retrieval.core import default_lexicons
    from custom_components.context_retrieval.core.base.intents_lexicon import learned_sections

    sections = learned_sections(language)
    if not sections:
        pytest.skip(f"the installed intent data has no {language}")
    hand = default_lexicons().get(language)
    allowed = set(default_lexicons().sources[hand.language].get("learn_sections", sections))
    for section, value in sections.items():
        groups = value.values() if isinstance(value, dict) else [value]
        for words in groups:
            for word in words:
                if section in allowed and " " not in word and not hand.lookup((hand.key(word),)):
                    return str(word)
    pytest.skip(f"everything learned for {language} is in the file already")


@pytest.mark.parametrize(
    ("hass_language", "option", "learned"),
    [
        ("it", "auto", "it"),  # Home Assistant's language
        ("en", "nl", "nl"),  # the language the options fix
    ],
)
async def test_the_index_reads_with_the_words_learned_for_its_languages(
    hass: HomeAssistant, home: dict[str, str], hass_language: str, option: str, learned: str
) -> None:
    from custom_components.context_retrieval.core import default_lexicons

    word = _learned_only_word(learned)
    hass.config.language = hass_language
    assert await async_setup_component(hass, "conversation", {})
    entry = MockConfigEntry(
        domain="context_retrieval",
        title="Context Retrieval",
        unique_id="context_retrieval",
        data={"agent_id": "conversation.home_assistant", "language": option},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    index = _manager(entry).index
    assert index is not None
    lex = index.lexicons.get(learned)
    assert lex.lookup((lex.key(word),)), word
    # The bundled lexicons the integration started from are left as they were.
    bundled = default_lexicons().get(learned)
    assert not bundled.lookup((bundled.key(word),))
    await hass.config_entries.async_unload(entry.entry_id)


@pytest.fixture
async def fan_plug(hass: HomeAssistant, home: dict[str, str]) -> str:
    """A real entity (entity platform), so registry changes rewrite its state like in HA."""
    setup_test_component_platform(
        hass,
        "switch",
        [MockEntity(name="Fan Plug", unique_id="fan_plug", entity_id="switch.fan_plug")],
    )
    assert await async_setup_component(hass, "switch", {"switch": [{"platform": "test"}]})
    await hass.async_block_till_done()
    async_expose_entity(hass, "conversation", "switch.fan_plug", True)
    return "switch.fan_plug"


async def test_entity_renamed_in_registry(
    hass: HomeAssistant, fan_plug: str, loaded_entry: MockConfigEntry
) -> None:
    assert _device(loaded_entry, fan_plug).name == "Fan Plug"
    er.async_get(hass).async_update_entity(fan_plug, name="电风扇插座")
    await _settle(hass)
    assert _device(loaded_entry, fan_plug).name == "电风扇插座"
    assert fan_plug in _selected(await call_retrieve(hass, "打开电风扇插座"))


async def test_entity_renamed_through_its_state(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    hass.states.async_set("switch.xmas_tree", "off", {"friendly_name": "圣诞彩灯"})
    await _settle(hass)
    assert _device(loaded_entry, "switch.xmas_tree").name == "圣诞彩灯"


async def test_alias_added(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    er.async_get(hass).async_update_entity("light.study_desk", aliases={"读书灯"})
    await _settle(hass)
    assert _device(loaded_entry, "light.study_desk").aliases == ("读书灯",)
    assert _selected(await call_retrieve(hass, "打开读书灯")) == {"light.study_desk"}


async def test_entity_moved_to_another_area(
    hass: HomeAssistant, home: dict[str, str], loaded_entry: MockConfigEntry
) -> None:
    er.async_get(hass).async_update_entity("light.study_desk", area_id=home["kitchen"])
    await _settle(hass)
    desk = _device(loaded_entry, "light.study_desk")
    assert (desk.area_id, desk.area_name, desk.floor_name) == (home["kitchen"], "厨房", "一楼")
    assert "light.study_desk" in _selected(await call_retrieve(hass, "打开厨房的台灯"))


async def test_device_moved_to_another_area(
    hass: HomeAssistant, hub: dict[str, str], loaded_entry: MockConfigEntry
) -> None:
    assert _device(loaded_entry, "switch.hub_relay").area_name == "厨房"
    dr.async_get(hass).async_update_device(hub["device"], area_id=hub["bedroom"])
    await _settle(hass)
    relay = _device(loaded_entry, "switch.hub_relay")
    assert (relay.area_id, relay.area_name, relay.floor_name) == (hub["bedroom"], "主卧", "二楼")
    # The entity with its own area stays where it is.
    assert _device(loaded_entry, "switch.hub_light_relay").area_name == "书房"


async def test_area_renamed_and_alias_added(
    hass: HomeAssistant, home: dict[str, str], loaded_entry: MockConfigEntry
) -> None:
    ar.async_get(hass).async_update(
        home["study"], name="工作室", aliases={"study", "office", "办公室"}
    )
    await _settle(hass)
    desk = _device(loaded_entry, "light.study_desk")
    assert desk.area_name == "工作室"
    assert set(desk.area_aliases) == {"study", "office", "办公室"}
    assert _manager(loaded_entry).index.area_name(home["study"]) == "工作室"
    assert "light.study_desk" in _selected(await call_retrieve(hass, "打开办公室的台灯"))


async def test_floor_alias_added(
    hass: HomeAssistant, home: dict[str, str], loaded_entry: MockConfigEntry
) -> None:
    floor_reg = fr.async_get(hass)
    up = next(f for f in floor_reg.async_list_floors() if f.name == "二楼")
    floor_reg.async_update(up.floor_id, aliases={"楼上", "upstairs", "阁楼层"})
    await _settle(hass)
    assert "阁楼层" in _device(loaded_entry, "light.bedroom_ceiling").floor_aliases


async def test_label_added_to_an_entity(
    hass: HomeAssistant, home: dict[str, str], loaded_entry: MockConfigEntry
) -> None:
    er.async_get(hass).async_update_entity("light.living_lamp", labels={home["label"]})
    await _settle(hass)
    assert _device(loaded_entry, "light.living_lamp").labels == ("圣诞装饰",)


async def test_label_renamed(
    hass: HomeAssistant, home: dict[str, str], loaded_entry: MockConfigEntry
) -> None:
    lr.async_get(hass).async_update(home["label"], name="节日装饰")
    await _settle(hass)
    assert _device(loaded_entry, "switch.xmas_tree").labels == ("节日装饰",)


async def test_expose_setting_off_and_on(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    async_expose_entity(hass, "conversation", "light.living_lamp", False)
    await _settle(hass)
    assert "light.living_lamp" not in _manager(loaded_entry).index
    response = await call_retrieve(hass, "打开落地灯")
    assert "light.living_lamp" not in str(response)

    async_expose_entity(hass, "conversation", "light.living_lamp", True)
    await _settle(hass)
    assert "light.living_lamp" in _manager(loaded_entry).index
    assert _selected(await call_retrieve(hass, "打开落地灯")) == {"light.living_lamp"}


async def test_exposing_a_hidden_entity_adds_it(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    async_expose_entity(hass, "conversation", "switch.secret_plug", True)
    await _settle(hass)
    assert _device(loaded_entry, "switch.secret_plug").name == "Secret Plug"


async def test_new_entity_appears(
    hass: HomeAssistant, home: dict[str, str], loaded_entry: MockConfigEntry
) -> None:
    await add_entity(hass, "fan.bedroom_fan", "吊扇", "off", home["bedroom"])
    await _settle(hass)
    fan = _device(loaded_entry, "fan.bedroom_fan")
    assert (fan.name, fan.area_name) == ("吊扇", "主卧")
    assert _selected(await call_retrieve(hass, "打开吊扇")) == {"fan.bedroom_fan"}


async def test_new_entity_without_registry_entry_appears(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    hass.states.async_set("light.porch", "off", {"friendly_name": "门廊灯"})
    await _settle(hass)
    assert _device(loaded_entry, "light.porch").name == "门廊灯"


async def test_entity_removed(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    er.async_get(hass).async_remove("light.study_desk")
    hass.states.async_remove("light.study_desk")
    await _settle(hass)
    assert "light.study_desk" not in _manager(loaded_entry).index
    assert "light.study_desk" not in str(await call_retrieve(hass, "打开台灯"))


async def test_state_changes_alone_do_not_rebuild(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    manager = _manager(loaded_entry)
    await _settle(hass)
    builds = manager.builds
    for state in ("on", "off", "on"):
        hass.states.async_set(
            "light.living_lamp",
            state,
            {"friendly_name": "落地灯", "supported_color_modes": ["brightness"], "brightness": 100},
        )
    await _settle(hass)
    assert manager.builds == builds


# --- rebuilding without blocking queries ----------------------------------------------------


async def test_queries_use_the_previous_index_while_rebuilding(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    manager = _manager(loaded_entry)
    previous = manager.index
    release = threading.Event()
    started = threading.Event()
    real_build = DeviceIndex.build

    def slow_build(*args: Any, **kwargs: Any) -> DeviceIndex:
        started.set()
        assert release.wait(10), "test did not release the build"
        return real_build(*args, **kwargs)

    er.async_get(hass).async_update_entity("light.study_desk", aliases={"读书灯"})
    # A plain function, not a Mock: the test harness runs Mocks inline instead of in a thread.
    with patch.object(registry.DeviceIndex, "build", staticmethod(slow_build)):
        task = hass.async_create_task(manager.async_rebuild())
        for _ in range(200):
            if started.is_set():
                break
            await asyncio.sleep(0.01)
        assert started.is_set()
        try:
            assert manager.index_state == "rebuilding"
            assert manager.index is previous
            response = await call_retrieve(hass, "打开落地灯")
            assert response["index_state"] == "rebuilding"
            assert _selected(response) == {"light.living_lamp"}
            # The old index does not know the new alias yet.
            assert "light.study_desk" not in _selected(await call_retrieve(hass, "打开读书灯"))
        finally:
            release.set()
        await task
        await _settle(hass)
    assert manager.index_state == "ready"
    assert manager.index is not previous
    assert _selected(await call_retrieve(hass, "打开读书灯")) == {"light.study_desk"}


async def test_many_changes_are_coalesced(
    hass: HomeAssistant, home: dict[str, str], loaded_entry: MockConfigEntry
) -> None:
    manager = _manager(loaded_entry)
    await _settle(hass)
    builds = manager.builds
    ent_reg = er.async_get(hass)
    area_reg = ar.async_get(hass)
    for i in range(10):
        ent_reg.async_update_entity("light.study_desk", aliases={f"灯{i}"})
        area_reg.async_update(home["study"], aliases={"study", f"书房{i}"})
        hass.states.async_set(f"light.extra_{i}", "off", {"friendly_name": f"额外灯{i}"})
    await _settle(hass)
    assert 1 <= manager.builds - builds <= 3
    desk = _device(loaded_entry, "light.study_desk")
    assert desk.aliases == ("灯9",)
    assert "书房9" in desk.area_aliases
    assert all(f"light.extra_{i}" in manager.index for i in range(10))


async def test_expose_writes_do_not_cause_a_rebuild_loop(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    """`async_should_expose` stores a default for new entities in the entity registry; that
    write fires a registry event, which must not keep the index rebuilding forever."""
    manager = _manager(loaded_entry)
    ent_reg = er.async_get(hass)
    for i in range(3):
        entry = ent_reg.async_get_or_create(
            "light", "test", f"fresh_{i}", suggested_object_id=f"fresh_{i}"
        )
        assert "conversation" not in entry.options
        hass.states.async_set(entry.entity_id, "off", {"friendly_name": f"新灯{i}"})
    await _settle(hass)
    # The default was written by the rebuild…
    assert ent_reg.async_get("light.fresh_0").options["conversation"] == {"should_expose": True}
    assert async_should_expose(hass, "conversation", "light.fresh_0")
    assert "light.fresh_0" in manager.index
    builds = manager.builds
    # …and nothing keeps rebuilding afterwards.
    await _settle(hass, rounds=5)
    assert manager.builds == builds


async def test_no_rebuild_after_unload(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    manager = _manager(loaded_entry)
    await _settle(hass)
    builds = manager.builds
    # A change immediately followed by an unload (e.g. an options reload).
    er.async_get(hass).async_update_entity("light.study_desk", aliases={"读书灯"})
    assert await hass.config_entries.async_unload(loaded_entry.entry_id)
    er.async_get(hass).async_update_entity("light.study_desk", aliases={"看书灯"})
    await _settle(hass)
    assert manager.builds == builds


# --- aliases as Home Assistant 2026.10+ keeps them ------------------------------------------

# What the registry's computed-name marker became as text before it was read properly.
MARKER_TEXTS = ("ComputedNameType", "_singleton")


def _no_marker_text(payload: Any, where: str) -> None:
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    for leaked in MARKER_TEXTS:
        assert leaked not in text, f"{where}: {leaked}"


@pytest.fixture
async def hood(hass: HomeAssistant, home: dict[str, str]) -> str:
    """A light registered the way an integration registers it (its own name in the registry
    entry and, from 2026.10, the computed-name marker first among its aliases); the user added
    the alias "extractor" in the UI."""
    ent_reg = er.async_get(hass)
    entry = ent_reg.async_get_or_create(
        "light", "test", "hood_light", original_name="Range hood light"
    )
    entity_id = entry.entity_id
    ent_reg.async_update_entity(
        entity_id,
        area_id=home["kitchen"],
        aliases=registry_aliases(ent_reg, entity_id, {"extractor"}),
    )
    hass.states.async_set(entity_id, "off", {"friendly_name": "Range hood light"})
    async_expose_entity(hass, "conversation", entity_id, True)
    return entity_id


async def test_entity_registered_as_from_2026_10(hass: HomeAssistant, hood: str) -> None:
    ent_reg = er.async_get(hass)
    stored = list(ent_reg.async_get(hood).aliases)  # type: ignore[union-attr]
    marker = getattr(er, "COMPUTED_NAME", None)
    if marker is not None:  # 2026.10+: the marker stays first, the user's alias follows
        assert stored == [marker, "extractor"]
    agent_id, fake = await async_add_fake_agent(hass, reply="ok")
    entry = await async_setup_integration(hass, agent_id=agent_id)

    # The index: the user's alias, nothing made of the marker, the name not repeated.
    assert _device(entry, hood).aliases == ("extractor",)
    assert _device(entry, hood).name == "Range hood light"

    # Retrieval and the YAML context handed to an assistant.
    response = await call_retrieve(hass, "turn on the extractor")
    assert _selected(response) == {hood}
    assert "extractor" in response["yaml"]
    _no_marker_text(response, "retrieve")
    marker_words = await call_retrieve(hass, "turn on ComputedNameType")
    assert hood not in _selected(marker_words)
    await conversation.async_converse(
        hass, "turn on the extractor", None, Context(), "en", agent_id=our_agent_id(hass)
    )
    forwarded = fake.calls[-1].extra_system_prompt or ""
    assert hood in forwarded
    _no_marker_text(forwarded, "forwarded prompt")
    assert await async_setup_component(hass, "intent", {})
    _no_marker_text(
        await api_prompt(hass, LLM_API_ID, "turn on the extractor", language="en"), "LLM API prompt"
    )

    # Rename preview, execute and rollback edit the text alias; the marker keeps its place.
    plan = await hass.services.async_call(
        DOMAIN,
        "rename_preview",
        {"find": "extractor", "replace": "vent", "target": "aliases"},
        blocking=True,
        return_response=True,
    )
    assert [(c["entity_id"], c["before"], c["after"]) for c in plan["changes"]] == [
        (hood, "extractor", "vent")
    ]
    _no_marker_text(plan, "rename_preview")
    done = await hass.services.async_call(
        DOMAIN,
        "rename_execute",
        {"find": "extractor", "replace": "vent", "target": "aliases"},
        blocking=True,
        return_response=True,
    )
    assert list(ent_reg.async_get(hood).aliases) == (  # type: ignore[union-attr]
        [marker, "vent"] if marker is not None else ["vent"]
    )
    await hass.services.async_call(
        DOMAIN,
        "rename_rollback",
        {"snapshot_id": done["snapshot_id"]},
        blocking=True,
        return_response=True,
    )
    assert list(ent_reg.async_get(hood).aliases) == stored  # type: ignore[union-attr]


def test_alias_texts_keep_order_and_drop_the_name() -> None:
    assert alias_texts(
        ["Range hood Light", "extractor", "EXTRACTOR", " ", ""], "range hood light"
    ) == ("extractor",)
    assert alias_texts({"b", "a"}, "x") == ("a", "b")  # a set (before 2026.10): sorted
    assert alias_texts(["b", "a"], "x") == ("b", "a")  # a list: the user's order
    assert alias_texts([object(), "a"], "x") == ("a",)  # never a marker's text
    # 2026.11: the name before the device-name prefix is kept, once.
    assert alias_texts(["Kitchen Ceiling lamp", "top"], "Kitchen Ceiling lamp", "Ceiling lamp") == (
        "top",
        "Ceiling lamp",
    )
    assert alias_texts(["Ceiling lamp"], "Kitchen Ceiling lamp", "ceiling lamp") == (
        "Ceiling lamp",
    )


@pytest.mark.parametrize(
    ("stored", "expected"),
    [
        # The computed name still first: the old name is read as an alias.
        (["MARKER", "top"], ("top", "Ceiling lamp")),
        # Home Assistant (or the user) put a text alias first: the old name is not added.
        (["Lamp", "MARKER"], ("Lamp",)),
    ],
)
def test_compat_name_is_read_only_while_the_marker_is_first(
    monkeypatch: pytest.MonkeyPatch, stored: list[str], expected: tuple[str, ...]
) -> None:
    """An entity whose name Home Assistant 2026.11 prefixed with its device's (`compat_name`
    holds the old one), with a stand-in for the registry's marker and its resolution."""
    marker = object()
    aliases = [marker if a == "MARKER" else a for a in stored]
    entry = SimpleNamespace(aliases=aliases, compat_name="Ceiling lamp")

    def resolve(hass: Any, entry: Any) -> list[str]:
        return ["Kitchen Ceiling lamp" if a is marker else a for a in entry.aliases]

    monkeypatch.setattr(registry.er, "async_get_entity_aliases", resolve, raising=False)
    assert registry.entity_aliases(None, entry, "Kitchen Ceiling lamp") == expected  # type: ignore[arg-type]


async def test_very_long_names_are_cut_before_anything_reads_them(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    """Any integration may name an entity with ten thousand characters: the engine reads the
    first `MAX_RECORD_NAME_CHARS` of every name, alias, room, floor and label, and every
    answer shows a bounded name."""
    hostile = ("1." * 5000) + "x"
    await add_entity(hass, "light.hostile", hostile, "off", home["living"], aliases={"a@" * 5000})
    area_reg = ar.async_get(hass)
    area_reg.async_update(home["study"], name="书房" + "a" * 10_000)
    label = lr.async_get(hass).async_create("l" * 10_000)
    er.async_get(hass).async_update_entity("light.study_desk", labels={label.label_id})
    snapshot = registry.async_collect_home(hass)
    texts = [
        text
        for device in snapshot.devices
        for text in (device.name, *device.aliases, *device.labels, device.area_name or "")
    ]
    texts += [area.name for area in snapshot.areas] + list(snapshot.labels.values())
    assert max(map(len, texts)) == MAX_RECORD_NAME_CHARS
    lamp = next(d for d in snapshot.devices if d.entity_id == "light.hostile")
    assert lamp.name == hostile[:MAX_RECORD_NAME_CHARS]

    entry = await async_setup_integration(hass)
    for service, data in (
        ("retrieve", {"text": "turn on 1.1.1.1", "explain": True}),
        ("search", {"query": "1.1.1.1.1", "min_score": 0}),
        ("natural_query", {"question": "哪些灯开着？"}),
    ):
        answer = await hass.services.async_call(
            DOMAIN, service, data, blocking=True, return_response=True
        )
        assert hostile[:300] not in json.dumps(answer), service
    await hass.config_entries.async_unload(entry.entry_id)
