"""core/retrieval/pipeline.py: `retrieve()` end to end on the demo and the small English home."""

from __future__ import annotations

import asyncio
import dataclasses
import threading

import pytest
import yaml

from custom_components.context_retrieval.core import (
    Area,
    ConversationState,
    DeviceIndex,
    RetrievalResult,
    async_retrieve,
    render_context,
    retrieve,
    selected_devices,
)
from custom_components.context_retrieval.core.base.parse.spans import MAX_TOKENS
from tests.core.conftest import make_device

SCOPE_META = (
    "scope_include_fallback",
    "room_name_used",
    "room_name_ambiguous",
    "room_unknown_terms",
)
HOSTILE_PLUGS = {"switch.smart_plug_3", "switch.smart_plug_4"}
KIDS_LIGHTS = {"light.kids_night_light", "light.kids_rainbow_pendant", "light.kids_desk_lamp"}
MASTER_LIGHTS = {
    "light.master_bedroom_ceiling",
    "light.master_bedside_left",
    "light.master_bedside_right",
    "light.master_bedroom_desk_lamp",
}
LIVING_LIGHTS = {
    "light.living_room_ceiling",
    "light.living_room_reading",
    "light.living_room_tv_backlight",
    "light.window_fairy_lights",
}
GUEST_LIGHTS = {"light.guest_room_ceiling", "light.guest_room_desk_lamp"}
BATHROOM_LIGHTS = {"light.bathroom_main", "light.bathroom_mirror"}
STUDY_LIGHTS = {"light.study_panel", "light.study_old_lamp"}
UPSTAIRS_LIGHTS = MASTER_LIGHTS | GUEST_LIGHTS | KIDS_LIGHTS | STUDY_LIGHTS | BATHROOM_LIGHTS
DESK_LAMPS = {
    "light.kids_desk_lamp",
    "light.guest_room_desk_lamp",
    "light.master_bedroom_desk_lamp",
}


def single(text: str, devices, **kwargs) -> RetrievalResult:
    results = retrieve(text, devices, **kwargs)
    assert len(results) == 1, [r.ir.raw for r in results]
    return results[0]


def selected(text: str, devices, **kwargs) -> set[str]:
    return set(single(text, devices, **kwargs).selected_ids)


def lights_of(index: DeviceIndex) -> set[str]:
    return {e for e in index.entries if e.startswith("light.")}


# ---- names and aliases ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("打开阅读灯", "light.living_room_reading"),
        ("turn on the reading light", "light.living_room_reading"),
        ("打开老伙计", "light.study_old_lamp"),
        ("turn on the brass lamp", "light.study_old_lamp"),
        ("打开电视", "media_player.living_room_tv"),
        ("打开扫地机", "vacuum.roborock_s8"),
        ("unlock the front door", "lock.front_door"),
        ("打开晚餐模式", "scene.dinner"),
    ],
)
def test_names_and_aliases_pick_one_entity(demo_index, text, expected):
    result = single(text, demo_index)
    assert result.selected_ids == [expected]
    assert result.clarification is None


def test_alias_in_the_english_home(small_en_index):
    assert single("turn on old buddy", small_en_index).selected_ids == ["light.living_lamp"]


def test_selected_candidate_explains_itself(demo_index):
    result = single("打开老伙计", demo_index)
    (cand,) = result.selected
    assert cand.total_score > 0
    assert cand.reasons
    assert result.candidates and result.candidates[0].entity_id == "light.study_old_lamp"


# ---- rooms, floors, types ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["打开儿童房的灯", "turn on the kids room lights", "打开宝宝房的灯"]
)
def test_room_plus_type(demo_index, text):
    assert selected(text, demo_index) == KIDS_LIGHTS


def test_room_plus_type_in_english_home(small_en_index):
    assert selected("turn off the kitchen lights", small_en_index) == {
        "light.kitchen_ceiling",
        "light.kitchen_island",
    }


def test_device_named_after_another_room_follows_the_registry(demo_index):
    """客厅落地灯 sits in the dining room but says 客厅: the registry decides, as in Home
    Assistant, so the living room's lights are the ones filed there."""
    result = single("打开客厅的灯", demo_index)
    assert set(result.selected_ids) == LIVING_LIGHTS
    assert result.meta.room_name_used == 0


