"""core/retrieval/follow_ups.py: what a command takes from the conversation before it."""

from __future__ import annotations

from dataclasses import replace

from custom_components.context_retrieval.core import (
    Area,
    ConversationState,
    DeviceIndex,
    LexiconSet,
    QueryIR,
    retrieve,
)
from custom_components.context_retrieval.core.base.models import Note
from custom_components.context_retrieval.core.retrieval.follow_ups import (
    action_from_last_turn,
    others_than_last_turn,
    place_from_last_turn,
    same_elsewhere,
    setting_of_last_turn,
)
from tests.core.conftest import make_device, run_context


def test_the_same_where_the_last_devices_are_is_those_devices_elsewhere_the_last_command() -> None:
    """After turning on the stove lamp, "dasselbe in der Küche" is that lamp (not every lamp
    of the kitchen), and "dasselbe im Schlafzimmer" the last command there."""
    kitchen, bedroom = Area("kueche", "Küche"), Area("schlafzimmer", "Schlafzimmer")
    devices = [
        make_device("light.herd", "Herdlampe", kitchen),
        make_device("light.decke", "Deckenlampe", kitchen),
        make_device("light.schlaf", "Deckenlampe", bedroom),
    ]
    index = DeviceIndex.build(devices, [kitchen, bedroom], language="de")
    for second, expected in [
        ("dasselbe in der Küche", ["light.herd"]),
        ("dasselbe im Schlafzimmer", ["light.schlaf"]),
    ]:
        state = ConversationState()
        retrieve("schalte die Herdlampe ein", index, state=state, language="de")
        results = retrieve(second, index, state=state, language="de")
        assert [(r.ir.action, r.selected_ids) for r in results] == [("turn_on", expected)]


BEDROOM, KITCHEN = Area("bedroom", "Bedroom"), Area("kitchen", "Kitchen")


def _two_rooms() -> DeviceIndex:
    devices = [
        make_device("light.bed", "Bed Lamp", BEDROOM),
        make_device("light.stove", "Stove Light", KITCHEN),
        make_device("fan.bedroom", "Ceiling Fan", BEDROOM),
    ]
    return DeviceIndex.build(devices, [BEDROOM, KITCHEN], language="en")


def _after(last: QueryIR, selected: list[str]) -> ConversationState:
    state = ConversationState()
    state.remember(selected)
    state.remember_command(last)
    return state


def test_the_last_action_is_taken_into_a_new_command(lexicons: LexiconSet) -> None:
    last = QueryIR(raw="", action="turn_on", type_groups=[("light",)], value=40.0, unit="%")
    ctx = run_context(_two_rooms(), lexicons, state=_after(last, ["light.stove"]))
    said = QueryIR(raw="and the bedroom", scope_include={"bedroom"})
    taken = action_from_last_turn(said, ctx)
    assert (taken.action, taken.type_groups, taken.value, taken.unit) == (
        "turn_on",
        [("light",)],
        40.0,
        "%",
    )
    assert taken.notes == [Note.ACTION_FROM_LAST_TURN]
    # The command given is left as it was, and so is the one the conversation remembers.
    assert (said.action, said.type_groups, said.notes) == (None, [], [])
    assert last.notes == [] and last.scope_include == set()


def test_no_target_or_a_negation_takes_no_action(lexicons: LexiconSet) -> None:
    last = QueryIR(raw="", action="turn_on", type_groups=[("light",)])
    ctx = run_context(_two_rooms(), lexicons, state=_after(last, ["light.stove"]))
    bare = QueryIR(raw="please")
    assert action_from_last_turn(bare, ctx) is bare
    negated = QueryIR(raw="", scope_include={"bedroom"}, notes=[Note.NEGATED])
    assert action_from_last_turn(negated, ctx) is negated


def test_a_step_takes_the_last_setting_s_attribute(lexicons: LexiconSet) -> None:
    last = QueryIR(raw="", action="set_brightness", attribute="brightness", value=40.0)
    ctx = run_context(_two_rooms(), lexicons, state=_after(last, ["light.stove"]))
    said = QueryIR(raw="a bit more", change="up")
    taken = action_from_last_turn(said, ctx)
    assert (taken.action, taken.attribute, taken.value) == ("set_brightness", "brightness", None)
    assert said.action is None and said.attribute is None


def test_in_there_is_the_room_of_the_last_devices(lexicons: LexiconSet) -> None:
    last = QueryIR(raw="", action="turn_on", scope_include={"kitchen"})
    ctx = run_context(_two_rooms(), lexicons, state=_after(last, ["light.bed"]))
    said = QueryIR(raw="the fan in there too", there=True)
    placed = place_from_last_turn(said, ctx)
    assert placed.scope_include == {"bedroom"}  # where the devices are, before what was said
    assert placed.notes == [Note.PLACE_FROM_LAST_TURN]
    assert said.scope_include == set() and said.notes == []
    named = QueryIR(raw="", there=True, scope_include={"kitchen"})
    assert place_from_last_turn(named, ctx) is named


