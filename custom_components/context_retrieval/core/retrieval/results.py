"""What retrieval hands back: one result per command, and the question it asks when unsure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base.models import Candidate, QueryIR


@dataclass(frozen=True, slots=True)
class ClarificationOption:
    entity_id: str
    label: str
    name: str = ""
    area: str | None = None


@dataclass(slots=True)
class ClarificationRequest:
    """Asked instead of guessing when the top candidates are too close."""

    question: str
    options: list[ClarificationOption]
    language: str = "en"
    command_index: int = 0


@dataclass(slots=True)
class RetrievalResult:
    """What one command of the utterance resolved to."""

    ir: QueryIR
    candidates: list[Candidate] = field(default_factory=list)
    selected: list[Candidate] = field(default_factory=list)
    clarification: ClarificationRequest | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def selected_ids(self) -> list[str]:
        return [c.entity_id for c in self.selected]
