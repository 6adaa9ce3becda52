"""bench/search_eval.py: the word rule reads the home's names, not the engine, every case
loads and runs, and the figures meet the targets."""

from __future__ import annotations

import json
from pathlib import Path

from bench.search_eval import DATA, HOMES, load_cases, main, one_slip, run, sharing


def _demo() -> dict:
    return json.loads(Path(HOMES["demo"]).read_text(encoding="utf-8"))


def test_a_chinese_word_inside_a_room_word_is_not_shared() -> None:
    home = _demo()
    shared = sharing("台灯", home)
    assert {"light.master_bedroom_desk_lamp", "light.study_old_lamp"} <= shared
    assert "light.balcony_light" not in shared  # 阳台灯: 台灯 cuts the room word 阳台
    # A room + kind query shares the room's word with the room's devices.
    assert "light.kitchen_ceiling" in sharing("厨房灯", home)


def test_latin_words_are_compared_whole() -> None:
    home = _demo()
    assert "light.master_bedroom_desk_lamp" in sharing("desk lamp", home)
    assert "binary_sensor.kitchen_smoke" not in sharing("desk lamp", home)
    es = json.loads(Path(HOMES["es"]).read_text(encoding="utf-8"))
    # "de la" names nothing: the consumption sensor shares no word with the street door.
    assert "sensor.consumo" not in sharing("puerta de la calle", es)
    assert one_slip("cofee", "coffee") and one_slip("bedrom", "bedroom")
    assert not one_slip("lamp", "lamps!!")


def test_every_case_loads_and_names_entities_of_its_home() -> None:
    cases = load_cases(sorted(DATA.glob("cases_*.jsonl")))
    assert len(cases) >= 100
    stats = run(cases)
    assert set(stats) == {"en", "zh", "de", "fr", "es"}
    assert all(row["cases"] >= 20 for row in stats.values())


def test_targets_on_the_evaluation_set() -> None:
    stats = run(load_cases(sorted(DATA.glob("cases_*.jsonl"))))
    for language, row in stats.items():
        assert row["top3"] / row["cases"] >= 0.95, language
        assert row["unshared"] == 0, language


def test_writes_its_section(tmp_path: Path) -> None:
    out = tmp_path / "B.md"
    out.write_text("# Benchmarks\n", encoding="utf-8")
    assert main(["--cases", str(DATA / "cases_en.jsonl"), "--write", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "search-eval:start" in text and "| en |" in text and "Command:" in text
