"""core/retrieval/name_readings.py: a name said of several read as the devices it names or as
its type words."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from tests.core.conftest import make_device

LIVING = Area("living", "客厅")
BEDROOM = Area("bedroom", "卧室")
STUDY = Area("study", "书房")


@pytest.fixture(scope="module")
def lights() -> DeviceIndex:
    devices = [
        make_device("light.living_ceiling", "吸顶灯", LIVING),
        make_device("light.bedroom_ceiling", "吸顶灯", BEDROOM),
        make_device("light.living_reading", "阅读灯", LIVING),
        make_device("light.study_panel", "面板灯", STUDY),
        make_device("light.study_desk", "台灯", STUDY),
        make_device("light.bedroom_desk", "台灯", BEDROOM),
        make_device("cover.living_curtain", "窗帘", LIVING, device_class="curtain"),
        make_device("cover.bedroom_drape", "遮光帘", BEDROOM, device_class="curtain"),
    ]
    return DeviceIndex.build(devices, [LIVING, BEDROOM, STUDY], [], language="zh")


@pytest.mark.parametrize(
    ("text", "selected"),
    [
        # A narrower kind than the type ("吸顶灯" holds "灯"): the devices so named, never
        # every light of the home.
        ("打开所有吸顶灯", {"light.living_ceiling", "light.bedroom_ceiling"}),
        ("关掉所有的台灯", {"light.study_desk", "light.bedroom_desk"}),
        ("哪些吸顶灯开着", {"light.living_ceiling", "light.bedroom_ceiling"}),
        # The type's own word is the type, whatever its devices are called.
        ("关掉所有的窗帘", {"cover.living_curtain", "cover.bedroom_drape"}),
        (
            "打开所有的灯",
            {
                "light.living_ceiling",
                "light.bedroom_ceiling",
                "light.living_reading",
                "light.study_panel",
                "light.study_desk",
                "light.bedroom_desk",
            },
        ),
    ],
)
def test_all_of_a_narrower_kind_is_the_devices_so_named(
    lights: DeviceIndex, text: str, selected: set[str]
) -> None:
    (result,) = retrieve(text, lights)
    assert set(result.selected_ids) == selected
