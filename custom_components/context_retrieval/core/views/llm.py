"""The model's side of compiling a rule: the prompt, and reading a rule out of its answer."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..base.llm_json import ModelJSONError, read_json
from .canonical import validate
from .model import GroupNode, RuleValidationError
from .universe import TagUniverse

LLM_SYSTEM_PROMPT = """\
You turn a description of a group of smart-home entities into a boolean rule over tags.
Answer with one JSON object only: {"rule": NODE, "rewrite_note": "one short sentence in the \
user's language saying how you read the text"}.
NODE is {"kind": "tag", "tag": "<tag>"} or {"kind": "group", "op": "AND", "OR" or "NOT", \
"children": [NODE, ...]}. The root must be a group with at least one child; a NOT group has \
exactly one child and means everything but it ("lights except the kitchen": AND of lights \
and NOT kitchen). No other keys, at most 8 levels and 128 nodes. Words shared by a list \
apply to each item: "lights in the kitchen or the dining room" is lights AND (kitchen OR \
dining room).
A tag is a label name, or area:<area>, floor:<floor>, domain:<domain>, device_class:<class>, \
type:<device word>. Prefer the tags listed for this home; keep the user's words for anything \
else."""


def llm_user_prompt(text: str, universe: TagUniverse, parser_error: str | None) -> str:
    vocab = universe.dictionary()
    lines = [f"Text: {json.dumps(text, ensure_ascii=False)}", "Tags in this home:"]
    lines += [
        f"- {key}: {json.dumps(values, ensure_ascii=False)}"
        for key, values in vocab.items()
        if values
    ]
    if parser_error:
        lines.append(f"The rule parser said: {parser_error}")
    return "\n".join(lines)


def parse_llm_answer(answer: str) -> tuple[GroupNode, str | None]:
    """The rule and note in a model's answer; raises `RuleValidationError` on anything else."""
    data = _load_json_object(answer)
    if isinstance(data, Mapping) and "rule" in data:
        note = data.get("rewrite_note")
        rule = data["rule"]
        if isinstance(rule, str):
            rule = _load_json_object(rule)
        root = validate(rule)
        return root, note.strip() if isinstance(note, str) and note.strip() else None
    return validate(data), None


def _load_json_object(answer: str) -> Any:
    try:
        return read_json(answer)
    except ModelJSONError as err:
        raise RuleValidationError("not_json", "the model's answer is not a JSON object") from err
