"""Websocket commands behind the sidebar panel: `context_retrieval/...`.

Every command is admin-only (the panel is too) and calls the code the services call: a command
that does what a service does runs the same operation of `services/` with the same schema; the
others add what only the panel shows (the parsed command, token counts, the health page).
Failures reach the browser as websocket errors carrying the integration's translation key, so
the panel shows them in the user's language.
"""

from __future__ import annotations

import dataclasses
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from functools import wraps
from typing import Any

import voluptuous as vol
from homeassistant.components import websocket_api
from homeassistant.components.websocket_api.connection import ActiveConnection
from homeassistant.components.websocket_api.decorators import (
    async_response,
    require_admin,
    websocket_command,
)
from homeassistant.core import Context, HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers import llm

from .const import DOMAIN, LOGGER, MAX_SHOWN_NAME_CHARS
from .core import DeviceIndex, RetrievalResult
from .core.base.redact import clean
from .core.retrieval.render import estimate_tokens
from .data import ContextRetrievalData, loaded_data, loaded_entry
from .diagnostics import async_get_config_entry_diagnostics
from .errors import InvalidRequest
from .services import questions as question_services
from .services import rename as rename_services
from .services import search as search_services
from .services import views as view_services
from .services.retrieve import RETRIEVE_SCHEMA, async_retrieve_answer
from .services.schema import NO_FIELDS, Operation, RequestSchema

PREFIX = f"{DOMAIN}/"

type Connection = ActiveConnection
type Handler = Callable[[HomeAssistant, Connection, dict[str, Any]], Awaitable[Any]]


def _keys(schema: vol.Schema, *dropped: str) -> vol.Schema:
    """A service schema less some keys, for a command that does a little less."""
    return RequestSchema({k: v for k, v in schema.schema.items() if str(k) not in dropped})


def _loose(schema: vol.Schema) -> dict[Any, Any]:
    """The keys the websocket layer checks itself: names only. The service schema runs in the
    handler, so that its translated errors reach the panel instead of an `invalid_format`."""
    return {
        (vol.Required(str(k)) if isinstance(k, vol.Required) else vol.Optional(str(k))): object
        for k in schema.schema
    }


def _command(name: str, schema: vol.Schema) -> Callable[[Handler], Any]:
    """An admin-only async command whose handler returns the result to send."""

    def wrap(handler: Handler) -> Any:
        @websocket_command({vol.Required("type"): PREFIX + name, **_loose(schema)})
        @require_admin
        @async_response
        @wraps(handler)
        async def run(hass: HomeAssistant, connection: Connection, msg: dict[str, Any]) -> None:
            try:
                data = schema({k: v for k, v in msg.items() if k not in ("id", "type")})
                answer = await handler(hass, connection, data)
            except InvalidRequest as err:
                # Over REST a bad request must be a `vol.Invalid` (a 400); over the websocket
                # that would arrive as an untranslated `invalid_format`, so the panel gets the
                # translated error instead.
                raise ServiceValidationError(
                    translation_domain=err.translation_domain,
                    translation_key=err.translation_key,
                    translation_placeholders=err.translation_placeholders,
                ) from err
            connection.send_result(msg["id"], answer)

        return run

    return wrap


def _operation(name: str, schema: vol.Schema, operation: Operation) -> Any:
    """The command that runs a service's operation, on the request the service schema took."""

    async def run(hass: HomeAssistant, connection: Connection, msg: dict[str, Any]) -> Any:
        request: Mapping[str, Any] = msg
        return await operation(hass, request)

    run.__name__ = run.__qualname__ = operation.__name__
    return _command(name, schema)(run)


# --- try it ----------------------------------------------------------------------------------


def _shown(text: str) -> str:
    """A name or a piece of the utterance as the panel shows it: cleaned like every name in
    every answer (no line breaks, bidi overrides or personal data)."""
    return clean(text, MAX_SHOWN_NAME_CHARS)


def _names(ids: set[str] | frozenset[str], lookup: Callable[[str], str | None]) -> list[str]:
    return sorted(_shown(lookup(i) or i) for i in ids)


