"""bench/suite.py: the lenient rate and the per-tag table run_suite prints."""

from __future__ import annotations

from bench import suite

TURN = {
    "text": "x",
    "gold_entity_ids": ["light.a", "light.b"],
    "alt_gold_entity_ids": ["light.c"],
    "tolerated_entity_ids": ["light.kitchen_named_lamp"],
}


def pred(*ids: str, asked: bool = False) -> dict:
    return {
        "selected_entity_ids": list(ids),
        "clarification": {"question": "?", "options": []} if asked else None,
    }


def test_lenient_accepts_only_tolerated_differences_from_a_gold_reading() -> None:
    lenient = suite.lenient_turn
    assert lenient(TURN, pred("light.a", "light.b"), hit_any=True)
    assert lenient(TURN, pred("light.a", "light.b", "light.kitchen_named_lamp"), hit_any=False)
    assert lenient(TURN, pred("light.c", "light.kitchen_named_lamp"), hit_any=False)
    assert not lenient(TURN, pred("light.a"), hit_any=False)  # a gold entity missing
    assert not lenient(TURN, pred("light.a", "light.b", "light.z"), hit_any=False)
    assert not lenient(TURN, pred(), hit_any=False)
    assert not lenient({**TURN, "tolerated_entity_ids": []}, pred("light.a"), hit_any=False)
    assert not lenient(TURN, pred(asked=True), hit_any=False)
    assert lenient({**TURN, "clarification_ok": True}, pred(asked=True), hit_any=False)
    assert not lenient({"expect_clarification": True}, pred("light.a"), hit_any=False)


def test_run_suite_rows_are_language_tags_as_the_cases_write_them() -> None:
    cases = [
        {"case_id": "1", "language": "zh-HK", "turns": [{"gold_entity_ids": ["light.a"]}]},
        {"case_id": "2", "language": "zh-cn", "turns": [{"gold_entity_ids": ["light.a"]}]},
        {"case_id": "3", "language": "zh-CN", "turns": [{**TURN}]},
        {"case_id": "4", "language": "pt-BR", "turns": [{"gold_entity_ids": ["light.a"]}]},
    ]
    preds = [
        {"case_id": "1", "turn": 0, "selected_entity_ids": ["light.a"]},
        {"case_id": "2", "turn": 0, "selected_entity_ids": []},
        {"case_id": "3", "turn": 0, "selected_entity_ids": ["light.c", "light.kitchen_named_lamp"]},
        {"case_id": "4", "turn": 0, "selected_entity_ids": ["light.a"]},
    ]
    scores = suite.score(cases, preds)
    tags = suite.by_language(scores, by_tag=True)
    assert list(tags) == ["pt-BR", "zh-CN", "zh-HK", "all"]
    assert (tags["zh-CN"].turns, tags["zh-CN"].accuracy, tags["zh-CN"].lenient) == (2, 0.0, 0.5)
    assert list(suite.by_language(scores)) == ["pt", "zh", "all"]
    table = suite.format_table(tags)
    assert "| zh-CN | 2 | 0.000 | 0.000 | 0.500 |" in table
    assert "| all | 4 | 0.500 | 0.500 | 0.750 |" in table
