"""Per-conversation memory: what was selected lately and the question we are waiting on.

The last-mentioned entities (at most 5, for 300 s) resolve "it", "them", "它": a follow-up comes
within seconds, and an old "it" is more likely a new topic than a reference.
The whole last selection is kept too, so "turn them back on" after "all the lights" works.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..base.models import QueryIR
from .results import ClarificationRequest, ConfirmationRequest

DEFAULT_MAX_RECENT = 5
DEFAULT_TTL_SECONDS = 300.0


@dataclass(slots=True)
class PendingClarification:
    """A question we asked; the next turn may answer it."""

    request: ClarificationRequest
    candidate_ids: list[str]
    ir: QueryIR
    created_at: float
    primary: list[str] = field(default_factory=list)  # the tied ones; the rest are near names
    misses: int = 0  # replies so far that neither answered it nor asked for something else


@dataclass(slots=True)
class PendingConfirmation:
    """An action we asked the user to confirm; the next turn's yes carries it out."""

    request: ConfirmationRequest
    ir: QueryIR
    created_at: float
    setting: dict[str, Any] | None = None  # what a set command sets ("the garage door to 50 %")


@dataclass(slots=True)
class ConversationState:
    max_recent: int = DEFAULT_MAX_RECENT
    ttl_seconds: float = DEFAULT_TTL_SECONDS
    clock: Callable[[], float] = time.monotonic
    _recent: list[tuple[str, float]] = field(default_factory=list)  # newest first
    last_selection: list[str] = field(default_factory=list)
    last_selection_at: float = 0.0
    pending: PendingClarification | None = None
    # The actions waiting for the user's yes, one per command that asked for one.
    confirming: tuple[PendingConfirmation, ...] = ()
    # The last command that said what to do: "and the bedroom" next turn does it again.
    last_command: QueryIR | None = None
    last_command_at: float = 0.0

    def _fresh(self, stamp: float, now: float) -> bool:
        return now - stamp <= self.ttl_seconds

    def remember(self, entity_ids: list[str]) -> None:
        """Record a turn's selection (it becomes what "it"/"them" mean)."""
        if not entity_ids:
            return
        now = self.clock()
        ids = list(dict.fromkeys(entity_ids))
        self.last_selection = ids
        self.last_selection_at = now
        # A selection may be thousands ("every light but one room"): looked up as a set, and
        # only as many of them as are kept become recent.
        chosen = set(ids)
        rest = [(eid, t) for eid, t in self._recent if eid not in chosen]
        self._recent = ([(eid, now) for eid in ids[: self.max_recent]] + rest)[: self.max_recent]

    @property
    def recent_entity_ids(self) -> list[str]:
        now = self.clock()
        return [eid for eid, t in self._recent if self._fresh(t, now)]

    def last_turn(self) -> list[str]:
        """The whole selection of the last turn, if it is still fresh."""
        if self.last_selection and self._fresh(self.last_selection_at, self.clock()):
            return list(self.last_selection)
        return []

    def remember_command(self, ir: QueryIR) -> None:
        if ir.action is not None:
            self.last_command = ir
            self.last_command_at = self.clock()

    def last_action(self) -> QueryIR | None:
        """The last command that had an action, if it is still fresh."""
        if self.last_command is not None and self._fresh(self.last_command_at, self.clock()):
            return self.last_command
        return None

    def set_pending(
        self,
        request: ClarificationRequest,
        candidate_ids: list[str],
        ir: QueryIR,
        primary: list[str] | None = None,
        misses: int = 0,
    ) -> None:
        self.pending = PendingClarification(
            request,
            list(candidate_ids),
            ir,
            self.clock(),
            list(primary or candidate_ids),
            misses,
        )

    def take_pending(self) -> PendingClarification | None:
        """The pending question if still fresh; it is cleared either way."""
        pending, self.pending = self.pending, None
        if pending is not None and self._fresh(pending.created_at, self.clock()):
            return pending
        return None

    def add_confirming(
        self, request: ConfirmationRequest, ir: QueryIR, setting: dict[str, Any] | None = None
    ) -> None:
        self.confirming = (
            *self.confirming,
            PendingConfirmation(request, ir, self.clock(), setting),
        )

    def take_confirming(self) -> tuple[PendingConfirmation, ...]:
        """The actions waiting for a yes, if still fresh; cleared either way: a confirmation
        is asked for the very next reply."""
        pending, self.confirming = self.confirming, ()
        return tuple(p for p in pending if self._fresh(p.created_at, self.clock()))

    def forget(self, entity_ids: set[str]) -> None:
        """Drop entities that no longer exist (the home changed)."""
        self._recent = [(e, t) for e, t in self._recent if e not in entity_ids]
        self.last_selection = [e for e in self.last_selection if e not in entity_ids]

    def clear(self) -> None:
        self._recent.clear()
        self.last_selection = []
        self.pending = None
        self.confirming = ()
        self.last_command = None
