"""Knowing when not to act: whether a command commands anything at all.

What a result selects is what the assistant would act on. Some utterances name devices of the
home without commanding them — a value Home Assistant would refuse ("brightness to 150 %",
"blinds to -20 %"). Such a command selects nothing; the devices it named are kept in
`meta["mentioned"]` so an assistant's context can still list them, marked as mentioned, not
commanded, and `meta["not_commanded"]` says why.
"""

from __future__ import annotations

from ..base.models import QueryIR
from .results import RetrievalResult


def not_commanded_reason(ir: QueryIR) -> str | None:
    """Why the command, as read, commands nothing; None when it may act."""
    if ir.value_error:
        return f"value_{ir.value_error}"
    return None


def withhold(result: RetrievalResult, reason: str) -> None:
    """Select nothing, keeping what the command named as mentioned."""
    mentioned = list(dict.fromkeys([c.entity_id for c in result.selected]))
    result.meta["not_commanded"] = reason
    result.meta["mentioned"] = mentioned
    result.selected = []
    result.clarification = None
    result.meta.pop("clarification_pool", None)
