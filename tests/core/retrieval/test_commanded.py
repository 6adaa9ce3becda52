"""core/retrieval/commanded.py: a command that commands nothing selects nothing, and says so."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
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
    assert result.meta["not_commanded"] == "value_out_of_range"
    assert result.meta["mentioned"] == mentioned


def test_a_value_in_range_acts():
    (result,) = retrieve("set the bed lamp to 100 percent", _home())
    assert result.selected_ids == ["light.bed"]
    assert "not_commanded" not in result.meta
