"""Load, soak and crash test of the integration in a real Home Assistant with the demo home.

    .venv/bin/python -m bench.load [--soak-minutes 10] [--write BENCHMARKS.md]

Home Assistant is started by `scripts/devhome/` in a temporary config folder on a free port
(the developer's ./config is never touched) and stopped at the end whatever happens.

1. Burst: 200 calls fired at once (half REST `POST /api/services/…?return_response`, half
   websocket `call_service` over 4 connections; retrieve / search / natural_query with Chinese
   and English texts of the demo home), twice. A call is answered when it returns a result or
   a response/error carrying `SEARCH_BACKPRESSURE`; 30 s without an answer is a timeout, and
   HTTP 5xx is a failure.
2. Soak: registry churn through the websocket config API (entity rename and back, area rename
   and back, entity area moves and back, label create + add to an entity + remove + delete)
   interleaved with retrieve / natural_query / search calls, for N minutes. The Home Assistant
   process' RSS is sampled after a warm-up (the first 100 calls or the first minute, whichever
   comes first) and at the end; errors are non-2xx answers, error results, unsuccessful
   questions and ERROR records of the integration in the Home Assistant log.
3. Crash: view rules published (distinct numbered names) and distinct questions asked (each one
   stores a plan) in a tight loop, then `kill -9` of Home Assistant; after a restart on the same
   config folder every publish and plan acknowledged before the kill must be there
   (`list_view_rules`, `list_query_plans` and the SQLite files read-only), and both databases
   must pass `PRAGMA integrity_check`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import aiohttp

from .report import load_average, percentile, write_table

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = "context_retrieval"
BACKPRESSURE = "SEARCH_BACKPRESSURE"
CALL_TIMEOUT = 30.0
BURST_CALLS = 200
BURST_ROUNDS = 2
WS_CONNECTIONS = 4
WARMUP_CALLS = 100
WARMUP_SECONDS = 60.0
RSS_TARGET_MB = 10.0
CRASH_SECONDS = 12.0
VIEWS_DB = "context_retrieval_views.db"
QUERIES_DB = "context_retrieval_queries.db"
STARTUP_SECONDS = 240.0

# Texts of the demo home (demo/home.json), Chinese and English.
RETRIEVE_TEXTS = [
    "打开客厅的阅读灯",
    "turn off the kitchen ceiling light",
    "关掉除了卧室以外的所有灯",
    "turn on the garage light",
    "打开台灯",
    "把主卧的窗帘关上",
    "turn on the desk lamp in the kids room",
    "关掉阳台彩灯",
]
SEARCH_QUERIES = [
    "阅读灯",
    "kitchen light",
    "温度",
    "front door lock",
    "圣诞装饰",
    "bedside lamp",
    "湿度",
    "balcony",
]
QUESTIONS = [
    "哪些灯开着？",
    "Which lights are on?",
    "客厅有几个灯开着？",
    "How many lights are on in the kitchen?",
    "主卧的温度是多少？",
    "Which lights are off?",
    "哪些灯关着？",
    "How many lights are there?",
]


def load_devhome() -> ModuleType:
    """scripts/ is not a package: load the demo-home package from its folder (once per
    interpreter)."""
    name = "devhome"
    if name in sys.modules:
        return sys.modules[name]
    folder = ROOT / "scripts" / "devhome"
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------------------------
# Pure parts (unit-tested)
# ---------------------------------------------------------------------------------------------


def has_backpressure(value: Any) -> bool:
    """Whether `SEARCH_BACKPRESSURE` appears anywhere in a response, error or message."""
    if value is None:
        return False
    if isinstance(value, str):
        return BACKPRESSURE in value
    if isinstance(value, bytes):
        return BACKPRESSURE.encode() in value
    if isinstance(value, BaseException):
        return has_backpressure(str(value)) or has_backpressure(repr(value))
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = str(value)
    return BACKPRESSURE in text


def parse_vmrss(status_text: str) -> float:
    """MB of resident memory from the text of /proc/<pid>/status (`VmRSS:  123456 kB`)."""
    for line in status_text.splitlines():
        if line.startswith("VmRSS:"):
            parts = line.split()
            value = float(parts[1])
            unit = parts[2].lower() if len(parts) > 2 else "kb"
            factor = {"kb": 1 / 1024, "mb": 1.0, "gb": 1024.0, "b": 1 / 1024 / 1024}.get(
                unit, 1 / 1024
            )
            return value * factor
    raise ValueError("no VmRSS line")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB: psutil when installed, /proc otherwise."""
    try:
        import psutil
    except ImportError:
        return parse_vmrss(Path(f"/proc/{pid}/status").read_text(encoding="utf-8"))
    return float(psutil.Process(pid).memory_info().rss) / 1024 / 1024


