"""Natural questions in Home Assistant: the plan cache, compile or ask a model,
execute read-only over the exposed entities' states, answer in the asker's language.

Lookup order for a question: the exact normalised question in the cache → a cached question
that is nearly the same (vector similarity ≥ the auto-use threshold) *and* names the same
things (equal slots) → a full-text match with equal slots → the deterministic compiler → the
configured language model. New plans are saved; a plan that fails when executed is marked
invalid and never served again. A plan that names an entity no longer exposed to Assist is
neither served nor listed, suggested or shown (the cache keeps it: exposed again, it is back).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import CALLBACK_TYPE, Event, EventStateChangedData, HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir

from .const import (
    LOGGER,
    MAX_QUESTION_CHARS,
    MAX_SHOWN_NAME_CHARS,
    QUERY_DB_FILE,
    QUERY_TIMINGS_KEPT,
)
from .core import DeviceIndex, default_lexicons
from .core.base.llm_json import LLMClient
from .core.base.redact import clean, query_hash, redact
from .core.questions.answer import answer
from .core.questions.compiler import CompiledQuestion, compile_question
from .core.questions.executor import QueryResult, QueryTimeout, execute
from .core.questions.llm import plan_with_llm
from .core.questions.matching import RowIndex
from .core.questions.plan import PlanError, QueryPlan, validate_plan
from .core.questions.policy import (
    Choice,
    cached_choice,
    compiled_choice,
    named_entities,
    newer_reading,
    plan_entities,
    result_summary,
    stored_slots,
)
from .core.questions.rows import RowCache, StateRow
from .core.questions.store import NewerSchemaError, PlanNotFound, PlanStore, PlanStoreError
from .core.questions.store_schema import StoredPlan
from .core.questions.vocabulary import home_vocabulary
from .errors import service_error as _error
from .registry import IndexManager
from .store_issues import async_store_opened, async_store_unavailable

ISSUE_RECOVERED = "query_store_recovered"
PLAN_SCAN_BATCH = 500  # plans read at once when a listing looks through the cache
ISSUE_UNAVAILABLE = "query_store_unavailable"


@dataclass(slots=True)
class QueryMetrics:
    """How questions were answered, for diagnostics (no question text)."""

    asked: int = 0
    answered: int = 0
    from_cache: int = 0
    compiled: int = 0
    from_llm: int = 0
    failed: int = 0
    invalidated: int = 0
    milliseconds: deque[float] = field(default_factory=lambda: deque(maxlen=QUERY_TIMINGS_KEPT))

    def as_dict(self) -> dict[str, Any]:
        ordered = sorted(self.milliseconds)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else None
        return {
            "asked": self.asked,
            "answered": self.answered,
            "from_cache": self.from_cache,
            "compiled": self.compiled,
            "from_llm": self.from_llm,
            "failed": self.failed,
            "invalidated": self.invalidated,
            "p95_ms": round(p95, 3) if p95 is not None else None,
        }


@dataclass(repr=False)
class QueryManager:
    """Owns the plan store while the entry is loaded."""

    def __repr__(self) -> str:  # cheap: callbacks and jobs are named after it on the loop
        return "<QueryManager>"

    hass: HomeAssistant
    manager: IndexManager
    llm: LLMClient | None
    language: str | None
    llm_timeout: float
    auto_use: float
    suggest_threshold: float
    suggest_limit: int
    store: PlanStore | None = None
    read_only: bool = False
    metrics: QueryMetrics = field(default_factory=QueryMetrics)
    # What the rows are made of: an index build, less the entities withdrawn since.
    _row_owner: tuple[DeviceIndex, frozenset[str]] | None = None
    _row_index: tuple[tuple[DeviceIndex, frozenset[str]], RowIndex] | None = None
    _row_cache: RowCache = field(default_factory=RowCache)
    # Entities whose state changed since the last question: rows are refreshed for those only.
    _changed: set[str] = field(default_factory=set)
    _changed_lock: threading.Lock = field(default_factory=threading.Lock)
    _unsub_states: CALLBACK_TYPE | None = None

    async def async_start(self) -> None:
        self._unsub_states = self.hass.bus.async_listen(
            EVENT_STATE_CHANGED, self._async_state_changed
        )
        store = PlanStore(Path(self.hass.config.path(QUERY_DB_FILE)))
        try:
            report = await self.hass.async_add_executor_job(store.open)
        except PlanStoreError as err:
            LOGGER.error("The question cache is unavailable: %s", err)
            async_store_unavailable(self.hass, ISSUE_UNAVAILABLE, err, ir.IssueSeverity.WARNING)
            return
        async_store_opened(self.hass, report, ISSUE_UNAVAILABLE, ISSUE_RECOVERED)
        self.read_only = report.read_only
        self.store = store

    async def async_stop(self) -> None:
        if self._unsub_states is not None:
            self._unsub_states()
            self._unsub_states = None
        if self.store is not None:
            store, self.store = self.store, None
            await self.hass.async_add_executor_job(store.close)

    def _index(self) -> DeviceIndex:
        index = self.manager.index
        if index is None:
            raise _error("index_not_ready")
        return index

    def _store(self) -> PlanStore:
        if self.store is None:
            raise _error("query_store_unavailable")
        return self.store

    def _allowed(self) -> Callable[[StoredPlan], bool]:
        """Whether a stored plan may be served or shown: every entity it names is exposed
        to Assist now. Safe to call from a worker thread."""
        visible = self.manager.visible()
        return lambda stored: all(visible(e) for e in named_entities(stored))

    # --- asking --------------------------------------------------------------------------

    def compile(self, question: str, language: str | None) -> CompiledQuestion:
        """The deterministic reading (milliseconds; callers in the event loop use the
        executor)."""
        return compile_question(
            question, self._index(), default_lexicons(), language or self.language
        )

    async def async_ask(
        self, question: str, language: str | None = None, compiled: CompiledQuestion | None = None
    ) -> dict[str, Any]:
        """Answer a question: `{success, human, raw, plan_id, cached, plan, …}`."""
        question = (question or "").strip()
        if not question:
            raise _error("empty_text")
        if len(question) > MAX_QUESTION_CHARS:
            raise _error("text_too_long", limit=str(MAX_QUESTION_CHARS))
        started = time.perf_counter()
        index = self._index()
        self.metrics.asked += 1
        if compiled is None:
            compiled = await self.hass.async_add_executor_job(self.compile, question, language)
        lang = compiled.language
        lex = index.lexicons.get(lang)
        if compiled.command:
            # An order is no question: no cached, compiled or model plan answers it, and
            # nothing is stored (a saved "turn on the kitchen light" would be served again).
            self.metrics.failed += 1
            return self._failure(lang, "command", lex.message("q_command"), compiled)
        choice = await self._async_choose(question, compiled, index)
        if choice is None:
            self.metrics.failed += 1
            failure = self._failure(
                lang, "not_understood", lex.message("q_not_understood"), compiled
            )
            visible = self.manager.visible()
            if compiled.plan is not None and all(
                visible(e) for e in plan_entities(compiled.plan.as_dict())
            ):
                failure["draft_plan"] = compiled.plan.as_dict()  # for a hand-made plan
            return failure
        try:
            result: QueryResult = await self.hass.async_add_executor_job(
                self._run, choice.plan, index
            )
        except QueryTimeout:
            return await self._async_failed(
                choice, lang, "timeout", lex.message("q_timeout"), compiled
            )
        except Exception as err:  # a plan that breaks on this home must not break the caller
            LOGGER.warning("A question plan failed: %s", type(err).__name__)
            human = (
                lex.message("q_invalid_plan")
                if choice.stored
                else lex.message("q_failed", reason=type(err).__name__)
            )
            return await self._async_failed(
                choice, lang, f"execution_error: {err}", human, compiled
            )
        human = answer(choice.plan, result, lex)
        LOGGER.debug(
            "question %s (%s): %s plan, %d row(s)",
            query_hash(question),
            lang,
            choice.source,
            result.count,
        )
        plan_id = await self._async_remember(question, lang, compiled, choice, result)
        self.metrics.answered += 1
        self.metrics.milliseconds.append((time.perf_counter() - started) * 1000)
        response: dict[str, Any] = {
            "success": True,
            "human": redact(human),
            "raw": _redacted(result.as_dict()),
            "plan_id": plan_id,
            "cached": choice.cached,
            "source": choice.source,
            "plan": choice.plan.as_dict(),
            "language": lang,
        }
        if choice.similarity is not None:
            response["similarity"] = round(choice.similarity, 4)
            response["high_confidence"] = choice.similarity >= self.auto_use
        if choice.note:
            response["note"] = redact(choice.note)
        return response

    async def _async_choose(
        self, question: str, compiled: CompiledQuestion, index: DeviceIndex
    ) -> Choice | None:
        """The plan to run; none that names an entity taken from Assist since the index was
        built (the compiler and a model read that index)."""
        choice = await self._async_choose_any(question, compiled, index)
        visible = self.manager.visible()
        if choice is not None and not all(visible(e) for e in plan_entities(choice.plan.as_dict())):
            return None
        return choice

    async def _async_choose_any(
        self, question: str, compiled: CompiledQuestion, index: DeviceIndex
    ) -> Choice | None:
        store = self.store
        type_ids = frozenset(index.lexicons.types.types)
        if store is not None:
            found = await self.hass.async_add_executor_job(
                self._cached, store, question, compiled, type_ids
            )
            if found is not None and (newer := newer_reading(found, compiled)) is not None:
                self.metrics.compiled += 1
                return newer
            if found is not None:
                self.metrics.from_cache += 1
                return found
        if (choice := compiled_choice(compiled)) is not None:
            self.metrics.compiled += 1
            return choice
        if self.llm is not None:
            vocabulary = home_vocabulary(index, index.lexicons)
            outcome = await plan_with_llm(
                question, compiled.language, vocabulary, type_ids, self.llm, self.llm_timeout
            )
            if outcome.plan is not None:
                self.metrics.from_llm += 1
                return Choice(outcome.plan, "llm", note=outcome.note)
            LOGGER.debug("The model gave no usable plan: %s", outcome.error_code)
        # An unsure reading is not run: a wrong answer said with confidence ("There are no
        # lux.") is worse than saying it was not understood.
        return None

    def _cached(
        self, store: PlanStore, question: str, compiled: CompiledQuestion, type_ids: frozenset[str]
    ) -> Choice | None:
        """Exact → similar (≥ auto-use, same slots) → full text (same slots). Runs in the
        executor (SQLite)."""
        return cached_choice(
            store,
            question,
            compiled.language,
            compiled.slots,
            type_ids,
            auto_use=self.auto_use,
            limit=self.suggest_limit,
            allowed=self._allowed(),
        )

    def _run(self, plan: QueryPlan, index: DeviceIndex) -> QueryResult:
        """Rows of the live states, and the plan over them (in the executor: thousands of
        rows). The row index is kept per index build: the home changes, states do not."""
        withdrawn = self.manager.withdrawn
        owner = self._row_owner
        if owner is None or owner[0] is not index or owner[1] != withdrawn:
            owner = self._row_owner = (index, withdrawn)
        rows = self._rows(owner)
        kept = self._row_index
        if kept is None or kept[0] is not owner:
            kept = self._row_index = (owner, RowIndex(rows))
        return execute(plan, rows, index.lexicons.types, row_index=kept[1])

    def _rows(self, owner: tuple[DeviceIndex, frozenset[str]]) -> list[StateRow]:
        """Exposed entities only (the index holds nothing else, less those withdrawn since),
        with their live states; a row is rebuilt only when its entity's state changed."""
        index, withdrawn = owner
        devices = index.devices()
        if withdrawn:
            devices = [d for d in devices if d.entity_id not in withdrawn]
        return self._row_cache.rows(
            owner,
            devices,
            self.hass.states.get,
            self._take_changed() if self._unsub_states else None,
        )

    @callback
    def _async_state_changed(self, event: Event[EventStateChangedData]) -> None:
        with self._changed_lock:
            self._changed.add(event.data["entity_id"])

    def _take_changed(self) -> set[str]:
        """The entities changed since the last question (read in the executor)."""
        with self._changed_lock:
            changed, self._changed = self._changed, set()
        return changed

    async def _async_remember(
        self,
        question: str,
        language: str,
        compiled: CompiledQuestion,
        choice: Choice,
        result: QueryResult,
    ) -> str | None:
        store = self.store
        if store is None or self.read_only:
            return choice.stored.id if choice.stored else None
        summary = result_summary(result)
        try:
            if choice.stored is not None:
                stored = await self.hass.async_add_executor_job(
                    store.record_use, choice.stored.id, summary
                )
            else:
                stored = await self.hass.async_add_executor_job(
                    partial(
                        store.save,
                        question,
                        language,
                        choice.plan.as_dict(),
                        choice.save_as,
                        stored_slots(compiled),
                    )
                )
                stored = await self.hass.async_add_executor_job(
                    store.record_use, stored.id, summary
                )
        except (PlanStoreError, NewerSchemaError) as err:
            LOGGER.warning("The question cache could not be updated: %s", err)
            return None
        return stored.id

    async def _async_failed(
        self, choice: Choice, language: str, error: str, human: str, compiled: CompiledQuestion
    ) -> dict[str, Any]:
        self.metrics.failed += 1
        if choice.stored is not None and self.store is not None and not self.read_only:
            try:
                await self.hass.async_add_executor_job(
                    self.store.invalidate, choice.stored.id, error
                )
                self.metrics.invalidated += 1
            except PlanStoreError as err:
                LOGGER.warning("Could not mark a failed plan invalid: %s", err)
        response = self._failure(language, error, human, compiled)
        response["plan"] = choice.plan.as_dict()
        response["plan_id"] = choice.stored.id if choice.stored else None
        return response

    @staticmethod
    def _failure(
        language: str, error: str, human: str, compiled: CompiledQuestion
    ) -> dict[str, Any]:
        return {
            "success": False,
            "error": redact(error),
            "human": redact(human),
            "raw": None,
            "plan_id": None,
            "cached": False,
            "plan": None,
            "language": language,
            "reason": compiled.reason,
        }

    # --- the cache services --------------------------------------------------------------

    async def async_suggest(
        self, question: str, limit: int | None, threshold: float | None
    ) -> dict[str, Any]:
        question = (question or "").strip()
        if not question:
            raise _error("empty_text")
        store = self._store()
        index = self._index()
        language = self.language or index.lexicons.detect(question)
        found = await self.hass.async_add_executor_job(
            partial(
                store.similar,
                question,
                language,
                limit or self.suggest_limit,
                self.suggest_threshold if threshold is None else threshold,
                True,
            )
        )
        # What is being typed ("which door…") is completed by the questions it begins.
        wanted = limit or self.suggest_limit
        if len(found) < wanted:
            begun = await self.hass.async_add_executor_job(
                partial(store.completing, question, language, wanted)
            )
            seen = {s.id for s, _ in found}
            found += [(s, sim) for s, sim in begun if s.id not in seen][: wanted - len(found)]
        allowed = self._allowed()
        found = [(s, sim) for s, sim in found if allowed(s)]
        return {
            "high_confidence": bool(found) and found[0][1] >= self.auto_use,
            "suggestions": [
                {
                    "id": s.id,
                    "question": redact(s.question),
                    "similarity": round(sim, 4),
                    "usage_count": s.usage_count,
                    "is_valid": s.is_valid,
                    "last_result": s.last_result,
                }
                for s, sim in found
            ],
        }

    async def async_list(self, limit: int, offset: int, language: str | None) -> dict[str, Any]:
        store = self._store()
        plans, total = await self.hass.async_add_executor_job(
            partial(_shown_page, store, self._allowed(), limit, offset, language)
        )
        return {"plans": [_describe(p) for p in plans], "total": total}

    async def async_get(self, plan_id: str) -> dict[str, Any]:
        stored = await self.hass.async_add_executor_job(self._store().get, plan_id)
        if stored is None or not self._allowed()(stored):
            raise _error("query_plan_not_found", plan_id=plan_id)
        return _describe(stored)

    async def async_update(self, plan_id: str, plan: Any, is_valid: bool | None) -> dict[str, Any]:
        store = self._store()
        if self.read_only:
            raise _error("query_store_read_only")
        checked: dict[str, Any] | None = None
        if plan is not None:
            try:
                checked = validate_plan(
                    plan, frozenset(self._index().lexicons.types.types)
                ).as_dict()
            except PlanError as err:
                # `reason` and `path` let the panel say it in the user's language.
                raise _error(
                    "query_plan_invalid", detail=str(err), reason=err.reason, path=err.path
                ) from err
        try:
            stored = await self.hass.async_add_executor_job(
                partial(store.update, plan_id, checked, is_valid)
            )
        except PlanNotFound as err:
            raise _error("query_plan_not_found", plan_id=plan_id) from err
        return _describe(stored)

    async def async_delete(self, plan_id: str) -> dict[str, Any]:
        store = self._store()
        if self.read_only:
            raise _error("query_store_read_only")
        deleted = await self.hass.async_add_executor_job(store.delete, plan_id)
        if not deleted:
            raise _error("query_plan_not_found", plan_id=plan_id)
        return {"plan_id": plan_id, "deleted": True}


