"""Recall: keyword and vector search over the entities still in play, fused into one ranking.

Keyword recall (`base.keyword_search`) matches names, aliases and device names fuzzily; vector
recall (the index's hashed n-gram vectors, or an embedding model) rescues typos and word order.
`scoring.fuse` weighs the two. The vector side may fail (an embedding service is down): recall
then goes on with keywords alone and says so.
"""

from __future__ import annotations

from ..base import keyword_search
from ..base.models import Candidate
from .context import RunContext
from .meta import ResultMeta
from .scoring import fuse


def vector_scores(text: str, ids: list[str], ctx: RunContext) -> dict[str, float]:
    if not ids:
        return {}
    try:
        vec = ctx.vectors.vectorize(text)
        # The in-memory searcher scores a few thousand ids without ranking them; any other
        # searcher ranks them all.
        scores_of = getattr(ctx.vectors, "scores_of", None)
        if scores_of is not None:
            return dict(scores_of(vec, set(ids)))
        found = ctx.vectors.search(vec, top_k=len(ids), allowed=set(ids))
    except Exception:
        return {}
    return {c.entity_id: c.vector_score for c in found}


def recall_keyword(text: str, pool: list[str], ctx: RunContext) -> list[Candidate]:
    """Keyword recall within `pool`; the vector side only scores what keywords found."""
    keyword = keyword_search.search(ctx.index, text, pool=pool, limit=ctx.options.max_candidates)
    if not keyword:
        return []
    vec = vector_scores(text, [c.entity_id for c in keyword], ctx)
    vector = [Candidate(entity_id=e, vector_score=s) for e, s in vec.items()]
    return fuse(keyword, vector, ctx.options.weights)


def recall_both(text: str, pool: list[str], ctx: RunContext, meta: ResultMeta) -> list[Candidate]:
    """Keyword ∪ vector recall within `pool`; a failing vector side is noted in `meta`."""
    keyword = keyword_search.search(ctx.index, text, pool=pool, limit=ctx.options.max_candidates)
    vec_candidates: list[Candidate] = []
    try:
        vec_candidates = ctx.vectors.search(
            ctx.vectors.vectorize(text), ctx.options.max_candidates, allowed=set(pool)
        )
    except Exception:
        meta.vector_unavailable = True
    return fuse(keyword, vec_candidates, ctx.options.weights)
