"""core/views/canonical.py: the validator and the canonical form of a rule."""

from __future__ import annotations

import json
from typing import Any

import pytest

from custom_components.context_retrieval.core.views.canonical import (
    canonicalize,
    check_limits,
    validate,
)
from custom_components.context_retrieval.core.views.model import (
    MAX_DEPTH,
    MAX_NODES,
    GroupNode,
    RuleValidationError,
    TagNode,
    rule_to_json,
)
from custom_components.context_retrieval.core.views.parser import (
    Connectives,
    parse_rule,
    render_rule,
)
from tests.core.views.conftest import canon, group, tag


def _nested(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = tag("x")
    for _ in range(depth - 1):
        node = group("AND", node)
    return node


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (tag("a"), "root_not_group"),
        (["a"], "root_not_group"),
        (None, "root_not_group"),
        (group("AND"), "empty_group"),
        ({"kind": "group", "op": "AND"}, "empty_group"),
        (group("XOR", tag("a")), "bad_operator"),
        (group("NOT", tag("a"), tag("b")), "bad_not"),
        (group("and", tag("a")), "bad_operator"),
        (group("AND", {"kind": "regex", "tag": "a"}), "bad_node"),
        ({"kind": "group", "op": "AND", "children": ["a"]}, "bad_node"),
        (group("AND", tag("  ")), "empty_tag"),
        (group("AND", {"kind": "tag", "tag": 5}), "empty_tag"),
        (group("AND", _nested(MAX_DEPTH)), "too_deep"),
        (group("OR", *[tag(f"t{i}") for i in range(MAX_NODES)]), "too_many_nodes"),
    ],
)
def test_validator_rejects(data: Any, reason: str) -> None:
    with pytest.raises(RuleValidationError) as err:
        validate(data)
    assert err.value.reason == reason


def test_validator_accepts_the_limits() -> None:
    assert isinstance(validate(group("AND", _nested(MAX_DEPTH - 1))), GroupNode)
    assert isinstance(
        validate(group("OR", *[tag(f"t{i}") for i in range(MAX_NODES - 1)])), GroupNode
    )


def test_the_documented_example_is_canonical() -> None:
    seed = group("AND", tag("研究方法"), group("OR", tag("对比分析"), tag("文献研究")))
    assert json.loads(rule_to_json(canonicalize(validate(seed)))) == seed


def test_canonical_dedupes_sorts_and_lowercases(conn: Connectives) -> None:
    assert canon("Kitchen and lights and KITCHEN", conn) == canon("lights and kitchen", conn)
    assert canon("b or a or (d and c) or (c and d)", conn) == canon("(c and d) or a or b", conn)
    assert canon("a and (b and c)", conn) == canon("a and b and c", conn)


def test_canonical_keeps_cjk_as_written_and_tidies_namespaces(conn: Connectives) -> None:
    rule = canonicalize(parse_rule("客廳 and Area :  Living   Room", conn))
    assert rule.as_dict() == group("AND", tag("area:living room"), tag("客廳"))


def test_canonicalize_is_idempotent_and_round_trips(conn: Connectives) -> None:
    for text in [
        "a or b and c",
        "灯 并且 (客厅 或 厨房)",
        "(x or y) and (y or x) and z",
        '"rock and roll" or jazz',
    ]:
        once = canonicalize(parse_rule(text, conn))
        assert canonicalize(once) == once
        assert canonicalize(validate(json.loads(rule_to_json(once)))) == once
        assert canonicalize(parse_rule(render_rule(once, conn), conn)) == once


def test_groups_of_one_child_are_unwrapped_at_every_depth() -> None:
    """((a)) is a; OR(AND(b)) is b; NOT(NOT(c)) is c; and a whole rule of one tag is that tag
    under AND, so equal rules serialise equally however they were nested."""
    a, b, c = TagNode("a"), TagNode("b"), TagNode("c")
    nested = GroupNode("AND", (GroupNode("OR", (GroupNode("AND", (a,)),)), b))
    assert canonicalize(nested) == GroupNode("AND", (a, b))
    assert canonicalize(GroupNode("OR", (GroupNode("AND", (b,)),))) == GroupNode("AND", (b,))
    twice_not = GroupNode("NOT", (GroupNode("NOT", (c,)),))
    assert canonicalize(GroupNode("AND", (twice_not, a))) == GroupNode("AND", (a, c))
    once_not = GroupNode("NOT", (GroupNode("AND", (c,)),))
    assert canonicalize(GroupNode("AND", (once_not, a))) == GroupNode(
        "AND", (a, GroupNode("NOT", (c,)))
    )
    # Same-operator groups flatten, different ones stay.
    mixed = GroupNode("AND", (a, GroupNode("AND", (b, c))))
    assert canonicalize(mixed) == GroupNode("AND", (a, b, c))
    kept = GroupNode("AND", (a, GroupNode("OR", (b, c))))
    assert canonicalize(kept) == kept


def _nested_ast(depth: int) -> GroupNode:
    """A rule `depth` levels deep: AND groups around one tag (the tag is the last level)."""
    node: TagNode | GroupNode = TagNode("x")
    for _ in range(depth - 1):
        node = GroupNode("AND", (node,))
    assert isinstance(node, GroupNode)
    return node


@pytest.mark.parametrize(("depth", "reason"), [(8, None), (9, "too_deep")])
def test_a_rule_may_nest_eight_levels(depth: int, reason: str | None) -> None:
    """The documented limit (depth ≤ 8) holds for data and for a parsed or model-made rule
    (`check_limits`, which sees a rule canonicalize would flatten) alike."""
    data = _nested(depth - 1)  # under the root group: `depth` levels in all
    rule = _nested_ast(depth)
    if reason is None:
        assert isinstance(validate(group("AND", data)), GroupNode)
        check_limits(rule)
        return
    with pytest.raises(RuleValidationError) as err:
        validate(group("AND", data))
    assert err.value.reason == reason
    with pytest.raises(RuleValidationError) as err:
        check_limits(rule)
    assert err.value.reason == reason


@pytest.mark.parametrize(("tags", "reason"), [(127, None), (128, "too_many_nodes")])
def test_a_rule_may_have_128_nodes(tags: int, reason: str | None) -> None:
    """The root group and its tags are all nodes: 127 tags under it make 128, the most a rule
    may have."""
    data = group("OR", *[tag(f"t{i}") for i in range(tags)])
    rule = GroupNode("OR", tuple(TagNode(f"t{i}") for i in range(tags)))
    if reason is None:
        assert isinstance(validate(data), GroupNode)
        check_limits(rule)
        return
    with pytest.raises(RuleValidationError) as err:
        validate(data)
    assert err.value.reason == reason
    with pytest.raises(RuleValidationError) as err:
        check_limits(rule)
    assert err.value.reason == reason
