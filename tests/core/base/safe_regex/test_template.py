"""core/base/safe_regex/template.py: a replacement reads group references and escapes as
`re` reads them, and names only groups the pattern has."""

from __future__ import annotations

import re

import pytest

from custom_components.context_retrieval.core.base.safe_regex import (
    Budget,
    PatternError,
    SafePattern,
    Template,
)

GROUPS = "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(?P<last>l)"
TEXT = "abcdefghijkl"


def expanded(template: str) -> str:
    compiled = SafePattern(GROUPS)
    found = compiled.search(TEXT, 0, Budget(10_000, 5))
    assert found is not None
    return found.expand(compiled.template(template))


@pytest.mark.parametrize(
    "template",
    [
        "",
        "plain text",
        r"\1",
        r"\9",
        r"\10",
        r"\12",
        r"\1a",
        r"\12a",
        r"\129",
        r"\11\1",
        r"\1\2\3",
        r"\0",
        r"\00",
        r"\000",
        r"\0000",
        r"\07",
        r"\08",
        r"\01x",
        r"\100",
        r"\177",
        r"\377",
        r"\101\102",
        r"\1000",
        r"\10x",
        r"\g<0>",
        r"\g<1>",
        r"\g<12>",
        r"\g<01>",
        r"\g<last>",
        r"<\g<last>>",
        r"\g<1>0",
        r"\a\b\f\n\r\t\v\\",
        r"\-\%\.\ \é",
        r"x\1y\g<2>z",
        "\\1\u0661",  # an Arabic-Indic digit after a group number is text
        "\\1\u06612",
        "\\12\u00e9",
        r"\123x",
        r"\101x",
        "\u706f\\1",
    ],
)
def test_a_replacement_expands_as_re_expands_it(template: str) -> None:
    assert expanded(template) == re.sub(GROUPS, template, TEXT)


@pytest.mark.parametrize(
    "template",
    [
        "\\",
        "x\\",
        r"\13",
        r"\99",
        r"\18",
        r"\81",
        r"\g<13>",
        r"\g<nope>",
        r"\g<1",
        r"\g<12",
        r"\gx1>",
        r"\g1",
        r"\g",
        r"\g<>",
        r"\g<-1>",
        r"\g<１>",  # a full-width digit is no group number
        r"\q",
        r"\x41",
        r"\u0041",
        r"\N{BULLET}",
        r"\Z",
        r"\d",
    ],
)
def test_a_replacement_naming_what_the_pattern_lacks_or_a_bad_escape_is_refused(
    template: str,
) -> None:
    with pytest.raises((re.error, IndexError)):  # IndexError: an unknown group name
        re.sub(GROUPS, template, TEXT)
    with pytest.raises(PatternError):
        SafePattern(GROUPS).template(template)


@pytest.mark.parametrize(
    ("groups", "template", "valid"),
    [
        (0, r"\g<0>", True),
        (0, r"\1", False),
        (0, r"\g<1>", False),
        (1, r"\1", True),
        (1, r"\g<1>", True),
        (1, r"\2", False),
        (1, r"\g<2>", False),
        (9, r"\9", True),
        (9, r"\10", False),
        (10, r"\10", True),
    ],
)
def test_group_numbers_stop_at_the_groups_of_the_pattern(
    groups: int, template: str, valid: bool
) -> None:
    if valid:
        assert Template.parse(template, groups, {}).pieces != ()
    else:
        with pytest.raises(PatternError):
            Template.parse(template, groups, {})


def test_literal_text_and_references_come_in_order() -> None:
    template = Template.parse(r"a\1b\g<n>\\c", 2, {"n": 2})
    assert template.pieces == ("a", 1, "b", 2, "\\c")
