"""core/retrieval/capability.py: can this entity do what the command asks?"""

from __future__ import annotations

import dataclasses

import pytest

from custom_components.context_retrieval.core import DeviceIndex
from custom_components.context_retrieval.core.base.actions import ACTIONS
from custom_components.context_retrieval.core.retrieval.capability import (
    capability_check,
    is_capable,
)
from tests.core.conftest import make_device

LIGHT = make_device("light.lamp", "Lamp")

SWITCH = make_device("switch.kettle", "Kettle")


SENSOR = make_device("sensor.temperature", "Temperature")


BINARY_SENSOR = make_device("binary_sensor.window", "Window")


COVER = make_device("cover.blinds", "Blinds")


LOCK = make_device("lock.front_door", "Front Door")


SCENE = make_device("scene.movie_night", "Movie Night")


SCRIPT = make_device("script.good_morning", "Good Morning")


CLIMATE = make_device("climate.thermostat", "Thermostat")


MEDIA = make_device("media_player.tv", "TV")


VACUUM = make_device("vacuum.robot", "Robot")


ALL = [LIGHT, SWITCH, SENSOR, BINARY_SENSOR, COVER, LOCK, SCENE, SCRIPT, CLIMATE, MEDIA, VACUUM]


def ids(devices) -> set[str]:
    return {d.entity_id for d in devices}


def test_lights_and_switches_turn_on_and_off():
    for device in (LIGHT, SWITCH):
        assert is_capable(device, "turn_on")
        assert is_capable(device, "turn_off")
        assert is_capable(device, "turn_off", explicit=False)


@pytest.mark.parametrize("action", ["turn_on", "turn_off", "toggle", "set", "open", "lock"])
def test_sensors_cannot_be_controlled(action):
    assert not is_capable(SENSOR, action)
    assert not is_capable(BINARY_SENSOR, action)


def test_turn_off_everything_touches_only_things_that_switch_off():
    # "turn off everything": lights, switches, the thermostat and the TV; not the blinds
    # (they would close), not the lock, not sensors or scenes.
    check = capability_check(DeviceIndex.build(ALL, language="en"), "turn_off", explicit=False)
    assert {d.entity_id for d in ALL if check(d.entity_id)} == {
        "light.lamp",
        "switch.kettle",
        "climate.thermostat",
        "media_player.tv",
    }


def test_cover_opens_on_turn_on_only_when_named():
    # "turn on the blinds" means open them; "turn on everything" must not open every blind.
    assert is_capable(COVER, "turn_on", explicit=True)
    assert not is_capable(COVER, "turn_on", explicit=False)


def test_cover_closes_on_turn_off_only_when_named():
    assert is_capable(COVER, "turn_off", explicit=True)
    assert not is_capable(COVER, "turn_off", explicit=False)


def test_covers_open_close_and_stop():
    for action in ("open", "close", "stop", "set_position"):
        assert is_capable(COVER, action)
        assert is_capable(COVER, action, explicit=False)


def test_lights_cannot_be_opened_generically():
    assert not is_capable(LIGHT, "open", explicit=False)


def test_locks_lock_and_unlock():
    assert is_capable(LOCK, "lock")
    assert is_capable(LOCK, "unlock")
    assert not is_capable(LIGHT, "lock")
    assert not is_capable(COVER, "unlock", explicit=False)  # "unlock everything"


def test_turn_on_everything_does_not_unlock_doors():
    assert not is_capable(LOCK, "turn_on", explicit=False)


def test_open_everything_does_not_unlatch_locks():
    assert not is_capable(LOCK, "open", explicit=False)


def test_scenes_and_scripts_activate():
    assert is_capable(SCENE, "activate")
    assert is_capable(SCRIPT, "activate")
    assert is_capable(SCENE, "turn_on")  # "turn on movie night"


def test_scenes_cannot_be_turned_off():
    assert not is_capable(SCENE, "turn_off")
    assert not is_capable(SCENE, "turn_on", explicit=False)


def test_brightness_and_colour_belong_to_lights():
    assert is_capable(LIGHT, "set_brightness")
    assert not is_capable(SWITCH, "set_brightness")
    assert not is_capable(COVER, "set_color")


