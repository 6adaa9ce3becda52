"""Japanese, Korean and Cantonese lexicons: told apart by their letters and words, and each
reads a plain command against its own small home."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import (
    Area,
    Device,
    DeviceIndex,
    default_lexicons,
    retrieve,
)
from custom_components.context_retrieval.core.base.lexicon import load_lexicons
from tests.core.conftest import make_device


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("リビングの照明をつけて", "ja"),
        ("全ての照明を消して", "ja"),
        ("台所の電気を消して", "ja"),  # kana decide, though 台所 and 電気 are also Chinese
        ("거실 조명 꺼줘", "ko"),
        ("침실 불 켜줘", "ko"),
        ("打开客厅的灯", "zh"),
        ("關閉客廳嘅燈", "zh-hk"),  # 嘅 is Cantonese
        ("打開客廳的燈", "zh"),  # Traditional script alone is still Mandarin
    ],
)
def test_detect_by_script_marks_and_words(text: str, language: str):
    assert load_lexicons().detect(text) == language


def test_text_without_kana_or_hangul_is_never_japanese_or_korean():
    lexicons = load_lexicons()
    assert lexicons.detect("灯") not in ("ja", "ko")


def test_regional_tags():
    lexicons = default_lexicons()
    assert lexicons.get("ja-JP").language == "ja"
    assert lexicons.get("ko_KR").language == "ko"
    assert lexicons.get("zh-HK").language == "zh-hk"
    assert lexicons.get("zh-TW").language == "zh"


def _home(language: str, rooms: dict[str, str], lights: dict[str, str]) -> DeviceIndex:
    areas = [Area(area_id, name) for area_id, name in rooms.items()]
    devices = [
        Device(eid, name, eid.split(".")[0], area_id=eid.split(".")[1].split("_")[0])
        for eid, name in lights.items()
    ]
    return DeviceIndex.build(devices, areas, lexicons=load_lexicons(), language=language)


@pytest.mark.parametrize(
    ("language", "rooms", "devices", "text", "expected"),
    [
        (
            "ja",
            {"living": "リビング", "kitchen": "台所"},
            {
                "light.living_1": "天井灯",
                "light.living_2": "フロアランプ",
                "light.kitchen_1": "台所の灯り",
                "fan.living_1": "扇風機",
            },
            "リビングの照明をつけて",
            {"light.living_1", "light.living_2"},
        ),
        (
            "ja",
            {"living": "リビング", "kitchen": "台所"},
            {
                "light.living_1": "天井灯",
                "light.kitchen_1": "シーリングライト",
                "fan.kitchen_1": "換気扇",
            },
            "台所の換気扇を消して",
            {"fan.kitchen_1"},
        ),
        (
            "ko",
            {"living": "거실", "bed": "침실"},
            {
                "light.living_1": "천장등",
                "light.living_2": "스탠드",
                "light.bed_1": "침대 조명",
                "fan.living_1": "선풍기",
            },
            "거실 조명 꺼줘",
            {"light.living_1", "light.living_2"},
        ),
        (
            "zh-hk",
            {"living": "客廳", "kitchen": "廚房"},
            {"light.living_1": "吊燈", "light.living_2": "落地燈", "light.kitchen_1": "廚房燈"},
            "關閉客廳嘅燈",
            {"light.living_1", "light.living_2"},
        ),
    ],
)
def test_plain_commands(
    language: str, rooms: dict[str, str], devices: dict[str, str], text: str, expected: set[str]
):
    index = _home(language, rooms, devices)
    results = retrieve(text, index)
    assert {r.meta.language for r in results} == {language}
    assert {e for r in results for e in r.selected_ids} == expected


# ---- Korean: status questions, "hot/cold" asking the temperature, "charging" --------------------


def _ko_home() -> DeviceIndex:
    living = Area("geosil", "거실")
    devices = [
        make_device("climate.ac", "에어컨", living),
        make_device("light.lamp", "스탠드", living),
        make_device("binary_sensor.indicator", "표시등", device_class="light"),
        make_device("binary_sensor.phone", "휴대폰", device_class="battery_charging"),
    ]
    return DeviceIndex.build(devices, [living], language="ko")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("거실 더워", {"climate.ac"}),  # "is the living room hot": its temperature
        ("거실 얼마나 추워", {"climate.ac"}),
        ("표시등이 켜져있어", {"binary_sensor.indicator"}),  # "is it on", not "turn it on"
        ("휴대폰 충전 중이야", {"binary_sensor.phone"}),  # charging, not "dock"
    ],
)
def test_korean_questions_select_what_they_ask_about(text: str, expected: set[str]):
    selected = {e for r in retrieve(text, _ko_home(), language="ko") for e in r.selected_ids}
    assert selected == expected
