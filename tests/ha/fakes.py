"""Helpers shared by the Home Assistant tests: a fake downstream agent and entry set-up."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml
from homeassistant.components import conversation
from homeassistant.components.conversation import ConversationInput, ConversationResult
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import intent
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval.const import DOMAIN


@dataclass
class FakeAgent(conversation.AbstractConversationAgent):
    """A stand-in for an LLM conversation agent: records what it is asked, answers `reply`."""

    reply: str | Callable[[ConversationInput], str] = "好的"
    continue_conversation: bool = False
    delay: float = 0.0
    calls: list[ConversationInput] = field(default_factory=list)

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return MATCH_ALL

    async def async_process(self, user_input: ConversationInput) -> ConversationResult:
        self.calls.append(user_input)
        if self.delay:
            await asyncio.sleep(self.delay)
        text = self.reply(user_input) if callable(self.reply) else self.reply
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_speech(text)
        return ConversationResult(response=response,
                                  conversation_id=user_input.conversation_id,
                                  continue_conversation=self.continue_conversation)


async def async_add_fake_agent(hass: HomeAssistant, **kwargs: Any) -> tuple[str, FakeAgent]:
    """Register a fake agent under a config entry of its own; returns (agent_id, agent)."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    fake_entry = MockConfigEntry(domain="fake_llm", title="Fake LLM")
    fake_entry.add_to_hass(hass)
    agent = FakeAgent(**kwargs)
    conversation.async_set_agent(hass, fake_entry, agent)
    return fake_entry.entry_id, agent


async def async_setup_integration(hass: HomeAssistant, **data: Any) -> MockConfigEntry:
    """Our entry with the given settings (on top of the defaults), set up over the home."""
    assert await async_setup_component(hass, "conversation", {})
    entry = MockConfigEntry(domain=DOMAIN, title="Context Retrieval", unique_id=DOMAIN,
                            data={"agent_id": "conversation.home_assistant",
                                  "language": "auto", **data})
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


def our_agent_id(hass: HomeAssistant) -> str:
    """The entity id of our conversation entity, from the entity registry."""
    ids = [e.entity_id for e in er.async_get(hass).entities.values()
           if e.platform == DOMAIN and e.domain == "conversation"]
    assert len(ids) == 1, ids
    return ids[0]


def context_ids(context_yaml: str | None) -> list[str]:
    """The entity ids listed in one of our YAML contexts (comment lines stripped)."""
    assert context_yaml, "no YAML context"
    body = "\n".join(line for line in context_yaml.splitlines()
                     if not line.lstrip().startswith("#"))
    data = yaml.safe_load(body)
    assert isinstance(data, dict), data
    return [d["id"] for d in data.get("devices") or []]


def yaml_part(prompt: str) -> str:
    """The YAML context at the end of an API prompt: from our header comment on."""
    lines = prompt.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# "))
    return "\n".join(lines[start:])


def called_entities(calls: list[ServiceCall]) -> list[str]:
    """Every entity id the recorded service calls were for, in call order."""
    out: list[str] = []
    for call in calls:
        value = call.data.get("entity_id")
        out.extend([value] if isinstance(value, str) else list(value or []))
    return out
