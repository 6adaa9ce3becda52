"""core/retrieval/commanded.py: a command that commands nothing selects nothing, and says so."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import (
    Area,
    ConversationState,
    DeviceIndex,
    Mention,
    QueryIR,
    retrieve,
)
from custom_components.context_retrieval.core.base.models import Note
from custom_components.context_retrieval.core.retrieval.commanded import settle_action
from tests.core.conftest import make_device

BEDROOM = Area("bedroom", "Bedroom")


def _home() -> DeviceIndex:
    devices = [
        make_device("light.bed", "Bed Lamp", BEDROOM),
        make_device("cover.blind", "Blind", BEDROOM, device_class="blind"),
    ]
    return DeviceIndex.build(devices, [BEDROOM], language="en")


@pytest.mark.parametrize(
    ("text", "mentioned"),
    [
        ("set the bed lamp to 150 percent", ["light.bed"]),
        ("set the blinds to -20 percent", ["cover.blind"]),
    ],
)
def test_a_value_out_of_range_selects_nothing_and_keeps_the_devices_as_mentioned(
    text: str, mentioned: list[str]
):
    (result,) = retrieve(text, _home())
    assert result.selected_ids == []
    assert result.clarification is None
    assert result.meta.not_commanded == "value_out_of_range"
    assert result.meta.mentioned == mentioned


def test_a_value_in_range_acts():
    (result,) = retrieve("set the bed lamp to 100 percent", _home())
    assert result.selected_ids == ["light.bed"]
    assert result.meta.not_commanded is None


# ---- utterances that are no command ------------------------------------------------------------

LIVING = Area("living", "Living Room")


def _living_home(language: str = "en") -> DeviceIndex:
    devices = [
        make_device("light.floor", "Floor Lamp", LIVING),
        make_device("climate.thermostat", "Thermostat", LIVING),
        make_device("scene.movie", "Movie Night"),
        make_device("sensor.temp", "Living Temperature", LIVING, device_class="temperature"),
    ]
    return DeviceIndex.build(devices, [LIVING], language=language)


@pytest.mark.parametrize("text", ["living room", "the floor lamp", "floor lamp in the living room"])
def test_a_bare_target_selects_nothing_and_is_mentioned(text: str):
    (result,) = retrieve(text, _living_home())
    assert result.selected_ids == []
    assert result.meta.not_commanded == "no_action"
    assert result.meta.mentioned


def test_a_bare_target_with_a_word_the_data_does_not_know_still_acts():
    # "frobnicate" may be a verb the language data lacks: the target is still meant.
    (result,) = retrieve("frobnicate the floor lamp", _living_home())
    assert result.selected_ids == ["light.floor"]


def test_a_scene_named_alone_is_run():
    (result,) = retrieve("movie night", _living_home())
    assert result.selected_ids == ["scene.movie"]
    assert result.ir.action == "activate"


@pytest.mark.parametrize(
    ("action", "value", "runs"),
    [
        (None, None, True),
        ("set", None, True),
        ("turn_on", None, True),
        ("turn_off", None, False),
        ("set", 20.0, False),
    ],
)
def test_settling_a_scene_s_action_returns_a_new_command(
    action: str | None, value: float | None, runs: bool
) -> None:
    """A scene named alone, "set" or "turned on", is run, and a missing value no longer
    stops it; off, or set to a value, it is not. The command given is left as it was."""
    index = _living_home()
    movie = Mention("movie night", frozenset({"scene.movie"}))
    said = QueryIR(
        raw="movie night", action=action, value=value, mentions=[movie], notes=[Note.VALUE_MISSING]
    )
    settled = settle_action(said, index)
    assert said.action == action and said.notes == [Note.VALUE_MISSING]
    if runs:
        assert settled.action == "activate"
        assert settled.notes == [Note.RUN_BY_NAME]
    else:
        assert settled is said


def test_a_scene_named_with_a_light_is_not_run() -> None:
    index = _living_home()
    said = QueryIR(
        raw="",
        action="turn_on",
        mentions=[
            Mention("movie night", frozenset({"scene.movie"})),
            Mention("floor lamp", frozenset({"light.floor"})),
        ],
    )
    assert settle_action(said, index) is said


def test_a_reading_or_a_state_said_without_a_verb_asks():
    (reading,) = retrieve("living room temperature", _living_home())
    assert reading.ir.action == "query"
    assert reading.selected_ids
    (asked,) = retrieve("the floor lamp?", _living_home())
    assert asked.ir.action == "query"
    assert asked.selected_ids == ["light.floor"]


@pytest.mark.parametrize("text", ["open the thermostat", "lock the floor lamp"])
def test_an_action_the_target_cannot_do_selects_nothing(text: str):
    (result,) = retrieve(text, _living_home())
    assert result.selected_ids == []
    assert result.meta.not_commanded == "cannot_do"
    assert result.meta.mentioned


def test_a_set_command_whose_value_is_noise_selects_nothing():
    (result,) = retrieve("set the floor lamp banana potato tomato", _living_home())
    assert result.selected_ids == []
    assert result.meta.not_commanded == "value_missing"
    assert result.meta.mentioned == ["light.floor"]
    (heat,) = retrieve("set the thermostat to heat", _living_home())
    assert heat.selected_ids == ["climate.thermostat"]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("write a poem about the floor lamp", "en"),
        ("who invented the floor lamp", "en"),
        ("schreib ein Gedicht über die Stehlampe", "de"),
    ],
)
def test_a_request_not_about_controlling_the_home_selects_nothing(text: str, language: str):
    index = _living_home(language)
    if language == "de":
        wohnzimmer = Area("wohnzimmer", "Wohnzimmer")
        index = DeviceIndex.build(
            [make_device("light.steh", "Stehlampe", wohnzimmer)], [wohnzimmer], language="de"
        )
    (result,) = retrieve(text, index, language=language)
    assert result.selected_ids == []
    assert result.meta.not_commanded == "not_about_the_home"


def test_an_utterance_with_only_a_target_does_what_the_last_turn_did():
    index = _living_home()
    state = ConversationState()
    retrieve("turn on the floor lamp", index, state=state)
    retrieve("turn off the thermostat", index, state=state)
    (result,) = retrieve("and the floor lamp", index, state=state)
    assert result.ir.action == "turn_off"
    assert result.selected_ids == ["light.floor"]
