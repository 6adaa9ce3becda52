"""Context Retrieval: find the few entities an utterance is about, before the assistant acts.

Setting up and unloading only. Home Assistant imports this package in its import executor, so
the modules imported here (and what they import: lexicon tables, an HTTPS opener that loads the
CA certificates) never block the event loop; the data files are read in the executor too.
"""

from __future__ import annotations

from functools import partial

from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import EVENT_HOMEASSISTANT_STOP, Platform
from homeassistant.core import Event, HomeAssistant
from homeassistant.exceptions import ConfigEntryNotReady
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import llm
from homeassistant.helpers.typing import ConfigType

from .agents import async_clear, async_watch, chosen
from .const import DOMAIN, VIEW_LLM_TIMEOUT
from .core import default_lexicons
from .core.base.text import normalize, sounds_alike
from .data import (
    CARRIED_CONVERSATIONS,
    ContextRetrievalConfigEntry,
    ContextRetrievalData,
    Conversations,
    applied_by_a_flow,
)
from .llm_api import ContextRetrievalAPI
from .llm_client import QUERY_PLAN_TASK, async_create_llm_client
from .panel import async_register_panel
from .pipelines import async_forget, async_hand_over, async_take_back
from .queries import QueryManager
from .registry import IndexManager
from .renames import RenameManager
from .services import async_register_services
from .settings import Settings
from .vectors import VectorManager
from .views import ViewManager
from .websocket_api import async_register_commands

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)
PLATFORMS = (Platform.CONVERSATION, Platform.SENSOR)


def load_data_files() -> None:
    """Read the lexicons and character tables (files) once, off the event loop."""
    default_lexicons()
    normalize("預熱")  # the Traditional → Simplified table
    sounds_alike("房", "方")  # the pinyin table


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    await hass.async_add_executor_job(load_data_files)
    async_register_services(hass)
    async_register_commands(hass)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> bool:
    """Index the home, register the LLM API and the conversation agent."""
    settings = Settings.from_entry(entry)
    _check_before_setup(hass, settings)
    # A model gets more time for a view rule or a question than for a voice command.
    typed_timeout = max(settings.llm_timeout, VIEW_LLM_TIMEOUT)
    manager = IndexManager(hass, language=settings.language)
    views = ViewManager(
        hass,
        manager,
        llm=async_create_llm_client(hass, settings, view_rules=True),
        language=settings.language or hass.config.language,
        llm_timeout=typed_timeout,
    )
    await views.async_start()  # before the first build, which evaluates the rules
    entry.async_on_unload(views.async_stop)
    queries = QueryManager(
        hass,
        manager,
        llm=async_create_llm_client(hass, settings, task=QUERY_PLAN_TASK),
        language=settings.language,
        llm_timeout=typed_timeout,
        auto_use=settings.query_auto_use,
        suggest_threshold=settings.query_suggest,
        suggest_limit=settings.query_suggest_limit,
    )
    await queries.async_start()
    entry.async_on_unload(queries.async_stop)

    async def _async_close_stores(_: Event) -> None:
        # Home Assistant stops without unloading entries: the stores are closed here too,
        # their write-ahead logs checkpointed into the files.
        await views.async_stop()
        await queries.async_stop()

    entry.async_on_unload(hass.bus.async_listen(EVENT_HOMEASSISTANT_STOP, _async_close_stores))
    renames = RenameManager(hass, manager.exposed_ids)
    # Names a crash kept from the registry are written again before the first index.
    await renames.async_start()
    await manager.async_start()
    # The first embedding build runs now: a key the service refuses starts reauthentication.
    vectors = VectorManager.from_settings(
        hass, manager, settings, on_auth_rejected=partial(entry.async_start_reauth, hass)
    )
    await vectors.async_start()
    entry.async_on_unload(vectors.async_stop)
    entry.runtime_data = ContextRetrievalData(
        settings=settings,
        manager=manager,
        views=views,
        queries=queries,
        renames=renames,
        vectors=vectors,
        llm_client=async_create_llm_client(hass, settings),
        conversations=hass.data.pop(CARRIED_CONVERSATIONS, None) or Conversations(),
    )
    entry.async_on_unload(manager.async_stop)
    entry.async_on_unload(llm.async_register_api(hass, ContextRetrievalAPI(hass, entry)))
    # A repair issue while an agent or entity the options name is gone.
    entry.async_on_unload(async_watch(hass, settings))
    entry.async_on_unload(entry.add_update_listener(_async_entry_updated))
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    await async_take_back(hass, entry)
    entry.async_on_unload(await async_register_panel(hass))
    return True


def _check_before_setup(hass: HomeAssistant, settings: Settings) -> None:
    """While Home Assistant starts, an agent or AI task entity the options rely on may belong
    to an integration that is not set up yet: retry later rather than run without it. Once
    Home Assistant runs, one that is missing is gone, not late: the entry loads and a repair
    issue says which (agents.py)."""
    if hass.is_running:
        return
    missing = [c.entity_id for c in chosen(settings) if not c.exists(hass, c.entity_id)]
    if missing:
        raise ConfigEntryNotReady(
            translation_domain=DOMAIN,
            translation_key="agent_not_ready",
            translation_placeholders={"agent": ", ".join(missing)},
        )


async def async_unload_entry(hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> bool:
    """Unload; Assist pipelines that talk to our agent are handed to another agent first, so
    that Assist keeps answering while we are away."""
    data = entry.runtime_data
    await async_hand_over(hass, entry, data.settings.agent_id)
    if not await hass.config_entries.async_unload_platforms(entry, PLATFORMS):
        await async_take_back(hass, entry)
        return False
    hass.data[CARRIED_CONVERSATIONS] = data.conversations
    async_clear(hass)
    return True


async def async_remove_entry(hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> None:
    """Removed for good: nothing is taken back or carried over."""
    hass.data.pop(CARRIED_CONVERSATIONS, None)
    await async_forget(hass)


async def _async_entry_updated(hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> None:
    """Options changed by other means than our flows (which apply theirs before they finish)
    apply without a restart: reload, unless what runs has them already."""
    if applied_by_a_flow(hass, entry) or entry.state is not ConfigEntryState.LOADED:
        return
    if Settings.from_entry(entry) == entry.runtime_data.settings:
        return
    await hass.config_entries.async_reload(entry.entry_id)
