"""core/base/parse/reading.py: what one spoken command means before any entity is chosen."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import (
    Area,
    ConversationState,
    DeviceIndex,
    retrieve,
)
from custom_components.context_retrieval.core.base.models import Note
from tests.core.base.parse.conftest import one, types_of
from tests.core.conftest import make_device


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("turn on the kitchen light", "turn_on"),
        ("switch off the kitchen light", "turn_off"),
        ("close the blinds", "close"),
        ("lock the front door", "lock"),
        ("dim the kitchen light", "set_brightness"),
    ],
)
def test_english_actions(small_en_index, lexicons, text, action):
    assert one(text, small_en_index, lexicons).action == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("打开客厅的灯", "turn_on"),
        ("关掉客厅的灯", "turn_off"),
        ("把灯关了", "turn_off"),
        ("调亮客厅的灯", "set_brightness"),
    ],
)
def test_chinese_actions(zh_index, lexicons, text, action):
    assert one(text, zh_index, lexicons).action == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("turn the lights off", "turn_off"),
        ("turn the kitchen lights on", "turn_on"),
        ("switch the lights off in the kitchen", "turn_off"),
    ],
)
def test_particle_verbs_carry_the_action(small_en_index, lexicons, text, action):
    ir = one(text, small_en_index, lexicons)
    assert ir.action == action
    assert "light" in types_of(ir)


@pytest.mark.parametrize(
    "text",
    [
        "is the kitchen light on?",
        "are the lights on in the kitchen",
        "what is the temperature in the kitchen",
    ],
)
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
        ir.scope_include == {"bedroom"} and "temperature" in types_of(ir)
    )


def test_a_command_is_not_a_question(small_en_index, lexicons):
    assert one("turn on the kitchen light", small_en_index, lexicons).action == "turn_on"


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


def test_turn_off_all_lights_except_the_bedroom(zh_index, lexicons):
    ir = one("关掉除了卧室以外的所有灯", zh_index, lexicons)
    assert ir.action == "turn_off"
    assert ir.quantifier == "except"
    assert ir.scope_exclude == {"bedroom"}
    # 主卧 is a different room; "卧室" must not be read as it.
    assert "master" not in ir.scope_exclude


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("all lights except the kitchen", {"kitchen"}),
        ("turn off all lights except the kitchen", {"kitchen"}),
        ("turn on all the lights but not the office", {"office"}),
        ("turn off the lights apart from the bedroom", {"bedroom"}),
    ],
)
def test_english_exclusions(small_en_index, lexicons, text, excluded):
    ir = one(text, small_en_index, lexicons)
    assert ir.quantifier == "except"
    assert ir.scope_exclude == excluded
    assert not ir.scope_include
    assert types_of(ir) == {"light"}


def test_but_not_keeps_the_action(small_en_index, lexicons):
    assert (
        one("turn on all the lights but not the office", small_en_index, lexicons).action
        == "turn_on"
    )


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


@pytest.mark.parametrize(
    ("text", "type_id"),
    [
        ("打开客厅的灯", "light"),
        ("打开卧室的空调", "air_conditioner"),
        ("关上客厅的窗帘", "curtain"),
    ],
)
def test_type_hints(zh_index, lexicons, text, type_id):
    ir = one(text, zh_index, lexicons)
    assert ir.type_groups[0][0] == type_id
    assert not ir.mentions


def test_type_word_that_is_also_a_name_keeps_its_type(demo_index, lexicons):
    """In the demo home the ACs are named 空调: the mention still knows it is a type word."""
    ir = one("打开所有空调", demo_index, lexicons)
    assert ir.quantifier == "all"
    assert "air_conditioner" in types_of(ir) | {m.type_id for m in ir.mentions}


@pytest.mark.parametrize(
    ("name", "type_words", "only_type_words"),
    [("人体传感器", ("motion", "sensor"), True), ("吸顶灯", ("light",), False)],
)
def test_a_name_knows_whether_it_is_nothing_but_type_words(
    lexicons, name, type_words, only_type_words
):
    room = Area("dining", "餐厅")
    index = DeviceIndex.build(
        [make_device("binary_sensor.x", name, room, device_class="motion")], [room], language="zh"
    )
    (mention,) = one(f"看看餐厅的{name}", index, lexicons).mentions
    assert mention.types_inside == type_words
    assert mention.only_type_words is only_type_words


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


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("关掉它", "singular"),
        ("把那个关了", "singular"),
        ("把它们都打开", "plural"),
    ],
)
def test_chinese_pronouns_are_references(zh_index, lexicons, text, kind):
    ir = one(text, zh_index, lexicons)
    assert ir.references
    assert ir.reference_kind == kind
    assert not ir.mentions
    assert not ir.type_groups


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("close it", "singular"),
        ("dim it", "singular"),
        ("turn them off", "plural"),
        ("open those", "plural"),
    ],
)
def test_english_pronouns_are_references(small_en_index, lexicons, text, kind):
    ir = one(text, small_en_index, lexicons)
    assert ir.references
    assert ir.reference_kind == kind
    assert not ir.mentions


def test_named_command_has_no_reference(small_en_index, lexicons):
    ir = one("turn on the floor lamp", small_en_index, lexicons)
    assert not ir.references
    assert ir.reference_kind == "none"


def test_chinese_politeness_does_not_become_a_target(zh_index, lexicons):
    ir = one("麻烦帮我打开一下客厅的灯谢谢", zh_index, lexicons)
    assert ir.action == "turn_on"
    assert ir.scope_include == {"living"}
    assert types_of(ir) == {"light"}
    assert not ir.phrases
    assert not ir.unknown_terms
    assert not ir.unknown_rooms


def test_english_politeness_does_not_become_a_target(small_en_index, lexicons):
    ir = one(
        "hey could you please turn on the kitchen light for me thanks", small_en_index, lexicons
    )
    assert ir.action == "turn_on"
    assert ir.scope_include == {"kitchen"}
    assert not ir.phrases
    assert not ir.unknown_terms
    assert not ir.mentions


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


# ---- which action a command with several action words means ----------------------------------


def _media_home() -> DeviceIndex:
    living = Area("living", "Living Room")
    return DeviceIndex.build(
        [
            make_device("media_player.tv", "Television", living),
            make_device("vacuum.robo", "Robo", living),
        ],
        [living],
        language="en",
    )


@pytest.mark.parametrize(
    ("text", "language", "action"),
    [
        ("start the next track in the living room", "en", "media_next"),
        ("Starte den nächsten Titel im Wohnzimmer", "de", "media_next"),
        ("Mets la chanson en pause dans le salon", "fr", "media_pause"),
        ("start the music in the living room", "en", "media_play"),
        ("stop the music in the living room", "en", "media_pause"),
        ("Arrête la musique dans le salon", "fr", "media_pause"),
        ("start the vacuum", "en", "start"),
        ("stop the robo", "en", "stop"),
    ],
)
def test_the_action_that_says_most_wins(text, language, action, lexicons):
    assert one(text, _media_home(), lexicons, language).action == action


def test_a_closing_question_particle_makes_a_question(zh_index, lexicons):
    assert one("卧室灯是打开的吗", zh_index, lexicons).action == "query"
    # A request marker keeps it a request ("帮我…吗" is "could you …?").
    assert one("帮我打开卧室灯吗", zh_index, lexicons).action == "turn_on"
    # Thanks after the particle do not move the end of the question.
    assert one("卧室灯是打开的吗谢谢", zh_index, lexicons).action == "query"
    assert one("卧室灯是打开的吗，谢谢", zh_index, lexicons).action == "query"


# ---- a name that is also a room's, after a preposition of place ------------------------------


def _office_home() -> DeviceIndex:
    office = Area("office", "Office")
    hall = Area("hall", "Hall")
    devices = [
        # An occupancy sensor named after the room, filed in no room.
        make_device("binary_sensor.office", "Office", device_class="occupancy"),
        make_device("binary_sensor.motion", "Motion Sensor", office, device_class="occupancy"),
        make_device("binary_sensor.hall_motion", "Motion Sensor", hall, device_class="occupancy"),
        make_device("binary_sensor.desk", "Desk Presence", office, device_class="occupancy"),
        make_device("light.desk", "Desk Lamp", office),
        make_device("light.hall", "Hall Lamp", hall),
    ]
    return DeviceIndex.build(devices, [office, hall], language="en")


def test_a_room_name_shared_by_an_entity_is_the_room_when_a_type_is_said(lexicons):
    ir = one("turn on the lights in the office", _office_home(), lexicons)
    assert ir.scope_include == {"office"}
    assert not ir.mentions
    assert types_of(ir) == {"light"}


def test_a_room_name_shared_by_an_entity_is_the_room_when_another_name_is_said(lexicons):
    ir = one("is the motion sensor in the office on", _office_home(), lexicons)
    assert ir.scope_include == {"office"}
    assert [m.text for m in ir.mentions] == ["motion sensor"]


def test_a_room_name_shared_by_an_entity_of_the_type_said_is_the_entity(lexicons):
    # "anyone" is what an occupancy sensor answers: the sensor called Office is asked about.
    ir = one("is anyone in the office", _office_home(), lexicons)
    assert not ir.scope_include
    assert [m.text for m in ir.mentions] == ["office"]


def test_a_type_word_beyond_the_room_still_describes_the_name_before_it():
    # "По датчику движения в кабинете кто-то есть": "кто-то" (anyone) after the room asks
    # what the motion sensor named says, not every occupancy sensor there.
    office = Area("kabinet", "Кабинет")
    index = DeviceIndex.build(
        [
            make_device(
                "binary_sensor.motion", "Датчик движения", office, device_class="occupancy"
            ),
            make_device(
                "binary_sensor.desk", "Присутствие у стола", office, device_class="occupancy"
            ),
        ],
        [office],
        language="ru",
    )
    results = retrieve("По датчику движения в кабинете кто-то есть", index, language="ru")
    assert {e for r in results for e in r.selected_ids} == {"binary_sensor.motion"}


# ---- a place left out by a word after it ("厨房以外") -----------------------------------------


def test_a_room_said_before_yiwai_is_left_out(zh_index):
    found = retrieve("把厨房以外的灯都关了", zh_index, language="zh")
    assert [r.ir.action for r in found] == ["turn_off"]
    assert set(found[0].selected_ids) == {
        "light.living_main",
        "light.living_floor",
        "light.bedroom_light",
        "light.master_light",
        "light.kids_light",
        "light.study_lamp",
        "light.study_old_lamp",
    }


def test_a_floor_said_before_yiwai_is_left_out(zh_index):
    found = retrieve("二楼以外的灯都关掉", zh_index, language="zh")
    assert set(found[0].selected_ids) == {
        "light.living_main",
        "light.living_floor",
        "light.kitchen_light",
    }


def test_yiwai_with_no_place_before_it_leaves_nothing_out(zh_index, lexicons):
    # Nothing to leave out: the command is read without a crash and scoped nowhere.
    ir = one("关掉以外的灯", zh_index, lexicons)
    assert ir.action == "turn_off"
    assert not ir.scope_exclude and not ir.floor_exclude


# ---- the type an action implies when its words name none -------------------------------------


@pytest.fixture(scope="module")
def ko_living() -> DeviceIndex:
    living = Area("living", "거실")
    devices = [
        make_device("climate.ac", "에어컨", living),
        make_device("light.main", "거실 조명", living),
        make_device("fan.fan", "선풍기", living),
    ]
    return DeviceIndex.build(devices, [living], language="ko")


def test_an_action_no_word_types_acts_on_its_default_type(ko_living, lexicons):
    # "따뜻하게" (warmer) sets a temperature; the Korean data ties no type to it, so the
    # action's default (a thermostat) is what it acts on, in the room or anywhere.
    assert one("거실 따뜻하게 해줘", ko_living, lexicons, "ko").implied_type == "climate"
    found = retrieve("따뜻하게 해줘", ko_living, language="ko")
    assert [(r.ir.action, r.selected_ids) for r in found] == [("set_temperature", ["climate.ac"])]


# ---- "kitchen lights" of a home with a "Kitchen Light": room and type, the name kept ----------


def test_a_room_and_type_said_of_a_room_without_that_type_is_the_name():
    # The garage has no light and the kitchen no heater: the words are the names after all.
    garage = Area("garage", "Garage")
    kitchen = Area("kitchen", "Kitchen")
    devices = [
        make_device("script.garage_light", "Garage Light", garage),
        make_device("input_boolean.kitchen_heater", "Kitchen Heater", kitchen),
        make_device("fan.hood", "Hood", kitchen),
    ]
    index = DeviceIndex.build(devices, [garage, kitchen], language="en")
    for text, named in [
        ("turn on the garage lights", "script.garage_light"),
        ("turn on the kitchen heaters", "input_boolean.kitchen_heater"),
    ]:
        found = retrieve(text, index, language="en")
        assert [(r.ir.action, r.selected_ids) for r in found] == [("turn_on", [named])], text


# ---- the word that gave the action is the verb, not also a type -------------------------------


@pytest.mark.parametrize(
    ("before", "locked"),
    [
        ("is the front door locked", ["lock.front_door"]),
        # The garage door is a cover: "it" is no lock, and no other lock is meant.
        ("is the garage door closed", []),
    ],
)
def test_lock_it_locks_what_it_refers_to_not_every_lock(demo_index, before, locked):
    state = ConversationState()
    retrieve(before, demo_index, state=state, language="en")
    found = retrieve("lock it", demo_index, state=state, language="en")
    assert [(r.ir.action, r.selected_ids) for r in found] == [("lock", locked)]


def test_lock_them_all_after_a_room_locks_that_rooms_locks(demo_index):
    state = ConversationState()
    retrieve("what's in the garage", demo_index, state=state, language="en")
    found = retrieve("lock them all", demo_index, state=state, language="en")
    assert [r.selected_ids for r in found] == [["lock.garage_side_door"]]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("5分钟后关闭卧室灯", "zh"),  # 分钟 is two characters: it was missed
        ("卧室灯5分钟后调到30", "zh"),
        ("两个小时后关掉空调", "zh"),
        ("10秒后打开灯", "zh"),
        ("turn off the bedroom lights in 5 minutes", "en"),
        ("in 2 hours turn off the ac", "en"),
        # A time of day, or a word for another time: not now either ("turn off the bedroom
        # lights at 11 pm" set them to 11 %; "later" was repaired into "water").
        ("turn off the bedroom lights at 5 pm", "en"),
        ("turn off the bedroom lights at 5pm", "en"),
        ("turn off the bedroom lights at 5 o'clock", "en"),
        ("turn off the bedroom lights tomorrow", "en"),
        ("turn off the bedroom lights later on", "en"),
        ("schalte das Licht im Schlafzimmer um 5 Uhr aus", "de"),
        ("schalte das Licht im Schlafzimmer morgen aus", "de"),
        ("5点钟关闭卧室灯", "zh"),
        ("明天关闭卧室灯", "zh"),
    ],
)
def test_a_number_with_a_unit_of_time_is_a_delay_not_now(demo_index, text, language):
    (result,) = retrieve(text, demo_index, language=language)
    assert Note.DELAYED in result.ir.notes
    assert result.selected_ids == []
    assert result.ir.value != 5.0  # "5分钟" is no brightness of 5


def test_a_value_after_a_delay_is_still_the_value(demo_index, lexicons):
    ir = one("卧室灯5分钟后调到30", demo_index, lexicons)
    assert ir.value == 30.0
    assert one("把阅读灯调到30", demo_index, lexicons).value == 30.0


@pytest.mark.parametrize(
    ("text", "language"),
    [
        # A clock word needs a number before it, and "am" alone is no time; a word for
        # another time inside a name of the home is the name.
        ("turn off the bedroom lights", "en"),
        ("I am cold in the bedroom", "en"),
        ("turn off the bedroom lights at pm", "en"),
        ("关闭卧室灯", "zh"),
        ("卧室灯调暗一点", "zh"),
    ],
)
def test_no_time_said_is_now(demo_index, text, language):
    for result in retrieve(text, demo_index, language=language):
        assert Note.DELAYED not in result.ir.notes


@pytest.mark.parametrize(
    ("text", "language", "action"),
    [
        # A reading said with a change or a value in a unit sets it: "温度低一点" asked the
        # temperature of every thermostat.
        ("温度低一点", "zh", None),
        ("master bedroom lamp temperature 2700 K", "en", "set_color_temp"),
        ("living room temperature 24 degrees", "en", "set_temperature"),
        # Said alone, or with a bare number, it asks.
        ("kitchen temperature", "en", "query"),
        ("温度", "zh", "query"),
        ("kitchen temperature 24", "en", "query"),
    ],
)
def test_a_reading_said_with_a_change_or_a_unit_sets_it(
    demo_index, lexicons, text, language, action
):
    ir = one(text, demo_index, lexicons, language)
    assert ir.action == action
    if text == "温度低一点":
        assert ir.change == "down"


@pytest.mark.parametrize(
    "text",
    ["turn on the lights but only in the kitchen", "turn on only the kitchen lights"],
)
def test_but_only_says_where_not_what_to_leave_out(demo_index, lexicons, text):
    # "but" read as "all but": every light except the kitchen's went on.
    ir = one(text, demo_index, lexicons, "en")
    assert ir.scope_include == {"kitchen"}
    assert not ir.scope_exclude
