"""Assist pipelines that talk to our agent, while the entry is not loaded.

An Assist pipeline names its conversation agent by entity id. Unloaded (disabled, reloading,
removed), our agent is gone, and Home Assistant answers every message of such a pipeline with
"Intent recognition engine … is not found" until someone edits the pipeline by hand. So on
unload those pipelines are handed to another agent (the one we forward to, when it can answer
without us, else Home Assistant's own), and on the next setup they are taken back, unless the
user picked another agent for them meanwhile. What was handed over is stored, so that a
restart in between does not lose it; removing the entry leaves the pipelines where they are.

Assist pipelines are optional (a home without `assist_pipeline` has nothing to hand over); the
component is imported only where it is loaded, so its import costs nothing here.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components import conversation
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import CONF_LLM_HASS_API, Platform
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.storage import Store

from .const import DOMAIN, HOME_ASSISTANT_AGENT, LLM_API_ID, LOGGER

STORAGE_VERSION = 1
STORAGE_KEY = f"{DOMAIN}.pipelines"
ASSIST_PIPELINE = "assist_pipeline"


@callback
def our_agent_id(hass: HomeAssistant, entry: ConfigEntry) -> str | None:
    """The entity id of the entry's conversation agent, as the registry knows it."""
    return er.async_get(hass).async_get_entity_id(Platform.CONVERSATION, DOMAIN, entry.entry_id)


@callback
def uses_our_llm_api(hass: HomeAssistant, agent_id: str) -> bool:
    """Whether an LLM agent was set up with our LLM API, which goes away with the entry."""
    registered = er.async_get(hass).async_get(agent_id)
    if registered is None or registered.config_entry_id is None:
        return False
    owner = hass.config_entries.async_get_entry(registered.config_entry_id)
    if owner is None:
        return False
    settings: Any = owner.options
    subentry_id = getattr(registered, "config_subentry_id", None)  # Home Assistant ≥ 2025.7
    subentries = getattr(owner, "subentries", {})
    if subentry_id and subentry_id in subentries:
        settings = subentries[subentry_id].data
    apis = settings.get(CONF_LLM_HASS_API) or []
    return LLM_API_ID in ([apis] if isinstance(apis, str) else list(apis))


@callback
def fallback_agent(hass: HomeAssistant, forward_to: str) -> str:
    """Who answers while we are away: the agent we forward to, unless it is gone or needs our
    LLM API; else Home Assistant's own agent, which is always there."""
    if forward_to == HOME_ASSISTANT_AGENT:
        return forward_to
    if conversation.async_get_agent_info(hass, forward_to) is None:
        return HOME_ASSISTANT_AGENT
    if uses_our_llm_api(hass, forward_to):
        return HOME_ASSISTANT_AGENT
    return forward_to


def _store(hass: HomeAssistant) -> Store[dict[str, Any]]:
    return Store(hass, STORAGE_VERSION, STORAGE_KEY)


async def async_hand_over(hass: HomeAssistant, entry: ConfigEntry, forward_to: str) -> None:
    """Unloading: the pipelines that talk to our agent talk to the fallback agent meanwhile."""
    agent = our_agent_id(hass, entry)
    if agent is None or ASSIST_PIPELINE not in hass.config.components:
        return
    from homeassistant.components import assist_pipeline

    fallback = fallback_agent(hass, forward_to)
    handed: dict[str, str] = {}
    for pipeline in assist_pipeline.async_get_pipelines(hass):
        if pipeline.conversation_engine == agent:
            await assist_pipeline.async_update_pipeline(
                hass, pipeline, conversation_engine=fallback
            )
            handed[pipeline.id] = fallback
    if not handed:
        return
    LOGGER.debug("Assist pipelines %s answered by %s while unloaded", sorted(handed), fallback)
    store = _store(hass)
    before = await store.async_load() or {}
    await store.async_save({"pipelines": {**before.get("pipelines", {}), **handed}})


async def async_take_back(hass: HomeAssistant, entry: ConfigEntry) -> None:
    """Set up again: the pipelines handed over talk to our agent again, unless the user chose
    another agent for them meanwhile."""
    store = _store(hass)
    stored = await store.async_load()
    handed: dict[str, str] = (stored or {}).get("pipelines", {})
    agent = our_agent_id(hass, entry)
    if not handed or agent is None or ASSIST_PIPELINE not in hass.config.components:
        return
    from homeassistant.components import assist_pipeline

    for pipeline in assist_pipeline.async_get_pipelines(hass):
        if handed.get(pipeline.id) == pipeline.conversation_engine:
            await assist_pipeline.async_update_pipeline(hass, pipeline, conversation_engine=agent)
    await store.async_remove()


async def async_forget(hass: HomeAssistant) -> None:
    """The entry is removed: the pipelines stay with the agent they were handed to."""
    await _store(hass).async_remove()
