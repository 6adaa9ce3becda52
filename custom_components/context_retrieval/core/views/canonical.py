"""Validation and canonical form of a rule.

A rule from anywhere but the parser (a model, a file) is checked first: the root is a group,
every group has a child, at most 8 levels and 128 nodes. Equal rules then get equal JSON:
tags trimmed and lower-cased (CJK as written), same-operator groups flattened, one-child groups
unwrapped, duplicates dropped, siblings sorted; a NOT keeps its one child, a double NOT cancels.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from ..base.text import strip_controls
from .model import (
    MAX_DEPTH,
    MAX_NODES,
    NAMESPACES,
    GroupNode,
    RuleNode,
    RuleValidationError,
    TagNode,
    count_nodes,
    rule_to_json,
)


def validate(data: Any) -> GroupNode:
    """Check a rule given as data (dicts and lists) and build its AST."""
    if not isinstance(data, Mapping) or data.get("kind") != "group":
        raise RuleValidationError("root_not_group", "the root of a rule must be a group")
    count = 0

    def build(node: Any, depth: int) -> RuleNode:
        nonlocal count
        count += 1
        if count > MAX_NODES:
            raise RuleValidationError(
                "too_many_nodes", f"a rule may have at most {MAX_NODES} nodes"
            )
        if depth > MAX_DEPTH:
            raise RuleValidationError("too_deep", f"a rule may nest at most {MAX_DEPTH} levels")
        if not isinstance(node, Mapping):
            raise RuleValidationError("bad_node", "every node must be an object")
        kind = node.get("kind")
        if kind == "tag":
            tag = node.get("tag")
            if not isinstance(tag, str) or not " ".join(tag.split()):
                raise RuleValidationError("empty_tag", "a tag must be non-empty text")
            if len(tag) > 200:
                raise RuleValidationError("bad_node", "a tag may be at most 200 characters")
            return TagNode(tag)
        if kind != "group":
            raise RuleValidationError("bad_node", f"unknown node kind {kind!r}")
        op = node.get("op")
        if op not in ("AND", "OR", "NOT"):
            raise RuleValidationError("bad_operator", f"operator {op!r} is not AND, OR or NOT")
        children = node.get("children")
        if not isinstance(children, list) or not children:
            raise RuleValidationError("empty_group", "a group needs at least one child")
        if op == "NOT" and len(children) != 1:
            raise RuleValidationError("bad_not", "a NOT group has exactly one child")
        return GroupNode(op, tuple(build(child, depth + 1) for child in children))

    root = build(data, 1)
    assert isinstance(root, GroupNode)
    return root


def canonical_tag(tag: str) -> str:
    """Trim, fold width, collapse spaces and lower-case letters (CJK is kept as written);
    a namespace prefix loses its spaces: `Area : Living Room` → `area:living room`."""
    text = " ".join(unicodedata.normalize("NFKC", strip_controls(tag)).split()).lower()
    if ":" in text:
        prefix, _, rest = text.partition(":")
        if prefix.strip() in NAMESPACES and rest.strip():
            return f"{prefix.strip()}:{rest.strip()}"
    return text


def canonicalize(rule: GroupNode) -> GroupNode:
    """Equal rules get equal JSON: tags tidied, same-operator groups flattened, one-child groups
    unwrapped, duplicates dropped, siblings sorted by kind/tag/op."""
    node = _canon(rule)
    if isinstance(node, TagNode):
        return GroupNode("AND", (node,))
    return node


def _canon(node: RuleNode) -> RuleNode:
    if isinstance(node, TagNode):
        return TagNode(canonical_tag(node.tag))
    if node.op == "NOT":
        inner = _canon(node.children[0])
        if isinstance(inner, GroupNode) and inner.op == "NOT":
            return inner.children[0]  # NOT NOT x is x
        return GroupNode("NOT", (inner,))
    flat: list[RuleNode] = []
    for child in (_canon(c) for c in node.children):
        if isinstance(child, GroupNode) and child.op == node.op:
            flat.extend(child.children)
        else:
            flat.append(child)
    unique: dict[str, RuleNode] = {}
    for child in flat:
        unique.setdefault(rule_to_json(child), child)
    ordered = sorted(unique.items(), key=lambda kv: _sort_key(kv[1], kv[0]))
    children = tuple(child for _, child in ordered)
    if len(children) == 1:
        return children[0]
    return GroupNode(node.op, children)


def _sort_key(node: RuleNode, serial: str) -> tuple[int, str, str, str]:
    # Tags before groups (the rule reads as "these tags, and these alternatives"); then by
    # tag text, operator, content.
    if isinstance(node, TagNode):
        return (0, node.tag, "", serial)
    return (1, "", node.op, serial)


def check_limits(rule: GroupNode) -> None:
    nodes, depth = count_nodes(rule)
    if nodes > MAX_NODES:
        raise RuleValidationError("too_many_nodes", f"a rule may have at most {MAX_NODES} nodes")
    if depth > MAX_DEPTH:
        raise RuleValidationError("too_deep", f"a rule may nest at most {MAX_DEPTH} levels")
