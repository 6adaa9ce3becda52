"""core/base/parse/span_reading.py: what each stretch of a command says."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex
from custom_components.context_retrieval.core.base.models import Note
from tests.core.base.parse.conftest import one
from tests.core.conftest import make_device


@pytest.fixture(scope="module")
def home() -> DeviceIndex:
    hall = Area("hall", "Hall")
    return DeviceIndex.build([make_device("light.hall", "Hall Light", hall)], [hall], [])


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("turn off the others", "en"),
        ("turn off all the other lights", "en"),
        ("turn off the rest", "en"),
        ("其他的关掉", "zh"),
        ("别的灯都关了", "zh"),
        ("schalte die anderen aus", "de"),
        ("apaga los demás", "es"),
        ("éteins les autres", "fr"),
    ],
)
def test_the_others_are_noted_as_all_of_them(home, lexicons, text, language) -> None:
    ir = one(text, home, lexicons, language)
    assert Note.OTHERS in ir.notes
    assert ir.quantifier == "all"
    assert not ir.references  # never "them": the others are what was not talked about


@pytest.mark.parametrize(
    ("text", "language"),
    [("turn off all the lights", "en"), ("turn off them", "en"), ("把灯都关了", "zh")],
)
def test_no_others_without_the_word(home, lexicons, text, language) -> None:
    assert Note.OTHERS not in one(text, home, lexicons, language).notes


def test_the_other_one_said_in_the_singular_is_one_of_them(home, lexicons) -> None:
    # "the other" shares its stem with "the others" (all): "the other light" switched on every
    # light but the last one.
    ir = one("turn on the other light", home, lexicons, "en")
    assert Note.OTHERS in ir.notes
    assert ir.quantifier == "one"
