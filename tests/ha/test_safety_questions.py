"""Questions about the home's safety through the conversation agent (issue 19, defects 6 and
10): `conversation.async_converse` with our agent over the demo home, Home Assistant's own agent
downstream. Each answer is asserted word for word in the asker's language; the states are set
as a user would find them, and nothing is switched by a question."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent

from custom_components.context_retrieval.const import DOMAIN
from tests.ha.demo import Recorded, converse, set_state, speech

CEILINGS = [
    "light.living_room_ceiling",
    "light.kitchen_ceiling",
    "light.master_bedroom_ceiling",
    "light.guest_room_ceiling",
]


async def ask(hass: HomeAssistant, text: str, language: str, conversation_id: str) -> str:
    result = await converse(hass, text, conversation_id, language)
    assert result.response.response_type == intent.IntentResponseType.QUERY_ANSWER, speech(result)
    assert result.continue_conversation is False
    return speech(result)


def asked(hass: HomeAssistant) -> int:
    """How many questions our question module has taken on."""
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    return int(entry.runtime_data.queries.metrics.asked)


@pytest.mark.parametrize(
    ("text", "language", "reply"),
    [
        ("which doors are unlocked?", "en", "Just one: garage side door (unlocked)."),
        ("哪些门没锁", "zh-cn", "只有车库侧门没锁。"),
        ("哪些锁开着", "zh-cn", "只有车库侧门开着。"),
        ("有没有门没锁", "zh-cn", "是的，有 1 个门没锁：车库侧门。"),
        (
            "are all the doors locked?",
            "en",
            "No, not all doors are locked: garage side door (unlocked).",
        ),
        ("门都锁好了吗", "zh-cn", "没有，不是所有门都锁好了：车库侧门未上锁。"),
        (
            "sind alle Türen abgeschlossen?",
            "de",
            "Nein, nicht alle türen sind abgeschlossen: garage side door (aufgeschlossen).",
        ),
        ("are any locks unlocked?", "en", "Yes, one: garage side door (unlocked)."),
        ("is the front door locked?", "en", "Yes, front door: locked."),
        ("前门锁上了吗", "zh-cn", "是的，前门门锁锁上了。"),
        ("ist die Haustür abgeschlossen?", "de", "Ja, front door: abgeschlossen."),
        ("la porte d'entrée est-elle verrouillée ?", "fr", "Oui, front door: verrouillée."),
        ("did someone leave the front door open?", "en", "No, front door sensor: closed."),
        ("前门开着吗", "zh-cn", "没有，前门门磁现在关着。"),
    ],
)
async def test_safety_questions_read_the_devices_that_answer_them(
    hass: HomeAssistant, demo_services: Recorded, text: str, language: str, reply: str
) -> None:
    """The demo home as shipped: lock.garage_side_door is unlocked, the rest locked, the front
    door's contact sensor closed. "Which doors are unlocked?" used to answer "none"."""
    assert await ask(hass, text, language, "q1") == reply
    assert not demo_services.any()


async def test_the_answers_follow_the_states(hass: HomeAssistant, demo_services: Recorded) -> None:
    set_state(hass, ["lock.garage_side_door"], "locked")
    assert await ask(hass, "which doors are unlocked?", "en", "q2") == (
        "There are no doors unlocked."
    )
    assert await ask(hass, "are all the doors locked?", "en", "q2") == (
        "Yes, all 3 doors are locked."
    )
    assert await ask(hass, "哪些门没锁", "zh-cn", "q2") == "没有门没锁。"

    set_state(hass, ["lock.front_door"], "unlocked")
    assert await ask(hass, "is the front door locked?", "en", "q2") == ("No, front door: unlocked.")
    assert await ask(hass, "哪些锁开着", "zh-cn", "q2") == "只有前门门锁开着。"

    set_state(hass, ["binary_sensor.front_door_contact"], "on")
    assert await ask(hass, "did someone leave the front door open?", "en", "q2") == (
        "Yes, front door sensor: open."
    )
    assert await ask(hass, "前门开着吗", "zh-cn", "q2") == "是的，前门门磁开着。"
    assert await ask(hass, "welche Türen sind offen?", "de", "q2") == (
        "Nur eines: front door sensor (offen)."
    )
    assert not demo_services.any()


