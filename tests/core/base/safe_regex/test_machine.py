"""core/base/safe_regex.py: the linear-time matcher finds what Python's `re` finds, refuses
what it cannot match in linear time, and never takes more steps than text × program."""

from __future__ import annotations

import random
import re

import pytest

from custom_components.context_retrieval.core.base.safe_regex import (
    Budget,
    BudgetExceeded,
    PatternError,
    PatternTooComplex,
    SafePattern,
    UnsupportedPattern,
)


def spans(pattern: str, text: str, ignore_case: bool = False) -> list[tuple[int, int]]:
    compiled = SafePattern(pattern, ignore_case=ignore_case)
    return [m.span() for m in compiled.finditer(text, Budget(10**7, 60))]


def re_spans(pattern: str, text: str, ignore_case: bool = False) -> list[tuple[int, int]]:
    flags = re.IGNORECASE if ignore_case else 0
    return [m.span() for m in re.finditer(pattern, text, flags)]


@pytest.mark.parametrize(
    ("pattern", "text", "ignore_case"),
    [
        (r"\x41\u00e9\N{BULLET}\.\*", "xAé\u2022.*y", False),
        (r"[\]a-c\-]+", "x]a-cb", False),
        (r"[^\W\d]+", "ab1 cd", False),
        (r"(?i)straße", "STRASSE Straße STRAßE", False),
        (r"(?i:ab)c", "ABc ABC", False),
        (r"(?s).+", "a\nb", False),
        (r"(?m)^b$", "a\nb\nc", False),
        (r"a{,2}b", "aaab", False),
        (r"a{2,3}?", "aaaa", False),
        (r"x{a}", "x{a}", False),
        (r"\d+", "١٢٣ 12", False),
        (r"\w+", "naïve 灯 ok_1", False),
        (r"\bLamp\b", "Lamp Lamps lamp", True),
        (r"K", "\u212a k K", True),
        (r"é+", "ÉéE", True),
        (r"a|", "ba", False),
        (r"\Z", "a\n", False),
        (r"$", "a\n", False),
        (r"(吸顶|落地)灯", "客厅吸顶灯 落地灯", False),
        (r"^(.*?) (\w+)$", "Living Room Lamp", False),
        (r".*.*.*#", "abc#def#", False),
        (r"(?:i)+x", "iix ix", False),  # a group, not the flag i
        (r"(?im)^A", "b\na", False),  # global flags, more than one
    ],
)
def test_finds_what_re_finds(pattern: str, text: str, ignore_case: bool) -> None:
    assert spans(pattern, text, ignore_case) == re_spans(pattern, text, ignore_case)


def test_random_patterns_agree_with_re_on_every_non_empty_match() -> None:
    """Leftmost-first, greedy and lazy, alternation order: the same matches as `re`, except
    where a repeated group can match nothing (`(a*)*`), where `re` and a linear matcher may
    split equally valid matches differently: those are left out of the comparison."""
    atoms = ["a", "b", ".", "[ab]", "[^a]", r"\d", r"\w", r"\s", "(a|b)", "(?:ab|a)", r"\b", "é"]
    quantifiers = ["", "*", "+", "?", "*?", "+?", "{2}", "{1,3}", "{2,}"]
    rng = random.Random(20)
    compared = 0
    for _ in range(3000):
        pattern = "".join(rng.choice(atoms) + rng.choice(quantifiers) for _ in range(3))
        if rng.random() < 0.3:
            pattern = f"({pattern}|{rng.choice(atoms)})"
        if re.search(r"\([^)]*[*?]\)[*+{]", pattern):
            continue  # a group that can match nothing, repeated
        try:
            re.compile(pattern)
        except re.error:
            with pytest.raises(PatternError):
                SafePattern(pattern)
            continue
        text = "".join(rng.choice("aabbx é\n1") for _ in range(rng.randint(0, 14)))
        ignore_case = rng.random() < 0.2
        ours = [s for s in spans(pattern, text, ignore_case) if s[0] != s[1]]
        theirs = [s for s in re_spans(pattern, text, ignore_case) if s[0] != s[1]]
        assert ours == theirs, (pattern, text, ignore_case)
        compared += 1
    assert compared > 2000


def test_groups_and_templates_expand_like_re() -> None:
    for pattern, template, text in [
        (r"(\w+) (\d+)", r"\2 号 \1", "Light 12"),
        (r"(?P<r>\w+)", r"\g<r>!\g<0>\g<1>", "ab"),
        (r"(a)", r"\\n", "a"),
        (r"(a)", r"\101", "a"),
        (r"(a)", r"\-", "a"),
        (r"(a)|b", r"[\1]", "b"),
    ]:
        compiled = SafePattern(pattern)
        found = next(compiled.finditer(text, Budget(1000, 5)))
        expanded = text[: found.start()] + found.expand(compiled.template(template))
        assert expanded + text[found.end() :] == re.sub(pattern, template, text, count=1)


