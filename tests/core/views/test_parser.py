"""core/views/parser.py: words and symbols → a rule tree, with errors that point into the text."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import LexiconSet
from custom_components.context_retrieval.core.views.canonical import canonicalize, validate
from custom_components.context_retrieval.core.views.model import (
    MAX_RULE_LENGTH,
    GroupNode,
    RuleSyntaxError,
    TagNode,
    rule_to_json,
)
from custom_components.context_retrieval.core.views.parser import (
    Connectives,
    parse_rule,
    render_rule,
)
from tests.core.views.conftest import canon, group, tag


def test_and_binds_tighter_than_or(conn: Connectives) -> None:
    rule = canonicalize(parse_rule("a or b and c", conn))
    assert rule.as_dict() == group("OR", tag("a"), group("AND", tag("b"), tag("c")))


def test_brackets_override_precedence(conn: Connectives) -> None:
    rule = canonicalize(parse_rule("(a or b) and c", conn))
    assert rule.as_dict() == group("AND", tag("c"), group("OR", tag("a"), tag("b")))


def test_the_documented_examples_parse(conn: Connectives) -> None:
    assert canon("灯 并且 (客厅 或 厨房)", conn) == rule_to_json(
        validate(group("AND", tag("灯"), group("OR", tag("厨房"), tag("客厅"))))
    )
    assert canonicalize(
        parse_rule("christmas and (living room or porch)", conn)
    ).as_dict() == group("AND", tag("christmas"), group("OR", tag("living room"), tag("porch")))


def test_unspaced_chinese_connectives_split(conn: Connectives) -> None:
    assert canon("灯并且(客厅或者厨房)", conn) == canon("灯 并且 (客厅 或 厨房)", conn)


def test_full_width_text_reads_like_half_width(conn: Connectives) -> None:
    assert canon("ＬＩＧＨＴＳ　ＡＮＤ　（Ｋｉｔｃｈｅｎ　ＯＲ　ｐｏｒｃｈ）", conn) == canon(
        "lights and (kitchen or porch)", conn
    )
    assert canon("灯 并且 【客厅 或 厨房】", conn) == canon("灯 并且 (客厅 或 厨房)", conn)


def test_symbols_are_operators(conn: Connectives) -> None:
    assert canon("a & b | c", conn) == canon("a and b or c", conn)
    assert canon("a && b || c", conn) == canon("a AND b OR c", conn)


def test_multi_word_tags_stay_whole(conn: Connectives) -> None:
    rule = canonicalize(parse_rule("living room or master bedroom", conn))
    assert rule.as_dict() == group("OR", tag("living room"), tag("master bedroom"))


def test_known_tag_is_not_split_at_a_connective_inside_it(conn: Connectives) -> None:
    known = frozenset({"rock and roll", "和室"})
    assert canonicalize(parse_rule("Rock and Roll or jazz", conn, known)).as_dict() == group(
        "OR", tag("jazz"), tag("rock and roll")
    )
    assert canonicalize(parse_rule("和室或客厅", conn, known)).as_dict() == group(
        "OR", tag("和室"), tag("客厅")
    )


def test_quotes_protect_connectives(conn: Connectives) -> None:
    rule = canonicalize(parse_rule('"rock and roll" or 「黑与白」', conn))
    assert rule.as_dict() == group("OR", tag("rock and roll"), tag("黑与白"))


def test_other_languages_one_letter_words_stay_in_tags(lexicons: LexiconSet) -> None:
    english = Connectives.from_lexicons(lexicons, ("en",))
    assert canonicalize(parse_rule("vitamin e and zinc", english)).as_dict() == group(
        "AND", tag("vitamin e"), tag("zinc")
    )
    spanish = Connectives.from_lexicons(lexicons, ("es",))
    assert canonicalize(parse_rule("cocina y salón", spanish)).as_dict() == group(
        "AND", tag("cocina"), tag("salón")
    )


def _connective_cases(lexicons: LexiconSet) -> list[tuple[str, str, str]]:
    cases = []
    for lang, lex in sorted(lexicons.lexicons.items()):
        for op, words in (("AND", lex.rule_and), ("OR", lex.rule_or)):
            cases += [(lang, op, word) for word in words]
    return cases


def test_every_languages_connectives(lexicons: LexiconSet) -> None:
    cases = _connective_cases(lexicons)
    assert {lang for lang, _, _ in cases} >= {"en", "zh", "de", "fr", "es", "ru"}
    for lang, op, word in cases:
        conn = Connectives.from_lexicons(lexicons, (lang,))
        rule = parse_rule(f"alpha {word} beta", conn)
        assert rule.as_dict() == group(op, tag("alpha"), tag("beta")), (lang, word)
        upper = parse_rule(f"alpha {word.upper()} beta", conn)
        assert upper.as_dict() == rule.as_dict(), (lang, word)


def test_chinese_connectives_work_whatever_the_language(lexicons: LexiconSet) -> None:
    conn = Connectives.from_lexicons(lexicons, ("de",))
    assert parse_rule("客厅或者厨房", conn).as_dict() == group("OR", tag("客厅"), tag("厨房"))


@pytest.mark.parametrize("text", ["", "   ", "\u3000", "\u200b"])
def test_empty_input(conn: Connectives, text: str) -> None:
    with pytest.raises(RuleSyntaxError) as err:
        parse_rule(text, conn)
    assert err.value.reason == "empty"


@pytest.mark.parametrize(
    ("text", "reason", "position"),
    [
        ("a and", "expected_tag", 5),
        ("and a", "expected_tag", 0),
        ("a and or b", "expected_tag", 6),
        ("a and )", "unexpected_close", 6),
        ("a) or b", "unexpected_close", 1),
        ("(a or b", "unclosed_paren", 0),
        ("a and ()", "empty_group", 6),
        ("a &&& b", "bad_operator", 2),
        ('a or "b', "unterminated_quote", 5),
        ('a or ""', "empty_tag", 5),
    ],
)
def test_errors_say_where_and_why(conn: Connectives, text: str, reason: str, position: int) -> None:
    with pytest.raises(RuleSyntaxError) as err:
        parse_rule(text, conn)
    assert (err.value.reason, err.value.position) == (reason, position)
    assert err.value.message


def test_error_position_counts_what_the_user_typed(conn: Connectives) -> None:
    # Full-width characters and a ligature change length when folded; the position may not.
    text = "ﬁsh　并且　（客厅　或　"
    with pytest.raises(RuleSyntaxError) as err:
        parse_rule(text, conn)
    assert (err.value.reason, err.value.position) == ("expected_tag", len(text))
    with pytest.raises(RuleSyntaxError) as err:
        parse_rule("ﬁsh 并且 ）", conn)
    assert err.value.position == "ﬁsh 并且 ）".index("）")


def test_too_long_and_too_deep_are_errors_not_crashes(conn: Connectives) -> None:
    with pytest.raises(RuleSyntaxError) as err:
        parse_rule("a or " * (MAX_RULE_LENGTH // 5 + 1) + "b", conn)
    assert err.value.reason == "too_long"
    with pytest.raises(RuleSyntaxError) as err:
        parse_rule("(" * 500 + "a" + ")" * 500, conn)
    assert err.value.reason == "too_deep"


def test_redundant_brackets_are_flattened(conn: Connectives) -> None:
    assert canon("((((a)))) and ((b))", conn) == canon("a and b", conn)


@pytest.mark.parametrize(
    ("text", "position", "quoted"),
    [
        ("客厅和或卧室", 3, "或"),
        ("或客厅", 0, "或"),
        ("客厅或", 3, "或"),
        ("灯 AND AND 客厅", 6, "AND"),
        ("灯 AND", 5, "AND"),
    ],
)
def test_a_misplaced_connective_is_quoted_as_written(
    conn: Connectives, text: str, position: int, quoted: str
) -> None:
    with pytest.raises(RuleSyntaxError) as err:
        parse_rule(text, conn)
    assert (err.value.reason, err.value.position) == ("expected_tag", position)
    assert f"'{quoted}'" in err.value.message


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("a AND b", group("AND", tag("a"), tag("b"))),
        ("a OR b AND c", group("OR", tag("a"), group("AND", tag("b"), tag("c")))),
        ("NOT a AND b", group("AND", group("NOT", tag("a")), tag("b"))),
        ("灯 AND 客厅", group("AND", tag("灯"), tag("客厅"))),
    ],
)
def test_a_formal_operator_joins_the_words_on_either_side(
    conn: Connectives, text: str, rule: dict
) -> None:
    assert parse_rule(text, conn).as_dict() == rule


def test_a_known_tag_may_end_the_rule_or_follow_another(conn: Connectives) -> None:
    known = frozenset({"rock and roll", "salt and pepper"})
    assert canonicalize(parse_rule("jazz or Rock and Roll", conn, known)).as_dict() == group(
        "OR", tag("jazz"), tag("rock and roll")
    )
    assert canonicalize(
        parse_rule("rock and roll, salt and pepper", conn, known)
    ).as_dict() == group("AND", tag("rock and roll"), tag("salt and pepper"))


@pytest.mark.parametrize(
    ("tag", "languages"),
    [("Rock und Roll", ("de",)), ("Blanco y Negro", ("es",)), ("Rock and Roll", ("en",))],
)
def test_a_tag_holding_one_connective_word_is_quoted_and_reads_back(
    lexicons: LexiconSet, tag: str, languages: tuple[str, ...]
) -> None:
    """Unquoted, "Rock und Roll" would read back as two tags joined by AND."""
    connectives = Connectives.from_lexicons(lexicons, languages)
    text = render_rule(TagNode(tag), connectives)
    assert text == f'"{tag}"'
    parsed = parse_rule(text, connectives)
    assert isinstance(parsed, GroupNode) and parsed.children == (TagNode(tag),)


def test_a_tag_without_connectives_stays_bare(lexicons: LexiconSet) -> None:
    connectives = Connectives.from_lexicons(lexicons, ("de",))
    assert render_rule(TagNode("Wohnzimmer Lampe"), connectives) == "Wohnzimmer Lampe"
