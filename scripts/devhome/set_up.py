"""Setting a started Home Assistant up: log in, confirm its HTTP settings, seed the registries
when home.json changed, then the integration's config entry, the demo's views, the Assist
pipeline and a long-lived token."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from .api import Api, log_in, wait_http
from .common import (
    DEMO_VIEWS,
    DOMAIN,
    DOWNSTREAM_AGENT,
    HOST,
    PASSWORD,
    TOKEN_FILE,
    USERNAME,
    DevHomeError,
)
from .config_dir import prepare_config, read_state, write_state
from .package import Plan, build_plan, home_hash, load_home
from .process import free_port, log_tail, start_server, stop_server
from .seed import seed_entities, seed_exposure, seed_floors_and_areas, seed_labels


@dataclass
class DevHome:
    """A running, set-up Home Assistant."""

    url: str
    config_dir: Path
    username: str
    password: str
    token: str
    agent_id: str
    entities: int  # demo entities Home Assistant provides
    indexed: int | None  # entities in the integration's index after the rebuild
    version: str
    seconds: float = 0.0  # from start to ready
    skipped: list[str] = field(default_factory=list)  # home.json entities not emulated


async def _wait_running(api: Api, deadline: float, config_dir: Path) -> str:
    while True:
        config = await api.request("GET", "/api/config")
        if config.get("recovery_mode") or config.get("safe_mode"):
            raise DevHomeError(
                "Home Assistant started in recovery mode (the configuration or a "
                f"core integration failed)\n{log_tail(config_dir)}"
            )
        if config.get("state", "RUNNING") == "RUNNING":
            return str(config.get("version", "?"))
        if time.monotonic() > deadline:
            raise DevHomeError(f"Home Assistant stayed in state {config.get('state')}")
        await asyncio.sleep(0.5)


async def _wait_entities(api: Api, plan: Plan, deadline: float) -> dict[tuple[str, str], Any]:
    """Registry entries of the demo entities, by (domain, unique_id), once all exist."""
    while True:
        entries = await api.ws("config/entity_registry/list")
        by_unique = {(e["entity_id"].split(".", 1)[0], str(e.get("unique_id"))): e for e in entries}
        missing = [e.entity_id for e in plan.entities if (e.domain, e.unique_id) not in by_unique]
        if not missing:
            return by_unique
        if time.monotonic() > deadline:
            raise DevHomeError(
                "these demo entities never appeared (see home-assistant.log): "
                + ", ".join(missing[:20])
            )
        await asyncio.sleep(0.5)


async def _ensure_entry(api: Api, deadline: float) -> None:
    """One loaded config entry of the integration, Home Assistant's own agent downstream."""
    entries = await api.ws("config_entries/get", domain=DOMAIN)
    if not entries:
        flow = await api.request(
            "POST",
            "/api/config/config_entries/flow",
            json_data={"handler": DOMAIN, "show_advanced_options": False},
        )
        while flow.get("type") == "form":
            answer: dict[str, Any] = {}
            for item in flow.get("data_schema", []):
                if "default" in item:
                    answer[item["name"]] = item["default"]
            answer["agent_id"] = DOWNSTREAM_AGENT
            if flow.get("errors"):
                raise DevHomeError(f"config flow of {DOMAIN}: {flow['errors']}")
            flow = await api.request(
                "POST", f"/api/config/config_entries/flow/{flow['flow_id']}", json_data=answer
            )
        if flow.get("type") not in ("create_entry", "abort"):
            raise DevHomeError(f"config flow of {DOMAIN} ended with {flow}")
    while True:
        entries = await api.ws("config_entries/get", domain=DOMAIN)
        state = entries[0]["state"] if entries else "missing"
        if state == "loaded":
            return
        if (
            state in ("setup_error", "migration_error", "failed_unload")
            or time.monotonic() > deadline
        ):
            raise DevHomeError(
                f"the {DOMAIN} config entry is {state} (see home-assistant.log): {entries}"
            )
        await asyncio.sleep(0.5)


async def _ensure_views(api: Api) -> None:
    """The demo's views, published once (a later edit by hand is left alone)."""
    listed = await api.request(
        "POST", f"/api/services/{DOMAIN}/list_view_rules?return_response", json_data={}
    )
    have = {
        r["name"].casefold() for r in (listed or {}).get("service_response", {}).get("rules", [])
    }
    for name, rule in DEMO_VIEWS:
        if name.casefold() not in have:
            await api.request(
                "POST",
                f"/api/services/{DOMAIN}/publish_view_rule",
                json_data={"name": name, "rule": rule},
            )


async def _agent_id(api: Api, deadline: float) -> str:
    while True:
        for entry in await api.ws("config/entity_registry/list"):
            if entry.get("platform") == DOMAIN and entry["entity_id"].startswith("conversation."):
                return str(entry["entity_id"])
        if time.monotonic() > deadline:
            raise DevHomeError(f"{DOMAIN} registered no conversation entity")
        await asyncio.sleep(0.5)