def test_the_same_elsewhere_drops_the_reference(lexicons: LexiconSet) -> None:
    last = QueryIR(raw="", action="turn_on")
    ctx = run_context(_two_rooms(), lexicons, state=_after(last, ["light.stove"]))
    said = QueryIR(raw="the same in the bedroom", references=["same"], scope_include={"bedroom"})
    moved = same_elsewhere(said, ctx)
    assert moved.references == [] and moved.reference_kind == "none"
    assert said.references == ["same"]
    here = QueryIR(raw="the same in the kitchen", references=["same"], scope_include={"kitchen"})
    assert same_elsewhere(here, ctx) is here


def _climate_home() -> DeviceIndex:
    devices = [
        make_device("climate.bedroom", "Bedroom AC", BEDROOM),
        make_device("climate.kitchen", "Kitchen AC", KITCHEN),
        make_device("light.bed", "Bed Lamp", BEDROOM),
    ]
    return DeviceIndex.build(devices, [BEDROOM, KITCHEN], language="en")


def test_the_setting_s_own_word_after_a_turn_is_that_turn_s_device() -> None:
    # "set the temperature to 24" after turning the bedroom AC on asked which AC.
    index = _climate_home()
    for first, second in [
        ("turn on the bedroom ac", "set the temperature to 24"),
        ("turn on the bedroom ac", "temperature to 22 degrees"),
    ]:
        state = ConversationState()
        retrieve(first, index, state=state)
        (result,) = retrieve(second, index, state=state)
        assert result.selected_ids == ["climate.bedroom"], second
        assert result.clarification is None


def test_the_setting_s_word_keeps_its_reading_when_the_last_device_cannot_take_it() -> None:
    index = _climate_home()
    state = ConversationState()
    retrieve("turn on the bed lamp", index, state=state)
    (result,) = retrieve("set the temperature to 24", index, state=state)
    assert result.selected_ids == [] and result.clarification is not None  # which AC
    (alone,) = retrieve("set the temperature to 24", index, state=ConversationState())
    assert alone.clarification is not None


def test_the_setting_s_word_is_left_as_it_is_with_a_target_or_without_a_value(
    lexicons: LexiconSet,
) -> None:
    last = QueryIR(raw="", action="turn_on")
    ctx = run_context(_climate_home(), lexicons, state=_after(last, ["climate.bedroom"]))
    said = QueryIR(raw="", action="set", value=24.0, type_groups=[("temperature",)])
    taken = setting_of_last_turn(said, ctx)
    assert (taken.action, taken.attribute, taken.type_groups) == (
        "set_temperature",
        "temperature",
        [],
    )
    assert said.type_groups == [("temperature",)]  # its input unchanged
    for kept in (
        replace(said, value=None),  # "what is the temperature": no setting
        replace(said, scope_include={"kitchen"}),  # a place said is a target
        replace(said, type_groups=[("temperature",), ("light",)]),
        replace(said, action="turn_off"),
    ):
        assert setting_of_last_turn(kept, ctx) is kept


def _lights_home() -> DeviceIndex:
    devices = [
        make_device("light.bed", "Bed Lamp", BEDROOM),
        make_device("light.bed_ceiling", "Bedroom Ceiling", BEDROOM),
        make_device("light.stove", "Stove Light", KITCHEN),
        make_device("light.kitchen_ceiling", "Kitchen Ceiling", KITCHEN),
        make_device("fan.bedroom", "Ceiling Fan", BEDROOM),
    ]
    return DeviceIndex.build(devices, [BEDROOM, KITCHEN], language="en")


def _said(index: DeviceIndex, *turns: str) -> list[list[tuple[str | None, list[str]]]]:
    state = ConversationState()
    return [
        [(r.ir.action, sorted(r.selected_ids)) for r in retrieve(turn, index, state=state)]
        for turn in turns
    ]


def test_the_others_are_what_the_last_turn_did_not_select_of_its_kind() -> None:
    # "turn off the others" turned off the kitchen lights just turned on.
    index = _lights_home()
    for follow_up in ("turn off the others", "turn off the other lights", "turn off the rest"):
        first, then = _said(index, "turn on the kitchen lights", follow_up)
        assert first == [("turn_on", ["light.kitchen_ceiling", "light.stove"])]
        assert then == [("turn_off", ["light.bed", "light.bed_ceiling"])], follow_up


def test_the_others_in_one_utterance_are_told_from_the_command_before() -> None:
    index = _lights_home()
    for text in (
        "turn on the kitchen lights and turn off the others",
        "turn on the kitchen lights and turn off all the other lights",
    ):
        ((on, off),) = _said(index, text)
        assert on == ("turn_on", ["light.kitchen_ceiling", "light.stove"])
        assert off == ("turn_off", ["light.bed", "light.bed_ceiling"]), text


