"""confirm.py: saying exactly what changed, in the utterance's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from custom_components.context_retrieval.confirm import (
    LISTED,
    Namer,
    confirmation,
    join_sentences,
    value_text,
)
from custom_components.context_retrieval.core import DeviceIndex
from custom_components.context_retrieval.core.base.home import load_home
from custom_components.context_retrieval.core.base.lexicon import default_lexicons
from custom_components.context_retrieval.intents import Done, Outcome

DEMO = Path(__file__).resolve().parents[2] / "demo" / "home.json"


@pytest.fixture(scope="module")
def index() -> DeviceIndex:
    home = load_home(DEMO)
    return DeviceIndex.build(home.devices, home.areas, home.floors, language=home.language)


def lights(index: DeviceIndex) -> list[str]:
    return [e for e in index.entries if e.startswith("light.")]


def test_a_short_list_names_everyone_with_rooms_for_shared_names(index: DeviceIndex) -> None:
    zh, en = default_lexicons().get("zh"), default_lexicons().get("en")
    ids = ["light.kitchen_ceiling", "light.living_room_reading"]
    assert Namer(index, zh, None).names(ids) == "厨房的吸顶灯和阅读灯"
    # In English the home's English aliases are said, rooms included.
    assert Namer(index, en, None).names(ids) == "the ceiling light in the kitchen and reading light"


def test_a_name_without_an_alias_in_the_language_is_said_as_it_is(index: DeviceIndex) -> None:
    en, zh = default_lexicons().get("en"), default_lexicons().get("zh")
    # "Apple TV" has only Chinese aliases: English says its name; Chinese says an alias in
    # Chinese, never a Latin name when a Chinese one exists.
    assert Namer(index, en, None).names(["media_player.apple_tv"]) == "Apple TV"
    assert Namer(index, zh, None).names(["media_player.apple_tv"]) == "苹果盒子"
    assert Namer(index, zh, None).names(["light.hue_go"]) == "便携灯"


def test_a_long_list_counts_right_and_names_every_kind(index: DeviceIndex) -> None:
    zh, en = default_lexicons().get("zh"), default_lexicons().get("en")
    ids = [*lights(index), "climate.living_room_ac"]
    total = len(ids)
    said = Namer(index, zh, None).names(ids)
    assert said.endswith(f"等{total}个")  # Chinese counts the whole
    assert "空调" in said  # the one of another kind is named
    assert said.count("、") == LISTED - 2
    assert Namer(index, en, None).names(ids).endswith(f"and {total - (LISTED - 1)} more")


def test_every_kind_is_named_even_past_the_limit(index: DeviceIndex) -> None:
    en = default_lexicons().get("en")
    ids = [
        *lights(index)[:5],
        "climate.living_room_ac",
        "fan.living_room_purifier",
        "switch.yu_gang",
        "media_player.living_room_tv",
    ]
    said = Namer(index, en, None).names(ids)
    for name in ("air conditioner", "air purifier", "fish tank", "TV"):
        assert name in said


def test_values_are_said_in_the_language(index: DeviceIndex) -> None:
    zh, en = default_lexicons().get("zh"), default_lexicons().get("en")
    assert value_text({"attribute": "color", "value": "red"}, zh) == "红色"
    assert value_text({"attribute": "color", "value": "red"}, en) == "red"
    assert value_text({"attribute": "brightness", "value": 50.0, "unit": "%"}, en) == "50%"
    assert value_text({"attribute": "color_temp", "value": 2700.0, "unit": "K"}, en) == "2700 K"


def test_sentences_join_as_the_script_writes_them() -> None:
    assert join_sentences(["Done: A.", "Already off: B."]) == "Done: A. Already off: B."
    assert (
        join_sentences(["好的，已完成：A。", "B本来就关着。"]) == "好的，已完成：A。B本来就关着。"
    )


def test_the_whole_outcome(index: DeviceIndex) -> None:
    zh = default_lexicons().get("zh")
    outcome = Outcome(
        done=[
            Done(["light.living_room_reading"]),
            Done(
                ["climate.living_room_ac"],
                {"attribute": "temperature", "value": 24.0, "unit": "°C"},
            ),
        ],
        already={"off": ["light.kitchen_ceiling"]},
        unsupported=["switch.yu_gang"],
        unavailable=["climate.guest_room_ac"],
    )
    assert confirmation(outcome, index, zh) == (
        "好的，已完成：阅读灯。好的，已把客厅的空调调到24 °C。厨房的吸顶灯本来就关着。"
        "鱼缸不支持这个操作。次卧的空调现在不可用。"
    )
    assert confirmation(Outcome(), index, zh) == zh.message("failed")
