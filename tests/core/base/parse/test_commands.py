"""core/base/parse/commands.py: where one command of an utterance ends and the next begins."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, ConversationState, DeviceIndex, retrieve
from custom_components.context_retrieval.core.base.models import Note
from custom_components.context_retrieval.core.base.parse import (
    analyze,
    compile_commands,
    compile_utterance,
)
from tests.core.base.parse.conftest import one, types_of
from tests.core.conftest import make_device


def test_chinese_exclusion_in_a_second_clause_stays_one_command(zh_index, lexicons):
    ir = one("打开所有的灯，但是不要开儿童房和主卧的", zh_index, lexicons)
    assert ir.action == "turn_on"
    assert ir.quantifier == "except"
    assert ir.scope_exclude == {"kids", "master"}
    assert ir.scope_include == set()
    assert types_of(ir) == {"light"}


def test_chinese_two_commands_with_ranran(zh_index, lexicons):
    _, commands = compile_utterance("打开客厅灯然后关掉空调", zh_index, lexicons)
    assert [c.action for c in commands] == ["turn_on", "turn_off"]
    assert commands[0].scope_include == {"living"}
    assert types_of(commands[0]) == {"light"}
    assert types_of(commands[1]) == {"air_conditioner"}
    assert not commands[1].scope_include  # the room of the first command does not leak


def test_english_two_commands_with_and(small_en_index, lexicons):
    _, commands = compile_utterance(
        "turn on the kitchen light and close the blinds", small_en_index, lexicons
    )
    assert [c.action for c in commands] == ["turn_on", "close"]
    assert commands[0].scope_include == {"kitchen"}
    assert {e for m in commands[1].mentions for e in m.entity_ids} == {"cover.living_blinds"}
    assert not commands[1].scope_include


def test_english_two_commands_with_then(small_en_index, lexicons):
    _, commands = compile_utterance(
        "turn on the kitchen light, then turn off the bedroom light", small_en_index, lexicons
    )
    assert [(c.action, c.scope_include) for c in commands] == [
        ("turn_on", {"kitchen"}),
        ("turn_off", {"bedroom"}),
    ]


def test_two_rooms_sharing_one_type_are_one_command(small_en_index, lexicons):
    ir = one("turn on the kitchen and living room lights", small_en_index, lexicons)
    assert ir.action == "turn_on"
    assert ir.scope_include == {"kitchen", "living"}
    assert types_of(ir) == {"light"}


def test_compile_commands_always_returns_at_least_one(small_en_index, lexicons):
    for text in ("", "   ", "，，，", "😀"):
        commands = compile_commands(
            analyze(text, small_en_index, lexicons), small_en_index, lexicons
        )
        assert len(commands) >= 1
        assert commands[0].action is None
        assert not commands[0].mentions


# ---- one action, several targets joined by "and" ---------------------------------------------


def _targets(ir) -> set[str]:
    return {e for m in ir.mentions for e in m.entity_ids}


@pytest.mark.parametrize(
    "text",
    [
        "turn on the reading light and the kitchen ceiling light",
        "打开阅读灯和厨房的吸顶灯",
    ],
)
def test_a_room_said_with_the_second_target_is_that_targets_own(demo_index, lexicons, text):
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert [c.action for c in commands] == ["turn_on", "turn_on"]
    reading, ceiling = commands
    assert _targets(reading) == {"light.living_room_reading"}
    assert "light.living_room_reading" not in _targets(ceiling)
    assert ceiling.scope_include == {"kitchen"}
    assert Note.SHARED_PLACE not in ceiling.notes
    # The first target only may be in the kitchen, as a place to look first.
    assert Note.SHARED_PLACE in reading.notes
    assert reading.confidence == ceiling.confidence


@pytest.mark.parametrize(
    "text",
    [
        "fish tank on and christmas tree off",
        "鱼缸打开和圣诞树关掉",
        "turn on the fish tank and the christmas tree off",
    ],
)
def test_a_target_with_an_action_of_its_own_keeps_it(demo_index, text):
    # Only a target said without one takes its neighbour's action.
    found = retrieve(text, demo_index)
    assert [(r.ir.action, r.selected_ids) for r in found] == [
        ("turn_on", ["switch.yu_gang"]),
        ("turn_off", ["switch.christmas_tree"]),
    ]


@pytest.mark.parametrize(
    ("text", "first_place"),
    [
        # A room said last may close both commands joined by "and": the first looks there.
        ("open the curtains and turn on the ceiling light in the living room", {"living_room"}),
        ("close the blinds and switch off the lamp in the study", {"study"}),
        # a polite word after the room leaves it the last said,
        (
            "open the curtains and turn on the ceiling light in the living room please",
            {"living_room"},
        ),
        # Not a room said before its target ("the kitchen TV" is the TV's own room),
        ("turn on the lights and turn off the kitchen ceiling light", set()),
        # nor across a comma, "then" or a full stop: a new sentence starts afresh.
        ("open the curtains, turn on the ceiling light in the living room", set()),
        ("open the curtains then turn on the ceiling light in the living room", set()),
        ("open the curtains, and turn on the ceiling light in the living room", set()),
    ],
)
def test_a_room_said_last_is_where_the_command_before_looks_first(
    demo_index, lexicons, text, first_place
):
    _, commands = compile_utterance(text, demo_index, lexicons)
    first, last = commands[0], commands[-1]
    assert first.scope_include == first_place
    assert (Note.SHARED_PLACE in first.notes) == bool(first_place)
    assert Note.SHARED_PLACE not in last.notes


def test_a_command_with_a_place_of_its_own_keeps_it(demo_index, lexicons):
    _, commands = compile_utterance(
        "open the study blinds and turn on the ceiling light in the living room",
        demo_index,
        lexicons,
    )
    assert [c.scope_include for c in commands] == [{"study"}, {"living_room"}]
    assert not any(Note.SHARED_PLACE in c.notes for c in commands)


def test_the_shared_room_is_dropped_when_nothing_there_fits(demo_index):
    # No TV in the study: the TV is looked for in the whole home, as if no room was shared.
    tv, light = retrieve("turn off the tv and turn on the light in the study", demo_index)
    assert tv.selected_ids == ["media_player.living_room_tv"]
    assert tv.meta.shared_place_dropped == ["study"]
    assert set(light.selected_ids) == {"light.study_panel", "light.study_old_lamp"}


@pytest.mark.parametrize(
    "text",
    [
        "turn off the tv. turn on the reading light",
        "Turn off the TV. Turn on the reading light.",
        "turn off the tv.  turn on the reading light",
    ],
)
def test_a_full_stop_ends_a_command(demo_index, text):
    # Read as one command, the reading light was turned off with the TV.
    found = retrieve(text, demo_index)
    assert [(r.ir.action, r.selected_ids) for r in found] == [
        ("turn_off", ["media_player.living_room_tv"]),
        ("turn_on", ["light.living_room_reading"]),
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("set the living room ac to 21.5", 21.5),
        ("set the living room ac to 21.5.", 21.5),
        ("set the living room ac to 22. thanks", 22.0),
    ],
)
def test_a_point_inside_or_after_a_number_is_no_second_command(demo_index, text, value):
    (found,) = retrieve(text, demo_index)
    assert found.selected_ids == ["climate.living_room_ac"]
    assert found.ir.value == value


@pytest.mark.parametrize(
    "text",
    [
        "turn off all the lights except the reading light and the kitchen ceiling light",
        "关掉除了阅读灯和吸顶灯以外的所有灯",
        "is the reading light and the kitchen ceiling light on",
        "turn on the kitchen and living room lights",
        "打开客厅和厨房的灯",
    ],
)
def test_and_inside_an_exclusion_a_question_or_between_rooms_does_not_cut(
    demo_index, lexicons, text
):
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert len(commands) == 1


# ---- negations: what is said not to be done is never done ------------------------------------


def _two_lights(language: str) -> DeviceIndex:
    names = {"en": ("Kitchen", "Living Room", "Kitchen Light", "Living Room Light")}
    names["zh"] = ("厨房", "客厅", "厨房灯", "客厅灯")
    kitchen_name, living_name, kitchen_light, living_light = names[language]
    kitchen, living = Area("kitchen", kitchen_name), Area("living", living_name)
    devices = [
        make_device("light.kitchen", kitchen_light, kitchen),
        make_device("light.living", living_light, living),
    ]
    return DeviceIndex.build(devices, [kitchen, living], language=language)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "turn off all the lights but don't turn off the kitchen light"),
        ("zh", "把灯都关了，厨房的别关"),
    ],
)
def test_what_a_negation_is_said_of_is_left_out(language: str, text: str) -> None:
    """The path a user takes: every light but the kitchen's is turned off, and no command
    of the utterance selects the kitchen's."""
    results = retrieve(text, _two_lights(language), language=language)
    assert [r.selected_ids for r in results if r.selected_ids] == [["light.living"]]
    assert all("light.kitchen" not in r.selected_ids for r in results)


