"""The natural-question benchmark builds its questions from the home, runs, and writes its
section. No timing is asserted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench import queries
from bench.report import interpreter
from bench.synthetic import make_home


@pytest.mark.parametrize("language", ["en", "zh"])
def test_pool_uses_the_homes_own_names(language: str) -> None:
    home = queries.bench_home(1000, language, seed=0)
    pool = queries.questions_for(home, language)
    assert len(pool) >= 30 and len(set(pool)) == len(pool)
    areas = [a["name"] for a in home["areas"]]
    floors = [f["name"] for f in home["floors"]]
    assert sum(any(a in q for a in areas) for q in pool) >= 10
    assert sum(any(f in q for f in floors) for q in pool) >= 3
    fillers = queries.filler_questions(home, language, pool, 300)
    assert len(fillers) == 300 and not set(fillers) & set(pool)


def test_sensor_readings_are_plausible() -> None:
    original = make_home(1000, "en", 0)
    home = queries.bench_home(1000, "en", seed=0)
    assert [e["entity_id"] for e in home["entities"]] == [
        e["entity_id"] for e in original["entities"]
    ]
    temperatures = [
        float(e["state"])
        for e in home["entities"]
        if e["device_class"] == "temperature" and e["state"] != "unavailable"
    ]
    assert temperatures and all(17 <= t <= 27.5 for t in temperatures)
    assert any(t != int(t) for t in temperatures)  # decimals, as sensors report
    _, rows = queries.state_rows(home)
    units = {r.unit for r in rows if r.device_class == "temperature" and r.domain == "sensor"}
    assert units == {"°C"}
    assert any(r.state == "unavailable" for r in rows)


def test_measure_returns_ordered_numbers() -> None:
    row = queries.measure(300, "zh", runs=12, seed=0, stored=80)
    assert row["questions"] >= 30 and row["stored"] == 80
    assert 0 <= row["confident"] <= 100
    for name in ("compile", "cached", "similar"):
        assert 0 < row[f"{name}_p50"] <= row[f"{name}_p95"] <= row[f"{name}_max"]


def test_main_writes_its_section(tmp_path: Path) -> None:
    out = tmp_path / "B.md"
    out.write_text(
        "# Benchmarks\n\n<!-- views:start -->\nkeep me\n<!-- views:end -->\n\n"
        "<!-- queries:start -->\nstale table\n<!-- queries:end -->\n"
    )
    assert (
        queries.main(["--sizes", "300", "--runs", "6", "--stored", "60", "--write", str(out)]) == 0
    )
    text = out.read_text()
    assert "keep me" in text and "stale table" not in text
    section = text[text.index("<!-- queries:start -->") : text.index("<!-- queries:end -->")]
    assert (
        "| entities | language | questions | confident | compile + execute p50 / p95 / max "
        "| cached p50 / p95 / max | uncacheable | similar p50 / p95 / max "
        "| stored plans |"
    ) in section
    for language in ("en", "zh"):
        line = next(ln for ln in section.splitlines() if ln.startswith(f"| 300 | {language} |"))
        assert len(re.findall(r"\d+\.\d\d / \d+\.\d\d / \d+\.\d\d ms", line)) == 3
        assert line.rstrip().endswith("| 60 |")
    assert "(no 5,000-entity run: targets not checked)" in section
    assert "Machine: " in section
    assert f"Command: `{interpreter()} -m bench.queries --sizes 300 --runs 6" in section


def test_targets_are_reported_not_enforced() -> None:
    row = {"size": 5000, "cached_p95": 99.0, "compile_p95": 99.0}
    text = queries.format_targets([row])
    assert text.count("NOT met") == 2
    assert "cached p95 ≤ 10 ms at 5,000 entities" in text
    assert "compile + execute p95 ≤ 30 ms at 5,000 entities" in text
