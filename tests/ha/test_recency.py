"""Recency in search and explained retrieval counts what conversations just used."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval.const import DOMAIN
from tests.ha.conftest import call_retrieve


async def test_search_after_a_conversation(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    # A conversation that used the floor lamp (this once failed: the recent entities were
    # called as a method).
    await call_retrieve(hass, "打开客厅的落地灯", conversation_id="c1")
    found = await hass.services.async_call(
        DOMAIN, "search", {"query": "灯", "min_score": 0}, blocking=True, return_response=True
    )
    lamp = next(r for r in found["results"] if r["entity_id"] == "light.living_lamp")
    others = [r for r in found["results"] if r["entity_id"] != "light.living_lamp"]
    assert lamp["score_breakdown"]["recency"] >= max(
        r["score_breakdown"]["recency"] for r in others
    )
    explained = await call_retrieve(hass, "关掉它", conversation_id="c1", explain=True)
    selected = explained["commands"][0]["selected"]
    assert [c["entity_id"] for c in selected] == ["light.living_lamp"]
    assert selected[0]["explain"]["recency"] > 0
