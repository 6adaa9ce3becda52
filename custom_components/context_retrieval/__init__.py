"""Context Retrieval: find the few entities an utterance is about, before the assistant acts."""

from __future__ import annotations

import hashlib
import importlib
import time
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import llm
from homeassistant.helpers.typing import ConfigType

from .const import (
    CONF_AGENT_ID,
    CONF_ANSWER_QUESTIONS,
    CONF_COMMAND_PARSER,
    CONF_EMBEDDING_API_KEY,
    CONF_EMBEDDING_KIND,
    CONF_EMBEDDING_MODEL,
    CONF_EMBEDDING_TIMEOUT,
    CONF_EMBEDDING_URL,
    CONF_EPSILON,
    CONF_KEYWORD_WEIGHT,
    CONF_LANGUAGE,
    CONF_LLM_AGENT,
    CONF_LLM_ENTITY,
    CONF_LLM_PROVIDER,
    CONF_LLM_TIMEOUT,
    CONF_QUERY_AUTO_USE,
    CONF_QUERY_SUGGEST,
    CONF_QUERY_SUGGEST_LIMIT,
    CONF_SEMANTIC_TIMEOUT,
    CONF_TOKEN_BUDGET,
    CONF_TOP_K,
    CONF_VECTOR_WEIGHT,
    DEFAULTS,
    DOMAIN,
    LANGUAGE_AUTO,
    LLM_NONE,
    LOGGER,
    PARSER_RULES,
    TIMINGS_KEPT,
    VIEW_LLM_TIMEOUT,
)
from .core import ConversationState, RetrievalOptions, default_lexicons
from .core.base.llm_json import LLMClient
from .core.retrieval.scoring import Weights
from .registry import IndexManager

if TYPE_CHECKING:
    from .queries import QueryManager
    from .renames import RenameManager
    from .vectors import VectorManager
    from .views import ViewManager

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)
PLATFORMS = (Platform.CONVERSATION, Platform.SENSOR)

type ContextRetrievalConfigEntry = ConfigEntry[ContextRetrievalData]

# Selections handed from the pre-step agent to the LLM API, by context id; a few suffice.
_HANDOVER_KEPT = 64
# Conversations remembered at once; far more than a home has speakers.
_STATES_KEPT = 256


@dataclass(frozen=True, slots=True)
class Settings:
    """The entry's options, read once per change."""

    agent_id: str
    language: str | None  # None: detect per utterance
    top_k: int
    epsilon: float
    keyword_weight: float
    vector_weight: float
    token_budget: int
    command_parser: str
    llm_provider: str
    llm_entity: str | None
    llm_agent: str | None
    llm_timeout: float
    answer_questions: bool = True
    query_auto_use: float = 0.95
    query_suggest: float = 0.8
    query_suggest_limit: int = 5
    semantic_timeout: float = 2.0
    embedding_kind: str = "none"
    embedding_url: str | None = None
    embedding_model: str | None = None
    embedding_api_key: str | None = None
    embedding_timeout: float = 2.0

    @classmethod
    def from_entry(cls, entry: ConfigEntry) -> Settings:
        merged: dict[str, Any] = {**DEFAULTS, **entry.data, **entry.options}
        language = merged.get(CONF_LANGUAGE) or LANGUAGE_AUTO
        return cls(
            agent_id=str(merged[CONF_AGENT_ID]),
            language=None if language == LANGUAGE_AUTO else str(language),
            top_k=int(merged[CONF_TOP_K]),
            epsilon=float(merged[CONF_EPSILON]),
            keyword_weight=float(merged[CONF_KEYWORD_WEIGHT]),
            vector_weight=float(merged[CONF_VECTOR_WEIGHT]),
            token_budget=int(merged[CONF_TOKEN_BUDGET]),
            command_parser=str(merged.get(CONF_COMMAND_PARSER) or PARSER_RULES),
            llm_provider=str(merged.get(CONF_LLM_PROVIDER) or LLM_NONE),
            llm_entity=merged.get(CONF_LLM_ENTITY) or None,
            llm_agent=merged.get(CONF_LLM_AGENT) or None,
            llm_timeout=float(merged[CONF_LLM_TIMEOUT]),
            answer_questions=bool(merged[CONF_ANSWER_QUESTIONS]),
            query_auto_use=float(merged[CONF_QUERY_AUTO_USE]),
            query_suggest=float(merged[CONF_QUERY_SUGGEST]),
            query_suggest_limit=int(merged[CONF_QUERY_SUGGEST_LIMIT]),
            semantic_timeout=float(merged[CONF_SEMANTIC_TIMEOUT]),
            embedding_kind=str(merged.get(CONF_EMBEDDING_KIND) or "none"),
            embedding_url=merged.get(CONF_EMBEDDING_URL) or None,
            embedding_model=merged.get(CONF_EMBEDDING_MODEL) or None,
            embedding_api_key=merged.get(CONF_EMBEDDING_API_KEY) or None,
            embedding_timeout=float(merged[CONF_EMBEDDING_TIMEOUT]),
        )

    def options(self) -> RetrievalOptions:
        return RetrievalOptions(
            top_k=self.top_k, epsilon=self.epsilon,
            weights=Weights(self.keyword_weight, self.vector_weight),
            llm_timeout=self.llm_timeout)


