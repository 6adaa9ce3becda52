"""The values handed from stage to stage."""

from __future__ import annotations

from dataclasses import fields

from custom_components.context_retrieval.core.base.models import (
    Basis,
    Candidate,
    Reason,
    ReasonCode,
)
from custom_components.context_retrieval.core.retrieval.stages import based


def _every_field_set() -> Candidate:
    return Candidate(
        entity_id="light.desk",
        entity_kind="group",
        keyword_score=0.7,
        vector_score=0.4,
        total_score=0.61,
        breakdown={"keyword": 0.7, "vector": 0.4},
        reasons=[Reason(ReasonCode.NAME, "desk")],
        basis=Basis.TYPE,
    )


def test_based_marks_the_basis_and_keeps_every_other_field() -> None:
    original = _every_field_set()
    # A field added to Candidate without a value here must fail this test, not be dropped.
    assert {f.name for f in fields(Candidate)} == {
        "entity_id",
        "entity_kind",
        "keyword_score",
        "vector_score",
        "total_score",
        "breakdown",
        "reasons",
        "basis",
    }
    (copy,) = based([original], Basis.NAME)
    assert copy.basis is Basis.NAME
    for f in fields(Candidate):
        if f.name != "basis":
            assert getattr(copy, f.name) == getattr(original, f.name), f.name


def test_based_copies_and_leaves_the_input_alone() -> None:
    original = _every_field_set()
    (copy,) = based([original], Basis.NAME)
    assert copy is not original
    assert original.basis is Basis.TYPE
    assert based([], Basis.NAME) == []
