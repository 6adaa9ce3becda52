"""Scripted LLM: a test-only custom integration whose conversation agent talks to Home
Assistant as its LLM integrations do, with a script for a model (agent.py).

The end-to-end tests link this folder into the real server's `custom_components/` and add an
entry per agent through the config flow (name, LLM API, script as JSON). The service
`scripted_llm.records` answers what each agent's model was given, turn by turn; never
installed anywhere but a test server.
"""

from __future__ import annotations

from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse

from .agent import DOMAIN, ScriptedLLMEntity

PLATFORMS = [Platform.CONVERSATION]


async def async_setup(hass: HomeAssistant, config: dict[str, Any]) -> bool:
    async def records(call: ServiceCall) -> ServiceResponse:
        agents: dict[str, ScriptedLLMEntity] = hass.data.get(DOMAIN, {})
        wanted = call.data.get("entity_id")
        return {
            "agents": {
                entity_id: {
                    "name": str(agent.name),
                    "records": [r.as_dict() for r in agent.records],
                }
                for entity_id, agent in agents.items()
                if wanted in (None, entity_id)
            }
        }

    hass.services.async_register(
        DOMAIN, "records", records, supports_response=SupportsResponse.ONLY
    )
    return True


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
