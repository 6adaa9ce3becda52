"""What every service request goes through first: a schema whose errors are all translated, and
the field validators the services share.

A request is checked whole before anything runs, so it is refused up front and never half-way
through. The same schemas check the panel's websocket commands.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv

from ..const import MAX_ID_CHARS, MAX_LANGUAGE_CHARS
from ..errors import InvalidRequest

# What a service does, given the request its schema checked: called by the service and by the
# panel's websocket command alike.
type Operation = Callable[[HomeAssistant, Mapping[str, Any]], Awaitable[dict[str, Any]]]


# voluptuous is read as untyped (pyproject.toml: probatio stands in for it from 2026.10).
class RequestSchema(vol.Schema):  # type: ignore[misc]
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
            raise InvalidRequest(
                "invalid_request", {"field": field, "detail": first.error_message}
            ) from err


NO_FIELDS = RequestSchema({})


def unicode_string(value: Any) -> str:
    """`cv.string`, refusing what no store can hold: lone surrogates (from `\\ud800` in JSON)
    have no UTF-8 form."""
    text: str = cv.string(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InvalidRequest("text_not_unicode") from err
    return text


def bounded_text(
    limit: int, empty: str = "empty_text", too_long: str = "text_too_long", trim: bool = True
) -> Callable[[Any], str]:
    """A string (trimmed unless told), neither empty nor longer than `limit`."""

    def validate(value: Any) -> str:
        checked = unicode_string(value)
        checked = checked.strip() if trim else checked
        if not checked:
            raise InvalidRequest(empty)
        if len(checked) > limit:
            raise InvalidRequest(too_long, {"limit": str(limit)})
        return checked

    return validate


def _language(value: Any) -> str | None:
    """A language tag; an empty one means none was given (a cleared field in the UI)."""
    tag = unicode_string(value).strip()
    if len(tag) > MAX_LANGUAGE_CHARS:
        raise vol.Invalid(f"a language tag has at most {MAX_LANGUAGE_CHARS} characters")
    return tag or None


LANGUAGE = _language
# Plan, snapshot, revision and conversation ids.
ID = vol.All(unicode_string, vol.Length(min=1, max=MAX_ID_CHARS))
