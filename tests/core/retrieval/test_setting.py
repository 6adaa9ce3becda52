"""core/retrieval/setting.py: the setting is completed from the devices a command selects."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from tests.core.conftest import make_device

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
