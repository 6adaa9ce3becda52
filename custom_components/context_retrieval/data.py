"""What a loaded entry owns while it runs: its managers, the conversations' state, the timings
for diagnostics, and the way every surface (conversation agent, LLM API, services, websocket)
finds them.

The managers import `Settings` (a leaf) and the engine, never this module, so that the runtime
data can hold them without an import circle.
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.util.hass_dict import HassKey

from .const import DOMAIN, LOGGER, TIMINGS_KEPT
from .core import ConversationState, LLMClient, RetrievalResult
from .core.base.redact import query_hash
from .errors import service_error
from .queries import QueryManager
from .registry import IndexManager
from .renames import RenameManager
from .settings import Settings
from .vectors import VectorManager
from .views import ViewManager

type ContextRetrievalConfigEntry = ConfigEntry[ContextRetrievalData]

# The conversations of an entry being reloaded, for the entry that follows.
CARRIED_CONVERSATIONS: HassKey[Conversations] = HassKey(f"{DOMAIN}_conversations")
# Entries whose change a flow applies itself, which the update listener leaves alone.
APPLYING: HassKey[set[str]] = HassKey(f"{DOMAIN}_applying")
# Selections handed from the pre-step agent to the LLM API, by context id; a few suffice.
HANDOVER_KEPT = 64
# Conversations remembered at once; far more than a home has speakers.
STATES_KEPT = 256


@dataclass(slots=True)
class Timing:
    """One retrieval, for diagnostics: how long it took and what came of it, never the text."""

    query_hash: str
    milliseconds: float
    commands: int
    selected: int
    clarified: bool
    language: str


@dataclass
class Conversations:
    """What each conversation refers to ("it", the question asked), and which chat sessions
    forget theirs when they end. It outlives a reload of the entry: a user who changes an
    option in the middle of a conversation goes on with it."""

    # Per conversation id, least recently used first; bounded, since a service call may start
    # a conversation no chat session will ever clean up.
    states: OrderedDict[str, ConversationState] = field(default_factory=OrderedDict)
    cleanup_registered: set[str] = field(default_factory=set)


@dataclass
class ContextRetrievalData:
    """Everything the entry owns while it is loaded."""

    settings: Settings
    manager: IndexManager
    views: ViewManager
    queries: QueryManager
    renames: RenameManager
    vectors: VectorManager
    llm_client: LLMClient | None = None
    conversations: Conversations = field(default_factory=Conversations)
    timings: deque[Timing] = field(default_factory=lambda: deque(maxlen=TIMINGS_KEPT))
    languages_seen: Counter[str] = field(default_factory=Counter)
    handover: OrderedDict[str, str] = field(default_factory=OrderedDict)
    in_flight: int = 0  # retrieve/search/question calls being answered (event loop only)
    backpressured: int = 0

    @property
    def states(self) -> OrderedDict[str, ConversationState]:
        return self.conversations.states

    @property
    def cleanup_registered(self) -> set[str]:
        return self.conversations.cleanup_registered

    def state_for(self, conversation_id: str) -> ConversationState:
        state = self.states.get(conversation_id)
        if state is None:
            state = self.states[conversation_id] = ConversationState()
            while len(self.states) > STATES_KEPT:
                self.states.popitem(last=False)
        else:
            self.states.move_to_end(conversation_id)
        return state

    def forget(self, conversation_id: str) -> None:
        """A chat session ended: what "it" referred to there goes with it."""
        self.states.pop(conversation_id, None)
        self.cleanup_registered.discard(conversation_id)

    def record(
        self, text: str, started: float, results: list[RetrievalResult], language: str
    ) -> None:
        """Keep a timing for diagnostics; the text only as a hash, never in clear."""
        digest = query_hash(text)
        LOGGER.debug(
            "query %s (%s): %d command(s) in %.1f ms",
            digest,
            language,
            len(results),
            (time.perf_counter() - started) * 1000,
        )
        self.timings.append(
            Timing(
                query_hash=digest,
                milliseconds=round((time.perf_counter() - started) * 1000, 3),
                commands=len(results),
                selected=sum(len(r.selected) for r in results),
                clarified=any(r.clarification for r in results),
                language=language,
            )
        )
        self.languages_seen[language] += 1

    def hand_over(self, context_id: str, yaml_context: str) -> None:
        """Remember this turn's context for the LLM API, which sees only the context id."""
        self.handover[context_id] = yaml_context
        while len(self.handover) > HANDOVER_KEPT:
            self.handover.popitem(last=False)


async def async_apply_change(
    hass: HomeAssistant,
    entry: ConfigEntry,
    *,
    data: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> None:
    """Store what a flow changed and reload now, so that the flow finishes once the agent runs
    again with it (a reload left for later would refuse messages meanwhile)."""
    applying = hass.data.setdefault(APPLYING, set())
    applying.add(entry.entry_id)
    try:
        if options is not None:
            changed = hass.config_entries.async_update_entry(entry, options=options)
        else:
            changed = hass.config_entries.async_update_entry(entry, data=data or {})
        if changed:
            await hass.config_entries.async_reload(entry.entry_id)
    finally:
        applying.discard(entry.entry_id)


@callback
def applied_by_a_flow(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    """Whether a flow is applying this entry's change itself."""
    return entry.entry_id in hass.data.get(APPLYING, set())


@callback
def async_loaded_entry(hass: HomeAssistant) -> ContextRetrievalConfigEntry | None:
    """The loaded entry (there is at most one)."""
    for entry in hass.config_entries.async_loaded_entries(DOMAIN):
        return entry
    return None


@callback
def loaded_entry(hass: HomeAssistant) -> ContextRetrievalConfigEntry:
    """The loaded entry, or the translated error a service or command answers without one."""
    entry = async_loaded_entry(hass)
    if entry is None:
        raise service_error("not_loaded")
    return entry


@callback
def loaded_data(hass: HomeAssistant) -> ContextRetrievalData:
    """The loaded entry's runtime data, or the translated "not loaded" error."""
    return loaded_entry(hass).runtime_data
