"""The scripted conversation of issue 13, in a real Home Assistant with the demo home, in Chinese
and English: asking back and being answered by room, then "turn it off"; asking back and
getting a new command instead; giving up after two replies that do not answer; "all but the
bedrooms"; setting a temperature, a brightness and a position; a question; English typed in the
Chinese pipeline (unloading and reloading the entry, then talking again: `test_reload.py`).
Every turn goes through `POST /api/conversation/process` to our agent (the
pipeline's engine), and the device states and the replies are checked; at the end, the server
log must hold no error or warning from the integration.

Each test sets the states it starts from, so the tests do not depend on one another.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import ROOT, Client, devhome

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

HOME: dict[str, Any] = json.loads((ROOT / "demo" / "home.json").read_text(encoding="utf-8"))
NAMES = {e["entity_id"]: e["name"] for e in HOME["entities"]}
HOME_ALIASES = {e["entity_id"]: list(e.get("aliases", [])) for e in HOME["entities"]}
LIGHTS = {e["entity_id"]: e.get("area_id") for e in HOME["entities"] if e["domain"] == "light"}
DESK_LAMPS = [
    "light.guest_room_desk_lamp",
    "light.kids_desk_lamp",
    "light.master_bedroom_desk_lamp",
    "light.study_old_lamp",
]
ZH = "zh-Hans"  # the demo's pipeline language
EN = "en"


def speech(result: dict[str, Any]) -> str:
    return str(result["response"]["speech"]["plain"]["speech"])


def said_name(entity_id: str, result: dict[str, Any]) -> str:
    """The entity's name as a reply in its own language says it: the home's (Chinese) name,
    or in a reply in English the first alias written in Latin letters."""
    if result["response"]["language"] == ZH:
        return NAMES[entity_id]
    latin = [a for a in HOME_ALIASES[entity_id] if a.isascii()]
    return latin[0] if latin else NAMES[entity_id]


def asked_back(result: dict[str, Any]) -> bool:
    """A question that keeps the conversation open, not an action done."""
    return (
        result["continue_conversation"] is True
        and result["response"]["response_type"] == "query_answer"
        and speech(result).rstrip().endswith(("?", "？"))
    )


def lights(ha: Client, on: list[str] | None = None, off: list[str] | None = None) -> None:
    """Lights on and off through Home Assistant's own services, checked."""
    if on:
        ha.call("light", "turn_on", entity_id=list(on))
    if off:
        ha.call("light", "turn_off", entity_id=list(off))
    for entity_id in on or []:
        assert ha.state(entity_id) == "on"
    for entity_id in off or []:
        assert ha.state(entity_id) == "off"


def attribute(ha: Client, entity_id: str, name: str) -> Any:
    return ha.request("GET", f"/api/states/{entity_id}")["attributes"].get(name)


# ---- asking back ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "ask", "answer", "it", "chosen"),
    [
        (ZH, "打开台灯", "书房那个", "关掉它", "light.study_old_lamp"),
        # As the issue met it: the answer in English to a Chinese question.
        (ZH, "打开台灯", "the one in the study", "turn it off", "light.study_old_lamp"),
        (
            EN,
            "turn on the desk lamp",
            "the one in the kids room",
            "turn it off",
            "light.kids_desk_lamp",
        ),
    ],
)
def test_asked_back_answered_by_room_then_it(
    ha: Client, language: str, ask: str, answer: str, it: str, chosen: str
) -> None:
    lights(ha, off=DESK_LAMPS)
    first = ha.converse(ask, language)
    assert asked_back(first), speech(first)
    assert said_name(chosen, first) in speech(first)  # offered (the study's 老台灯 too)
    assert all(ha.state(lamp) == "off" for lamp in DESK_LAMPS)

    second = ha.converse(answer, language, first["conversation_id"])
    assert ha.state(chosen) == "on", speech(second)
    assert all(ha.state(lamp) == "off" for lamp in DESK_LAMPS if lamp != chosen)
    assert second["response"]["response_type"] == "action_done"
    assert second["continue_conversation"] is False
    assert said_name(chosen, second) in speech(second)

    third = ha.converse(it, language, first["conversation_id"])
    assert ha.state(chosen) == "off", speech(third)


@pytest.mark.parametrize(
    ("language", "ask", "new", "light"),
    [
        (ZH, "打开台灯", "打开车库灯", "light.garage_light"),
        (EN, "turn on the desk lamp", "turn on the balcony light", "light.balcony_light"),
    ],
)
def test_asked_back_then_a_new_command(
    ha: Client, language: str, ask: str, new: str, light: str
) -> None:
    lights(ha, off=[*DESK_LAMPS, light])
    first = ha.converse(ask, language)
    assert asked_back(first), speech(first)

    second = ha.converse(new, language, first["conversation_id"])
    assert not asked_back(second), speech(second)
    assert ha.state(light) == "on", speech(second)
    # The dropped question is not answered by a later reply.
    ha.converse("第一个" if language == ZH else "the first one", language, first["conversation_id"])
    assert all(ha.state(lamp) == "off" for lamp in DESK_LAMPS)


@pytest.mark.parametrize(
    ("language", "ask", "misses", "given_up"),
    [
        (ZH, "打开台灯", ["打开它", "嗯"], "不问了"),
        (EN, "turn on the desk lamp", ["turn it on", "hmm"], "stop asking"),
    ],
)
def test_two_replies_that_do_not_answer_end_the_question(
    ha: Client, language: str, ask: str, misses: list[str], given_up: str
) -> None:
    lights(ha, off=DESK_LAMPS)
    first = ha.converse(ask, language)
    assert asked_back(first)
    again = ha.converse(misses[0], language, first["conversation_id"])
    assert asked_back(again), speech(again)
    last = ha.converse(misses[1], language, first["conversation_id"])
    assert given_up in speech(last)
    assert last["continue_conversation"] is False
    assert all(ha.state(lamp) == "off" for lamp in DESK_LAMPS)


