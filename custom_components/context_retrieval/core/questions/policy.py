"""Which plan answers a question, and what is kept of it afterwards.

The order is fixed: the cache (`cached_choice`: the exact normalised question → a nearly
identical one that names the same things → a full-text match that names the same things), then
the deterministic compiler when it is sure (`compiled_choice`), then a model if one is set up.
An unsure reading is never run: a wrong answer said with confidence ("There are no lux.") is
worse than saying the question was not understood.

"Names the same things" means equal slots (`CompiledQuestion.slots`): "which lights are on
upstairs?" and "which lights are on downstairs?" are nearly the same text but must never share
a plan. The Home Assistant glue and `bench.queries` both decide through this module, so the
benchmark measures what the integration does.

A cached plan may name entities (the question's slots, `entity_id` filters) that were exposed
when it was stored and are not any more: `named_entities` lists them, and the glue neither
serves nor shows such a plan (`allowed`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .compiler import CompiledQuestion
from .executor import QueryResult
from .plan import PlanError, QueryPlan, validate_plan
from .store import PlanStore
from .store_schema import StoredPlan

# A cached question at least this similar (cosine of the hashed n-gram vectors) is reused
# without asking, when it names the same things.
AUTO_USE_SIMILARITY = 0.95
# How many similar or full-text matches are looked at.
CANDIDATES = 5
# Where a plan came from, when it came from the cache.
CACHED_SOURCES = frozenset({"exact", "similar", "full_text"})


@dataclass(slots=True)
class Choice:
    """The plan chosen for a question and where it came from."""

    plan: QueryPlan
    source: str  # exact | similar | full_text | deterministic | llm
    stored: StoredPlan | None = None
    similarity: float | None = None
    note: str | None = None

    @property
    def cached(self) -> bool:
        return self.source in CACHED_SOURCES

    @property
    def save_as(self) -> str:
        """The source a new plan is stored under (`PLAN_SOURCES`)."""
        return "llm" if self.source == "llm" else "deterministic"


def stored_slots(compiled: CompiledQuestion) -> dict[str, Any]:
    """What is stored beside a plan so a later question can tell whether it may reuse it."""
    return {"slots": list(compiled.slots)}


def same_slots(stored: StoredPlan, slots: Sequence[str]) -> bool:
    """A stored plan answers these slots only if it was made for the same, non-empty ones."""
    return list(stored.slots.get("slots", [])) == list(slots) and bool(slots)


def usable(stored: StoredPlan, type_ids: Iterable[str]) -> QueryPlan | None:
    """The stored plan, if it still validates (it may be edited by hand, or older)."""
    try:
        return validate_plan(stored.plan, frozenset(type_ids))
    except PlanError:
        return None


def plan_entities(plan: Mapping[str, Any]) -> set[str]:
    """The entity ids a plan's filters name (`eq`, `ne`, `in` on `entity_id`)."""
    named: set[str] = set()
    for clause in plan.get("where") or ():
        for item in clause if isinstance(clause, list) else ():
            if not isinstance(item, Mapping) or item.get("field") != "entity_id":
                continue
            if item.get("op") not in ("eq", "ne", "in"):
                continue
            value = item.get("value")
            values = value if isinstance(value, list) else [value]
            named |= {v for v in values if isinstance(v, str)}
    return named


def named_entities(stored: StoredPlan) -> set[str]:
    """The entity ids a stored plan names: in the slots it was stored for, and its plan."""
    slots = stored.slots.get("slots", []) if isinstance(stored.slots, Mapping) else []
    named = {s[len("entity:") :] for s in slots if isinstance(s, str) and s.startswith("entity:")}
    return named | plan_entities(stored.plan)


def cached_choice(
    store: PlanStore,
    question: str,
    language: str,
    slots: Sequence[str],
    type_ids: Iterable[str],
    *,
    auto_use: float = AUTO_USE_SIMILARITY,
    limit: int = CANDIDATES,
    allowed: Callable[[StoredPlan], bool] | None = None,
) -> Choice | None:
    """Exact → similar (≥ `auto_use`, same slots) → full text (same slots); None on a miss.
    A stored plan `allowed` refuses is passed over. Blocking (SQLite): the integration runs it
    in the executor."""
    types = frozenset(type_ids)

    def fits(stored: StoredPlan) -> QueryPlan | None:
        if allowed is not None and not allowed(stored):
            return None
        return usable(stored, types)

    exact = store.exact(question, language)
    if exact is not None and (plan := fits(exact)) is not None:
        return Choice(plan, "exact", exact, similarity=1.0)
    for stored, similarity in store.similar(question, language, limit=limit, threshold=auto_use):
        if same_slots(stored, slots) and (plan := fits(stored)) is not None:
            return Choice(plan, "similar", stored, similarity=similarity)
    for stored in store.full_text(question, language, limit=limit):
        if same_slots(stored, slots) and (plan := fits(stored)) is not None:
            return Choice(plan, "full_text", stored)
    return None


def compiled_choice(compiled: CompiledQuestion) -> Choice | None:
    """The compiler's plan, only when it understood every word of the question."""
    if compiled.plan is not None and compiled.confident:
        return Choice(compiled.plan, "deterministic")
    return None


def newer_reading(found: Choice, compiled: CompiledQuestion) -> Choice | None:
    """The compiler's plan instead of the one it stored for this very question, when it now
    reads the question otherwise (a newer version: "which doors are unlocked?" once read the
    door contacts); a plan from a model or written by hand stays."""
    stored = found.stored
    if found.source != "exact" or stored is None or stored.source != "deterministic":
        return None
    fresh = compiled_choice(compiled)
    if fresh is None or fresh.plan.as_dict() == found.plan.as_dict():
        return None
    return fresh


def result_summary(result: QueryResult) -> dict[str, Any]:
    """What the cache keeps of the last answer (no rows: they may name people and rooms)."""
    return {
        "count": result.count,
        "aggregate": result.aggregate,
        "value": result.value,
        "unit": result.unit,
    }