@pytest.mark.parametrize(
    ("language", "text"), [("en", "don't turn off the kitchen light"), ("zh", "别关灯")]
)
def test_a_negation_said_alone_commands_nothing(language: str, text: str) -> None:
    results = retrieve(text, _two_lights(language), language=language)
    assert [(r.ir.action, r.selected_ids) for r in results] == [(None, [])]
    assert Note.NEGATED in results[0].ir.notes


@pytest.mark.parametrize(
    "text", ["turn on the fish tank but don't turn off the christmas tree", "打开鱼缸别关圣诞树"]
)
def test_a_negation_takes_the_action_after_it_not_the_one_before(demo_index, text):
    # "don't turn off" leaves the tree alone; the fish tank is turned on, not off.
    found = retrieve(text, demo_index)
    assert [(r.ir.action, r.selected_ids) for r in found] == [("turn_on", ["switch.yu_gang"])]


@pytest.mark.parametrize(
    "follow_up", ["not the living room", "客厅的不要", "不要客厅的", "not the cabinet light"]
)
def test_a_negation_said_alone_after_a_turn_takes_no_action(demo_index, follow_up):
    # It took the last turn's action: "turn on …" then "not the living room" switched the
    # living room's lights on.
    state = ConversationState()
    retrieve("turn on the kitchen lights", demo_index, state=state)
    results = retrieve(follow_up, demo_index, state=state)
    assert all(r.ir.action is None and not r.selected_ids for r in results), follow_up
    assert all(Note.NEGATED in r.ir.notes for r in results)


