"""The search page says so when the semantic side is down: an embedding service configured at an
address nobody answers, and the built-in vectors answering instead."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Client, Ui

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

DEAD_SERVICE = {
    "embedding_kind": "openai",
    "embedding_url": "http://127.0.0.1:9/v1/embeddings",
    "embedding_model": "nobody-home",
    "embedding_timeout": 0.5,
}


def _set_options(ha: Client, options: dict[str, Any]) -> None:
    """Through the options flow, as the integration's settings dialog does."""
    entry = next(
        e
        for e in ha.request("GET", "/api/config/config_entries/entry")
        if e["domain"] == "context_retrieval"
    )
    flow = ha.request(
        "POST", "/api/config/config_entries/options/flow", {"handler": entry["entry_id"]}
    )
    done = ha.request("POST", f"/api/config/config_entries/options/flow/{flow['flow_id']}", options)
    assert done["type"] == "create_entry", done


def _search(ha: Client) -> dict[str, Any]:
    answer = ha.request(
        "POST",
        "/api/services/context_retrieval/search?return_response",
        {"query": "灯", "strategy": "semantic", "min_score": 0},
    )
    result: dict[str, Any] = answer["service_response"]
    return result


@pytest.fixture
def dead_embeddings(hass_server: Client) -> Iterator[None]:
    _set_options(hass_server, DEAD_SERVICE)
    try:
        deadline = time.monotonic() + 60
        while True:  # the entry reloads with the new options
            try:
                if _search(hass_server).get("degraded"):
                    break
            except AssertionError:
                pass
            assert time.monotonic() < deadline, "search never reported the dead service"
            time.sleep(0.5)
        yield
    finally:
        _set_options(hass_server, {"embedding_kind": "none"})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if not _search(hass_server).get("degraded"):
                    break
            except AssertionError:
                pass
            time.sleep(0.5)


def _banner(ui: Ui) -> None:
    page = ui.open("search")
    page.locator("#strategy").select_option("semantic")
    page.locator("#min-score").fill("0")
    page.locator("#query").press_sequentially("灯", delay=20)
    banner = page.locator("#degraded")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(
        ui.t(
            "search.degraded", code="EMBEDDING_NOT_READY", fallback=ui.t("search.fallback.hashing")
        )
    )
    expect(page.locator("#results tr.hit").first).to_be_visible()  # still answered
    ui.shot("search-degraded", full_page=False)
    # Keyword search does not use the semantic side: no banner.
    page.locator("#strategy").select_option("keyword")
    expect(page.locator("#degraded")).to_have_count(0)
    expect(page.locator("#results tr.hit").first).to_be_visible()


def test_banner_when_semantic_search_is_down(in_browser: Any, dead_embeddings: None) -> None:
    in_browser(_banner)
