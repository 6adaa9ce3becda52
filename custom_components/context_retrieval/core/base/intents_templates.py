"""Home Assistant's sentence template syntax, read without `hassil`: `(a|b)`, `[optional]`,
`(a;b)` permutations, `<rule>` and `{list}`, parsed into nested tuples and expanded into the
sentences they stand for (a bounded number per template), and the words of an expansion.

A small parser of its own, so learning does not depend on one version of `hassil`'s classes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .text import normalize

# Units are joined by this mark where the template puts two pieces side by side without a
# space but they are still separate words ("<turn_on><area>" in Chinese).
_BOUND = "\x00"
_SLOT_RE = re.compile(r"\{([^{}]+)\}")
_SPLIT_RE = re.compile(r"[\s\x00]+")
# Han and kana are written without spaces; Hangul has spaces between words.
NO_SPACE_RE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
MAX_DEPTH = 24
_MAX_UNIT_LEN = 40

Node = tuple[Any, ...]


class TemplateError(ValueError):
    """A template this parser cannot read (unbalanced brackets)."""


def parse_template(text: str) -> Node:
    """Parse one template into nested tuples: ("seq", [..]), ("alt", [..], optional),
    ("perm", [..]), ("text", str), ("rule", name), ("list", name)."""
    options: list[Node] = []
    pos = 0
    while True:
        # A bare "a|b" at the top is an alternative, as in Home Assistant's own rules.
        node, pos = _parse_seq(text, pos, "|")
        options.append(node)
        if pos >= len(text):
            break
        pos += 1
    return options[0] if len(options) == 1 else ("alt", options, False)


def _parse_seq(text: str, pos: int, stops: str) -> tuple[Node, int]:
    items: list[Node] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            items.append(("text", "".join(buf)))
            buf.clear()

    while pos < len(text):
        ch = text[pos]
        if ch in stops:
            break
        if ch == "\\" and pos + 1 < len(text):
            buf.append(text[pos + 1])
            pos += 2
        elif ch in "([":
            flush()
            close = ")" if ch == "(" else "]"
            node, pos = _parse_group(text, pos + 1, close, optional=ch == "[")
            items.append(node)
        elif ch in "<{":
            flush()
            close = ">" if ch == "<" else "}"
            end = text.find(close, pos + 1)
            if end < 0:
                raise TemplateError(f"unclosed {ch!r} at {pos}")
            name = text[pos + 1 : end].strip()
            items.append(("rule", name) if ch == "<" else ("list", name.split(":")[0]))
            pos = end + 1
        elif ch in ")]|;>}":
            raise TemplateError(f"unexpected {ch!r} at {pos}")
        else:
            buf.append(ch)
            pos += 1
    flush()
    return ("seq", items), pos


def _parse_group(text: str, pos: int, close: str, optional: bool) -> tuple[Node, int]:
    options: list[Node] = []
    permutation = False
    while True:
        node, pos = _parse_seq(text, pos, "|;" + close)
        options.append(node)
        if pos >= len(text):
            raise TemplateError(f"unclosed group, expected {close!r}")
        ch = text[pos]
        pos += 1
        if ch == close:
            break
        if ch == ";":
            permutation = True
    if permutation and not optional:
        return ("perm", options), pos
    return ("alt", options, optional), pos


# ---- expansion --------------------------------------------------------------------------------


@dataclass
class Expander:
    """Expands templates into sample strings in which every alternative occurs at least once.

    A full cartesian product of a long template is huge; covering every alternative once is
    enough to see which words a template uses and what stands next to a slot.
    """

    rules: dict[str, Node]
    limit: int
    _rule_cache: dict[str, list[str]] = field(default_factory=dict)

    def expand(self, node: Node, depth: int = 0) -> list[str]:
        kind = node[0]
        if depth > MAX_DEPTH:
            return [""]
        if kind == "text":
            return [node[1]]
        if kind == "list":
            return [f"{_BOUND}{{{node[1]}}}{_BOUND}"]
        if kind == "rule":
            return self._rule(node[1], depth)
        if kind == "alt":
            out: list[str] = [""] if node[2] else []
            for option in node[1]:
                out.extend(self.expand(option, depth + 1))
            return _dedupe(out, self.limit)
        if kind == "perm":
            # The parts of "(a;b)" are separate words in either order, never glued.
            items = _spaced(node[1])
            forward = self._sequence(items, depth)
            backward = self._sequence(_spaced(list(reversed(node[1]))), depth)
            return _dedupe(forward + backward, self.limit)
        return self._sequence(node[1], depth)

    def _rule(self, name: str, depth: int) -> list[str]:
        cached = self._rule_cache.get(name)
        if cached is None:
            body = self.rules.get(name)
            # A rule is a word of its own: mark its edges so glued rules stay apart.
            inner = self.expand(body, depth + 1) if body is not None else [""]
            cached = [f"{_BOUND}{s}{_BOUND}" for s in inner]
            self._rule_cache[name] = cached
        return cached

    def _sequence(self, items: list[Node], depth: int) -> list[str]:
        parts = [self.expand(item, depth + 1) for item in items]
        parts = [p for p in parts if p]
        if not parts:
            return [""]
        total = 1
        for p in parts:
            total *= len(p)
        if total <= self.limit:
            combos: list[str] = [""]
            for p in parts:
                combos = [_join(a, b) for a in combos for b in p]
            return _dedupe(combos, self.limit)
        width = min(self.limit, max(len(p) for p in parts))
        out: list[str] = []
        for i in range(width):
            combo = ""
            for p in parts:
                combo = _join(combo, p[i % len(p)])
            out.append(combo)
        return _dedupe(out, self.limit)


def _spaced(items: list[Node]) -> list[Node]:
    out: list[Node] = []
    for item in items:
        if out:
            out.append(("text", " "))
        out.append(item)
    return out


def _letters_at_edge(text: str, at_end: bool, limit: int = 5) -> int:
    """How many letters (up to `limit`) the text starts or ends with."""
    count = 0
    for ch in reversed(text) if at_end else text:
        if not ch.isalnum() or count == limit:
            break
        count += 1
    return count


def _join(a: str, b: str) -> str:
    if not a or not b:
        return a + b
    if NO_SPACE_RE.match(a[-1]) and NO_SPACE_RE.match(b[0]):
        return a + _BOUND + b
    # Groups glue endings to a stem ("trancad" + "as"), but a short piece before a whole word
    # is a word of its own written without a space ("[fai](accendi)" is "fai accendi").
    left = _letters_at_edge(a, at_end=True)
    if 0 < left <= 4 and _letters_at_edge(b, at_end=False) >= 5:
        return a + " " + b
    return a + b


def _dedupe(items: list[str], limit: int) -> list[str]:
    return list(dict.fromkeys(items))[: max(limit, 1)]


@lru_cache(maxsize=65536)
def template_units(expansion: str) -> tuple[str, ...]:
    """The words of one expanded template, slots as `{name}` (cached: templates repeat)."""
    out: list[str] = []
    for raw in _SPLIT_RE.split(expansion):
        if not raw:
            continue
        unit = raw if raw.startswith("{") else normalize(raw).strip(".,!?¿¡;:")
        if unit:
            out.append(unit)
    return tuple(out)


@lru_cache(maxsize=65536)
def is_word(unit: str) -> bool:
    return (
        not unit.startswith("{") and len(unit) <= _MAX_UNIT_LEN and any(ch.isalpha() for ch in unit)
    )
