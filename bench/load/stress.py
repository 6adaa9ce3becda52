"""1. Burst: calls fired at once over REST and websocket. 2. Soak: registry churn interleaved
with calls for N minutes, the process' RSS sampled after a warm-up and at the end."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from pathlib import Path
from types import ModuleType
from typing import Any

from ..report import percentile
from .calls import Call, rss_mb, summarize
from .clients import Target, WsClient, mixed_calls

BURST_CALLS = 200
BURST_ROUNDS = 2


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


WARMUP_CALLS = 100
WARMUP_SECONDS = 60.0
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
    target: Target,
    pid: int,
    config_dir: Path,
    minutes: float,
    devhome: ModuleType,
    services: bool = True,
) -> dict[str, Any]:
    """The soak; with `services` off, the same churn and the same number of calls, each one
    of Home Assistant's own (its configuration), with the integration's entry disabled by the
    caller: Home Assistant's own growth under that load."""
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
            if services:
                call, body = await target.call(transport, service, data, client=i)
            else:
                call, body = await target.native(transport, client=i)
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
        "services": services,
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
