"""core/base/parse/sharing.py: what the parts of one utterance say for each other."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from custom_components.context_retrieval.core.base.models import Note
from custom_components.context_retrieval.core.base.parse import (
    compile_utterance,
)
from tests.core.conftest import make_device


def test_action_is_inherited_by_a_clause_without_one(small_en_index, lexicons):
    _, commands = compile_utterance(
        "turn on the floor lamp, and the desk lamp in the office", small_en_index, lexicons
    )
    assert len(commands) == 2
    assert [c.action for c in commands] == ["turn_on", "turn_on"]
    assert {e for m in commands[0].mentions for e in m.entity_ids} == {"light.living_lamp"}
    assert commands[1].scope_include == {"office"}
    assert Note.ACTION_INHERITED in commands[1].notes


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


def test_all_and_the_value_are_shared_by_the_targets(demo_index, lexicons):
    _, commands = compile_utterance("关掉所有的台灯和吸顶灯", demo_index, lexicons)
    assert [c.quantifier for c in commands] == ["all", "all"]
    _, commands = compile_utterance(
        "set the kitchen ceiling light and the reading light to 50%", demo_index, lexicons
    )
    first, second = ((c.action, c.attribute, c.value, c.unit) for c in commands)
    assert first == second
    assert first[2:] == (50.0, "%")


@pytest.mark.parametrize(
    ("text", "quantifiers"),
    [
        # The verb said last is every target's: the living room's lights were left alone.
        ("把客厅的灯和厨房的灯都关了", ["all", "all"]),
        ("把空调和加湿器都关了", ["all", "all"]),
        ("把空调和加湿器关了", ["one", "one"]),
        ("エアコンと加湿器を消して", ["one", "one"]),
        # "all" before its own target is that target's only.
        ("turn off the ac and all the fans", ["one", "all"]),
        ("turn off the ac and all the fans now", ["one", "all"]),
    ],
)
def test_a_verb_said_last_is_every_targets(demo_index, lexicons, text, quantifiers):
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert [c.action for c in commands] == ["turn_off", "turn_off"]
    assert [c.quantifier for c in commands] == quantifiers


def test_a_verb_said_after_three_targets_is_every_ones(demo_index, lexicons):
    _, commands = compile_utterance("把空调和加湿器和电视都关了", demo_index, lexicons)
    assert [c.action for c in commands] == ["turn_off"] * 3
    assert [m.text for c in commands for m in c.mentions] == ["空调", "加湿器", "电视"]


def test_all_said_after_three_targets_is_every_ones(demo_index, lexicons):
    # Two targets: ["all", "all"] (test_a_verb_said_last_is_every_targets); three must agree.
    _, commands = compile_utterance("把空调和加湿器和电视都关了", demo_index, lexicons)
    assert [c.quantifier for c in commands] == ["all", "all", "all"]


@pytest.mark.parametrize(
    "text",
    [
        "把前门和车库侧门锁上",  # the verb after both: shared backwards
        "lock the garage side door and the front door",  # before both: shared forwards
        "lock the garage side door, and the front door",  # to the next command
    ],
)
def test_the_kind_a_verb_implies_is_every_targets_it_is_said_of(demo_index, lexicons, text):
    _, commands = compile_utterance(text, demo_index, lexicons)
    assert [(c.action, c.implied_type) for c in commands] == [("lock", "lock")] * 2


@pytest.mark.parametrize(
    "text",
    [
        "set the brightness of the kitchen ceiling light and the reading light to 50%",
        "dim the kitchen ceiling light and the reading light to 50%",
    ],
)
def test_a_value_said_once_is_every_targets_whatever_their_verb(demo_index, text):
    # The kitchen light was "set to brightness" with no value at all.
    results = retrieve(text, demo_index)
    assert [(r.selected_ids, r.ir.value, r.ir.unit) for r in results] == [
        (["light.kitchen_ceiling"], 50.0, "%"),
        (["light.living_room_reading"], 50.0, "%"),
    ]