def test_temperature_belongs_to_climate():
    assert is_capable(CLIMATE, "set_temperature")
    assert not is_capable(SENSOR, "set_temperature")
    assert not is_capable(LIGHT, "set_temperature")


def test_media_controls_belong_to_media_players():
    for action in ("media_pause", "set_volume", "mute", "media_next"):
        assert is_capable(MEDIA, action)
        assert not is_capable(LIGHT, action)


def test_vacuum_starts_and_docks():
    assert is_capable(VACUUM, "start")
    assert is_capable(VACUUM, "dock")
    assert not is_capable(LIGHT, "dock")


@pytest.mark.parametrize("device", ALL, ids=lambda d: d.domain)
def test_query_accepts_anything(device):
    assert is_capable(device, "query")
    assert is_capable(device, "query", explicit=False)


@pytest.mark.parametrize("device", ALL, ids=lambda d: d.domain)
def test_no_action_accepts_anything(device):
    assert is_capable(device, None)


@pytest.mark.parametrize("device", ALL, ids=lambda d: d.domain)
def test_unknown_action_is_permissive(device):
    assert "do_a_backflip" not in ACTIONS
    assert is_capable(device, "do_a_backflip")


def test_the_index_check_drops_the_incapable():
    index = DeviceIndex.build([SENSOR, LIGHT, SCENE, SWITCH], language="en")
    check = capability_check(index, "turn_off")
    assert [e for e in index.entries if check(e)] == ["light.lamp", "switch.kettle"]


def test_generic_meaning_is_never_wider_than_the_explicit_one():
    # Naming a device can only make more of it eligible, never less.
    for action in ACTIONS:
        for device in ALL:
            if is_capable(device, action, explicit=False):
                assert is_capable(device, action, explicit=True), (action, device.domain)


def test_declared_actions_override_the_domain_defaults():
    # A white-only bulb (the HA glue derives actions from supported features).
    white_only = dataclasses.replace(LIGHT, actions=frozenset({"turn_on", "turn_off"}))
    assert is_capable(white_only, "turn_off")
    assert not is_capable(white_only, "set_color")
    assert not is_capable(white_only, "set_brightness")


def test_device_without_declared_actions_gets_the_domain_defaults():
    bare = dataclasses.replace(LIGHT, actions=frozenset())
    assert is_capable(bare, "set_brightness")


def test_unknown_domain_can_do_nothing_but_answer_questions():
    thing = make_device("weird_domain.x", "Thing")
    assert not is_capable(thing, "turn_on")
    assert is_capable(thing, "query")


@pytest.mark.parametrize("explicit", [True, False])
@pytest.mark.parametrize("action", [*sorted(ACTIONS), None, "query", "no_such_action"])
def test_capability_check_by_id_agrees_with_is_capable(action, explicit):
    index = DeviceIndex.build(ALL, [])
    check = capability_check(index, action, explicit)
    for device in ALL:
        assert check(device.entity_id) == is_capable(device, action, explicit), device.entity_id


def test_capability_check_follows_updates_made_after_it_was_first_asked():
    """The capable sets are made once per action and then kept current by every update: a
    device that gains, loses or changes its abilities is judged by what it can do now."""
    index = DeviceIndex.build(ALL, [])
    assert capability_check(index, "lock")(LOCK.entity_id)
    assert not capability_check(index, "lock")(LIGHT.entity_id)

    # A lock that can no longer lock, a light that now can, a new lock, a removed switch.
    index.upsert(dataclasses.replace(LOCK, actions=frozenset({"query"})))
    index.upsert(dataclasses.replace(LIGHT, actions=frozenset({"lock", "unlock"})))
    index.upsert(make_device("lock.back_door", "Back Door"))
    assert capability_check(index, "turn_off")(SWITCH.entity_id)
    index.remove(SWITCH.entity_id)

    lock = capability_check(index, "lock")
    assert not lock(LOCK.entity_id)
    assert lock(LIGHT.entity_id)
    assert lock("lock.back_door")
    assert not capability_check(index, "turn_off")(SWITCH.entity_id)
    for entry in index.entries.values():
        device = entry.device
        for action in ACTIONS:
            assert capability_check(index, action)(device.entity_id) == is_capable(
                device, action
            ), (action, device.entity_id)
