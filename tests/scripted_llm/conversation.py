"""The scripted agent of a config entry (its name, LLM API and script)."""

from __future__ import annotations

import json
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant

from .agent import ScriptedLLMEntity


async def async_setup_entry(
    hass: HomeAssistant, entry: ConfigEntry, async_add_entities: Any
) -> None:
    async_add_entities(
        [
            ScriptedLLMEntity(
                entry.data["name"],
                entry.data.get("llm_hass_api") or None,
                json.loads(entry.data.get("script") or "[]"),
                unique_id=entry.entry_id,
            )
        ]
    )
