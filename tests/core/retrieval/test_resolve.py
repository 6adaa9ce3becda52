"""core/retrieval/resolve.py: whether words that are both a name and a type word mean the one
named or every device of the kind."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from tests.core.conftest import make_device

LIVING = Area("living", "Living Room")
GARAGE = Area("garage", "Garage")


def _selected(text: str, index: DeviceIndex, **kwargs: object) -> set[str]:
    return {e for r in retrieve(text, index, **kwargs) for e in r.selected_ids}  # type: ignore[arg-type]


def _garage_home() -> DeviceIndex:
    devices = [
        # Named like the class, but its owner gave it no garage class.
        make_device("cover.garage_door", "Garage Door", GARAGE),
        make_device("cover.overhead", "Overhead Door", LIVING, device_class="garage"),
    ]
    return DeviceIndex.build(devices, [LIVING, GARAGE], language="en")


def test_a_command_with_a_class_word_acts_on_the_class_before_a_device_named_so():
    assert _selected("open the garage door", _garage_home()) == {"cover.overhead"}
    assert _selected("close the garage door", _garage_home()) == {"cover.overhead"}


def test_a_question_with_a_class_word_that_is_a_name_asks_about_the_one_named():
    assert _selected("is the garage door open", _garage_home()) == {"cover.garage_door"}


def test_a_name_that_has_the_class_itself_stays_the_name():
    index = DeviceIndex.build(
        [
            make_device("cover.garage_door", "Garage Door", LIVING, device_class="garage"),
            make_device("cover.carport", "Carport Door", LIVING, device_class="garage"),
        ],
        [LIVING],
        language="en",
    )
    assert _selected("open the garage door", index) == {"cover.garage_door"}
