"""Context Retrieval: find the few entities an utterance is about, before the assistant acts.

Setting up and unloading only. Home Assistant imports this package in its import executor, so
the modules imported here (and what they import: lexicon tables, an HTTPS opener that loads the
CA certificates) never block the event loop; the data files are read in the executor too.
"""

from __future__ import annotations

from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import llm
from homeassistant.helpers.typing import ConfigType

from .const import DOMAIN, VIEW_LLM_TIMEOUT
from .core import default_lexicons
from .core.base.text import normalize, sounds_alike
from .data import ContextRetrievalConfigEntry, ContextRetrievalData
from .llm_api import ContextRetrievalAPI
from .llm_client import QUERY_PLAN_TASK, async_create_llm_client
from .panel import async_register_panel
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
    await manager.async_start()
    vectors = VectorManager.from_settings(hass, manager, settings)
    await vectors.async_start()
    entry.async_on_unload(vectors.async_stop)
    entry.runtime_data = ContextRetrievalData(
        settings=settings,
        manager=manager,
        views=views,
        queries=queries,
        renames=RenameManager(
            hass, lambda: [d.entity_id for d in manager.index.devices()] if manager.index else []
        ),
        vectors=vectors,
        llm_client=async_create_llm_client(hass, settings),
    )
    entry.async_on_unload(manager.async_stop)
    entry.async_on_unload(llm.async_register_api(hass, ContextRetrievalAPI(hass, entry)))
    entry.async_on_unload(entry.add_update_listener(_async_options_updated))
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    entry.async_on_unload(await async_register_panel(hass))
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)


async def _async_options_updated(hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> None:
    """Options apply without a restart: reload the entry."""
    await hass.config_entries.async_reload(entry.entry_id)
