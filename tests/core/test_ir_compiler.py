"""IR compiler: what a spoken command means before any entity is chosen (seed 004 §4.1)."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, QueryIR
from custom_components.context_retrieval.core.base.parse import (
    analyze,
    compile_commands,
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
        make_device("sensor.bedroom_temperature", "卧室温度", bedroom, f2,
                    device_class="temperature"),
        make_device("light.master_light", "主卧灯", master, f2),
        make_device("light.kids_light", "儿童房灯", kids, f2),
        make_device("light.study_lamp", "台灯", study, f2),
        make_device("light.study_old_lamp", "老台灯", study, f2, aliases=("老伙计",)),
    ]
    return DeviceIndex.build(devices, [living, kitchen, bedroom, master, kids, study], [f1, f2],
                             language="zh")


def one(text: str, index: DeviceIndex, lexicons, language: str | None = None) -> QueryIR:
    """The single command the utterance must compile to."""
    _, commands = compile_utterance(text, index, lexicons, language)
    assert len(commands) == 1, [c.raw for c in commands]
    return commands[0]


def types_of(ir: QueryIR) -> set[str]:
    return {t for group in ir.type_groups for t in group}


# ---- actions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "action"), [
    ("turn on the kitchen light", "turn_on"),
    ("switch off the kitchen light", "turn_off"),
    ("close the blinds", "close"),
    ("lock the front door", "lock"),
    ("dim the kitchen light", "set_brightness"),
])
def test_english_actions(small_en_index, lexicons, text, action):
    assert one(text, small_en_index, lexicons).action == action


@pytest.mark.parametrize(("text", "action"), [
    ("打开客厅的灯", "turn_on"),
    ("关掉客厅的灯", "turn_off"),
    ("把灯关了", "turn_off"),
    ("调亮客厅的灯", "set_brightness"),
])
def test_chinese_actions(zh_index, lexicons, text, action):
    assert one(text, zh_index, lexicons).action == action


@pytest.mark.parametrize(("text", "action"), [
    ("turn the lights off", "turn_off"),
    ("turn the kitchen lights on", "turn_on"),
    ("switch the lights off in the kitchen", "turn_off"),
])
def test_particle_verbs_carry_the_action(small_en_index, lexicons, text, action):
    ir = one(text, small_en_index, lexicons)
    assert ir.action == action
    assert "light" in types_of(ir)


# ---- questions vs commands ----------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "is the kitchen light on?",
    "are the lights on in the kitchen",
    "what is the temperature in the kitchen",
])
def test_english_questions_are_queries(small_en_index, lexicons, text):
    ir = one(text, small_en_index, lexicons)
    assert ir.action == "query"
    assert ir.scope_include == {"kitchen"}


def test_chinese_questions_are_queries(zh_index, lexicons):
    assert one("客厅的灯开着吗", zh_index, lexicons).action == "query"
    ir = one("卧室温度多少", zh_index, lexicons)
    assert ir.action == "query"
    # Either the sensor's own name or the room + "temperature" must carry it.
    named = {e for m in ir.mentions for e in m.entity_ids}
    assert named == {"sensor.bedroom_temperature"} or (
        ir.scope_include == {"bedroom"} and "temperature" in types_of(ir))


def test_a_command_is_not_a_question(small_en_index, lexicons):
    assert one("turn on the kitchen light", small_en_index, lexicons).action == "turn_on"


# ---- quantifiers and exclusions ---------------------------------------------------------------


def test_plain_command_targets_one(small_en_index, lexicons):
    assert one("turn on the desk lamp", small_en_index, lexicons).quantifier == "one"


def test_all_quantifier(zh_index, small_en_index, lexicons):
    assert one("打开所有灯", zh_index, lexicons).quantifier == "all"
    assert one("turn off all the lights", small_en_index, lexicons).quantifier == "all"


def test_any_quantifier(small_en_index, lexicons):
    ir = one("turn on any light in the bedroom", small_en_index, lexicons)
    assert ir.quantifier == "any"
    assert ir.scope_include == {"bedroom"}


def test_chinese_exclusion_with_yiwai(zh_index, lexicons):
    ir = one("除了卧室以外的所有灯", zh_index, lexicons)
    assert ir.quantifier == "except"
    assert ir.scope_exclude == {"bedroom"}
    assert ir.scope_include == set()
    assert types_of(ir) == {"light"}


def test_seed_example_turn_off_all_lights_except_bedroom(zh_index, lexicons):
    ir = one("关掉除了卧室以外的所有灯", zh_index, lexicons)
    assert ir.action == "turn_off"
    assert ir.quantifier == "except"
    assert ir.scope_exclude == {"bedroom"}
    # 主卧 is a different room; "卧室" must not be read as it.
    assert "master" not in ir.scope_exclude


def test_chinese_exclusion_in_a_second_clause_stays_one_command(zh_index, lexicons):
    ir = one("打开所有的灯，但是不要开儿童房和主卧的", zh_index, lexicons)
    assert ir.action == "turn_on"
    assert ir.quantifier == "except"
    assert ir.scope_exclude == {"kids", "master"}
    assert ir.scope_include == set()
    assert types_of(ir) == {"light"}


@pytest.mark.parametrize(("text", "excluded"), [
    ("all lights except the kitchen", {"kitchen"}),
    ("turn off all lights except the kitchen", {"kitchen"}),
    ("turn on all the lights but not the office", {"office"}),
    ("turn off the lights apart from the bedroom", {"bedroom"}),
])
def test_english_exclusions(small_en_index, lexicons, text, excluded):
    ir = one(text, small_en_index, lexicons)
    assert ir.quantifier == "except"
    assert ir.scope_exclude == excluded
    assert not ir.scope_include
    assert types_of(ir) == {"light"}


def test_but_not_keeps_the_action(small_en_index, lexicons):
    assert one("turn on all the lights but not the office", small_en_index,
               lexicons).action == "turn_on"


# ---- floors, types, here ----------------------------------------------------------------------


def test_floor_words(zh_index, small_en_index, lexicons):
    ir = one("关掉楼上的灯", zh_index, lexicons)
    assert ir.floor_include == {"f2"}
    assert not ir.scope_include
    ir = one("turn off the lights upstairs", small_en_index, lexicons)
    assert ir.floor_include == {"up"}


def test_floor_can_be_excluded(zh_index, lexicons):
    ir = one("关掉除了楼上以外的所有灯", zh_index, lexicons)
    assert ir.floor_exclude == {"f2"}
    assert not ir.floor_include
    assert ir.quantifier == "except"


@pytest.mark.parametrize(("text", "type_id"), [
    ("打开客厅的灯", "light"),
    ("打开卧室的空调", "climate"),
    ("关上客厅的窗帘", "curtain"),
])
def test_type_hints(zh_index, lexicons, text, type_id):
    ir = one(text, zh_index, lexicons)
    assert ir.type_groups[0][0] == type_id
    assert not ir.mentions


def test_type_word_that_is_also_a_name_keeps_its_type(demo_index, lexicons):
    """In the demo home the ACs are named 空调: the mention still knows it is a climate word."""
    ir = one("打开所有空调", demo_index, lexicons)
    assert ir.quantifier == "all"
    assert "climate" in types_of(ir) | {m.type_id for m in ir.mentions}


@pytest.mark.parametrize("text", ["打开这里的灯", "关掉这边的灯"])
def test_here_words_chinese(zh_index, lexicons, text):
    ir = one(text, zh_index, lexicons)
    assert ir.here
    assert types_of(ir) == {"light"}


@pytest.mark.parametrize("text", ["turn on the lights here", "turn off the lights in this room"])
def test_here_words_english(small_en_index, lexicons, text):
    ir = one(text, small_en_index, lexicons)
    assert ir.here
    assert not ir.scope_include


def test_room_without_here_is_not_here(small_en_index, lexicons):
    assert not one("turn on the kitchen light", small_en_index, lexicons).here


# ---- references -------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "kind"), [
    ("关掉它", "singular"),
    ("把那个关了", "singular"),
    ("把它们都打开", "plural"),
])
def test_chinese_pronouns_are_references(zh_index, lexicons, text, kind):
    ir = one(text, zh_index, lexicons)
    assert ir.references
    assert ir.reference_kind == kind
    assert not ir.mentions
    assert not ir.type_groups


@pytest.mark.parametrize(("text", "kind"), [
    ("close it", "singular"),
    ("dim it", "singular"),
    ("turn them off", "plural"),
    ("open those", "plural"),
])
def test_english_pronouns_are_references(small_en_index, lexicons, text, kind):
    ir = one(text, small_en_index, lexicons)
    assert ir.references
    assert ir.reference_kind == kind
    assert not ir.mentions


def test_named_command_has_no_reference(small_en_index, lexicons):
    ir = one("turn on the floor lamp", small_en_index, lexicons)
    assert not ir.references
    assert ir.reference_kind == "none"


# ---- filler and politeness --------------------------------------------------------------------


def test_chinese_politeness_does_not_become_a_target(zh_index, lexicons):
    ir = one("麻烦帮我打开一下客厅的灯谢谢", zh_index, lexicons)
    assert ir.action == "turn_on"
    assert ir.scope_include == {"living"}
    assert types_of(ir) == {"light"}
    assert not ir.phrases
    assert not ir.unknown_terms
    assert not ir.unknown_rooms


def test_english_politeness_does_not_become_a_target(small_en_index, lexicons):
    ir = one("hey could you please turn on the kitchen light for me thanks", small_en_index,
             lexicons)
    assert ir.action == "turn_on"
    assert ir.scope_include == {"kitchen"}
    assert not ir.phrases
    assert not ir.unknown_terms
    assert not ir.mentions


# ---- several commands per utterance -----------------------------------------------------------


def test_chinese_two_commands_with_ranran(zh_index, lexicons):
    _, commands = compile_utterance("打开客厅灯然后关掉空调", zh_index, lexicons)
    assert [c.action for c in commands] == ["turn_on", "turn_off"]
    assert commands[0].scope_include == {"living"}
    assert types_of(commands[0]) == {"light"}
    assert types_of(commands[1]) == {"climate"}
    assert not commands[1].scope_include  # the room of the first command does not leak


def test_english_two_commands_with_and(small_en_index, lexicons):
    _, commands = compile_utterance("turn on the kitchen light and close the blinds",
                                    small_en_index, lexicons)
    assert [c.action for c in commands] == ["turn_on", "close"]
    assert commands[0].scope_include == {"kitchen"}
    assert {e for m in commands[1].mentions for e in m.entity_ids} == {"cover.living_blinds"}
    assert not commands[1].scope_include


def test_english_two_commands_with_then(small_en_index, lexicons):
    _, commands = compile_utterance("turn on the kitchen light, then turn off the bedroom light",
                                    small_en_index, lexicons)
    assert [(c.action, c.scope_include) for c in commands] == [
        ("turn_on", {"kitchen"}), ("turn_off", {"bedroom"})]


def test_two_rooms_sharing_one_type_are_one_command(small_en_index, lexicons):
    ir = one("turn on the kitchen and living room lights", small_en_index, lexicons)
    assert ir.action == "turn_on"
    assert ir.scope_include == {"kitchen", "living"}
    assert types_of(ir) == {"light"}


def test_action_is_inherited_by_a_clause_without_one(small_en_index, lexicons):
    _, commands = compile_utterance("turn on the floor lamp, and the desk lamp in the office",
                                    small_en_index, lexicons)
    assert len(commands) == 2
    assert [c.action for c in commands] == ["turn_on", "turn_on"]
    assert {e for m in commands[0].mentions for e in m.entity_ids} == {"light.living_lamp"}
    assert commands[1].scope_include == {"office"}
    assert "action_inherited" in commands[1].notes


def test_porch_and_hallway_inherit_the_action(lexicons):
    porch = Area("porch", "Porch")
    hall = Area("hallway", "Hallway")
    index = DeviceIndex.build([
        make_device("light.porch", "Porch Light", porch),
        make_device("light.hallway", "Hallway Light", hall),
        make_device("light.kitchen", "Kitchen Light"),
    ], [porch, hall], language="en")
    _, commands = compile_utterance("turn on the porch light, and the hallway light", index,
                                    lexicons)
    assert [c.action for c in commands] == ["turn_on", "turn_on"]
    targets = [{e for m in c.mentions for e in m.entity_ids} | {f"area:{a}" for a in
                                                                 c.scope_include}
               for c in commands]
    assert targets[0] & {"light.porch", "area:porch"}
    assert not targets[0] & {"light.hallway", "area:hallway"}
    assert targets[1] & {"light.hallway", "area:hallway"}
    assert not targets[1] & {"light.porch", "area:porch"}


# ---- media, unknown rooms, repairs ------------------------------------------------------------


def test_media_title_after_play_is_not_a_target(small_en_index, lexicons):
    # "ceiling light" is the name of three lights; here it is a song title.
    ir = one("play the ceiling light song on the tv", small_en_index, lexicons)
    assert ir.action == "media_search_play"
    named = {e for m in ir.mentions for e in m.entity_ids}
    assert named == {"media_player.living_tv"}


def test_media_title_in_chinese_is_not_a_target(zh_index, lexicons):
    ir = one("播放周杰伦的歌", zh_index, lexicons)
    assert ir.action == "media_search_play"
    assert not ir.mentions
    assert not ir.unknown_rooms
    assert not ir.scope_include


def test_unknown_chinese_room(zh_index, lexicons):
    ir = one("打开游泳池的灯", zh_index, lexicons)
    assert ir.unknown_rooms == ["游泳池"]
    assert not ir.scope_include
    assert types_of(ir) == {"light"}
    assert ir.confidence < 0.8


def test_unknown_english_room(small_en_index, lexicons):
    ir = one("turn on the lights in the pool house", small_en_index, lexicons)
    assert any("pool" in room for room in ir.unknown_rooms)
    assert not ir.scope_include


def test_latin_typo_repair_of_a_room(small_en_index, lexicons):
    analysis, commands = compile_utterance("turn off the kitchn lights", small_en_index, lexicons)
    assert ("kitchn", "kitchen") in analysis.corrections
    assert commands[0].scope_include == {"kitchen"}
    assert "spelling_repaired" in commands[0].notes


def test_turn_of_typo_still_means_turn_off(small_en_index, lexicons):
    ir = one("turn of the kitchn lights", small_en_index, lexicons)
    assert ir.scope_include == {"kitchen"}
    assert ir.action == "turn_off"


def test_chinese_one_character_slip_in_a_room(zh_index, lexicons):
    analysis, commands = compile_utterance("打开书方的台灯", zh_index, lexicons)
    assert ("书方", "书房") in analysis.corrections
    assert commands[0].scope_include == {"study"}
    assert commands[0].action == "turn_on"


def test_correct_words_are_not_repaired(zh_index, small_en_index, lexicons):
    assert analyze("打开书房的台灯", zh_index, lexicons).corrections == []
    assert analyze("turn off the kitchen lights", small_en_index, lexicons).corrections == []


def test_bedroom_word_is_not_repaired_into_bathroom(demo_index, lexicons):
    analysis, commands = compile_utterance("卧室温度多少", demo_index, lexicons)
    assert ("卧室", "浴室") not in analysis.corrections
    assert "bathroom" not in commands[0].scope_include


# ---- language and confidence ------------------------------------------------------------------


def test_language_is_detected_when_not_given(small_en_index, demo_index, lexicons):
    # The English home hears Chinese, the Chinese home hears English.
    assert analyze("打开客厅的灯", small_en_index, lexicons).language == "zh"
    assert analyze("turn on the living room light", demo_index, lexicons).language == "en"


def test_traditional_chinese_reads_like_simplified(zh_index, lexicons):
    ir = one("關掉客廳的燈", zh_index, lexicons)
    assert ir.action == "turn_off"
    assert ir.scope_include == {"living"}
    assert types_of(ir) == {"light"}


def test_given_language_wins(small_en_index, lexicons):
    assert analyze("turn on the kitchen light", small_en_index, lexicons,
                   language="en").language == "en"


def test_confidence_high_only_when_action_and_target_are_clear(small_en_index, lexicons):
    clear = one("turn on the kitchen light", small_en_index, lexicons)
    assert clear.confidence >= 0.8
    no_action = one("the kitchen light", small_en_index, lexicons)
    assert no_action.action is None
    assert no_action.confidence < 0.8
    no_target = one("hmm", small_en_index, lexicons)
    assert no_target.confidence < 0.8


def test_confidence_drops_for_an_unknown_room(zh_index, lexicons):
    known = one("打开客厅的灯", zh_index, lexicons)
    unknown = one("打开游泳池的灯", zh_index, lexicons)
    assert known.confidence >= 0.8 > unknown.confidence


def test_compile_commands_always_returns_at_least_one(small_en_index, lexicons):
    for text in ("", "   ", "，，，", "😀"):
        commands = compile_commands(analyze(text, small_en_index, lexicons), small_en_index,
                                    lexicons)
        assert len(commands) >= 1
        assert commands[0].action is None
        assert not commands[0].mentions
