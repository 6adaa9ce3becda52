"""The engine's LLM client in Home Assistant: a conversation agent asked for JSON only."""

from __future__ import annotations

import json
import sys
import types
from typing import Any
from unittest.mock import patch

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval import llm_client
from custom_components.context_retrieval.const import DOMAIN
from custom_components.context_retrieval.llm_client import (
    COMMAND_TASK,
    VIEW_RULE_TASK,
    AITaskClient,
    ConversationAgentClient,
    ai_task_available,
    async_create_llm_client,
)
from custom_components.context_retrieval.settings import Settings
from tests.ha.fakes import async_add_fake_agent, async_setup_integration

ALL_BUT_BEDROOM = {
    "light.living_ceiling",
    "light.living_lamp",
    "light.kitchen_ceiling",
    "light.study_desk",
}
STUDY_LAMP_ARRAY = json.dumps(
    [
        {
            "action": "turn_off",
            "targets": ["台灯"],
            "type": "light",
            "quantifier": "one",
            "include_rooms": ["书房"],
            "exclude_rooms": [],
            "include_floors": [],
            "exclude_floors": [],
            "labels": [],
            "reference": None,
        }
    ],
    ensure_ascii=False,
)


def llm_options(agent_id: str, parser: str = "llm_with_fallback", **extra: Any) -> dict[str, Any]:
    return {
        "command_parser": parser,
        "llm_provider": "conversation_agent",
        "llm_agent": agent_id,
        **extra,
    }


async def retrieve(hass: HomeAssistant, text: str) -> dict[str, Any]:
    response = await hass.services.async_call(
        DOMAIN, "retrieve", {"text": text}, blocking=True, return_response=True
    )
    assert response is not None
    return dict(response)


def selected(command: dict[str, Any]) -> set[str]:
    return {c["entity_id"] for c in command["selected"]}


# ---- the client itself ------------------------------------------------------------------------


async def test_conversation_agent_client_returns_the_agents_speech(hass: HomeAssistant) -> None:
    agent_id, fake = await async_add_fake_agent(hass, reply='[{"action": "turn_on"}]')
    client = ConversationAgentClient(hass, agent_id)

    answer = await client.complete("SYSTEM PROMPT", "USER TEXT")

    assert answer == '[{"action": "turn_on"}]'
    assert len(fake.calls) == 1
    asked = fake.calls[0]
    assert asked.text == "USER TEXT"
    assert asked.extra_system_prompt is not None
    assert asked.extra_system_prompt.startswith("SYSTEM PROMPT")
    assert "JSON only" in asked.extra_system_prompt
    assert asked.conversation_id is None  # a throwaway conversation, never the user's


async def test_conversation_agent_client_without_an_answer_raises(hass: HomeAssistant) -> None:
    agent_id, _ = await async_add_fake_agent(hass, reply="")
    with pytest.raises(HomeAssistantError):
        await ConversationAgentClient(hass, agent_id).complete("SYSTEM", "USER")


def settings(**data: Any) -> Settings:
    return Settings.from_entry(MockConfigEntry(domain=DOMAIN, data=data))


async def test_create_client_per_provider(hass: HomeAssistant) -> None:
    assert async_create_llm_client(hass, settings()) is None  # default: none
    assert async_create_llm_client(hass, settings(llm_provider="none", llm_agent="abc")) is None
    ai_task = settings(llm_provider="ai_task", llm_entity="ai_task.openai")
    # Before 2025.8 there are no AI tasks: the rules alone answer.
    with patch.object(llm_client, "ai_task_available", return_value=False):
        assert async_create_llm_client(hass, ai_task) is None
    if ai_task_available():
        client = async_create_llm_client(hass, ai_task)
        assert isinstance(client, AITaskClient)
        assert client.entity_id == "ai_task.openai"
    else:
        assert async_create_llm_client(hass, ai_task) is None
    assert async_create_llm_client(hass, settings(llm_provider="conversation_agent")) is None

    client = async_create_llm_client(
        hass, settings(llm_provider="conversation_agent", llm_agent="abc")
    )
    assert isinstance(client, ConversationAgentClient)
    assert client.agent_id == "abc"


# ---- the engine's command-array path through it -----------------------------------------------


