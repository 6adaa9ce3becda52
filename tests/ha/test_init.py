"""Setting up and unloading the integration (`__init__.py`): nothing blocks the event loop,
and Assist keeps working when the entry goes away."""

from __future__ import annotations

import logging
import pkgutil
from datetime import timedelta
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import conversation
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.chat_session import CONVERSATION_TIMEOUT
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_fire_time_changed,
    async_mock_service,
)

import custom_components.context_retrieval as package
from custom_components.context_retrieval.const import HOME_ASSISTANT_AGENT, LLM_API_ID
from custom_components.context_retrieval.data import CARRIED_CONVERSATIONS
from custom_components.context_retrieval.pipelines import fallback_agent, uses_our_llm_api
from tests.blocking_probe import certificate_loads
from tests.ha.fakes import (
    async_add_fake_agent,
    async_setup_integration,
    called_entities,
    our_agent_id,
)


def test_importing_any_module_loads_no_certificates() -> None:
    """Home Assistant imports the integration and its platforms, sometimes on its event loop:
    no module of ours may build an SSL context (loading the CA certificates) while imported."""
    modules = [
        name
        for _, name, _ in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")
    ]
    assert f"{package.__name__}.core.base.embeddings" in modules
    assert len(modules) > 50
    assert certificate_loads(modules)["import"] == []


# --- unloading and reloading: Assist keeps working -------------------------------------------


@pytest.fixture
async def assist(hass: HomeAssistant, home: dict[str, str]) -> None:
    """Home Assistant's own agent with its intents, and Assist pipelines."""
    assert await async_setup_component(hass, "intent", {})
    assert await async_setup_component(hass, "conversation", {})
    assert await async_setup_component(hass, "assist_pipeline", {})
    await hass.async_block_till_done()


async def _talk_to_assist(
    hass: HomeAssistant, client: Any, text: str, pipeline_id: str | None = None
) -> dict[str, Any]:
    """What the Assist dialog does: run the pipeline from text to an answer; every event."""
    message: dict[str, Any] = {
        "type": "assist_pipeline/run",
        "start_stage": "intent",
        "end_stage": "intent",
        "input": {"text": text},
    }
    if pipeline_id:
        message["pipeline"] = pipeline_id
    await client.send_json_auto_id(message)
    answer = await client.receive_json()
    assert answer["success"], answer
    events: dict[str, Any] = {}
    while True:
        event = (await client.receive_json())["event"]
        events[event["type"]] = event.get("data")
        if event["type"] in ("run-end", "error"):
            return events


def _spoken(events: dict[str, Any]) -> str:
    assert "error" not in events, events["error"]
    response = events["intent-end"]["intent_output"]["response"]
    return str(response["speech"]["plain"]["speech"])


async def _preferred_pipeline_with(hass: HomeAssistant, agent_id: str) -> str:
    """The preferred pipeline, talking to `agent_id` (as a user sets it up in Voice
    assistants)."""
    from homeassistant.components import assist_pipeline

    pipeline = assist_pipeline.async_get_pipeline(hass)
    await assist_pipeline.async_update_pipeline(hass, pipeline, conversation_engine=agent_id)
    return pipeline.id


def _engine(hass: HomeAssistant, pipeline_id: str) -> str:
    from homeassistant.components import assist_pipeline

    return assist_pipeline.async_get_pipeline(hass, pipeline_id).conversation_engine


async def test_assist_answers_while_the_entry_is_unloaded_and_we_answer_again_after(
    hass: HomeAssistant,
    assist: None,
    hass_ws_client: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    entry = await async_setup_integration(hass)
    ours = our_agent_id(hass)
    pipeline_id = await _preferred_pipeline_with(hass, ours)
    client = await hass_ws_client(hass)
    # Only we understand "all lights but one room" (Home Assistant's sentences cannot say it).
    command = "关掉除了主卧以外的所有灯"
    hass.states.async_set("light.living_lamp", "on", {"friendly_name": "落地灯"})
    turn_on = async_mock_service(hass, "light", "turn_on")
    turn_off = async_mock_service(hass, "light", "turn_off")

    await _talk_to_assist(hass, client, command)
    assert "light.living_lamp" in called_entities(turn_off)

    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    # Home Assistant's own agent answers, instead of "Intent recognition engine … is not
    # found" until the pipeline is edited by hand.
    assert _spoken(await _talk_to_assist(hass, client, "turn on the 落地灯"))
    assert called_entities(turn_on) == ["light.living_lamp"]
    assert _engine(hass, pipeline_id) == HOME_ASSISTANT_AGENT

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert _engine(hass, pipeline_id) == ours
    turn_off.clear()
    _spoken(await _talk_to_assist(hass, client, command))
    assert "light.living_lamp" in called_entities(turn_off)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and not _slow_step(r)]