def test_device_without_an_area_is_in_no_room():
    """A lamp the registry files nowhere is in no room, whatever its name says (as in Home
    Assistant)."""
    study = Area("study", "Study")
    index = DeviceIndex.build(
        [
            make_device("light.desk", "Desk Lamp", study),
            make_device("light.study_strip", "Study Strip"),
            make_device("light.hall", "Hall Light"),
        ],
        [study],
        language="en",
    )
    result = single("turn off the study lights", index)
    assert set(result.selected_ids) == {"light.desk"}
    assert result.meta.room_name_used == 0


@pytest.mark.parametrize("text", ["关掉楼上的灯", "turn off the lights upstairs"])
def test_floor_plus_type(demo_index, text):
    chosen = selected(text, demo_index)
    assert chosen >= UPSTAIRS_LIGHTS
    assert not chosen & (LIVING_LIGHTS | {"light.kitchen_ceiling", "light.garage_light"})


def test_turning_on_lights_does_not_turn_on_a_heater(demo_index):
    assert selected("turn on the lights upstairs", demo_index) == UPSTAIRS_LIGHTS


def test_labels(demo_index):
    result = single("打开圣诞装饰", demo_index)
    assert set(result.selected_ids) == {
        "light.window_fairy_lights",
        "switch.christmas_tree",
        "light.balcony_string_lights",
    }
    assert result.meta.labels == ["圣诞装饰"]


# ---- all / except -----------------------------------------------------------------------------


def test_all_lights_except_two_rooms_chinese(demo_index):
    chosen = selected("打开所有的灯，但是不要开儿童房和主卧的", demo_index)
    assert not chosen & (KIDS_LIGHTS | MASTER_LIGHTS)
    assert chosen >= LIVING_LIGHTS | GUEST_LIGHTS | STUDY_LIGHTS | BATHROOM_LIGHTS
    assert not chosen & HOSTILE_PLUGS


def test_all_lights_except_master_bedroom_chinese(demo_index):
    chosen = selected("关掉除了主卧以外的所有灯", demo_index)
    assert not chosen & MASTER_LIGHTS
    assert chosen >= (lights_of(demo_index) - MASTER_LIGHTS)


def test_all_lights_except_kitchen_english(small_en_index):
    assert selected("turn off all lights except the kitchen", small_en_index) == {
        "light.living_ceiling",
        "light.living_lamp",
        "light.bedroom_ceiling",
        "light.bedroom_desk",
        "light.office_desk",
        "switch.garage_light",
    }


def test_everything_except_a_typed_room_group(small_en_index):
    chosen = selected("turn off everything except the kitchen lights", small_en_index)
    assert not chosen & {"light.kitchen_ceiling", "light.kitchen_island"}
    assert {"light.living_lamp", "fan.bedroom_fan", "media_player.living_tv"} <= chosen
    assert "lock.front_door" not in chosen  # "turn off everything" never locks/unlocks doors


def test_floor_with_an_exclusion(small_en_index, demo_index):
    assert selected("turn off the lights downstairs except the kitchen", small_en_index) == {
        "light.living_ceiling",
        "light.living_lamp",
    }
    chosen = selected("关掉一楼除了厨房以外的灯", demo_index)
    assert chosen >= LIVING_LIGHTS
    assert not chosen & ({"light.kitchen_ceiling", "light.kitchen_cabinet"} | UPSTAIRS_LIGHTS)


def test_all_lights_but_not_the_office_english(small_en_index):
    chosen = selected("turn on all the lights but not the office", small_en_index)
    assert "light.office_desk" not in chosen
    assert {"light.bedroom_desk", "light.kitchen_island", "light.living_lamp"} <= chosen


def test_all_lights_except_the_bedroom_on_the_demo_home(demo_index):
    chosen = selected("关掉除了卧室以外的所有灯", demo_index)
    assert chosen >= BATHROOM_LIGHTS | LIVING_LIGHTS
    assert not chosen & MASTER_LIGHTS


