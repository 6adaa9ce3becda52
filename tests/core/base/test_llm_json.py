"""core/base/llm_json.py: reading JSON out of a model's answer, strictly or leniently."""

from __future__ import annotations

import json

import pytest

from custom_components.context_retrieval.core.base.llm_json import (
    MAX_ANSWER_CHARS,
    LLMClient,
    ModelJSONError,
    read_json,
)

ARRAY = [{"action": "turn_on"}]
OBJECT = {"plan": {"where": [[]]}, "note": "all"}


@pytest.mark.parametrize(
    "answer",
    [
        json.dumps(ARRAY),
        f"  {json.dumps(ARRAY)}\n",
        f"```json\n{json.dumps(ARRAY)}\n```",
        f"```\n{json.dumps(ARRAY)}```",
        f"  ```json {json.dumps(ARRAY)}```  ",
    ],
)
def test_strict_reads_the_whole_answer_or_one_fence(answer: str) -> None:
    assert read_json(answer, strict=True) == ARRAY


@pytest.mark.parametrize(
    "answer",
    [
        f"Here you go:\n```json\n{json.dumps(ARRAY)}\n```",
        f"Sure! {json.dumps(OBJECT)}",
        "",
        "[{'action': 'turn_on'}]",
        "```yaml\n- action: turn_on\n```",
    ],
)
def test_strict_refuses_prose_and_anything_not_json(answer: str) -> None:
    with pytest.raises(ModelJSONError) as caught:
        read_json(answer, strict=True)
    assert caught.value.reason == "not_json"


@pytest.mark.parametrize(
    "answer",
    [
        json.dumps(OBJECT),
        f"```json\n{json.dumps(OBJECT)}\n```",
        f"Sure! Here is the plan:\n\n```json\n{json.dumps(OBJECT)}\n```\nHope this helps.",
        f"I read it as {json.dumps(OBJECT)} and nothing else.",
        f"{{not json}} then {json.dumps(OBJECT)}",
    ],
)
def test_lenient_finds_the_json_in_fences_and_prose(answer: str) -> None:
    assert read_json(answer) == OBJECT


def test_lenient_takes_the_first_object_that_parses() -> None:
    assert read_json('first {"a": 1} then {"b": 2}') == {"a": 1}


def test_lenient_gives_up_after_a_few_broken_objects() -> None:
    # Eight object starts that do not parse, then a good one: not searched for ever.
    answer = "{x " * 8 + json.dumps(OBJECT)
    with pytest.raises(ModelJSONError):
        read_json(answer)
    assert read_json("{x " * 7 + json.dumps(OBJECT)) == OBJECT


def test_too_long_is_refused_before_parsing() -> None:
    answer = " " * MAX_ANSWER_CHARS + json.dumps(OBJECT)
    with pytest.raises(ModelJSONError) as caught:
        read_json(answer)
    assert caught.value.reason == "too_big"
    assert read_json(answer, max_chars=None) == OBJECT
    assert read_json(json.dumps(OBJECT), max_chars=len(json.dumps(OBJECT))) == OBJECT


@pytest.mark.parametrize("answer", [None, 42, b"[]", ["a"]])
@pytest.mark.parametrize("strict", [True, False])
def test_an_answer_that_is_not_text(answer: object, strict: bool) -> None:
    with pytest.raises(ModelJSONError) as caught:
        read_json(answer, strict=strict)
    assert caught.value.reason == "not_text"


@pytest.mark.parametrize("strict", [True, False])
def test_deep_nesting_and_huge_numbers_are_errors_not_crashes(strict: bool) -> None:
    for answer in ("[" * 100_000 + "]" * 100_000, "[" + "9" * 5000 + "]"):
        with pytest.raises(ModelJSONError):
            read_json(answer, strict=strict)


def test_the_client_protocol_is_checkable() -> None:
    class Model:
        async def complete(self, system_prompt: str, user_text: str) -> str:
            return "[]"

    assert isinstance(Model(), LLMClient)
    assert not isinstance(object(), LLMClient)
