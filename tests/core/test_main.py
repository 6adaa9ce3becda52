"""The demo command line: what a newcomer runs first."""

from __future__ import annotations

import io
import json

from custom_components.context_retrieval.core.__main__ import main
from tests.core.conftest import DEMO_HOME


def test_prints_selection_question_and_yaml(capsys):
    assert main(["关掉除了主卧以外的所有灯", "--home", str(DEMO_HOME)]) == 0
    out = capsys.readouterr().out
    assert "command 1" in out
    assert "light.living_room_ceiling" in out
    assert "light.master_bedroom_ceiling" not in out.split("YAML context")[0]
    assert "YAML context" in out and "devices:" in out


def test_json_output_carries_commands_and_clarifications(capsys):
    assert (
        main(
            [
                "打开台灯",
                "打开客厅的灯然后关掉空调",
                "--home",
                str(DEMO_HOME),
                "--json",
                "--no-yaml",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    # Two utterances, each printed as a JSON array after its "> text" line.
    blocks = [b for b in out.split("> ") if b.strip()]
    first = json.loads(blocks[0].split("\n", 1)[1])
    assert first[0]["clarification"]["options"], "several desk lamps: it asks back"
    second = json.loads(blocks[1].split("\n", 1)[1])
    assert len(second) == 2
    assert second[0]["action"] == "turn_on" and second[1]["action"] == "turn_off"


def test_unreadable_home_is_a_clear_error(tmp_path, capsys):
    missing = tmp_path / "nope.json"
    assert main(["打开灯", "--home", str(missing)]) == 2
    assert "cannot read home" in capsys.readouterr().err


def test_interactive_mode_keeps_the_conversation(monkeypatch, capsys):

    monkeypatch.setattr("sys.stdin", io.StringIO("打开客厅的电视\n把它关掉\n\n"))
    assert main(["--home", str(DEMO_HOME), "--no-yaml"]) == 0
    out = capsys.readouterr().out
    tv_lines = [line for line in out.splitlines() if "->" in line]
    assert len(tv_lines) >= 2
    assert tv_lines[0].split()[1] == tv_lines[-1].split()[1], "'它' is the TV just turned on"
