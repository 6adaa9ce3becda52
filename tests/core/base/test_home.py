"""core/base/home.py: reading a home from the demo/benchmark JSON format, forgivingly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from custom_components.context_retrieval.core.base.actions import default_actions
from custom_components.context_retrieval.core.base.home import home_from_dict, load_home
from tests.core.conftest import DEMO_HOME

BASE: dict[str, Any] = {
    "home_id": "tiny",
    "language": "en",
    "floors": [{"floor_id": "down", "name": "Downstairs", "aliases": ["ground floor"]}],
    "areas": [{"area_id": "kitchen", "name": "Kitchen", "aliases": ["galley"], "floor_id": "down"}],
    "entities": [],
}


def home_with(*entities: Any, **overrides: Any):
    return home_from_dict({**BASE, "entities": list(entities), **overrides})


def by_id(home) -> dict[str, Any]:
    return {d.entity_id: d for d in home.devices}


# ---- the demo home --------------------------------------------------------------------------


def test_demo_home_loads_cleanly():
    home = load_home(DEMO_HOME)
    raw = json.loads(Path(DEMO_HOME).read_text(encoding="utf-8"))
    assert home.warnings == []
    assert home.language == "zh"
    assert len(home.devices) == len(raw["entities"])
    assert len(home.areas) == len(raw["areas"])
    assert len(home.floors) == len(raw["floors"])


def test_demo_device_carries_its_room_and_floor():
    devices = by_id(load_home(DEMO_HOME))
    lamp = devices["light.study_old_lamp"]
    assert lamp.name == "老台灯"
    assert "老伙计" in lamp.aliases
    assert lamp.area_id == "study"
    assert lamp.area_name == "书房"
    assert "study" in lamp.area_aliases
    assert lamp.floor_id == "floor_2"
    assert lamp.floor_name == "二楼"
    assert "upstairs" in lamp.floor_aliases


def test_demo_device_without_area_has_no_room():
    hue_go = by_id(load_home(DEMO_HOME))["light.hue_go"]
    assert hue_go.area_id is None
    assert hue_go.floor_id is None


def test_load_home_accepts_a_string_path():
    assert len(load_home(str(DEMO_HOME)).devices) == len(load_home(DEMO_HOME).devices)


# ---- derived fields -------------------------------------------------------------------------


def test_full_entity_record():
    home = home_with(
        {
            "entity_id": "light.kitchen_ceiling",
            "name": "Ceiling Light",
            "aliases": ["big light"],
            "domain": "light",
            "area_id": "kitchen",
            "labels": ["evening"],
            "state": "on",
            "device_name": "Hue Bridge",
        }
    )
    d = by_id(home)["light.kitchen_ceiling"]
    assert (d.name, d.domain, d.aliases, d.labels) == (
        "Ceiling Light",
        "light",
        ("big light",),
        ("evening",),
    )
    assert (d.area_name, d.area_aliases, d.floor_name) == ("Kitchen", ("galley",), "Downstairs")
    assert d.device_name == "Hue Bridge"
    assert d.state == "on"
    assert home.home_id == "tiny"
    assert home.language == "en"


def test_missing_name_is_derived_from_the_entity_id():
    d = by_id(home_with({"entity_id": "light.kitchen_ceiling"}))["light.kitchen_ceiling"]
    assert d.name == "kitchen ceiling"


def test_missing_domain_is_derived_from_the_entity_id():
    d = by_id(home_with({"entity_id": "cover.garage_door"}))["cover.garage_door"]
    assert d.domain == "cover"


def test_missing_actions_come_from_the_domain():
    d = by_id(home_with({"entity_id": "cover.garage_door"}))["cover.garage_door"]
    assert d.actions == default_actions("cover")
    assert "open" in d.actions


def test_declared_actions_are_kept():
    d = by_id(home_with({"entity_id": "light.white", "actions": ["turn_on", "turn_off"]}))
    assert d["light.white"].actions == frozenset({"turn_on", "turn_off"})


def test_numeric_state_becomes_text():
    d = by_id(home_with({"entity_id": "sensor.t", "state": 21.5}))["sensor.t"]
    assert d.state == "21.5"


def test_area_without_name_is_named_by_its_id():
    home = home_with({"entity_id": "light.a", "area_id": "shed"}, areas=[{"area_id": "shed"}])
    assert by_id(home)["light.a"].area_name == "shed"


def test_defaults_when_the_home_says_nothing():
    home = home_from_dict({})
    assert home.devices == []
    assert home.areas == []
    assert home.home_id == "home"
    assert home.language is None


# ---- duplicates and unknown references ------------------------------------------------------


def test_duplicate_entity_ids_merge_into_aliases_with_a_warning():
    home = home_with(
        {"entity_id": "light.a", "name": "Desk Lamp", "aliases": ["lamp"]},
        {"entity_id": "light.a", "name": "Reading Light", "aliases": ["lamp", "reader"]},
    )
    assert len(home.devices) == 1
    d = home.devices[0]
    assert d.name == "Desk Lamp"
    assert d.aliases == ("lamp", "Reading Light", "reader")
    assert any("light.a" in w for w in home.warnings)


def test_exact_duplicate_adds_no_alias():
    entity = {"entity_id": "light.a", "name": "Desk Lamp"}
    home = home_with(entity, dict(entity))
    assert home.devices[0].aliases == ()
    assert len(home.warnings) == 1


def test_unknown_area_is_warned_and_the_device_kept_without_a_room():
    home = home_with({"entity_id": "light.a", "area_id": "attic"})
    d = by_id(home)["light.a"]
    assert d.area_id is None
    assert d.floor_id is None
    assert any("attic" in w and "light.a" in w for w in home.warnings)


def test_area_on_an_unknown_floor_keeps_its_room():
    home = home_with(
        {"entity_id": "light.a", "area_id": "shed"},
        areas=[{"area_id": "shed", "name": "Shed", "floor_id": "roof"}],
    )
    d = by_id(home)["light.a"]
    assert d.area_id == "shed"
    assert d.floor_id is None


# ---- malformed input ------------------------------------------------------------------------


def test_entities_without_an_id_are_skipped_with_a_warning():
    home = home_with(
        None, 3, "light.x", [], {"name": "No Id"}, {"entity_id": ""}, {"entity_id": "light.ok"}
    )
    assert [d.entity_id for d in home.devices] == ["light.ok"]
    assert len(home.warnings) == 6


def test_malformed_lists_are_ignored():
    home = home_with(
        {"entity_id": "light.a", "aliases": "not a list", "labels": 5, "actions": "turn_on"}
    )
    d = home.devices[0]
    assert d.aliases == ()
    assert d.labels == ()
    assert d.actions == default_actions("light")


def test_non_text_list_items_are_dropped():
    home = home_with({"entity_id": "light.a", "aliases": ["ok", None, {"x": 1}, "", "  ", 7]})
    assert home.devices[0].aliases == ("ok", "7")


def test_malformed_areas_and_floors_are_skipped():
    home = home_with(
        {"entity_id": "light.a"},
        areas=[None, "kitchen", {"name": "no id"}, {"area_id": "ok"}],
        floors=[None, {"name": "no id"}, {"floor_id": "f"}],
    )
    assert [a.area_id for a in home.areas] == ["ok"]
    assert [f.floor_id for f in home.floors] == ["f"]
    assert len(home.devices) == 1


def test_null_sections_are_empty():
    home = home_from_dict({"entities": None, "areas": None, "floors": None})
    assert (home.devices, home.areas, home.floors) == ([], [], [])


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(
            {
                "entities": [
                    {"entity_id": "light.a", "area_id": ["kitchen"]},
                    {"entity_id": "light.b"},
                ]
            },
            id="area_id-is-a-list",
        ),
        pytest.param(
            {
                "entities": [
                    {"entity_id": "light.a", "area_id": {"id": "kitchen"}},
                    {"entity_id": "light.b"},
                ]
            },
            id="area_id-is-an-object",
        ),
        pytest.param(
            {
                "areas": [{"area_id": "kitchen", "floor_id": ["down"]}],
                "floors": [{"floor_id": "down"}],
                "entities": [
                    {"entity_id": "light.a", "area_id": "kitchen"},
                    {"entity_id": "light.b"},
                ],
            },
            id="area-floor_id-is-a-list",
        ),
        pytest.param(
            {"floors": 5, "entities": [{"entity_id": "light.b"}]}, id="floors-is-a-number"
        ),
    ],
)
def test_malformed_values_never_raise(data):
    home = home_from_dict(data)
    assert "light.b" in by_id(home)
