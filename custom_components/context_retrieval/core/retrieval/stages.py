"""The values one command's retrieval hands from stage to stage (`resolve`): each stage takes
them and returns new ones, never edits what it was given."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from ..base.models import Basis, Candidate, Mention
from .scope import ScopeResult

REMOVED_LISTED = 20  # entity ids listed in `capability_removed`; the count says the rest


@dataclass(frozen=True, slots=True)
class Scoped:
    """The entities a command may act on once its rooms, floors, labels and exclusions are
    applied, and how strict the capability check is."""

    scope: ScopeResult
    pool: list[str]
    pool_set: AbstractSet[str]
    excluded: set[str]
    hard: bool


@dataclass(frozen=True, slots=True)
class Found:
    """What a command's names and type words selected, considered and would ask about."""

    selected: tuple[Candidate, ...] = ()
    considered: tuple[Candidate, ...] = ()
    clarify_pool: tuple[str, ...] = ()
    type_groups: tuple[tuple[str, ...], ...] = ()
    read_as_type: tuple[Mention, ...] = ()  # names read as their type words
    named_any: bool = False


def based(candidates: list[Candidate], basis: Basis) -> list[Candidate]:
    """The candidates marked with what selected them (copies: the recall may share its
    candidates between commands)."""
    # Built field by field: a selection of thousands ("every light except the kitchen") spent
    # more on `dataclasses.replace` than on choosing them.
    return [
        Candidate(
            c.entity_id,
            c.entity_kind,
            c.keyword_score,
            c.vector_score,
            c.total_score,
            c.breakdown,
            c.reasons,
            basis,
        )
        for c in candidates
    ]
