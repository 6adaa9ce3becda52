"""core/retrieval/names.py: which of the entities a name means, and what to ask otherwise."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from custom_components.context_retrieval.core.retrieval.gate import MAX_OPTIONS
from tests.core.conftest import make_device


def _plugs() -> DeviceIndex:
    return DeviceIndex.build(
        [
            make_device("switch.plug", "Smart Plug", aliases=("Desk Plug",)),
            make_device("switch.plug_2", "Smart Plug 2"),
            make_device("switch.plug_3", "Smart Plug 3"),
            make_device("light.lamp", "Lamp"),
        ],
        [],
    )


def _selected(text: str, index: DeviceIndex) -> list[str]:
    return [c.entity_id for r in retrieve(text, index, language="en") for c in r.selected]


def test_a_bare_name_with_numbered_siblings_means_them_all_when_all_are_asked_for():
    index = _plugs()
    assert _selected("switch off every smart plug", index) == [
        "switch.plug",
        "switch.plug_2",
        "switch.plug_3",
    ]
    # Said alone, the name is the entity called exactly that.
    assert _selected("switch off the smart plug", index) == ["switch.plug"]


def test_an_alias_names_its_own_entity_not_the_siblings_of_its_name():
    # "Desk Plug" is one plug; its name's numbered siblings are other plugs.
    assert _selected("switch off every desk plug", _plugs()) == ["switch.plug"]
    assert _selected("switch off the desk plug", _plugs()) == ["switch.plug"]


def _lamps(rooms: int) -> DeviceIndex:
    areas = [
        Area(f"r{i}", f"Room {n}")
        for i, n in enumerate(["Alpha", "Bravo", "Charlie", "Delta", "Echo"])
    ]
    devices = [
        make_device(f"light.floor_lamp_{i}", "Floor Lamp", a) for i, a in enumerate(areas[:rooms])
    ]
    devices.append(make_device("light.floor_light", "Floor Lamps Light", areas[0]))
    return DeviceIndex.build(devices, areas, language="en")


def test_similar_names_follow_the_tied_ones_in_the_question():
    (result,) = retrieve("turn off the floor lamp", _lamps(2), language="en")
    assert result.clarification is not None
    assert [o.entity_id for o in result.clarification.options] == [
        "light.floor_lamp_0",
        "light.floor_lamp_1",
        "light.floor_light",
    ]


def test_similar_names_are_left_out_when_the_tied_ones_fill_the_question():
    # Four of five "Floor Lamp"s are asked about; a similar name would be in the pool the
    # reply is read against without the user ever hearing it.
    (result,) = retrieve("turn off the floor lamp", _lamps(5), language="en")
    assert result.clarification is not None
    assert len(result.clarification.options) == MAX_OPTIONS == 4
    assert result.meta.clarification_pool == [f"light.floor_lamp_{i}" for i in range(5)]