@dataclass
class Call:
    """One call's outcome: ok | backpressure | error | http5xx | timeout."""

    transport: str
    service: str
    outcome: str
    ms: float
    detail: str = ""

    @property
    def answered(self) -> bool:
        return self.outcome in ("ok", "backpressure")


def classify_rest(status: int, text: str) -> tuple[str, str]:
    """Outcome of a REST answer: 5xx is a failure even when it names the backpressure."""
    if status >= 500:
        return "http5xx", f"HTTP {status}: {text[:200]}"
    if has_backpressure(text):
        return "backpressure", ""
    if 200 <= status < 300:
        return "ok", ""
    return "error", f"HTTP {status}: {text[:200]}"


def classify_ws(message: dict[str, Any]) -> tuple[str, str]:
    if has_backpressure(message):
        return "backpressure", ""
    if message.get("success"):
        return "ok", ""
    return "error", json.dumps(message.get("error"), ensure_ascii=False)[:200]


def summarize(calls: list[Call]) -> dict[str, Any]:
    """Counts and latency (ms) over a list of calls."""
    ms = [c.ms for c in calls]
    return {
        "total": len(calls),
        "answered": sum(c.answered for c in calls),
        "ok": sum(c.outcome == "ok" for c in calls),
        "backpressure": sum(c.outcome == "backpressure" for c in calls),
        "errors": sum(c.outcome == "error" for c in calls),
        "http5xx": sum(c.outcome == "http5xx" for c in calls),
        "timeouts": sum(c.outcome == "timeout" for c in calls),
        "p50": percentile(ms, 0.50),
        "p95": percentile(ms, 0.95),
        "max": max(ms) if ms else 0.0,
    }


