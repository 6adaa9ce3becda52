"""intents.py: carrying out resolved commands through Home Assistant's intent handlers — which
intent for which command, the slot values, what is already done, and what cannot be done."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant, State
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import intent

from custom_components.context_retrieval.core import QueryIR, ResultMeta, RetrievalResult
from custom_components.context_retrieval.intents import already_in, intent_for, slot_value
from tests.ha.conftest import add_entity
from tests.ha.demo import Recorded, converse, is_question, set_state, speech


def command(action: str, setting: dict[str, Any] | None = None) -> RetrievalResult:
    return RetrievalResult(ir=QueryIR(raw="", action=action), meta=ResultMeta(setting=setting))


@pytest.mark.parametrize(
    ("action", "domain", "expected"),
    [
        ("turn_on", "light", intent.INTENT_TURN_ON),
        ("open", "cover", intent.INTENT_TURN_ON),
        ("close", "cover", intent.INTENT_TURN_OFF),
        # Home Assistant's HassTurnOn locks a lock: "open" the door unlocks it.
        ("open", "lock", intent.INTENT_TURN_OFF),
        ("unlock", "lock", intent.INTENT_TURN_OFF),
        ("lock", "lock", intent.INTENT_TURN_ON),
        ("media_pause", "media_player", "HassMediaPause"),
        ("media_play", "media_player", "HassMediaUnpause"),
        ("media_next", "media_player", "HassMediaNext"),
        ("dock", "vacuum", "HassVacuumReturnToBase"),
        ("start", "vacuum", "HassVacuumStart"),
        ("start", "light", None),
    ],
)
def test_the_intent_for_an_action(action: str, domain: str, expected: str | None) -> None:
    assert intent_for(command(action), domain) == expected


@pytest.mark.parametrize(
    ("attribute", "expected"),
    [
        ("brightness", "HassLightSet"),
        ("color_temp", "HassLightSet"),
        ("temperature", "HassClimateSetTemperature"),
        ("position", "HassSetPosition"),
        ("volume", "HassSetVolume"),
        ("fan_speed", "HassFanSetSpeed"),
    ],
)
def test_the_intent_for_a_setting(attribute: str, expected: str) -> None:
    setting = {"attribute": attribute, "value": 50.0, "unit": "%"}
    assert intent_for(command("set", setting), "light") == expected


async def test_slot_values(hass: HomeAssistant) -> None:
    hass.config.units = hass.config.units  # metric by default in the test harness
    assert slot_value({"attribute": "brightness", "value": 49.6, "unit": "%"}, hass) == 50
    assert slot_value({"attribute": "color_temp", "value": 2700.0, "unit": "K"}, hass) == 2700
    assert slot_value({"attribute": "temperature", "value": 75.0, "unit": "°F"}, hass) == 23.9
    assert slot_value({"attribute": "temperature", "value": 21.5, "unit": "°C"}, hass) == 21.5
    assert slot_value({"attribute": "color", "value": "red", "unit": None}, hass) == "red"
    # "Brighter" has no value Home Assistant's intents take.
    assert slot_value({"attribute": "brightness", "value": None, "change": "up"}, hass) is None


@pytest.mark.parametrize(
    ("intent_type", "entity_id", "state", "expected"),
    [
        (intent.INTENT_TURN_OFF, "light.a", "off", "off"),
        (intent.INTENT_TURN_OFF, "light.a", "on", None),
        (intent.INTENT_TURN_ON, "light.a", "on", "on"),
        (intent.INTENT_TURN_ON, "cover.a", "open", "open"),
        (intent.INTENT_TURN_OFF, "cover.a", "closed", "closed"),
        (intent.INTENT_TURN_OFF, "cover.a", "open", None),
        (intent.INTENT_TURN_ON, "lock.a", "locked", "locked"),
        (intent.INTENT_TURN_OFF, "lock.a", "unlocked", "unlocked"),
        (intent.INTENT_TURN_OFF, "climate.a", "off", "off"),
        (intent.INTENT_TURN_ON, "climate.a", "cool", "on"),
        (intent.INTENT_TURN_OFF, "climate.a", "cool", None),
        (intent.INTENT_TURN_OFF, "light.a", "unavailable", None),
        (intent.INTENT_TOGGLE, "light.a", "on", None),
        (intent.INTENT_TURN_ON, "scene.a", "2024-01-01T00:00:00", None),
    ],
)
def test_already_in_the_state_asked_for(
    intent_type: str, entity_id: str, state: str, expected: str | None
) -> None:
    assert already_in(intent_type, State(entity_id, state)) == expected


# ---- through the conversation agent ---------------------------------------------------------


async def test_opening_a_door_with_a_lock_unlocks_it_once_the_user_says_yes(
    hass: HomeAssistant, demo_services: Recorded
) -> None:
    asked = await converse(hass, "open the front door and the garage door", "i1", "en")
    # Nothing is opened before the yes: both wait for it, in one question.
    assert not demo_services.any()
    assert is_question(asked)
    assert "front door" in speech(asked)

    await converse(hass, "yes", "i1", "en")
    assert demo_services.entities("lock.unlock") == ["lock.front_door"]
    assert demo_services["lock.lock"] == []


async def test_an_unavailable_device_is_left_alone_and_named(
    hass: HomeAssistant, demo_services: Recorded
) -> None:
    set_state(hass, ["climate.living_room_ac"], "cool")
    result = await converse(hass, "关掉客厅和次卧的空调", "i2")
    assert demo_services.entities("climate.turn_off") == ["climate.living_room_ac"]
    assert "次卧的空调现在不可用" in speech(result), speech(result)


async def test_a_name_home_assistant_cannot_single_out_still_gets_its_temperature(
    hass: HomeAssistant, demo_services: Recorded
) -> None:
    """Two thermostats called 空调 in one room (both meant: "客厅空调" is the room's kind):
    Home Assistant's temperature intent finds its one target by name, so the service it calls
    is used on each."""
    living = hass.states.get("climate.living_room_ac")
    assert living is not None
    entry = er.async_get(hass).async_get("climate.living_room_ac")
    assert entry is not None
    await add_entity(
        hass, "climate.living_room_ac_2", "空调", "cool", entry.area_id, **living.attributes
    )
    ours = hass.config_entries.async_entries("context_retrieval")[0]
    await ours.runtime_data.manager.async_rebuild()
    result = await converse(hass, "把客厅空调调到24度", "i3")

    assert demo_services.data("climate.set_temperature") == {
        "climate.living_room_ac": {"temperature": 24},
        "climate.living_room_ac_2": {"temperature": 24},
    }
    assert speech(result).count("24") == 1, speech(result)  # one sentence for one setting
