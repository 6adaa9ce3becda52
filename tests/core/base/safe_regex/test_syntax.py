"""core/base/safe_regex/syntax.py: a pattern is read as `re` reads it (the same matches, the
same refusals), less what cannot run in linear time, within the repeat bound."""

from __future__ import annotations

import re

import pytest

from custom_components.context_retrieval.core.base.safe_regex import (
    MAX_REPEAT,
    Budget,
    PatternError,
    PatternTooComplex,
    SafePattern,
    UnsupportedPattern,
    is_word,
)
from custom_components.context_retrieval.core.base.safe_regex.syntax import (
    CharClass,
    case_variants,
)


def spans(pattern: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in SafePattern(pattern).finditer(text, Budget(10**7, 60))]


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        # Flags: global at the start (several, in a row), scoped to a group, switched off.
        ("(?i)ab", "AB ab aB"),
        ("(?i)(?s)a.b", "A\nB"),
        ("(?is)a.b", "A\nB"),
        ("(?m)(?i)^a", "b\nA"),
        ("(?u)a", "a"),
        ("(?i:a)b", "AB Ab ab"),
        ("(?i:a)a", "AA Aa"),
        ("(?i)(?-i:a)b", "AB aB"),
        ("(?i)a(?-i:b)", "AB Ab"),
        ("(?s:.)", "\n"),
        ("(?s:.).", "\n\n\na"),
        ("(?m:^a)", "b\na"),
        ("(?m:^a)|^b", "b\nb"),
        ("(?im-s:a.)", "A\n Ab"),
        # Comments and groups.
        ("a(?#note)b", "ab"),
        ("(?:ab)+", "ababa"),
        ("()a", "a"),
        ("(|a)b", "ab b"),
        ("a|", "ba"),
        ("|", "ab"),
        # Braces: a bound only when they hold one.
        ("x{", "x{"),
        ("x{1", "x{1"),
        ("x{,}", "x{,}"),
        ("x{1,a}", "x{1,a}"),
        ("x{a,1}", "x{a,1}"),
        ("x{,2}", "xxx"),
        ("x{2,}", "xxxxx"),
        ("x{2,2}", "xxxxx"),
        ("x{0}y", "xy"),
        ("x{١}", "x{١}"),  # an Arabic-Indic digit is no bound
        ("a{2}?", "aaa"),
        ("a*?", "aa"),
        ("a+?", "aa"),
        ("a??b", "ab"),
        # Escapes.
        (r"\x41\u00e9\U0001F4A1", "A\u00e9\U0001f4a1"),
        (r"\U0010FFFF", "\U0010ffff"),
        (r"\N{BULLET}", "\u2022"),
        (r"\0", "\0"),
        (r"\07", "\7"),
        (r"\0101", "\0101"),
        (r"\01234", "\0123" + "4"),
        (r"\08", "\0" + "8"),
        (r"\a\f\n\r\t\v\\", "\a\f\n\r\t\v\\"),
        (r"\é\-\.\ ", "é-. "),
        (r"\d\D", "1a a1"),
        (r"\w\W", "a!_ !a"),
        (r"\s\S", " a a "),
        (r"\Aa", "aa"),
        (r"a\Z", "aa\n"),
        (r"\ba\B", "ab a aa"),
        # Classes.
        ("[]a]+", "a]b"),
        ("[^]a]+", "a]bc"),
        ("[a-]+", "-a-b"),
        ("[-a]+", "-a-b"),
        (r"[\b]", "\b"),
        (r"[\x41-\x43]+", "ABCD"),
        (r"[a-\x63]+", "abcd"),
        (r"[\]]", "]"),
        (r"[\\]", "\\"),
        (r"[\d]+", "a12"),
        (r"[\D]+", "a12"),
        (r"[\W]+", "a,;b"),
        (r"[\s]+", "a \tb"),
        (r"[^\s]+", "a \tb"),
        (r"[^\W\d_]+", "ab1_c"),
        (r"[\w-]+", "a-b c"),
        ("[a-c]+", "abcd"),
        ("[^a-c]+", "abcd"),
        ("(?i)[a-c]+", "ABCD"),
        ("(?i)[^a-c]+", "ABCD"),
        ("(?i)[B]", "abc"),
        ("(?i)[k]", "\u212a"),
        (r"(?i)[\d]", "1a"),
        ("[.^$|*]+", "a.^$|*b"),
        ("[(]", "(a)"),
    ],
)
def test_supported_patterns_match_what_re_matches(pattern: str, text: str) -> None:
    assert spans(pattern, text) == [m.span() for m in re.finditer(pattern, text)]


