"""The view rule services: preview, publish, delete, list, list revisions, rollback."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant

from ..const import MAX_VIEW_RULE_CHARS
from ..core.base.lexicon import default_lexicons
from ..core.base.text import has_hidden_characters
from ..core.views.store import clean_name
from ..data import loaded_data
from ..errors import InvalidRequest
from .language import known_language
from .schema import ID, LANGUAGE, RequestSchema, bounded_text, unicode_string


def _view_name(value: Any) -> str:
    try:
        return clean_name(unicode_string(value))
    except ValueError as err:
        raise InvalidRequest("view_name_invalid", {"detail": str(err)}) from err


def _new_view_name(value: Any) -> str:
    """A name being published also becomes a sensor's name and a label the assistant hears:
    no control, bidi or zero-width characters."""
    name = _view_name(value)
    if has_hidden_characters(name):
        raise InvalidRequest("view_name_hidden_characters")
    return name


VIEW_RULE = bounded_text(MAX_VIEW_RULE_CHARS, empty="view_rule_syntax_empty")
PREVIEW_SCHEMA = RequestSchema(
    {vol.Required("rule"): VIEW_RULE, vol.Optional("language"): LANGUAGE}
)
PUBLISH_SCHEMA = RequestSchema(
    {
        vol.Required("name"): _new_view_name,
        vol.Required("rule"): VIEW_RULE,
        vol.Optional("language"): LANGUAGE,
    }
)
NAME_SCHEMA = RequestSchema({vol.Required("name"): _view_name})
ROLLBACK_SCHEMA = RequestSchema({vol.Required("name"): _view_name, vol.Optional("revision_id"): ID})


def _language(request: Mapping[str, Any]) -> str | None:
    """The request's language if we read it; else the rule's own words decide (Home
    Assistant's language breaking a tie)."""
    return known_language(default_lexicons(), request.get("language"))


async def async_preview_view_rule(
    hass: HomeAssistant, request: Mapping[str, Any]
) -> dict[str, Any]:
    views = loaded_data(hass).views
    return await views.async_preview(request["rule"], _language(request))


async def async_publish_view_rule(
    hass: HomeAssistant, request: Mapping[str, Any]
) -> dict[str, Any]:
    views = loaded_data(hass).views
    return await views.async_publish(request["name"], request["rule"], _language(request))


async def async_delete_view_rule(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    return await loaded_data(hass).views.async_delete(request["name"])


async def async_list_view_rules(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"rules": loaded_data(hass).views.list_rules()}


async def async_list_view_rule_revisions(
    hass: HomeAssistant, request: Mapping[str, Any]
) -> dict[str, Any]:
    name = request["name"]
    return {"name": name, "revisions": await loaded_data(hass).views.async_revisions(name)}


async def async_rollback_view_rule(
    hass: HomeAssistant, request: Mapping[str, Any]
) -> dict[str, Any]:
    views = loaded_data(hass).views
    return await views.async_rollback(request["name"], request.get("revision_id"))
