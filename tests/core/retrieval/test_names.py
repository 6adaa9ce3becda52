"""core/retrieval/names.py: which of the entities a name means, and what to ask otherwise."""

from __future__ import annotations

from custom_components.context_retrieval.core import DeviceIndex, retrieve
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
