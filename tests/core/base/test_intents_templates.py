"""core/base/intents_templates.py: Home Assistant's sentence template syntax."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core.base.intents_templates import (
    TemplateError,
    parse_template,
)


def test_template_alternatives_optionals_rules_and_lists():
    node = parse_template("accend(i|ere) [la] <name> {area:room}")
    kinds = [item[0] for item in node[1]]
    assert kinds == ["text", "alt", "text", "alt", "text", "rule", "text", "list"]
    assert node[1][3][2] is True  # [la] is optional
    assert node[1][7] == ("list", "area")  # the slot name after ":" is not the list


def test_template_permutation_and_bare_top_level_alternative():
    assert parse_template("(a;b)")[1][0][0] == "perm"
    top = parse_template("uno|due")
    assert top[0] == "alt" and len(top[1]) == 2


@pytest.mark.parametrize("bad", ["(a|b", "a)b", "<rule", "[a"])
def test_broken_templates_are_refused(bad: str):
    with pytest.raises(TemplateError):
        parse_template(bad)
