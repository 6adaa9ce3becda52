"""An embedding service as the semantic side, against a real HTTP server on 127.0.0.1:
used when it answers, visible degradation when it fails, quarantine on a wrong dimension."""

from __future__ import annotations

import time
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.context_retrieval.const import DOMAIN

# The embedding server on 127.0.0.1 and its fixtures.
from tests.core.base.embedding.server import STATE, _no_proxy, _reset_server, server  # noqa: F401
from tests.ha.conftest import add_entity
from tests.ha.fakes import async_setup_integration


@pytest.fixture
def url(server: str) -> str:  # noqa: F811 - the imported fixture
    return server


async def search(hass: HomeAssistant, query: str, **data: Any) -> dict[str, Any]:
    return await hass.services.async_call(
        DOMAIN, "search", {"query": query, **data}, blocking=True, return_response=True
    )


async def setup(hass: HomeAssistant, url: str, **options: Any) -> Any:
    # The test server's vectors follow English keywords ("garage", "lamp", …) in the text.
    await add_entity(hass, "light.garage_lamp", "garage lamp", "off")
    entry = await async_setup_integration(
        hass,
        embedding_kind="ollama",
        embedding_url=f"{url}/api/embed",
        embedding_model="test-embed",
        embedding_api_key="sk-test-SECRET-abcdef123456",
        **options,
    )
    await hass.async_block_till_done()
    return entry


async def test_the_service_is_used_when_configured(
    hass: HomeAssistant, home: dict[str, str], url: str
) -> None:
    entry = await setup(hass, url)
    status = entry.runtime_data.vectors.status()
    assert status["configured"] and status["vectors"] == len(entry.runtime_data.manager.index)
    assert status["dimension"] == 8
    before = len(STATE.requests)
    found = await search(hass, "lamp in the garage", strategy="semantic", min_score=0)
    assert len(STATE.requests) > before  # the query itself was embedded by the service
    assert "degraded" not in found or not found["degraded"]
    assert found["results"][0]["entity_id"] == "light.garage_lamp"


async def test_a_failing_service_falls_back_and_says_so(
    hass: HomeAssistant, home: dict[str, str], url: str
) -> None:
    await setup(hass, url)
    STATE.mode = "error500"
    found = await search(hass, "bedroom fan please", strategy="hybrid", min_score=0)
    assert {"code": "EMBEDDING_HTTP_ERROR", "fallback": "hashing"} in found["degraded"]
    assert found["results"]  # the built-in vectors and keywords still answer
    answer = await hass.services.async_call(
        DOMAIN, "retrieve", {"text": "打开厨房的吸顶灯"}, blocking=True, return_response=True
    )
    command = answer["commands"][0]
    assert [s["entity_id"] for s in command["selected"]] == ["light.kitchen_ceiling"]
    assert command["meta"]["semantic_degraded"]["code"] == "EMBEDDING_HTTP_ERROR"


async def test_a_slow_service_times_out_quickly(
    hass: HomeAssistant, home: dict[str, str], url: str
) -> None:
    await setup(hass, url, embedding_timeout=0.3)
    STATE.delay = 3.0
    started = time.monotonic()
    found = await search(hass, "garage door", strategy="semantic", min_score=0)
    assert time.monotonic() - started < 2.0
    assert {"code": "EMBEDDING_TIMEOUT", "fallback": "hashing"} in found["degraded"]


async def test_wrong_dimensions_are_quarantined_and_the_rest_keeps_serving(
    hass: HomeAssistant, home: dict[str, str], url: str, hass_client: ClientSessionGenerator
) -> None:
    entry = await setup(hass, url)
    STATE.mode = "odd"  # vectors of another length for texts with "weird"
    await add_entity(hass, "light.weird_lamp", "weird lamp", "off", home["study"])
    await entry.runtime_data.manager.async_rebuild()
    await hass.async_block_till_done()
    status = entry.runtime_data.vectors.status()
    assert status["quarantined"] == 1
    assert "EMBEDDING_DIMENSION_MISMATCH" in status["problems"]
    STATE.mode = "ok"
    found = await search(hass, "lamp in the garage", strategy="semantic", min_score=0)
    assert found["results"][0]["entity_id"] == "light.garage_lamp"
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, entry)
    assert diagnostics["embeddings"]["quarantined"] == 1
    assert "sk-test-SECRET" not in str(diagnostics)  # the key is redacted