def test_a_question_with_a_negation_still_asks(demo_index):
    for text in ("大门是不是锁着的", "卧室灯开着不？"):
        (result,) = retrieve(text, demo_index)
        assert result.ir.action == "query" and result.selected_ids, text


def test_a_negation_beside_a_command_still_leaves_out_of_it(demo_index):
    (result,) = retrieve("打开所有的灯，主卧的不要", demo_index)
    assert result.ir.action == "turn_on"
    assert result.selected_ids and not any("master" in e for e in result.selected_ids)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("turn the lights on in the kitchen and off in the living room", "en"),
        ("mach das Licht in der Küche an und im Wohnzimmer aus", "de"),
    ],
)
def test_a_place_with_an_action_of_its_own_after_and_is_a_part_of_its_own(
    demo_index, lexicons, text, language
):
    # One command for both rooms, with the first action (or the last): one room got the
    # other's.
    _, commands = compile_utterance(text, demo_index, lexicons, language)
    assert [(c.action, c.scope_include, types_of(c)) for c in commands] == [
        ("turn_on", {"kitchen"}, {"light"}),
        ("turn_off", {"living_room"}, {"light"}),
    ]


def test_a_place_without_an_action_still_joins_the_target_before(demo_index, lexicons):
    _, commands = compile_utterance(
        "turn on the kitchen lights and the living room", demo_index, lexicons
    )
    assert len(commands) == 1
    assert commands[0].scope_include == {"kitchen", "living_room"}


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("把灯都关了，卧室的留着", {"master_bedroom", "guest_room"}),
        ("关掉所有灯，主卧的保留", {"master_bedroom"}),
        ("厨房的留着，其他灯都关掉", {"kitchen"}),
        ("turn off all the lights, the kitchen stays on", {"kitchen"}),
        ("schalte alle Lichter aus, die Küche bleibt an", {"kitchen"}),
        ("éteins toutes les lumières, la cuisine reste allumée", {"kitchen"}),
        ("apaga todas las luces, la cocina se queda encendida", {"kitchen"}),
    ],
)
def test_a_clause_that_keeps_a_room_leaves_it_out_of_the_command_beside_it(
    demo_index, lexicons, text, kept
):
    """ "…, the bedroom's stay": they were switched off by themselves as a second command."""
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert [c.action for c in commands] == ["turn_off"]
    assert commands[0].scope_exclude == kept
    assert types_of(commands[0]) == {"light"}