def _slow_step(record: logging.LogRecord) -> bool:
    """asyncio's debug warning that one step of the loop took over 0.1 s: a measure of how
    busy the machine is, not of what the code did (the longest step of this test is Home
    Assistant setting up components, about 45 ms on an idle machine; the longest of ours,
    reading the registries into records, about 14 ms). What runs on the loop is bounded by the
    end-to-end tests' loop-lag probe, not by a timer here."""
    return record.name == "asyncio" and record.getMessage().startswith("Executing ")


async def test_removing_the_entry_leaves_the_pipeline_with_home_assistant(
    hass: HomeAssistant, assist: None, hass_ws_client: Any
) -> None:
    entry = await async_setup_integration(hass)
    pipeline_id = await _preferred_pipeline_with(hass, our_agent_id(hass))
    assert await hass.config_entries.async_remove(entry.entry_id)
    await hass.async_block_till_done()
    assert _engine(hass, pipeline_id) == HOME_ASSISTANT_AGENT
    turn_on = async_mock_service(hass, "light", "turn_on")
    client = await hass_ws_client(hass)
    assert _spoken(await _talk_to_assist(hass, client, "turn on the 落地灯"))
    assert called_entities(turn_on) == ["light.living_lamp"]

    # A new entry later does not take over pipelines the old one handed away.
    await async_setup_integration(hass)
    assert _engine(hass, pipeline_id) == HOME_ASSISTANT_AGENT


async def test_a_pipeline_changed_meanwhile_is_left_as_the_user_set_it(
    hass: HomeAssistant, assist: None
) -> None:
    fake_id, _ = await async_add_fake_agent(hass)
    entry = await async_setup_integration(hass)
    pipeline_id = await _preferred_pipeline_with(hass, our_agent_id(hass))
    assert await hass.config_entries.async_unload(entry.entry_id)
    await _preferred_pipeline_with(hass, fake_id)  # the user picks another agent
    assert await hass.config_entries.async_setup(entry.entry_id)
    assert _engine(hass, pipeline_id) == fake_id


async def test_the_pipeline_goes_to_the_agent_we_forward_to_when_it_can_answer_alone(
    hass: HomeAssistant, assist: None
) -> None:
    fake_id, _ = await async_add_fake_agent(hass, reply="LLM here")
    entry = await async_setup_integration(hass, agent_id=fake_id)
    pipeline_id = await _preferred_pipeline_with(hass, our_agent_id(hass))
    assert await hass.config_entries.async_unload(entry.entry_id)
    assert _engine(hass, pipeline_id) == fake_id


async def test_an_agent_that_needs_our_llm_api_is_no_fallback(
    hass: HomeAssistant, assist: None
) -> None:
    """An LLM agent set up with our LLM API cannot answer without us."""
    ent_reg = er.async_get(hass)
    for name, apis in (("with_us", ["assist", LLM_API_ID]), ("without_us", "assist")):
        owner = MockConfigEntry(domain="fake_llm", options={CONF_LLM_HASS_API: apis})
        owner.add_to_hass(hass)
        ent_reg.async_get_or_create(
            "conversation", "fake_llm", name, suggested_object_id=name, config_entry=owner
        )
    assert uses_our_llm_api(hass, "conversation.with_us")
    assert not uses_our_llm_api(hass, "conversation.without_us")
    assert not uses_our_llm_api(hass, "conversation.unknown")
    assert fallback_agent(hass, "conversation.unknown") == HOME_ASSISTANT_AGENT


async def test_a_conversation_ending_after_unload_is_forgotten_quietly(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    freezer: FrozenDateTimeFactory,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Home Assistant ends chat sessions 5 minutes after their last message, also those of an
    entry unloaded meanwhile (its runtime data is gone by then)."""
    assert await async_setup_component(hass, "intent", {})
    async_mock_service(hass, "light", "turn_on")
    await conversation.async_converse(
        hass, "打开老伙计", "before-unload", Context(), "zh-cn", agent_id=our_agent_id(hass)
    )
    assert "before-unload" in loaded_entry.runtime_data.states
    assert await hass.config_entries.async_unload(loaded_entry.entry_id)
    freezer.tick(CONVERSATION_TIMEOUT + timedelta(minutes=1))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    ours = [r for r in caplog.records if r.name.startswith(package.__name__)]
    assert not [r for r in ours if r.levelno >= logging.WARNING]
    # What it referred to is gone with the session (also from what a reload would carry on).
    assert hass.data[CARRIED_CONVERSATIONS].states == {}


async def test_a_reload_keeps_what_it_refers_to(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    """Changing an option reloads the entry; the conversation goes on."""
    assert await async_setup_component(hass, "intent", {})
    turn_off = async_mock_service(hass, "light", "turn_off")
    agent = our_agent_id(hass)
    await conversation.async_converse(
        hass, "打开老伙计", "across-reload", Context(), "zh-cn", agent_id=agent
    )
    assert await hass.config_entries.async_reload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    await conversation.async_converse(
        hass, "把它关掉", "across-reload", Context(), "zh-cn", agent_id=agent
    )
    await hass.async_block_till_done()
    assert called_entities(turn_off) == ["light.living_lamp"]
