"""core/views/llm.py: reading a rule out of a model's answer."""

from __future__ import annotations

import json

from custom_components.context_retrieval.core.views.llm import parse_llm_answer
from custom_components.context_retrieval.core.views.model import (
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