@pytest.mark.parametrize(
    "text",
    [
        # "it stays on": the same light, no other to leave out.
        "schalte das Licht im Flur an, es bleibt an",
        # A verb of its own: a command of its own.
        "turn off all the lights, turn the kitchen on",
    ],
)
def test_a_clause_with_a_pronoun_or_a_verb_of_its_own_keeps_nothing(demo_index, lexicons, text):
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert all(not c.scope_exclude and not c.exclude_mentions for c in commands)


def test_a_keeping_clause_said_alone_leaves_nothing_out_of_anything(demo_index, lexicons):
    _, commands = compile_utterance("卧室的留着", demo_index, lexicons)
    assert all(c.action is None for c in commands)


@pytest.mark.parametrize(
    "text",
    [
        # "Not all" says how many, never which: the room's lights were left out and every
        # other light of the home switched on.
        "客厅的灯不要全开，只开阅读灯",
        "不要把灯全关了，只关客厅的",
        "turn off the lights but not all of them",
        "schalte die Lichter aus, aber nicht alle",
    ],
)
def test_not_all_leaves_nothing_out_and_does_not_act_on_all(demo_index, lexicons, text):
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert all(not c.scope_exclude and not c.exclude_type_groups for c in commands)
    assert all(c.quantifier != "all" or c.action is None for c in commands)


@pytest.mark.parametrize(
    "text", ["turn off the lights but not all of them", "schalte die Lichter aus, aber nicht alle"]
)
def test_a_command_leaving_out_not_all_does_nothing(demo_index, lexicons, text):
    # It switched every light off.
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert [c.action for c in commands] == [None]


def test_only_the_one_said_after_not_all(demo_index, lexicons):
    _, commands = compile_utterance("客厅的灯不要全开，只开阅读灯", demo_index, lexicons)
    acting = [c for c in commands if c.action is not None]
    assert [c.action for c in acting] == ["turn_on"]
    assert [m.text for m in acting[0].mentions] == ["阅读灯"]


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        ("turn off all the lights except all the kitchen ones", {"kitchen"}),
        ("客厅的灯不要开，开厨房的", {"living_room"}),
    ],
)
def test_an_exclusion_naming_a_room_beside_all_still_leaves_it_out(
    demo_index, lexicons, text, excluded
):
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert any(c.scope_exclude == excluded for c in commands)


# ---- where a command ends: the rules of `split_commands`, said as a user says them ------------


