"""core/base/safe_regex/machine.py (with the parser and templates it runs): the
linear-time matcher finds what Python's `re` finds, refuses what it cannot match in linear time,
and never takes more steps than text × program."""

from __future__ import annotations

import random
import re

import pytest

from custom_components.context_retrieval.core.base.safe_regex import (
    MAX_PROGRAM,
    Budget,
    BudgetExceeded,
    PatternError,
    PatternTooComplex,
    SafePattern,
    UnsupportedPattern,
    is_word,
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


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        # Empty matches: every position, and none right after a non-empty match ends there.
        ("a*", "baac"),
        ("x*", "ab"),
        ("a??", "aa"),
        (r"\b", "ab cd"),
        (r"\B", "ab cd"),
        ("$", "a\nb\n"),
        ("(?m)$", "a\nb\n"),
        ("(?m)^", "a\nb\n"),
        ("^", "a\nb"),
        (r"\A", "ab"),
        (r"\Z", "ab\n"),
        ("a$", "a\na"),
        ("a$", "a\n"),
        ("a$", "a\n\n"),
        (r"a\Z", "a\n"),
        ("(?m)a$", "a\nba"),
        ("(?m)^a", "a\nab\nba"),
        # Anchored at the start of the text: one try only.
        ("^a", "aa"),
        ("^a", "ba"),
        (r"\Aa", "ba"),
        ("(^a)", "aab"),
        ("^a|b", "xab"),
        (r"\bb", "a b"),
        # Where a match may start: literals, classes, case variants, any character.
        (r"a|\d", "x5a"),
        (r"[xy]|\s", "ab y\t"),
        ("(?i)a|b", "xAB"),
        (r"(?i)k|\d", "x\u212a 5"),
        ("(?i)S", "x\u017f s S"),
        (".b", "\nb ab"),
        ("(?s).b", "\nb ab"),
        ("a.c", "a\nc abc"),
        ("(?s)a.c", "a\nc abc"),
        (r"[^a]b", "ab\nb"),
        # Greedy, lazy and counted repeats; alternation order.
        ("a{2}", "aaaaa"),
        ("a{2,}", "aaaaa"),
        ("a{2,}?", "aaaaa"),
        ("a{0,2}b", "aaab"),
        ("(ab){2}c", "abababc"),
        ("a|ab", "ab"),
        ("ab|a", "ab"),
        ("(a|ab)(c|bcd)", "abcd"),
        ("<.+>", "<a><b>"),
        ("<.+?>", "<a><b>"),
        ("a+?b", "aaab"),
        ("b+", "abbbcbb"),
        ("", "ab"),
        # A group that may take no part, or repeat nothing, before what follows.
        ("(a)?", "ba"),
        ("(a)|", "ba"),
        ("(?:a?)*b", "xab b"),
        ("(a|)*b", "xab b"),
    ],
)
def test_matches_and_empty_matches_as_re_finds_them(pattern: str, text: str) -> None:
    assert spans(pattern, text) == re_spans(pattern, text)


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"(\w+)@(\w+)", "x ab@cd y"),
        (r"(a)|(b)", "b"),
        (r"(a)?b", "b"),
        (r"(a*)(b)", "b"),
        (r"((a)|b)+", "ab"),
        (r"(?P<room>\w+) (?P<n>\d+)", "kitchen 2"),
        (r"(a)(?:x)?", "a"),
    ],
)
def test_groups_report_what_re_reports(pattern: str, text: str) -> None:
    compiled = SafePattern(pattern)
    ours = compiled.search(text, 0, Budget(10**6, 60))
    theirs = re.search(pattern, text)
    assert ours is not None
    assert theirs is not None
    assert compiled.groups == theirs.re.groups
    assert compiled.groupindex == dict(theirs.re.groupindex)
    for group in range(compiled.groups + 1):
        assert ours.group(group) == theirs.group(group)
        assert ours.span(group) == theirs.span(group)
        assert (ours.start(group), ours.end(group)) == (theirs.start(group), theirs.end(group))


def test_a_group_that_did_not_take_part_expands_to_nothing() -> None:
    compiled = SafePattern(r"(a)|(b)")
    found = compiled.search("b", 0, Budget(1000, 5))
    assert found is not None
    assert found.group(1) is None
    assert found.group(2) == "b"
    assert found.expand(compiled.template(r"[\1|\2]")) == "[|b]"


@pytest.mark.parametrize(
    ("pattern", "text", "pos", "expected"),
    [
        ("a", "aba", 1, (2, 3)),
        ("a", "aba", 3, None),
        ("a*", "ba", 2, (2, 2)),
        ("^a", "aa", 1, None),
        ("^a", "aa", 0, (0, 1)),
        ("(?m)^a", "a\na", 1, (2, 3)),
        ("b", "ab", 0, (1, 2)),
        ("a*", "b", 0, (0, 0)),
        ("(a)?", "b", 0, (0, 0)),
    ],
)
def test_search_starts_at_the_position_given(
    pattern: str, text: str, pos: int, expected: tuple[int, int] | None
) -> None:
    found = SafePattern(pattern).search(text, pos, Budget(1000, 5))
    assert (None if found is None else found.span()) == expected


