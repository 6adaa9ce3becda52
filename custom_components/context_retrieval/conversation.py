"""The "Context Retrieval" conversation agent: a pre-step in front of the chosen agent.

The entity only follows the chat sessions; each message is one `ConversationTurn` (turn.py):
retrieval, asking back, carrying out through intents, or forwarding to the downstream agent
with a small YAML context of just the entities that matter.
"""

from __future__ import annotations

from functools import partial
from typing import Literal

from homeassistant.components.conversation import (
    ChatLog,
    ConversationEntity,
    ConversationEntityFeature,
    ConversationInput,
    ConversationResult,
)
from homeassistant.components.conversation.models import AbstractConversationAgent
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import chat_session
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from .const import DOMAIN
from .data import ContextRetrievalConfigEntry, ContextRetrievalData
from .turn import ConversationTurn

# Each message is a turn of its own (the state it shares is per conversation id): no limit.
PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: ContextRetrievalConfigEntry,
    async_add_entities: AddEntitiesCallback,
) -> None:
    async_add_entities([ContextRetrievalConversationEntity(entry)])


class ContextRetrievalConversationEntity(ConversationEntity, AbstractConversationAgent):
    """Retrieval first, then the user's agent with only the entities that matter."""

    _attr_has_entity_name = True
    _attr_translation_key = "agent"
    _attr_supported_features = ConversationEntityFeature.CONTROL

    def __init__(self, entry: ContextRetrievalConfigEntry) -> None:
        self.entry = entry
        self._attr_unique_id = entry.entry_id
        self._attr_device_info = None

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return MATCH_ALL

    @property
    def data(self) -> ContextRetrievalData:
        return self.entry.runtime_data

    # No `async_process` of our own: Home Assistant's opens the chat session and its log (and,
    # from 2026.11, passes the user's context, so the conversation belongs to that user and a
    # second message while one is answered gets Home Assistant's "busy" answer).

    def _follow_session(self, conversation_id: str) -> None:
        """What "它"/"it" refer to lives as long as Home Assistant keeps the chat session
        (5 minutes)."""
        session = chat_session.current_session.get()
        if session is None or session.conversation_id != conversation_id:
            return  # the bounded per-conversation store forgets it in time anyway
        data = self.data
        if conversation_id not in data.cleanup_registered:
            data.cleanup_registered.add(conversation_id)
            # Bound to the data, not to the entry: the session may outlive the entry's
            # runtime data (Home Assistant deletes it on unload).
            session.async_on_cleanup(partial(data.forget, conversation_id))

    async def _async_handle_message(
        self, user_input: ConversationInput, chat_log: ChatLog
    ) -> ConversationResult:
        self._follow_session(chat_log.conversation_id)
        turn = ConversationTurn(
            self.hass, self.data, user_input, chat_log, agent_id=self.entity_id or DOMAIN
        )
        return await turn.async_handle()