async def _ensure_pipeline(api: Api, agent_id: str) -> None:
    """The preferred Assist pipeline talks to our agent."""
    listing = await api.ws("assist_pipeline/pipeline/list")
    pipelines = listing.get("pipelines", [])
    preferred = next(
        (p for p in pipelines if p["id"] == listing.get("preferred_pipeline")),
        pipelines[0] if pipelines else None,
    )
    if preferred is None:
        created = await api.ws(
            "assist_pipeline/pipeline/create",
            name="Context Retrieval",
            conversation_engine=agent_id,
            conversation_language="*",
            language="zh-Hans",
            stt_engine=None,
            stt_language=None,
            tts_engine=None,
            tts_language=None,
            tts_voice=None,
            wake_word_entity=None,
            wake_word_id=None,
        )
        await api.ws("assist_pipeline/pipeline/set_preferred", pipeline_id=created["id"])
        return
    if preferred.get("conversation_engine") == agent_id:
        return
    fields = {k: v for k, v in preferred.items() if k != "id"}
    fields["conversation_engine"] = agent_id
    await api.ws("assist_pipeline/pipeline/update", pipeline_id=preferred["id"], **fields)


async def _confirm_http_config(api: Api, config_dir: Path, port: int) -> None:
    """From 2026.10 Home Assistant moves the `http:` YAML into its storage on the first start
    as a *pending* config that the user must confirm, or it reverts to the default (all
    interfaces, port 8123) and restarts five minutes later; later starts ignore the YAML. The
    demo confirms it at once and remembers that the port now lives in the storage."""
    try:
        http = await api.ws("http/config")
    except DevHomeError as err:
        if "unknown_command" in str(err):
            return  # up to 2026.9 the YAML is the HTTP configuration
        raise
    pending = http.get("pending") or {}
    if pending and not pending.get("error"):
        await api.ws("http/config/promote")
    write_state(config_dir, http_port=port)


def server_port(config_dir: Path, requested: int) -> int:
    """The port Home Assistant will listen on: `requested`, unless this folder's Home
    Assistant keeps its HTTP settings in its storage (2026.10+), where the YAML is read once."""
    stored = read_state(config_dir).get("http_port")
    return int(stored) if stored else requested


async def _ensure_token(api: Api, config_dir: Path) -> str:
    """The stored long-lived token while it works, a new one otherwise."""
    path = config_dir / TOKEN_FILE
    if path.exists():
        stored = path.read_text(encoding="utf-8").strip()
        probe = Api(api.session, api.url, stored)
        with contextlib.suppress(DevHomeError):
            await probe.request("GET", "/api/")
            return stored
    token = await api.ws(
        "auth/long_lived_access_token",
        client_name=f"scripts/develop {time.strftime('%Y-%m-%d %H:%M:%S')}",
        lifespan=3650,
    )
    path.write_text(str(token) + "\n", encoding="utf-8")
    path.chmod(0o600)
    return str(token)


async def async_set_up(
    config_dir: Path,
    port: int,
    process: subprocess.Popen[bytes] | None = None,
    wait_seconds: float = 180.0,
    reseed: bool = False,
) -> DevHome:
    """Wait for Home Assistant on `port`, then onboard, seed and configure it (idempotent)."""
    started = time.monotonic()
    deadline = started + wait_seconds
    url = f"http://{HOST}:{port}"
    home = load_home()
    plan = build_plan(home)
    state = read_state(config_dir)
    username = str(state.get("username", USERNAME))
    password = str(state.get("password", PASSWORD))
    async with aiohttp.ClientSession() as session:
        await wait_http(session, url, process, deadline, config_dir)
        api = Api(session, url)
        api.token = await log_in(api, username, password)
        write_state(config_dir, username=username, password=password)
        try:
            version = await _wait_running(api, deadline, config_dir)
            await _confirm_http_config(api, config_dir, port)
            entries = await _wait_entities(api, plan, deadline)
            digest = home_hash()
            if reseed or state.get("seeded_hash") != digest:
                await seed_floors_and_areas(api, home)
                labels = await seed_labels(api, home)
                await seed_entities(api, home, plan, entries, labels)
                await seed_exposure(api, plan)
                write_state(config_dir, seeded_hash=digest)
            await _ensure_entry(api, deadline)
            await _ensure_views(api)
            agent_id = await _agent_id(api, deadline)
            await _ensure_pipeline(api, agent_id)
            indexed = None
            with contextlib.suppress(DevHomeError):
                rebuilt = await api.request(
                    "POST", f"/api/services/{DOMAIN}/rebuild_index?return_response", json_data={}
                )
                indexed = int((rebuilt or {}).get("service_response", {}).get("entities", 0))
            token = await _ensure_token(api, config_dir)
            write_state(config_dir, agent_id=agent_id, url=url)
        finally:
            await api.close()
    emulated = {e.entity_id for e in plan.entities}
    return DevHome(
        url=url,
        config_dir=config_dir,
        username=username,
        password=password,
        token=token,
        agent_id=agent_id,
        entities=len(plan.entities),
        indexed=indexed,
        version=version,
        seconds=time.monotonic() - started,
        skipped=[e["entity_id"] for e in home["entities"] if e["entity_id"] not in emulated],
    )


@contextlib.contextmanager
def running(
    config_dir: Path, port: int | None = None, *, reset: bool = False, timeout: float = 180.0
) -> Iterator[tuple[DevHome, subprocess.Popen[bytes]]]:
    """Prepare, start and set up Home Assistant; stop it (whatever happens) on leaving."""
    prepare_config(config_dir, reset=reset)
    port = server_port(config_dir, port or free_port())
    started = time.monotonic()
    process = start_server(config_dir, port)
    try:
        home = asyncio.run(async_set_up(config_dir, port, process, timeout))
        home.seconds = time.monotonic() - started
        yield home, process
    finally:
        stop_server(process)
