"""bench/rename_eval.py: the expected rows come from a whole-word rule over the home's
names, and whole-word renames never change a row where the find is only inside a word."""

from __future__ import annotations

import json
from pathlib import Path

from bench.rename_eval import HOMES, home_words, load_cases, main, run, whole


def test_whole_word_rule() -> None:
    demo = json.loads(Path(HOMES["demo"]).read_text(encoding="utf-8"))
    words = home_words(demo)
    assert "阳台" in words and "楼上" in words
    assert whole("台灯", "老台灯", words)
    assert not whole("台灯", "阳台灯", words)
    assert not whole("厅", "客厅温度", words)
    assert whole("灯", "阳台灯", words)
    assert whole("lamp", "Desk Lamp", [])
    assert not whole("light", "Tree Lights", [])
    assert not whole("Tür", "Haustür", [])
    assert whole("entrée", "Porte d'entrée", [])


def test_every_find_loads_and_runs() -> None:
    cases = load_cases()
    assert len(cases) >= 50
    stats = run(cases)
    assert set(stats) == {"en", "zh", "de", "fr", "es"}
    for language, row in stats.items():
        assert row["rows"] > 0, language
    # Latin whole words: "light" never renames "Tree Lights", "Tür" never "Haustür".
    for language in ("en", "de", "fr", "es"):
        assert stats[language]["inside"] == 0, language
        assert stats[language]["exact"] == stats[language]["finds"], stats[language]["misses"]


def test_targets_on_the_evaluation_set() -> None:
    """No row matched only inside another word, in any language (台 in 阳台灯 was one)."""
    for language, row in run(load_cases()).items():
        assert row["inside"] == 0, language
        assert row["exact"] == row["finds"], (language, row["misses"])


def test_writes_its_section(tmp_path: Path) -> None:
    out = tmp_path / "B.md"
    out.write_text("# Benchmarks\n", encoding="utf-8")
    assert main(["--write", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "rename-eval:start" in text and "| zh |" in text and "Command:" in text
