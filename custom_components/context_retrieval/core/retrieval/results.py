"""What retrieval hands back: one result per command, and the question it asks when unsure."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..base.models import Candidate, QueryIR
from .meta import ResultMeta


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


@dataclass(frozen=True, slots=True)
class ConfirmationRequest:
    """Asked before an action that opens the home to others (unlocking a door, opening the
    garage): the entities and the action wait for a yes."""

    question: str
    entity_ids: tuple[str, ...]
    action: str
    language: str = "en"


@dataclass(slots=True)
class RetrievalResult:
    """What one command of the utterance resolved to.

    `candidates` (everything considered, best first) is read only to explain a result; when a
    type selects thousands, ranking them costs more than the rest of the command, so it may be
    handed over as a function (`rank_later`) and is ranked on first read.
    """

    ir: QueryIR
    selected: list[Candidate] = field(default_factory=list)
    clarification: ClarificationRequest | None = None
    # Set when what was selected waits for the user's yes (`grounding`); cleared once given.
    confirmation: ConfirmationRequest | None = None
    meta: ResultMeta = field(default_factory=ResultMeta)
    _ranking: list[Candidate] | Callable[[], list[Candidate]] = field(
        default_factory=list, repr=False
    )

    @property
    def candidates(self) -> list[Candidate]:
        if callable(self._ranking):
            self._ranking = self._ranking()
        return self._ranking

    @candidates.setter
    def candidates(self, value: list[Candidate]) -> None:
        self._ranking = value

    def rank_later(self, ranking: Callable[[], list[Candidate]]) -> None:
        self._ranking = ranking

    @property
    def selected_ids(self) -> list[str]:
        return [c.entity_id for c in self.selected]
