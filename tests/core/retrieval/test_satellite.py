"""core/retrieval/satellite.py: a command that names no place means the satellite's area."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from tests.core.conftest import make_device

KITCHEN = Area("kitchen", "Kitchen")
OFFICE = Area("office", "Office")
HALL = Area("hall", "Hall")


def _home() -> DeviceIndex:
    devices = [
        make_device("light.kitchen", "Ceiling", KITCHEN),
        make_device("light.counter", "Counter", KITCHEN),
        make_device("light.office", "Desk", OFFICE),
        make_device("cover.office", "Shade", OFFICE, device_class="shade"),
        make_device("fan.hall", "Fan", HALL),
    ]
    return DeviceIndex.build(devices, [KITCHEN, OFFICE, HALL], language="en")


def _selected(text: str, area: str | None) -> set[str]:
    return {e for r in retrieve(text, _home(), context_area=area) for e in r.selected_ids}


def test_a_type_without_a_place_means_the_satellites_area():
    (result,) = retrieve("turn off the lights", _home(), context_area="kitchen")
    assert set(result.selected_ids) == {"light.kitchen", "light.counter"}
    assert result.meta["satellite_area"] == "kitchen"


def test_an_action_that_implies_its_devices_means_those_of_the_satellites_area():
    assert _selected("set the brightness to 40%", "office") == {"light.office"}


def test_without_a_satellite_area_the_whole_home_is_meant():
    assert _selected("turn off the lights", None) == {
        "light.kitchen",
        "light.counter",
        "light.office",
    }


def test_a_satellite_area_without_that_type_leaves_the_whole_home():
    assert _selected("close the shades", "kitchen") == {"cover.office"}


def test_a_place_said_or_all_of_them_beats_the_satellite():
    assert _selected("turn off the office lights", "kitchen") == {"light.office"}
    assert _selected("turn off all the lights", "kitchen") == {
        "light.kitchen",
        "light.counter",
        "light.office",
    }


def test_a_name_is_not_limited_to_the_satellites_area():
    assert _selected("turn off the fan", "kitchen") == {"fan.hall"}
