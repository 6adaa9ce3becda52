"""bench/speed_vs_hassil.py: both sides timed on every turn of a small home, the table honest."""

from __future__ import annotations

import json
from pathlib import Path

from bench import speed_vs_hassil
from bench.peer_hassil.peer import HassilPeer
from bench.synthetic import make_cases, make_home


def test_both_sides_are_timed_on_every_turn_and_the_ratio_is_of_their_p95() -> None:
    home = make_home(60, "en", seed=0)
    cases = make_cases(home, 12, seed=1)
    timings = speed_vs_hassil.time_turns("tiny", 60, {home["home_id"]: home}, cases, HassilPeer())
    turns = sum(len(c["turns"]) for c in cases)
    assert len(timings.ours) == len(timings.peer) == turns
    assert all(ms > 0 for ms in timings.ours + timings.peer)
    again = speed_vs_hassil.time_turns(
        "tiny", 60, {home["home_id"]: home}, cases, HassilPeer(), repeat=3
    )
    assert len(again.ours) == len(again.peer) == turns  # the fastest of 3 per turn and side
    timings.ours, timings.peer = [1.0] * 19 + [2.0], [10.0] * 19 + [11.0]
    assert timings.ratio == 10.0 / 1.0  # nearest-rank p95 of 20 values is the 19th
    table = speed_vs_hassil.render([timings])
    assert "| tiny | 60 | 1 | 20 | 1.00 / 1.00 | 10.00 / 10.00 | 10.0× |" in table
    assert "| 10.0× | yes |" in table
    timings.peer = [4.0] * 20
    assert "| 4.0× | no |" in speed_vs_hassil.render([timings])


def test_dev_homes_are_grown_to_each_size_with_the_same_turns(tmp_path: Path) -> None:
    home = make_home(60, "en", seed=0)
    (tmp_path / "homes").mkdir()
    (tmp_path / "homes" / "h.json").write_text(json.dumps(home), encoding="utf-8")
    cases = make_cases(home, 3, seed=1)
    case_file = tmp_path / "cases.jsonl"
    case_file.write_text("\n".join(json.dumps(c) for c in cases), encoding="utf-8")
    sets = speed_vs_hassil.dev_sets(tmp_path / "homes", case_file, [30, 60, 200])
    assert [(label.endswith("(own size)"), size) for label, size, _, _ in sets] == [
        (True, 60),
        (False, 200),
    ]
    (_, _, grown, same), (_, _, _, also) = sets
    assert len(grown[home["home_id"]]["entities"]) == 60 and same == also == cases
    assert len(sets[1][2][home["home_id"]]["entities"]) == 200
