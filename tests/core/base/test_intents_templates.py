"""core/base/intents_templates.py: Home Assistant's sentence template syntax."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core.base.intents_templates import (
    MAX_DEPTH,
    Expander,
    TemplateError,
    is_word,
    parse_template,
    template_units,
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


# ---- expansion: every alternative once, within the limit ---------------------------------------


def _expand(template: str, limit: int = 50, rules: dict[str, str] | None = None) -> list[str]:
    parsed = {name: parse_template(body) for name, body in (rules or {}).items()}
    return Expander(rules=parsed, limit=limit).expand(parse_template(template))


def _plain(expansions: list[str]) -> list[str]:
    return [" ".join(template_units(text)) for text in expansions]


def test_an_alternative_gives_each_option_and_an_optional_also_nothing():
    assert _plain(_expand("(on|off)")) == ["on", "off"]
    assert _plain(_expand("[the]")) == ["", "the"]


def test_a_small_product_is_expanded_in_full():
    # 2 x 2 = 4 sentences fit a limit of 4: every combination is there.
    assert sorted(_plain(_expand("(a|b) (c|d)", limit=4))) == ["a c", "a d", "b c", "b d"]


def test_a_product_over_the_limit_still_covers_every_alternative_once():
    # 2 x 3 = 6 combinations over a limit of 5: the widest part decides how many sentences
    # (3), each alternative of each part in at least one of them.
    out = _plain(_expand("(a|b) (c|d|e)", limit=5))
    assert len(out) == 3
    assert {s.split()[0] for s in out} == {"a", "b"}
    assert {s.split()[1] for s in out} == {"c", "d", "e"}


def test_a_wide_part_over_the_limit_is_cut_to_the_limit():
    out = _plain(_expand("(a|b|c|d|e|f) (x|y)", limit=4))
    assert len(out) == 4
    assert {s.split()[1] for s in out} == {"x", "y"}


def test_the_limit_caps_one_alternative_too():
    assert len(_expand("(a|b|c|d)", limit=2)) == 2
    assert len(_expand("(a|b|c|d)", limit=0)) == 1  # never nothing at all


def test_a_permutation_is_read_in_both_orders_as_separate_words():
    assert sorted(_plain(_expand("(open;door)"))) == ["door open", "open door"]


def test_rules_expand_into_their_body_and_lists_stay_slots():
    out = _plain(_expand("<verb> {name}", rules={"verb": "(turn on|switch on)"}))
    assert out == ["turn on {name}", "switch on {name}"]
    assert _plain(_expand("<missing> x")) == ["x"]


def test_a_rule_that_names_itself_stops_at_the_depth_limit():
    out = _expand("<loop>", rules={"loop": "a <loop>"})
    units = template_units(out[0])
    assert units and set(units) == {"a"}
    # Each level of the rule is two levels of nesting (its sequence, then the rule).
    assert MAX_DEPTH // 3 <= len(units) <= MAX_DEPTH


def test_glued_pieces_join_as_one_word_unless_a_short_piece_stands_before_a_long_word():
    assert _plain(_expand("trancad(a|as)")) == ["trancada", "trancadas"]
    # "fai" (3 letters) before "accendi" (7): two words written together in the template.
    assert _plain(_expand("[fai](accendi)")) == ["accendi", "fai accendi"]
    # Four letters before five is still two words; five before five is one glued word.
    assert _plain(_expand("(abcd)(efghi)")) == ["abcd efghi"]
    assert _plain(_expand("(abcde)(fghij)")) == ["abcdefghij"]
    # A short piece before a four-letter ending is glued (an ending, not a word).
    assert _plain(_expand("(ab)(cdef)")) == ["abcdef"]
    # Only letters next to the join count: "x-" ends in no letter, so nothing is added.
    assert _plain(_expand("(x-)(abcdef)")) == ["x-abcdef"]


def test_chinese_pieces_side_by_side_stay_separate_units():
    assert template_units(_expand("(打开)(客厅)")[0]) == ("打开", "客厅")
    # Chinese beside Latin letters is joined as the template writes it.
    assert template_units(_expand("(打开)(tv)")[0]) == ("打开tv",)


def test_template_units_normalise_words_strip_punctuation_and_keep_slots():
    assert template_units("Turn ON, the {name} please!") == (
        "turn",
        "on",
        "the",
        "{name}",
        "please",
    )
    assert template_units("  ?? ") == ()


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("lamp", True),
        ("2nd", True),
        ("{name}", False),
        ("42", False),
        ("a" * 40, True),
        ("a" * 41, False),
    ],
)
def test_is_word_is_a_short_unit_with_a_letter_and_not_a_slot(unit: str, expected: bool):
    assert is_word(unit) is expected


def test_a_backslash_makes_the_next_character_plain_text():
    assert _plain(_expand(r"\(on\) x")) == ["(on) x"]
    assert _plain(_expand(r"a\|b")) == ["a|b"]
    # At the very end an escape still escapes; a lone backslash at the end is kept as text.
    assert _plain(_expand(r"x\|")) == ["x|"]
    assert _plain(_expand("x\\")) == ["x\\"]


def test_nesting_deeper_than_the_depth_limit_is_cut_off():
    # Each group is two levels (the group, then the sequence inside it), under the top sequence.
    deepest = (MAX_DEPTH - 1) // 2

    def nested(levels: int) -> str:
        return "(" * levels + "a" + ")" * levels

    assert _plain(_expand(nested(deepest))) == ["a"]
    assert _plain(_expand(nested(deepest + 1))) == [""]
