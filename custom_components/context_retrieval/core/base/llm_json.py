"""Talking to a language model: the client protocol, and reading JSON out of its answer.

Three features ask a model for JSON: the command array of an utterance, a query plan for a
question, a view rule. Models wrap JSON in code fences or in a sentence of prose; this module
finds the JSON, and each feature then checks it against its own schema.

Two ways of reading:
- `strict`: the whole answer is JSON, or one fenced block and nothing else. The command array
  is read this way: an answer that talks around its JSON is not trusted to control devices.
- lenient: also a fenced block inside prose, or the first JSON object in the text. Plans and
  rules are read this way; they are validated and shown before anything uses them.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, Protocol, runtime_checkable

# Characters of a model answer read at all in lenient mode.
MAX_ANSWER_CHARS = 1_000_000
# Object starts tried in a lenient read of prose ("Here is {the plan}: {...}").
_MAX_OBJECT_TRIES = 8

# The whole answer as one fenced block: ```json ... ``` (the language tag may be left out).
_WHOLE_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)
# A fenced block anywhere: ```lang, a line break, the body, ```.
_FENCED_BLOCK = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\r?\n(.*?)```", re.DOTALL)

Reason = Literal["not_text", "not_json", "too_big"]


@runtime_checkable
class LLMClient(Protocol):
    """Anything that can answer a system prompt + user text with text."""

    async def complete(self, system_prompt: str, user_text: str) -> str: ...


class ModelJSONError(ValueError):
    """The answer holds no JSON that could be read; `reason` says why."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason: Reason = reason
        self.message = message


def read_json(
    answer: object, *, strict: bool = False, max_chars: int | None = MAX_ANSWER_CHARS
) -> Any:
    """The JSON value in a model's `answer`; raises `ModelJSONError`.

    `max_chars` (lenient reads only) caps what is parsed at all: a runaway answer is refused
    before any parsing work is spent on it.
    """
    if not isinstance(answer, str):
        raise ModelJSONError("not_text", "the model's answer is not text")
    if strict:
        fenced = _WHOLE_FENCE.match(answer)
        body = fenced.group(1) if fenced else answer.strip()
        try:
            return json.loads(body)
        except (ValueError, RecursionError) as err:
            raise ModelJSONError("not_json", "the model's answer is not JSON") from err
    if max_chars is not None and len(answer) > max_chars:
        raise ModelJSONError("too_big", "the model's answer is too long")
    candidates = [answer.strip()]
    candidates += [m.group(1).strip() for m in _FENCED_BLOCK.finditer(answer)]
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):
            pass
    decoder = json.JSONDecoder()
    start = answer.find("{")
    for _ in range(_MAX_OBJECT_TRIES):
        if start < 0:
            break
        try:
            value, _end = decoder.raw_decode(answer, start)
        except (ValueError, RecursionError):
            start = answer.find("{", start + 1)
            continue
        return value
    raise ModelJSONError("not_json", "the model's answer is not a JSON object")
