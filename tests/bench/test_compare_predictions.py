"""The before/after comparison of suite predictions finds every kind of difference."""

from __future__ import annotations

import json
from pathlib import Path

from bench.compare_predictions import compare, load, main


def _write(path: Path, preds: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(p) + "\n" for p in preds), encoding="utf-8")
    return path


def _pred(
    case: str,
    turn: int,
    selected: list[str],
    clarification: object = None,
    latency: float = 1.0,
    meta: object = None,
) -> dict[str, object]:
    return {
        "case_id": case,
        "turn": turn,
        "selected_entity_ids": selected,
        "clarification": clarification,
        "latency_ms": latency,
        "meta": meta,
    }


def test_equal_predictions_differ_only_in_latency(tmp_path: Path, capsys) -> None:
    before = _write(tmp_path / "a.jsonl", [_pred("c1", 0, ["light.a"], latency=1.0)])
    after = _write(tmp_path / "b.jsonl", [_pred("c1", 0, ["light.a"], latency=9.0)])
    assert main([str(before), str(after)]) == 0
    assert "1 turns compared, 0 differ" in capsys.readouterr().out


def test_selection_order_clarification_and_missing_turns_are_differences(tmp_path: Path) -> None:
    ask = {"question": "Which one?", "options": ["light.a", "light.b"]}
    before = load(
        _write(
            tmp_path / "a.jsonl",
            [
                _pred("c1", 0, ["light.a", "light.b"]),
                _pred("c2", 0, [], ask),
                _pred("c3", 0, ["light.a"]),
                _pred("c4", 0, []),
            ],
        )
    )
    after = load(
        _write(
            tmp_path / "b.jsonl",
            [
                _pred("c1", 0, ["light.b", "light.a"]),
                _pred("c2", 0, [], {**ask, "options": ["light.a"]}),
                _pred("c3", 0, ["light.a"]),
                _pred("c5", 0, []),
            ],
        )
    )
    differ, only_before, only_after = compare(before, after)
    assert differ == [("c1", 0), ("c2", 0)]
    assert only_before == [("c4", 0)]
    assert only_after == [("c5", 0)]


def test_meta_is_compared_only_when_asked(tmp_path: Path) -> None:
    before = _write(tmp_path / "a.jsonl", [_pred("c1", 0, [], meta=[{"no_match": True}])])
    after = _write(tmp_path / "b.jsonl", [_pred("c1", 0, [], meta=[{"no_match": False}])])
    assert main([str(before), str(after)]) == 0
    assert main([str(before), str(after), "--meta"]) == 1


def _turn(dialog: str, turn: int, reply: str, changes: dict[str, list[str]], ms: float = 9.0):
    return {
        "agent": "ours",
        "dialog": dialog,
        "turn": turn,
        "say": "activate movie night",
        "reply": reply,
        "response_type": "action_done",
        "asked": False,
        "ok": True,
        "ms": ms,
        "harmful": [],
        "wrong": [],
        "reasons": [],
        "changes": changes,
    }


def test_dialog_results_compare_by_what_happened_to_the_home(tmp_path: Path) -> None:
    """Results of bench.dialogs: the time a scene ran and the latency are no difference; a
    change to another device or another reply is."""
    ran = {"scene.movie": ["unknown", "2026-11-29T01:43:47.921694+00:00"], "light.a": ["on", "off"]}
    later = {
        "scene.movie": ["unknown", "2026-11-29T01:49:08.024989+00:00"],
        "light.a": ["on", "off"],
    }
    before = _write(tmp_path / "a.jsonl", [_turn("en-movie", 1, "Done.", ran)])
    same = _write(tmp_path / "b.jsonl", [_turn("en-movie", 1, "Done.", later, ms=30.0)])
    assert main([str(before), str(same)]) == 0
    other = dict(later, **{"light.b": ["off", "on"]})
    harmed = _write(tmp_path / "c.jsonl", [_turn("en-movie", 1, "Done.", other)])
    worded = _write(tmp_path / "d.jsonl", [_turn("en-movie", 1, "Which one?", later)])
    assert main([str(before), str(harmed)]) == 1
    assert main([str(before), str(worded)]) == 1
    assert list(load(before)) == [("ours/en-movie", 1)]
