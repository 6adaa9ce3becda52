"""The view-rule benchmark runs, checks what it times, and writes its section."""

from __future__ import annotations

from pathlib import Path

from bench import views
from bench.report import interpreter


def test_labelled_home_has_labels_and_devices() -> None:
    home = views.labelled_home(200, "zh", seed=1)
    assert sum(1 for e in home["entities"] if e["labels"]) > 100
    devices = {e["device_id"] for e in home["entities"]}
    assert 40 <= len(devices) < 200  # entities grouped 1–4 per device


def test_every_benchmark_rule_compiles_and_matches() -> None:
    for language in ("en", "zh"):
        row = views.measure(300, language, runs=30, seed=0)
        assert row["rules"] >= 9
        assert row["median_hits"] > 0
        assert row["max_revisions"] == 5  # pruning happened during the publishes
        assert 0 < row["preview_p50"] <= row["preview_p95"] <= row["preview_max"]


def test_main_writes_its_section(tmp_path: Path) -> None:
    out = tmp_path / "B.md"
    out.write_text("# Benchmarks\n\n<!-- views:start -->\nold\n<!-- views:end -->\n")
    assert (
        views.main(["--sizes", "200", "--languages", "en", "--runs", "20", "--write", str(out)])
        == 0
    )
    text = out.read_text()
    assert "old" not in text and "preview p50 / p95 / max" in text
    assert f"Command: `{interpreter()} -m bench.views --sizes 200" in text
