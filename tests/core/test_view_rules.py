"""View rules: parser, validator, canonicaliser, evaluation over a home, and the compile chain."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from custom_components.context_retrieval.core import Area, Floor, LexiconSet, load_home
from custom_components.context_retrieval.core.views.canonical import canonicalize, validate
from custom_components.context_retrieval.core.views.compiler import (
    compile_deterministic,
    compile_rule,
)
from custom_components.context_retrieval.core.views.executor import TagUniverse, preview
from custom_components.context_retrieval.core.views.llm import parse_llm_answer
from custom_components.context_retrieval.core.views.model import (
    MAX_DEPTH,
    MAX_NODES,
    MAX_RULE_LENGTH,
    GroupNode,
    RuleSyntaxError,
    RuleValidationError,
    TagNode,
    rule_to_json,
)
from custom_components.context_retrieval.core.views.parser import (
    Connectives,
    parse_rule,
    render_rule,
)
from tests.core.conftest import DEMO_HOME, make_device


@pytest.fixture(scope="module")
def conn(lexicons: LexiconSet) -> Connectives:
    return Connectives.from_lexicons(lexicons, ("en", "zh"))


def canon(text: str, conn: Connectives, known: frozenset[str] = frozenset()) -> str:
    return rule_to_json(canonicalize(parse_rule(text, conn, known)))


def tag(t: str) -> dict[str, str]:
    return {"kind": "tag", "tag": t}


def group(op: str, *children: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "group", "op": op, "children": list(children)}


# --- parser ----------------------------------------------------------------------------------

def test_and_binds_tighter_than_or(conn: Connectives) -> None:
    rule = canonicalize(parse_rule("a or b and c", conn))
    assert rule.as_dict() == group("OR", tag("a"), group("AND", tag("b"), tag("c")))


def test_brackets_override_precedence(conn: Connectives) -> None:
    rule = canonicalize(parse_rule("(a or b) and c", conn))
    assert rule.as_dict() == group("AND", tag("c"), group("OR", tag("a"), tag("b")))


def test_seed_examples_parse(conn: Connectives) -> None:
    assert canon("灯 并且 (客厅 或 厨房)", conn) == rule_to_json(validate(
        group("AND", tag("灯"), group("OR", tag("厨房"), tag("客厅")))))
    assert canonicalize(parse_rule("christmas and (living room or porch)", conn)).as_dict() == \
        group("AND", tag("christmas"), group("OR", tag("living room"), tag("porch")))


def test_unspaced_chinese_connectives_split(conn: Connectives) -> None:
    assert canon("灯并且(客厅或者厨房)", conn) == canon("灯 并且 (客厅 或 厨房)", conn)


def test_full_width_text_reads_like_half_width(conn: Connectives) -> None:
    assert canon("ＬＩＧＨＴＳ　ＡＮＤ　（Ｋｉｔｃｈｅｎ　ＯＲ　ｐｏｒｃｈ）", conn) == \
        canon("lights and (kitchen or porch)", conn)
    assert canon("灯 并且 【客厅 或 厨房】", conn) == canon("灯 并且 (客厅 或 厨房)", conn)


def test_symbols_are_operators(conn: Connectives) -> None:
    assert canon("a & b | c", conn) == canon("a and b or c", conn)
    assert canon("a && b || c", conn) == canon("a AND b OR c", conn)


def test_multi_word_tags_stay_whole(conn: Connectives) -> None:
    rule = canonicalize(parse_rule("living room or master bedroom", conn))
    assert rule.as_dict() == group("OR", tag("living room"), tag("master bedroom"))


def test_known_tag_is_not_split_at_a_connective_inside_it(conn: Connectives) -> None:
    known = frozenset({"rock and roll", "和室"})
    assert canonicalize(parse_rule("Rock and Roll or jazz", conn, known)).as_dict() == \
        group("OR", tag("jazz"), tag("rock and roll"))
    assert canonicalize(parse_rule("和室或客厅", conn, known)).as_dict() == \
        group("OR", tag("和室"), tag("客厅"))


def test_quotes_protect_connectives(conn: Connectives) -> None:
    rule = canonicalize(parse_rule('"rock and roll" or 「黑与白」', conn))
    assert rule.as_dict() == group("OR", tag("rock and roll"), tag("黑与白"))


def test_other_languages_one_letter_words_stay_in_tags(lexicons: LexiconSet) -> None:
    english = Connectives.from_lexicons(lexicons, ("en",))
    assert canonicalize(parse_rule("vitamin e and zinc", english)).as_dict() == \
        group("AND", tag("vitamin e"), tag("zinc"))
    spanish = Connectives.from_lexicons(lexicons, ("es",))
    assert canonicalize(parse_rule("cocina y salón", spanish)).as_dict() == \
        group("AND", tag("cocina"), tag("salón"))


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


@pytest.mark.parametrize(("text", "reason", "position"), [
    ("a and", "expected_tag", 5),
    ("and a", "expected_tag", 0),
    ("a and or b", "expected_tag", 6),
    ("a and )", "unexpected_close", 6),
    ("a) or b", "unexpected_close", 1),
    ("(a or b", "unclosed_paren", 0),
    ("a (b)", "missing_operator", 2),
    ("a and ()", "empty_group", 6),
    ("a &&& b", "bad_operator", 2),
    ('a or "b', "unterminated_quote", 5),
    ('a or ""', "empty_tag", 5),
])
def test_errors_say_where_and_why(conn: Connectives, text: str, reason: str,
                                  position: int) -> None:
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


# --- validator -------------------------------------------------------------------------------

def _nested(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = tag("x")
    for _ in range(depth - 1):
        node = group("AND", node)
    return node


@pytest.mark.parametrize(("data", "reason"), [
    (tag("a"), "root_not_group"),
    (["a"], "root_not_group"),
    (None, "root_not_group"),
    (group("AND"), "empty_group"),
    ({"kind": "group", "op": "AND"}, "empty_group"),
    (group("NOT", tag("a")), "bad_operator"),
    (group("and", tag("a")), "bad_operator"),
    (group("AND", {"kind": "regex", "tag": "a"}), "bad_node"),
    ({"kind": "group", "op": "AND", "children": ["a"]}, "bad_node"),
    (group("AND", tag("  ")), "empty_tag"),
    (group("AND", {"kind": "tag", "tag": 5}), "empty_tag"),
    (group("AND", _nested(MAX_DEPTH)), "too_deep"),
    (group("OR", *[tag(f"t{i}") for i in range(MAX_NODES)]), "too_many_nodes"),
])
def test_validator_rejects(data: Any, reason: str) -> None:
    with pytest.raises(RuleValidationError) as err:
        validate(data)
    assert err.value.reason == reason


def test_validator_accepts_the_limits() -> None:
    assert isinstance(validate(group("AND", _nested(MAX_DEPTH - 1))), GroupNode)
    assert isinstance(validate(group("OR", *[tag(f"t{i}") for i in range(MAX_NODES - 1)])),
                      GroupNode)


# --- canonicaliser ---------------------------------------------------------------------------

def test_seed_example_is_canonical() -> None:
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
    for text in ["a or b and c", "灯 并且 (客厅 或 厨房)", "(x or y) and (y or x) and z",
                 '"rock and roll" or jazz']:
        once = canonicalize(parse_rule(text, conn))
        assert canonicalize(once) == once
        assert canonicalize(validate(json.loads(rule_to_json(once)))) == once
        assert canonicalize(parse_rule(render_rule(once, conn), conn)) == once


# --- the home's tags -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def universe(lexicons: LexiconSet) -> TagUniverse:
    down = Floor("ground", "Ground Floor", ("downstairs",))
    up = Floor("first", "First Floor", ("upstairs",))
    living = Area("living_room", "Living Room", ("lounge",), "ground")
    porch = Area("porch", "Porch", (), "ground")
    kitchen = Area("kitchen", "Kitchen", (), "ground")
    bedroom = Area("bedroom", "Bedroom", (), "first")
    devices = [
        make_device("light.tree", "Tree Lights", living, down, labels=("Christmas",),
                    device_id="dev_tree"),
        make_device("switch.tree_star", "Tree Star", living, down, labels=("Christmas",),
                    device_id="dev_tree"),
        make_device("light.porch_garland", "Garland", porch, down, labels=("Christmas",),
                    device_id="dev_garland"),
        make_device("light.bedroom_stars", "Star Projector", bedroom, up,
                    labels=("Christmas",), device_id="dev_stars"),
        make_device("light.kitchen", "Kitchen Ceiling", kitchen, down, device_id="dev_k"),
        make_device("light.living", "Living Ceiling", living, down),
        make_device("binary_sensor.porch_door", "Porch Door", porch, down,
                    device_class="door"),
        make_device("sensor.kitchen_temp", "Kitchen Temperature", kitchen, down,
                    device_class="temperature", labels=("kitchen",)),
    ]
    return TagUniverse.build(devices, [living, porch, kitchen, bedroom], [down, up], lexicons,
                             labels={"christmas": "Christmas", "kitchen": "kitchen",
                                     "unused": "Spare"})


def hits(text: str, universe: TagUniverse) -> set[str]:
    result = compile_deterministic(text, universe)
    assert result.ok and result.rule is not None, result
    return set(preview(result.rule, universe).entity_ids)


def test_christmas_example(universe: TagUniverse) -> None:
    assert hits("christmas and (living room or porch)", universe) == {
        "light.tree", "switch.tree_star", "light.porch_garland"}


def test_names_ids_and_aliases_resolve(universe: TagUniverse) -> None:
    by_name = hits("christmas and living room", universe)
    assert hits("christmas and lounge", universe) == by_name
    assert hits("christmas and area:living_room", universe) == by_name
    assert hits("christmas and upstairs", universe) == {"light.bedroom_stars"}
    assert hits("christmas and floor:first", universe) == {"light.bedroom_stars"}
    assert hits("label:christmas and porch", universe) == {"light.porch_garland"}


def test_bare_tag_is_a_label_first(universe: TagUniverse) -> None:
    # "kitchen" is both a label and an area: the label wins; the namespace picks the area.
    assert hits("kitchen", universe) == {"sensor.kitchen_temp"}
    assert hits("area:kitchen", universe) == {"light.kitchen", "sensor.kitchen_temp"}


def test_type_words_domains_and_classes(universe: TagUniverse) -> None:
    lights = {"light.tree", "light.porch_garland", "light.bedroom_stars", "light.kitchen",
              "light.living"}
    assert hits("lights", universe) == lights
    assert hits("灯", universe) == lights
    assert hits("domain:light", universe) == lights
    assert hits("device_class:door or device_class:temperature", universe) == {
        "binary_sensor.porch_door", "sensor.kitchen_temp"}


def test_label_without_entities_resolves_to_nothing_without_a_warning(
        universe: TagUniverse) -> None:
    result = compile_deterministic("spare", universe)
    assert result.ok and result.unresolved_tags == []
    assert preview(result.rule, universe).entity_hits == 0  # type: ignore[arg-type]


def test_preview_counts_entities_devices_and_samples(universe: TagUniverse) -> None:
    result = compile_deterministic("christmas", universe)
    assert result.rule is not None
    p = preview(result.rule, universe)
    assert (p.entity_hits, p.device_hits, p.total_hits) == (4, 3, 7)
    assert [s["id"] for s in p.sample_items] == [
        "light.bedroom_stars", "light.tree", "switch.tree_star", "light.porch_garland"]
    assert p.sample_items[0] == {"kind": "entity", "id": "light.bedroom_stars",
                                 "name": "Star Projector", "area": "Bedroom"}
    assert p.resolved == {"christmas": "label:Christmas"}


def test_preview_samples_at_most_ten(lexicons: LexiconSet) -> None:
    devices = [make_device(f"light.l{i:02}", f"Lamp {i:02}", labels=("many",))
               for i in range(25)]
    u = TagUniverse.build(devices, [], [], lexicons)
    p = preview(canonicalize(GroupNode("AND", (TagNode("many"),))), u)
    assert p.entity_hits == 25 and len(p.sample_items) == 10
    assert p.sample_items[0]["id"] == "light.l00"


def test_unresolved_tags_are_reported_with_suggestions(universe: TagUniverse) -> None:
    result = compile_deterministic("chrismas and kitchn", universe)
    assert result.ok
    assert result.unresolved_tags == ["chrismas", "kitchn"]
    assert "unresolved_tags" in result.warnings
    p = preview(result.rule, universe)  # type: ignore[arg-type]
    assert p.entity_hits == 0
    assert "Christmas" in p.suggestions["chrismas"]
    assert "Kitchen" in p.suggestions["kitchn"] or "kitchen" in p.suggestions["kitchn"]


def test_unresolved_phrase_is_split_into_existing_tags_with_a_note(
        universe: TagUniverse) -> None:
    result = compile_deterministic("christmas lights", universe)
    assert result.ok and result.compile_source == "deterministic"
    assert result.rule is not None
    assert result.rule.as_dict() == group("AND", tag("christmas"), tag("lights"))
    assert result.rewrite_note and "christmas lights" in result.rewrite_note
    assert set(preview(result.rule, universe).entity_ids) == {
        "light.tree", "light.porch_garland", "light.bedroom_stars"}


def test_demo_home_chinese_rules(lexicons: LexiconSet) -> None:
    home = load_home(DEMO_HOME)
    u = TagUniverse.build(home.devices, home.areas, home.floors, lexicons)
    lights = {d.entity_id for d in home.devices if d.domain == "light"}
    rooms = {d.entity_id for d in home.devices if d.area_id in ("living_room", "kitchen")}
    assert hits("灯 并且 (客厅 或 厨房)", u) == lights & rooms
    split = compile_deterministic("客厅的灯", u)
    assert split.rewrite_note and "客厅的灯" in split.rewrite_note
    assert hits("客厅的灯", u) == {d.entity_id for d in home.devices
                                 if d.domain == "light" and d.area_id == "living_room"}
    festive = {d.entity_id for d in home.devices if "圣诞装饰" in d.labels}
    assert festive and hits("圣诞装饰", u) == festive


def test_hostile_names_are_data(lexicons: LexiconSet) -> None:
    evil = 'x") OR (1=1'
    devices = [make_device("light.a", "A", labels=(evil,)), make_device("light.b", "B")]
    u = TagUniverse.build(devices, [], [], lexicons)
    rule = validate(group("AND", tag(evil)))
    assert preview(canonicalize(rule), u).entity_ids == {"light.a"}
    # Rendered back as text, it is quoted so the parser reads the same single tag.
    assert "(1=1" in render_rule(rule)


# --- LLM fallback ----------------------------------------------------------------------------

class FakeLLM:
    def __init__(self, answer: str | Exception = "", delay: float = 0.0) -> None:
        self.answer = answer
        self.delay = delay
        self.calls: list[tuple[str, str]] = []

    async def complete(self, system_prompt: str, user_text: str) -> str:
        self.calls.append((system_prompt, user_text))
        if self.delay:
            await asyncio.sleep(self.delay)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


GOOD = json.dumps({"rule": group("AND", tag("christmas"), tag("porch")),
                   "rewrite_note": "Christmas things on the porch"})


async def test_llm_not_asked_when_the_parser_places_everything(universe: TagUniverse) -> None:
    llm = FakeLLM(GOOD)
    result = await compile_rule("christmas and porch", universe, llm=llm)
    assert result.ok and result.compile_source == "deterministic" and llm.calls == []


async def test_llm_rescues_a_parse_error(universe: TagUniverse) -> None:
    llm = FakeLLM(f"```json\n{GOOD}\n```")
    result = await compile_rule("christmas stuff on the porch (outside", universe, llm=llm)
    assert result.ok and result.compile_source == "llm"
    assert result.rewrite_note == "Christmas things on the porch"
    assert result.rule is not None
    assert result.rule.as_dict() == group("AND", tag("christmas"), tag("porch"))
    system, user = llm.calls[0]
    assert "AND" in system and "OR" in system
    assert "Christmas" in user and "Porch" in user and "outside" in user


async def test_llm_rescues_unresolved_tags(universe: TagUniverse) -> None:
    llm = FakeLLM(GOOD)
    result = await compile_rule("xmas decorations outside", universe, llm=llm)
    assert result.ok and result.compile_source == "llm" and len(llm.calls) == 1


async def test_llm_timeout_without_a_draft_is_an_error(universe: TagUniverse) -> None:
    result = await compile_rule("christmas and", universe, llm=FakeLLM(GOOD, delay=5),
                                llm_timeout=0.01)
    assert not result.ok and result.error_code == "LLM_TIMEOUT"
    assert result.error_message and "parser" in result.error_message


async def test_llm_timeout_with_a_draft_returns_the_draft(universe: TagUniverse) -> None:
    result = await compile_rule("xmas and porch", universe, llm=FakeLLM(GOOD, delay=5),
                                llm_timeout=0.01)
    assert result.ok and result.compile_source == "deterministic"
    assert "llm_timeout" in result.warnings and result.unresolved_tags == ["xmas"]


@pytest.mark.parametrize(("answer", "code"), [
    ("I think you mean the porch!", "PARSE_ERROR"),
    (json.dumps({"rule": group("NOT", tag("porch"))}), "VALIDATION_ERROR"),
    (json.dumps({"rule": tag("porch")}), "VALIDATION_ERROR"),
    ("[" * 100_000, "PARSE_ERROR"),
    (RuntimeError("boom"), "PARSE_ERROR"),
])
async def test_llm_garbage_never_crashes(universe: TagUniverse, answer: str | Exception,
                                         code: str) -> None:
    failed = await compile_rule("christmas and", universe, llm=FakeLLM(answer))
    assert not failed.ok and failed.error_code == code
    kept = await compile_rule("xmas and porch", universe, llm=FakeLLM(answer))
    assert kept.ok and kept.compile_source == "deterministic"
    assert {"llm_invalid", "llm_error"} & set(kept.warnings)


async def test_llm_answer_that_places_no_more_keeps_the_draft(universe: TagUniverse) -> None:
    answer = json.dumps({"rule": group("AND", tag("xmas"), tag("nowhere"))})
    result = await compile_rule("xmas and porch", universe, llm=FakeLLM(answer))
    assert result.compile_source == "deterministic" and "llm_not_better" in result.warnings


def test_parse_llm_answer_accepts_a_bare_node_and_a_string_rule() -> None:
    rule, note = parse_llm_answer(json.dumps(group("OR", tag("a"), tag("b"))))
    assert rule.op == "OR" and note is None
    rule, note = parse_llm_answer(json.dumps({"rule": json.dumps(group("AND", tag("a"))),
                                              "rewrite_note": " n "}))
    assert rule.children == (TagNode("a"),) and note == "n"