def test_bedroom_temperature_question_on_the_demo_home(demo_index):
    # No room is called "卧室": it means every bedroom (主卧 and 次卧). "temperature" reads a
    # room's thermostat first, like Home Assistant's own temperature question, then a
    # thermometer.
    result = single("卧室温度多少", demo_index)
    chosen = set(result.selected_ids) | {
        o.entity_id for o in (result.clarification.options if result.clarification else [])
    }
    assert {demo_index.device(e).area_id for e in chosen} == {"master_bedroom", "guest_room"}
    assert chosen <= {
        "climate.master_bedroom_ac",
        "sensor.master_bedroom_temperature",
        "climate.guest_room_ac",
    }


# ---- safety -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "turn on the hallway light",
        "turn on the hallway lights",
        "打开玄关的灯",
        "unlock the front door",
        "打开前门",
        "turn on all the lights",
        "打开书房的台灯",
    ],
)
def test_hostile_named_plug_is_not_selected_by_ordinary_requests(demo_index, text):
    assert not selected(text, demo_index) & HOSTILE_PLUGS


def test_hallway_light_in_the_demo_home(demo_index):
    assert selected("turn on the hallway light", demo_index) == {"light.xuan_guan_tong_deng"}


def test_hostile_plug_in_the_english_home(small_en_index):
    for text in ("turn on the hallway light", "unlock the front door", "turn on the lights"):
        assert "switch.hallway_plug" not in selected(text, small_en_index)
    assert selected("unlock the front door", small_en_index) == {"lock.front_door"}


# ---- duplicates and clarification -------------------------------------------------------------


def test_duplicate_name_asks_and_next_turn_answers_by_area(demo_index):
    state = ConversationState()
    asked = single("打开空调", demo_index, state=state)
    assert asked.selected_ids == []
    assert asked.clarification is not None
    options = {o.entity_id for o in asked.clarification.options}
    assert options == {
        "climate.living_room_ac",
        "climate.master_bedroom_ac",
        "climate.guest_room_ac",
    }
    answered = single("客厅那个", demo_index, state=state)
    assert answered.selected_ids == ["climate.living_room_ac"]
    assert answered.clarification is None
    assert state.pending is None


def test_clarification_answer_by_ordinal(small_en_index):
    state = ConversationState()
    asked = single("turn on the ceiling light", small_en_index, state=state)
    assert asked.clarification is not None
    second = asked.clarification.options[1].entity_id
    assert single("the second one", small_en_index, state=state).selected_ids == [second]


def test_question_is_in_the_users_language(demo_index, small_en_index):
    zh = single("打开台灯", demo_index).clarification
    en = single("turn on the desk lamp", small_en_index).clarification
    assert zh is not None and en is not None
    assert zh.language == "zh" and zh.question.startswith("你指的是")
    assert en.language == "en" and en.question.startswith("Which one")


def test_unanswered_question_does_not_swallow_a_new_request(demo_index):
    state = ConversationState()
    assert single("打开台灯", demo_index, state=state).clarification is not None
    assert single("打开客厅的电视", demo_index, state=state).selected_ids == [
        "media_player.living_room_tv"
    ]


def test_cancelled_clarification_selects_nothing(demo_index):
    state = ConversationState()
    single("打开台灯", demo_index, state=state)
    result = single("算了", demo_index, state=state)
    assert result.selected_ids == []
    assert result.meta.clarification_cancelled is True


@pytest.mark.parametrize("text", ["turn on the sauna", "打开桑拿房"])
def test_a_new_request_for_something_the_home_lacks_drops_the_question(demo_index, text):
    state = ConversationState()
    assert single("打开台灯", demo_index, state=state).clarification is not None
    result = single(text, demo_index, state=state)
    assert result.clarification is None
    assert result.meta.clarification_dropped is True
    assert state.pending is None
    # The next reply is no answer to the dropped question.
    assert single("第一个", demo_index, state=state).selected_ids == []


def test_two_replies_that_do_not_answer_end_the_question(demo_index):
    state = ConversationState()
    asked = single("打开台灯", demo_index, state=state).clarification
    assert asked is not None
    # A miss asks again, in the reply's language, with the same options.
    again = single("turn it on", demo_index, state=state)
    assert again.clarification is not None
    assert again.clarification.language == "en"
    assert [o.entity_id for o in again.clarification.options] == [
        o.entity_id for o in asked.options
    ]
    assert again.meta.misses == 1
    assert state.pending is not None
    # The second miss ends it: nothing selected, nothing asked, nothing pending.
    given_up = single("嗯", demo_index, state=state)
    assert given_up.clarification is None
    assert given_up.selected_ids == []
    assert given_up.meta.clarification_abandoned is True
    assert state.pending is None
    assert single("书房的", demo_index, state=state).selected_ids != ["light.study_old_lamp"]


