"""bench/hard_negatives.py: the hard-negative set loads and is scored."""

from __future__ import annotations

from bench import hard_negatives


def test_the_set_is_large_and_spans_languages_and_categories():
    cases = hard_negatives.load_cases(hard_negatives.DEFAULT_CASES)
    assert len(cases) >= 60
    assert len({c["language"] for c in cases}) >= 6
    assert {c["category"] for c in cases} == {
        "bare_target",
        "cannot_do",
        "out_of_range",
        "contradictory",
        "not_home",
    }
    assert len({c["id"] for c in cases}) == len(cases)


def test_a_row_passes_only_when_nothing_is_selected_or_asked():
    cases = [c for c in hard_negatives.load_cases(hard_negatives.DEFAULT_CASES)][:3]
    rows = hard_negatives.run(cases)
    for row in rows:
        assert row["passed"] == (not row["selected"] and not row["asked"])
    text = hard_negatives.table(rows)
    assert "nothing selected" in text
