"""core/views/reading.py (with lens.py): rules read as a person means them.

Each test pins one boundary of the grouping: flipping an AND/OR, letting a bracket borrow,
or widening an exclusion's reach changes a member set here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from custom_components.context_retrieval.core import LexiconSet, home_from_dict
from custom_components.context_retrieval.core.views.canonical import canonicalize
from custom_components.context_retrieval.core.views.compiler import compile_deterministic
from custom_components.context_retrieval.core.views.lens import HomeLens
from custom_components.context_retrieval.core.views.model import rule_to_json
from custom_components.context_retrieval.core.views.parser import Connectives, parse_rule
from custom_components.context_retrieval.core.views.universe import TagUniverse
from tests.core.views.conftest import group, tag

ROOT = Path(__file__).resolve().parents[3]
HOMES = {
    "en": ROOT / "tests" / "data" / "views" / "home_en.json",
    "zh": ROOT / "demo" / "home.json",
    "de": ROOT / "tests" / "data" / "homes" / "home_de.json",
}


@pytest.fixture(scope="module")
def homes(lexicons: LexiconSet) -> dict[str, tuple[TagUniverse, dict[str, Any]]]:
    out = {}
    for key, path in HOMES.items():
        data = json.loads(path.read_text(encoding="utf-8"))
        home = home_from_dict(data)
        out[key] = (TagUniverse.build(home.devices, home.areas, home.floors, lexicons), data)
    return out


def members(universe: TagUniverse, text: str, language: str) -> set[str]:
    result = compile_deterministic(text, universe, language)
    assert result.ok and result.rule is not None, result.error_message
    assert not result.unresolved_tags, result.unresolved_tags
    return set(universe.evaluate(result.rule)[0])


def where(data: dict[str, Any], **want: Any) -> set[str]:
    """Entities of a home file by domain, area, floor or label (the test's own reading)."""
    floors = {a["area_id"]: a.get("floor_id") for a in data["areas"]}
    out = set()
    for e in data["entities"]:
        facts = {
            "domain": e["entity_id"].split(".")[0],
            "area": e.get("area_id"),
            "floor": floors.get(e.get("area_id") or ""),
            "label": set(e.get("labels") or []),
        }
        ok = True
        for key, value in want.items():
            values = set(value) if isinstance(value, (list, tuple, set)) else {value}
            have = facts[key]
            ok &= bool(values & have) if isinstance(have, set) else have in values
        if ok:
            out.add(e["entity_id"])
    return out


def test_a_shared_word_distributes_over_a_list_of_rooms(homes: Any) -> None:
    u, data = homes["en"]
    both = where(data, domain="light", area=["kitchen", "dining_room"])
    for text in (
        "lights in the kitchen or the dining room",
        "kitchen or dining room lights",
        "kitchen and dining room lights",  # "and" between two rooms lists them
        "the lights in the kitchen and the dining room",
        "Lights in Kitchen OR Dining Room",  # a formal OR between bare words, too
    ):
        assert members(u, text, "en") == both, text
    rule = compile_deterministic("lights in the kitchen or the dining room", u, "en").rule
    assert rule is not None
    assert rule.as_dict() == group(
        "AND", tag("lights"), group("OR", tag("dining room"), tag("kitchen"))
    )


def test_chinese_modifier_before_de_is_shared(homes: Any) -> None:
    u, data = homes["zh"]
    lights = where(data, domain="light", area=["kitchen", "dining_room"])
    assert members(u, "厨房或餐厅的灯", "zh") == lights
    assert members(u, "厨房和餐厅的灯", "zh") == lights
    assert members(u, "客厅、餐厅和厨房的灯", "zh") == where(
        data, domain="light", area=["kitchen", "dining_room", "living_room"]
    )


def test_and_between_different_things_still_narrows(homes: Any) -> None:
    u, data = homes["en"]
    # A label and a room: the christmas things on the porch, not either.
    assert members(u, "christmas and the porch", "en") == where(
        data, label="Christmas", area="porch"
    )
    # Two labels narrow each other (an entity may carry both).
    assert members(u, "christmas and evening", "en") == where(data, label="Christmas") & where(
        data, label="Evening"
    )


def test_complete_alternatives_borrow_nothing(homes: Any) -> None:
    u, data = homes["en"]
    assert members(u, "kitchen lights or bathroom fans", "en") == where(
        data, domain="light", area="kitchen"
    ) | where(data, domain="fan", area="bathroom")
    # Different things with nothing in common: a union, no borrowing either way.
    assert members(u, "christmas lights or the kitchen", "en") == (
        where(data, domain="light", label="Christmas") | where(data, area="kitchen")
    )


def test_a_bracket_is_the_writers_grouping(homes: Any) -> None:
    u, data = homes["en"]
    assert members(u, "(kitchen and lights) or dining room", "en") == where(
        data, domain="light", area="kitchen"
    ) | where(data, area="dining_room")


def test_exclusion_reaches_to_its_end(homes: Any) -> None:
    u, data = homes["en"]
    lights = where(data, domain="light")
    assert members(u, "lights except the kitchen or the bathroom", "en") == lights - where(
        data, area=["kitchen", "bathroom"]
    )
    assert members(u, "lights that are not on the ground floor", "en") == lights - where(
        data, floor="ground"
    )
    assert (
        members(u, "everything in the garage except the lights", "en")
        == where(data, area="garage") - lights
    )
    everything = {e["entity_id"] for e in data["entities"]}
    assert members(u, "everything except lights and locks", "en") == everything - where(
        data, domain=["light", "lock"]
    )


def test_chinese_exclusion_ends_at_its_closing_word_or_de(homes: Any) -> None:
    u, data = homes["zh"]
    lights = where(data, domain="light")
    kitchen = where(data, area="kitchen")
    for text in ("除了厨房以外的灯", "不在厨房的灯", "厨房以外的灯", "灯，但不包括厨房"):
        assert members(u, text, "zh") == lights - kitchen, text
    upstairs = where(data, floor="floor_2")
    assert members(u, "楼上不在主卧的灯", "zh") == (
        lights & upstairs - where(data, area="master_bedroom")
    )
    assert members(u, "厨房和餐厅以外的灯", "zh") == lights - where(
        data, area=["kitchen", "dining_room"]
    )


def test_places_side_by_side_narrow_unless_they_share_nothing(homes: Any) -> None:
    u, data = homes["zh"]
    lights = where(data, domain="light")
    assert members(u, "一楼厨房的灯", "zh") == lights & where(data, area="kitchen")
    assert members(u, "楼上楼下的灯", "zh") == lights & where(data, floor=["floor_1", "floor_2"])


def test_type_words_together_are_one_kind(homes: Any) -> None:
    u, data = homes["en"]
    temperature = {
        e["entity_id"]
        for e in data["entities"]
        if e["entity_id"].startswith("sensor.") and e["device_class"] == "temperature"
    }
    humidity = {
        e["entity_id"]
        for e in data["entities"]
        if e["entity_id"].startswith("sensor.") and e["device_class"] == "humidity"
    }
    assert members(u, "temperature sensors", "en") == temperature
    assert members(u, "temperature and humidity sensors", "en") == temperature | humidity
    # A device type beside "… sensors" is no reading: the lights stay lights.
    motion = {e["entity_id"] for e in data["entities"] if e["device_class"] == "motion"}
    assert members(u, "lights or motion sensors", "en") == where(data, domain="light") | motion


def test_german_list_and_exclusion(homes: Any) -> None:
    u, data = homes["de"]
    lights = where(data, domain="light")
    assert members(u, "Lichter in der Küche oder im Wohnzimmer", "de") == lights & where(
        data, area=["kueche", "wohnzimmer"]
    )
    assert members(u, "alle Lampen außer im Bad", "de") == lights - where(data, area="bad")
    assert members(u, "Lampen im ersten Stock", "de") == lights & where(data, floor="obergeschoss")


def test_a_word_the_home_lacks_stays_unresolved(homes: Any) -> None:
    u, _ = homes["en"]
    result = compile_deterministic("lights in the kitchen or the attic", u, "en")
    assert result.ok and result.unresolved_tags == ["attic"]
    result = compile_deterministic("holiday lights", u, "en")
    assert result.unresolved_tags == ["holiday"]


@pytest.mark.parametrize("language", ["en", "zh", "de"])
def test_the_rendered_rule_reads_back_as_itself(
    homes: Any, lexicons: LexiconSet, language: str
) -> None:
    u, _ = homes[language]
    cases = ROOT / "tests" / "data" / "views" / f"cases_{language}.jsonl"
    conn = Connectives.from_lexicons(lexicons, (language,))
    lens = HomeLens(u, lexicons.get(language))
    for line in cases.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        result = compile_deterministic(case["rule"], u, language)
        if not result.ok or result.rule is None or result.rule_text is None:
            continue
        again = canonicalize(parse_rule(result.rule_text, conn, u.known_surfaces(), lens))
        assert rule_to_json(again) == result.rule_json, (case["rule"], result.rule_text)


def test_not_is_evaluated_and_canonical(homes: Any) -> None:
    from custom_components.context_retrieval.core.views.canonical import validate

    u, data = homes["en"]
    lights = where(data, domain="light")
    rule = validate(group("AND", tag("lights"), group("NOT", tag("kitchen"))))
    assert u.evaluate(rule)[0] == lights - where(data, area="kitchen")
    alone = validate(group("NOT", tag("lights")))
    assert u.evaluate(alone)[0] == {e["entity_id"] for e in data["entities"]} - lights
    twice = validate(group("AND", group("NOT", group("NOT", tag("lights")))))
    assert canonicalize(twice).as_dict() == group("AND", tag("lights"))


def test_a_state_is_no_tag_and_is_never_dropped(homes: Any) -> None:
    """A view groups what devices are; "on" or "开着" is what they do now: kept as a
    `state:` tag nothing goes by, so the rule is refused, never silently widened."""
    u, data = homes["en"]
    for text in ("lights that are on", "open windows", "locked doors"):
        result = compile_deterministic(text, u, "en")
        assert [t for t in result.unresolved_tags if t.startswith("state:")], text
    # "on" as a preposition stays one.
    assert members(u, "lights on the first floor", "en") == where(
        data, domain="light", floor="first"
    )
    zh, _ = homes["zh"]
    for text in ("开着的灯", "锁着的门锁"):
        assert compile_deterministic(text, zh, "zh").unresolved_tags, text


def test_what_comes_before_de_qualifies_all_after_it(homes: Any) -> None:
    u, data = homes["zh"]
    rooms = where(data, area=["master_bedroom", "guest_room"])
    kinds = where(data, domain="climate") | where(data, domain="humidifier")
    assert members(u, "主卧或次卧的空调和加湿器", "zh") == rooms & kinds
    assert members(u, "客厅跟餐厅的灯", "zh") == where(
        data, domain="light", area=["living_room", "dining_room"]
    )
    # Two "的": each alternative keeps its own room.
    assert members(u, "客厅的灯或者主卧的空调", "zh") == where(
        data, domain="light", area="living_room"
    ) | where(data, domain="climate", area="master_bedroom")
    assert members(u, "书房的所有设备", "zh") == where(data, area="study")
    assert members(u, "阳台上除了灯以外的设备", "zh") == where(data, area="balcony") - where(
        data, domain="light"
    )


@pytest.mark.parametrize(
    ("text", "position"),
    [("kitchen and or lights", 12), ("kitchen or and lights", 11), ("kitchen and and lights", 12)],
)
def test_two_connectives_in_a_row_are_an_error_at_the_second(
    homes: Any, text: str, position: int
) -> None:
    u, _ = homes["en"]
    result = compile_deterministic(text, u, "en")
    assert not result.ok
    assert (result.error_code, result.error_reason, result.error_position) == (
        "PARSE_ERROR",
        "expected_tag",
        position,
    )


@pytest.mark.parametrize(
    ("text", "op"),
    [("kitchen, or lights", "OR"), ("kitchen or, lights", "OR"), ("kitchen, , lights", "AND")],
)
def test_a_comma_beside_a_connective_is_only_punctuation(homes: Any, text: str, op: str) -> None:
    u, _ = homes["en"]
    result = compile_deterministic(text, u, "en")
    assert result.ok and result.rule is not None, result.error_message
    assert result.rule.as_dict() == group(op, tag("kitchen"), tag("lights"))


@pytest.mark.parametrize(
    "text",
    [
        "灯，厨房以外",  # a closing "以外" leaves out what follows the comma before it
        "厨房以外所有灯",  # what follows "以外" is kept
        "除了厨房以外灯",
    ],
)
def test_a_closing_exclusion_word_reaches_back_to_a_comma(homes: Any, text: str) -> None:
    u, data = homes["zh"]
    assert members(u, text, "zh") == where(data, domain="light") - where(data, area="kitchen")


def test_filler_words_before_de_qualify_nothing(homes: Any) -> None:
    u, data = homes["zh"]
    assert members(u, "所有的灯", "zh") == where(data, domain="light")


@pytest.mark.parametrize(
    ("text", "language", "position"),
    [
        # An exclusion that names nothing: the error is at the end of what was said, or at
        # a closing word ("以外") that had nothing before it.
        ("lights except", "en", 13),
        ("except, lights", "en", 14),  # a comma closes a leading exclusion: nothing left out
        ("以外的灯", "zh", 0),
        ("楼上不在的灯", "zh", 6),  # "的" closes "不在": it left out nothing
    ],
)
def test_an_exclusion_of_nothing_is_an_error(
    homes: Any, text: str, language: str, position: int
) -> None:
    u, _ = homes[language]
    result = compile_deterministic(text, u, language)
    assert not result.ok
    assert (result.error_reason, result.error_position) == ("expected_tag", position)


@pytest.mark.parametrize("floor", [False, True])
def test_a_bracketed_modifier_before_de_qualifies_all_after_it(homes: Any, floor: bool) -> None:
    u, data = homes["zh"]
    rooms = where(data, area=["living_room", "dining_room"])
    kinds = where(data, domain="light") | where(data, domain="climate")
    assert members(u, "客厅或餐厅的灯和空调", "zh") == rooms & kinds
    if floor:
        assert members(u, "一楼(客厅或餐厅)的灯和空调", "zh") == rooms & kinds & where(
            data, floor="floor_1"
        )
    else:
        assert members(u, "(客厅或餐厅)的灯和空调", "zh") == rooms & kinds


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (", lights", "lights"),  # a leading comma is only punctuation
        ("except the kitchen, , lights", "lights AND NOT kitchen"),
        ("and lights", None),  # a leading connective joins nothing: an error at it
        ("or lights", None),
    ],
)
def test_a_stretch_may_open_with_a_comma_but_not_a_connective(
    homes: Any, text: str, rule: str | None
) -> None:
    u, _ = homes["en"]
    result = compile_deterministic(text, u, "en")
    if rule is None:
        assert (result.ok, result.error_reason, result.error_position) == (
            False,
            "expected_tag",
            0,
        )
    else:
        assert result.ok and result.rule_text == rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # A phrase between two it could borrow from borrows from the later one.
        (
            "kitchen lights or bathroom or garage fans",
            "(bathroom AND fans) OR (fans AND garage) OR (kitchen AND lights)",
        ),
        # Commas join as the word closing their list does, or as "and" without one.
        ("kitchen, bathroom or garage lights", "lights AND (bathroom OR garage OR kitchen)"),
        ("kitchen, dining room lights", "lights AND (dining room OR kitchen)"),
        ("christmas, evening and porch", "christmas AND evening AND porch"),
        # Two types listed share the room said once, before or after them.
        ("lights or fans in the kitchen", "kitchen AND (fans OR lights)"),
        ("kitchen lights and fans", "kitchen AND (fans OR lights)"),
    ],
)
def test_lists_share_words_as_spoken(homes: Any, text: str, rule: str) -> None:
    u, _ = homes["en"]
    result = compile_deterministic(text, u, "en")
    assert result.ok and result.rule_text == rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("lights,", "lights"),  # a trailing comma is only punctuation
        # A formal OR shares words as a spoken list does; a bracket keeps its own.
        ("kitchen AND lights OR dining room", "lights AND (dining room OR kitchen)"),
        ("(kitchen AND lights) OR dining room", "dining room OR (kitchen AND lights)"),
        # A reading said alone beside "… sensors", before or after them, shares their noun;
        # a room between them shares nothing.
        ("humidity sensors or temperature", "humidity sensors OR temperature sensors"),
        ("temperature or humidity sensors", "humidity sensors OR temperature sensors"),
        (
            "temperature or kitchen or humidity sensors",
            "humidity sensors OR kitchen OR temperature",
        ),
    ],
)
def test_what_a_list_shares_and_keeps(homes: Any, text: str, rule: str) -> None:
    u, _ = homes["en"]
    result = compile_deterministic(text, u, "en")
    assert result.ok and result.rule_text == rule


def test_a_trailing_connective_is_an_error_at_the_end(homes: Any) -> None:
    u, _ = homes["en"]
    result = compile_deterministic("lights and", u, "en")
    assert (result.ok, result.error_reason, result.error_position) == (False, "expected_tag", 10)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # What every alternative says is said once; x OR (x AND y) is x.
        ("(kitchen AND lights) OR (christmas AND kitchen AND lights)", "kitchen AND lights"),
        ("kitchen OR (kitchen AND lights)", "kitchen"),
        (
            "(porch AND christmas AND lights) OR (kitchen AND evening AND lights)",
            "lights AND ((christmas AND porch) OR (evening AND kitchen))",
        ),
        ("(porch AND lights) OR (kitchen AND lights)", "lights AND (kitchen OR porch)"),
    ],
)
def test_what_every_alternative_says_is_said_once(homes: Any, text: str, rule: str) -> None:
    u, _ = homes["en"]
    result = compile_deterministic(text, u, "en")
    assert result.ok and result.rule_text == rule
