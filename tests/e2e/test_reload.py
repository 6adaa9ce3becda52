"""Unloading and reloading the entry in a real Home Assistant, as a user does it in Settings →
Devices & services (disable, enable, reload), and talking to Assist around it: over the websocket
API the Assist dialog uses (`assist_pipeline/run`) and the REST conversation API.

While the entry is unloaded, Assist answers with Home Assistant's own agent (the pipeline that
talked to ours is handed over, not left pointing at an agent that is gone); once it is back,
the pipeline talks to our agent again; a reload keeps what "it" refers to; and the server log
has no error or warning from the integration.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import pytest

from .conftest import Client, devhome

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

DOMAIN = "context_retrieval"
HOME_ASSISTANT_AGENT = "conversation.home_assistant"
READING = "light.living_room_reading"
SECONDS = 60


class Websocket:
    """Home Assistant's websocket API with the long-lived token."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.last_id = 0

    async def send(self, command: str, **payload: Any) -> int:
        self.last_id += 1
        await self.ws.send_json({"id": self.last_id, "type": command, **payload})
        return self.last_id

    async def _next(self, message_id: int) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = await self.ws.receive_json(timeout=SECONDS)
            if message.get("id") == message_id:
                return message

    async def command(self, command: str, **payload: Any) -> Any:
        message = await self._next(await self.send(command, **payload))
        assert message.get("success"), (command, message)
        return message.get("result")

    async def assist(self, text: str) -> dict[str, Any]:
        """What the Assist dialog does with typed text: the preferred pipeline, from text to
        an answer; every event by its type."""
        message_id = await self.send(
            "assist_pipeline/run",
            start_stage="intent",
            end_stage="intent",
            input={"text": text},
        )
        started = await self._next(message_id)
        assert started.get("success"), started
        events: dict[str, Any] = {}
        while True:
            event = (await self._next(message_id))["event"]
            events[event["type"]] = event.get("data")
            if event["type"] in ("run-end", "error"):
                return events


def _with_websocket(ha: Client, body: Callable[[Websocket], Awaitable[None]]) -> None:
    async def run() -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(ha.url + "/api/websocket") as ws,
        ):
            assert (await ws.receive_json(timeout=SECONDS))["type"] == "auth_required"
            await ws.send_json({"type": "auth", "access_token": ha.token})
            assert (await ws.receive_json(timeout=SECONDS))["type"] == "auth_ok"
            await body(Websocket(ws))

    asyncio.run(run())


def _spoken(events: dict[str, Any]) -> str:
    assert "error" not in events, events["error"]
    return str(events["intent-end"]["intent_output"]["response"]["speech"]["plain"]["speech"])


def _entry(ha: Client) -> dict[str, Any]:
    entries = ha.request("GET", f"/api/config/config_entries/entry?domain={DOMAIN}")
    assert len(entries) == 1, entries
    entry: dict[str, Any] = entries[0]
    return entry


async def _engine(ws: Websocket) -> str:
    listing = await ws.command("assist_pipeline/pipeline/list")
    preferred = next(p for p in listing["pipelines"] if p["id"] == listing["preferred_pipeline"])
    return str(preferred["conversation_engine"])


async def _until(check: Callable[[], Awaitable[bool]]) -> None:
    """Setting up and unloading finish in the background of a websocket answer."""
    for _ in range(SECONDS * 4):
        if await check():
            return
        await asyncio.sleep(0.25)
    raise AssertionError("timed out")


def test_assist_keeps_answering_while_the_entry_is_disabled_and_after(ha: Client) -> None:
    before = devhome.integration_records(ha.config_dir)
    entry_id = _entry(ha)["entry_id"]

    async def body(ws: Websocket) -> None:
        assert await _engine(ws) == ha.agent_id
        ha.call("light", "turn_off", entity_id=READING)
        # Our agent: a room and a name only we resolve among the demo's same-named lamps.
        _spoken(await ws.assist("打开客厅的阅读灯"))
        assert ha.state(READING) == "on"

        await ws.command("config_entries/disable", entry_id=entry_id, disabled_by="user")
        try:

            async def unloaded() -> bool:
                return _entry(ha)["state"] == "not_loaded"

            await _until(unloaded)
            # Home Assistant's own agent answers, not "Intent recognition engine … is not
            # found" until the user edits the pipeline by hand.
            assert await _engine(ws) == HOME_ASSISTANT_AGENT
            assert _spoken(await ws.assist("what time is it"))
        finally:
            await ws.command("config_entries/disable", entry_id=entry_id, disabled_by=None)

        async def loaded() -> bool:
            return _entry(ha)["state"] == "loaded"

        await _until(loaded)
        assert await _engine(ws) == ha.agent_id  # taken back
        _spoken(await ws.assist("关掉客厅的阅读灯"))
        assert ha.state(READING) == "off"

    _with_websocket(ha, body)
    assert devhome.integration_records(ha.config_dir) == before


def test_a_reload_keeps_the_conversation_going(ha: Client) -> None:
    before = devhome.integration_records(ha.config_dir)
    entry_id = _entry(ha)["entry_id"]
    ha.call("light", "turn_off", entity_id=READING)
    first = ha.converse("打开客厅的阅读灯", "zh-Hans")
    assert ha.state(READING) == "on"
    conversation_id = first["conversation_id"]

    reloaded = ha.request("POST", f"/api/config/config_entries/entry/{entry_id}/reload")
    assert reloaded["require_restart"] is False
    assert _entry(ha)["state"] == "loaded"
    # Right after the reload the agent answers, and "it" is still the reading light.
    ha.converse("把它关掉", "zh-Hans", conversation_id)
    assert ha.state(READING) == "off"
    answer = ha.converse("turn on the living room reading light", "en")
    assert answer["response"]["response_type"] == "action_done"
    assert ha.state(READING) == "on"
    ha.call("light", "turn_off", entity_id=READING)
    assert devhome.integration_records(ha.config_dir) == before
