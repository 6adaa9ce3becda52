"""MCP clients: Home Assistant's MCP server serves the Context Retrieval LLM API, and an MCP
client (the PyPI `mcp` package, as Claude Desktop, Cursor or any MCP host uses it) finds the
devices that matter for a request with it.

The server's `mcp_server` integration is set up through its config flow, as a user does; the
client connects with the demo's long-lived token: on 2026.11 to the Streamable HTTP endpoint of
our API (`/api/mcp/context_retrieval`), on 2025.4 to the SSE endpoint of the API chosen in the
flow. It lists the tools (ours namespaced and read-only), asks for the devices of a Chinese and
an English request, and looks a device up by its nickname: the right entities, and never one
that is not exposed to Assist (the demo's hidden helpers).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from custom_components.context_retrieval.const import LLM_API_ID
from custom_components.context_retrieval.llm_lookup import LOOKUP_TOOL
from custom_components.context_retrieval.llm_relevant import RELEVANT_TOOL

from .conftest import Client, devhome

mcp = pytest.importorskip("mcp", reason="the mcp client is in requirements_test.txt")

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

# The demo's entities are backed by input_boolean/input_number helpers that are not exposed.
UNEXPOSED = ("input_boolean.", "input_number.")


def ensure_mcp_server(ha: Client) -> bool:
    """The MCP server integration set up; True when it serves Streamable HTTP (2026.x)."""
    entries = ha.request("GET", "/api/config/config_entries/entry?domain=mcp_server")
    if not entries:
        flow = ha.request("POST", "/api/config/config_entries/flow", {"handler": "mcp_server"})
        fields = {item["name"] for item in flow.get("data_schema") or []}
        # 2025.4 asks which one LLM API to serve; 2026.11 serves every registered one.
        answer = {"llm_hass_api": LLM_API_ID} if "llm_hass_api" in fields else {}
        done = ha.request("POST", f"/api/config/config_entries/flow/{flow['flow_id']}", answer)
        assert done["type"] == "create_entry", done
    version = str(ha.request("GET", "/api/config")["version"])
    return tuple(int(p) for p in version.split(".")[:2]) >= (2026, 1)


@asynccontextmanager
async def session(ha: Client, streamable: bool) -> AsyncIterator[Any]:
    headers = {"Authorization": f"Bearer {ha.token}"}
    if streamable:
        from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

        async with (
            create_mcp_http_client(headers=headers) as http,
            streamable_http_client(f"{ha.url}/api/mcp/{LLM_API_ID}", http_client=http) as streams,
            mcp.ClientSession(streams[0], streams[1]) as client,
        ):
            await client.initialize()
            yield client
    else:
        from mcp.client.sse import sse_client

        async with (
            sse_client(f"{ha.url}/mcp_server/sse", headers=headers) as streams,
            mcp.ClientSession(streams[0], streams[1]) as client,
        ):
            await client.initialize()
            yield client


def _attr(model: Any, *names: str) -> Any:
    """A field of an `mcp` model under its name in the client's release (camelCase in 1.x,
    snake_case in 2.x)."""
    return next((getattr(model, n) for n in names if hasattr(model, n)), None)


def _text(result: Any) -> dict[str, Any]:
    assert not _attr(result, "is_error", "isError"), result
    data: dict[str, Any] = json.loads(result.content[0].text)
    return data


def test_an_mcp_client_finds_the_devices_that_matter(ha: Client) -> None:
    logged = devhome.integration_records(ha.config_dir)
    streamable = ensure_mcp_server(ha)

    async def run() -> dict[str, Any]:
        async with session(ha, streamable) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            zh = _text(await client.call_tool(RELEVANT_TOOL, {"request": "打开厨房的橱柜灯"}))
            en = _text(await client.call_tool(RELEVANT_TOOL, {"request": "close the garage door"}))
            nick = _text(await client.call_tool(LOOKUP_TOOL, {"name": "老伙计"}))
            prompts = await client.list_prompts()
            prompt = await client.get_prompt(prompts.prompts[0].name)
            return {"tools": tools, "zh": zh, "en": en, "nick": nick, "prompt": prompt}

    got = asyncio.run(run())

    tools = got["tools"]
    assert {RELEVANT_TOOL, LOOKUP_TOOL} <= set(tools)
    assert any(name.endswith("HassTurnOn") for name in tools)  # device control's own tools
    for name in (RELEVANT_TOOL, LOOKUP_TOOL):
        annotations = getattr(tools[name], "annotations", None)
        if streamable:  # 2026.x announces them; its read-only mode keeps ours
            assert _attr(annotations, "read_only_hint", "readOnlyHint") is True
            assert _attr(annotations, "destructive_hint", "destructiveHint") is False
    assert "light.kitchen_cabinet" in got["zh"]["devices"]
    assert "cover.garage_door" in got["en"]["devices"]
    assert "light.study_old_lamp" in got["nick"]["devices"]
    for answer in (got["zh"], got["en"], got["nick"]):
        assert not any(marker in json.dumps(answer) for marker in UNEXPOSED)
    # The prompt an MCP host may show the model: instructions and the outline, no device.
    text = got["prompt"].messages[0].content.text
    assert RELEVANT_TOOL in text and '"厨房"' in text
    assert "light.kitchen_cabinet" not in text
    assert devhome.integration_records(ha.config_dir) == logged  # no error, no warning
