"""Taking an entity from Assist takes it out of every answer at once: the caches and stores
written while it was exposed (question plans, suggestions, view members and their sensors)
included, and not only after the index is rebuilt.

The front door lock is asked about, put in a view and searched for while exposed; then it is
un-exposed and every output is read again, by a non-admin user where the service allows one:
its id and its name appear in none, before the rebuild and after it.
"""

from __future__ import annotations

import json
from typing import Any

from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser

from custom_components.context_retrieval.const import DOMAIN

DOOR = "lock.front_door"
DOOR_NAME = "入户门锁"
QUESTION = "入户门锁锁了吗？"


async def call(
    hass: HomeAssistant, service: str, data: dict[str, Any], user: MockUser
) -> dict[str, Any]:
    answer: dict[str, Any] = await hass.services.async_call(
        DOMAIN, service, data, blocking=True, return_response=True, context=Context(user.id)
    )
    return answer


async def _outputs(
    hass: HomeAssistant, reader: MockUser, admin: MockUser, plan_id: str, ws: Any
) -> dict[str, Any]:
    """Everything that could name the door, read now."""
    out: dict[str, Any] = {}
    out["ask"] = await call(hass, "natural_query", {"question": QUESTION}, reader)
    out["ask_en"] = await call(
        hass, "natural_query", {"question": "is the front door locked?"}, reader
    )
    out["list"] = await call(hass, "list_query_plans", {}, reader)
    try:
        out["get"] = await call(hass, "get_query_plan", {"plan_id": plan_id}, reader)
    except Exception as err:  # "not found" is what is expected
        out["get"] = type(err).__name__
    out["suggest"] = await call(
        hass, "natural_query_suggest", {"question": QUESTION, "threshold": 0}, reader
    )
    out["views"] = await call(hass, "list_view_rules", {}, reader)
    out["preview"] = await call(hass, "preview_view_rule", {"rule": "area:客厅"}, reader)
    out["search"] = await call(hass, "search", {"query": DOOR_NAME, "min_score": 0}, reader)
    out["retrieve"] = await call(
        hass, "retrieve", {"text": f"打开{DOOR_NAME}", "explain": True}, reader
    )
    out["rename"] = await call(hass, "rename_preview", {"find": "门锁", "replace": "锁"}, admin)
    sensor = er.async_get(hass).async_get_entity_id("sensor", DOMAIN, "view_living")
    assert sensor is not None
    out["sensor"] = dict(hass.states.get(sensor).attributes)  # type: ignore[union-attr]
    await ws.send_json_auto_id({"type": f"{DOMAIN}/try", "text": f"打开{DOOR_NAME}"})
    out["try"] = await ws.receive_json()
    return out


# These echo what the user said, which holds the door's name: only its id counts there.
ECHOES = frozenset({"retrieve", "try"})


def _named(outputs: dict[str, Any]) -> list[str]:
    return [
        key
        for key, value in outputs.items()
        if DOOR in (text := json.dumps(value, ensure_ascii=False))
        or (DOOR_NAME in text and key not in ECHOES)
    ]


async def test_an_entity_taken_from_assist_leaves_every_answer_at_once(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    hass_read_only_user: MockUser,
    hass_admin_user: MockUser,
    hass_ws_client: Any,
) -> None:
    reader, admin = hass_read_only_user, hass_admin_user
    asked = await call(hass, "natural_query", {"question": QUESTION}, reader)
    assert asked["success"] and DOOR in json.dumps(asked["plan"])
    await call(hass, "publish_view_rule", {"name": "Living", "rule": "area:客厅"}, admin)
    await hass.async_block_till_done()
    ws = await hass_ws_client(hass)
    before = await _outputs(hass, reader, admin, asked["plan_id"], ws)
    assert set(_named(before)) >= {"ask", "list", "get", "suggest", "sensor", "search", "rename"}

    async_expose_entity(hass, "conversation", DOOR, False)
    # Before the index is rebuilt (a debounced rebuild has not run yet).
    builds = loaded_entry.runtime_data.manager.builds
    now = await _outputs(hass, reader, admin, asked["plan_id"], ws)
    assert loaded_entry.runtime_data.manager.builds == builds
    assert _named(now) == []
    assert now["get"] == "InvalidRequest"

    await loaded_entry.runtime_data.manager.async_rebuild()
    await hass.async_block_till_done()
    assert _named(await _outputs(hass, reader, admin, asked["plan_id"], ws)) == []

    # Exposed again, it is back: the cache kept the plan.
    async_expose_entity(hass, "conversation", DOOR, True)
    await loaded_entry.runtime_data.manager.async_rebuild()
    await hass.async_block_till_done()
    again = await call(hass, "get_query_plan", {"plan_id": asked["plan_id"]}, reader)
    assert DOOR in json.dumps(again)