def describe_command(index: DeviceIndex, result: RetrievalResult) -> dict[str, Any]:
    """The parsed command as a person reads it: rooms and floors by name, type words,
    references, and what the scope and the capability check took out."""
    command = result.ir
    floors = index.floors

    def floor(i: str) -> str | None:
        return floors[i].name if i in floors else i

    def area(i: str) -> str | None:
        return index.area_name(i) or i

    meta = result.meta
    return {
        "action": command.action,
        "quantifier": command.quantifier,
        "confidence": command.confidence,
        "scope_in": _names(command.scope_include, area) + _names(command.floor_include, floor),
        "scope_out": _names(command.scope_exclude, area) + _names(command.floor_exclude, floor),
        "types": ["+".join(g) for g in command.type_groups],
        "types_out": ["+".join(g) for g in command.exclude_type_groups],
        "mentions": [_shown(m.text) for m in command.mentions],
        "mentions_out": [_shown(m.text) for m in command.exclude_mentions],
        "labels": sorted(_shown(label) for label in command.labels),
        "states": sorted(command.states),
        "references": [_shown(r) for r in command.references],
        "reference": meta.reference,
        "here": command.here,
        "scope_removed": meta.scope_removed or 0,
        "excluded": meta.excluded or 0,
        "capability_filter": meta.capability_filter,
        "capability_removed": [
            {"entity_id": e, "name": _shown(index.device(e).name)}
            for e in (meta.capability_removed or [])
            if e in index
        ],
        "capability_removed_count": meta.capability_removed_count or 0,
        "gating": "ask"
        if result.clarification is not None
        else ("selected" if result.selected else "nothing"),
    }


def _llm_context(hass: HomeAssistant, language: str, user_id: str | None) -> llm.LLMContext:
    """An LLMContext on any supported release (fields come and go between releases)."""
    values: dict[str, Any] = {
        "platform": DOMAIN,
        "context": Context(user_id=user_id),
        "language": language,
        "assistant": "conversation",
        "device_id": None,
        "user_prompt": None,
        "agent_id": None,
    }
    fields = {f.name for f in dataclasses.fields(llm.LLMContext)}
    return llm.LLMContext(**{k: v for k, v in values.items() if k in fields})


# Assist's prompt depends on the exposed entities, not on the utterance: counted once per
# index build (a new index follows every change of the exposed entities) and language.
_ASSIST_TOKENS = f"{DOMAIN}_assist_tokens"


async def async_assist_tokens(
    hass: HomeAssistant, data: ContextRetrievalData, language: str, user_id: str | None
) -> int | None:
    """Tokens of the prompt Home Assistant's own Assist API gives a model in this home."""
    index = data.manager.index
    cached: tuple[weakref.ref[DeviceIndex], dict[str, int]] | None = hass.data.get(_ASSIST_TOKENS)
    known: dict[str, int] = cached[1] if cached and cached[0]() is index else {}
    if language in known:
        return int(known[language])
    try:
        assist = await llm.async_get_api(
            hass, llm.LLM_API_ASSIST, _llm_context(hass, language, user_id)
        )
    except HomeAssistantError as err:
        LOGGER.debug("Assist's prompt is not available: %s", err)
        return None
    tokens = await hass.async_add_executor_job(estimate_tokens, assist.api_prompt)
    if index is not None:
        known[language] = tokens
        hass.data[_ASSIST_TOKENS] = (weakref.ref(index), known)
    return tokens


@_command("try", _keys(RETRIEVE_SCHEMA, "explain"))
async def _try(hass: HomeAssistant, connection: Connection, msg: dict[str, Any]) -> Any:
    started = time.perf_counter()
    answer, results = await async_retrieve_answer(
        hass, msg["text"], msg.get("conversation_id"), msg.get("language"), True
    )
    data = loaded_data(hass)
    index = data.manager.index
    assert index is not None  # the answer came from it
    for described, result in zip(answer["commands"], results, strict=True):
        described["parsed"] = describe_command(index, result)
    language = answer["language"] or hass.config.language
    answer["yaml_tokens"] = estimate_tokens(answer["yaml"])
    answer["assist_tokens"] = await async_assist_tokens(hass, data, language, connection.user.id)
    answer["entities"] = len(index)
    answer["milliseconds"] = round((time.perf_counter() - started) * 1000, 1)
    return answer


# --- views, questions, search and rename: the services' operations --------------------------

_views_list = _operation("views/list", NO_FIELDS, view_services.async_list_view_rules)
_views_preview = _operation(
    "views/preview", view_services.PREVIEW_SCHEMA, view_services.async_preview_view_rule
)
_views_publish = _operation(
    "views/publish", view_services.PUBLISH_SCHEMA, view_services.async_publish_view_rule
)
_views_delete = _operation(
    "views/delete", view_services.NAME_SCHEMA, view_services.async_delete_view_rule
)
_views_revisions = _operation(
    "views/revisions",
    view_services.NAME_SCHEMA,
    view_services.async_list_view_rule_revisions,
)
_views_rollback = _operation(
    "views/rollback", view_services.ROLLBACK_SCHEMA, view_services.async_rollback_view_rule
)
_questions_ask = _operation(
    "questions/ask",
    question_services.NATURAL_QUERY_SCHEMA,
    question_services.async_natural_query,
)
_questions_suggest = _operation(
    "questions/suggest",
    question_services.SUGGEST_SCHEMA,
    question_services.async_natural_query_suggest,
)
_questions_list = _operation(
    "questions/list",
    question_services.LIST_PLANS_SCHEMA,
    question_services.async_list_query_plans,
)
_questions_update = _operation(
    "questions/update",
    question_services.UPDATE_PLAN_SCHEMA,
    question_services.async_update_query_plan,
)
_questions_delete = _operation(
    "questions/delete", question_services.PLAN_ID_SCHEMA, question_services.async_delete_query_plan
)
_rename_preview = _operation(
    "rename/preview", rename_services.RENAME_SCHEMA, rename_services.async_rename_preview
)
_rename_execute = _operation(
    "rename/execute", rename_services.RENAME_SCHEMA, rename_services.async_rename_execute
)
_rename_rollback = _operation(
    "rename/rollback",
    rename_services.ROLLBACK_RENAME_SCHEMA,
    rename_services.async_rename_rollback,
)
_rename_snapshots = _operation(
    "rename/snapshots", NO_FIELDS, rename_services.async_rename_snapshots
)


