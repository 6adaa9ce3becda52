"""bench/perf.py: rounds over every size, each turn's fastest round."""

from __future__ import annotations

import pytest

from bench import perf


def _full_measurement(size: int, language: str, latencies: list[float]) -> dict:
    """What a child measuring everything hands back, with fixed figures but the latencies."""
    return {
        "size": size,
        "language": language,
        "entities": size,
        "areas": 1,
        "floors": 1,
        "turns": len(latencies),
        "build_ms": 1.0,
        "tracemalloc_peak_mb": 1.0,
        "tracemalloc_retained_mb": 1.0,
        "rss_growth_mb": 1.0,
        "rename_ms": 0.1,
        "swap_ms": 0.1,
        "after_update_ms": 0.1,
        "again_ms": 0.1,
        "latencies": latencies,
    }


def test_rounds_go_over_every_size_and_keep_each_turns_fastest(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[int, str, bool]] = []
    rounds = {
        # size -> latencies per round: the fastest of each turn is kept.
        100: [[5.0, 1.0, 3.0], [2.0, 4.0, 3.5]],
        1000: [[9.0, 9.0, 9.0], [1.0, 1.0, 20.0]],
    }

    def fake_child(size: int, language: str, queries: int, seed: int, full: bool = True) -> dict:
        calls.append((size, language, full))
        latencies = rounds[size][sum(1 for c in calls if c[0] == size) - 1]
        if not full:
            return {"size": size, "language": language, "latencies": latencies}
        return _full_measurement(size, language, latencies)

    monkeypatch.setattr(perf, "measure_in_child", fake_child)
    monkeypatch.setattr(perf, "machine_info", lambda: {})
    monkeypatch.setattr(perf, "machine_line", lambda info: "Machine: test")
    assert perf.main(["--sizes", "100,1000", "--languages", "en", "--repeat", "2"]) == 0
    # Interleaved: every size once per round, the first round measuring everything.
    assert calls == [(100, "en", True), (1000, "en", True), (100, "en", False), (1000, "en", False)]
    out = capsys.readouterr().out
    assert "| 100 | en |" in out and "/ 3.00 / 3.0 |" in out  # fastest: 2.0, 1.0, 3.0
    assert "| 1,000 | en |" in out and "/ 9.00 / 9.0 |" in out  # fastest: 1.0, 1.0, 9.0
    assert "in 2 round(s)" in out


def test_one_round_is_one_measurement_per_size(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[int] = []

    def fake_child(size: int, language: str, queries: int, seed: int, full: bool = True) -> dict:
        calls.append(size)
        assert full
        return _full_measurement(size, language, [4.0])

    monkeypatch.setattr(perf, "measure_in_child", fake_child)
    monkeypatch.setattr(perf, "machine_info", lambda: {})
    monkeypatch.setattr(perf, "machine_line", lambda info: "Machine: test")
    assert perf.main(["--sizes", "1000,10000", "--languages", "en", "--repeat", "1"]) == 0
    assert calls == [1000, 10000]
    assert "4.00 / 4.00 ms = 1.00×" in capsys.readouterr().out
