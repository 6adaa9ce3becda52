"""The admin sidebar panel "Context": its bundled script, served by Home Assistant, and its
registration.

The script's URL carries a hash of its content, so browsers load a new one after an update
and cache it otherwise. The sidebar title is in the home's language (Home Assistant shows a
custom panel's title as given); inside the panel every text follows the user's language.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from homeassistant.components import frontend, panel_custom
from homeassistant.components.http import StaticPathConfig
from homeassistant.const import EVENT_CORE_CONFIG_UPDATE
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers import translation

from .const import DOMAIN, LOGGER

PANEL_PATH = "context-retrieval"  # the panel's address: /context-retrieval
WEBCOMPONENT = "context-retrieval-panel"
STATIC_URL = "/context_retrieval_static"
BUNDLE = Path(__file__).parent / "frontend" / f"{WEBCOMPONENT}.js"
# The brand images (icon, logo), for the panel's toolbar: Home Assistant serves a custom
# integration's brand/ itself only from 2026.3 on, and then to its own pages.
BRAND_URL = "/context_retrieval_brand"
BRAND = Path(__file__).parent / "brand"
ICON = "mdi:text-search"
DEFAULT_TITLE = "Context"
_STATIC_REGISTERED = f"{DOMAIN}_panel_static"


def bundle_version(path: Path = BUNDLE) -> str:
    """The first 12 hex digits of the bundle's SHA-256 (read from disk: use the executor)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


async def async_title(hass: HomeAssistant, language: str | None = None) -> str:
    """The sidebar title in `language` (default: the home's), from the translations."""
    language = language or hass.config.language
    strings = await translation.async_get_translations(hass, language, "selector", {DOMAIN})
    key = f"component.{DOMAIN}.selector.panel.options.title"
    return strings.get(key) or DEFAULT_TITLE


async def async_register_panel(hass: HomeAssistant) -> Callable[[], None]:
    """Serve the bundle and add the panel to the sidebar; returns what removes it again."""
    version = await hass.async_add_executor_job(bundle_version)
    if not hass.data.get(_STATIC_REGISTERED):
        # A static route cannot be removed: registered once per Home Assistant run.
        await hass.http.async_register_static_paths(
            [
                StaticPathConfig(STATIC_URL, str(BUNDLE.parent), cache_headers=True),
                StaticPathConfig(BRAND_URL, str(BRAND), cache_headers=False),
            ]
        )
        hass.data[_STATIC_REGISTERED] = True

    async def register() -> None:
        await panel_custom.async_register_panel(
            hass,
            frontend_url_path=PANEL_PATH,
            webcomponent_name=WEBCOMPONENT,
            sidebar_title=await async_title(hass),
            sidebar_icon=ICON,
            module_url=f"{STATIC_URL}/{BUNDLE.name}?v={version}",
            config={"version": version, "brand": BRAND_URL},
            require_admin=True,
        )

    await register()
    language = hass.config.language

    async def async_core_config_updated(event: Event) -> None:
        nonlocal language
        if hass.config.language == language:
            return
        language = hass.config.language
        frontend.async_remove_panel(hass, PANEL_PATH, warn_if_unknown=False)
        await register()

    unsubscribe = hass.bus.async_listen(EVENT_CORE_CONFIG_UPDATE, async_core_config_updated)

    @callback
    def async_unregister() -> None:
        unsubscribe()
        frontend.async_remove_panel(hass, PANEL_PATH, warn_if_unknown=False)
        LOGGER.debug("Panel removed")

    return async_unregister
