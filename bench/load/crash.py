"""3. Crash: view rules published and questions asked in a tight loop, `kill -9`, a restart on
the same folder; everything acknowledged before the kill must be there, both databases intact."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from .clients import Target, connect, disconnect
from .server import STARTUP_SECONDS

CRASH_SECONDS = 12.0
VIEWS_DB = "context_retrieval_views.db"
QUERIES_DB = "context_retrieval_queries.db"
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


def restart_server(config_dir: Path, devhome: ModuleType) -> tuple[Any, Any, float]:
    """Home Assistant started again on the same folder: (process, its set-up, seconds)."""
    # The same folder: Home Assistant 2026.10+ keeps listening on the port in its storage.
    port = devhome.server_port(config_dir, devhome.free_port())
    started = time.monotonic()
    process = devhome.start_server(config_dir, port)
    home = asyncio.run(devhome.async_set_up(config_dir, port, process, STARTUP_SECONDS))
    return process, home, time.monotonic() - started


def kill_9(process: subprocess.Popen[bytes], devhome: ModuleType) -> None:
    """`kill -9` of Home Assistant, and whatever is left of its process group."""
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    devhome.stop_server(process)


def run_crash(
    config_dir: Path, process: subprocess.Popen[bytes], url: str, token: str, devhome: ModuleType
) -> tuple[dict[str, Any], subprocess.Popen[bytes], Any]:
    """The crash, and the Home Assistant that runs after it (its process and set-up)."""
    questions = crash_questions(devhome.load_home())

    def kill() -> None:
        os.kill(process.pid, signal.SIGKILL)  # kill -9 of the Home Assistant process

    async def load() -> tuple[dict[str, str], set[str], int]:
        session, target = await connect(url, token)
        try:
            return await crash_load(target, questions, CRASH_SECONDS, kill)
        finally:
            await disconnect(session, target)

    views, plans, attempts = asyncio.run(load())
    process.wait(timeout=30)
    devhome.stop_server(process)  # whatever is left of its process group
    print(
        f"crash: killed after {attempts} calls; {len(views)} publishes and {len(plans)} "
        "plans acknowledged",
        flush=True,
    )
    process, home, restart = restart_server(config_dir, devhome)

    async def check() -> tuple[set[str], set[str]]:
        session, target = await connect(home.url, home.token)
        try:
            return await list_after_restart(target)
        finally:
            await disconnect(session, target)

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
    return result, process, home
