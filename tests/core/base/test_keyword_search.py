"""core/base/keyword_search.py: fuzzy recall over names, aliases and device names."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex
from custom_components.context_retrieval.core.base.keyword_search import search
from custom_components.context_retrieval.core.base.models import ReasonCode
from tests.core.conftest import make_device

KITCHEN = Area("kitchen", "Kitchen")
LIVING = Area("living", "Living Room")


@pytest.fixture(scope="module")
def home() -> DeviceIndex:
    devices = [
        make_device("light.kitchen", "Kitchen Light", KITCHEN),
        make_device("fan.kitchen", "Kitchen Fan", KITCHEN),
        make_device("light.living", "Living Room Light", LIVING),
        make_device("light.reading", "Reading Lamp", LIVING, aliases=("old buddy",)),
        make_device("light.hue_go", "Hue Go"),
        make_device("light.shelf", "Shelf", device_name="Hue Go"),
        make_device("sensor.outdoor", "Outdoor Temperature"),
    ]
    return DeviceIndex.build(devices, [KITCHEN, LIVING], language="en")


def ids(cands) -> list[str]:
    return [c.entity_id for c in cands]


def score(cands, entity_id: str) -> float:
    return next((c.keyword_score for c in cands if c.entity_id == entity_id), 0.0)


# ---- ranking --------------------------------------------------------------------------------


def test_exact_name_scores_one_and_ranks_first(home: DeviceIndex):
    result = search(home, "kitchen light")
    assert result[0].entity_id == "light.kitchen"
    assert result[0].keyword_score == 1.0


def test_exact_beats_partial_beats_unrelated(home: DeviceIndex):
    result = search(home, "kitchen light")
    exact = score(result, "light.kitchen")
    partial = score(result, "fan.kitchen")  # shares "kitchen"
    unrelated = score(result, "sensor.outdoor")
    assert exact > partial > unrelated
    assert exact - partial >= 0.15


def test_exact_alias_is_as_good_as_the_name(home: DeviceIndex):
    # User-chosen names ("老伙计") look like nothing else: only an exact match finds them.
    result = search(home, "old buddy")
    assert result[0].entity_id == "light.reading"
    assert result[0].keyword_score == 1.0
    assert result[0].reasons[0].field == "alias"


def test_matching_ignores_case_and_width(home: DeviceIndex):
    for spelling in ("KITCHEN LIGHT", "Ｋｉｔｃｈｅｎ Ｌｉｇｈｔ", "  kitchen   light "):
        result = search(home, spelling)
        assert result[0].entity_id == "light.kitchen"
        assert result[0].keyword_score == 1.0


def test_typo_still_finds_the_device(home: DeviceIndex):
    result = search(home, "kitchn light")
    assert result[0].entity_id == "light.kitchen"
    assert result[0].keyword_score > score(result, "fan.kitchen") + 0.1


def test_word_order_does_not_matter_much(home: DeviceIndex):
    result = search(home, "light living room")
    assert result[0].entity_id == "light.living"
    assert result[0].keyword_score >= 0.9


def test_part_of_a_long_name_finds_it(home: DeviceIndex):
    result = search(home, "living room")
    assert result[0].entity_id == "light.living"


def test_device_name_counts_less_than_the_entity_name(home: DeviceIndex):
    # "Hue Go" is one light's own name and another light's hardware name.
    result = search(home, "hue go")
    assert ids(result)[:2] == ["light.hue_go", "light.shelf"]
    assert score(result, "light.shelf") < score(result, "light.hue_go")
    assert score(result, "light.shelf") >= 0.8  # still found through the device name
    assert result[1].reasons[0].field == "device"


def test_results_are_sorted_best_first(home: DeviceIndex):
    result = search(home, "lamp")
    scores = [c.keyword_score for c in result]
    assert scores == sorted(scores, reverse=True)


def test_every_result_explains_itself(home: DeviceIndex):
    for cand in search(home, "kitchen"):
        (reason,) = cand.reasons
        assert reason.code is ReasonCode.KEYWORD and reason.said == "kitchen"
        assert str(reason) == (
            f"keyword 'kitchen' ~ {reason.field} '{reason.matched}' ({cand.keyword_score:.2f})"
        )
        assert cand.breakdown["keyword"] == pytest.approx(cand.keyword_score, abs=1e-4)


# ---- Chinese --------------------------------------------------------------------------------


def test_chinese_part_of_a_name_finds_it(demo_index: DeviceIndex):
    result = search(demo_index, "落地灯")
    assert result[0].entity_id == "light.ke_ting_luo_di_deng"  # "客厅落地灯"


def test_chinese_exact_name_shared_by_several_devices(demo_index: DeviceIndex):
    result = search(demo_index, "吸顶灯")
    top = {c.entity_id for c in result if c.keyword_score == 1.0}
    assert top == {
        "light.living_room_ceiling",
        "light.kitchen_ceiling",
        "light.master_bedroom_ceiling",
        "light.guest_room_ceiling",
    }


def test_chinese_nickname_alias(demo_index: DeviceIndex):
    result = search(demo_index, "老伙计")
    assert ids(result) == ["light.study_old_lamp"]


def test_traditional_chinese_finds_the_simplified_name(demo_index: DeviceIndex):
    result = search(demo_index, "電視背景燈")
    assert result[0].entity_id == "light.living_room_tv_backlight"
    assert result[0].keyword_score == 1.0


def test_english_alias_in_a_chinese_home(demo_index: DeviceIndex):
    result = search(demo_index, "fish tank")
    assert result[0].entity_id == "switch.yu_gang"


# ---- pool, limit, empty ---------------------------------------------------------------------


def test_pool_restricts_the_search(home: DeviceIndex):
    result = search(home, "kitchen light", pool=["fan.kitchen", "light.living", "light.gone"])
    assert set(ids(result)) <= {"fan.kitchen", "light.living"}
    assert "light.kitchen" not in ids(result)


def test_empty_pool_finds_nothing(home: DeviceIndex):
    assert search(home, "kitchen light", pool=[]) == []


def test_limit(demo_index: DeviceIndex):
    result = search(demo_index, "灯", limit=3)
    assert len(result) == 3
    assert len(search(demo_index, "灯")) > 3


def test_min_score_drops_weak_matches(home: DeviceIndex):
    result = search(home, "kitchen light", min_score=0.7)
    assert all(c.keyword_score >= 0.7 for c in result)
    assert "sensor.outdoor" not in ids(result)


@pytest.mark.parametrize("phrase", ["", "   ", "\u200b", "\n"])
def test_empty_phrase_finds_nothing(home: DeviceIndex, phrase):
    assert search(home, phrase) == []


def test_nonsense_finds_nothing(home: DeviceIndex):
    assert search(home, "zzqxj") == []


def test_each_entity_appears_once(home: DeviceIndex):
    # light.reading has a name and an alias that both match; it is still one candidate.
    result = search(home, "old reading lamp buddy")
    assert "light.reading" in ids(result)
    assert len(ids(result)) == len(set(ids(result)))
