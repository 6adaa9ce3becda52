"""core/retrieval/satellite.py: a command that names no place means the satellite's area."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, retrieve
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
    assert result.meta.satellite_area == "kitchen"


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


def _home_on_floors() -> DeviceIndex:
    ground, upstairs = Floor("ground", "Ground Floor", level=0), Floor("up", "Upstairs", level=1)
    kitchen = Area("kitchen", "Kitchen", floor_id="ground")
    office = Area("office", "Office", floor_id="up")
    bedroom = Area("bedroom", "Bedroom", floor_id="up")
    devices = [
        make_device("light.kitchen", "Ceiling", kitchen, ground, labels=("festive",)),
        make_device("light.office", "Desk", office, upstairs),
        make_device("light.office_2", "Shelf", office, upstairs, labels=("festive",)),
        make_device("light.bedroom", "Bedside", bedroom, upstairs),
    ]
    return DeviceIndex.build(devices, [kitchen, office, bedroom], [ground, upstairs], language="en")


def _said_in_the_office(text: str) -> set[str]:
    return {
        e for r in retrieve(text, _home_on_floors(), context_area="office") for e in r.selected_ids
    }


def test_every_place_said_beats_the_satellite():
    """A floor, "everywhere", a label or an exclusion says where: the office satellite's own
    room is no longer all that is meant, even where that room is part of the place said."""
    office = {"light.office", "light.office_2"}
    assert _said_in_the_office("turn off the lights") == office
    assert _said_in_the_office("turn off the lights upstairs") == {*office, "light.bedroom"}
    assert _said_in_the_office("turn off the lights everywhere") == {
        *office,
        "light.bedroom",
        "light.kitchen",
    }
    assert _said_in_the_office("turn off the festive lights") == {
        "light.kitchen",
        "light.office_2",
    }
    assert _said_in_the_office("turn off the lights except the kitchen") == {
        *office,
        "light.bedroom",
    }
