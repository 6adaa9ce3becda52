"""The integration's services, one module per feature: `retrieve` and `rebuild_index`
(retrieve.py), view rules (views.py), natural questions (questions.py), `search` (search.py)
and bulk rename (rename.py); schema.py holds what every request goes through, language.py
the language a request's text is read in.

This module only registers them: who may call which, and how many at once.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine, Mapping
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
from homeassistant.helpers import service as ha_service

from ..const import (
    BACKPRESSURE_RETRY_MS,
    DOMAIN,
    MAX_CONCURRENT_CALLS,
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
from ..data import loaded_data
from . import questions, rename, retrieve, search, views
from .schema import NO_FIELDS, Operation

type Handler = Callable[[ServiceCall], Coroutine[Any, Any, ServiceResponse]]


def _handler(operation: Operation) -> Handler:
    """The service handler for an operation: the call's checked data is the request."""

    @functools.wraps(operation)
    async def handle(call: ServiceCall) -> ServiceResponse:
        request: Mapping[str, Any] = call.data
        return await operation(call.hass, request)

    return handle


def _admitted(operation: Operation) -> Handler:
    """At most `MAX_CONCURRENT_CALLS` answered at once; the excess gets a response saying
    when to retry instead of a queue that grows without bound. Counted in the event loop."""
    handler = _handler(operation)

    @functools.wraps(handler)
    async def admit(call: ServiceCall) -> ServiceResponse:
        data = loaded_data(call.hass)
        if data.in_flight >= MAX_CONCURRENT_CALLS:
            data.backpressured += 1
            return {"code": "SEARCH_BACKPRESSURE", "retry_after_ms": BACKPRESSURE_RETRY_MS}
        data.in_flight += 1
        try:
            return await handler(call)
        finally:
            data.in_flight -= 1

    return admit


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


def _register_admin(
    hass: HomeAssistant,
    name: str,
    handler: Handler,
    schema: vol.Schema,
    response: SupportsResponse,
) -> None:
    register: Any = ha_service.async_register_admin_service
    if "supports_response" in inspect.signature(register).parameters:
        register(hass, DOMAIN, name, handler, schema, supports_response=response)
    else:
        hass.services.async_register(
            DOMAIN,
            name,
            functools.partial(_async_admin_only, handler),
            schema=schema,
            supports_response=response,
        )


ONLY = SupportsResponse.ONLY
OPTIONAL = SupportsResponse.OPTIONAL
type Service = tuple[str, Handler, vol.Schema, SupportsResponse]

# Services every user may call: they read, and read only what is exposed to Assist.
READS: tuple[Service, ...] = (
    (SERVICE_RETRIEVE, _admitted(retrieve.async_retrieve), retrieve.RETRIEVE_SCHEMA, ONLY),
    (
        SERVICE_PREVIEW_VIEW_RULE,
        _handler(views.async_preview_view_rule),
        views.PREVIEW_SCHEMA,
        ONLY,
    ),
    (SERVICE_LIST_VIEW_RULES, _handler(views.async_list_view_rules), NO_FIELDS, ONLY),
    (
        SERVICE_LIST_VIEW_RULE_REVISIONS,
        _handler(views.async_list_view_rule_revisions),
        views.NAME_SCHEMA,
        ONLY,
    ),
    (SERVICE_SEARCH, _admitted(search.async_search), search.SEARCH_SCHEMA, ONLY),
    # Asking warms the question cache (a plan, its use count); what it stores is the
    # integration's own reading of the question, never something the caller wrote.
    (
        SERVICE_NATURAL_QUERY,
        _admitted(questions.async_natural_query),
        questions.NATURAL_QUERY_SCHEMA,
        ONLY,
    ),
    (
        SERVICE_NATURAL_QUERY_SUGGEST,
        _handler(questions.async_natural_query_suggest),
        questions.SUGGEST_SCHEMA,
        ONLY,
    ),
    (
        SERVICE_LIST_QUERY_PLANS,
        _handler(questions.async_list_query_plans),
        questions.LIST_PLANS_SCHEMA,
        ONLY,
    ),
    (
        SERVICE_GET_QUERY_PLAN,
        _handler(questions.async_get_query_plan),
        questions.PLAN_ID_SCHEMA,
        ONLY,
    ),
)
# Reading, but for administrators only: the rename preview runs the caller's regular
# expression over every exposed name (on the linear matcher, within a budget), and belongs
# with the rename it prepares.
ADMIN_READS: tuple[Service, ...] = (
    (SERVICE_RENAME_PREVIEW, _handler(rename.async_rename_preview), rename.RENAME_SCHEMA, ONLY),
)
# Services that change stored state or the registry: only administrators may call them.
WRITES: tuple[Service, ...] = (
    (SERVICE_REBUILD_INDEX, _handler(retrieve.async_rebuild_index), NO_FIELDS, OPTIONAL),
    (
        SERVICE_PUBLISH_VIEW_RULE,
        _handler(views.async_publish_view_rule),
        views.PUBLISH_SCHEMA,
        OPTIONAL,
    ),
    (SERVICE_DELETE_VIEW_RULE, _handler(views.async_delete_view_rule), views.NAME_SCHEMA, OPTIONAL),
    (
        SERVICE_ROLLBACK_VIEW_RULE,
        _handler(views.async_rollback_view_rule),
        views.ROLLBACK_SCHEMA,
        OPTIONAL,
    ),
    (
        SERVICE_RENAME_EXECUTE,
        _handler(rename.async_rename_execute),
        rename.RENAME_SCHEMA,
        OPTIONAL,
    ),
    (
        SERVICE_RENAME_ROLLBACK,
        _handler(rename.async_rename_rollback),
        rename.ROLLBACK_RENAME_SCHEMA,
        OPTIONAL,
    ),
    (
        SERVICE_UPDATE_QUERY_PLAN,
        _handler(questions.async_update_query_plan),
        questions.UPDATE_PLAN_SCHEMA,
        OPTIONAL,
    ),
    (
        SERVICE_DELETE_QUERY_PLAN,
        _handler(questions.async_delete_query_plan),
        questions.PLAN_ID_SCHEMA,
        OPTIONAL,
    ),
)


@callback
def async_register_services(hass: HomeAssistant) -> None:
    for name, handler, schema, response in READS:
        hass.services.async_register(
            DOMAIN, name, handler, schema=schema, supports_response=response
        )
    for name, handler, schema, response in (*ADMIN_READS, *WRITES):
        _register_admin(hass, name, handler, schema, response)