@_command("search", search_services.SEARCH_SCHEMA)
async def _search(hass: HomeAssistant, connection: Connection, msg: dict[str, Any]) -> Any:
    started = time.perf_counter()
    answer = await search_services.async_search(hass, msg)
    answer["milliseconds"] = round((time.perf_counter() - started) * 1000, 1)
    return answer


# --- health ----------------------------------------------------------------------------------


def _rate(part: int | float, whole: int | float) -> float | None:
    return round(part / whole, 4) if whole else None


def health_summary(
    diagnostics: dict[str, Any],
    issues: list[str],
    index_languages: list[str],
    last_build_at: float | None,
) -> dict[str, Any]:
    """What the health page shows, from the diagnostics download (the same numbers)."""
    index = diagnostics["index"]
    views = diagnostics["views"]
    questions = diagnostics["questions"]
    embeddings = diagnostics["embeddings"]
    degradations: list[dict[str, Any]] = [{"kind": "issue", "code": key} for key in issues]
    degradations += [{"kind": "embedding", "code": code} for code in embeddings["problems"]]
    if not views["available"]:
        degradations.append({"kind": "views", "code": "unavailable"})
    elif views["read_only"]:
        degradations.append({"kind": "views", "code": "read_only"})
    if not questions["cache_available"]:
        degradations.append({"kind": "questions", "code": "unavailable"})
    elif questions["read_only"]:
        degradations.append({"kind": "questions", "code": "read_only"})
    failed = questions["failed"] + (
        views["compiles"] - round((views["compile_success_rate"] or 0) * views["compiles"])
    )
    return {
        "index": {
            "state": index["state"],
            "entities": index["entities"],
            "areas": index["areas"],
            "floors": index["floors"],
            "builds": index["builds"],
            "last_build_seconds": index["last_build_seconds"],
            "last_build_at": last_build_at,
            "rebuilding": index["state"] == "rebuilding",
            "languages": index_languages,
            "by_domain": index["by_domain"],
        },
        "languages_seen": diagnostics["languages_seen"],
        "degradations": degradations,
        "compile_success_rate": views["compile_success_rate"],
        "llm_fallback_rate": views["llm_fallback_rate"],
        "compiles": views["compiles"],
        "preview_p95_ms": views["preview_p95_ms"],
        "previews": views["previews"],
        "error_rate": _rate(failed, questions["asked"] + views["compiles"]),
        "plan_cache_hit_rate": _rate(questions["from_cache"], questions["asked"]),
        "questions_asked": questions["asked"],
        "question_p95_ms": questions["p95_ms"],
        "retrievals": len(diagnostics["timings"]),
        "retrieval_p95_ms": _p95([t["milliseconds"] for t in diagnostics["timings"]]),
        "backpressured": diagnostics["calls"]["backpressured"],
        "embeddings": {k: embeddings[k] for k in ("configured", "kind", "vectors")},
    }


def _p95(values: list[float]) -> float | None:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3) if ordered else None


@_command("health", NO_FIELDS)
async def _health(hass: HomeAssistant, connection: Connection, msg: dict[str, Any]) -> Any:
    entry = loaded_entry(hass)
    diagnostics = await async_get_config_entry_diagnostics(hass, entry)
    issues = sorted(
        issue.translation_key or key
        for (domain, key), issue in ir.async_get(hass).issues.items()
        if domain == DOMAIN and issue.active
    )
    index = entry.runtime_data.manager.index
    languages = sorted(index.lexicons.lexicons) if index is not None else []
    return health_summary(diagnostics, issues, languages, entry.runtime_data.manager.last_build_at)


COMMANDS = (
    _try,
    _views_list,
    _views_preview,
    _views_publish,
    _views_delete,
    _views_revisions,
    _views_rollback,
    _questions_ask,
    _questions_suggest,
    _questions_list,
    _questions_update,
    _questions_delete,
    _search,
    _rename_preview,
    _rename_execute,
    _rename_rollback,
    _rename_snapshots,
    _health,
)


@callback
def async_register_commands(hass: HomeAssistant) -> None:
    for command in COMMANDS:
        websocket_api.async_register_command(hass, command)
