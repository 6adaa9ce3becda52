"""Services: `retrieve` (what would the assistant be told, and why), `rebuild_index`, the
view rule services (preview, publish, delete, list, list revisions, rollback) and the natural
question services (ask, suggest, and the plan cache: list, get, update, delete)."""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable, Coroutine
from typing import Any

import voluptuous as vol
from homeassistant.core import (
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.exceptions import Unauthorized, UnknownUser
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import service as ha_service

from .const import (
    BACKPRESSURE_RETRY_MS,
    DOMAIN,
    MAX_CONCURRENT_CALLS,
    MAX_FIND_CHARS,
    MAX_ID_CHARS,
    MAX_LANGUAGE_CHARS,
    MAX_LIST_OFFSET,
    MAX_PLAN_JSON_CHARS,
    MAX_QUESTION_CHARS,
    MAX_REPLACE_CHARS,
    MAX_SHOWN_NAME_CHARS,
    MAX_TEXT_CHARS,
    MAX_VIEW_RULE_CHARS,
    SERVICE_DELETE_QUERY_PLAN,
    SERVICE_DELETE_VIEW_RULE,
    SERVICE_GET_QUERY_PLAN,
    SERVICE_LIST_QUERY_PLANS,
    SERVICE_LIST_VIEW_RULE_REVISIONS,
    SERVICE_LIST_VIEW_RULES,
    SERVICE_NATURAL_QUERY,
    SERVICE_NATURAL_QUERY_SUGGEST,
    SERVICE_PREVIEW_VIEW_RULE,
    SERVICE_PUBLISH_VIEW_RULE,
    SERVICE_REBUILD_INDEX,
    SERVICE_RENAME_EXECUTE,
    SERVICE_RENAME_PREVIEW,
    SERVICE_RENAME_ROLLBACK,
    SERVICE_RETRIEVE,
    SERVICE_ROLLBACK_VIEW_RULE,
    SERVICE_SEARCH,
    SERVICE_UPDATE_QUERY_PLAN,
)
from .core import DeviceIndex, RetrievalResult
from .core.base.redact import clean, redact
from .core.base.text import has_hidden_characters
from .core.views.store import clean_name
from .errors import InvalidRequest, service_error


class RequestSchema(vol.Schema):
    """A service schema whose errors are all translated: our own validators' come out whole
    (voluptuous would wrap them in `MultipleInvalid`), voluptuous' own (a wrong type, a number
    out of range, an unknown key) name the field and keep voluptuous' English detail."""

    def __call__(self, data: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(data, *args, **kwargs)
        except vol.MultipleInvalid as err:
            for error in err.errors:
                if isinstance(error, InvalidRequest):
                    raise error from None
            first = err.errors[0] if err.errors else err
            field = ".".join(str(part) for part in first.path) or "-"
            raise InvalidRequest("invalid_request",
                                 {"field": field, "detail": first.error_message}) from err


def _string(value: Any) -> str:
    """`cv.string`, refusing what no store can hold: lone surrogates (from `\\ud800` in JSON)
    have no UTF-8 form."""
    text: str = cv.string(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InvalidRequest("text_not_unicode") from err
    return text


def _text(limit: int, empty: str = "empty_text", too_long: str = "text_too_long",
          trim: bool = True) -> Callable[[Any], str]:
    """A string (trimmed unless told), neither empty nor longer than `limit`."""

    def validate(value: Any) -> str:
        text = _string(value)
        text = text.strip() if trim else text
        if not text:
            raise InvalidRequest(empty)
        if len(text) > limit:
            raise InvalidRequest(too_long, {"limit": str(limit)})
        return text
    return validate


def _view_name(value: Any) -> str:
    try:
        return clean_name(_string(value))
    except ValueError as err:
        raise InvalidRequest("view_name_invalid", {"detail": str(err)}) from err


def _new_view_name(value: Any) -> str:
    """A name being published also becomes a sensor's name and a label the assistant hears:
    no control, bidi or zero-width characters."""
    name = _view_name(value)
    if has_hidden_characters(name):
        raise InvalidRequest("view_name_hidden_characters")
    return name


def _language(value: Any) -> str | None:
    """A language tag; an empty one means none was given (a cleared field in the UI)."""
    text = _string(value).strip()
    if len(text) > MAX_LANGUAGE_CHARS:
        raise vol.Invalid(f"a language tag has at most {MAX_LANGUAGE_CHARS} characters")
    return text or None


LANGUAGE = _language
ID = vol.All(_string, vol.Length(min=1, max=MAX_ID_CHARS))

RETRIEVE_SCHEMA = RequestSchema({
    vol.Required("text"): _text(MAX_TEXT_CHARS),
    vol.Optional("conversation_id"): ID,
    vol.Optional("language"): LANGUAGE,
    vol.Optional("explain", default=False): cv.boolean,
})

VIEW_RULE = _text(MAX_VIEW_RULE_CHARS, empty="view_rule_syntax_empty")
PREVIEW_SCHEMA = RequestSchema({vol.Required("rule"): VIEW_RULE,
                                vol.Optional("language"): LANGUAGE})
PUBLISH_SCHEMA = RequestSchema({vol.Required("name"): _new_view_name,
                                vol.Required("rule"): VIEW_RULE,
                                vol.Optional("language"): LANGUAGE})
NAME_SCHEMA = RequestSchema({vol.Required("name"): _view_name})
ROLLBACK_SCHEMA = RequestSchema({vol.Required("name"): _view_name,
                                 vol.Optional("revision_id"): ID})

SEARCH_SCHEMA = RequestSchema({
    vol.Required("query"): vol.All(_string, vol.Length(max=MAX_TEXT_CHARS)),
    vol.Optional("strategy", default="hybrid"): vol.In(("keyword", "semantic", "hybrid")),
    vol.Optional("page", default=1): vol.All(vol.Coerce(int), vol.Range(min=1, max=10_000)),
    vol.Optional("page_size", default=20): vol.All(vol.Coerce(int), vol.Range(min=1, max=50)),
    vol.Optional("min_score", default=0.25): vol.All(vol.Coerce(float), vol.Range(min=0, max=1)),
})


def _replacement(value: Any) -> str:
    text = "" if value is None else _string(value)
    if len(text) > MAX_REPLACE_CHARS:
        raise InvalidRequest("rename_replace_too_long")
    return text


RENAME_SCHEMA = RequestSchema({
    # Not trimmed: " lamp" may be exactly what is to be found.
    vol.Required("find"): _text(MAX_FIND_CHARS, "rename_empty_find", "rename_find_too_long",
                                trim=False),
    vol.Optional("replace", default=""): _replacement,
    vol.Optional("target", default="names"): vol.In(("names", "aliases", "both")),
    vol.Optional("match_case", default=False): cv.boolean,
    vol.Optional("whole_word", default=False): cv.boolean,
    vol.Optional("regex", default=False): cv.boolean,
})
ROLLBACK_RENAME_SCHEMA = RequestSchema({vol.Required("snapshot_id"): ID})

QUESTION = _text(MAX_QUESTION_CHARS)
NATURAL_QUERY_SCHEMA = RequestSchema({vol.Required("question"): QUESTION,
                                      vol.Optional("language"): LANGUAGE})
SUGGEST_SCHEMA = RequestSchema({
    vol.Required("question"): QUESTION,
    vol.Optional("limit"): vol.All(vol.Coerce(int), vol.Range(min=1, max=50)),
    vol.Optional("threshold"): vol.All(vol.Coerce(float), vol.Range(min=0, max=1)),
})
LIST_PLANS_SCHEMA = RequestSchema({
    vol.Optional("limit", default=100): vol.All(vol.Coerce(int), vol.Range(min=1, max=1000)),
    vol.Optional("offset", default=0): vol.All(vol.Coerce(int),
                                               vol.Range(min=0, max=MAX_LIST_OFFSET)),
    vol.Optional("language"): LANGUAGE,
})
PLAN_ID_SCHEMA = RequestSchema({vol.Required("plan_id"): ID})
# A plan comes as an object, or from YAML or the UI as JSON text (parsed by the validator).
UPDATE_PLAN_SCHEMA = RequestSchema({
    vol.Required("plan_id"): ID,
    vol.Optional("plan"): vol.Any(dict, vol.All(_string,
                                                vol.Length(max=MAX_PLAN_JSON_CHARS))),
    vol.Optional("is_valid"): cv.boolean,
})


Handler = Callable[[ServiceCall], Coroutine[Any, Any, ServiceResponse]]


def _admitted(handler: Handler) -> Handler:
    """At most `MAX_CONCURRENT_CALLS` answered at once; the excess gets a response saying
    when to retry instead of a queue that grows without bound. Counted in the event loop."""

    @functools.wraps(handler)
    async def admit(call: ServiceCall) -> ServiceResponse:
        data = _entry(call.hass).runtime_data
        if data.in_flight >= MAX_CONCURRENT_CALLS:
            data.backpressured += 1
            return {"code": "SEARCH_BACKPRESSURE", "retry_after_ms": BACKPRESSURE_RETRY_MS}
        data.in_flight += 1
        try:
            return await handler(call)
        finally:
            data.in_flight -= 1
    return admit


def _entry(hass: HomeAssistant) -> Any:
    from . import async_loaded_entry

    entry = async_loaded_entry(hass)
    if entry is None:
        raise service_error("not_loaded")
    return entry


def _candidate(index: DeviceIndex, entity_id: str, score: float,
               breakdown: dict[str, float], reasons: list[str]) -> dict[str, Any]:
    device = index.device(entity_id)
    return {
        "entity_id": entity_id,
        "name": clean(device.name, MAX_SHOWN_NAME_CHARS),
        "area": clean(index.area_name(device.area_id) or "", MAX_SHOWN_NAME_CHARS) or None,
        "score": round(score, 4),
        "score_breakdown": breakdown,
        "reasons": [redact(r) for r in reasons],
    }


def describe_results(index: DeviceIndex, results: list[RetrievalResult]) -> list[dict[str, Any]]:
    """Plain data about every command: what was selected or asked, and why."""
    out = []
    for r in results:
        clarification = None
        if r.clarification is not None:
            clarification = {
                "question": redact(r.clarification.question),
                "options": [{"entity_id": o.entity_id, "label": redact(o.label)}
                            for o in r.clarification.options if o.entity_id in index],
            }
        out.append({
            "text": redact(r.ir.raw),
            "action": r.ir.action,
            "quantifier": r.ir.quantifier,
            "confidence": r.ir.confidence,
            "selected": [_candidate(index, c.entity_id, c.total_score, c.breakdown, c.reasons)
                         for c in r.selected if c.entity_id in index],
            "candidates": [_candidate(index, c.entity_id, c.total_score, c.breakdown,
                                      c.reasons)
                           for c in r.candidates if c.entity_id in index],
            "clarification": clarification,
            "meta": r.meta,
        })
    return out


async def _async_retrieve(call: ServiceCall) -> ServiceResponse:
    answer, _ = await async_retrieve_answer(call.hass, str(call.data["text"]),
                                            call.data.get("conversation_id"),
                                            call.data.get("language"),
                                            bool(call.data.get("explain")))
    return answer


async def async_retrieve_answer(hass: HomeAssistant, text: str, conversation_id: str | None,
                                language: str | None, explain: bool
                                ) -> tuple[dict[str, Any], list[RetrievalResult]]:
    """What the `retrieve` service answers (and the panel shows), with the results behind it."""
    from .conversation import async_run_retrieval, render_selection

    # The text is trimmed, not empty and not too long: the schema saw to it.
    entry = _entry(hass)
    data = entry.runtime_data
    index = data.manager.index
    if index is None:
        raise service_error("index_not_ready")
    started = time.perf_counter()
    results = await async_run_retrieval(hass, data, index, text, conversation_id, language, None)
    language = str(results[0].meta.get("language", "")) if results else ""
    data.record(text, started, results, language)
    commands = describe_results(index, results)
    if explain:
        # The same scale as the search service: keyword, semantic, recency and their sum.
        from .core.search import explain as explain_table

        recency = _recency(hass, data, index)
        for described, result in zip(commands, results, strict=True):
            table = explain_table(result.candidates, recency)
            for item in (*described["candidates"], *described["selected"]):
                item["explain"] = table.get(item["entity_id"])
    return {
        "language": language,
        "index_state": data.manager.index_state,
        "commands": commands,
        "yaml": render_selection(index, results, data.settings.token_budget, language, hass)
        or "",
    }, results


async def _async_rebuild(call: ServiceCall) -> ServiceResponse:
    entry = _entry(call.hass)
    manager = entry.runtime_data.manager
    await manager.async_rebuild()
    return {"entities": len(manager.index) if manager.index else 0,
            "seconds": round(manager.last_build_seconds, 3)}


def _views(call: ServiceCall) -> Any:
    return _entry(call.hass).runtime_data.views


async def _async_preview_view(call: ServiceCall) -> ServiceResponse:
    return await _views(call).async_preview(call.data["rule"], call.data.get("language"))


async def _async_publish_view(call: ServiceCall) -> ServiceResponse:
    return await _views(call).async_publish(call.data["name"], call.data["rule"],
                                            call.data.get("language"))


async def _async_delete_view(call: ServiceCall) -> ServiceResponse:
    return await _views(call).async_delete(call.data["name"])


async def _async_list_views(call: ServiceCall) -> ServiceResponse:
    return {"rules": _views(call).list_rules()}


async def _async_list_view_revisions(call: ServiceCall) -> ServiceResponse:
    return {"name": call.data["name"],
            "revisions": await _views(call).async_revisions(call.data["name"])}


async def _async_rollback_view(call: ServiceCall) -> ServiceResponse:
    return await _views(call).async_rollback(call.data["name"], call.data.get("revision_id"))


def _recency(hass: HomeAssistant, data: Any, index: DeviceIndex) -> dict[str, float]:
    """When each entity last changed, or now when a conversation just used it: recently
    touched entities rank a little higher."""
    recency: dict[str, float] = {}
    for device in index.devices():
        state = hass.states.get(device.entity_id)
        if state is not None:
            recency[device.entity_id] = state.last_changed.timestamp()
    now = time.time()
    for conversation in data.states.values():
        for entity_id in conversation.recent_entity_ids:
            recency[entity_id] = now
    return recency


async def _async_search(call: ServiceCall) -> ServiceResponse:
    return await async_search(call.hass, str(call.data["query"]), call.data["strategy"],
                              call.data["page"], call.data["page_size"], call.data["min_score"])


async def async_search(hass: HomeAssistant, query: str, strategy: str, page: int,
                       page_size: int, min_score: float) -> dict[str, Any]:
    """Explainable search over the exposed entities (seed 002), for the service and the
    panel."""
    from functools import partial

    from .core.search import search

    data = _entry(hass).runtime_data
    index = data.manager.index
    if index is None:
        raise service_error("index_not_ready")
    recency = _recency(hass, data, index)
    now = time.time()
    vectors = data.vectors.for_index(index)
    result = await hass.async_add_executor_job(partial(
        search, index, query, strategy=strategy, page=page, page_size=page_size,
        min_score=min_score, recency=recency, now=now,
        semantic_timeout=data.settings.semantic_timeout, vector_searcher=vectors))
    answer = {**result.as_dict(), "index_state": data.manager.index_state}
    # The searcher that answered, not the current one: a rebuild may have swapped it meanwhile.
    degraded = getattr(vectors, "last_degradation", None) if vectors is not None else None
    if degraded and strategy != "keyword":
        # The embedding service failed and the built-in vectors answered instead: say why.
        answer["degraded"] = [*answer.get("degraded", []), dict(degraded)]
    return answer


def _renames(call: ServiceCall) -> Any:
    return _entry(call.hass).runtime_data.renames


async def _async_rename_preview(call: ServiceCall) -> ServiceResponse:
    from .renames import describe, spec_from

    _, plan = _renames(call).preview(spec_from(dict(call.data)))
    return describe(plan)


async def _async_rename_execute(call: ServiceCall) -> ServiceResponse:
    from .renames import spec_from

    result: dict[str, Any] = await _renames(call).async_execute(spec_from(dict(call.data)))
    return result


async def _async_rename_rollback(call: ServiceCall) -> ServiceResponse:
    result: dict[str, Any] = await _renames(call).async_rollback(call.data["snapshot_id"])
    return result


def _queries(call: ServiceCall) -> Any:
    return _entry(call.hass).runtime_data.queries


async def _async_natural_query(call: ServiceCall) -> ServiceResponse:
    return await _queries(call).async_ask(call.data["question"], call.data.get("language"))


async def _async_suggest(call: ServiceCall) -> ServiceResponse:
    return await _queries(call).async_suggest(call.data["question"], call.data.get("limit"),
                                              call.data.get("threshold"))


async def _async_list_plans(call: ServiceCall) -> ServiceResponse:
    return await _queries(call).async_list(call.data["limit"], call.data["offset"],
                                           call.data.get("language"))


async def _async_get_plan(call: ServiceCall) -> ServiceResponse:
    return await _queries(call).async_get(call.data["plan_id"])


async def _async_update_plan(call: ServiceCall) -> ServiceResponse:
    plan = call.data.get("plan")  # JSON text is parsed, safely, by the plan validator
    if plan is None and "is_valid" not in call.data:
        raise service_error("query_plan_nothing_to_update")
    return await _queries(call).async_update(call.data["plan_id"], plan,
                                             call.data.get("is_valid"))


async def _async_delete_plan(call: ServiceCall) -> ServiceResponse:
    return await _queries(call).async_delete(call.data["plan_id"])


async def _async_admin_only(handler: Handler, call: ServiceCall) -> ServiceResponse:
    """Home Assistant's admin check for releases whose `async_register_admin_service` cannot
    return a response (before 2025.6)."""
    if call.context.user_id:
        user = await call.hass.auth.async_get_user(call.context.user_id)
        if user is None:
            raise UnknownUser(context=call.context)
        if not user.is_admin:
            raise Unauthorized(context=call.context)
    return await handler(call)


def _register_admin(hass: HomeAssistant, name: str, handler: Handler, schema: vol.Schema,
                    response: SupportsResponse) -> None:
    register: Any = ha_service.async_register_admin_service
    if "supports_response" in inspect.signature(register).parameters:
        register(hass, DOMAIN, name, handler, schema, supports_response=response)
    else:
        hass.services.async_register(DOMAIN, name, functools.partial(_async_admin_only, handler),
                                     schema=schema, supports_response=response)


# Services that change stored state or the registry: only administrators may call them.
# Every other service reads, and reads only what is exposed to Assist.
READS: tuple[tuple[str, Handler, vol.Schema, SupportsResponse], ...] = (
    (SERVICE_RETRIEVE, _admitted(_async_retrieve), RETRIEVE_SCHEMA, SupportsResponse.ONLY),
    (SERVICE_PREVIEW_VIEW_RULE, _async_preview_view, PREVIEW_SCHEMA, SupportsResponse.ONLY),
    (SERVICE_LIST_VIEW_RULES, _async_list_views, RequestSchema({}), SupportsResponse.ONLY),
    (SERVICE_LIST_VIEW_RULE_REVISIONS, _async_list_view_revisions, NAME_SCHEMA,
     SupportsResponse.ONLY),
    (SERVICE_SEARCH, _admitted(_async_search), SEARCH_SCHEMA, SupportsResponse.ONLY),
    (SERVICE_RENAME_PREVIEW, _async_rename_preview, RENAME_SCHEMA, SupportsResponse.ONLY),
    # Asking warms the question cache (a plan, its use count); what it stores is the
    # integration's own reading of the question, never something the caller wrote.
    (SERVICE_NATURAL_QUERY, _admitted(_async_natural_query), NATURAL_QUERY_SCHEMA,
     SupportsResponse.ONLY),
    (SERVICE_NATURAL_QUERY_SUGGEST, _async_suggest, SUGGEST_SCHEMA, SupportsResponse.ONLY),
    (SERVICE_LIST_QUERY_PLANS, _async_list_plans, LIST_PLANS_SCHEMA, SupportsResponse.ONLY),
    (SERVICE_GET_QUERY_PLAN, _async_get_plan, PLAN_ID_SCHEMA, SupportsResponse.ONLY),
)
WRITES: tuple[tuple[str, Handler, vol.Schema, SupportsResponse], ...] = (
    (SERVICE_REBUILD_INDEX, _async_rebuild, RequestSchema({}), SupportsResponse.OPTIONAL),
    (SERVICE_PUBLISH_VIEW_RULE, _async_publish_view, PUBLISH_SCHEMA,
     SupportsResponse.OPTIONAL),
    (SERVICE_DELETE_VIEW_RULE, _async_delete_view, NAME_SCHEMA, SupportsResponse.OPTIONAL),
    (SERVICE_ROLLBACK_VIEW_RULE, _async_rollback_view, ROLLBACK_SCHEMA,
     SupportsResponse.OPTIONAL),
    (SERVICE_RENAME_EXECUTE, _async_rename_execute, RENAME_SCHEMA, SupportsResponse.OPTIONAL),
    (SERVICE_RENAME_ROLLBACK, _async_rename_rollback, ROLLBACK_RENAME_SCHEMA,
     SupportsResponse.OPTIONAL),
    (SERVICE_UPDATE_QUERY_PLAN, _async_update_plan, UPDATE_PLAN_SCHEMA,
     SupportsResponse.OPTIONAL),
    (SERVICE_DELETE_QUERY_PLAN, _async_delete_plan, PLAN_ID_SCHEMA, SupportsResponse.OPTIONAL),
)


@callback
def async_register_services(hass: HomeAssistant) -> None:
    for name, handler, schema, response in READS:
        hass.services.async_register(DOMAIN, name, handler, schema=schema,
                                     supports_response=response)
    for name, handler, schema, response in WRITES:
        _register_admin(hass, name, handler, schema, response)