@pytest.mark.parametrize("template", [r"\2", r"\g<x>", "x\\", r"\q", r"\x41"])
def test_bad_templates_are_refused(template: str) -> None:
    with pytest.raises(PatternError):
        SafePattern(r"(a)").template(template)


@pytest.mark.parametrize(
    "pattern",
    [r"(a)\1", r"(?=a)", r"(?<!a)b", r"(?>a)", r"a*+", r"(?(1)a|b)", r"(?P<n>a)(?P=n)", r"(?x)a"],
)
def test_what_cannot_be_linear_is_refused(pattern: str) -> None:
    with pytest.raises(UnsupportedPattern):
        SafePattern(pattern)


@pytest.mark.parametrize(
    "pattern", ["(a", "a)", "[z-a]", "*a", "a**", r"\q", "[a", "(?P<1>a)", "a(?i", "a(?i)b", "(?i"]
)
def test_invalid_patterns_are_errors(pattern: str) -> None:
    with pytest.raises(PatternError):
        SafePattern(pattern)
    with pytest.raises(re.error):
        re.compile(pattern)


def test_a_program_too_long_is_refused() -> None:
    with pytest.raises(PatternTooComplex):
        SafePattern(r"(?:(?:a{1,1000}){1,1000})")


CATASTROPHIC = [
    (r"(a+)+$", "a" * 64 + "!"),
    (r"(a|aa)+$", "a" * 64 + "!"),
    (r"(a|a?)+$", "a" * 64 + "!"),
    (r"(.*a){12}", "a" * 64),
    (r"(\w+\s?)*$", "word " * 30 + "!"),
    (r"(x+x+)+y", "x" * 255),
    (r".*.*.*.*.*.*.*#", "x" * 255),
    (r"^(([a-z])+.)+[A-Z]([a-z])+$", "aaaaaaaaaaaaaaaaaaaaaaaa!"),
]


@pytest.mark.parametrize(("pattern", "text"), CATASTROPHIC)
def test_catastrophic_patterns_take_steps_linear_in_the_text(pattern: str, text: str) -> None:
    """Each (position, instruction) pair is visited at most once per list: the steps of a
    whole `finditer` stay within a small multiple of text × program."""
    compiled = SafePattern(pattern)
    for n in (len(text) // 4, len(text)):
        budget = Budget(10**8, 60)
        list(compiled.finditer(text[:n], budget))
        assert budget.spent <= 3 * (n + 1) * len(compiled.program)


def test_the_budget_stops_a_search() -> None:
    compiled = SafePattern(r".*.*.*.*#")
    with pytest.raises(BudgetExceeded):
        list(compiled.finditer("x" * 5000, Budget(1000, 60)))
    with pytest.raises(BudgetExceeded):
        list(compiled.finditer("x" * 50_000, Budget(10**9, 0.0)))


TWELVE_GROUPS = "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)"


@pytest.mark.parametrize(
    "template",
    [
        r"\123x",  # three octal digits then a letter: one character
        r"\1234",  # at most three octal digits, the fourth is text
        r"\0",
        r"\07",
        r"\0777",
        r"\12",  # two digits: group 12
        r"\12x",
        r"\120",  # "120" is octal: one character, not group 12 then "0"
        r"\128",  # 8 is no octal digit: group 12 then "8"
        r"\1\2",
        r"\11a",
        r"\g<12>\g<1>0",
        r"\t\n\\",
        r"\-\%",
    ],
)
def test_templates_read_escapes_and_group_numbers_as_re_does(template: str) -> None:
    text = "abcdefghijkl!"
    compiled = SafePattern(TWELVE_GROUPS)
    found = next(compiled.finditer(text, Budget(1000, 5)))
    expanded = found.expand(compiled.template(template)) + text[found.end() :]
    assert expanded == re.sub(TWELVE_GROUPS, template, text, count=1)


@pytest.mark.parametrize("template", [r"\13", r"\g<13>", r"\g<1", r"\g1", r"\g<>"])
def test_templates_naming_groups_a_pattern_lacks_are_refused_as_re_refuses_them(
    template: str,
) -> None:
    with pytest.raises(re.error):
        re.sub(TWELVE_GROUPS, template, "abcdefghijkl")
    with pytest.raises(PatternError):
        SafePattern(TWELVE_GROUPS).template(template)
