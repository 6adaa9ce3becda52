"""The agents the options rely on (`agents.py`): a repair issue while one is gone, cleared when
it is back, and Home Assistant's own agent answering meanwhile."""

from __future__ import annotations

from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component

from custom_components.context_retrieval.agents import (
    ISSUE_FORWARD_AGENT,
    ISSUE_LLM_AGENT,
    ISSUE_LLM_ENTITY,
    conversation_agents,
)
from custom_components.context_retrieval.const import (
    CONF_COMMAND_PARSER,
    CONF_LLM_AGENT,
    CONF_LLM_ENTITY,
    CONF_LLM_PROVIDER,
    DOMAIN,
    HOME_ASSISTANT_AGENT,
)
from tests.ha.fakes import (
    async_add_fake_agent,
    async_add_fake_agent_entity,
    async_setup_integration,
    our_agent_id,
)


def _issue(hass: HomeAssistant, issue_id: str) -> ir.IssueEntry | None:
    return ir.async_get(hass).async_get_issue(DOMAIN, issue_id)


async def test_the_agents_offered_are_the_real_ones_without_ours(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    llm = await async_add_fake_agent_entity(hass, "zeta_llm")
    legacy_id, _ = await async_add_fake_agent(hass)
    await async_setup_integration(hass)
    offered = conversation_agents(hass)
    assert next(iter(offered)) == HOME_ASSISTANT_AGENT
    assert set(offered) == {HOME_ASSISTANT_AGENT, llm.entity_id, legacy_id}
    assert our_agent_id(hass) not in offered
    assert set(conversation_agents(hass, language_models=True)) == {llm.entity_id, legacy_id}


async def test_a_forward_agent_that_goes_away_raises_a_repair_issue_until_it_is_back(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    assert await async_setup_component(hass, "intent", {})
    llm = await async_add_fake_agent_entity(hass, "openai", reply="LLM here")
    agent_id = llm.entity_id
    await async_setup_integration(hass, agent_id=agent_id)
    assert _issue(hass, ISSUE_FORWARD_AGENT) is None

    await llm.async_remove()  # its integration unloaded or removed
    await hass.async_block_till_done()
    issue = _issue(hass, ISSUE_FORWARD_AGENT)
    assert issue is not None
    assert issue.translation_key == ISSUE_FORWARD_AGENT
    assert issue.translation_placeholders == {"agent": agent_id}
    assert issue.severity is ir.IssueSeverity.WARNING

    # Meanwhile Home Assistant's own agent answers, rather than an error.
    result = await conversation.async_converse(
        hass, "what time is it", None, Context(), "en", agent_id=our_agent_id(hass)
    )
    assert result.response.speech["plain"]["speech"]
    assert llm.calls == []

    back = await async_add_fake_agent_entity(hass, "openai", reply="LLM here")
    assert back.entity_id == agent_id
    await hass.async_block_till_done()
    assert _issue(hass, ISSUE_FORWARD_AGENT) is None


async def test_a_language_model_that_is_gone_at_start_is_reported_and_cleared_on_unload(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    entry = await async_setup_integration(
        hass,
        **{
            CONF_COMMAND_PARSER: "llm_with_fallback",
            CONF_LLM_PROVIDER: "conversation_agent",
            CONF_LLM_AGENT: "conversation.removed_llm",
        },
    )
    issue = _issue(hass, ISSUE_LLM_AGENT)
    assert issue is not None and issue.translation_placeholders == {
        "agent": "conversation.removed_llm"
    }
    assert _issue(hass, ISSUE_FORWARD_AGENT) is None  # Home Assistant's agent is there
    assert await hass.config_entries.async_unload(entry.entry_id)
    assert _issue(hass, ISSUE_LLM_AGENT) is None


async def test_an_ai_task_entity_that_appears_clears_its_issue(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    await async_setup_integration(
        hass, **{CONF_LLM_PROVIDER: "ai_task", CONF_LLM_ENTITY: "ai_task.local_model"}
    )
    assert _issue(hass, ISSUE_LLM_ENTITY) is not None
    hass.states.async_set("ai_task.local_model", "unknown")
    await hass.async_block_till_done()
    assert _issue(hass, ISSUE_LLM_ENTITY) is None
    hass.states.async_remove("ai_task.local_model")
    await hass.async_block_till_done()
    assert _issue(hass, ISSUE_LLM_ENTITY) is not None
