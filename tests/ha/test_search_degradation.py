"""A search answered by the built-in vectors says so even when an embedding rebuild swaps the
searcher while the search runs (seen in the panel: the banner came and went)."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant

from custom_components.context_retrieval.core.base.embedding_search import FallbackSearcher
from custom_components.context_retrieval.services import search as search_service
from tests.core.base.embedding.server import STATE, _no_proxy, _reset_server, server  # noqa: F401
from tests.ha.test_vectors import search, setup


@pytest.fixture
def url(server: str) -> str:  # noqa: F811 - the imported fixture
    return server


async def test_degradation_of_the_searcher_that_answered(
    hass: HomeAssistant, home: dict[str, str], url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = await setup(hass, url)
    STATE.mode = "error500"
    vectors = entry.runtime_data.vectors
    real = search_service.search

    def search_then_rebuilt(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        # An index rebuild finished meanwhile: a fresh searcher that has answered nothing yet.
        current = vectors.searcher
        vectors.searcher = FallbackSearcher(current.primary, current.fallback)
        return found

    monkeypatch.setattr(search_service, "search", search_then_rebuilt)
    found = await search(hass, "bedroom fan please", strategy="semantic", min_score=0)
    assert {"code": "EMBEDDING_HTTP_ERROR", "fallback": "hashing"} in found["degraded"]
