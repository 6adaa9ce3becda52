"""The probe's finding, against the real server: "is the front door locked?" is asked (a plan
naming `lock.front_door` is cached), the lock is un-exposed, and at once, without waiting for
the index, no output a non-admin user can read names it: natural_query, list_query_plans,
get_query_plan, natural_query_suggest, search, retrieve, the views' sensors.

`-s` prints the figures: `python -m pytest tests/e2e/test_unexposed.py -s`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import Client
from .test_security import non_admin_token, service, ws

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

DOOR = "lock.front_door"
NAME = "前门门锁"


def _expose(ha: Client, exposed: bool) -> None:
    ws(
        ha,
        (
            "homeassistant/expose_entity",
            {"assistants": ["conversation"], "entity_ids": [DOOR], "should_expose": exposed},
        ),
    )


def test_an_unexposed_lock_leaves_every_output_at_once(ha: Client) -> None:
    token = non_admin_token(ha)
    status, asked = service(ha, "natural_query", token, question="is the front door locked?")
    assert status == 200 and asked["success"], asked
    assert DOOR in json.dumps(asked["plan"]), asked["plan"]
    assert service(ha, "publish_view_rule", name="Probe doors", rule="门锁")[0] == 200
    _expose(ha, False)
    try:
        outputs: dict[str, Any] = {
            "ask": service(ha, "natural_query", token, question="is the front door locked?"),
            "list": service(ha, "list_query_plans", token),
            "get": service(ha, "get_query_plan", token, plan_id=asked["plan_id"]),
            "suggest": service(
                ha, "natural_query_suggest", token, question="is the front door locked", threshold=0
            ),
            "search": service(ha, "search", token, query="front door lock", min_score=0),
            "retrieve": service(ha, "retrieve", token, text="unlock the front door", explain=True),
            "views": service(ha, "list_view_rules", token),
            "sensors": [
                s
                for s in ha.request("GET", "/api/states")
                if s["entity_id"].startswith("sensor.") and "compile_source" in s["attributes"]
            ],
        }
        leaks = sorted(
            key
            for key, value in outputs.items()
            if DOOR in (text := json.dumps(value, ensure_ascii=False))
            or (NAME in text and key != "retrieve")
        )
        print(f"\nun-exposed lock, no rebuild awaited: named in {len(leaks)} of {len(outputs)}")
        assert outputs["get"][0] == 400  # as if there were no such plan
        assert not leaks, {k: outputs[k] for k in leaks}
    finally:
        _expose(ha, True)
        service(ha, "delete_view_rule", name="Probe doors")
        service(ha, "rebuild_index")
