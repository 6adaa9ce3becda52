"""View rules in Home Assistant: the SQLite store, compile → preview → publish → rollback, the
bus events, the metrics for diagnostics and the repair issues.

The engine (`core.views`) does the work; this module runs the store in
the executor, evaluates rules against the registry adapter's latest `TagUniverse`, and tells
the sensor platform and the index when the published set changes.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import issue_registry as ir

from .const import (
    DOMAIN,
    EVENT_VIEW_COMPILE_FAILED,
    EVENT_VIEW_COMPILE_STARTED,
    EVENT_VIEW_COMPILE_SUCCEEDED,
    EVENT_VIEW_DELETED,
    EVENT_VIEW_MEMBERSHIP_CHANGED,
    EVENT_VIEW_PREVIEW_EXECUTED,
    EVENT_VIEW_PUBLISHED,
    EVENT_VIEW_ROLLED_BACK,
    LOGGER,
    MAX_SHOWN_NAME_CHARS,
    VIEW_DB_FILE,
    VIEW_LLM_TIMEOUT,
    VIEW_PREVIEWS_KEPT,
)
from .core.base.llm_json import LLMClient
from .core.base.redact import clean
from .core.views.canonical import validate
from .core.views.compiler import CompileResult, compile_rule
from .core.views.executor import Preview, preview
from .core.views.model import PARSE_VERSION, GroupNode, RuleValidationError
from .core.views.store import (
    NewerSchemaError,
    RevisionNotFound,
    RuleNotFound,
    ViewRule,
    ViewRuleStore,
    ViewStoreError,
    clean_name,
)
from .core.views.universe import TagUniverse
from .errors import compile_error, unresolved_error
from .errors import service_error as _error
from .registry import IndexManager
from .store_issues import async_store_opened, async_store_unavailable

ISSUE_RECOVERED = "view_store_recovered"
ISSUE_READ_ONLY = "view_store_read_only"
ISSUE_UNAVAILABLE = "view_store_unavailable"


def view_key(name: str) -> str:
    """Rule names are unique regardless of case."""
    return name.strip().casefold()


@dataclass(slots=True)
class ViewMetrics:
    """Compile success rate, LLM fallback rate and preview latency, for diagnostics."""

    compiles: int = 0
    compiled_ok: int = 0
    llm_consulted: int = 0  # the parser could not settle it alone
    llm_used: int = 0  # the model's rule was taken
    previews: deque[float] = field(default_factory=lambda: deque(maxlen=VIEW_PREVIEWS_KEPT))

    def record(self, result: CompileResult) -> None:
        self.compiles += 1
        self.compiled_ok += result.ok
        consulted = (
            result.compile_source == "llm"
            or any(w.startswith("llm_") for w in result.warnings)
            or result.error_code == "LLM_TIMEOUT"
        )
        self.llm_consulted += consulted
        self.llm_used += result.compile_source == "llm"

    def as_dict(self) -> dict[str, Any]:
        ordered = sorted(self.previews)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else None
        return {
            "compiles": self.compiles,
            "compile_success_rate": round(self.compiled_ok / self.compiles, 4)
            if self.compiles
            else None,
            "llm_fallback_rate": round(self.llm_consulted / self.compiles, 4)
            if self.compiles
            else None,
            "llm_rules_taken": self.llm_used,
            "previews": len(ordered),
            "preview_p95_ms": round(p95, 3) if p95 is not None else None,
        }


@dataclass(repr=False)
class ViewManager:
    """Owns the store and the published rules while the entry is loaded."""

    def __repr__(self) -> str:  # cheap: callbacks and jobs are named after it on the loop
        return "<ViewManager>"

    hass: HomeAssistant
    manager: IndexManager
    llm: LLMClient | None = None
    language: str | None = None
    llm_timeout: float = VIEW_LLM_TIMEOUT
    store: ViewRuleStore | None = None
    rules: dict[str, ViewRule] = field(default_factory=dict)  # by `view_key`
    parsed: dict[str, GroupNode] = field(default_factory=dict)
    metrics: ViewMetrics = field(default_factory=ViewMetrics)
    read_only: bool = False
    _listeners: list[Callable[[], None]] = field(default_factory=list)
    _members: dict[str, frozenset[str]] = field(default_factory=dict)
    _unsub: CALLBACK_TYPE | None = None
    _unsub_withdrawn: CALLBACK_TYPE | None = None

    # --- lifecycle ---------------------------------------------------------------------------

    async def async_start(self) -> None:
        """Open the store (moving a corrupt file aside), load the rules, and hand them to the
        index manager so each rebuild evaluates them."""
        store = ViewRuleStore(Path(self.hass.config.path(VIEW_DB_FILE)))
        try:
            report = await self.hass.async_add_executor_job(store.open)
        except ViewStoreError as err:
            # Unreadable for a reason that is not the file's content (permissions, disk):
            # retrieval keeps working; the view services say why they cannot.
            LOGGER.error("View rules are unavailable: %s", err)
            async_store_unavailable(self.hass, ISSUE_UNAVAILABLE, err, ir.IssueSeverity.ERROR)
            return
        self.store = store
        async_store_opened(self.hass, report, ISSUE_UNAVAILABLE, ISSUE_RECOVERED)
        self.read_only = report.read_only
        if report.read_only:
            ir.async_create_issue(
                self.hass,
                DOMAIN,
                ISSUE_READ_ONLY,
                is_fixable=False,
                severity=ir.IssueSeverity.WARNING,
                translation_key=ISSUE_READ_ONLY,
                translation_placeholders={"path": str(report.path)},
            )
        else:
            ir.async_delete_issue(self.hass, DOMAIN, ISSUE_READ_ONLY)
        try:
            stored = await self.hass.async_add_executor_job(store.list)
        except ViewStoreError as err:
            # A newer version's layout we cannot read: no views, retrieval unaffected.
            LOGGER.error("The view rules could not be read: %s", err)
            stored = []
        for rule in stored:
            self._remember(rule)
        self.manager.view_rules = self.published
        self._recompute()
        self._unsub = self.manager.async_add_listener(self._async_index_rebuilt)
        self._unsub_withdrawn = self.manager.async_add_withdrawal_listener(self._recompute)

    async def async_stop(self) -> None:
        if self._unsub:
            self._unsub()
            self._unsub = None
        if self._unsub_withdrawn:
            self._unsub_withdrawn()
            self._unsub_withdrawn = None
        if self.store is not None:
            store, self.store = self.store, None
            await self.hass.async_add_executor_job(store.close)

    @callback
    def async_add_listener(self, listener: Callable[[], None]) -> CALLBACK_TYPE:
        """Be told when rules are published, changed or deleted, or memberships change."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def published(self) -> list[tuple[str, GroupNode]]:
        return [(self.rules[key].name, rule) for key, rule in self.parsed.items()]

    def members(self, name: str) -> frozenset[str]:
        return self._members.get(view_key(name), frozenset())

    def _remember(self, rule: ViewRule) -> None:
        try:
            parsed = validate(json.loads(rule.rule_json))
        except (ValueError, RuleValidationError) as err:
            # Stored by hand or by a future version: keep the row, skip the rule.
            LOGGER.warning("View rule %r has an unusable rule_json (%s); skipped", rule.name, err)
            return
        key = view_key(rule.name)
        self.rules[key] = rule
        self.parsed[key] = parsed

    def _forget(self, name: str) -> None:
        key = view_key(name)
        self.rules.pop(key, None)
        self.parsed.pop(key, None)

    @callback
    def _async_index_rebuilt(self) -> None:
        self._recompute()

    @callback
    def _recompute(self) -> None:
        """Evaluate every rule against the latest home (set algebra: milliseconds), announce
        the memberships that changed, refresh the sensors."""
        universe = self.manager.universe
        if universe is None:
            return
        visible = self.manager.visible()
        current = {
            key: frozenset(filter(visible, universe.evaluate(rule)[0]))
            for key, rule in self.parsed.items()
        }
        for key, ids in current.items():
            before = self._members.get(key)
            if before is not None and before != ids:
                name = self.rules[key].name
                self.hass.bus.async_fire(
                    EVENT_VIEW_MEMBERSHIP_CHANGED,
                    {
                        "name": name,
                        "entity_id": self.sensor_entity_id(name),
                        "added": sorted(ids - before),
                        "removed": sorted(before - ids),
                        "count": len(ids),
                    },
                )
        self._members = current
        self._notify()

    @callback
    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener()

    def sensor_entity_id(self, name: str) -> str | None:
        return er.async_get(self.hass).async_get_entity_id("sensor", DOMAIN, sensor_unique_id(name))

    # --- the service operations --------------------------------------------------------------

    def _universe(self) -> TagUniverse:
        universe = self.manager.universe
        if universe is None:
            raise _error("index_not_ready")
        return universe

    def _store(self, writing: bool = False) -> ViewRuleStore:
        if self.store is None:
            raise _error("view_store_unavailable")
        if writing and self.read_only:
            raise _error("view_store_read_only")
        return self.store

    async def async_compile(self, text: str, language: str | None) -> CompileResult:
        """The compile chain with its events; the text is not logged, only sent on the bus to
        the homeowner's own automations."""
        universe = self._universe()
        self.hass.bus.async_fire(EVENT_VIEW_COMPILE_STARTED, {"rule": text})
        result = await compile_rule(
            text,
            universe,
            language=language or self.language,
            llm=self.llm,
            llm_timeout=self.llm_timeout,
        )
        self.metrics.record(result)
        if result.ok:
            self.hass.bus.async_fire(
                EVENT_VIEW_COMPILE_SUCCEEDED,
                {
                    "rule": text,
                    "rule_json": result.rule_json,
                    "compile_source": result.compile_source,
                    "warnings": result.warnings,
                },
            )
        else:
            self.hass.bus.async_fire(
                EVENT_VIEW_COMPILE_FAILED,
                {
                    "rule": text,
                    "error_code": result.error_code,
                    "error_reason": result.error_reason,
                    "error_position": result.error_position,
                },
            )
        return result

    async def async_preview(self, text: str, language: str | None) -> dict[str, Any]:
        started = time.perf_counter()
        result = await self.async_compile(text, language)
        if not result.ok or result.rule is None:
            raise compile_error(result)
        outcome = preview(result.rule, self._universe())
        milliseconds = (time.perf_counter() - started) * 1000
        self.metrics.previews.append(milliseconds)
        self.hass.bus.async_fire(
            EVENT_VIEW_PREVIEW_EXECUTED,
            {
                "rule_json": result.rule_json,
                "total_hits": outcome.total_hits,
                "entity_hits": outcome.entity_hits,
                "device_hits": outcome.device_hits,
                "milliseconds": round(milliseconds, 3),
            },
        )
        return {
            **result.as_dict(),
            **self._shown(outcome),
            "milliseconds": round(milliseconds, 3),
        }

    async def async_publish(self, name: str, text: str, language: str | None) -> dict[str, Any]:
        """Compile and store. A failed compile leaves the published rule as it was and
        records the error on it."""
        store = self._store(writing=True)
        try:
            name = clean_name(name)
        except ValueError as err:
            raise _error("view_name_invalid", detail=str(err)) from err
        result = await self.async_compile(text, language)
        if not result.ok or result.rule is None or result.rule_json is None:
            await self._async_record_error(name, result.error_message or result.error_code)
            raise compile_error(result)
        if result.unresolved_tags:
            # A rule naming what the home lacks would publish a different view than the one
            # asked for (or an empty one): refused until the words are fixed or removed.
            tags = ", ".join(result.unresolved_tags)
            await self._async_record_error(name, f"not found in this home: {tags}")
            raise unresolved_error(result, self._universe())
        try:
            record = await self.hass.async_add_executor_job(
                lambda: store.publish(
                    name,
                    text,
                    result.rule_json or "",
                    result.compile_source or "deterministic",
                    result.rewrite_note,
                    PARSE_VERSION,
                )
            )
        except NewerSchemaError as err:
            raise _error("view_store_read_only") from err
        except ViewStoreError as err:
            raise _error("view_store_failed", detail=str(err)) from err
        previous = self.rules.get(view_key(name))
        if previous is not None and previous.name != record.name:
            self._forget(previous.name)
        self._remember(record)
        outcome = preview(result.rule, self._universe())
        self.hass.bus.async_fire(
            EVENT_VIEW_PUBLISHED,
            {
                "name": record.name,
                "rule": text,
                "rule_json": record.rule_json,
                "compile_source": record.compile_source,
                "entity_hits": self._shown(outcome)["entity_hits"],
            },
        )
        await self._async_changed()
        return {
            "name": record.name,
            "id": record.id,
            **result.as_dict(),
            **self._shown(outcome),
            "updated_at": record.updated_at,
            "entity_id": self.sensor_entity_id(record.name),
        }

    async def _async_record_error(self, name: str, error: str | None) -> None:
        """A refused update is recorded on the published rule it leaves in place."""
        if view_key(name) in self.rules and self.store is not None:
            await self.hass.async_add_executor_job(self.store.record_error, name, error)
            await self._async_reload(name)

    async def async_delete(self, name: str) -> dict[str, Any]:
        store = self._store(writing=True)
        rule = self.rules.get(view_key(name))
        if rule is None:
            raise _error("view_not_found", name=name)
        try:
            deleted = await self.hass.async_add_executor_job(store.delete, rule.name)
        except NewerSchemaError as err:
            raise _error("view_store_read_only") from err
        except ViewStoreError as err:
            raise _error("view_store_failed", detail=str(err)) from err
        self._forget(rule.name)
        self.hass.bus.async_fire(EVENT_VIEW_DELETED, {"name": rule.name})
        await self._async_changed()
        return {"name": rule.name, "deleted": deleted}

    def list_rules(self) -> list[dict[str, Any]]:
        out = []
        for key in sorted(self.rules):
            rule = self.rules[key]
            out.append(
                {
                    **self._describe(rule),
                    "entity_hits": len(self.members(rule.name)),
                    "entity_id": self.sensor_entity_id(rule.name),
                }
            )
        return out

    async def async_revisions(self, name: str) -> list[dict[str, Any]]:
        store = self._store()
        try:
            revisions = await self.hass.async_add_executor_job(store.revisions, name)
        except RuleNotFound as err:
            raise _error("view_not_found", name=name) from err
        return [r.as_dict() for r in revisions]

    async def async_rollback(self, name: str, revision_id: str | None) -> dict[str, Any]:
        store = self._store(writing=True)
        try:
            record = await self.hass.async_add_executor_job(store.rollback, name, revision_id)
        except RuleNotFound as err:
            raise _error("view_not_found", name=name) from err
        except RevisionNotFound as err:
            if revision_id:
                raise _error("view_revision_not_found", name=name, revision_id=revision_id) from err
            raise _error("view_no_earlier_revision", name=name) from err
        except NewerSchemaError as err:
            raise _error("view_store_read_only") from err
        except ViewStoreError as err:
            raise _error("view_store_failed", detail=str(err)) from err
        self._remember(record)
        self.hass.bus.async_fire(
            EVENT_VIEW_ROLLED_BACK,
            {"name": record.name, "rule": record.rule_nl, "rule_json": record.rule_json},
        )
        await self._async_changed()
        return {**self._describe(record), "entity_id": self.sensor_entity_id(record.name)}

    def _shown(self, outcome: Preview) -> dict[str, Any]:
        """A preview as an answer: counts and samples of the entities still exposed (one taken
        from Assist since the index was built is left out already), names cleaned."""
        shown = outcome.as_dict()
        withdrawn = self.manager.withdrawn & outcome.entity_ids
        if withdrawn:
            universe = self._universe()
            kept = outcome.entity_ids - withdrawn
            devices = {universe.device_of.get(e) for e in kept} - {None}
            shown |= {
                "total_hits": len(kept) + len(devices),
                "entity_hits": len(kept),
                "device_hits": len(devices),
                "sample_items": [s for s in shown["sample_items"] if s["id"] not in withdrawn],
            }
        return _redacted(shown)

    def _describe(self, rule: ViewRule) -> dict[str, Any]:
        data = rule.as_dict()
        data["rule"] = data.pop("rule_nl")
        return data

    async def _async_reload(self, name: str) -> None:
        store = self._store()
        record = await self.hass.async_add_executor_job(store.get, name)
        if record is not None:
            self._remember(record)
            self._notify()

    async def _async_changed(self) -> None:
        """The published set changed: members and sensors now; the voice labels with the next
        (debounced) index rebuild, which need not hold up the caller."""
        self._recompute()
        self.manager.async_schedule_rebuild()


def _redacted(preview_data: dict[str, Any]) -> dict[str, Any]:
    """Sample names and rooms are cleaned as in every other answer."""
    samples = [
        {
            **item,
            **{
                k: clean(v, MAX_SHOWN_NAME_CHARS)
                for k in ("name", "area")
                if isinstance(v := item.get(k), str)
            },
        }
        for item in preview_data.get("sample_items", [])
    ]
    return {**preview_data, "sample_items": samples}


def sensor_unique_id(name: str) -> str:
    """One sensor per view name (case-insensitive), stable across edits and store recovery."""
    return f"view_{view_key(name)}"
