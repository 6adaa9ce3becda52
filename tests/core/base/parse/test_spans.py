"""core/base/parse/spans.py: the words and clause breaks of an utterance."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import retrieve
from custom_components.context_retrieval.core.base.parse.spans import utterance_tokens
from custom_components.context_retrieval.core.base.text import normalize


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("auf 21,5 grad", ["auf", "21.5", "grad"]),  # a decimal comma
        ("to 2,700 kelvin", ["to", "2700", "kelvin"]),  # thousands
        ("licht an, danke", ["licht", "an", ",", "danke"]),  # a clause break
        ("lights 1, 2 and 3", ["lights", "1", ",", "2", "and", "3"]),  # a comma and a space
        ("turn off the tv. then", ["turn", "off", "the", "tv", ".", "then"]),
        ("set it to 21.5.", ["set", "it", "to", "21.5", "."]),
    ],
)
def test_commas_and_points_between_digits_belong_to_the_number(text, expected) -> None:
    assert utterance_tokens(normalize(text)) == expected


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("stell die Klimaanlage im Wohnzimmer auf 21,5 Grad", "de"),
        ("règle la climatisation du salon sur 21,5 degrés", "fr"),
    ],
)
def test_a_decimal_comma_is_one_value_in_one_command(demo_index, text, language) -> None:
    # Cut at the comma, the AC was set to 21 °C, then to 5 °C.
    (result,) = retrieve(text, demo_index, language=language)
    assert result.selected_ids == ["climate.living_room_ac"]
    assert result.ir.value == 21.5