def test_one_miss_then_an_answer_still_counts(demo_index):
    state = ConversationState()
    single("打开台灯", demo_index, state=state)
    assert single("the blue one", demo_index, state=state).clarification is not None
    assert single("the one in the study", demo_index, state=state).selected_ids == [
        "light.study_old_lamp"
    ]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("the one in the study", "light.study_old_lamp"),
        ("书房那个", "light.study_old_lamp"),
        ("老的那个", "light.study_old_lamp"),
        ("the old one", "light.study_old_lamp"),
        ("the kids room", "light.kids_desk_lamp"),
        ("次卧的", "light.guest_room_desk_lamp"),
    ],
)
def test_the_study_lamp_is_offered_and_can_be_chosen(demo_index, answer, expected):
    state = ConversationState()
    asked = single("关掉台灯", demo_index, state=state).clarification
    assert asked is not None
    assert "light.study_old_lamp" in {o.entity_id for o in asked.options}
    assert single(answer, demo_index, state=state).selected_ids == [expected]


# ---- several commands -------------------------------------------------------------------------


def test_multi_command_chinese_one_result_per_command_in_order(demo_index):
    results = retrieve("打开客厅灯然后关掉空调", demo_index)
    assert len(results) == 2
    assert [r.ir.action for r in results] == ["turn_on", "turn_off"]
    assert set(results[0].selected_ids) >= LIVING_LIGHTS
    # The room said earlier in the utterance settles which 空调.
    assert results[1].selected_ids == ["climate.living_room_ac"]


def test_multi_command_each_with_its_own_room(demo_index):
    results = retrieve("打开儿童房的灯，然后关掉主卧的空调", demo_index)
    assert [set(r.selected_ids) for r in results] == [KIDS_LIGHTS, {"climate.master_bedroom_ac"}]


def test_multi_command_english(small_en_index):
    results = retrieve("turn on the kitchen light and close the blinds", small_en_index)
    assert [r.ir.action for r in results] == ["turn_on", "close"]
    assert set(results[0].selected_ids) == {"light.kitchen_ceiling", "light.kitchen_island"}
    assert results[1].selected_ids == ["cover.living_blinds"]


def test_inherited_action_resolves_both_targets(demo_index):
    results = retrieve("turn on the balcony light, and the hallway light", demo_index)
    assert [r.selected_ids for r in results] == [
        ["light.balcony_light"],
        ["light.xuan_guan_tong_deng"],
    ]
    assert [r.ir.action for r in results] == ["turn_on", "turn_on"]


def test_clarification_in_the_second_command_points_at_it(demo_index):
    results = retrieve("打开阅读灯然后关掉空调", demo_index)
    assert results[0].clarification is None
    assert results[1].clarification is not None
    assert results[1].clarification.command_index == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The room is the second target's; the reading light is in the living room.
        (
            "turn on the reading light and the kitchen ceiling light",
            [["light.living_room_reading"], ["light.kitchen_ceiling"]],
        ),
        ("打开阅读灯和厨房的吸顶灯", [["light.living_room_reading"], ["light.kitchen_ceiling"]]),
        (
            "turn on the kitchen ceiling light and the reading light",
            [["light.kitchen_ceiling"], ["light.living_room_reading"]],
        ),
        # A room said once for both: the other target is looked for there first.
        (
            "打开客厅的阅读灯和吸顶灯",
            [["light.living_room_reading"], ["light.living_room_ceiling"]],
        ),
        ("打开客厅的灯和窗帘", [sorted(LIVING_LIGHTS), ["cover.living_room_curtain"]]),
        (
            "turn off the standing fan and the desk lamp in the master bedroom",
            [["fan.master_bedroom_fan"], ["light.master_bedroom_desk_lamp"]],
        ),
    ],
)
def test_one_action_several_targets_each_in_its_own_room(demo_index, text, expected):
    results = retrieve(text, demo_index)
    assert [sorted(r.selected_ids) for r in results] == expected
    assert all(r.clarification is None for r in results)