def _ms(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def _yes(ok: bool) -> str:
    return "yes" if ok else "**no**"


def format_tables(result: dict[str, Any]) -> str:
    """The markdown of the load section from the measured figures."""
    lines = ["## Load, soak and crash (`bench/load.py`)", ""]
    burst: list[dict[str, Any]] = result.get("burst", [])
    if burst:
        lines += [
            f"Burst: {BURST_CALLS} calls fired at once, {BURST_ROUNDS} rounds; half REST, "
            f"half websocket over {WS_CONNECTIONS} connections; retrieve / search / "
            "natural_query in Chinese and English. Latency from send to answer; "
            f"timeout {CALL_TIMEOUT:.0f} s.",
            "",
            "| round | transport | answered / total | backpressured | errors | HTTP 5xx "
            "| timeouts | p50 ms | p95 ms | max ms |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for row in burst:
            lines.append(
                f"| {row['round']} | {row['transport']} | {row['answered']} / {row['total']} | "
                f"{row['backpressure']} | {row['errors']} | {row['http5xx']} | "
                f"{row['timeouts']} | {_ms(row['p50'])} | {_ms(row['p95'])} | "
                f"{_ms(row['max'])} |"
            )
        lines.append("")
    soak = result.get("soak")
    if soak:
        lines += [
            f"Soak: {soak['minutes']:g} min of registry churn ({soak['churn']} websocket "
            "config operations: entity rename and back, area rename and back, entity "
            "area move and back, label create + add + remove + delete) interleaved with "
            f"{soak['calls']} retrieve / natural_query / search calls (REST and websocket); "
            f"RSS of the Home Assistant process ({soak['rss_source']}) after the warm-up "
            f"({soak['warmup']}) and at the end.",
            "",
            "| calls | call p50 / p95 / max ms | churn ops | RSS start MB | RSS end MB "
            "| RSS max MB | growth MB | growth since the first 100 calls MB | errors "
            "| integration ERROR log records |",
            "|---|---|---|---|---|---|---|---|---|---|",
            f"| {soak['calls']} | {_ms(soak['p50'])} / {_ms(soak['p95'])} / "
            f"{_ms(soak['max'])} | {soak['churn']} | {soak['rss_start']:.1f} | "
            f"{soak['rss_end']:.1f} | {soak['rss_max']:.1f} | {soak['growth']:+.1f} | "
            f"{soak.get('growth_early', soak['growth']):+.1f} | "
            f"{soak['errors']} | {soak['log_errors']} |",
            "",
        ]
        if soak.get("trend"):
            lines += [
                "RSS over the soak (min: MB): "
                + ", ".join(f"{m:g}: {r:.1f}" for m, r in soak["trend"])
                + ".",
                "",
            ]
        if soak.get("error_samples"):
            lines += ["Errors seen: " + "; ".join(f"`{s}`" for s in soak["error_samples"]), ""]
    crash = result.get("crash")
    if crash:
        lines += [
            f"Crash: views published and distinct questions asked in a tight loop for "
            f"{crash['seconds']:.0f} s, then `kill -9` of Home Assistant and a restart on "
            "the same config folder (restart took "
            f"{crash['restart_seconds']:.0f} s).",
            "",
            "| kind | committed before the kill | found after restart | lost | integrity_check |",
            "|---|---|---|---|---|",
        ]
        for kind in ("views", "plans"):
            row = crash[kind]
            lines.append(
                f"| {kind} | {row['committed']} | {row['found']} | {row['lost']} | "
                f"{row['integrity']} |"
            )
        lines.append("")
    targets = []
    if burst:
        burst = [r for r in burst if r["transport"] != "all"]  # "all" repeats the two others
        total = sum(r["total"] for r in burst)
        answered = sum(r["answered"] for r in burst)
        hung = sum(r["timeouts"] for r in burst)
        fivexx = sum(r["http5xx"] for r in burst)
        targets += [
            (
                "burst: every call answered (result or backpressure)",
                f"{answered} / {total}",
                answered == total,
            ),
            (
                "burst: no call hangs (30 s) or returns HTTP 5xx",
                f"{hung} timeouts, {fivexx} HTTP 5xx",
                hung == 0 and fivexx == 0,
            ),
        ]
    if soak:
        targets += [
            (
                f"soak: RSS growth ≤ {RSS_TARGET_MB:g} MB",
                f"{soak['growth']:+.1f} MB",
                soak["growth"] <= RSS_TARGET_MB,
            ),
            (
                "soak: no errors",
                f"{soak['errors']} + {soak['log_errors']} log records",
                soak["errors"] == 0 and soak["log_errors"] == 0,
            ),
        ]
    if crash:
        lost = crash["views"]["lost"] + crash["plans"]["lost"]
        intact = all(crash[k]["integrity"] == "ok" for k in ("views", "plans"))
        targets += [
            ("crash: nothing acknowledged is lost", f"{lost} lost", lost == 0),
            (
                "crash: databases pass integrity_check",
                ", ".join(f"{k} {crash[k]['integrity']}" for k in ("views", "plans")),
                intact,
            ),
        ]
    if targets:
        lines += ["| target | measured | met |", "|---|---|---|"]
        lines += [f"| {name} | {measured} | {_yes(met)} |" for name, measured, met in targets]
        lines.append("")
    if result.get("notes"):
        lines += [f"Note: {note}" for note in result["notes"]]
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------------------------------------
# Clients
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# 1. Burst
# ---------------------------------------------------------------------------------------------


async def run_burst(target: Target) -> tuple[list[dict[str, Any]], list[str]]:
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    for round_no in range(1, BURST_ROUNDS + 1):
        plan = mixed_calls(BURST_CALLS)
        coros: list[Awaitable[tuple[Call, Any]]] = []
        for i, (service, data) in enumerate(plan):
            transport = "rest" if i % 2 == 0 else "websocket"
            coros.append(target.call(transport, service, data, client=i // 2))
        results = await asyncio.gather(*coros)
        calls = [c for c, _ in results]
        for transport in ("rest", "websocket", "all"):
            chosen = [c for c in calls if transport in ("all", c.transport)]
            rows.append({"round": round_no, "transport": transport, **summarize(chosen)})
        problems += [
            f"burst {round_no} {c.transport} {c.service}: {c.outcome} {c.detail}"
            for c in calls
            if not c.answered
        ]
        print(
            f"burst {round_no}: "
            + ", ".join(
                f"{r['transport']} {r['answered']}/{r['total']} bp {r['backpressure']} "
                f"p95 {r['p95']:.0f} ms"
                for r in rows[-3:]
            ),
            flush=True,
        )
        await asyncio.sleep(2)
    return rows, problems


# ---------------------------------------------------------------------------------------------
# 2. Soak
# ---------------------------------------------------------------------------------------------

CHURN_ENTITIES = [
    "light.living_room_reading",
    "light.kitchen_cabinet",
    "light.study_panel",
    "light.garage_light",
    "sensor.kids_room_temperature",
]
CHURN_AREAS = ["study", "garage", "balcony"]


class Churn:
    """Registry edits that are undone right away, so the home stays the same size."""

    def __init__(self, ws: WsClient) -> None:
        self.ws = ws
        self.step = 0
        self.entities: dict[str, dict[str, Any]] = {}
        self.areas: dict[str, dict[str, Any]] = {}

    async def prepare(self) -> None:
        for entity_id in CHURN_ENTITIES:
            self.entities[entity_id] = await self.ws.command(
                "config/entity_registry/get", entity_id=entity_id
            )
        for area in await self.ws.command("config/area_registry/list"):
            if area["area_id"] in CHURN_AREAS:
                self.areas[area["area_id"]] = area

    async def once(self) -> int:
        """One churn step; the number of websocket commands it took."""
        i = self.step
        self.step += 1
        entity_id = CHURN_ENTITIES[i % len(CHURN_ENTITIES)]
        entry = self.entities[entity_id]
        kind = i % 4
        if kind == 0:  # rename and back
            await self.ws.command(
                "config/entity_registry/update", entity_id=entity_id, name=f"负载测试 {i}"
            )
            await self.ws.command(
                "config/entity_registry/update", entity_id=entity_id, name=entry.get("name")
            )
            return 2
        if kind == 1:  # area rename and back
            area = self.areas[CHURN_AREAS[i % len(CHURN_AREAS)]]
            await self.ws.command(
                "config/area_registry/update",
                area_id=area["area_id"],
                name=f"{area['name']} load {i}",
            )
            await self.ws.command(
                "config/area_registry/update", area_id=area["area_id"], name=area["name"]
            )
            return 2
        if kind == 2:  # entity moves to another area and back
            other = next(a for a in CHURN_AREAS if a != entry.get("area_id"))
            await self.ws.command(
                "config/entity_registry/update", entity_id=entity_id, area_id=other
            )
            await self.ws.command(
                "config/entity_registry/update", entity_id=entity_id, area_id=entry.get("area_id")
            )
            return 2
        label = await self.ws.command("config/label_registry/create", name=f"load label {i}")
        labels = list(entry.get("labels") or [])
        await self.ws.command(
            "config/entity_registry/update",
            entity_id=entity_id,
            labels=[*labels, label["label_id"]],
        )
        await self.ws.command("config/entity_registry/update", entity_id=entity_id, labels=labels)
        await self.ws.command("config/label_registry/delete", label_id=label["label_id"])
        return 4


def _call_error(call: Call, body: Any) -> str | None:
    if not call.answered:
        return f"{call.transport} {call.service}: {call.outcome} {call.detail}"
    if call.service == "natural_query" and isinstance(body, dict) and body.get("success") is False:
        return f"{call.transport} natural_query unsuccessful: {body.get('error')}"
    return None


async def run_soak(
    target: Target, pid: int, config_dir: Path, minutes: float, devhome: ModuleType
) -> dict[str, Any]:
    churn = Churn(target.ws[0])
    await churn.prepare()
    log_before = len(devhome.integration_records(config_dir, ("ERROR", "CRITICAL")))
    plan = mixed_calls(3 * 41)  # 41 is prime to the text lists: every pairing comes up
    calls: list[Call] = []
    errors: list[str] = []
    churn_ops = 0
    started = time.monotonic()
    end = started + minutes * 60
    rss_start: float | None = None
    rss_early: float | None = None  # after the first 100 calls, for comparison
    warmup = ""
    # The warm-up is the first minute; a soak too short for that uses the first 100 calls.
    warmup_seconds = WARMUP_SECONDS if minutes * 60 >= 2 * WARMUP_SECONDS else None
    trend: list[tuple[float, float]] = []  # (minutes, RSS MB) once a minute
    samples: list[float] = []
    next_sample = started
    i = 0
    while time.monotonic() < end:
        try:
            churn_ops += await churn.once()
        except (RuntimeError, TimeoutError, ConnectionError) as err:
            errors.append(f"churn: {err}"[:300])
        for _ in range(3):
            service, data = plan[i % len(plan)]
            transport = "rest" if i % 2 == 0 else "websocket"
            call, body = await target.call(transport, service, data, client=i)
            i += 1
            calls.append(call)
            if (problem := _call_error(call, body)) is not None:
                errors.append(problem)
        now = time.monotonic()
        if rss_early is None and len(calls) >= WARMUP_CALLS:
            rss_early = rss_mb(pid)
        if rss_start is None:
            if warmup_seconds is not None and now - started >= warmup_seconds:
                rss_start = rss_mb(pid)
                warmup = f"first {now - started:.0f} s, {len(calls)} calls"
            elif warmup_seconds is None and rss_early is not None:
                rss_start, warmup = rss_early, f"first {len(calls)} calls"
        if now >= next_sample:
            samples.append(rss_mb(pid))
            next_sample = now + 10
            if len(samples) % 6 == 1:
                trend.append(((now - started) / 60, samples[-1]))
            if len(samples) % 6 == 1:
                print(
                    f"soak {(now - started) / 60:.1f} min: {len(calls)} calls, "
                    f"{churn_ops} churn ops, RSS {samples[-1]:.1f} MB, "
                    f"{len(errors)} errors",
                    flush=True,
                )
    await asyncio.sleep(2)  # let the last registry updates settle
    rss_end = rss_mb(pid)
    samples.append(rss_end)
    if rss_start is None:
        rss_start, warmup = samples[0], "none (too short)"
    trend.append(((time.monotonic() - started) / 60, rss_end))
    log_errors = devhome.integration_records(config_dir, ("ERROR", "CRITICAL"))[log_before:]
    ms = [c.ms for c in calls]
    try:
        import psutil  # noqa: F401

        source = "psutil"
    except ImportError:
        source = "/proc VmRSS"
    return {
        "minutes": minutes,
        "calls": len(calls),
        "churn": churn_ops,
        "p50": percentile(ms, 0.5),
        "p95": percentile(ms, 0.95),
        "max": max(ms, default=0),
        "rss_start": rss_start,
        "rss_end": rss_end,
        "rss_max": max(samples),
        "growth": rss_end - rss_start,
        "growth_early": rss_end - (rss_early if rss_early is not None else rss_start),
        "trend": [(round(m, 1), round(r, 1)) for m, r in trend],
        "errors": len(errors),
        "log_errors": len(log_errors),
        "error_samples": sorted(set(errors))[:5],
        "log_samples": [r[:300] for r in log_errors[:3]],
        "warmup": warmup,
        "rss_source": source,
    }


# ---------------------------------------------------------------------------------------------
# 3. Crash
# ---------------------------------------------------------------------------------------------

CRASH_QUESTION_TEMPLATES = [
    ("zh", "{zh}有几个灯开着？"),
    ("zh", "{zh}哪些灯开着？"),
    ("zh", "{zh}哪些灯关着？"),
    ("zh", "{zh}有多少个灯？"),
    ("en", "How many lights are on in the {en}?"),
    ("en", "Which lights are on in the {en}?"),
    ("en", "Which lights are off in the {en}?"),
    ("en", "How many lights are in the {en}?"),
]


def crash_questions(home: dict[str, Any]) -> list[str]:
    """Distinct questions about the demo home's rooms (each one its own plan)."""
    out = []
    for _language, template in CRASH_QUESTION_TEMPLATES:
        for area in home["areas"]:
            english = next((a for a in area.get("aliases", []) if a.isascii()), area["area_id"])
            out.append(template.format(zh=area["name"], en=english))
    return out


def integrity(path: Path) -> str:
    """`PRAGMA integrity_check` of a SQLite file opened read-only."""
    if not path.exists():
        return "missing"
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as err:
        return f"error: {err}"
    return "ok" if rows == [("ok",)] else "; ".join(str(r[0]) for r in rows[:3])


def db_ids(path: Path, table: str, column: str) -> set[str]:
    if not path.exists():
        return set()
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            return {str(r[0]) for r in conn.execute(f"SELECT {column} FROM {table}")}
        finally:
            conn.close()
    except sqlite3.Error:
        return set()


async def crash_load(
    target: Target, questions: list[str], seconds: float, kill: Callable[[], None]
) -> tuple[dict[str, str], set[str], int]:
    """Publish and ask until `seconds` passed, then kill; what was acknowledged before."""
    views: dict[str, str] = {}  # name -> id
    plans: set[str] = set()
    stop = asyncio.Event()
    attempts = 0

    async def publisher() -> None:
        nonlocal attempts
        for n in itertools.count(1):
            if stop.is_set():
                return
            name = f"load crash view {n:04d}"
            rule = ["灯 并且 客厅", "lights and upstairs", "圣诞装饰 或 阳台", "灯"][n % 4]
            attempts += 1
            call, body = await target.call(
                "rest" if n % 2 else "websocket",
                "publish_view_rule",
                {"name": name, "rule": rule},
                client=n,
            )
            if call.outcome == "ok" and isinstance(body, dict) and not stop.is_set():
                views[name] = str(body.get("id"))

    async def asker() -> None:
        nonlocal attempts
        for n, question in enumerate(itertools.cycle(questions)):
            if stop.is_set():
                return
            attempts += 1
            call, body = await target.call(
                "websocket" if n % 2 else "rest",
                "natural_query",
                {"question": question},
                client=n + 1,
            )
            if (
                call.outcome == "ok"
                and isinstance(body, dict)
                and body.get("success")
                and body.get("plan_id")
                and not stop.is_set()
            ):
                plans.add(str(body["plan_id"]))

    tasks = [
        asyncio.create_task(publisher()),
        asyncio.create_task(asker()),
        asyncio.create_task(asker()),
    ]
    await asyncio.sleep(seconds)
    # Snapshot what is acknowledged, then kill at once: answers that arrive after this point
    # are not counted (they could be in flight when the process dies).
    acknowledged_views, acknowledged_plans = dict(views), set(plans)
    kill()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return acknowledged_views, acknowledged_plans, attempts


async def list_after_restart(target: Target) -> tuple[set[str], set[str]]:
    _, body = await target.rest("list_view_rules", {})
    names = {str(r["name"]) for r in (body or {}).get("rules", [])}
    plan_ids: set[str] = set()
    offset = 0
    while True:
        _, page = await target.rest("list_query_plans", {"limit": 1000, "offset": offset})
        plans = (page or {}).get("plans", [])
        plan_ids |= {str(p["id"]) for p in plans}
        offset += len(plans)
        if not plans or offset >= int((page or {}).get("total", 0)):
            break
    return names, plan_ids


# ---------------------------------------------------------------------------------------------
# Orchestration
# ---------------------------------------------------------------------------------------------


async def _connect(url: str, token: str) -> tuple[aiohttp.ClientSession, Target]:
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    target = Target(url, token, session)
    for _ in range(WS_CONNECTIONS):
        client = WsClient(session, url, token)
        await client.connect()
        target.ws.append(client)
    return session, target


async def _disconnect(session: aiohttp.ClientSession, target: Target) -> None:
    for client in target.ws:
        with contextlib.suppress(Exception):
            await client.close()
    await session.close()


async def phase_burst_and_soak(
    url: str, token: str, pid: int, config_dir: Path, minutes: float, devhome: ModuleType
) -> dict[str, Any]:
    session, target = await _connect(url, token)
    try:
        # One call of each kind first: the first question compiles lexicons, and so on.
        for service, data in mixed_calls(3):
            await target.rest(service, data)
        burst, problems = await run_burst(target)
        soak = None
        if minutes > 0:
            soak = await run_soak(target, pid, config_dir, minutes, devhome)
    finally:
        await _disconnect(session, target)
    return {"burst": burst, "burst_problems": problems, "soak": soak}


def run_crash(
    config_dir: Path, process: subprocess.Popen[bytes], url: str, token: str, devhome: ModuleType
) -> tuple[dict[str, Any], subprocess.Popen[bytes]]:
    questions = crash_questions(devhome.load_home())

    def kill() -> None:
        os.kill(process.pid, signal.SIGKILL)  # kill -9 of the Home Assistant process

    async def load() -> tuple[dict[str, str], set[str], int]:
        session, target = await _connect(url, token)
        try:
            return await crash_load(target, questions, CRASH_SECONDS, kill)
        finally:
            await _disconnect(session, target)

    views, plans, attempts = asyncio.run(load())
    process.wait(timeout=30)
    devhome.stop_server(process)  # whatever is left of its process group
    print(
        f"crash: killed after {attempts} calls; {len(views)} publishes and {len(plans)} "
        "plans acknowledged",
        flush=True,
    )
    # The same folder: Home Assistant 2026.10+ keeps listening on the port in its storage.
    port = devhome.server_port(config_dir, devhome.free_port())
    started = time.monotonic()
    process = devhome.start_server(config_dir, port)
    home = asyncio.run(devhome.async_set_up(config_dir, port, process, STARTUP_SECONDS))
    restart = time.monotonic() - started

    async def check() -> tuple[set[str], set[str]]:
        session, target = await _connect(home.url, home.token)
        try:
            return await list_after_restart(target)
        finally:
            await _disconnect(session, target)

    names, plan_ids = asyncio.run(check())
    views_db, queries_db = config_dir / VIEWS_DB, config_dir / QUERIES_DB
    view_ids_db = db_ids(views_db, "view_rules", "id")
    plan_ids_db = db_ids(queries_db, "query_plans", "id")
    found_views = sum(
        1
        for name, ident in views.items()
        if name in names and (not view_ids_db or ident in view_ids_db)
    )
    found_plans = sum(
        1 for ident in plans if ident in plan_ids and (not plan_ids_db or ident in plan_ids_db)
    )
    result = {
        "seconds": CRASH_SECONDS,
        "attempts": attempts,
        "restart_seconds": restart,
        "views": {
            "committed": len(views),
            "found": found_views,
            "lost": len(views) - found_views,
            "integrity": integrity(views_db),
        },
        "plans": {
            "committed": len(plans),
            "found": found_plans,
            "lost": len(plans) - found_plans,
            "integrity": integrity(queries_db),
        },
        "lost_views": sorted(n for n in views if n not in names)[:10],
        "lost_plans": sorted(p for p in plans if p not in plan_ids)[:10],
    }
    print(f"crash: views {result['views']}, plans {result['plans']}", flush=True)
    return result, process


def run(minutes: float, crash: bool = True) -> dict[str, Any]:
    devhome = load_devhome()
    result: dict[str, Any] = {"notes": []}
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        config_dir = Path(tmp) / "config"
        devhome.prepare_config(config_dir)
        port = devhome.free_port()
        process = devhome.start_server(config_dir, port)
        try:
            started = time.monotonic()
            home = asyncio.run(devhome.async_set_up(config_dir, port, process, STARTUP_SECONDS))
            print(
                f"Home Assistant {home.version} ready in {time.monotonic() - started:.0f} s "
                f"at {home.url} (pid {process.pid})",
                flush=True,
            )
            result["version"] = home.version
            result.update(
                asyncio.run(
                    phase_burst_and_soak(
                        home.url, home.token, process.pid, config_dir, minutes, devhome
                    )
                )
            )
            if not any(r["backpressure"] for r in result["burst"]):
                result["notes"].append(
                    f"no answer carried {BACKPRESSURE} during the bursts (every call was "
                    "served or failed otherwise)."
                )
            if crash:
                result["crash"], process = run_crash(
                    config_dir, process, home.url, home.token, devhome
                )
            errors = devhome.integration_records(config_dir, ("ERROR", "CRITICAL"))
            result["log_errors_total"] = len(errors)
            result["log_samples"] = [e[:400] for e in errors[:5]]
        except Exception:
            print(devhome.log_tail(config_dir), file=sys.stderr)
            raise
        finally:
            devhome.stop_server(process)
    return result


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--soak-minutes",
        type=float,
        default=10.0,
        help="length of the soak (default 10; 0 skips it)",
    )
    parser.add_argument("--no-crash", action="store_true", help="skip the kill -9 test")
    parser.add_argument("--json", metavar="FILE", help="also write the raw figures here")
    parser.add_argument("--write", metavar="FILE", help="update the load section of FILE")
    args = parser.parse_args(argv)
    started = time.monotonic()
    before = load_average()
    result = run(args.soak_minutes, crash=not args.no_crash)
    result["notes"].append(
        f"Load average (1/5/15 min) before: {before}, after: "
        f"{load_average()}; Home Assistant {result.get('version')}."
    )
    table = format_tables(result)
    print(table)
    for key in ("burst_problems", "log_samples"):
        if result.get(key):
            print(f"{key}:", *result[key][:10], sep="\n  ")
    if args.json:
        Path(args.json).write_text(
            json.dumps(result, ensure_ascii=False, indent=1, default=str), encoding="utf-8"
        )
    if args.write:
        write_table(args.write, "load", table, "bench.load", argv, time.monotonic() - started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
