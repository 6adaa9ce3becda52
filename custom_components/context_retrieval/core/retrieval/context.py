"""What every stage of one retrieval run reads: the home's index, the language, the options,
the vector searcher, the conversation and the satellite's area."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..base.index import DeviceIndex
from ..base.lexicon import Lexicon, LexiconSet
from ..base.vector_search import VectorSearcher
from .gate import DEFAULT_EPSILON, MAX_OPTIONS
from .scoring import Weights
from .state import ConversationState


@dataclass(frozen=True, slots=True)
class RetrievalOptions:
    top_k: int = 5
    epsilon: float = DEFAULT_EPSILON
    weights: Weights = Weights()  # noqa: RUF009 - frozen, so a shared default is safe
    # From this reading confidence on, an entity that cannot do the action is dropped; below
    # it the reading may be wrong about the action, so capability only ranks.
    hard_capability_confidence: float = 0.8
    min_match_score: float = 0.75  # below this a fuzzy name match is not a match
    max_options: int = MAX_OPTIONS
    max_candidates: int = 200  # per recall side
    llm_timeout: float = 5.0
    # Unlocking, opening a garage door or gate and disarming wait for the user's yes.
    confirm_security: bool = True


@dataclass(slots=True)
class RunContext:
    index: DeviceIndex
    lexicons: LexiconSet
    lex: Lexicon
    options: RetrievalOptions
    vectors: VectorSearcher
    state: ConversationState | None
    context_area: str | None
    hint_areas: set[str] = field(default_factory=set)
    # What the capability check took out of the command being resolved, for explanations.
    incapable: set[str] = field(default_factory=set)

    def note_incapable(self, considered: Iterable[str], kept: Iterable[str]) -> None:
        """Remember the entities the capability check dropped from `considered`."""
        self.incapable.update(set(considered) - set(kept))