def test_several_targets_one_of_them_asked_about(demo_index):
    """ "打开阅读灯和空调": the reading light is clear, which 空调 is asked, not dropped."""
    reading, ac = retrieve("打开阅读灯和空调", demo_index)
    assert reading.selected_ids == ["light.living_room_reading"]
    assert ac.selected_ids == []
    assert ac.clarification is not None
    assert {o.entity_id for o in ac.clarification.options} >= {
        "climate.living_room_ac",
        "climate.master_bedroom_ac",
    }


# ---- context area ("here") --------------------------------------------------------------------


@pytest.mark.parametrize("text", ["打开这里的灯", "turn on the lights here"])
def test_here_uses_the_satellites_area(demo_index, text):
    result = single(text, demo_index, context_area="kids_room")
    assert set(result.selected_ids) == KIDS_LIGHTS
    assert result.meta.here_area == "kids_room"


def test_context_area_settles_an_ambiguous_name(demo_index, small_en_index):
    result = single("打开台灯", demo_index, context_area="guest_room")
    assert result.selected_ids == ["light.guest_room_desk_lamp"]
    assert result.clarification is None
    assert single("turn on the desk lamp", small_en_index, context_area="office").selected_ids == [
        "light.office_desk"
    ]


def test_context_area_does_not_override_a_named_room(demo_index):
    result = single("打开主卧的台灯", demo_index, context_area="guest_room")
    assert result.selected_ids == ["light.master_bedroom_desk_lamp"]


def test_unknown_context_area_is_ignored(demo_index):
    result = single("打开台灯", demo_index, context_area="no_such_area")
    assert result.selected_ids == []
    assert result.clarification is not None


def test_here_without_an_area_does_not_mean_the_whole_home(demo_index):
    result = single("打开这里的灯", demo_index)
    assert result.meta.here_without_area is True
    assert len(result.selected_ids) < len(lights_of(demo_index)) // 2


# ---- things the home lacks --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["打开游泳池的灯", "turn on the pool lights", "turn on the lights in the pool house"]
)
def test_request_for_something_the_home_lacks_selects_nothing_without_asking(demo_index, text):
    result = single(text, demo_index)
    assert result.selected_ids == []
    assert result.clarification is None


def test_unknown_room_is_reported(demo_index):
    result = single("打开游泳池的灯", demo_index)
    assert result.meta.room_unknown_terms == ["游泳池"]


def test_main_light_of_a_room_is_found_or_asked_about(demo_index):
    result = single("打开客厅主灯", demo_index)
    options = {o.entity_id for o in result.clarification.options} if result.clarification else set()
    assert (set(result.selected_ids) | options) & LIVING_LIGHTS
    assert (set(result.selected_ids) | options) <= LIVING_LIGHTS | {"light.ke_ting_luo_di_deng"}


# ---- input forms ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "打开阅读灯",
        "关掉楼上的灯",
        "打开儿童房的灯",
        "关掉除了主卧以外的所有灯",
        "打开圣诞装饰",
        "turn on the kids room lights",
        "打开台灯",
        "打开客厅的灯",
    ],
)
def test_plain_device_list_works_like_an_index(demo_index, text):
    devices = [demo_index.device(e) for e in demo_index.entries]
    from_index = single(text, demo_index)
    from_list = single(text, devices)
    assert from_list.selected_ids == from_index.selected_ids
    assert (from_list.clarification is None) == (from_index.clarification is None)


def test_index_is_reused_across_calls(small_en_index):
    before = dict(small_en_index.entries)
    for _ in range(3):
        retrieve("turn off the kitchen lights", small_en_index)
    assert small_en_index.entries == before


@pytest.mark.parametrize(
    "text",
    [
        "打开阅读灯",
        "turn on the kids room lights",
        "打开游泳池的灯",
        "打开台灯",
        "打开这里的灯",
    ],
)
def test_meta_keys_are_always_present(demo_index, text):
    for result in retrieve(text, demo_index):
        for key in SCOPE_META:
            assert key in result.meta.to_dict()
        assert result.meta.language in ("zh", "en")
        assert 0.0 <= result.meta.confidence <= 1.0


