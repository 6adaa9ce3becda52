"""core/retrieval/recall.py: keyword and vector recall within the entities still in play."""

from __future__ import annotations

import numpy as np

from custom_components.context_retrieval.core import DeviceIndex, LexiconSet
from custom_components.context_retrieval.core.base.models import Candidate
from custom_components.context_retrieval.core.retrieval.context import (
    RunContext,
)
from custom_components.context_retrieval.core.retrieval.meta import ResultMeta
from custom_components.context_retrieval.core.retrieval.recall import (
    recall_both,
    recall_keyword,
    vector_scores,
)
from tests.core.conftest import run_context


class BrokenVectors:
    """An embedding service that is down."""

    def vectorize(self, text: str) -> np.ndarray:
        raise ConnectionError("embedding service unreachable")

    def search(
        self, query_vector: np.ndarray, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]:
        raise ConnectionError("embedding service unreachable")


def context(index: DeviceIndex, lexicons: LexiconSet, vectors: object = None) -> RunContext:
    return run_context(index, lexicons, vectors)


def test_keyword_recall_scores_only_what_keywords_found(
    small_en_index: DeviceIndex, lexicons: LexiconSet
) -> None:
    ctx = context(small_en_index, lexicons)
    pool = ["light.bedroom_desk", "light.office_desk", "light.living_lamp", "lock.front_door"]
    ranked = recall_keyword("desk lamp", pool, ctx)
    ids = [c.entity_id for c in ranked]
    assert set(ids[:2]) == {"light.bedroom_desk", "light.office_desk"}
    assert "lock.front_door" not in ids
    assert all(c.vector_score > 0 for c in ranked[:2])
    assert recall_keyword("zzzz qqqq", pool, ctx) == []


def test_both_sides_are_fused_and_a_failing_vector_side_is_noted(
    small_en_index: DeviceIndex, lexicons: LexiconSet
) -> None:
    pool = list(small_en_index.entries)
    meta = ResultMeta()
    ranked = recall_both("ceiling fan", pool, context(small_en_index, lexicons), meta)
    assert ranked[0].entity_id == "fan.bedroom_fan" and meta.vector_unavailable is None
    assert ranked[0].keyword_score > 0 and ranked[0].vector_score > 0
    meta = ResultMeta()
    broken = recall_both(
        "ceiling fan", pool, context(small_en_index, lexicons, BrokenVectors()), meta
    )
    assert meta.vector_unavailable is True
    assert broken[0].entity_id == "fan.bedroom_fan" and broken[0].vector_score == 0.0


def test_vector_scores_of_a_failing_searcher_are_empty(
    small_en_index: DeviceIndex, lexicons: LexiconSet
) -> None:
    ids = ["light.living_lamp", "light.bedroom_desk"]
    scores = vector_scores("floor lamp", ids, context(small_en_index, lexicons))
    assert set(scores) <= set(ids) and scores["light.living_lamp"] > scores.get(
        "light.bedroom_desk", 0.0
    )
    assert (
        vector_scores("floor lamp", ids, context(small_en_index, lexicons, BrokenVectors())) == {}
    )
    assert vector_scores("floor lamp", [], context(small_en_index, lexicons)) == {}
