"""core/questions/policy.py: which plan answers a question (cache, compiler), and what is kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, LexiconSet
from custom_components.context_retrieval.core.questions.compiler import (
    CompiledQuestion,
    compile_question,
)
from custom_components.context_retrieval.core.questions.executor import QueryResult
from custom_components.context_retrieval.core.questions.plan import Filter, QueryPlan
from custom_components.context_retrieval.core.questions.policy import (
    Choice,
    cached_choice,
    compiled_choice,
    newer_reading,
    result_summary,
    same_slots,
    stored_slots,
)
from custom_components.context_retrieval.core.questions.store import PlanStore
from tests.core.conftest import make_device

LIGHTS_ON = QueryPlan(where=((Filter("type", "in", ("light",)), Filter("status", "eq", "on")),))
LOCKS = QueryPlan(where=((Filter("domain", "eq", "lock"),),), aggregate="count")
TYPES = frozenset({"light", "lock"})
UPSTAIRS = ("floor:up", "status:on", "type:light")
DOWNSTAIRS = ("floor:down", "status:on", "type:light")


@pytest.fixture
def store(tmp_path: Path):
    with PlanStore(tmp_path / "plans.db") as opened:
        yield opened


def test_the_exact_question_is_reused_whatever_its_slots(store: PlanStore) -> None:
    saved = store.save(
        "Which lights are on upstairs?", "en", LIGHTS_ON.as_dict(), "llm", {"slots": list(UPSTAIRS)}
    )
    choice = cached_choice(store, "which lights are on upstairs", "en", (), TYPES)
    assert choice is not None and choice.source == "exact" and choice.stored == saved
    assert choice.plan == LIGHTS_ON and choice.similarity == 1.0 and choice.cached
    assert cached_choice(store, "which lights are on upstairs", "zh", (), TYPES) is None


def test_a_similar_question_needs_the_same_slots(store: PlanStore) -> None:
    store.save(
        "Which lights are on upstairs right now?",
        "en",
        LIGHTS_ON.as_dict(),
        "llm",
        {"slots": list(UPSTAIRS)},
    )
    question = "which lights are on upstairs now?"
    same = cached_choice(store, question, "en", UPSTAIRS, TYPES, auto_use=0.8)
    assert same is not None and same.source == "similar"
    assert same.similarity is not None and 0.8 <= same.similarity < 1.0
    # Nearly the same words, another floor: never the same plan.
    assert cached_choice(store, question, "en", DOWNSTAIRS, TYPES, auto_use=0.8) is None
    # Below the auto-use similarity only a full-text match with equal slots remains.
    by_words = cached_choice(store, question, "en", UPSTAIRS, TYPES, auto_use=0.999)
    assert by_words is not None and by_words.source == "full_text"
    assert by_words.similarity is None


def test_empty_slots_never_match_a_stored_plan(store: PlanStore) -> None:
    stored = store.save("how many locks", "en", LOCKS.as_dict(), "deterministic", {"slots": []})
    assert not same_slots(stored, ())
    assert cached_choice(store, "how many locks are there", "en", (), TYPES, auto_use=0.5) is None


def test_a_stored_plan_that_no_longer_validates_is_skipped(store: PlanStore) -> None:
    store.save(
        "how many locks",
        "en",
        {"where": [[{"field": "colour", "op": "eq", "value": "red"}]]},
        "manual",
    )
    assert cached_choice(store, "how many locks", "en", (), TYPES) is None
    store.save("how many locks", "en", LOCKS.as_dict(), "manual")
    choice = cached_choice(store, "how many locks", "en", (), TYPES)
    assert choice is not None and choice.plan == LOCKS


def test_only_a_confident_compiled_plan_is_chosen(lexicons: LexiconSet) -> None:
    hall = Area("hall", "Hall")
    index = DeviceIndex.build(
        [make_device("lock.front", "Front Door", hall)], [hall], [], language="en"
    )
    sure = compile_question("How many locks are there?", index, lexicons)
    choice = compiled_choice(sure)
    assert choice is not None and choice.source == "deterministic" and not choice.cached
    assert choice.plan == sure.plan and choice.save_as == "deterministic"
    unsure = CompiledQuestion(plan=sure.plan, confident=False, language="en", is_question=True)
    assert compiled_choice(unsure) is None
    assert compiled_choice(CompiledQuestion(None, True, "en", True)) is None


def test_what_is_kept_of_a_question_and_its_answer() -> None:
    compiled = CompiledQuestion(
        plan=LOCKS, confident=True, language="en", is_question=True, slots=("count", "type:lock")
    )
    assert stored_slots(compiled) == {"slots": ["count", "type:lock"]}
    result = QueryResult(
        rows=[{"entity_id": "lock.front", "name": "Front Door"}],
        count=1,
        aggregate="count",
        value=None,
        unit=None,
    )
    assert result_summary(result) == {"count": 1, "aggregate": "count", "value": None, "unit": None}
    assert Choice(LOCKS, "llm").save_as == "llm"
    assert Choice(LOCKS, "similar").save_as == "deterministic"


@pytest.mark.parametrize(
    ("source", "replaced"), [("deterministic", True), ("llm", False), ("manual", False)]
)
def test_a_plan_the_compiler_now_reads_otherwise_is_replaced(
    store: PlanStore, source: str, replaced: bool
) -> None:
    """A cache filled by an older version ("are all the doors locked?" once read as "is any")
    is not served when the compiler now makes another plan; a model's or a hand-written plan
    stays."""
    stale = QueryPlan(where=((Filter("type", "in", ("lock",)), Filter("status", "eq", "locked")),))
    store.save("are all the locks locked?", "en", stale.as_dict(), source)
    found = cached_choice(store, "are all the locks locked?", "en", (), TYPES)
    assert found is not None and found.source == "exact"
    now = QueryPlan(where=((Filter("type", "in", ("lock",)),),), expect="locked")
    compiled = CompiledQuestion(plan=now, confident=True, language="en", is_question=True)
    newer = newer_reading(found, compiled)
    assert (newer is not None and newer.plan == now and newer.source == "deterministic") is replaced
    # The same reading: the cached plan serves.
    same = CompiledQuestion(plan=stale, confident=True, language="en", is_question=True)
    assert newer_reading(found, same) is None
    # An unsure reading never replaces anything.
    unsure = CompiledQuestion(plan=now, confident=False, language="en", is_question=True)
    assert newer_reading(found, unsure) is None