def test_scope_include_fallback_is_reported_and_does_not_flood(lexicons):
    devices = [
        make_device("light.a", "Lamp"),
        make_device("light.b", "Desk Lamp"),
        make_device("switch.c", "Heater"),
    ]
    result = single("turn on the lights in the kitchen", devices)
    assert result.meta.scope_include_fallback == 1
    assert result.selected_ids == []


def test_render_context_over_the_selection(demo_index):
    results = retrieve("打开儿童房的灯然后打开老伙计", demo_index)
    devices = selected_devices(results, demo_index)
    assert [d.entity_id for d in devices][-1] == "light.study_old_lamp"
    assert {d.entity_id for d in devices} == KIDS_LIGHTS | {"light.study_old_lamp"}
    rendered = render_context(devices, index=demo_index)
    data = yaml.safe_load(rendered.yaml)
    assert {d["id"] for d in data["devices"]} == KIDS_LIGHTS | {"light.study_old_lamp"}
    assert rendered.omitted == []


# ---- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "\n\t  \r\n", "😀🏠💡🔥", "\u200b\u200d\ufeff"])
def test_empty_like_input(demo_index, text):
    results = retrieve(text, demo_index)
    assert len(results) == 1
    assert results[0].selected_ids == []
    assert results[0].clarification is None
    assert results[0].meta.empty_input is True


def test_none_text_is_empty_input(demo_index):
    (result,) = retrieve(None, demo_index)  # type: ignore[arg-type]
    assert result.meta.empty_input is True


@pytest.mark.parametrize("text", ["!!!???。。。", "，、；：……", "-- // ** ##"])
def test_only_punctuation(demo_index, text):
    results = retrieve(text, demo_index)
    assert len(results) >= 1
    assert all(r.selected_ids == [] and r.clarification is None for r in results)
    assert all(r.meta.error is None for r in results)


@pytest.mark.parametrize(
    "text",
    ["a" * 10_000, "打开客厅的灯" * 2_000, "turn on the kitchen light " * 400],
    ids=["a", "zh", "en"],
)
def test_ten_kilobytes_of_text(demo_index, text):
    results = retrieve(text, demo_index)
    assert len(results) >= 1
    assert all(r.meta.error is None for r in results)
    assert all(r.clarification is None or r.clarification.options for r in results)


@pytest.mark.parametrize(
    "text", ["打开客厅的灯" * 2_000, "turn on the kitchen light " * 400], ids=["zh", "en"]
)
def test_long_text_is_cut_and_says_so(demo_index, text):
    assert retrieve(text, demo_index)[0].meta.text_truncated is True


def test_home_with_no_areas(lexicons):
    devices = [
        make_device("light.a", "Desk Lamp"),
        make_device("light.b", "Ceiling Light"),
        make_device("switch.fan", "Fan Plug"),
    ]
    assert selected("turn on the desk lamp", devices) == {"light.a"}
    assert selected("turn on the lights", devices) == {"light.a", "light.b"}
    for text in ("打开客厅的灯", "turn on the lights here", "turn it off", "楼上"):
        results = retrieve(text, devices)
        assert results and all(r.meta.error is None for r in results)


@pytest.mark.parametrize("text", ["打开灯", "turn on the lights", "turn it off", "第二个", ""])
def test_empty_home(text):
    for home in ([], DeviceIndex.build([])):
        results = retrieve(text, home, state=ConversationState())
        assert len(results) == 1
        assert results[0].selected_ids == []
        assert results[0].clarification is None
        assert results[0].meta.error is None


def test_devices_with_odd_fields_do_not_break_retrieval():
    area = Area("a", "")
    devices = [
        make_device("light.x", "", area),
        make_device("light.y", "\n\n", area),
        make_device("light.z", "灯" * 500),
        make_device("switch.w", "😀"),
    ]
    for text in ("turn on the lights", "打开灯", "😀", "灯" * 50):
        results = retrieve(text, devices)
        assert results and all(r.meta.error is None for r in results)


