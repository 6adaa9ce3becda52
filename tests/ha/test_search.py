"""`context_retrieval.search`: explainable entity search over the exposed entities."""

from __future__ import annotations

import json
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval.const import DOMAIN


async def search(hass: HomeAssistant, query: str, **data: Any) -> dict[str, Any]:
    return await hass.services.async_call(DOMAIN, "search", {"query": query, **data},
                                          blocking=True, return_response=True)


async def test_results_are_explained_and_marked(hass: HomeAssistant,
                                                loaded_entry: MockConfigEntry) -> None:
    found = await search(hass, "台灯")
    ids = [r["entity_id"] for r in found["results"]]
    assert set(ids[:2]) == {"light.study_desk", "light.bedroom_desk"}
    first = found["results"][0]
    assert "[[台灯]]" in first["matched"]
    assert set(first["score_breakdown"]) == {"keyword", "semantic", "recency"}
    expected = (0.55 * first["score_breakdown"]["keyword"]
                + 0.35 * first["score_breakdown"]["semantic"]
                + 0.10 * first["score_breakdown"]["recency"])
    assert first["score"] == pytest.approx(expected, abs=1e-3)
    assert all(r["score"] >= 0.25 for r in found["results"])
    assert found["index_state"] in ("ready", "rebuilding")


async def test_recently_changed_entities_rank_first_among_equals(
        hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    hass.states.async_set("light.bedroom_desk", "on", {"friendly_name": "台灯"})
    found = await search(hass, "台灯")
    assert found["results"][0]["entity_id"] == "light.bedroom_desk"


async def test_unexposed_entities_never_appear(hass: HomeAssistant,
                                               loaded_entry: MockConfigEntry) -> None:
    for strategy in ("keyword", "semantic", "hybrid"):
        found = await search(hass, "Secret Plug", strategy=strategy, min_score=0)
        assert "secret" not in json.dumps(found, ensure_ascii=False).lower(), strategy


async def test_pages_and_limits(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    one = await search(hass, "灯", page_size=1, min_score=0)
    assert len(one["results"]) == 1 and one["has_more"] is True
    two = await search(hass, "灯", page_size=1, page=2, min_score=0)
    assert two["results"][0]["entity_id"] != one["results"][0]["entity_id"]
    with pytest.raises(Exception):  # noqa: B017 - voluptuous rejects it before the handler
        await search(hass, "灯", page_size=51)
    with pytest.raises(Exception):  # noqa: B017
        await search(hass, "灯", strategy="telepathy")


async def test_odd_queries_answer_empty_not_crash(hass: HomeAssistant,
                                                  loaded_entry: MockConfigEntry) -> None:
    for query in ("", "   ", "\u202e\u200b", "🙂" * 500, "x" * 9000):
        found = await search(hass, query)
        assert isinstance(found["results"], list)


async def test_without_a_loaded_entry_it_says_so(hass: HomeAssistant,
                                                 loaded_entry: MockConfigEntry) -> None:
    await hass.config_entries.async_unload(loaded_entry.entry_id)
    with pytest.raises(ServiceValidationError) as err:
        await search(hass, "灯")
    assert err.value.translation_key == "not_loaded"