@pytest.mark.parametrize(
    ("text", "language", "reply"),
    [
        ("which gates are open?", "en", "I can't find any gates to check."),
        (
            "which windows are locked?",
            "en",
            "I can't tell whether windows are locked: they don't report that.",
        ),
        ("哪些窗户锁着", "zh-cn", "我没法确认窗户是否锁着：它们不报告这个状态。"),
        ("sind die Fenster abgeschlossen?", "de", None),
    ],
)
async def test_an_uncertain_question_is_never_answered_none(
    hass: HomeAssistant, demo_services: Recorded, text: str, language: str, reply: str | None
) -> None:
    said = await ask(hass, text, language, "q3")
    if reply is not None:
        assert said == reply
    else:
        assert said.startswith("Das kann ich nicht sagen"), said
    assert not demo_services.any()


async def test_lights_that_share_a_name_are_said_with_their_rooms(
    hass: HomeAssistant, demo_services: Recorded
) -> None:
    lights = [s.entity_id for s in hass.states.async_all("light")]
    set_state(hass, lights, "off")
    set_state(hass, CEILINGS, "on")

    english = await ask(hass, "which lights are on", "en", "q4")
    assert english == (
        "4 lights on: ceiling light in the master bedroom, ceiling light in the kitchen, "
        "ceiling light in the living room and ceiling light in the guest room."
    )
    chinese = await ask(hass, "哪些灯开着", "zh-cn", "q4")
    assert chinese == "有 4 个灯开着：主卧的吸顶灯、厨房的吸顶灯、客厅的吸顶灯和次卧的吸顶灯。"

    upstairs = await ask(hass, "which lights are on upstairs", "en", "q4")
    assert upstairs == (
        "2 lights on upstairs: ceiling light in the master bedroom and ceiling light in the "
        "guest room."
    )
    assert not demo_services.any()


async def test_a_command_without_a_question_word_is_not_answered_as_a_question(
    hass: HomeAssistant, demo_services: Recorded
) -> None:
    before = asked(hass)
    result = await converse(hass, "everything off except the kitchen and the office", "q5", "en")
    assert asked(hass) == before, speech(result)
    assert "devices off" not in speech(result)
    # A question with the same words is still one.
    await converse(hass, "which lights are off in the kitchen?", "q5", "en")
    assert asked(hass) == before + 1


async def test_a_plan_cached_by_an_older_version_gives_way(
    hass: HomeAssistant, demo_services: Recorded
) -> None:
    """A question cached before this version read "are all the doors locked?" as "is any door
    locked?" (and "yes" while one was unlocked): the compiler's new plan answers, and replaces
    it in the cache."""
    queries = hass.config_entries.async_entries(DOMAIN)[0].runtime_data.queries
    stale = {
        "version": 1,
        "where": [
            [
                {"field": "type", "op": "in", "value": ["door"]},
                {"field": "status", "op": "eq", "value": "locked"},
            ]
        ],
        "aggregate": "list",
        "about": {"subject": "doors", "status": "locked", "style": "yes_no_any"},
    }
    await hass.async_add_executor_job(
        queries.store.save, "are all the doors locked?", "en", stale, "deterministic"
    )
    said = await ask(hass, "are all the doors locked?", "en", "q6")
    assert said == "No, not all doors are locked: garage side door (unlocked)."
    kept = await hass.async_add_executor_job(queries.store.exact, "are all the doors locked?", "en")
    assert kept is not None and kept.plan["about"]["style"] == "yes_no_all"
