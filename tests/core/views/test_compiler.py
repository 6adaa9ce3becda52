"""core/views/compiler.py: the parser first, a model only when it helps, never silence."""

from __future__ import annotations

import json

import pytest

from custom_components.context_retrieval.core.views.compiler import (
    compile_rule,
)
from custom_components.context_retrieval.core.views.universe import TagUniverse
from tests.core.views.conftest import GOOD, FakeLLM, group, tag


async def test_llm_not_asked_when_the_parser_places_everything(universe: TagUniverse) -> None:
    llm = FakeLLM(GOOD)
    result = await compile_rule("christmas and porch", universe, llm=llm)
    assert result.ok and result.compile_source == "deterministic" and llm.calls == []


async def test_llm_rescues_a_parse_error(universe: TagUniverse) -> None:
    llm = FakeLLM(f"```json\n{GOOD}\n```")
    result = await compile_rule("christmas stuff on the porch (outside", universe, llm=llm)
    assert result.ok and result.compile_source == "llm"
    assert result.rewrite_note == "Christmas things on the porch"
    assert result.rule is not None
    assert result.rule.as_dict() == group("AND", tag("christmas"), tag("porch"))
    system, user = llm.calls[0]
    assert "AND" in system and "OR" in system
    assert "Christmas" in user and "Porch" in user and "outside" in user


async def test_llm_timeout_without_a_draft_is_an_error(universe: TagUniverse) -> None:
    result = await compile_rule(
        "christmas and", universe, llm=FakeLLM(GOOD, delay=5), llm_timeout=0.01
    )
    assert not result.ok and result.error_code == "LLM_TIMEOUT"
    assert result.error_message and "parser" in result.error_message


async def test_llm_timeout_with_a_draft_returns_the_draft(universe: TagUniverse) -> None:
    result = await compile_rule(
        "xmas and porch", universe, llm=FakeLLM(GOOD, delay=5), llm_timeout=0.01
    )
    assert result.ok and result.compile_source == "deterministic"
    assert "llm_timeout" in result.warnings and result.unresolved_tags == ["xmas"]


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        ("I think you mean the porch!", "PARSE_ERROR"),
        (json.dumps({"rule": group("NOT", tag("porch"), tag("a"))}), "VALIDATION_ERROR"),
        (json.dumps({"rule": tag("porch")}), "VALIDATION_ERROR"),
        ("[" * 100_000, "PARSE_ERROR"),
        (RuntimeError("boom"), "PARSE_ERROR"),
    ],
)
async def test_llm_garbage_never_crashes(
    universe: TagUniverse, answer: str | Exception, code: str
) -> None:
    failed = await compile_rule("christmas and", universe, llm=FakeLLM(answer))
    assert not failed.ok and failed.error_code == code
    kept = await compile_rule("xmas and porch", universe, llm=FakeLLM(answer))
    assert kept.ok and kept.compile_source == "deterministic"
    assert {"llm_invalid", "llm_error"} & set(kept.warnings)


async def test_llm_answer_that_places_no_more_keeps_the_draft(universe: TagUniverse) -> None:
    answer = json.dumps({"rule": group("AND", tag("xmas"), tag("nowhere"))})
    result = await compile_rule("xmas and porch", universe, llm=FakeLLM(answer))
    assert result.compile_source == "deterministic" and "llm_not_better" in result.warnings
