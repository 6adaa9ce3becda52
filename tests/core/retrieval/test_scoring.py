"""core/retrieval/scoring.py: keyword ∪ vector fusion with explained, normalised scores."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core.base.models import Candidate
from custom_components.context_retrieval.core.retrieval.scoring import (
    Weights,
    fuse,
    fused,
    order_by_total,
)


def kw(entity_id: str, score: float) -> Candidate:
    return Candidate(
        entity_id=entity_id,
        keyword_score=score,
        breakdown={"keyword": score},
        reasons=[f"keyword match for {entity_id}"],
    )


def vec(entity_id: str, score: float) -> Candidate:
    return Candidate(
        entity_id=entity_id,
        vector_score=score,
        breakdown={"vector": score},
        reasons=[f"vector similarity for {entity_id}"],
    )


def by_id(cands: list[Candidate]) -> dict[str, Candidate]:
    return {c.entity_id: c for c in cands}


def test_union_of_both_recalls():
    fused = fuse(
        [kw("light.a", 0.9), kw("light.b", 0.5)], [vec("light.b", 0.8), vec("light.c", 0.7)]
    )
    assert set(by_id(fused)) == {"light.a", "light.b", "light.c"}
    assert len(fused) == 3  # light.b is one candidate, not two


def test_candidate_found_by_both_sides_keeps_both_scores():
    fused = by_id(fuse([kw("light.b", 0.5)], [vec("light.b", 0.8)]))
    assert fused["light.b"].keyword_score == 0.5
    assert fused["light.b"].vector_score == 0.8


def test_one_sided_candidates_score_zero_on_the_other_side():
    fused = by_id(fuse([kw("light.a", 0.9)], [vec("light.c", 0.7)]))
    assert fused["light.a"].vector_score == 0.0
    assert fused["light.c"].keyword_score == 0.0


def test_default_weights_are_one_and_point_three():
    fused = by_id(fuse([kw("a", 1.0), kw("both", 1.0)], [vec("both", 1.0), vec("v", 1.0)]))
    assert fused["both"].total_score == pytest.approx(1.0)
    assert fused["a"].total_score == pytest.approx(1.0 / 1.3, abs=1e-5)
    assert fused["v"].total_score == pytest.approx(0.3 / 1.3, abs=1e-5)
    assert fused["a"].breakdown["keyword_weight"] == 1.0
    assert fused["a"].breakdown["vector_weight"] == 0.3


def test_exact_name_outranks_a_strong_vector_only_hit():
    # "老伙计" (a nickname) matches by keyword only; a lookalike matches by vector only.
    fused = fuse([kw("light.old_buddy", 1.0)], [vec("light.lookalike", 0.95)])
    assert fused[0].entity_id == "light.old_buddy"


def test_vector_breaks_ties_between_equal_keyword_scores():
    fused = fuse([kw("light.a", 0.8), kw("light.b", 0.8)], [vec("light.b", 0.6)])
    assert [c.entity_id for c in fused] == ["light.b", "light.a"]


def test_totals_are_normalised_to_zero_one():
    fused = fuse(
        [kw("a", 1.0), kw("b", 0.2)],
        [vec("a", 1.0), vec("c", 0.1)],
        Weights(keyword=2.0, vector=5.0),
    )
    assert all(0.0 <= c.total_score <= 1.0 for c in fused)
    assert by_id(fused)["a"].total_score == pytest.approx(1.0)


def test_custom_weights_change_the_order():
    keyword, vector = [kw("light.k", 0.8)], [vec("light.v", 0.9)]
    assert fuse(keyword, vector)[0].entity_id == "light.k"
    assert fuse(keyword, vector, Weights(keyword=0.1, vector=1.0))[0].entity_id == "light.v"


def test_zero_weights_do_not_divide_by_zero():
    fused = fuse([kw("a", 1.0)], [vec("a", 1.0)], Weights(keyword=0.0, vector=0.0))
    assert fused[0].total_score == 0.0


def test_sorted_best_first_and_deterministic_on_ties():
    fused = fuse([kw("light.z", 0.5), kw("light.a", 0.5), kw("light.m", 0.9)], [])
    assert [c.entity_id for c in fused] == ["light.m", "light.a", "light.z"]
    again = fuse([kw("light.a", 0.5), kw("light.m", 0.9), kw("light.z", 0.5)], [])
    assert [c.entity_id for c in again] == [c.entity_id for c in fused]


def test_breakdown_explains_the_total():
    fused = by_id(fuse([kw("light.b", 0.5)], [vec("light.b", 0.8)]))
    bd = fused["light.b"].breakdown
    assert bd["keyword"] == 0.5
    assert bd["vector"] == 0.8
    assert bd["total"] == fused["light.b"].total_score
    recomputed = (bd["keyword_weight"] * bd["keyword"] + bd["vector_weight"] * bd["vector"]) / (
        bd["keyword_weight"] + bd["vector_weight"]
    )
    assert bd["total"] == pytest.approx(recomputed, abs=1e-5)


def test_reasons_from_both_sides_are_kept_once():
    fused = by_id(fuse([kw("light.b", 0.5)], [vec("light.b", 0.8), vec("light.b", 0.8)]))
    reasons = fused["light.b"].reasons
    assert "keyword match for light.b" in reasons
    assert "vector similarity for light.b" in reasons
    assert len(reasons) == len(set(reasons))


def test_duplicate_vector_hits_keep_the_best_similarity():
    fused = by_id(fuse([], [vec("light.b", 0.4), vec("light.b", 0.7)]))
    assert fused["light.b"].vector_score == 0.7


def test_inputs_are_not_modified():
    keyword = [kw("light.b", 0.5)]
    fuse(keyword, [vec("light.b", 0.8)])
    assert keyword[0].vector_score == 0.0
    assert keyword[0].total_score == 0.0
    assert keyword[0].reasons == ["keyword match for light.b"]


def test_nothing_in_nothing_out():
    assert fuse([], []) == []


# ---- fused / order_by_total: what fuse makes, one candidate at a time ------------------------


@pytest.mark.parametrize(
    "weights", [Weights(), Weights(keyword=0.7, vector=0.6), Weights(1.0, 0.0)]
)
def test_fused_and_order_by_total_give_what_fuse_gives(weights: Weights) -> None:
    scores = {
        "light.b": (1.0, 0.41),
        "light.a": (1.0, 0.41),  # tied with light.b: the entity id decides
        "light.c": (0.97, 0.9),
        "light.d": (0.9, 0.0),
        "light.e": (0.8, -0.2),  # a negative vector score counts as none
    }
    keyword = [
        Candidate(entity_id=e, keyword_score=k, reasons=[f"name {e}"])
        for e, (k, _) in scores.items()
    ]
    vector = [Candidate(entity_id=e, vector_score=v) for e, (_, v) in scores.items()]
    expected = fuse(keyword, vector, weights)
    got = order_by_total([fused(e, k, v, [f"name {e}"], weights) for e, (k, v) in scores.items()])
    assert got == expected
    order = [c.entity_id for c in got]
    assert order.index("light.a") == order.index("light.b") - 1
    assert [list(c.breakdown) for c in got] == [list(c.breakdown) for c in expected]