# ---- room kinds --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (ZH, "关掉除了卧室以外的所有灯"),
        (EN, "turn off all the lights except the bedrooms"),
    ],
)
def test_all_but_the_bedrooms(ha: Client, language: str, text: str) -> None:
    lights(ha, on=list(LIGHTS))
    result = ha.converse(text, language)
    assert result["response"]["response_type"] == "action_done", speech(result)
    still_on = sorted(e for e in LIGHTS if ha.state(e) == "on")
    assert still_on == sorted(
        e for e, area in LIGHTS.items() if area in ("master_bedroom", "guest_room")
    )
    # Twenty-odd lights: the answer counts them all and names a few.
    switched = len(LIGHTS) - len(still_on)
    assert (f"等{switched}个" if language == ZH else f"{switched - 3} more") in speech(result)


# ---- setting values ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "text"),
    [(ZH, "把客厅空调调到24度"), (EN, "set the living room AC to 24 degrees")],
)
def test_set_the_temperature(ha: Client, language: str, text: str) -> None:
    ac = "climate.living_room_ac"
    ha.call("climate", "set_temperature", entity_id=ac, temperature=26)
    result = ha.converse(text, language)
    assert result["response"]["response_type"] == "action_done", speech(result)
    assert attribute(ha, ac, "temperature") == 24
    assert "24" in speech(result)


@pytest.mark.parametrize(
    ("language", "text"),
    [(ZH, "把客厅的阅读灯调到50%"), (EN, "set the reading light to 50 percent")],
)
def test_set_the_brightness(ha: Client, language: str, text: str) -> None:
    reading = "light.living_room_reading"
    lights(ha, on=[reading])
    ha.call("light", "turn_on", entity_id=reading, brightness=255)
    result = ha.converse(text, language)
    assert result["response"]["response_type"] == "action_done", speech(result)
    assert attribute(ha, reading, "brightness") in (127, 128)  # 50 % of 255


@pytest.mark.parametrize(
    ("language", "text"),
    [(ZH, "把书房的百叶窗开到30%"), (EN, "set the study blinds to 30 percent")],
)
def test_set_the_position(ha: Client, language: str, text: str) -> None:
    blinds = "cover.study_blinds"
    ha.call("cover", "open_cover", entity_id=blinds)
    result = ha.converse(text, language)
    assert result["response"]["response_type"] == "action_done", speech(result)
    assert attribute(ha, blinds, "current_position") == 30
    assert ha.state(blinds) == "open"


@pytest.mark.parametrize(
    ("language", "text", "said"),
    [
        (ZH, "把阅读灯调成红色", "阅读灯不支持这个操作。"),
        (EN, "set the reading light to red", "Reading light can't do that."),
    ],
)
def test_a_light_that_only_dims_is_named_and_nothing_else_changes(
    ha: Client, language: str, text: str, said: str
) -> None:
    """The demo's lights only dim: the one named cannot take a colour, and no other light is
    switched or coloured instead."""
    reading = "light.living_room_reading"
    lights(ha, off=list(LIGHTS))
    result = ha.converse(text, language)
    assert speech(result) == said
    assert result["response"]["response_type"] == "error"
    assert all(ha.state(e) == "off" for e in LIGHTS)
    assert attribute(ha, reading, "rgb_color") is None


# ---- questions and languages ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "question", "counted"),
    [
        (ZH, "现在哪些灯开着？", "个"),
        (EN, "which lights are on?", "lights on"),
        (ZH, "which lights are on?", "lights on"),  # English in the Chinese pipeline
    ],
)
def test_a_question(ha: Client, language: str, question: str, counted: str) -> None:
    on = ["light.kids_night_light", "light.study_panel"]
    lights(ha, on=on, off=[e for e in LIGHTS if e not in on])
    result = ha.converse(question, language)
    text = speech(result)
    assert result["response"]["response_type"] == "query_answer", text
    # Each light by the name it has in the question's language: its English alias for an
    # English question (issue 19), its Chinese name for a Chinese one.
    english = question.isascii()
    said = [HOME_ALIASES[e] if english else [NAMES[e]] for e in on]
    assert all(any(name in text for name in names) for names in said), text
    assert counted in text
    assert "26" not in text  # not every light of the home
    assert all(ha.state(e) == "off" for e in LIGHTS if e not in on)  # a question changes nothing


def test_english_in_the_chinese_pipeline(ha: Client) -> None:
    kitchen = "light.kitchen_ceiling"
    lights(ha, on=[kitchen])
    result = ha.converse("turn off the kitchen ceiling light", ZH)
    assert ha.state(kitchen) == "off", speech(result)
    assert speech(result).startswith(("Turned off", "Done")), speech(result)  # in English


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (EN, "turn on the reading light and the kitchen ceiling light"),
        (ZH, "打开阅读灯和厨房的吸顶灯"),
    ],
)
def test_several_targets_each_the_one_named(ha: Client, language: str, text: str) -> None:
    named = ["light.living_room_reading", "light.kitchen_ceiling"]
    nearby = [e for e, area in LIGHTS.items() if area in ("kitchen", "living_room")]
    lights(ha, off=nearby)
    result = ha.converse(text, language)
    assert sorted(e for e in nearby if ha.state(e) == "on") == sorted(named), speech(result)


def test_zz_no_integration_errors_or_warnings(ha: Client) -> None:
    """After the whole conversation, the server log has no error or warning from the
    integration."""
    records = devhome.integration_records(ha.config_dir)
    assert not records, "\n\n".join(records)
