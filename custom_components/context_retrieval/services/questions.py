"""The natural question services: ask, suggest, and the plan cache (list, get, update,
delete)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv

from ..const import (
    DEFAULT_PLAN_LIST_LIMIT,
    MAX_LIST_OFFSET,
    MAX_PLAN_JSON_CHARS,
    MAX_QUESTION_CHARS,
)
from ..data import loaded_data
from ..errors import service_error
from .language import text_language
from .schema import ID, LANGUAGE, RequestSchema, bounded_text, unicode_string

QUESTION = bounded_text(MAX_QUESTION_CHARS)
NATURAL_QUERY_SCHEMA = RequestSchema(
    {vol.Required("question"): QUESTION, vol.Optional("language"): LANGUAGE}
)
SUGGEST_SCHEMA = RequestSchema(
    {
        vol.Required("question"): QUESTION,
        vol.Optional("limit"): vol.All(vol.Coerce(int), vol.Range(min=1, max=50)),
        vol.Optional("threshold"): vol.All(vol.Coerce(float), vol.Range(min=0, max=1)),
    }
)
LIST_PLANS_SCHEMA = RequestSchema(
    {
        vol.Optional("limit", default=DEFAULT_PLAN_LIST_LIMIT): vol.All(
            vol.Coerce(int), vol.Range(min=1, max=1000)
        ),
        vol.Optional("offset", default=0): vol.All(
            vol.Coerce(int), vol.Range(min=0, max=MAX_LIST_OFFSET)
        ),
        vol.Optional("language"): LANGUAGE,
    }
)
PLAN_ID_SCHEMA = RequestSchema({vol.Required("plan_id"): ID})
# A plan comes as an object, or from YAML or the UI as JSON text (parsed by the validator).
UPDATE_PLAN_SCHEMA = RequestSchema(
    {
        vol.Required("plan_id"): ID,
        vol.Optional("plan"): vol.Any(
            dict, vol.All(unicode_string, vol.Length(max=MAX_PLAN_JSON_CHARS))
        ),
        vol.Optional("is_valid"): cv.boolean,
    }
)


async def async_natural_query(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    data = loaded_data(hass)
    question, given = request["question"], request.get("language")
    # A language fixed in the options reads every question the request names none for.
    fixed = data.settings.language and not given
    language = None if fixed else text_language(hass, question, given)
    return await data.queries.async_ask(question, language)


async def async_natural_query_suggest(
    hass: HomeAssistant, request: Mapping[str, Any]
) -> dict[str, Any]:
    queries = loaded_data(hass).queries
    return await queries.async_suggest(
        request["question"], request.get("limit"), request.get("threshold")
    )


async def async_list_query_plans(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    queries = loaded_data(hass).queries
    return await queries.async_list(request["limit"], request["offset"], request.get("language"))


async def async_get_query_plan(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    return await loaded_data(hass).queries.async_get(request["plan_id"])


async def async_update_query_plan(
    hass: HomeAssistant, request: Mapping[str, Any]
) -> dict[str, Any]:
    plan = request.get("plan")  # JSON text is parsed, safely, by the plan validator
    if plan is None and "is_valid" not in request:
        raise service_error("query_plan_nothing_to_update")
    queries = loaded_data(hass).queries
    return await queries.async_update(request["plan_id"], plan, request.get("is_valid"))


async def async_delete_query_plan(
    hass: HomeAssistant, request: Mapping[str, Any]
) -> dict[str, Any]:
    return await loaded_data(hass).queries.async_delete(request["plan_id"])
