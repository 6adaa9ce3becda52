"""core/views/llm.py: reading a rule out of a model's answer."""

from __future__ import annotations

import json

import pytest

from custom_components.context_retrieval.core.views.llm import parse_llm_answer
from custom_components.context_retrieval.core.views.model import (
    RuleValidationError,
    TagNode,
)
from tests.core.views.conftest import group, tag


def test_parse_llm_answer_accepts_a_bare_node_and_a_string_rule() -> None:
    rule, note = parse_llm_answer(json.dumps(group("OR", tag("a"), tag("b"))))
    assert rule.op == "OR" and note is None
    rule, note = parse_llm_answer(
        json.dumps({"rule": json.dumps(group("AND", tag("a"))), "rewrite_note": " n "})
    )
    assert rule.children == (TagNode("a"),) and note == "n"


@pytest.mark.parametrize("note", ["   ", "", 5, None, ["a note"]])
def test_a_blank_or_non_text_rewrite_note_is_no_note(note: object) -> None:
    """Only words are a note: blank text, a number or a list from the model is dropped."""
    answer = json.dumps({"rule": group("AND", tag("a")), "rewrite_note": note})
    rule, got = parse_llm_answer(answer)
    assert rule.children == (TagNode("a"),) and got is None


@pytest.mark.parametrize(
    "answer",
    ["not json", "[1, 2]", json.dumps({"rule": "{not json"}), json.dumps({"rule": tag("a")})],
)
def test_an_answer_that_is_no_rule_is_rejected(answer: str) -> None:
    with pytest.raises(RuleValidationError):
        parse_llm_answer(answer)
