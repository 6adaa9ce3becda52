"""core/base/parse/repair.py: typos and speech-recognition slips are repaired, real words not."""

from __future__ import annotations

from custom_components.context_retrieval.core.base.parse import (
    analyze,
    compile_utterance,
)
from tests.core.base.parse.conftest import one


def test_latin_typo_repair_of_a_room(small_en_index, lexicons):
    analysis, commands = compile_utterance("turn off the kitchn lights", small_en_index, lexicons)
    assert ("kitchn", "kitchen") in analysis.corrections
    assert commands[0].scope_include == {"kitchen"}
    assert "spelling_repaired" in commands[0].notes


def test_turn_of_typo_still_means_turn_off(small_en_index, lexicons):
    ir = one("turn of the kitchn lights", small_en_index, lexicons)
    assert ir.scope_include == {"kitchen"}
    assert ir.action == "turn_off"


def test_chinese_one_character_slip_in_a_room(zh_index, lexicons):
    analysis, commands = compile_utterance("打开书方的台灯", zh_index, lexicons)
    assert ("书方", "书房") in analysis.corrections
    assert commands[0].scope_include == {"study"}
    assert commands[0].action == "turn_on"


def test_correct_words_are_not_repaired(zh_index, small_en_index, lexicons):
    assert analyze("打开书房的台灯", zh_index, lexicons).corrections == []
    assert analyze("turn off the kitchen lights", small_en_index, lexicons).corrections == []


def test_bedroom_word_is_not_repaired_into_bathroom(demo_index, lexicons):
    analysis, commands = compile_utterance("卧室温度多少", demo_index, lexicons)
    assert ("卧室", "浴室") not in analysis.corrections
    assert "bathroom" not in commands[0].scope_include