def test_the_others_with_nothing_before_are_nothing() -> None:
    # Not every light, not "them": nothing tells which others.
    assert _said(_lights_home(), "turn off the others") == [[("turn_off", [])]]


def test_the_others_stage_leaves_out_the_last_turn_and_keeps_its_input(
    lexicons: LexiconSet,
) -> None:
    last = QueryIR(raw="", action="turn_on", type_groups=[("light",)])
    ctx = run_context(_lights_home(), lexicons, state=_after(last, ["light.stove"]))
    said = QueryIR(raw="turn off the others", action="turn_off", notes=[Note.OTHERS])
    taken = others_than_last_turn(said, ctx, None)
    assert [set(m.entity_ids) for m in taken.exclude_mentions] == [{"light.stove"}]
    assert taken.type_groups == [("light",)]  # the kind the last command was about
    assert said.exclude_mentions == [] and said.type_groups == []
    # A kind said is kept; without the word "others" nothing changes.
    fans = replace(said, type_groups=[("fan",)])
    assert others_than_last_turn(fans, ctx, None).type_groups == [("fan",)]
    plain = replace(said, notes=[])
    assert others_than_last_turn(plain, ctx, None) is plain


def test_the_other_light_in_the_singular_asks_which() -> None:
    index = _lights_home()
    state = ConversationState()
    retrieve("turn on the stove light", index, state=state)
    (result,) = retrieve("turn on the other light", index, state=state)
    assert result.selected_ids == []
    assert result.clarification is not None
    offered = {o.entity_id for o in result.clarification.options}
    assert "light.stove" not in offered


def _lamps_home() -> DeviceIndex:
    devices = [
        make_device("light.bed_lamp", "Desk Lamp", BEDROOM),
        make_device("light.bed_ceiling", "Ceiling", BEDROOM),
        make_device("light.kitchen_lamp", "Desk Lamp", KITCHEN),
        make_device("light.kitchen_ceiling", "Ceiling", KITCHEN),
        make_device("light.stove", "Stove Light", KITCHEN),
    ]
    return DeviceIndex.build(devices, [BEDROOM, KITCHEN], language="en")


def test_the_one_in_another_room_after_a_name_is_the_device_so_named_there() -> None:
    # "turn on the kitchen one too" after the bedroom's desk lamp switched every kitchen light.
    index = _lamps_home()
    for follow_up in ("turn on the kitchen one too", "and the kitchen one", "and the kitchen"):
        said = _said(index, "turn on the desk lamp in the bedroom", follow_up)
        assert said[1] == [("turn_on", ["light.kitchen_lamp"])], follow_up


def test_after_a_kind_or_several_devices_the_room_takes_the_kind() -> None:
    index = _lamps_home()
    every = ["light.kitchen_ceiling", "light.kitchen_lamp", "light.stove"]
    assert _said(index, "turn on the bedroom lights", "and the kitchen")[1] == [("turn_on", every)]
    # Two devices named before: no one name to look for.
    said = _said(index, "turn on the desk lamp and the ceiling in the bedroom", "and the kitchen")
    assert said[1] == [("turn_on", every)]


def test_a_room_without_the_name_takes_the_kind() -> None:
    index = _lamps_home()
    said = _said(index, "turn on the stove light", "and the bedroom")
    assert said[1] == [("turn_on", ["light.bed_ceiling", "light.bed_lamp"])]


def test_the_left_one_after_the_right_one_is_never_the_right_one() -> None:
    # "left" was a word of values, so nothing was said but "one": the lamp just switched off
    # went on again.
    index = DeviceIndex.build(
        [
            make_device("light.left", "Left Bedside Lamp", BEDROOM),
            make_device("light.right", "Right Bedside Lamp", BEDROOM),
        ],
        [BEDROOM],
        language="en",
    )
    for follow_up in ("turn on the left one", "turn on the left one as well"):
        said = _said(index, "turn off the right bedside lamp", follow_up)
        assert said[1] == [("turn_on", ["light.left"])], follow_up


def test_words_said_alone_are_a_sibling_only_when_one_device_of_the_room_has_them() -> None:
    kitchen_lamp = make_device("light.kitchen_left", "Left Lamp", KITCHEN)
    index = DeviceIndex.build(
        [
            make_device("light.left", "Left Bedside Lamp", BEDROOM),
            make_device("light.left_reading", "Left Reading Lamp", BEDROOM),
            make_device("light.right", "Right Bedside Lamp", BEDROOM),
            kitchen_lamp,
        ],
        [BEDROOM, KITCHEN],
        language="en",
    )
    # Two lamps of the bedroom hold "left": no guess; the kitchen's is in another room.
    said = _said(index, "turn off the right bedside lamp", "turn on the left one")
    assert "light.right" not in said[1][0][1]
    assert "light.kitchen_left" not in said[1][0][1]
