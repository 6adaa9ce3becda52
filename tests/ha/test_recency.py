"""Recency in search and explained retrieval counts what conversations just used; every
service answers after a conversation."""

from __future__ import annotations

from typing import Any

from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import intent
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_mock_service

from custom_components.context_retrieval.const import DOMAIN
from tests.ha.conftest import call_retrieve
from tests.ha.fakes import our_agent_id


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


async def test_every_service_answers_after_a_conversation_through_the_agent(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    """After a turn of the conversation agent (which leaves what "it" refers to behind), every
    service still answers: `search` and `retrieve` with `explain` once crashed there (the
    recent entities were called as a method)."""
    assert await async_setup_component(hass, "intent", {})
    async_mock_service(hass, "light", "turn_on")
    result = await conversation.async_converse(
        hass, "打开老伙计", "after-turn", Context(), "zh-cn", agent_id=our_agent_id(hass)
    )
    assert result.response.response_type is intent.IntentResponseType.ACTION_DONE
    assert loaded_entry.runtime_data.states["after-turn"].recent_entity_ids

    async def call(service: str, **data: Any) -> dict[str, Any]:
        called.add(service)
        return await hass.services.async_call(
            DOMAIN, service, data, blocking=True, return_response=True
        )

    called: set[str] = set()
    found = await call("search", query="灯", min_score=0)
    assert any(r["entity_id"] == "light.living_lamp" for r in found["results"])
    explained = await call("retrieve", text="关掉它", conversation_id="after-turn", explain=True)
    assert explained["commands"][0]["selected"][0]["entity_id"] == "light.living_lamp"
    assert (await call("rebuild_index"))["entities"] > 0
    assert (await call("preview_view_rule", rule="灯 并且 客厅"))["ok"] is True
    await call("publish_view_rule", name="Living", rule="灯 并且 客厅")
    await call("publish_view_rule", name="Living", rule="灯")
    assert [r["name"] for r in (await call("list_view_rules"))["rules"]] == ["Living"]
    revisions = await call("list_view_rule_revisions", name="Living")
    assert len(revisions["revisions"]) == 2
    await call("rollback_view_rule", name="Living")
    await call("delete_view_rule", name="Living")
    answer = await call("natural_query", question="哪些灯开着？")
    assert answer["success"] is True
    await call("natural_query_suggest", question="哪些灯开着")
    assert (await call("list_query_plans"))["plans"]
    plan_id = answer["plan_id"]
    assert (await call("get_query_plan", plan_id=plan_id))["id"] == plan_id
    await call("update_query_plan", plan_id=plan_id, is_valid=False)
    await call("delete_query_plan", plan_id=plan_id)
    assert (await call("rename_preview", find="老伙计", replace="老朋友", target="aliases"))[
        "entities"
    ]
    done = await call("rename_execute", find="老伙计", replace="老朋友", target="aliases")
    await call("rename_rollback", snapshot_id=done["snapshot_id"])
    assert called == set(hass.services.async_services_for_domain(DOMAIN))
