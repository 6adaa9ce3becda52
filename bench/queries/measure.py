"""One size and language timed: compile + execute, a cache hit, a similar-question lookup."""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from custom_components.context_retrieval.core import (
    DeviceIndex,
    LexiconSet,
    default_lexicons,
)
from custom_components.context_retrieval.core.questions.answer import answer
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import execute
from custom_components.context_retrieval.core.questions.matching import RowIndex
from custom_components.context_retrieval.core.questions.plan import (
    PlanError,
    QueryPlan,
    validate_plan,
)
from custom_components.context_retrieval.core.questions.policy import cached_choice
from custom_components.context_retrieval.core.questions.rows import RowCache, StateRow
from custom_components.context_retrieval.core.questions.store import PlanStore

from ..report import percentile
from .questions import PREFIXES, bench_home, filler_questions, questions_for, state_rows

STORED_PLANS = 1000


def _timed(fn: Callable[[str], object], question: str) -> float:
    started = time.perf_counter()
    fn(question)
    return (time.perf_counter() - started) * 1000


class _State:
    """A stand-in for Home Assistant's `State`: what `RowCache` reads."""

    __slots__ = ("attributes", "last_changed", "state")

    def __init__(self, state: str, attributes: Any) -> None:
        self.state = state
        self.attributes = attributes
        self.last_changed = None


def measure(
    size: int,
    language: str,
    runs: int,
    seed: int,
    lexicons: LexiconSet | None = None,
    stored: int = STORED_PLANS,
) -> dict[str, Any]:
    lexicons = lexicons or default_lexicons()
    raw = bench_home(size, language, seed)
    home, rows = state_rows(raw)
    index = DeviceIndex.build(home.devices, home.areas, home.floors, lexicons, language=language)
    lex = lexicons.get(language)
    types = lexicons.types
    type_ids = frozenset(types.types)
    pool = questions_for(raw, language, seed)
    # Kept per index build in Home Assistant, like the index itself: not part of a question.
    row_index = RowIndex(rows)
    # The live states as Home Assistant holds them: one object per entity, replaced on every
    # change. Each timed question first refreshes the rows (`RowCache`, as the integration
    # does) after 1 % of the states changed.
    states = {r.entity_id: _State(r.state, r.attributes) for r in rows}
    row_cache = RowCache()
    churn = random.Random(seed)
    ids = list(states)

    def live_rows() -> list[StateRow]:
        changed = churn.sample(ids, max(1, len(ids) // 100))
        for entity_id in changed:
            old = states[entity_id]
            states[entity_id] = _State(old.state, old.attributes)
        # The integration knows what changed from `state_changed` events.
        return row_cache.rows(index, home.devices, states.get, changed)

    live_rows()  # the first question after a start builds every row

    def compile_execute(question: str) -> str | None:
        current = live_rows()
        compiled = compile_question(question, index, lexicons, language)
        if compiled.plan is None:
            return None
        return answer(
            compiled.plan, execute(compiled.plan, current, types, row_index=row_index), lex
        )

    # One untimed pass: warms the lexicon and regex caches, and gives the plans to store.
    # A plan `validate_plan` rejects could never be reused from the cache: it is not stored
    # (and counted as uncacheable).
    plans: dict[str, QueryPlan] = {}
    confident = planned = 0
    uncacheable: list[str] = []
    for question in pool:
        compiled = compile_question(question, index, lexicons, language)
        confident += compiled.confident
        if compiled.plan is None:
            continue
        planned += 1
        answer(compiled.plan, execute(compiled.plan, rows, types, row_index=row_index), lex)
        try:
            validate_plan(compiled.plan.as_dict(), type_ids)
        except PlanError:
            uncacheable.append(question)
        else:
            plans[question] = compiled.plan
    if not plans:
        raise RuntimeError(f"no question of the {language} pool has a cacheable plan")

    compiled_ms = [_timed(compile_execute, pool[i % len(pool)]) for i in range(runs)]

    cached_ms: list[float] = []
    similar_ms: list[float] = []
    hits = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = PlanStore(Path(tmp) / "plans.db")
        store.open()
        try:
            fallback = next(iter(plans.values()))
            for question, plan in plans.items():
                store.save(question, language, plan.as_dict(), "deterministic")
            for question in filler_questions(raw, language, pool, stored - len(plans), seed):
                compiled = compile_question(question, index, lexicons, language)
                plan = compiled.plan or fallback
                try:
                    validate_plan(plan.as_dict(), type_ids)
                except PlanError:
                    plan = fallback
                store.save(question, language, plan.as_dict(), "deterministic")
            n_stored = int(store.stats()["count"])
            cached_pool = list(plans)

            def cached(question: str) -> str:
                # The integration's lookup; a pool question is stored word for word, so the
                # first step (the exact question) finds it.
                choice = cached_choice(store, question, language, (), type_ids)
                if choice is None or choice.source != "exact":
                    raise RuntimeError(f"cache miss for a stored question: {question!r}")
                return answer(
                    choice.plan, execute(choice.plan, live_rows(), types, row_index=row_index), lex
                )

            for question in cached_pool:  # warm SQLite's page cache and the statement cache
                cached(question)
            cached_ms = [_timed(cached, cached_pool[i % len(cached_pool)]) for i in range(runs)]

            prefixes = PREFIXES[language]
            for i in range(runs):
                question = prefixes[i % len(prefixes)] + pool[i % len(pool)]
                started = time.perf_counter()
                found = store.similar(question, language)
                similar_ms.append((time.perf_counter() - started) * 1000)
                hits += bool(found)
        finally:
            store.close()
    return {
        "size": size,
        "language": language,
        "questions": len(pool),
        "confident": 100.0 * confident / len(pool),
        "planned": planned,
        "uncacheable": uncacheable,
        "stored": n_stored,
        "similar_hits": 100.0 * hits / max(1, runs),
        **_stats("compile", compiled_ms),
        **_stats("cached", cached_ms),
        **_stats("similar", similar_ms),
    }


def _stats(name: str, values: list[float]) -> dict[str, float]:
    return {
        f"{name}_p50": percentile(values, 0.5),
        f"{name}_p95": percentile(values, 0.95),
        f"{name}_max": max(values, default=0.0),
    }