@dataclass(slots=True)
class Timing:
    query_hash: str
    milliseconds: float
    commands: int
    selected: int
    clarified: bool
    language: str


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
    # Per conversation id, least recently used first; bounded, since a service call may start
    # a conversation no chat session will ever clean up.
    states: OrderedDict[str, ConversationState] = field(default_factory=OrderedDict)
    cleanup_registered: set[str] = field(default_factory=set)
    timings: deque[Timing] = field(default_factory=lambda: deque(maxlen=TIMINGS_KEPT))
    languages_seen: Counter[str] = field(default_factory=Counter)
    handover: OrderedDict[str, str] = field(default_factory=OrderedDict)
    in_flight: int = 0  # retrieve/search/question calls being answered (event loop only)
    backpressured: int = 0

    def state_for(self, conversation_id: str) -> ConversationState:
        state = self.states.get(conversation_id)
        if state is None:
            state = self.states[conversation_id] = ConversationState()
            while len(self.states) > _STATES_KEPT:
                self.states.popitem(last=False)
        else:
            self.states.move_to_end(conversation_id)
        return state

    def record(self, text: str, started: float, results: list[Any], language: str) -> None:
        """Keep a timing for diagnostics; the text only as a hash, never in clear."""
        digest = query_hash(text)
        LOGGER.debug("query %s (%s): %d command(s) in %.1f ms", digest, language,
                     len(results), (time.perf_counter() - started) * 1000)
        self.timings.append(Timing(
            query_hash=digest,
            milliseconds=round((time.perf_counter() - started) * 1000, 3),
            commands=len(results),
            selected=sum(len(r.selected) for r in results),
            clarified=any(r.clarification for r in results),
            language=language,
        ))
        self.languages_seen[language] += 1

    def hand_over(self, context_id: str, yaml_context: str) -> None:
        """Remember this turn's context for the LLM API, which sees only the context id."""
        self.handover[context_id] = yaml_context
        while len(self.handover) > _HANDOVER_KEPT:
            self.handover.popitem(last=False)


def query_hash(text: str) -> str:
    """What logs and diagnostics say instead of what was said: a SHA-256 (16 hex digits)."""
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()[:16]


def load_data_files() -> None:
    """Read the lexicons and character tables (files) once, off the event loop."""
    from .core.base.text import normalize, sounds_alike

    default_lexicons()
    normalize("預熱")  # the Traditional → Simplified table
    sounds_alike("房", "方")  # the pinyin table


def _import_modules(*names: str) -> None:
    """Import this package's modules; run in Home Assistant's import executor, as importing
    them on the event loop would block it (their imports read files and build an HTTPS
    opener, which loads the CA certificates)."""
    for name in names:
        importlib.import_module(f"{__name__}.{name}")


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    await hass.async_add_import_executor_job(_import_modules, "services")
    from .services import async_register_services
    from .websocket_api import async_register_commands

    await hass.async_add_executor_job(load_data_files)
    async_register_services(hass)
    async_register_commands(hass)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> bool:
    """Index the home, register the LLM API and the conversation agent."""
    await hass.async_add_import_executor_job(_import_modules, "llm_api", "llm_client",
                                             "queries", "renames", "vectors", "views")
    from .llm_api import ContextRetrievalAPI
    from .llm_client import QUERY_PLAN_TASK, async_create_llm_client
    from .panel import async_register_panel
    from .queries import QueryManager
    from .renames import RenameManager
    from .vectors import VectorManager
    from .views import ViewManager

    settings = Settings.from_entry(entry)
    manager = IndexManager(hass, language=settings.language)
    views = ViewManager(hass, manager,
                        llm=async_create_llm_client(hass, settings, view_rules=True),
                        language=settings.language or hass.config.language,
                        llm_timeout=max(settings.llm_timeout, VIEW_LLM_TIMEOUT))
    await views.async_start()  # before the first build, which evaluates the rules
    entry.async_on_unload(views.async_stop)
    queries = QueryManager(hass, manager,
                           llm=async_create_llm_client(hass, settings, task=QUERY_PLAN_TASK),
                           language=settings.language,
                           llm_timeout=max(settings.llm_timeout, VIEW_LLM_TIMEOUT),
                           auto_use=settings.query_auto_use,
                           suggest_threshold=settings.query_suggest,
                           suggest_limit=settings.query_suggest_limit)
    await queries.async_start()
    entry.async_on_unload(queries.async_stop)
    await manager.async_start()
    vectors = VectorManager.from_settings(hass, manager, settings)
    await vectors.async_start()
    entry.async_on_unload(vectors.async_stop)
    entry.runtime_data = ContextRetrievalData(
        settings=settings, manager=manager, views=views, queries=queries,
        renames=RenameManager(hass, lambda: [d.entity_id for d in manager.index.devices()]
                              if manager.index else []),
        vectors=vectors,
        llm_client=async_create_llm_client(hass, settings))
    entry.async_on_unload(manager.async_stop)
    entry.async_on_unload(llm.async_register_api(hass, ContextRetrievalAPI(hass, entry)))
    entry.async_on_unload(entry.add_update_listener(_async_options_updated))
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    entry.async_on_unload(await async_register_panel(hass))
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)


async def _async_options_updated(hass: HomeAssistant,
                                 entry: ContextRetrievalConfigEntry) -> None:
    """Options apply without a restart: reload the entry."""
    await hass.config_entries.async_reload(entry.entry_id)


@callback
def async_loaded_entry(hass: HomeAssistant) -> ContextRetrievalConfigEntry | None:
    """The loaded entry (there is at most one)."""
    for entry in hass.config_entries.async_loaded_entries(DOMAIN):
        return entry
    return None
