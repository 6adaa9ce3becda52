"""Test before setup: an agent the options rely on that is not set up yet while Home Assistant
starts makes the entry wait and retry; once Home Assistant runs, a missing agent is gone, and
the entry loads with a repair issue instead."""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import CoreState, HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval.const import DOMAIN
from tests.ha.fakes import async_add_fake_agent_entity

LATE_AGENT = "conversation.late_llm"


def _entry(hass: HomeAssistant) -> MockConfigEntry:
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Context Retrieval",
        unique_id=DOMAIN,
        data={"agent_id": LATE_AGENT, "language": "auto"},
    )
    entry.add_to_hass(hass)
    return entry


async def test_an_agent_not_set_up_yet_while_starting_is_waited_for(
    hass: HomeAssistant,
) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    hass.set_state(CoreState.not_running)
    entry = _entry(hass)
    assert not await hass.config_entries.async_setup(entry.entry_id)
    assert entry.state is ConfigEntryState.SETUP_RETRY
    assert entry.error_reason_translation_key == "agent_not_ready"
    assert LATE_AGENT in str(entry.reason)

    await async_add_fake_agent_entity(hass, "late_llm")  # its integration is set up now
    assert await hass.config_entries.async_reload(entry.entry_id)
    assert entry.state is ConfigEntryState.LOADED
    hass.set_state(CoreState.running)
    await hass.async_block_till_done()


async def test_once_running_a_missing_agent_loads_with_a_repair_issue(
    hass: HomeAssistant,
) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    entry = _entry(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    issue = ir.async_get(hass).async_get_issue(DOMAIN, "forward_agent_missing")
    assert issue is not None and issue.translation_placeholders == {"agent": LATE_AGENT}
