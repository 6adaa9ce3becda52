"""Helpers shared by the Home Assistant tests: a fake downstream agent and entry set-up."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from collections.abc import AsyncIterator, Callable, Generator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml
from homeassistant.components import conversation
from homeassistant.components.conversation import ConversationInput, ConversationResult
from homeassistant.components.conversation.chat_log import ChatLog, async_get_chat_log
from homeassistant.components.conversation.const import DATA_COMPONENT as CONVERSATION_COMPONENT
from homeassistant.const import MATCH_ALL
from homeassistant.core import Context, HomeAssistant, ServiceCall
from homeassistant.helpers import chat_session, intent, llm
from homeassistant.helpers import entity_registry as er
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
        return ConversationResult(
            response=response,
            conversation_id=user_input.conversation_id,
            continue_conversation=self.continue_conversation,
        )


def _fields(cls: Any) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


# `LLMContext.user_prompt` exists up to 2025.6; later releases read the chat log instead.
HAS_USER_PROMPT = "user_prompt" in _fields(llm.LLMContext)


def make_llm_context(
    user_prompt: str | None = None,
    context: Context | None = None,
    language: str = "zh-cn",
    device_id: str | None = None,
) -> llm.LLMContext:
    """An LLMContext with the fields of the running Home Assistant (`user_prompt` up to 2025.6,
    `agent_id` from 2026.x, left at its default)."""
    kwargs: dict[str, Any] = {
        "platform": "test",
        "context": context or Context(),
        "language": language,
        "assistant": conversation.DOMAIN,
        "device_id": device_id,
    }
    if HAS_USER_PROMPT:
        kwargs["user_prompt"] = user_prompt
    return llm.LLMContext(**kwargs)


def make_input(
    text: str,
    context: Context | None = None,
    conversation_id: str | None = None,
    language: str = "zh-cn",
    agent_id: str = "conversation.x",
    device_id: str | None = None,
) -> ConversationInput:
    """A ConversationInput of the running release (`satellite_id` is required from 2025.5)."""
    kwargs: dict[str, Any] = {
        "text": text,
        "context": context or Context(),
        "conversation_id": conversation_id,
        "device_id": device_id,
        "language": language,
        "agent_id": agent_id,
    }
    if "satellite_id" in _fields(ConversationInput):
        kwargs["satellite_id"] = None
    return ConversationInput(**kwargs)


@contextmanager
def active_chat_log(
    hass: HomeAssistant,
    text: str,
    conversation_id: str | None = None,
    context: Context | None = None,
) -> Generator[ChatLog]:
    """A chat log being answered, as an LLM agent has it while it builds its prompt."""
    context = context or Context()
    user_input = make_input(text, context, conversation_id)
    session_kwargs: dict[str, Any] = {}
    if "context" in _parameters(chat_session.async_get_chat_session):
        session_kwargs["context"] = context  # 2026.11: the conversation belongs to a user
    with (
        chat_session.async_get_chat_session(hass, conversation_id, **session_kwargs) as session,
        async_get_chat_log(hass, session, user_input) as chat_log,
    ):
        yield chat_log


def _parameters(function: Any) -> set[str]:
    return set(inspect.signature(function).parameters)


@asynccontextmanager
async def llm_request(
    hass: HomeAssistant,
    text: str | None,
    context: Context | None = None,
    language: str = "zh-cn",
    device_id: str | None = None,
) -> AsyncIterator[llm.LLMContext]:
    """What an LLM agent hands an LLM API for the user's `text`: the utterance in
    `user_prompt` (up to 2025.6) or as the last message of the chat log being answered."""
    ctx = make_llm_context(text, context, language, device_id)
    if HAS_USER_PROMPT or text is None:
        yield ctx
        return
    with active_chat_log(hass, text, context=ctx.context):
        yield ctx


async def api_prompt(
    hass: HomeAssistant,
    api_id: str,
    text: str | None,
    context: Context | None = None,
    language: str = "zh-cn",
    device_id: str | None = None,
) -> str:
    """The prompt the LLM API `api_id` gives for the user's `text`."""
    async with llm_request(hass, text, context, language, device_id) as ctx:
        return (await llm.async_get_api(hass, api_id, ctx)).api_prompt


async def async_add_fake_agent(hass: HomeAssistant, **kwargs: Any) -> tuple[str, FakeAgent]:
    """Register a fake agent under a config entry of its own; returns (agent_id, agent)."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    fake_entry = MockConfigEntry(domain="fake_llm", title="Fake LLM")
    fake_entry.add_to_hass(hass)
    agent = FakeAgent(**kwargs)
    conversation.async_set_agent(hass, fake_entry, agent)
    return fake_entry.entry_id, agent


class FakeAgentEntity(conversation.ConversationEntity):
    """An LLM agent as integrations provide it today: an entity, which goes away with them."""

    _attr_supported_features = conversation.ConversationEntityFeature.CONTROL

    def __init__(self, name: str, reply: str = "LLM here") -> None:
        self._attr_name = name
        self._attr_unique_id = f"fake_llm_{name}"
        self.reply = reply
        self.calls: list[ConversationInput] = []

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return MATCH_ALL

    async def async_process(self, user_input: ConversationInput) -> ConversationResult:
        self.calls.append(user_input)
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_speech(self.reply)
        return ConversationResult(response=response, conversation_id=user_input.conversation_id)


async def async_add_fake_agent_entity(
    hass: HomeAssistant, name: str = "fake_llm", reply: str = "LLM here"
) -> FakeAgentEntity:
    """An entity-based LLM agent (`conversation.<name>`); `await agent.async_remove()` takes
    it away as unloading its integration would."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    agent = FakeAgentEntity(name, reply)
    await hass.data[CONVERSATION_COMPONENT].async_add_entities([agent])
    await hass.async_block_till_done()
    return agent


async def async_setup_integration(hass: HomeAssistant, **data: Any) -> MockConfigEntry:
    """Our entry with the given settings (on top of the defaults), set up over the home."""
    assert await async_setup_component(hass, "conversation", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Context Retrieval",
        unique_id=DOMAIN,
        data={"agent_id": "conversation.home_assistant", "language": "auto", **data},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


def our_agent_id(hass: HomeAssistant) -> str:
    """The entity id of our conversation entity, from the entity registry."""
    ids = [
        e.entity_id
        for e in er.async_get(hass).entities.values()
        if e.platform == DOMAIN and e.domain == "conversation"
    ]
    assert len(ids) == 1, ids
    return ids[0]


def context_ids(context_yaml: str | None) -> list[str]:
    """The entity ids listed in one of our YAML contexts (comment lines stripped)."""
    assert context_yaml, "no YAML context"
    body = "\n".join(
        line for line in context_yaml.splitlines() if not line.lstrip().startswith("#")
    )
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
