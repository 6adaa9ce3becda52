"""A view rule as data: a tree of AND/OR/NOT groups over tags, its stored JSON, and its errors.

A NOT group has exactly one child and means every entity but its child's ("lights except the
kitchen" is `lights AND NOT kitchen`); it came with the reading of rules as people say them, so
a rule using it carries parse version 2.

A tag is a label name by default; `area:`, `floor:`, `domain:`, `device_class:` and `type:`
match those attributes. A bare tag that is no label may still name an area, a floor or a device
type ("灯", "lights"), in that order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

PARSE_VERSION = "2"
MAX_DEPTH = 8
MAX_NODES = 128
MAX_RULE_LENGTH = 2000
NAMESPACES = ("label", "area", "floor", "domain", "device_class", "type")

Op = Literal["AND", "OR", "NOT"]
ErrorCode = Literal["PARSE_ERROR", "LLM_TIMEOUT", "VALIDATION_ERROR"]


@dataclass(frozen=True, slots=True)
class TagNode:
    tag: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": "tag", "tag": self.tag}


@dataclass(frozen=True, slots=True)
class GroupNode:
    op: Op
    children: tuple[RuleNode, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": "group",
            "op": self.op,
            "children": [child.as_dict() for child in self.children],
        }


RuleNode = TagNode | GroupNode


def rule_to_json(rule: RuleNode) -> str:
    """The stored form: compact, key order fixed, CJK kept as written."""
    return json.dumps(rule.as_dict(), ensure_ascii=False, separators=(",", ":"))


class RuleSyntaxError(ValueError):
    """The text is not a rule. `position` is a 0-based index into the text as given."""

    def __init__(self, reason: str, position: int, message: str) -> None:
        super().__init__(f"{message} (position {position})")
        self.reason = reason
        self.position = position
        self.message = message


class RuleValidationError(ValueError):
    """A structure that is not an allowed rule (from the LLM, a file, or an oversized text)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def count_nodes(rule: RuleNode) -> tuple[int, int]:
    """(nodes, depth) of a rule."""
    if isinstance(rule, TagNode):
        return 1, 1
    nodes, depth = 1, 0
    for child in rule.children:
        n, d = count_nodes(child)
        nodes += n
        depth = max(depth, d)
    return nodes, depth + 1


def tags_of(rule: RuleNode) -> list[str]:
    if isinstance(rule, TagNode):
        return [rule.tag]
    return [tag for child in rule.children for tag in tags_of(child)]