def _shown_page(
    store: PlanStore,
    allowed: Callable[[StoredPlan], bool],
    limit: int,
    offset: int,
    language: str | None,
) -> tuple[list[StoredPlan], int]:
    """One page of the plans that may be shown, and how many there are (the whole cache is
    read: which plans name an entity taken from Assist is known only by looking)."""
    page: list[StoredPlan] = []
    total = 0
    start = 0
    while batch := store.list(PLAN_SCAN_BATCH, start, language):
        for stored in batch:
            if not allowed(stored):
                continue
            if total >= offset and len(page) < limit:
                page.append(stored)
            total += 1
        start += len(batch)
    return page, total


def _describe(stored: StoredPlan) -> dict[str, Any]:
    data = stored.as_dict()
    data["question"] = redact(stored.question)
    data.pop("normalized", None)
    return data


def _redacted(data: Any) -> Any:
    """Names in the rows are cleaned as in every other answer (states and timestamps are left
    alone: a date is not a phone number)."""
    if isinstance(data, dict):
        return {
            k: (
                clean(v, MAX_SHOWN_NAME_CHARS)
                if k in _NAME_KEYS and isinstance(v, str)
                else _redacted(v)
            )
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [_redacted(v) for v in data]
    return data


_NAME_KEYS = frozenset({"name", "area"})
