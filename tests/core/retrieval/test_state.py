"""core/retrieval/state.py: what "it"/"them"/"它" mean, and the question we are waiting on."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core.base.models import QueryIR
from custom_components.context_retrieval.core.retrieval.results import (
    ClarificationOption,
    ClarificationRequest,
)
from custom_components.context_retrieval.core.retrieval.state import ConversationState


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def state(clock: Clock) -> ConversationState:
    return ConversationState(clock=clock)


def question() -> ClarificationRequest:
    return ClarificationRequest(
        question="Which one do you mean: Ceiling Light in Kitchen or Ceiling Light in Bedroom?",
        options=[
            ClarificationOption("light.kitchen_ceiling", "Ceiling Light in Kitchen"),
            ClarificationOption("light.bedroom_ceiling", "Ceiling Light in Bedroom"),
        ],
    )


# ---- recent entities ------------------------------------------------------------------------


def test_remembers_five_entities_for_five_minutes_by_default():
    s = ConversationState()
    assert s.max_recent == 5
    assert s.ttl_seconds == 300


def test_fresh_state_remembers_nothing(state: ConversationState):
    assert state.recent_entity_ids == []
    assert state.last_turn() == []
    assert state.take_pending() is None


def test_remember_then_recall(state: ConversationState):
    state.remember(["light.lamp"])
    assert state.recent_entity_ids == ["light.lamp"]


def test_newest_first(state: ConversationState):
    state.remember(["light.lamp"])
    state.remember(["climate.ac"])
    assert state.recent_entity_ids == ["climate.ac", "light.lamp"]


def test_mentioning_again_moves_to_the_front_without_duplicates(state: ConversationState):
    state.remember(["light.a"])
    state.remember(["light.b"])
    state.remember(["light.a"])
    assert state.recent_entity_ids == ["light.a", "light.b"]


def test_at_most_five_recent(state: ConversationState):
    for i in range(8):
        state.remember([f"light.l{i}"])
    assert state.recent_entity_ids == ["light.l7", "light.l6", "light.l5", "light.l4", "light.l3"]


def test_one_big_selection_is_also_capped(state: ConversationState):
    state.remember([f"light.l{i}" for i in range(8)])
    assert len(state.recent_entity_ids) == 5
    assert state.recent_entity_ids[0] == "light.l0"


def test_custom_limit(clock: Clock):
    s = ConversationState(max_recent=2, clock=clock)
    s.remember(["a"])
    s.remember(["b"])
    s.remember(["c"])
    assert s.recent_entity_ids == ["c", "b"]


def test_duplicates_inside_one_selection_count_once(state: ConversationState):
    state.remember(["light.a", "light.b", "light.a"])
    assert state.recent_entity_ids == ["light.a", "light.b"]
    assert state.last_turn() == ["light.a", "light.b"]


def test_an_empty_turn_does_not_erase_memory(state: ConversationState):
    state.remember(["light.lamp"])
    state.remember([])
    assert state.recent_entity_ids == ["light.lamp"]
    assert state.last_turn() == ["light.lamp"]


# ---- time to live ---------------------------------------------------------------------------


def test_memory_lasts_five_minutes(state: ConversationState, clock: Clock):
    state.remember(["light.lamp"])
    clock.advance(299)
    assert state.recent_entity_ids == ["light.lamp"]
    assert state.last_turn() == ["light.lamp"]


def test_memory_expires_after_five_minutes(state: ConversationState, clock: Clock):
    state.remember(["light.lamp"])
    clock.advance(301)
    assert state.recent_entity_ids == []
    assert state.last_turn() == []


def test_each_entity_expires_on_its_own(state: ConversationState, clock: Clock):
    state.remember(["light.old"])
    clock.advance(200)
    state.remember(["light.new"])
    clock.advance(150)
    assert state.recent_entity_ids == ["light.new"]


def test_mentioning_again_refreshes_the_clock(state: ConversationState, clock: Clock):
    state.remember(["light.lamp"])
    clock.advance(250)
    state.remember(["light.lamp"])
    clock.advance(250)
    assert state.recent_entity_ids == ["light.lamp"]


def test_custom_ttl(clock: Clock):
    s = ConversationState(ttl_seconds=10, clock=clock)
    s.remember(["light.lamp"])
    clock.advance(11)
    assert s.recent_entity_ids == []


# ---- the whole last selection ---------------------------------------------------------------


def test_last_turn_keeps_a_whole_multi_entity_selection(state: ConversationState):
    # "turn off all the lights" then "turn them back on": all eight, not just five.
    lights = [f"light.l{i}" for i in range(8)]
    state.remember(lights)
    assert state.last_turn() == lights


def test_last_turn_is_only_the_latest_turn(state: ConversationState):
    state.remember(["light.a", "light.b"])
    state.remember(["climate.ac"])
    assert state.last_turn() == ["climate.ac"]


def test_last_turn_is_a_copy(state: ConversationState):
    state.remember(["light.a"])
    state.last_turn().append("light.b")
    assert state.last_turn() == ["light.a"]


# ---- pending clarification ------------------------------------------------------------------


def test_pending_question_is_taken_once(state: ConversationState):
    ir = QueryIR(raw="turn on the ceiling light", action="turn_on")
    state.set_pending(question(), ["light.kitchen_ceiling", "light.bedroom_ceiling"], ir)
    pending = state.take_pending()
    assert pending is not None
    assert pending.candidate_ids == ["light.kitchen_ceiling", "light.bedroom_ceiling"]
    assert pending.ir.action == "turn_on"
    assert pending.primary == pending.candidate_ids
    assert state.take_pending() is None


def test_pending_keeps_the_tied_candidates_apart(state: ConversationState):
    state.set_pending(
        question(),
        ["light.a", "light.b", "light.c"],
        QueryIR(raw="x"),
        primary=["light.a", "light.b"],
    )
    pending = state.take_pending()
    assert pending is not None
    assert pending.primary == ["light.a", "light.b"]


def test_pending_question_expires(state: ConversationState, clock: Clock):
    state.set_pending(question(), ["light.a"], QueryIR(raw="x"))
    clock.advance(301)
    assert state.take_pending() is None
    clock.now -= 301  # even if the clock were to agree again, it is gone
    assert state.take_pending() is None


def test_pending_question_answered_in_time(state: ConversationState, clock: Clock):
    state.set_pending(question(), ["light.a"], QueryIR(raw="x"))
    clock.advance(120)
    assert state.take_pending() is not None


def test_new_question_replaces_the_old(state: ConversationState):
    state.set_pending(question(), ["light.a"], QueryIR(raw="first"))
    state.set_pending(question(), ["light.b"], QueryIR(raw="second"))
    pending = state.take_pending()
    assert pending is not None
    assert pending.ir.raw == "second"


# ---- forget / clear -------------------------------------------------------------------------


def test_forget_drops_entities_that_no_longer_exist(state: ConversationState):
    state.remember(["light.a", "light.b"])
    state.remember(["light.c"])
    state.forget({"light.b"})
    assert state.recent_entity_ids == ["light.c", "light.a"]
    state.remember(["light.x", "light.gone"])
    state.forget({"light.gone"})
    assert state.last_turn() == ["light.x"]


def test_clear_forgets_everything(state: ConversationState):
    state.remember(["light.a"])
    state.set_pending(question(), ["light.a"], QueryIR(raw="x"))
    state.clear()
    assert state.recent_entity_ids == []
    assert state.last_turn() == []
    assert state.take_pending() is None


def test_only_fresh_memory_is_recalled(state: ConversationState, clock: Clock):
    state.remember(["light.a"])
    state.set_pending(
        question(), ["light.kitchen_ceiling", "light.bedroom_ceiling"], QueryIR(raw="x")
    )
    assert state.recent_entity_ids == ["light.a"]
    assert state.last_turn() == ["light.a"]
    assert state.pending is not None
    assert [o.entity_id for o in state.pending.request.options] == [
        "light.kitchen_ceiling",
        "light.bedroom_ceiling",
    ]
    clock.advance(301)
    assert state.recent_entity_ids == []
    assert state.last_turn() == []
