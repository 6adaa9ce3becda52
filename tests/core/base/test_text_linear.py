"""Every text helper takes time linear in its input: 100,000-character hostile texts cost a
fixed number of steps per character, counted, not timed.

A step is a line of Python run (`sys.settrace`) or a character a regular expression looks at.
The regular expressions are counted through a stand-in that knows the cost of the pattern's
shape: one character class, repeated, is scanned once (what it matched, plus the character
that stopped it); a pattern of bounded length costs at most that length per position tried. A
pattern of any other shape (the backtracking kind that took quadratic time: `[\\w.+-]+@…`
retried at every position of `1.1.1.…`) has no such bound and fails the test. The string
methods the helpers call run in C over their input once per call.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType, ModuleType
from typing import Any

import pytest

from custom_components.context_retrieval.core.base import redact as redact_module
from custom_components.context_retrieval.core.base import text as text_module
from custom_components.context_retrieval.core.base.redact import clean, query_hash, redact
from custom_components.context_retrieval.core.base.text import (
    has_cjk,
    has_hidden_characters,
    normalize,
    script_of,
    strip_controls,
    tokens,
    truncate,
)

N = 100_000
# The most measured is under 50 (tokens of "a@a@…": a token and a bounded pattern per two
# characters); a quadratic helper needs about N / 2 = 50,000.
STEPS_PER_CHARACTER = 60

# What each hostile shape is built of (repeated to N characters).
SHAPES = {
    "one letter": "a",
    "digits and dots": "1.",
    "digits then a letter": "1" * 999 + "x",
    "at signs": "a@",
    "dots and ats": "@a.",
    "address-like": "a.b@c.d ",
    "jwt starts": "eyJ-",
    "key prefixes": "sk-",
    "slack prefixes": "xoxb-",
    "aws prefixes": "AKIA",
    "phone-like": "+1 (",
    "long token": "aB1+",
    "spaces": " ",
    "dashes": "-",
    "bidi overrides": "\u202e",
    "line breaks": "\n\r",
    "combining marks": "e\u0301",
    "chinese": "客厅灯",
    "elision": "l'a",
}

HELPERS: dict[str, Callable[[str], Any]] = {
    "redact": redact,
    "clean": clean,
    "clean (long limit)": lambda t: clean(t, 50_000),
    "strip_controls": strip_controls,
    "has_hidden_characters": has_hidden_characters,
    "normalize": normalize.__wrapped__,
    "tokens": lambda t: tokens.__wrapped__(normalize.__wrapped__(t)),
    "truncate": lambda t: truncate(t, 64),
    "script_of": script_of,
    "has_cjk": has_cjk,
    "query_hash": query_hash,
}


class _Counted:
    """A compiled pattern whose every use adds the characters it looks at to `steps`."""

    def __init__(self, pattern: re.Pattern[str], counter: list[int]) -> None:
        self.pattern = pattern
        self.counter = counter
        self.run, self.width = _shape(pattern.pattern)

    def _charge(self, start: int, found: re.Match[str] | None, stop: int) -> None:
        if self.run:
            self.counter[0] += (found.end() if found else stop) - start + 1
        else:  # at most `width` characters at each position tried
            self.counter[0] += ((found.start() if found else stop) - start + 1) * self.width

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        found = self.pattern.match(text, pos, len(text) if endpos is None else endpos)
        self.counter[0] += (found.end() - pos if found else 0) + self.width
        return found

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        stop = len(text) if endpos is None else endpos
        found = self.pattern.search(text, pos, stop)
        self._charge(pos, found, stop)
        return found

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[Any]:
        self.counter[0] += (len(text) if endpos is None else endpos) - pos + 1
        return self.pattern.finditer(text, pos, len(text) if endpos is None else endpos)

    def findall(self, text: str) -> list[Any]:
        self.counter[0] += len(text) + 1
        return self.pattern.findall(text)

    def sub(self, repl: Any, text: str) -> str:
        self.counter[0] += len(text) + 1
        return self.pattern.sub(repl, text)


_CLASS = r"(?:\[(?:\\.|[^\]\\])+\]|\\[wsdWSD])"


def _shape(pattern: str) -> tuple[bool, int]:
    """(one class repeated, the widest a bounded pattern can be); anything else fails."""
    if re.fullmatch(rf"{_CLASS}\+", pattern) or re.fullmatch(
        rf"{_CLASS}(?:\|{_CLASS}\+?)*", pattern
    ):
        return True, 1
    if re.fullmatch(rf"{_CLASS}\{{(\d+)\}}", pattern):
        return False, int(re.fullmatch(rf"{_CLASS}\{{(\d+)\}}", pattern).group(1))  # type: ignore[union-attr]
    if "*" not in pattern and "+" not in pattern.replace("\\+", "") and "{" not in pattern:
        return False, len(pattern)  # alternatives of fixed words, a look-ahead of two
    raise AssertionError(f"no linear bound is known for the pattern {pattern!r}")


@contextmanager
def counted(modules: list[ModuleType]) -> Iterator[list[int]]:
    """Count lines of Python run and characters the modules' patterns look at."""
    counter = [0]
    saved: list[tuple[ModuleType, str, Any]] = []
    for module in modules:
        for name, value in list(vars(module).items()):
            if isinstance(value, re.Pattern):
                saved.append((module, name, value))
                setattr(module, name, _Counted(value, counter))

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            counter[0] += 1
        return trace

    sys.settrace(trace)
    try:
        yield counter
    finally:
        sys.settrace(None)
        for module, name, value in saved:
            setattr(module, name, value)


def test_every_pattern_of_the_text_helpers_has_a_linear_shape() -> None:
    for module in (redact_module, text_module):
        for value in vars(module).values():
            if isinstance(value, re.Pattern):
                _shape(value.pattern)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("helper", sorted(HELPERS))
def test_a_fixed_number_of_steps_per_character(helper: str, shape: str) -> None:
    unit = SHAPES[shape]
    text = (unit * (N // len(unit) + 1))[:N]
    with counted([redact_module, text_module]) as steps:
        HELPERS[helper](text)
    assert steps[0] <= STEPS_PER_CHARACTER * N, f"{steps[0] / N:.1f} steps per character"


def test_the_old_redaction_would_have_failed() -> None:
    """The e-mail pattern the integration had is a repeated class followed by more: no
    bound, so the count above cannot vouch for it."""
    with pytest.raises(AssertionError):
        _shape(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
    with pytest.raises(AssertionError):
        _shape(r"(?<![\w(])\+?\(?\d[\d\s().-]{6,}\d(?![\w])")
