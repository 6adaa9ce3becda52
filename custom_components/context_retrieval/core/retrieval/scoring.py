"""Fusion of keyword and vector recall into one ranked, explained candidate list.

total = keyword_weight × keyword + vector_weight × vector (defaults 1.0 and 0.3): exact names
dominate, vectors break ties and rescue typos. Every candidate keeps its breakdown and reasons.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

from ..base.models import Candidate, Reason

DEFAULT_KEYWORD_WEIGHT = 1.0
DEFAULT_VECTOR_WEIGHT = 0.3


@dataclass(frozen=True, slots=True)
class Weights:
    keyword: float = DEFAULT_KEYWORD_WEIGHT
    vector: float = DEFAULT_VECTOR_WEIGHT

    @property
    def scale(self) -> float:
        """The best possible total, to report scores on a 0..1 scale."""
        return (self.keyword + self.vector) or 1.0


def fuse(
    keyword: Iterable[Candidate], vector: Iterable[Candidate], weights: Weights = Weights()
) -> list[Candidate]:
    """Union of both recalls; `total_score` is normalised to [0, 1] by the weights."""
    merged: dict[str, Candidate] = {}
    for cand in keyword:
        merged[cand.entity_id] = Candidate(
            entity_id=cand.entity_id,
            entity_kind=cand.entity_kind,
            keyword_score=cand.keyword_score,
            breakdown=dict(cand.breakdown),
            reasons=list(cand.reasons),
        )
    for cand in vector:
        current = merged.get(cand.entity_id)
        if current is None:
            current = merged[cand.entity_id] = Candidate(
                entity_id=cand.entity_id, entity_kind=cand.entity_kind
            )
        current.vector_score = max(current.vector_score, cand.vector_score)
        current.reasons.extend(r for r in cand.reasons if r not in current.reasons)
    for cand in merged.values():
        keyword_shown, vector_shown, cand.total_score = _scores_shown(
            cand.keyword_score, cand.vector_score, weights
        )
        cand.breakdown.update(
            {
                "keyword": keyword_shown,
                "vector": vector_shown,
                "keyword_weight": weights.keyword,
                "vector_weight": weights.vector,
                "total": cand.total_score,
            }
        )
    return sorted(merged.values(), key=lambda c: (-c.total_score, c.entity_id))


def fused(
    entity_id: str,
    keyword_score: float,
    vector_score: float,
    reasons: list[Reason],
    weights: Weights = Weights(),
) -> Candidate:
    """The candidate `fuse` makes of one keyword and one vector score, built directly: a name
    shared by a thousand entities is one object each, not three."""
    vector_score = max(0.0, vector_score)
    keyword_shown, vector_shown, total = _rounded(keyword_score, vector_score, weights)
    return Candidate(
        entity_id=entity_id,
        keyword_score=keyword_score,
        vector_score=vector_score,
        total_score=total,
        breakdown={
            "keyword": keyword_shown,
            "vector": vector_shown,
            "keyword_weight": weights.keyword,
            "vector_weight": weights.vector,
            "total": total,
        },
        reasons=reasons,
    )


def _scores_shown(keyword: float, vector: float, weights: Weights) -> tuple[float, float, float]:
    """The keyword and vector scores as shown, and the total, of one pair."""
    total = round((weights.keyword * keyword + weights.vector * vector) / weights.scale, 6)
    return round(keyword, 4), round(vector, 4), total


# The hundreds of entities sharing a name share a few pairs: `fused` makes each pair's once.
_rounded = lru_cache(maxsize=1024)(_scores_shown)


def order_by_total(candidates: list[Candidate]) -> list[Candidate]:
    """Best total first, ties by entity id, as `fuse` orders (two stable sorts, no key tuples)."""
    out = sorted(candidates, key=attrgetter("entity_id"))
    out.sort(key=_minus_total)
    return out


def _minus_total(candidate: Candidate) -> float:
    return -candidate.total_score
