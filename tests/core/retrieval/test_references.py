"""core/retrieval/references.py: "it", "them", "它", "那个" and follow-ups that name no target."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import (
    Area,
    ConversationState,
    DeviceIndex,
    QueryIR,
    retrieve,
)
from custom_components.context_retrieval.core.retrieval.references import resolve_references
from tests.core.conftest import make_device

ALL_EN_LIGHTS = [
    "light.living_ceiling",
    "light.living_lamp",
    "light.kitchen_ceiling",
    "light.kitchen_island",
    "light.bedroom_ceiling",
    "light.bedroom_desk",
    "light.office_desk",
    "switch.garage_light",
]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def zh_index() -> DeviceIndex:
    """A small home: a living room with a main light, a kitchen, a thermometer."""
    living = Area("living", "客厅")
    kitchen = Area("kitchen", "厨房")
    return DeviceIndex.build(
        [
            make_device("light.living_main", "客厅主灯", living),
            make_device("light.living_floor", "落地灯", living),
            make_device("light.kitchen_light", "厨房灯", kitchen),
            make_device("climate.living_ac", "空调", living),
            make_device(
                "sensor.living_temperature", "客厅温度", living, device_class="temperature"
            ),
            make_device("lock.front_door", "大门", living),
        ],
        [living, kitchen],
        language="zh",
    )


def say(text: str, index: DeviceIndex, state: ConversationState, **kwargs) -> list[str]:
    (result,) = retrieve(text, index, state=state, **kwargs)
    return result.selected_ids


# ---- three turns on one lamp ----------------------------------------------------------------


def test_it_and_the_implicit_follow_up_act_on_the_same_lamp(zh_index):
    state = ConversationState()
    assert say("打开客厅主灯", zh_index, state) == ["light.living_main"]

    (brighter,) = retrieve("调亮它", zh_index, state=state)
    assert brighter.selected_ids == ["light.living_main"]
    assert brighter.meta.reference == "singular"

    (off,) = retrieve("关掉", zh_index, state=state)
    assert off.selected_ids == ["light.living_main"]
    assert off.meta.reference == "implicit"


def test_nage_refers_back_too(zh_index):
    state = ConversationState()
    say("打开厨房灯", zh_index, state)
    assert say("把那个关了", zh_index, state) == ["light.kitchen_light"]


def test_the_latest_target_replaces_the_earlier_one(zh_index):
    state = ConversationState()
    say("打开客厅主灯", zh_index, state)
    say("打开厨房灯", zh_index, state)
    assert say("关掉它", zh_index, state) == ["light.kitchen_light"]


def test_a_clarification_answer_becomes_what_it_means(demo_index):
    state = ConversationState()
    (asked,) = retrieve("打开台灯", demo_index, state=state)
    assert asked.clarification is not None
    second = asked.clarification.options[1].entity_id
    assert say("第二个", demo_index, state) == [second]
    assert say("关掉它", demo_index, state) == [second]


# ---- groups -----------------------------------------------------------------------------------


def test_them_after_all_the_lights_is_the_whole_group(small_en_index):
    state = ConversationState()
    first = say("turn off all the lights", small_en_index, state)
    assert sorted(first) == sorted(ALL_EN_LIGHTS)
    (again,) = retrieve("turn them back on", small_en_index, state=state)
    assert sorted(again.selected_ids) == sorted(ALL_EN_LIGHTS)
    assert again.meta.reference == "plural"


def test_chinese_them_after_a_room_group(zh_index):
    state = ConversationState()
    assert sorted(say("关掉客厅的灯", zh_index, state)) == [
        "light.living_floor",
        "light.living_main",
    ]
    assert sorted(say("把它们都打开", zh_index, state)) == [
        "light.living_floor",
        "light.living_main",
    ]


# ---- expiry -----------------------------------------------------------------------------------


def test_it_still_works_just_inside_the_ttl(zh_index):
    clock = Clock()
    state = ConversationState(clock=clock)
    say("打开客厅主灯", zh_index, state)
    clock.now += 299
    assert say("关掉它", zh_index, state) == ["light.living_main"]


def test_it_resolves_to_nothing_after_the_state_expired(zh_index):
    clock = Clock()
    state = ConversationState(clock=clock)
    say("打开客厅主灯", zh_index, state)
    clock.now += 301
    (result,) = retrieve("关掉它", zh_index, state=state)
    assert result.selected_ids == []
    assert result.meta.reference_unresolved is True
    assert result.clarification is None
    (implicit,) = retrieve("关掉", zh_index, state=state)
    assert implicit.selected_ids == []


def test_without_a_state_it_means_nothing(zh_index):
    (result,) = retrieve("关掉它", zh_index)
    assert result.selected_ids == []
    assert result.meta.reference_unresolved is True


# ---- capability -------------------------------------------------------------------------------


def test_referent_that_cannot_do_the_action_is_not_forced(small_en_index):
    state = ConversationState()
    assert say("what is the kitchen temperature", small_en_index, state) == [
        "sensor.kitchen_temperature"
    ]
    assert say("turn it on", small_en_index, state) == []


def test_incapable_referent_is_dropped_from_the_group(zh_index):
    state = ConversationState()
    state.remember(["light.living_main", "sensor.living_temperature"])
    ir = QueryIR(
        raw="调亮它", action="set_brightness", references=["它"], reference_kind="singular"
    )
    assert resolve_references(ir, state, zh_index) == ["light.living_main"]


def test_lock_is_not_dimmed_because_it_was_mentioned_last(zh_index):
    state = ConversationState()
    assert say("锁上大门", zh_index, state) == ["lock.front_door"]
    assert "lock.front_door" not in say("把它调到50%", zh_index, state)


def test_unresolvable_it_does_not_fan_out_to_every_light(small_en_index):
    state = ConversationState()
    assert say("unlock the front door", small_en_index, state) == ["lock.front_door"]
    assert say("set it to 50%", small_en_index, state) == []


# ---- resolve_references directly --------------------------------------------------------------


def test_no_state_no_referent(zh_index):
    ir = QueryIR(raw="it", action="turn_off", references=["it"], reference_kind="singular")
    assert resolve_references(ir, None, zh_index) == []
    assert resolve_references(ir, ConversationState(), zh_index) == []


def test_entities_that_left_the_home_are_skipped(zh_index):
    state = ConversationState()
    state.remember(["light.kitchen_light"])
    state.remember(["light.removed_from_home"])
    ir = QueryIR(raw="关掉它", action="turn_off", references=["它"], reference_kind="singular")
    assert resolve_references(ir, state, zh_index) == ["light.kitchen_light"]


def test_read_only_question_about_it_keeps_any_referent(zh_index):
    state = ConversationState()
    state.remember(["sensor.living_temperature"])
    ir = QueryIR(raw="它现在多少度", action="query", references=["它"], reference_kind="singular")
    assert resolve_references(ir, state, zh_index) == ["sensor.living_temperature"]
