"""The repair issues that tell a homeowner how opening one of our SQLite stores went: it could
not be opened at all, a damaged file was moved aside and a fresh one started, or its
write-ahead log was damaged and the changes after the damage are lost (the same issue, with
its own text). The view rules and the question cache report alike; each has its own issue
ids and texts."""

from __future__ import annotations

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN
from .core.base.sqlite_file import OpenReport


@callback
def async_store_unavailable(
    hass: HomeAssistant, issue_id: str, err: Exception, severity: ir.IssueSeverity
) -> None:
    """The store could not be opened (permissions, disk): say why."""
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue_id,
        is_fixable=False,
        severity=severity,
        translation_key=issue_id,
        translation_placeholders={"error": str(err)},
    )


@callback
def async_store_opened(
    hass: HomeAssistant, report: OpenReport, unavailable_id: str, recovered_id: str
) -> None:
    """The store opened: an earlier "unavailable" no longer holds, and a damaged file that was
    moved aside is told once (the store logged it; the issue is what the homeowner sees)."""
    ir.async_delete_issue(hass, DOMAIN, unavailable_id)
    if report.recovered or report.log_damaged:
        ir.async_create_issue(
            hass,
            DOMAIN,
            recovered_id,
            is_fixable=False,
            is_persistent=False,
            severity=ir.IssueSeverity.WARNING,
            translation_key=f"{recovered_id}_log" if report.log_damaged else recovered_id,
            translation_placeholders={
                "path": str(report.moved_to),
                "error": report.error or "",
            },
        )