def test_a_list_mark_joins_rooms_and_is_no_clause_break(demo_index, lexicons):
    # "、" lists: cut there, "客厅" became a command of its own.
    ir = one("打开客厅、厨房的灯", demo_index, lexicons)
    assert ir.action == "turn_on"
    assert ir.scope_include == {"living_room", "kitchen"}
    assert types_of(ir) == {"light"}


@pytest.mark.parametrize(
    ("text", "raws"),
    [
        ("turn on the light and then turn off the fan", ["turn on the light", "turn off the fan"]),
        ("turn on the light, then turn off the fan", ["turn on the light", "turn off the fan"]),
        ("turn on the light and turn off the fan", ["turn on the light", "turn off the fan"]),
        ("打开客厅灯然后关掉空调", ["打开客厅灯", "关掉空调"]),
    ],
)
def test_each_command_is_the_words_said_for_it_without_the_joining_words(
    demo_index, lexicons, text, raws
):
    """A command's text (what the retrieve service answers per command) holds neither the
    break nor the "and"/"then" that ended the command before it."""
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert [c.raw for c in commands] == raws


@pytest.mark.parametrize(("text", "change"), [("a bit more", "up"), ("再高一点", "up")])
def test_value_words_said_alone_are_one_command(small_en_index, lexicons, text, change):
    ir = one(text, small_en_index, lexicons)
    assert ir.change == change
    assert ir.raw == text


def test_a_negated_type_beside_a_command_is_left_out_of_it(demo_index):
    # The type said with "nicht" is what is left out: every other device of the room is not.
    (result,) = retrieve(
        "schalte alles im Wohnzimmer aus, die Lampen nicht", demo_index, language="de"
    )
    assert result.ir.action == "turn_off"
    assert result.ir.exclude_type_groups == [("light",)]
    assert "media_player.living_room_tv" in result.selected_ids
    assert not any(e.startswith("light.") for e in result.selected_ids)


@pytest.mark.parametrize(
    ("text", "language", "excluded"),
    [
        ("打开所有的灯，主卧的除外", "zh", {"master_bedroom"}),
        ("主卧的除外，打开所有的灯", "zh", {"master_bedroom"}),
        ("turn on all the lights, the kitchen excluded", "en", {"kitchen"}),
    ],
)
def test_a_clause_ending_in_an_exclusion_word_leaves_its_room_out_of_the_command_beside_it(
    demo_index, lexicons, text, language, excluded
):
    ir = one(text, demo_index, lexicons, language)
    assert (ir.action, ir.quantifier, ir.scope_exclude) == ("turn_on", "except", excluded)
    (result,) = retrieve(text, demo_index, language=language)
    room = next(iter(excluded))
    assert result.selected_ids
    assert not any(demo_index.entries[e].device.area_id == room for e in result.selected_ids)


@pytest.mark.parametrize("text", ["客厅的灯关掉全部", "关掉全部"])
def test_all_said_last_without_a_negation_is_no_not_all(demo_index, lexicons, text):
    # Only "not all" ("but not all of them") does nothing; "all" said last, alone, acts.
    ir = one(text, demo_index, lexicons)
    assert (ir.action, ir.quantifier) == ("turn_off", "all")
    assert Note.NEGATED not in ir.notes


def test_all_of_a_room_said_last_acts_on_every_one_there(demo_index):
    (result,) = retrieve("客厅的灯关掉全部", demo_index)
    assert set(result.selected_ids) == {
        "light.living_room_ceiling",
        "light.living_room_reading",
        "light.living_room_tv_backlight",
        "light.window_fairy_lights",
    }


@pytest.mark.parametrize(
    ("text", "selected"),
    [
        ("is the kitchen light not on", {"light.kitchen_ceiling", "light.kitchen_cabinet"}),
        ("客厅的灯没开吗", {f"light.{n}" for n in ("living_room_ceiling", "living_room_reading")}),
    ],
)
def test_a_question_with_a_negation_asks_about_what_it_names(demo_index, text, selected):
    # The "not" of a question negates no action: it was read as "do nothing".
    (result,) = retrieve(text, demo_index)
    assert result.ir.action == "query"
    assert Note.NEGATED not in result.ir.notes
    assert selected <= set(result.selected_ids)


