"""Home Assistant's REST and websocket APIs, and logging in (the owner is created through
onboarding on the first start)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import time
from pathlib import Path
from typing import Any

import aiohttp

from .common import STDOUT_FILE, DevHomeError
from .process import log_tail


class Api:
    """Home Assistant's REST and websocket APIs with one access token."""

    def __init__(self, session: aiohttp.ClientSession, url: str, token: str | None = None):
        self.session = session
        self.url = url
        self.token = token
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._id = 0

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def request(
        self,
        method: str,
        path: str,
        *,
        json_data: Any = None,
        form: dict[str, str] | None = None,
        auth: bool = True,
        ok: tuple[int, ...] = (200, 201),
    ) -> Any:
        async with self.session.request(
            method,
            self.url + path,
            json=json_data,
            data=form,
            headers=self._headers() if auth else {},
            timeout=aiohttp.ClientTimeout(total=60),
        ) as response:
            text = await response.text()
            if response.status not in ok:
                raise DevHomeError(f"{method} {path}: HTTP {response.status}: {text[:500]}")
            try:
                return json.loads(text) if text else None
            except ValueError:
                return text

    async def connect(self) -> None:
        ws = await self.session.ws_connect(
            self.url + "/api/websocket", heartbeat=30, timeout=aiohttp.ClientWSTimeout(ws_close=10)
        )
        greeting = await ws.receive_json(timeout=30)
        if greeting.get("type") != "auth_required":
            raise DevHomeError(f"websocket: unexpected greeting {greeting}")
        await ws.send_json({"type": "auth", "access_token": self.token})
        answer = await ws.receive_json(timeout=30)
        if answer.get("type") != "auth_ok":
            raise DevHomeError(f"websocket: authentication failed: {answer}")
        self._ws = ws

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
            self._ws = None

    async def ws(self, command: str, **payload: Any) -> Any:
        """One websocket command; its result, or DevHomeError with Home Assistant's message.
        A socket closed while idle (its heartbeat unanswered between commands of a long run)
        is opened again."""
        if self._ws is None or self._ws.closed:
            await self.connect()
        assert self._ws is not None
        self._id += 1
        message_id = self._id
        await self._ws.send_json({"id": message_id, "type": command, **payload})
        deadline = time.monotonic() + 60
        while True:
            message = await self._ws.receive_json(timeout=max(1.0, deadline - time.monotonic()))
            if message.get("id") != message_id or message.get("type") != "result":
                continue
            if not message.get("success"):
                error = message.get("error") or {}
                raise DevHomeError(f"{command}: {error.get('code')}: {error.get('message')}")
            return message.get("result")


async def wait_http(
    session: aiohttp.ClientSession,
    url: str,
    process: subprocess.Popen[bytes] | None,
    deadline: float,
    config_dir: Path,
) -> None:
    """Until the HTTP server answers at all."""
    console = config_dir / STDOUT_FILE
    while True:
        if process is not None and process.poll() is not None:
            raise DevHomeError(
                f"Home Assistant exited with code {process.returncode} before "
                f"it answered on {url}\n{log_tail(config_dir)}"
            )
        # Recovery mode listens on Home Assistant's default address, not ours: say so at once.
        if console.exists() and "Activating recovery mode" in console.read_text(
            encoding="utf-8", errors="replace"
        ):
            raise DevHomeError(
                "Home Assistant went into recovery mode (a broken configuration "
                f"or a core integration failed)\n{log_tail(config_dir)}"
            )
        with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError, OSError):
            # An endpoint without authentication: probing /api/ would log failed logins.
            async with session.get(
                url + "/auth/providers", timeout=aiohttp.ClientTimeout(total=5)
            ) as response:
                if response.status < 500:
                    return
        if time.monotonic() > deadline:
            raise DevHomeError(
                f"Home Assistant did not answer on {url} in time\n{log_tail(config_dir)}"
            )
        await asyncio.sleep(0.5)


def _client_id(url: str) -> str:
    return url + "/"


async def _token_from_code(api: Api, code: str) -> str:
    answer = await api.request(
        "POST",
        "/auth/token",
        auth=False,
        form={"grant_type": "authorization_code", "code": code, "client_id": _client_id(api.url)},
    )
    return str(answer["access_token"])


async def log_in(api: Api, username: str, password: str) -> str:
    """An access token: the owner is created on the first start, logged in afterwards."""
    steps = await api.request("GET", "/api/onboarding", auth=False, ok=(200, 404))
    user_pending = isinstance(steps, list) and any(
        s.get("step") == "user" and not s.get("done") for s in steps
    )
    if user_pending:
        answer = await api.request(
            "POST",
            "/api/onboarding/users",
            auth=False,
            json_data={
                "client_id": _client_id(api.url),
                "name": "Developer",
                "username": username,
                "password": password,
                "language": "zh-Hans",
            },
        )
        return await _token_from_code(api, answer["auth_code"])
    flow = await api.request(
        "POST",
        "/auth/login_flow",
        auth=False,
        json_data={
            "client_id": _client_id(api.url),
            "handler": ["homeassistant", None],
            "redirect_uri": _client_id(api.url),
        },
    )
    answer = await api.request(
        "POST",
        f"/auth/login_flow/{flow['flow_id']}",
        auth=False,
        json_data={"client_id": _client_id(api.url), "username": username, "password": password},
    )
    if answer.get("type") != "create_entry":
        raise DevHomeError(
            f"cannot log in as {username!r} ({answer.get('errors')}); start over with --reset"
        )
    return await _token_from_code(api, str(answer["result"]))
