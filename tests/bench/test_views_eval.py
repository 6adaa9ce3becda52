"""bench/views_eval.py: the expected sets come from the home's records, and the engine meets
the targets on the evaluation set (exact member set >= 0.95 a language, no rule with an
unknown word published)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.views_eval import DATA, HOMES, expected, load_cases, main, run


def test_expected_reads_the_home_not_the_engine() -> None:
    home = json.loads(Path(HOMES["en"]).read_text(encoding="utf-8"))
    lights = {e["entity_id"] for e in home["entities"] if e["entity_id"].startswith("light.")}
    kitchen = {e["entity_id"] for e in home["entities"] if e.get("area_id") == "kitchen"}
    expr = {"all": [{"domain": "light"}, {"any": [{"area": "kitchen"}]}]}
    assert expected(expr, home) == lights & kitchen
    assert (
        expected({"not": {"domain": "light"}}, home)
        == {e["entity_id"] for e in home["entities"]} - lights
    )
    upstairs = expected({"floor": "first"}, home)
    assert upstairs and all(
        next(a for a in home["areas"] if a["area_id"] == e["area_id"])["floor_id"] == "first"
        for e in home["entities"]
        if e["entity_id"] in upstairs
    )


def test_targets_on_the_evaluation_set() -> None:
    cases = load_cases(sorted(DATA.glob("cases_*.jsonl")))
    stats = run(cases, verbose=False)
    assert set(stats) >= {"en", "zh", "de", "fr", "es"}
    assert sum(row["cases"] for row in stats.values()) >= 150
    for language, row in stats.items():
        assert row["exact"] / row["cases"] >= 0.95, language
        assert row["unknown"] and row["published_unknown"] == 0, language


def test_writes_its_section(tmp_path: Path) -> None:
    out = tmp_path / "B.md"
    out.write_text("# Benchmarks\n", encoding="utf-8")
    assert main(["--cases", str(DATA / "cases_es.jsonl"), "--write", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "views-eval:start" in text and "| es |" in text and "Command:" in text
