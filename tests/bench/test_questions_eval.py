"""bench.questions_eval: the evaluation set meets its targets, and the judge is a judge (a
wrong answer is counted wrong, a false "none" to a safety question is counted)."""

from __future__ import annotations

import json
from pathlib import Path

from bench import questions_eval as qe


def test_the_evaluation_set_meets_its_targets() -> None:
    results = qe.evaluate(qe.DEFAULT_SET)
    table = {r["language"]: r for r in qe.summary(results)}
    assert {"en", "zh", "de", "fr", "es"} <= set(table)
    assert sum(r["cases"] for r in table.values()) >= 150
    for language, r in table.items():
        misses = [f"{o.id} {o.question}: {o.detail}" for o in results[language] if not o.correct]
        assert r["rate"] >= qe.TARGET, misses
        assert r["false_none"] == 0, misses
        assert r["safety"] >= 10


def _case(tmp_path: Path, **case: object) -> dict[str, list[qe.Outcome]]:
    (tmp_path / "en.jsonl").write_text(json.dumps(case) + "\n", encoding="utf-8")
    return qe.evaluate(tmp_path)


def test_a_wrong_expected_answer_is_a_miss_and_a_false_none_is_counted(tmp_path: Path) -> None:
    # The garage side door is unlocked in the demo home: "which doors are unlocked?" lists it.
    right = _case(
        tmp_path,
        question="Which doors are unlocked?",
        safety=True,
        expect={"kind": "list", "match": {"domain": ["lock"], "state": ["unlocked"]}},
    )["en"][0]
    assert right.correct and not right.false_none
    # Expecting the front door as well (unlocked by the case's states) but asking a question
    # the engine reads about the kitchen lights: wrong.
    wrong = _case(
        tmp_path,
        question="Which lights are on in the kitchen?",
        states={"lock.front_door": "unlocked"},
        safety=True,
        expect={"kind": "list", "match": {"domain": ["lock"], "state": ["unlocked"]}},
    )["en"][0]
    assert not wrong.correct and wrong.false_none


def test_expressions_combine_or_not_and_thresholds() -> None:
    home = qe._home("demo")
    hot = qe.picked(home, {"domain": ["sensor"], "device_class": ["temperature"], "above": 22})
    assert hot == {"sensor.living_room_temperature", "sensor.kids_room_temperature"}
    either = qe.picked(home, [{"entity_id": ["lock.front_door"]}, {"area": ["garage"]}])
    assert "lock.front_door" in either and "cover.garage_door" in either
    assert qe.picked(home, {"domain": ["lock"], "not": {"state": ["locked"]}}) == {
        "lock.garage_side_door"
    }


def test_write_replaces_its_own_section(tmp_path: Path) -> None:
    target = tmp_path / "BENCHMARKS.md"
    target.write_text("# B\n\n## Other\nkept\n", encoding="utf-8")
    qe.write_section(target, qe.SECTION + "\nfirst\n")
    qe.write_section(target, qe.SECTION + "\nsecond\n")
    text = target.read_text(encoding="utf-8")
    assert text.count(qe.SECTION) == 1 and "second" in text and "first" not in text
    assert "## Other\nkept" in text
