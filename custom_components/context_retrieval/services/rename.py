"""The bulk rename services: preview, execute (with a snapshot first) and rollback; the panel
also lists the snapshots. All of them are for administrators: a preview shows every exposed
name and runs the caller's regular expression (on the linear matcher, within its budget)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv

from ..const import (
    DEFAULT_RENAME_TARGET,
    DEFAULT_RENAME_WHOLE_WORD,
    MAX_FIND_CHARS,
    MAX_RENAME_EXCLUDE,
    MAX_REPLACE_CHARS,
    RENAME_TARGETS,
)
from ..data import loaded_data
from ..errors import InvalidRequest
from ..renames import describe, spec_from
from .schema import ID, RequestSchema, bounded_text, unicode_string


def _replacement(value: Any) -> str:
    replacement = "" if value is None else unicode_string(value)
    if len(replacement) > MAX_REPLACE_CHARS:
        raise InvalidRequest("rename_replace_too_long")
    return replacement


RENAME_SCHEMA = RequestSchema(
    {
        # Not trimmed: " lamp" may be exactly what is to be found.
        vol.Required("find"): bounded_text(
            MAX_FIND_CHARS, "rename_empty_find", "rename_find_too_long", trim=False
        ),
        vol.Optional("replace", default=""): _replacement,
        vol.Optional("target", default=DEFAULT_RENAME_TARGET): vol.In(RENAME_TARGETS),
        vol.Optional("match_case", default=False): cv.boolean,
        vol.Optional("whole_word", default=DEFAULT_RENAME_WHOLE_WORD): cv.boolean,
        vol.Optional("regex", default=False): cv.boolean,
        vol.Optional("exclude", default=list): vol.All(
            cv.ensure_list, vol.Length(max=MAX_RENAME_EXCLUDE), [cv.entity_id]
        ),
    }
)
ROLLBACK_RENAME_SCHEMA = RequestSchema({vol.Required("snapshot_id"): ID})


async def async_rename_preview(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    renames = loaded_data(hass).renames
    return describe(await renames.async_preview(spec_from(dict(request))))


async def async_rename_execute(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    renames = loaded_data(hass).renames
    return await renames.async_execute(spec_from(dict(request)))


async def async_rename_rollback(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    return await loaded_data(hass).renames.async_rollback(request["snapshot_id"])


async def async_rename_snapshots(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"snapshots": await loaded_data(hass).renames.async_snapshots()}