def test_a_clause_with_a_verb_of_its_own_is_no_keeping_clause(demo_index, lexicons):
    # "开" is a verb of the clause: the master bedroom's lights are its own command, not a
    # room left out of the command before.
    _, commands = compile_utterance("关掉所有灯，主卧的留着开", demo_index, lexicons)
    assert [(c.action, c.scope_include) for c in commands] == [
        ("turn_off", set()),
        ("turn_on", {"master_bedroom"}),
    ]
    assert not commands[0].scope_exclude


def test_a_negation_after_its_action_takes_it_back(demo_index):
    # "turn off the light — no, don't": nothing is switched off.
    results = retrieve("关灯不要", demo_index)
    assert [(r.ir.action, r.selected_ids) for r in results] == [(None, [])]
    assert Note.NEGATED in results[0].ir.notes


def test_a_negated_action_after_its_room_leaves_the_room_out(demo_index):
    # "turn all the lights off, the kitchen's — turn off, don't": the kitchen keeps its light.
    (result,) = retrieve("把灯都关了，厨房的关不要", demo_index)
    assert result.ir.action == "turn_off"
    assert result.ir.scope_exclude == {"kitchen"}
    assert result.selected_ids
    assert not any(e.startswith("light.kitchen") for e in result.selected_ids)


def test_a_negation_before_its_action_after_a_comma_leaves_its_target_alone(demo_index):
    (result,) = retrieve("打开鱼缸，圣诞树不要关", demo_index)
    assert (result.ir.action, result.selected_ids) == ("turn_on", ["switch.yu_gang"])


@pytest.mark.parametrize("text", ["打开鱼缸圣诞树不要关", "打开鱼缸但是圣诞树不要关"])
def test_a_target_said_before_its_negated_action_is_never_acted_on(demo_index, text):
    # "turn on the fish tank (but) the christmas tree, don't turn it off": the tree was
    # switched on, though the user only said not to switch it off.
    results = retrieve(text, demo_index)
    assert all("switch.christmas_tree" not in r.selected_ids for r in results)
    assert any("switch.yu_gang" in r.selected_ids for r in results)


@pytest.mark.parametrize("text", ["大门是不是锁着的", "客厅的灯开着不", "卧室灯开着不？"])
def test_a_question_or_a_state_with_a_negation_is_no_negation_said_alone(
    demo_index, lexicons, text
):
    # Only a told "not the living room" refuses the last turn's action; a question asks.
    ir = one(text, demo_index, lexicons)
    assert ir.action == "query"
    assert Note.NEGATION_ALONE not in ir.notes
    assert Note.NEGATED not in ir.notes


@pytest.mark.parametrize("text", ["not the living room", "客厅的不要"])
def test_a_negation_said_alone_is_marked_so(demo_index, lexicons, text):
    ir = one(text, demo_index, lexicons)
    assert ir.action is None
    assert Note.NEGATION_ALONE in ir.notes


@pytest.mark.parametrize(
    "text",
    [
        "卧室的灯，关掉",  # what, then the verb
        "turn off, the kitchen lights",  # the verb, then what
        "Выключи, пожалуйста, свет",  # the verb and its object apart, "please" between
    ],
)
def test_a_verb_and_its_object_split_by_a_comma_are_one_command(demo_index, lexicons, text):
    ir = one(text, demo_index, lexicons)
    assert ir.action == "turn_off"
    assert types_of(ir) == {"light"}


@pytest.mark.parametrize(
    ("text", "actions"),
    [
        ("turn on the kitchen light, turn off the fan", ["turn_on", "turn_off"]),
        ("the kitchen light, turn off the fan", [None, "turn_off"]),
    ],
)
def test_a_clause_with_both_a_verb_and_a_target_stays_its_own(demo_index, lexicons, text, actions):
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert [c.action for c in commands] == actions


