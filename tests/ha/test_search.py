"""`context_retrieval.search`: explainable entity search over the exposed entities."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval import services
from custom_components.context_retrieval.const import DOMAIN
from custom_components.context_retrieval.services import search as search_service


async def search(hass: HomeAssistant, query: str, **data: Any) -> dict[str, Any]:
    return await hass.services.async_call(
        DOMAIN, "search", {"query": query, **data}, blocking=True, return_response=True
    )


async def test_results_are_explained_and_marked(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    found = await search(hass, "台灯")
    ids = [r["entity_id"] for r in found["results"]]
    assert set(ids[:2]) == {"light.study_desk", "light.bedroom_desk"}
    first = found["results"][0]
    assert "[[台灯]]" in first["matched"]
    assert set(first["score_breakdown"]) == {"keyword", "semantic", "recency"}
    expected = (
        0.55 * first["score_breakdown"]["keyword"]
        + 0.35 * first["score_breakdown"]["semantic"]
        + 0.10 * first["score_breakdown"]["recency"]
    )
    assert first["score"] == pytest.approx(expected, abs=1e-3)
    assert all(r["score"] >= 0.25 for r in found["results"])
    assert found["index_state"] in ("ready", "rebuilding")


async def test_recently_changed_entities_rank_first_among_equals(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    hass.states.async_set("light.bedroom_desk", "on", {"friendly_name": "台灯"})
    found = await search(hass, "台灯")
    assert found["results"][0]["entity_id"] == "light.bedroom_desk"


async def test_an_entity_just_used_in_a_conversation_ranks_first(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, freezer: Any
) -> None:
    """Recency counts what a conversation just used; searching after any conversation turn
    once failed with a TypeError."""
    # Every state of the test home changed at setup; an hour later only what a conversation
    # used is recent, so the two desk lamps no longer tie on recency.
    freezer.tick(3600)
    await hass.services.async_call(
        DOMAIN,
        "retrieve",
        {"text": "打开书房的台灯", "conversation_id": "c1"},
        blocking=True,
        return_response=True,
    )
    found = await search(hass, "台灯")
    assert found["results"][0]["entity_id"] == "light.study_desk"
    assert found["results"][0]["score_breakdown"]["recency"] == 1.0
    explained = await hass.services.async_call(
        DOMAIN, "retrieve", {"text": "台灯", "explain": True}, blocking=True, return_response=True
    )
    candidates = explained["commands"][0]["candidates"]
    assert any(
        c["explain"]["recency"] == 1.0 for c in candidates if c["entity_id"] == "light.study_desk"
    )


async def test_unexposed_entities_never_appear(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
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


async def test_odd_queries_answer_empty_not_crash(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    for query in ("", "   ", "\u202e\u200b", "🙂" * 500, "x" * 9000):
        found = await search(hass, query)
        assert isinstance(found["results"], list)


async def test_without_a_loaded_entry_it_says_so(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    await hass.config_entries.async_unload(loaded_entry.entry_id)
    with pytest.raises(ServiceValidationError) as err:
        await search(hass, "灯")
    assert err.value.translation_key == "not_loaded"


async def test_more_calls_at_once_than_the_limit_are_told_to_retry_and_the_rest_finish(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    real = search_service.search

    def held(*args: Any, **kwargs: Any) -> Any:
        release.wait(10)  # every accepted call is still in progress when the excess arrives
        return real(*args, **kwargs)

    monkeypatch.setattr(search_service, "search", held)
    # A lower limit than the real one: holding 64 calls took every executor thread of the
    # test's Home Assistant, and on a loaded machine one outlived its shutdown (a CI error).
    monkeypatch.setattr(services, "MAX_CONCURRENT_CALLS", 4)
    calls = [asyncio.create_task(search(hass, "台灯")) for _ in range(4)]
    await asyncio.sleep(0.1)
    excess = await asyncio.gather(
        *(search(hass, "台灯") for _ in range(10)), ask_question(hass), retrieve(hass)
    )
    assert all(r == {"code": "SEARCH_BACKPRESSURE", "retry_after_ms": 200} for r in excess)
    release.set()
    done = await asyncio.gather(*calls)
    assert all(r["results"] for r in done)  # every accepted call finished with its answer
    data = loaded_entry.runtime_data
    assert data.in_flight == 0 and data.backpressured == 12
    assert (await search(hass, "台灯"))["results"]  # and the next one is accepted again


async def ask_question(hass: HomeAssistant) -> Any:
    return await hass.services.async_call(
        DOMAIN, "natural_query", {"question": "哪些灯开着"}, blocking=True, return_response=True
    )


async def retrieve(hass: HomeAssistant) -> Any:
    return await hass.services.async_call(
        DOMAIN, "retrieve", {"text": "打开台灯"}, blocking=True, return_response=True
    )


async def test_retrieve_can_explain_its_candidates_on_the_search_scale(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    plain = await hass.services.async_call(
        DOMAIN, "retrieve", {"text": "打开台灯"}, blocking=True, return_response=True
    )
    assert "candidates" not in plain["commands"][0]  # concise unless asked
    told = await hass.services.async_call(
        DOMAIN,
        "retrieve",
        {"text": "打开台灯", "explain": True},
        blocking=True,
        return_response=True,
    )
    for item in told["commands"][0]["candidates"]:
        e = item["explain"]
        assert set(e) == {"keyword", "semantic", "recency", "score"}
        assert e["score"] == pytest.approx(
            0.55 * e["keyword"] + 0.35 * e["semantic"] + 0.10 * e["recency"], abs=1e-3
        )
    assert max(i["explain"]["keyword"] for i in told["commands"][0]["candidates"]) == 1.0


async def test_a_chinese_word_inside_a_room_word_is_no_match_of_that_word(
    hass: HomeAssistant, live_home: dict[str, Any]
) -> None:
    """In the demo home "台灯" (desk lamp) found 阳台灯, the balcony light (阳台 + 灯), above
    the study's 老台灯 (old desk lamp)."""
    found = await search(hass, "台灯", page_size=50)
    ranked = [r["entity_id"] for r in found["results"]]
    scores = {r["entity_id"]: r["score"] for r in found["results"]}
    balcony = scores.get("light.balcony_light", 0.0)  # below the floor is left out
    assert balcony < 0.6 * scores["light.study_old_lamp"]
    assert ranked.index("light.study_old_lamp") < 4  # after the three named 台灯 only


async def test_a_query_that_shares_no_word_with_any_name_scores_no_hit_high(
    hass: HomeAssistant, live_home: dict[str, Any]
) -> None:
    """ "tele" is a whole word of no name in the demo home: every keyword hit was weakened
    for it, then divided by the best (weakened) one, so the kettle still scored 0.53."""
    found = await search(hass, "tele", page_size=50)
    assert found["results"][0]["entity_id"] == "media_player.living_room_tv"
    assert all(r["score_breakdown"]["keyword"] <= 0.6 + 1e-6 for r in found["results"])
    assert all(r["score"] <= 0.5 for r in found["results"])
