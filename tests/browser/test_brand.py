"""The integration's own icon (brand/) where a homeowner meets it: its card in Settings →
Devices & services (Home Assistant serves a custom integration's brand/ from 2026.3) and the
panel's toolbar. Each image must be the integration's file, not a placeholder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ROOT, Ui, devhome

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

BRAND = ROOT / "custom_components" / "context_retrieval" / "brand"
BRAND_API = "/api/brands/integration/context_retrieval/"


def _served(ui: Ui, path_part: str) -> tuple[list[tuple[str, bytes]], Callable[[], None]]:
    """The bodies of the page's image responses whose URL contains `path_part`."""
    seen: list[tuple[str, bytes]] = []

    def on_response(response: Any) -> None:
        if path_part in response.url and response.ok:
            seen.append((response.url, response.body()))

    ui.page.on("response", on_response)
    return seen, lambda: ui.page.remove_listener("response", on_response)


def _is_ours(url: str, body: bytes) -> bool:
    name = url.split("?", 1)[0].rsplit("/", 1)[-1]
    return (BRAND / name).exists() and (BRAND / name).read_bytes() == body


def _loaded(image: Any) -> int:
    image.scroll_into_view_if_needed()
    handle = image.element_handle()
    image.page.wait_for_function("e => e.complete && e.naturalWidth > 0", arg=handle)
    width: int = image.evaluate("e => e.naturalWidth")
    return width


def test_the_integration_card_shows_the_brand_icon(in_browser: Any, ui: Ui) -> None:
    version = devhome.release(devhome.hass_facts()["version"])
    if version < (2026, 3, 0):
        pytest.skip("Home Assistant serves a custom integration's brand/ from 2026.3 on")

    def flow(ui: Ui) -> Path:
        seen, stop = _served(ui, BRAND_API)
        try:
            ui.page.goto(ui.ha.url + "/config/integrations/dashboard")
            icon = ui.page.locator(f'img[src*="{BRAND_API}"]').first
            expect(icon).to_be_visible(timeout=30_000)
            assert _loaded(icon) in (256, 512)
            assert seen and all(_is_ours(url, body) for url, body in seen), seen
            return ui.shot("integrations-brand", full_page=False)
        finally:
            stop()

    assert in_browser(flow).exists()


def test_the_panel_toolbar_shows_the_brand_icon(in_browser: Any, ui: Ui) -> None:
    def flow(ui: Ui) -> Path:
        seen, stop = _served(ui, "/context_retrieval_brand/")
        try:
            ui.open("try")
            icon = ui.page.locator("context-retrieval-panel img.brand")
            expect(icon).to_be_visible()
            assert _loaded(icon) == 256
            assert seen and all(_is_ours(url, body) for url, body in seen), seen
            return ui.shot("panel-brand", full_page=False)
        finally:
            stop()

    assert in_browser(flow).exists()
