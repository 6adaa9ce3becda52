"""A stored choice that no longer holds (an agent that is gone, AI tasks on a release without
them): the form opens with it, says what is wrong with it, and saves nothing."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

import pytest
from homeassistant.config_entries import SOURCE_RECONFIGURE
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.setup import async_setup_component

from custom_components.context_retrieval import config_flow
from custom_components.context_retrieval.const import (
    CONF_AGENT_ID,
    CONF_LLM_AGENT,
    CONF_LLM_ENTITY,
    CONF_LLM_PROVIDER,
    DOMAIN,
)
from tests.ha.fakes import async_setup_integration

GONE = "conversation.gone_llm"


@pytest.fixture(autouse=True)
async def _core(hass: HomeAssistant) -> None:
    assert await async_setup_component(hass, "homeassistant", {})


def _as_shown(form: dict[str, Any]) -> dict[str, Any]:
    """What saving the form unchanged sends: each field's default or suggested value."""
    values = {}
    for key in form["data_schema"].schema:
        if callable(getattr(key, "default", None)):
            values[str(key.schema)] = key.default()
        elif (key.description or {}).get("suggested_value") is not None:
            values[str(key.schema)] = key.description["suggested_value"]
    return values


async def _save_options_unchanged(hass: HomeAssistant, entry: Any) -> dict[str, Any]:
    form = await hass.config_entries.options.async_init(entry.entry_id)
    return await hass.config_entries.options.async_configure(form["flow_id"], _as_shown(form))


async def test_a_language_model_agent_that_is_gone(hass: HomeAssistant) -> None:
    entry = await async_setup_integration(
        hass, **{CONF_LLM_PROVIDER: "conversation_agent", CONF_LLM_AGENT: GONE}
    )
    result = await _save_options_unchanged(hass, entry)
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_LLM_AGENT: "agent_not_found"}
    assert entry.options == {}


async def test_ai_tasks_stored_on_a_release_without_them(hass: HomeAssistant) -> None:
    entry = await async_setup_integration(
        hass, **{CONF_LLM_PROVIDER: "ai_task", CONF_LLM_ENTITY: "ai_task.gone"}
    )
    with patch.object(config_flow, "ai_task_available", return_value=False):
        result = await _save_options_unchanged(hass, entry)
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_LLM_PROVIDER: "ai_task_unavailable"}
    assert entry.options == {}


async def test_reconfigure_with_a_forward_agent_that_is_gone(hass: HomeAssistant) -> None:
    entry = await async_setup_integration(hass, **{CONF_AGENT_ID: GONE})
    form = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_RECONFIGURE, "entry_id": entry.entry_id}
    )
    result = await hass.config_entries.flow.async_configure(form["flow_id"], _as_shown(form))
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_AGENT_ID: "agent_not_found"}
    assert entry.data[CONF_AGENT_ID] == GONE
