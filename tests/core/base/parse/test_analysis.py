"""core/base/parse/analysis.py: which language an utterance is read in, and how."""

from __future__ import annotations

from custom_components.context_retrieval.core.base.parse import (
    analyze,
)
from tests.core.base.parse.conftest import one, types_of


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