@pytest.mark.parametrize(
    "text",
    [
        "turn on the kitchen light and please close the blinds",
        "schalte das Licht in der Küche ein und bitte schalte den Fernseher aus",
    ],
)
def test_and_then_a_polite_word_and_a_verb_starts_a_command_of_its_own(demo_index, lexicons, text):
    # Read as two targets of one command, the blinds or the TV were looked for in the kitchen.
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert len(commands) == 2
    assert commands[0].scope_include == {"kitchen"}
    assert not commands[1].scope_include
    assert Note.SHARED_PLACE not in commands[1].notes


@pytest.mark.parametrize(
    ("text", "selected"),
    [
        # A title that holds "and" and a type word is no list of targets.
        ("play lights and shadows on the tv", ["media_player.living_room_tv"]),
        (
            "play jazz on the soundbar and the homepod mini",
            ["media_player.homepod_mini", "media_player.living_room_soundbar"],
        ),
    ],
)
def test_playing_something_is_one_command_whatever_and_joins(demo_index, lexicons, text, selected):
    ir = one(text, demo_index, lexicons)
    assert ir.action == "media_search_play"
    (result,) = retrieve(text, demo_index)
    assert sorted(result.selected_ids) == selected


def test_three_targets_joined_by_and_are_three_commands(demo_index, lexicons):
    _, commands = compile_utterance(
        "turn on the reading light and the kitchen ceiling light and the fish tank",
        demo_index,
        lexicons,
    )
    assert [(c.action, [m.text for m in c.mentions]) for c in commands] == [
        ("turn_on", ["reading light"]),
        ("turn_on", ["ceiling light"]),
        ("turn_on", ["fish tank"]),
    ]
    assert commands[1].scope_include == {"kitchen"}
    assert Note.SHARED_PLACE not in commands[1].notes


def test_a_room_alone_among_three_targets_joins_the_one_before(demo_index, lexicons):
    _, commands = compile_utterance(
        "turn on the reading light and the living room and the fish tank", demo_index, lexicons
    )
    assert [c.raw for c in commands] == [
        "turn on the reading light and the living room",
        "the fish tank",
    ]
    assert [c.action for c in commands] == ["turn_on", "turn_on"]


def test_a_room_with_a_type_after_and_keeps_its_own_type(demo_index, lexicons):
    # Only a room said without a kind takes the kind of the target before it.
    _, commands = compile_utterance("打开鱼缸和厨房的灯", demo_index, lexicons)
    assert [c.action for c in commands] == ["turn_on", "turn_on"]
    assert commands[1].scope_include == {"kitchen"}
    assert types_of(commands[1]) == {"light"}


@pytest.mark.parametrize(
    "text",
    ["turn on the fish tank and then turn it off", "turn on the fish tank, then turn off"],
)
def test_a_later_command_with_a_verb_and_no_target_is_kept(demo_index, lexicons, text):
    # A verb said alone is a command (about what was just named), never dropped.
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert [c.action for c in commands] == ["turn_on", "turn_off"]


def test_a_later_clause_with_neither_a_target_nor_a_verb_adds_no_command(demo_index, lexicons):
    _, commands = compile_utterance("打开厨房灯，全部", demo_index, lexicons)
    assert [(c.action, c.scope_include) for c in commands] == [("turn_on", {"kitchen"})]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("kitchen lights?", "query"),  # a target said as a question asks
        ("kitchen lights？", "query"),
        ("kitchen lights", None),
        ("turn on the kitchen lights?", "turn_on"),  # a verb stays what it says
    ],
)
def test_a_question_mark_asks_only_when_no_verb_was_said(small_en_index, lexicons, text, action):
    _, commands = compile_utterance(text, small_en_index, lexicons)
    assert [c.action for c in commands] == [action]
