"""core/retrieval/implied.py: what a command without a name or a type word acts on."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import (
    Area,
    ConversationState,
    DeviceIndex,
    retrieve,
)
from tests.core.conftest import make_device

LIVING = Area("living", "Living Room", ("客厅",))
KITCHEN = Area("kitchen", "Kitchen", ("厨房",))


@pytest.fixture(scope="module")
def home() -> DeviceIndex:
    devices = [
        make_device("light.ceiling", "Ceiling Light", LIVING, aliases=("吸顶灯",)),
        make_device("light.reading", "Reading Light", LIVING, aliases=("阅读灯",)),
        make_device("light.backlight", "TV Backlight", LIVING, aliases=("电视背景灯",)),
        make_device("light.kitchen", "Kitchen Light", KITCHEN, aliases=("厨房灯",)),
    ]
    return DeviceIndex.build(devices, [LIVING, KITCHEN], [], language="en")


def _turns(index: DeviceIndex, *texts: str) -> list[list[str]]:
    state = ConversationState()
    out = []
    for text in texts:
        (result,) = retrieve(text, index, state=state)
        out.append(sorted(result.selected_ids))
    return out


@pytest.mark.parametrize(
    "follow_up",
    [
        "turn them all off except the reading light",
        "turn them off except the reading light",
        "除了阅读灯都关掉",
    ],
)
def test_what_is_left_out_of_them_stays_as_it_is(home: DeviceIndex, follow_up: str) -> None:
    # The reading light was turned off with the rest: "them" ignored the exclusion.
    first, then = _turns(home, "turn on the living room lights", follow_up)
    assert first == ["light.backlight", "light.ceiling", "light.reading"]
    assert then == ["light.backlight", "light.ceiling"]


def test_them_when_all_of_them_are_left_out_is_nothing(home: DeviceIndex) -> None:
    # Not the next reading (every light of the home but those): nothing of "them" is left.
    _, then = _turns(home, "turn on the reading light", "turn it off except the reading light")
    assert then == []


def test_them_without_an_exclusion_is_all_of_them(home: DeviceIndex) -> None:
    _, then = _turns(home, "turn on the living room lights", "turn them off")
    assert then == ["light.backlight", "light.ceiling", "light.reading"]
