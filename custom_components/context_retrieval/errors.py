"""The errors our services raise: translated, and a 400 over the REST API for bad requests.

Home Assistant's REST API (`POST /api/services/…`) answers 400 only for `vol.Invalid`; any other
exception, `ServiceValidationError` included, becomes a 500 with a traceback in the log (checked
on 2025.4 and 2026.2). A request the caller can fix (empty, too long, malformed, naming something
that does not exist) therefore raises `InvalidRequest`, which is both: a translated
`ServiceValidationError` for the UI, automations and `pytest.raises`, and a `vol.Invalid` for
the REST API. Over the websocket API it arrives as `invalid_format` with the English message.

What the caller cannot fix — the integration is not loaded, the index is still being built, a
store is unavailable or read-only, a language model timed out — stays a plain
`ServiceValidationError`: a script's `continue_on_error` may skip those, and they say nothing
about the request.
"""

from __future__ import annotations

import voluptuous as vol
from homeassistant.exceptions import ServiceValidationError

from .const import DOMAIN, MAX_SHOWN_NAME_CHARS
from .core.base.redact import clean
from .core.views.compiler import CompileResult
from .core.views.universe import TagUniverse

# Translation keys of conditions of this installation, not of the request.
SYSTEM_CONDITIONS = frozenset(
    {
        "not_loaded",
        "index_not_ready",
        "view_store_unavailable",
        "view_store_read_only",
        "view_store_failed",
        "view_rule_llm_timeout",
        "query_store_unavailable",
        "query_store_read_only",
    }
)


# voluptuous is read as untyped (pyproject.toml: probatio stands in for it from 2026.10).
class InvalidRequest(ServiceValidationError, vol.Invalid):  # type: ignore[misc]
    """A translated error about the request itself (HTTP 400 over REST)."""

    def __init__(self, key: str, placeholders: dict[str, str] | None = None) -> None:
        ServiceValidationError.__init__(
            self,
            translation_domain=DOMAIN,
            translation_key=key,
            translation_placeholders=placeholders or None,
        )
        # What `vol.Invalid.__init__` would set, for code that reads an Invalid's fields.
        self._path: list[str | int] = []
        self._error_message = key
        self.error_type = None


def service_error(key: str, **placeholders: str) -> ServiceValidationError:
    """The translated error for `key`: `InvalidRequest` unless it names a system condition."""
    if key in SYSTEM_CONDITIONS:
        return ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key=key,
            translation_placeholders=placeholders or None,
        )
    return InvalidRequest(key, placeholders)


def compile_error(result: CompileResult) -> ServiceValidationError:
    """A failed compile as a translated service error that says where and why."""
    if result.error_code == "LLM_TIMEOUT":
        key = "view_rule_llm_timeout"
    elif result.error_code == "VALIDATION_ERROR":
        key = "view_rule_invalid"
    else:
        key = f"view_rule_syntax_{result.error_reason or 'unknown'}"
        if result.error_reason not in SYNTAX_REASONS:
            key = "view_rule_syntax_unknown"
    return service_error(
        key, position=str((result.error_position or 0) + 1), detail=result.error_message or ""
    )


def unresolved_error(result: CompileResult, universe: TagUniverse) -> ServiceValidationError:
    """A rule that names what the home does not have, with what it might have meant."""
    hints = [
        f"{clean(tag, MAX_SHOWN_NAME_CHARS)} → "
        + " / ".join(clean(name, MAX_SHOWN_NAME_CHARS) for name in found)
        for tag in result.unresolved_tags
        if (found := universe.suggest(tag))
    ]
    return service_error(
        "view_rule_unresolved",
        tags=", ".join(f"“{clean(tag, MAX_SHOWN_NAME_CHARS)}”" for tag in result.unresolved_tags),
        hint=f" ({'; '.join(hints)})" if hints else "",
    )


# Parser reasons with their own translated message (see core.views.model.RuleSyntaxError).
SYNTAX_REASONS = frozenset(
    {
        "empty",
        "too_long",
        "too_deep",
        "bad_operator",
        "unterminated_quote",
        "empty_tag",
        "expected_tag",
        "unexpected_close",
        "missing_operator",
        "empty_group",
        "unclosed_paren",
    }
)