@pytest.mark.parametrize(
    "pattern",
    [
        "(a",
        "a)",
        "(?)",
        "(?i",
        "(?i:a",
        "a(?i)b",
        "(?i)a(?m)",
        "[z-a]",
        "[a-\\d]",
        "[a",
        "[\\",
        "[]",
        "*a",
        "^*",
        "\\b+",
        "\\A?",
        "{1}",
        "{1,2}",
        "a**",
        "a{2}{3}",
        "a{1,2}{3}",
        "a*?*",
        "a{3,2}",
        "\\",
        "\\q",
        "\\x4",
        "\\u00e",
        "\\xzz",
        "\\U0011FFFF",
        "\\N",
        "\\N{",
        "\\N{BULLET",
        "\\N{NO SUCH CHARACTER}",
        "(?P<1>a)",
        "(?P<>a)",
        "(?P<a",
        "(?P<a>x)(?P<a>y)",
        "(?#unterminated",
    ],
)
def test_invalid_patterns_are_errors_as_in_re(pattern: str) -> None:
    with pytest.raises(re.error):
        re.compile(pattern)
    with pytest.raises(PatternError):
        SafePattern(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        r"(a)\1",
        r"(a)[\1]",
        r"\9",
        r"(?=a)",
        r"(?!a)",
        r"(?<=a)b",
        r"(?<!a)b",
        r"(?>a)",
        r"a*+",
        r"a++",
        r"a?+",
        r"a{2}+",
        r"(?(1)a|b)",
        r"(?P<n>a)(?P=n)",
        r"(?x)a",
        r"(?a)a",
        r"(?L)a",
        r"(?x:a)",
        r"(?i-x:a)",
    ],
)
def test_what_cannot_be_linear_or_is_not_supported_is_refused(pattern: str) -> None:
    with pytest.raises(UnsupportedPattern):
        SafePattern(pattern)


@pytest.mark.parametrize(
    ("pattern", "accepted"),
    [
        ("a{1000}", True),
        ("a{1001}", False),
        ("a{0,1000}", True),
        ("a{,1001}", False),
        ("a{1000,}", True),
        ("a{1001,}", False),
        ("a{1001,1002}", False),
    ],
)
def test_repeat_bounds_stop_at_a_thousand(pattern: str, accepted: bool) -> None:
    assert MAX_REPEAT == 1000
    if accepted:
        assert SafePattern(pattern).search("a" * 1000, 0, Budget(10**7, 60)) is not None
    else:
        with pytest.raises(PatternTooComplex):
            SafePattern(pattern)


def test_a_repeat_with_equal_bounds_is_accepted_and_reversed_ones_are_not() -> None:
    assert spans("a{2,2}", "aaaaa") == [(0, 2), (2, 4)]
    with pytest.raises(PatternError, match="min repeat greater than max repeat"):
        SafePattern("a{3,2}")


@pytest.mark.parametrize(
    ("pattern", "groups", "names"),
    [
        ("abc", 0, {}),
        ("(a)(?:b)(c)", 2, {}),
        ("(?P<room>a)(b)(?P<n>c)", 3, {"room": 1, "n": 3}),
        ("(?i)(a)", 1, {}),
        ("(?i:(a))", 1, {}),
        ("a(?#b)(c)", 1, {}),
        ("((a)(b))", 3, {}),
    ],
)
def test_groups_are_numbered_and_named_as_in_re(
    pattern: str, groups: int, names: dict[str, int]
) -> None:
    compiled = SafePattern(pattern)
    assert (compiled.groups, compiled.groupindex) == (groups, names)
    assert (re.compile(pattern).groups, dict(re.compile(pattern).groupindex)) == (groups, names)


def test_ignore_case_given_by_the_caller_applies_to_the_whole_pattern() -> None:
    compiled = SafePattern(r"lamp[a-c]\w", ignore_case=True)
    found = compiled.search("LAMPB1", 0, Budget(1000, 5))
    assert found is not None
    assert found.group() == "LAMPB1"
    assert SafePattern("(?-i:l)amp", ignore_case=True).search("LAMP", 0, Budget(1000, 5)) is None


@pytest.mark.parametrize(
    ("char", "variants"),
    [
        ("a", {"a", "A"}),
        ("A", {"a", "A"}),
        ("1", {"1"}),
        ("ß", {"ß"}),  # its upper case is two characters
        ("ẞ", {"ẞ", "ß"}),
        ("ſ", {"ſ", "S", "s"}),
        ("\u212a", {"\u212a", "k"}),
        ("Σ", {"Σ", "σ"}),
        ("ς", {"ς", "Σ", "σ"}),  # casefold reaches the non-final sigma
    ],
)
def test_case_variants_are_the_single_characters_case_can_turn_into(
    char: str, variants: set[str]
) -> None:
    assert case_variants(char) == variants


@pytest.mark.parametrize(
    ("char", "word"),
    [("a", True), ("É", True), ("灯", True), ("٣", True), ("_", True), ("-", False), (" ", False)],
)
def test_word_characters_are_letters_digits_and_underscore(char: str, word: bool) -> None:
    assert is_word(char) is word
    assert bool(re.fullmatch(r"\w", char)) is word


@pytest.mark.parametrize(
    ("cls", "inside", "outside"),
    [
        (CharClass(frozenset("ab")), "ab", "cA"),
        (CharClass(frozenset(), ((ord("b"), ord("d")),)), "bcd", "ae"),
        (CharClass(frozenset(), ((ord("b"), ord("b")), (ord("x"), ord("y")))), "bxy", "acz"),
        (CharClass(frozenset(), categories=((str.isdecimal, False),)), "19", "a "),
        (CharClass(frozenset(), categories=((str.isdecimal, True),)), "a ", "19"),
        (CharClass(frozenset("a"), negated=True), "bA", "a"),
        (CharClass(frozenset("a"), fold=True), "aA", "b"),
        (CharClass(frozenset("a"), negated=True, fold=True), "b", "aA"),
        (CharClass(frozenset(), ((ord("a"), ord("c")),), fold=True), "aBc", "d"),
    ],
)
def test_a_class_holds_its_characters_ranges_and_categories(
    cls: CharClass, inside: str, outside: str
) -> None:
    assert [cls.matches(ch) for ch in inside] == [True] * len(inside)
    assert [cls.matches(ch) for ch in outside] == [False] * len(outside)