async def test_command_array_from_the_agent_decides_the_selection(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    requests: list[dict[str, Any]] = []

    def answer(user_input: Any) -> str:
        requests.append(json.loads(user_input.text))
        return STUDY_LAMP_ARRAY

    agent_id, fake = await async_add_fake_agent(hass, reply=answer)
    entry = await async_setup_integration(hass, **llm_options(agent_id))
    assert isinstance(entry.runtime_data.llm_client, ConversationAgentClient)

    # The rules alone would ask which desk lamp; the array names the study's.
    response = await retrieve(hass, "关掉台灯")

    assert len(fake.calls) == 1
    assert requests[0]["request"] == "关掉台灯"
    assert "书房" in requests[0]["rooms"]
    command = response["commands"][0]
    assert command["meta"]["parser"] == "llm"
    assert "parse_degraded" not in command["meta"]
    assert selected(command) == {"light.study_desk"}
    assert command["clarification"] is None
    assert command["action"] == "turn_off"


async def test_rules_parser_never_asks_the_agent(hass: HomeAssistant, home: dict[str, str]) -> None:
    agent_id, fake = await async_add_fake_agent(hass, reply=STUDY_LAMP_ARRAY)
    await async_setup_integration(hass, **llm_options(agent_id, parser="rules"))

    response = await retrieve(hass, "关掉除了主卧以外的所有灯")

    assert fake.calls == []
    assert selected(response["commands"][0]) == ALL_BUT_BEDROOM
    assert "parser" not in response["commands"][0]["meta"]


@pytest.mark.parametrize(
    ("fake_kwargs", "options", "reason"),
    [
        ({"reply": "Sure! You want the lights off except in the bedroom."}, {}, "invalid_output"),
        ({"reply": '{"action": "turn_off"}'}, {}, "invalid_output"),
        ({"reply": '[{"action": "explode", "targets": []}]'}, {}, "invalid_output"),
        ({"reply": STUDY_LAMP_ARRAY, "delay": 1.0}, {"llm_timeout": 0.05}, "llm_timeout"),
    ],
)
async def test_garbage_or_timeout_falls_back_to_the_rules(
    hass: HomeAssistant,
    home: dict[str, str],
    fake_kwargs: dict[str, Any],
    options: dict[str, Any],
    reason: str,
) -> None:
    agent_id, fake = await async_add_fake_agent(hass, **fake_kwargs)
    await async_setup_integration(hass, **llm_options(agent_id, **options))

    response = await retrieve(hass, "关掉除了主卧以外的所有灯")

    assert len(fake.calls) == 1
    command = response["commands"][0]
    assert str(command["meta"]["parse_degraded"]).startswith(reason)
    assert command["meta"].get("parser") != "llm"
    assert selected(command) == ALL_BUT_BEDROOM  # what the rules find


async def test_llm_only_parser_selects_nothing_when_the_llm_fails(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    agent_id, _ = await async_add_fake_agent(hass, reply="no idea")
    await async_setup_integration(hass, **llm_options(agent_id, parser="llm"))

    response = await retrieve(hass, "关掉除了主卧以外的所有灯")

    command = response["commands"][0]
    assert command["meta"]["parse_degraded"]
    assert command["selected"] == []
    assert response["yaml"] == ""


async def test_changing_the_options_switches_the_client_without_restart(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    agent_id, fake = await async_add_fake_agent(hass, reply=STUDY_LAMP_ARRAY)
    entry = await async_setup_integration(hass)
    assert entry.runtime_data.llm_client is None
    assert selected((await retrieve(hass, "关掉台灯"))["commands"][0]) == set()

    hass.config_entries.async_update_entry(entry, options=llm_options(agent_id))
    await hass.async_block_till_done()

    assert isinstance(entry.runtime_data.llm_client, ConversationAgentClient)
    command = (await retrieve(hass, "关掉台灯"))["commands"][0]
    assert command["meta"]["parser"] == "llm"
    assert selected(command) == {"light.study_desk"}
    assert len(fake.calls) == 1


@pytest.mark.parametrize(
    ("task", "keys"),
    [
        (COMMAND_TASK, {"commands"}),
        (VIEW_RULE_TASK, {"rule", "rewrite_note"}),
    ],
)
async def test_ai_task_client_asks_for_the_tasks_structure(
    hass: HomeAssistant,
    monkeypatch: pytest.MonkeyPatch,
    task: tuple[str, dict[str, Any]],
    keys: set[str],
) -> None:
    """AI tasks exist from Home Assistant 2025.8: a stand-in module checks what is asked."""

    asked: dict[str, Any] = {}

    async def fake_generate(hass: HomeAssistant, **kwargs: Any) -> Any:
        asked.update(kwargs)
        return types.SimpleNamespace(data={key: "x" for key in keys})

    monkeypatch.setitem(
        sys.modules,
        "homeassistant.components.ai_task",
        types.SimpleNamespace(async_generate_data=fake_generate),
    )
    answer = await AITaskClient(hass, "ai_task.model", task).complete("SYSTEM", "USER")
    assert json.loads(answer) == {key: "x" for key in keys}
    assert asked["task_name"] == task[0] and asked["entity_id"] == "ai_task.model"
    assert "SYSTEM" in asked["instructions"] and "USER" in asked["instructions"]
    assert {str(k) for k in asked["structure"].schema} == keys
