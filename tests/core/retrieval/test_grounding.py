"""core/retrieval/grounding.py: what waits for the user's yes before it is done."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, ConversationState, DeviceIndex, retrieve
from custom_components.context_retrieval.core.retrieval.context import RetrievalOptions
from tests.core.conftest import make_device

GARAGE = Area("garage", "Garage")
HALL = Area("hall", "Hall")


@pytest.fixture(scope="module")
def home() -> DeviceIndex:
    devices = [
        make_device("cover.garage_door", "Garage Door", GARAGE, device_class="garage"),
        make_device("cover.garage_blind", "Garage Blind", GARAGE, device_class="blind"),
        make_device("cover.driveway_gate", "Driveway Gate", GARAGE, device_class="gate"),
        make_device("lock.front_door", "Front Door Lock", HALL),
        make_device("light.hall", "Hall Light", HALL),
        make_device("light.garage", "Garage Light", GARAGE),
    ]
    return DeviceIndex.build(devices, [GARAGE, HALL], language="en")


def _asked(home: DeviceIndex, text: str, **options: bool) -> tuple[str, ...] | None:
    result = retrieve(text, home, language="en", options=RetrievalOptions(**options))[0]
    return None if result.confirmation is None else result.confirmation.entity_ids


def test_unlocking_waits_for_a_yes(home: DeviceIndex) -> None:
    assert _asked(home, "unlock the front door lock") == ("lock.front_door",)


def test_opening_waits_only_for_the_garage_door_and_gate_not_the_blind(home: DeviceIndex):
    asked = _asked(home, "open all the covers in the garage")
    assert asked is not None
    assert set(asked) == {"cover.garage_door", "cover.driveway_gate"}


def test_opening_the_garage_door_waits_but_turning_lights_on_or_off_does_not(home: DeviceIndex):
    assert _asked(home, "open the garage door") == ("cover.garage_door",)
    assert _asked(home, "turn off all the lights") is None
    assert _asked(home, "turn on the garage light") is None


def test_closing_the_garage_door_asks_nothing(home: DeviceIndex) -> None:
    assert _asked(home, "close the garage door") is None


def test_no_question_when_the_user_turned_confirmations_off(home: DeviceIndex) -> None:
    assert _asked(home, "unlock the front door lock", confirm_security=False) is None


def test_an_exclusion_naming_nothing_known_does_nothing(demo_index) -> None:
    # "the sheer" is not a name of the home: every curtain was closed, the one to be left
    # open among them.
    (result,) = retrieve("close all the curtains except the sheer", demo_index)
    assert result.selected_ids == []
    assert result.meta.not_commanded == "not_found"
    assert result.meta.not_found == ["sheer"]
    (known,) = retrieve("close all the curtains except the living room", demo_index)
    assert known.selected_ids and not any("living_room" in e for e in known.selected_ids)
    # An unknown word beside a known place ("celui", the one) still leaves that place out.
    (fr,) = retrieve("Éteins les climatiseurs mais laisse celui de la master bedroom", demo_index)
    assert sorted(fr.selected_ids) == ["climate.guest_room_ac", "climate.living_room_ac"]


def _players() -> DeviceIndex:
    living, kitchen = Area("living", "Living Room"), Area("kitchen", "Kitchen")
    devices = [
        make_device("media_player.tv", "TV", living),
        make_device("media_player.soundbar", "Soundbar", living),
        make_device("media_player.radio", "Radio", kitchen),
    ]
    return DeviceIndex.build(devices, [living, kitchen], language="en")


@pytest.mark.parametrize("text", ["play some jazz", "放点音乐"])
def test_playing_something_said_of_no_player_asks_which(text: str) -> None:
    # It started the music on every player of the home.
    (result,) = retrieve(text, _players())
    assert result.selected_ids == []
    assert result.clarification is not None
    assert {o.entity_id for o in result.clarification.options} == {
        "media_player.tv",
        "media_player.soundbar",
        "media_player.radio",
    }


@pytest.mark.parametrize(
    ("text", "kwargs", "expected"),
    [
        ("play some jazz in the kitchen", {}, {"media_player.radio"}),
        ("play some jazz on the radio", {}, {"media_player.radio"}),
        # A satellite's room says where, as a room said does.
        (
            "play some jazz",
            {"context_area": "living"},
            {"media_player.tv", "media_player.soundbar"},
        ),
    ],
)
def test_playing_on_a_player_or_in_a_room_said_asks_nothing(
    text: str, kwargs: dict[str, str], expected: set[str]
) -> None:
    (result,) = retrieve(text, _players(), **kwargs)  # type: ignore[arg-type]
    assert result.clarification is None
    assert set(result.selected_ids) == expected


def test_pausing_said_of_no_player_asks_nothing() -> None:
    (result,) = retrieve("pause the music", _players())
    assert result.clarification is None


@pytest.mark.parametrize(
    ("text", "kwargs", "asked"),
    [
        # "it" of a complaint is no device referred to: every AC of the home went on.
        ("it is too hot", {}, True),
        ("es ist zu warm", {}, True),
        ("it is too hot in the bedroom", {}, True),
        # A room that says which, or a satellite's room, settles it.
        ("it is too hot in the master bedroom", {}, False),
        ("it is too hot", {"context_area": "master_bedroom"}, False),
    ],
)
def test_a_complaint_said_with_it_asks_which_devices(
    demo_index, text: str, kwargs: dict[str, str], asked: bool
) -> None:
    (result,) = retrieve(text, demo_index, **kwargs)  # type: ignore[arg-type]
    assert (result.clarification is not None) is asked
    if asked:
        assert result.selected_ids == []
    else:
        assert result.selected_ids == ["climate.master_bedroom_ac"]


def test_it_said_of_the_last_turns_devices_still_acts_on_them(demo_index) -> None:
    state = ConversationState()
    retrieve("turn on the study lights", demo_index, state=state)
    (result,) = retrieve("turn it off", demo_index, state=state)
    assert result.clarification is None
    assert sorted(result.selected_ids) == ["light.study_old_lamp", "light.study_panel"]
