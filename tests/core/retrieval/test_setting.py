"""core/retrieval/setting.py: the setting is completed from the devices a command selects."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import (
    Area,
    DeviceIndex,
    LexiconSet,
    QueryIR,
    retrieve,
)
from custom_components.context_retrieval.core.retrieval.setting import complete_setting
from tests.core.conftest import make_device, run_context

KITCHEN = Area("kitchen", "Kitchen")


def _home() -> DeviceIndex:
    devices = [
        make_device("fan.hood", "Range Hood", KITCHEN),
        make_device("cover.blind", "Kitchen Blind", KITCHEN, device_class="blind"),
        make_device("light.island", "Island", KITCHEN),
    ]
    return DeviceIndex.build(devices, [KITCHEN], language="en")


def test_a_named_device_gives_the_attribute_a_bare_percentage_sets():
    (hood,) = retrieve("set the range hood to 40%", _home())
    assert hood.selected_ids == ["fan.hood"]
    assert hood.meta.setting == {"attribute": "fan_speed", "value": 40.0, "unit": "%"}
    assert hood.ir.action == "set_fan_speed"
    (blind,) = retrieve("set the kitchen blind to 40%", _home())
    assert blind.meta.setting["attribute"] == "position"


def test_a_command_without_a_value_has_no_setting():
    (result,) = retrieve("turn on the island", _home())
    assert result.meta.setting is None


def test_the_words_decide_the_attribute_when_they_say_it():
    (result,) = retrieve("set the kitchen color temperature to 3000 kelvin", _home())
    assert result.selected_ids == ["light.island"]
    assert result.meta.setting == {"attribute": "color_temp", "value": 3000.0, "unit": "K"}


def test_completing_a_setting_returns_a_new_command_and_leaves_the_one_given(
    lexicons: LexiconSet,
) -> None:
    ctx = run_context(_home(), lexicons)
    said = QueryIR(raw="set the range hood to 40%", action="set", value=40.0, unit="%")
    completed, setting = complete_setting(said, ["fan.hood"], ctx)
    assert (completed.action, completed.attribute, completed.value_error) == (
        "set_fan_speed",
        "fan_speed",
        None,
    )
    assert setting == {"attribute": "fan_speed", "value": 40.0, "unit": "%"}
    assert (said.action, said.attribute) == ("set", None)


def test_a_percentage_is_out_of_range_only_past_its_bounds(lexicons: LexiconSet) -> None:
    ctx = run_context(_home(), lexicons)
    for value, error in [
        (100.0, None),
        (100.5, "out_of_range"),
        (0.0, None),
        (-1.0, "out_of_range"),
    ]:
        said = QueryIR(raw="", action="set", value=value, unit="%")
        completed, setting = complete_setting(said, ["fan.hood"], ctx)
        assert completed.value_error == error, value
        assert (setting or {}).get("error") == error, value
        assert said.value_error is None


def test_devices_of_two_domains_leave_the_attribute_unsaid(lexicons: LexiconSet) -> None:
    ctx = run_context(_home(), lexicons)
    said = QueryIR(raw="", action="set", value=40.0, unit="%")
    completed, setting = complete_setting(said, ["fan.hood", "cover.blind"], ctx)
    assert completed is said
    assert setting == {"attribute": None, "value": 40.0, "unit": "%"}


@pytest.mark.parametrize(
    ("action", "value", "unit", "device", "expected"),
    [
        # Switching off to a percentage closes a cover to a position ("关闭窗帘到50%") ...
        ("turn_off", 50.0, "%", "cover.blind", "set_position"),
        # ... a light said off stays off, and a bare number is no setting of switching off
        # ("turn off the lights at 11" set them to 11 %).
        ("turn_off", 50.0, "%", "light.island", "turn_off"),
        ("turn_off", 11.0, None, "light.island", "turn_off"),
        ("turn_off", 11.0, None, "cover.blind", "turn_off"),
        # An action that takes no value keeps it out; a generic one is made precise.
        ("lock", 3.0, "%", "light.island", "lock"),
        ("turn_on", 40.0, "%", "light.island", "set_brightness"),
        ("close", 30.0, "%", "cover.blind", "set_position"),
    ],
)
def test_only_an_action_that_takes_a_value_becomes_the_setting_of_the_device(
    lexicons: LexiconSet, action: str, value: float, unit: str | None, device: str, expected: str
) -> None:
    ctx = run_context(_home(), lexicons)
    said = QueryIR(raw="x", action=action, value=value, unit=unit)
    completed, _ = complete_setting(said, [device], ctx)
    assert completed.action == expected
