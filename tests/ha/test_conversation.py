"""The "Context Retrieval" conversation agent, driven through `conversation.async_converse`."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import conversation
from homeassistant.components.conversation.chat_log import DATA_CHAT_LOGS
from homeassistant.core import Context, HomeAssistant, ServiceCall
from homeassistant.helpers import intent
from homeassistant.helpers.chat_session import CONVERSATION_TIMEOUT
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_fire_time_changed,
    async_mock_service,
)

from custom_components.context_retrieval.const import NOTHING_RELEVANT_THIS_TURN
from tests.ha.fakes import (
    FakeAgent,
    async_add_fake_agent,
    async_setup_integration,
    called_entities,
    context_ids,
    our_agent_id,
)

ALL_BUT_BEDROOM = {
    "light.living_ceiling",
    "light.living_lamp",
    "light.kitchen_ceiling",
    "light.study_desk",
}


@pytest.fixture
async def lights(hass: HomeAssistant, home: dict[str, str]) -> dict[str, list[ServiceCall]]:
    """Intent handlers (HassTurnOn/Off) and recorded light services."""
    assert await async_setup_component(hass, "intent", {})
    return {
        "turn_on": async_mock_service(hass, "light", "turn_on"),
        "turn_off": async_mock_service(hass, "light", "turn_off"),
    }


@pytest.fixture
async def with_fake(
    hass: HomeAssistant, home: dict[str, str], lights: dict[str, list[ServiceCall]]
) -> tuple[MockConfigEntry, FakeAgent]:
    """Our agent forwarding to a fake LLM agent that asks to keep the conversation open."""
    agent_id, fake = await async_add_fake_agent(
        hass, reply="好的，马上办。", continue_conversation=True
    )
    entry = await async_setup_integration(hass, agent_id=agent_id)
    return entry, fake


async def converse(
    hass: HomeAssistant,
    text: str,
    conversation_id: str | None,
    language: str = "zh-cn",
    **kwargs: Any,
) -> conversation.ConversationResult:
    result = await conversation.async_converse(
        hass, text, conversation_id, Context(), language, agent_id=our_agent_id(hass), **kwargs
    )
    await hass.async_block_till_done()
    return result


def speech(result: conversation.ConversationResult) -> str:
    return str(result.response.speech.get("plain", {}).get("speech", ""))


# ---- clarification ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "language", "room"),
    [
        ("书房的", "zh-cn", "书房"),
        ("主卧那个", "zh-cn", "主卧"),
        ("第二个", "zh-cn", 2),
        ("第一个", "zh-cn", 1),
        ("the second one", "en", 2),
        ("the one in the study", "en", "书房"),
    ],
)
async def test_duplicate_name_is_asked_back_and_answered_next_turn(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    lights: dict[str, list[ServiceCall]],
    answer: str,
    language: str,
    room: str | int,
) -> None:
    question = await converse(hass, "关掉台灯", "ask-1")

    text = speech(question)
    assert question.continue_conversation is True
    assert question.conversation_id == "ask-1"
    assert "哪" in text and "书房" in text and "主卧" in text  # a question, in Chinese
    assert text.rstrip().endswith(("？", "?"))
    assert lights["turn_off"] == []  # nothing done before the answer

    lamp_of = {"书房": "light.study_desk", "主卧": "light.bedroom_desk"}
    in_order = sorted(lamp_of, key=text.index)  # the options in the order they were offered
    expected = lamp_of[in_order[room - 1] if isinstance(room, int) else room]

    done = await converse(hass, answer, "ask-1", language)

    assert called_entities(lights["turn_off"]) == [expected]
    assert done.continue_conversation is False
    assert done.response.response_type == intent.IntentResponseType.ACTION_DONE


async def test_answer_in_another_conversation_is_not_an_answer(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, lights: dict[str, list[ServiceCall]]
) -> None:
    await converse(hass, "关掉台灯", "ask-2")
    await converse(hass, "第二个", "someone-else")
    assert lights["turn_off"] == []


async def test_clarification_is_written_to_the_chat_log(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, lights: dict[str, list[ServiceCall]]
) -> None:
    result = await converse(hass, "关掉台灯", "ask-3")
    chat_log = hass.data[DATA_CHAT_LOGS]["ask-3"]
    assert chat_log.content[-2].role == "user"
    assert chat_log.content[-2].content == "关掉台灯"
    assert chat_log.content[-1].role == "assistant"
    assert chat_log.content[-1].content == speech(result)
    assert chat_log.content[-1].agent_id == our_agent_id(hass)


# ---- forwarding to an LLM agent ---------------------------------------------------------------


async def test_forwards_text_and_conversation_with_only_the_retrieved_entities(
    hass: HomeAssistant, with_fake: tuple[MockConfigEntry, FakeAgent]
) -> None:
    _, fake = with_fake

    result = await converse(hass, "打开客厅的灯", "llm-1", device_id="kitchen-satellite")

    assert len(fake.calls) == 1
    forwarded = fake.calls[0]
    assert forwarded.text == "打开客厅的灯"
    assert forwarded.conversation_id == "llm-1"
    assert forwarded.language == "zh-cn"
    assert forwarded.device_id == "kitchen-satellite"
    assert forwarded.extra_system_prompt is not None
    assert forwarded.extra_system_prompt.startswith("#")  # the "this is data" header
    assert set(context_ids(forwarded.extra_system_prompt)) == {
        "light.living_ceiling",
        "light.living_lamp",
    }
    assert "secret_plug" not in forwarded.extra_system_prompt
    assert "Secret Plug" not in forwarded.extra_system_prompt
    # The downstream answer is ours, continue_conversation included.
    assert speech(result) == "好的，马上办。"
    assert result.continue_conversation is True
    assert result.conversation_id == "llm-1"


@pytest.mark.parametrize("keep_open", [True, False])
async def test_continue_conversation_comes_from_the_downstream_agent(
    hass: HomeAssistant, with_fake: tuple[MockConfigEntry, FakeAgent], keep_open: bool
) -> None:
    _, fake = with_fake
    fake.continue_conversation = keep_open
    result = await converse(hass, "打开客厅的灯", "llm-2")
    assert result.continue_conversation is keep_open


@pytest.mark.parametrize("text", ["打开Secret Plug", "turn on the secret plug", "打开书房的插座"])
async def test_unexposed_entity_never_reaches_the_downstream_agent(
    hass: HomeAssistant, with_fake: tuple[MockConfigEntry, FakeAgent], text: str
) -> None:
    _, fake = with_fake
    await converse(hass, text, "llm-3")
    assert len(fake.calls) == 1
    prompt = fake.calls[0].extra_system_prompt or ""
    assert "secret_plug" not in prompt
    assert "Secret Plug" not in prompt


async def test_multi_command_is_forwarded_once_with_every_commands_entities(
    hass: HomeAssistant, with_fake: tuple[MockConfigEntry, FakeAgent]
) -> None:
    _, fake = with_fake

    await converse(hass, "打开客厅的灯然后关掉空调", "llm-4")

    assert len(fake.calls) == 1
    assert fake.calls[0].text == "打开客厅的灯然后关掉空调"
    ids = set(context_ids(fake.calls[0].extra_system_prompt))
    assert {"light.living_ceiling", "light.living_lamp", "climate.bedroom_ac"} <= ids
    assert "switch.secret_plug" not in ids


async def test_clarification_is_not_forwarded_and_the_answer_is(
    hass: HomeAssistant, with_fake: tuple[MockConfigEntry, FakeAgent]
) -> None:
    _, fake = with_fake

    question = await converse(hass, "关掉台灯", "llm-5")
    assert question.continue_conversation is True
    assert fake.calls == []

    await converse(hass, "书房的", "llm-5")
    assert len(fake.calls) == 1
    assert fake.calls[0].conversation_id == "llm-5"
    assert context_ids(fake.calls[0].extra_system_prompt) == ["light.study_desk"]


async def test_without_an_index_messages_still_reach_the_downstream_agent(
    hass: HomeAssistant, with_fake: tuple[MockConfigEntry, FakeAgent]
) -> None:
    entry, fake = with_fake
    entry.runtime_data.manager.index = None

    result = await converse(hass, "打开客厅的灯", "llm-6")

    assert len(fake.calls) == 1
    assert fake.calls[0].text == "打开客厅的灯"
    assert fake.calls[0].conversation_id == "llm-6"
    # Said, not left out: an LLM agent keeps the previous turn's extra prompt otherwise.
    assert fake.calls[0].extra_system_prompt == NOTHING_RELEVANT_THIS_TURN
    assert speech(result) == "好的，马上办。"
    assert result.continue_conversation is True


@pytest.mark.parametrize("indexed", [True, False])
async def test_the_callers_own_prompt_reaches_the_downstream_agent_with_the_context(
    hass: HomeAssistant, with_fake: tuple[MockConfigEntry, FakeAgent], indexed: bool
) -> None:
    """An automation that starts a conversation ("ask whether to close the garage") gives
    its own prompt; forwarding must not drop it for ours."""
    entry, fake = with_fake
    if not indexed:
        entry.runtime_data.manager.index = None
    asked = "The user was asked whether the living room lights should be switched on."

    await converse(hass, "打开客厅的灯", "llm-7", extra_system_prompt=asked)

    prompt = fake.calls[0].extra_system_prompt or ""
    if indexed:
        callers, context = prompt.split("\n\n", 1)
        assert callers == asked
        assert set(context_ids(context)) == {"light.living_ceiling", "light.living_lamp"}
    else:
        assert prompt == f"{asked}\n\n{NOTHING_RELEVANT_THIS_TURN}"


# ---- state per conversation -------------------------------------------------------------------


async def test_it_refers_to_the_last_device_of_the_same_conversation(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, lights: dict[str, list[ServiceCall]]
) -> None:
    first = await converse(hass, "打开老伙计", None)
    conversation_id = first.conversation_id
    assert conversation_id
    assert called_entities(lights["turn_on"]) == ["light.living_lamp"]
    assert conversation_id in loaded_entry.runtime_data.states

    await converse(hass, "把它关掉", "a-different-conversation")
    assert lights["turn_off"] == []

    await converse(hass, "把它关掉", conversation_id)
    assert called_entities(lights["turn_off"]) == ["light.living_lamp"]


async def test_state_is_dropped_with_the_chat_session(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    lights: dict[str, list[ServiceCall]],
    freezer: FrozenDateTimeFactory,
) -> None:
    states = loaded_entry.runtime_data.states
    await converse(hass, "打开老伙计", "short-lived")
    await converse(hass, "打开吸顶灯", "other")
    assert "short-lived" in states

    # Still there just before Home Assistant's timeout…
    freezer.tick(CONVERSATION_TIMEOUT - timedelta(seconds=30))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert "short-lived" in states
    await converse(hass, "打开客厅的灯", "other")  # this one stays active

    # …gone once the chat session is cleaned up.
    freezer.tick(timedelta(minutes=2))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert "short-lived" not in states
    assert "other" in states

    # A new session under the same id starts afresh: "it" means nothing yet.
    await converse(hass, "把它关掉", "short-lived")
    assert lights["turn_off"] == []

    # And the new session's state is dropped too when it ends.
    await converse(hass, "打开老伙计", "short-lived")
    freezer.tick(CONVERSATION_TIMEOUT + timedelta(minutes=1))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    freezer.tick(CONVERSATION_TIMEOUT + timedelta(minutes=1))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert states == {}


# ---- Home Assistant's own agent downstream ----------------------------------------------------


def switch_on(hass: HomeAssistant, entity_ids: set[str]) -> None:
    """These lights are on (the services are mocked: nothing else changes a state)."""
    for entity_id in entity_ids:
        state = hass.states.get(entity_id)
        assert state is not None
        hass.states.async_set(entity_id, "on", state.attributes)


async def test_all_except_is_carried_out_through_intents(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, lights: dict[str, list[ServiceCall]]
) -> None:
    switch_on(hass, ALL_BUT_BEDROOM)
    result = await converse(hass, "关掉除了主卧以外的所有灯", "ha-1")

    assert sorted(called_entities(lights["turn_off"])) == sorted(ALL_BUT_BEDROOM)
    assert speech(result).startswith("好的")
    assert result.response.response_type == intent.IntentResponseType.ACTION_DONE
    assert result.continue_conversation is False
    last = hass.data[DATA_CHAT_LOGS]["ha-1"].content[-1]
    assert last.role == "assistant"
    assert last.agent_id == our_agent_id(hass)  # we answered, not Home Assistant's agent

    lights["turn_off"].clear()
    again = await converse(hass, "turn them off", "ha-1", "en")

    assert sorted(called_entities(lights["turn_off"])) == sorted(ALL_BUT_BEDROOM)
    assert again.response.response_type == intent.IntentResponseType.ACTION_DONE
    assert "吸顶灯" in speech(again)
    assert not speech(again).startswith("好的")  # answered in English this time


async def test_several_commands_are_carried_out_through_intents(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, lights: dict[str, list[ServiceCall]]
) -> None:
    result = await converse(hass, "打开老伙计然后关掉书房的台灯", "ha-2")

    assert called_entities(lights["turn_on"]) == ["light.living_lamp"]
    assert called_entities(lights["turn_off"]) == ["light.study_desk"]
    assert speech(result).startswith("好的")


async def test_a_command_we_resolved_is_carried_out_through_home_assistants_intents(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, lights: dict[str, list[ServiceCall]]
) -> None:
    result = await converse(hass, "turn off the lights in the kitchen", "ha-3", "en")

    assert called_entities(lights["turn_off"]) == ["light.kitchen_ceiling"]
    response = result.response
    assert response.response_type == intent.IntentResponseType.ACTION_DONE
    # Home Assistant's handler did it (its service call above); the answer is ours, and says
    # what was switched, not just "Turned off the lights".
    assert "吸顶灯" in speech(result)
    last = hass.data[DATA_CHAT_LOGS]["ha-3"].content[-1]
    assert last.agent_id == our_agent_id(hass)


async def test_without_an_index_home_assistant_still_answers(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, lights: dict[str, list[ServiceCall]]
) -> None:
    loaded_entry.runtime_data.manager.index = None

    result = await converse(hass, "turn off the lights in the kitchen", "ha-4", "en")

    assert called_entities(lights["turn_off"]) == ["light.kitchen_ceiling"]
    assert result.response.intent is not None
    assert result.response.intent.intent_type == intent.INTENT_TURN_OFF


async def test_misspelt_name_is_carried_out_through_intents(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, lights: dict[str, list[ServiceCall]]
) -> None:
    result = await converse(hass, "打开老伙记", "ha-5")  # 记 for 计

    assert called_entities(lights["turn_on"]) == ["light.living_lamp"]
    assert speech(result).startswith("好的")


async def test_auto_language_follows_the_utterance_not_the_pipeline(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, lights: dict[str, list[ServiceCall]]
) -> None:
    switch_on(hass, ALL_BUT_BEDROOM)
    result = await converse(hass, "关掉除了主卧以外的所有灯", "ha-6", "en")

    assert sorted(called_entities(lights["turn_off"])) == sorted(ALL_BUT_BEDROOM)
    assert speech(result).startswith("好的")


async def test_state_first_created_by_the_retrieve_service_is_still_dropped(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    lights: dict[str, list[ServiceCall]],
    freezer: FrozenDateTimeFactory,
) -> None:
    await hass.services.async_call(
        "context_retrieval",
        "retrieve",
        {"text": "打开老伙计", "conversation_id": "shared"},
        blocking=True,
        return_response=True,
    )
    await converse(hass, "打开老伙计", "shared")

    for _ in range(2):
        freezer.tick(CONVERSATION_TIMEOUT + timedelta(minutes=1))
        async_fire_time_changed(hass)
        await hass.async_block_till_done()

    assert "shared" not in loaded_entry.runtime_data.states