def test_search_skips_an_empty_match_where_the_last_one_ended() -> None:
    """Python's rule after an empty match at `no_empty_at`: the next match there must not be
    empty, so a non-empty one at the same place still counts."""
    compiled = SafePattern("a*")
    budget = Budget(1000, 5)
    nonempty = compiled.search("ab", 0, budget, no_empty_at=0)
    assert nonempty is not None
    assert nonempty.span() == (0, 1)
    later = compiled.search("ba", 0, budget, no_empty_at=0)
    assert later is not None
    assert later.span() == (1, 2)
    elsewhere = compiled.search("ba", 0, budget, no_empty_at=1)
    assert elsewhere is not None
    assert elsewhere.span() == (0, 0)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("lamp", ["lamp"]),
        ("a lamp.", ["lamp"]),
        ("lamps", []),
        ("floorlamp", []),
        ("_lamp", []),
        ("lamp2", []),
        ("2lamp lamp_", []),
        ("灯lamp", []),
        ("lamp-lamp", ["lamp", "lamp"]),
    ],
)
def test_a_whole_word_search_only_matches_at_word_edges(text: str, found: list[str]) -> None:
    compiled = SafePattern("lamp", edge_word=is_word)
    assert [m.group() for m in compiled.finditer(text, Budget(10**5, 5))] == found


@pytest.mark.parametrize(
    ("text", "found"),
    [("lamp2", ["lamp"]), ("2lamp", ["lamp"]), ("lampe", []), ("elamp", []), ("lamp", ["lamp"])],
)
def test_the_caller_says_which_characters_make_a_word(text: str, found: list[str]) -> None:
    """Letters only: a digit next to the match is an edge."""
    compiled = SafePattern("lamp", edge_word=str.isalpha)
    assert [m.group() for m in compiled.finditer(text, Budget(10**5, 5))] == found


def test_a_whole_word_search_of_a_pattern_ending_in_a_non_word_character() -> None:
    """The edge is between two word characters only: "lamp." may be followed by a letter."""
    compiled = SafePattern(r"lamp\.", edge_word=is_word)
    assert [m.span() for m in compiled.finditer("lamp.x", Budget(10**5, 5))] == [(0, 5)]


def test_a_program_of_exactly_the_limit_compiles_and_one_more_is_refused() -> None:
    """At most 4,000 instructions: each literal is one, plus two saves and the final match."""
    body = "a" * (4_000 - 1000 - 3) + "b{1000}"
    assert len(SafePattern(body).program) == 4_000 == MAX_PROGRAM
    with pytest.raises(PatternTooComplex):
        SafePattern(body + "c")


def test_a_budget_allows_exactly_its_steps() -> None:
    compiled = SafePattern(r"(a|b)*c")
    text = "ab" * 50 + "c"
    measured = Budget(10**9, 60)
    assert compiled.search(text, 0, measured) is not None
    steps = measured.spent
    assert steps > 0
    exact = Budget(steps, 60)
    assert compiled.search(text, 0, exact) is not None
    assert exact.spent == steps
    with pytest.raises(BudgetExceeded):
        compiled.search(text, 0, Budget(steps - 1, 60))


def test_a_budget_is_shared_by_the_searches_it_is_given_to() -> None:
    compiled = SafePattern("a")
    budget = Budget(10**6, 60)
    compiled.search("xxa", 0, budget)
    once = budget.spent
    compiled.search("xxa", 0, budget)
    assert budget.spent == 2 * once


def test_a_budget_out_of_time_stops_even_a_short_search() -> None:
    with pytest.raises(BudgetExceeded, match=r"s$"):
        SafePattern("a").search("xa", 0, Budget(10**6, -1.0))


def test_a_budget_with_time_left_lets_a_long_search_finish() -> None:
    text = "x" * 20_000 + "a"
    found = SafePattern("x*a").search(text, 0, Budget(10**7, 60))
    assert found is not None
    assert found.span() == (0, len(text))


def test_match_without_a_group_number_is_the_whole_match() -> None:
    found = SafePattern("a(b)c").search("xabc", 0, Budget(1000, 5))
    assert found is not None
    assert (found.start(), found.end(), found.span(), found.group()) == (1, 4, (1, 4), "abc")
    assert (found.start(1), found.end(1), found.span(1), found.group(1)) == (2, 3, (2, 3), "b")


@pytest.mark.parametrize("pattern", ["a", "[ab]", "(?i)k", r"a|\d", r"(?i)a|\d", r"\ba"])
def test_characters_no_match_can_start_with_are_skipped_at_a_step_each(pattern: str) -> None:
    """Far into a text, a search costs about one step a character before the match."""
    text = "x" * 1000 + " a5K"
    budget = Budget(10**6, 60)
    assert SafePattern(pattern).search(text, 0, budget) is not None
    assert budget.spent < 1.5 * len(text)


@pytest.mark.parametrize("pattern", ["^a", r"\Aa", "(^a)", "^(?:a|b)c"])
def test_a_pattern_anchored_at_the_start_is_tried_there_only(pattern: str) -> None:
    """Failing at the start of a long text costs a few steps, not one a character."""
    budget = Budget(10**6, 60)
    assert SafePattern(pattern).search("x" + "a" * 1000, 0, budget) is None
    assert budget.spent < 20


def test_every_instruction_visited_without_reading_counts_as_a_step() -> None:
    """Two hundred optional letters before a "b": reaching the "b" visits every instruction,
    and each visit is a step (and no more than two a position and instruction)."""
    compiled = SafePattern("(?:a?){200}b")
    budget = Budget(10**6, 60)
    assert compiled.search("b", 0, budget) is not None
    assert len(compiled.program) <= budget.spent <= 2 * 2 * len(compiled.program)
