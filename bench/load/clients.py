"""The clients a run talks through: websocket connections and REST, and the mix of calls."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from .calls import (
    CALL_TIMEOUT,
    DOMAIN,
    QUESTIONS,
    RETRIEVE_TEXTS,
    SEARCH_QUERIES,
    Call,
    classify_rest,
    classify_ws,
)

WS_CONNECTIONS = 4


class WsClient:
    """One authenticated websocket connection; calls are matched to answers by id."""

    def __init__(self, session: aiohttp.ClientSession, url: str, token: str) -> None:
        self.session = session
        self.url = url.replace("http", "ws", 1) + "/api/websocket"
        self.token = token
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.ws = await self.session.ws_connect(self.url, max_msg_size=0, heartbeat=None)
        hello = await self.ws.receive_json()
        assert hello["type"] == "auth_required", hello
        await self.ws.send_json({"type": "auth", "access_token": self.token})
        ok = await self.ws.receive_json()
        if ok.get("type") != "auth_ok":
            raise RuntimeError(f"websocket auth failed: {ok}")
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            for item in data if isinstance(data, list) else [data]:
                future = self._pending.pop(item.get("id"), None)
                if future is not None and not future.done():
                    future.set_result(item)
        error = ConnectionError("websocket closed")
        for future in self._pending.values():
            if not future.done():
                future.set_exception(error)
        self._pending.clear()

    async def send(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The raw result message of one command."""
        assert self.ws is not None
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        await self.ws.send_json({"id": ident, **payload})
        return await future

    async def command(self, command: str, **data: Any) -> Any:
        """A config command's result; raises on an error result."""
        message = await asyncio.wait_for(self.send({"type": command, **data}), CALL_TIMEOUT)
        if not message.get("success"):
            raise RuntimeError(f"{command}: {message.get('error')}")
        return message.get("result")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader


@dataclass
class Target:
    url: str
    token: str
    session: aiohttp.ClientSession
    ws: list[WsClient] = field(default_factory=list)

    async def rest(self, service: str, data: dict[str, Any]) -> tuple[Call, Any]:
        started = time.perf_counter()
        try:
            async with asyncio.timeout(CALL_TIMEOUT):
                async with self.session.post(
                    f"{self.url}/api/services/{DOMAIN}/{service}?return_response",
                    json=data,
                    headers={"Authorization": f"Bearer {self.token}"},
                ) as resp:
                    text = await resp.text()
                    status = resp.status
        except TimeoutError:
            return Call("rest", service, "timeout", _since(started), "30 s"), None
        except aiohttp.ClientError as err:
            return Call("rest", service, "error", _since(started), repr(err)[:200]), None
        outcome, detail = classify_rest(status, text)
        body = None
        if outcome == "ok":
            with contextlib.suppress(ValueError):
                body = json.loads(text).get("service_response")
        return Call("rest", service, outcome, _since(started), detail), body

    async def websocket(
        self, client: WsClient, service: str, data: dict[str, Any]
    ) -> tuple[Call, Any]:
        started = time.perf_counter()
        try:
            message = await asyncio.wait_for(
                client.send(
                    {
                        "type": "call_service",
                        "domain": DOMAIN,
                        "service": service,
                        "service_data": data,
                        "return_response": True,
                    }
                ),
                CALL_TIMEOUT,
            )
        except TimeoutError:
            return Call("websocket", service, "timeout", _since(started), "30 s"), None
        except (ConnectionError, aiohttp.ClientError) as err:
            return Call("websocket", service, "error", _since(started), repr(err)[:200]), None
        outcome, detail = classify_ws(message)
        body = (message.get("result") or {}).get("response") if outcome == "ok" else None
        return Call("websocket", service, outcome, _since(started), detail), body

    async def native(self, transport: str, client: int = 0) -> tuple[Call, Any]:
        """A call of Home Assistant's own, as cheap as it gets (its configuration): the traffic
        of a soak with the integration's services off."""
        started = time.perf_counter()
        try:
            if transport == "rest":
                async with asyncio.timeout(CALL_TIMEOUT):
                    async with self.session.get(
                        f"{self.url}/api/config",
                        headers={"Authorization": f"Bearer {self.token}"},
                    ) as resp:
                        await resp.read()
                        outcome, detail = classify_rest(resp.status, "")
            else:
                ws = self.ws[client % len(self.ws)]
                message = await asyncio.wait_for(ws.send({"type": "get_config"}), CALL_TIMEOUT)
                outcome, detail = classify_ws(message)
        except TimeoutError:
            return Call(transport, "config", "timeout", _since(started), "30 s"), None
        except (ConnectionError, aiohttp.ClientError) as err:
            return Call(transport, "config", "error", _since(started), repr(err)[:200]), None
        return Call(transport, "config", outcome, _since(started), detail), None

    async def call(
        self, transport: str, service: str, data: dict[str, Any], client: int = 0
    ) -> tuple[Call, Any]:
        if transport == "rest":
            return await self.rest(service, data)
        return await self.websocket(self.ws[client % len(self.ws)], service, data)


def _since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def mixed_calls(n: int) -> list[tuple[str, dict[str, Any]]]:
    """n service calls cycling retrieve / search / natural_query over zh and en texts."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for i in range(n):
        kind = i % 3
        if kind == 0:
            calls.append(("retrieve", {"text": RETRIEVE_TEXTS[i // 3 % len(RETRIEVE_TEXTS)]}))
        elif kind == 1:
            calls.append(("search", {"query": SEARCH_QUERIES[i // 3 % len(SEARCH_QUERIES)]}))
        else:
            calls.append(("natural_query", {"question": QUESTIONS[i // 3 % len(QUESTIONS)]}))
    return calls


async def connect(url: str, token: str) -> tuple[aiohttp.ClientSession, Target]:
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    target = Target(url, token, session)
    for _ in range(WS_CONNECTIONS):
        client = WsClient(session, url, token)
        await client.connect()
        target.ws.append(client)
    return session, target


async def disconnect(session: aiohttp.ClientSession, target: Target) -> None:
    for client in target.ws:
        with contextlib.suppress(Exception):
            await client.close()
    await session.close()
