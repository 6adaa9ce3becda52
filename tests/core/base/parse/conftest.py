"""Fixtures and helpers shared by the tests of this package."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, QueryIR
from custom_components.context_retrieval.core.base.parse import (
    compile_utterance,
)
from tests.core.conftest import make_device


@pytest.fixture(scope="module")
def zh_index() -> DeviceIndex:
    """A small Chinese home that has a room called 卧室 (the demo home only has 主卧/次卧).

    No device is named after a type word, so 空调/窗帘 can only be read as types here.
    """
    f1 = Floor("f1", "一楼", ("楼下",))
    f2 = Floor("f2", "二楼", ("楼上",))
    living = Area("living", "客厅", (), "f1")
    kitchen = Area("kitchen", "厨房", (), "f1")
    bedroom = Area("bedroom", "卧室", (), "f2")
    master = Area("master", "主卧", (), "f2")
    kids = Area("kids", "儿童房", (), "f2")
    study = Area("study", "书房", (), "f2")
    devices = [
        make_device("light.living_main", "客厅主灯", living, f1),
        make_device("light.living_floor", "落地灯", living, f1),
        make_device("climate.living_ac", "立式柜机", living, f1),
        make_device("cover.living_curtain", "布艺帘", living, f1, device_class="curtain"),
        make_device("media_player.living_tv", "电视", living, f1, device_class="tv"),
        make_device("light.kitchen_light", "厨房灯", kitchen, f1),
        make_device("light.bedroom_light", "卧室灯", bedroom, f2),
        make_device("climate.bedroom_ac", "挂机", bedroom, f2),
        make_device(
            "sensor.bedroom_temperature", "卧室温度", bedroom, f2, device_class="temperature"
        ),
        make_device("light.master_light", "主卧灯", master, f2),
        make_device("light.kids_light", "儿童房灯", kids, f2),
        make_device("light.study_lamp", "台灯", study, f2),
        make_device("light.study_old_lamp", "老台灯", study, f2, aliases=("老伙计",)),
    ]
    return DeviceIndex.build(
        devices, [living, kitchen, bedroom, master, kids, study], [f1, f2], language="zh"
    )


def one(text: str, index: DeviceIndex, lexicons, language: str | None = None) -> QueryIR:
    """The single command the utterance must compile to."""
    _, commands = compile_utterance(text, index, lexicons, language)
    assert len(commands) == 1, [c.raw for c in commands]
    return commands[0]


def types_of(ir: QueryIR) -> set[str]:
    return {t for group in ir.type_groups for t in group}