def test_async_retrieve_can_run_the_rules_off_the_event_loop(small_en_index):
    """Only the model call is awaited in the loop; `offload` (an executor) runs the rest."""

    class Model:
        async def complete(self, system_prompt: str, user_text: str) -> str:
            return (
                '[{"action": "turn_on", "targets": ["desk lamp"], "type": "light", '
                '"quantifier": "one", "include_rooms": ["office"], "exclude_rooms": [], '
                '"include_floors": [], "exclude_floors": [], "labels": [], '
                '"reference": null}]'
            )

    threads: list[str] = []

    async def main() -> tuple[list, list]:
        loop = asyncio.get_running_loop()

        async def offload(fn):
            def run():
                threads.append(threading.current_thread().name)
                return fn()

            return await loop.run_in_executor(None, run)

        here = await async_retrieve("turn on the desk lamp in the office", small_en_index, Model())
        there = await async_retrieve(
            "turn on the desk lamp in the office", small_en_index, Model(), offload=offload
        )
        return here, there

    here, there = asyncio.run(main())
    assert [r.selected_ids for r in there] == [r.selected_ids for r in here]
    assert there[0].selected_ids == ["light.office_desk"]
    assert there[0].meta.parser == "llm"  # the model's reading, not a fallback
    assert threads and threads[0] != threading.main_thread().name


@pytest.mark.parametrize(
    "text",
    ["set the reading light to red", "把阅读灯调成红色", "set the reading light to 2700 kelvin"],
)
def test_a_named_device_that_cannot_take_the_value_selects_nothing_else(text):
    """The device named lacks the feature: that is the answer, not the colour lights its
    name's type word ("light", 灯) would find elsewhere."""
    living = Area("living", "Living Room")
    kitchen = Area("kitchen", "Kitchen")
    dims = frozenset({"turn_on", "turn_off", "toggle", "set_brightness"})
    colours = dims | {"set_color", "set_color_temp"}
    devices = [
        dataclasses.replace(
            make_device("light.reading", "Reading Light", living, aliases=("阅读灯",)),
            actions=dims,
        ),
        dataclasses.replace(
            make_device("light.backlight", "TV Backlight", living), actions=colours
        ),
        dataclasses.replace(
            make_device("light.kitchen", "Kitchen Light", kitchen), actions=colours
        ),
    ]
    index = DeviceIndex.build(devices, [living, kitchen])
    result = single(text, index)
    assert result.selected_ids == []
    assert result.meta.named_incapable == ["light.reading"]
    assert result.meta.capability_removed == ["light.reading"]
    # The same words for a light that can: that one, the others untouched.
    other = text.replace("reading light", "TV backlight").replace("阅读灯", "TV backlight")
    assert selected(other, index) == {"light.backlight"}


@pytest.mark.parametrize(
    "text",
    [
        "turn on the kitchen light and dim it to 50 percent",
        "turn on the kitchen light and set the brightness to 50 percent",
    ],
)
@pytest.mark.parametrize("with_state", [True, False])
def test_a_later_command_without_a_target_of_its_own_acts_on_the_earlier_one(
    small_en_index, text, with_state
):
    state = ConversationState() if with_state else None
    results = retrieve(text, small_en_index, state=state)
    assert [r.ir.action for r in results] == ["turn_on", "set_brightness"]
    kitchen = {"light.kitchen_ceiling", "light.kitchen_island"}
    assert set(results[0].selected_ids) == kitchen
    # Not every dimmable light of the home.
    assert set(results[1].selected_ids) == kitchen
    if state is not None:
        assert set(state.last_turn()) == kitchen


def test_text_of_exactly_the_most_tokens_is_not_cut(demo_index):
    longest = " ".join(["lamp"] * MAX_TOKENS)
    assert retrieve(longest, demo_index)[0].meta.text_truncated is None
    assert retrieve(longest + " lamp", demo_index)[0].meta.text_truncated is True


@pytest.mark.parametrize(
    ("first", "then", "change"),
    [
        ("打开主卧的空调", "温度高一点", "up"),
        ("关掉主卧的空调", "温度低一点", "down"),
        ("打开主卧的空调", "温度调高一点", "up"),
    ],
)
def test_a_setting_said_after_a_device_is_that_devices(demo_index, first, then, change):
    # The last action ("turn on") was taken first, so the setting was asked of every
    # thermostat of the home.
    state = ConversationState()
    retrieve(first, demo_index, state=state)
    (result,) = retrieve(then, demo_index, state=state)
    assert result.selected_ids == ["climate.master_bedroom_ac"]
    assert (result.ir.action, result.ir.change) == ("set_temperature", change)
