"""core/base/parse/analysis.py: which language an utterance is read in, and how."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex
from custom_components.context_retrieval.core.base.parse import (
    analyze,
)
from tests.core.base.parse.conftest import one, types_of
from tests.core.conftest import make_device


def test_language_is_detected_when_not_given(small_en_index, demo_index, lexicons):
    # The English home hears Chinese, the Chinese home hears English.
    assert analyze("打开客厅的灯", small_en_index, lexicons).language == "zh"
    assert analyze("turn on the living room light", demo_index, lexicons).language == "en"


def test_traditional_chinese_reads_like_simplified(zh_index, lexicons):
    ir = one("關掉客廳的燈", zh_index, lexicons)
    assert ir.action == "turn_off"
    assert ir.scope_include == {"living"}
    assert types_of(ir) == {"light"}


def test_given_language_wins(small_en_index, lexicons):
    assert (
        analyze("turn on the kitchen light", small_en_index, lexicons, language="en").language
        == "en"
    )


# ---- stem matches that are really other words ------------------------------------------------


@pytest.fixture(scope="module")
def it_index() -> DeviceIndex:
    """An Italian home where a person and a light share a stem ("Luca", "Luce A")."""
    cucina = Area("cucina", "Cucina")
    devices = [
        make_device("person.luca", "Luca"),
        make_device("light.luce_a", "Luce A", cucina),
        make_device("light.lampada", "Lampada Tavolo", cucina),
        make_device("zone.casa", "Casa"),
    ]
    return DeviceIndex.build(devices, [cucina], language="it")


@pytest.fixture(scope="module")
def pt_index() -> DeviceIndex:
    sala = Area("sala", "Sala")
    devices = [
        make_device("light.luz_a", "Luz A", sala),
        make_device("light.candeeiro", "Candeeiro", sala),
    ]
    return DeviceIndex.build(devices, [sala], language="pt")


def _mentioned(ir) -> set[str]:
    return {eid for m in ir.mentions for eid in m.entity_ids}


def test_a_word_of_the_language_is_not_an_inflected_name(it_index, lexicons):
    # "luce" (a light) and "Luca" share the stem "luc"; as written, "luce" is the type word.
    ir = one("accendi la luce", it_index, lexicons)
    assert "person.luca" not in _mentioned(ir)
    assert types_of(ir) == {"light"}


def test_a_name_said_exactly_is_not_part_of_an_inflected_one(it_index, lexicons):
    # "Luca a" shares stems with the light "Luce A", but "Luca" is a whole name as said.
    ir = one("è Luca a casa?", it_index, lexicons)
    assert "light.luce_a" not in _mentioned(ir)
    assert "person.luca" in _mentioned(ir)


def test_the_name_said_exactly_still_matches(it_index, lexicons):
    assert _mentioned(one("accendi la luce a", it_index, lexicons)) == {"light.luce_a"}


def test_a_type_word_and_an_article_are_not_a_name(pt_index, lexicons):
    # "as luzes a 50%": the plural type word and a preposition, not the light "Luz A".
    ir = one("põe as luzes a 50%", pt_index, lexicons)
    assert "light.luz_a" not in _mentioned(ir)
    assert types_of(ir) == {"light"}
