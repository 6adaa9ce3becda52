"""core/base/parse/commands.py: where one command of an utterance ends and the next begins."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, DeviceIndex
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
    assert types_of(commands[1]) == {"climate"}
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


def test_action_is_inherited_by_a_clause_without_one(small_en_index, lexicons):
    _, commands = compile_utterance(
        "turn on the floor lamp, and the desk lamp in the office", small_en_index, lexicons
    )
    assert len(commands) == 2
    assert [c.action for c in commands] == ["turn_on", "turn_on"]
    assert {e for m in commands[0].mentions for e in m.entity_ids} == {"light.living_lamp"}
    assert commands[1].scope_include == {"office"}
    assert "action_inherited" in commands[1].notes


def test_porch_and_hallway_inherit_the_action(lexicons):
    porch = Area("porch", "Porch")
    hall = Area("hallway", "Hallway")
    index = DeviceIndex.build(
        [
            make_device("light.porch", "Porch Light", porch),
            make_device("light.hallway", "Hallway Light", hall),
            make_device("light.kitchen", "Kitchen Light"),
        ],
        [porch, hall],
        language="en",
    )
    _, commands = compile_utterance(
        "turn on the porch light, and the hallway light", index, lexicons
    )
    assert [c.action for c in commands] == ["turn_on", "turn_on"]
    targets = [
        {e for m in c.mentions for e in m.entity_ids} | {f"area:{a}" for a in c.scope_include}
        for c in commands
    ]
    assert targets[0] & {"light.porch", "area:porch"}
    assert not targets[0] & {"light.hallway", "area:hallway"}
    assert targets[1] & {"light.hallway", "area:hallway"}
    assert not targets[1] & {"light.porch", "area:porch"}


def test_compile_commands_always_returns_at_least_one(small_en_index, lexicons):
    for text in ("", "   ", "，，，", "😀"):
        commands = compile_commands(
            analyze(text, small_en_index, lexicons), small_en_index, lexicons
        )
        assert len(commands) >= 1
        assert commands[0].action is None
        assert not commands[0].mentions
