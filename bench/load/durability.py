"""4. Renames through a crash, 5. a damaged write-ahead log.

4. Renames: 20 exposed lights are given names of their own (`crashtarget<k>v0`) and left until
   Home Assistant has saved its entity registry; then two clients (REST and websocket) rename
   them forward one version at a time (`rename_execute`, whole word, match case) and Home
   Assistant is killed with `kill -9` 6 s later, before its registry's delayed save (10 s).
   After a restart on the same folder every entity must have the last name a rename of it
   was acknowledged with, and rolling back the newest rename must give the entity the name it
   had before it (not one the registry never had). Repeated `runs` times.
5. Damaged log: view rules published in a tight loop, `kill -9`, one byte of a frame in the
   middle of the view database's write-ahead log flipped (what a bad disk sector does), a
   restart: the integration must raise its repair issue for the view store (SQLite alone would
   open the file and drop every transaction after the damage without a word).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import struct
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from .clients import Target, connect, disconnect
from .crash import VIEWS_DB, integrity, kill_9, restart_server

RENAME_TARGETS = 20
RENAME_LANES = 2
RENAME_SECONDS = 6.0  # Home Assistant saves its entity registry 10 s after a change
REGISTRY_SAVED_SECONDS = 12.0
PUBLISH_SECONDS = 5.0
WAL_HEADER, FRAME_HEADER = 32, 24


def rename_targets(home: dict[str, Any], renamable: set[str]) -> list[str]:
    """The demo home's first lights the server has in its entity registry and exposes."""
    lights = [e["entity_id"] for e in home["entities"] if e["entity_id"].startswith("light.")]
    return sorted(e for e in lights if e in renamable)[:RENAME_TARGETS]


async def _renamable(url: str, token: str) -> set[str]:
    """Entities with a registry entry (a name to change) that are exposed to Assist."""
    session, target = await connect(url, token)
    try:
        registered = await target.ws[0].command("config/entity_registry/list")
        listing = await target.ws[0].command("homeassistant/expose_entity/list")
    finally:
        await disconnect(session, target)
    exposed = {
        entity
        for entity, assistants in listing["exposed_entities"].items()
        if assistants.get("conversation")
    }
    return {e["entity_id"] for e in registered} & exposed


def _name(k: int, version: int) -> str:
    return f"crashtarget{k}v{version}"


def _version(name: str | None, k: int) -> int:
    """Which version of entity k's name `name` is (-1: none of ours)."""
    prefix = f"crashtarget{k}v"
    if not name or not name.startswith(prefix) or not name[len(prefix) :].isdigit():
        return -1
    return int(name[len(prefix) :])


async def _rename_burst(
    target: Target, entities: list[str], seconds: float, kill: Any
) -> tuple[dict[str, int], list[str], int, list[str]]:
    """Rename forward until `seconds` passed, then kill: the acknowledged version of each
    entity, the acknowledged snapshot ids in order, attempts, errors."""
    acked: dict[str, int] = {}
    snapshots: list[str] = []
    errors: list[str] = []
    stop = asyncio.Event()
    attempts = 0

    async def lane(number: int) -> None:
        nonlocal attempts
        mine = entities[number::RENAME_LANES]
        version = dict.fromkeys(mine, 0)
        for i in itertools.count():
            entity = mine[i % len(mine)]
            k = entities.index(entity)
            attempts += 1
            call, body = await target.call(
                "rest" if number % 2 == 0 else "websocket",
                "rename_execute",
                {
                    "find": _name(k, version[entity]),
                    "replace": _name(k, version[entity] + 1),
                    "whole_word": True,
                    "match_case": True,
                },
                client=number,
            )
            if stop.is_set():
                return
            if call.outcome == "ok" and isinstance(body, dict) and body.get("entities") == 1:
                version[entity] += 1
                acked[entity] = version[entity]
                snapshots.append(str(body["snapshot_id"]))
            else:
                errors.append(f"{call.outcome} {call.detail} {body}"[:200])

    tasks = [asyncio.create_task(lane(n)) for n in range(RENAME_LANES)]
    await asyncio.sleep(seconds)
    acknowledged, order = dict(acked), list(snapshots)  # what was answered before the kill
    kill()
    stop.set()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, Exception):
            errors.append(f"a client stopped: {outcome!r}"[:200])
    return acknowledged, order, attempts, errors


async def _names(target: Target, entities: list[str]) -> dict[str, str | None]:
    out = {}
    for entity in entities:
        entry = await target.ws[0].command("config/entity_registry/get", entity_id=entity)
        out[entity] = entry.get("name")
    return out


async def _prepare(url: str, token: str, entities: list[str]) -> None:
    session, target = await connect(url, token)
    try:
        for k, entity in enumerate(entities):
            await target.ws[0].command(
                "config/entity_registry/update", entity_id=entity, name=_name(k, 0)
            )
    finally:
        await disconnect(session, target)


async def _burst(
    url: str, token: str, entities: list[str], kill: Any
) -> tuple[dict[str, int], list[str], int, list[str]]:
    session, target = await connect(url, token)
    try:
        return await _rename_burst(target, entities, RENAME_SECONDS, kill)
    finally:
        await disconnect(session, target)


async def _check(
    url: str, token: str, entities: list[str], snapshots: list[str]
) -> tuple[dict[str, str | None], dict[str, Any]]:
    session, target = await connect(url, token)
    try:
        names = await _names(target, entities)
        return names, await _roll_back_newest(target, entities, snapshots, names)
    finally:
        await disconnect(session, target)


def run_rename_crashes(
    config_dir: Path, process: Any, url: str, token: str, devhome: ModuleType, runs: int
) -> tuple[list[dict[str, Any]], Any, Any]:
    """The runs, and the Home Assistant that runs after the last (process, set-up)."""
    entities = rename_targets(devhome.load_home(), asyncio.run(_renamable(url, token)))
    if len(entities) < RENAME_TARGETS:
        raise RuntimeError(f"only {len(entities)} lights to rename: {entities}")
    results = []
    home = None
    for run in range(1, runs + 1):
        asyncio.run(_prepare(url, token, entities))
        time.sleep(REGISTRY_SAVED_SECONDS)  # the starting names are in the registry's file
        acked, snapshots, attempts, errors = asyncio.run(
            _burst(url, token, entities, functools.partial(kill_9, process, devhome))
        )
        process, home, restart = restart_server(config_dir, devhome)
        url, token = home.url, home.token
        names, rollback = asyncio.run(_check(url, token, entities, snapshots))
        # An acknowledged rename is lost when the name is older than it; a newer one (a rename
        # done but not yet answered when the process died) is the journal completing it.
        lost = sorted(e for e, v in acked.items() if _version(names.get(e), entities.index(e)) < v)
        renames = sum(acked.values())
        results.append(
            {
                "run": run,
                "attempts": attempts,
                "acknowledged": renames,
                "entities": len(acked),
                "lost": len(lost),
                "lost_samples": [(e, names.get(e)) for e in lost[:3]],
                "restart_seconds": restart,
                **rollback,
                "errors": len(errors),
                "error_samples": errors[:3],
            }
        )
        print(
            f"rename crash {run}: {renames} renames of {len(acked)} entities acknowledged, "
            f"{len(lost)} lost; rollback of the newest: {rollback}",
            flush=True,
        )
    _restore(url, token, entities, devhome)
    return results, process, home


async def _roll_back_newest(
    target: Target, entities: list[str], snapshots: list[str], names: dict[str, str | None]
) -> dict[str, Any]:
    """Roll back the newest acknowledged rename: it must give the entity the version before
    the one it has, or be refused (when a later rename, done but unanswered, moved it on) and
    change nothing; it must never write a name the registry did not have."""
    if not snapshots:
        return {"rollback": "none"}
    call, _ = await target.rest("rename_rollback", {"snapshot_id": snapshots[-1]})
    after = await _names(target, entities)
    changed = [e for e in entities if after[e] != names[e]]
    if call.outcome == "ok":
        right = len(changed) == 1 and all(
            _version(after[e], entities.index(e)) == _version(names[e], entities.index(e)) - 1
            for e in changed
        )
        return {"rollback": "done", "rollback_right": right}
    refused = "rename_snapshot_stale" in call.detail or "changed since" in call.detail
    return {"rollback": "refused", "rollback_right": refused and not changed}


def _restore(url: str, token: str, entities: list[str], devhome: ModuleType) -> None:
    """The demo home's own names again."""
    home = {e["entity_id"]: e for e in devhome.load_home()["entities"]}

    async def run() -> None:
        session, target = await connect(url, token)
        try:
            for entity in entities:
                await target.ws[0].command(
                    "config/entity_registry/update", entity_id=entity, name=home[entity]["name"]
                )
        finally:
            await disconnect(session, target)

    asyncio.run(run())


def damage_wal(path: Path) -> int | None:
    """Flip one byte in the middle of the write-ahead log's current frames (never the last
    one, which a crash may leave half written); the frame's number, or None if too few."""
    wal = path.with_name(path.name + "-wal")
    if not wal.exists():
        return None
    data = bytearray(wal.read_bytes())
    if len(data) < WAL_HEADER:
        return None
    page_size = struct.unpack(">I", data[8:12])[0]
    salts = data[16:24]
    size = FRAME_HEADER + page_size
    current = [
        n
        for n in range((len(data) - WAL_HEADER) // size)
        if data[WAL_HEADER + n * size + 8 : WAL_HEADER + n * size + 16] == salts
    ]
    if len(current) < 3:
        return None
    frame = current[len(current) // 2]
    data[WAL_HEADER + frame * size + FRAME_HEADER + page_size // 2] ^= 0xFF
    wal.write_bytes(bytes(data))
    return frame + 1


def run_wal_damage(
    config_dir: Path, process: Any, url: str, token: str, devhome: ModuleType
) -> tuple[dict[str, Any], Any, Any]:
    """The damaged log's run, and the Home Assistant that runs after it (process, set-up)."""

    async def publish() -> dict[str, str]:
        session, target = await connect(url, token)
        published: dict[str, str] = {}
        stop = asyncio.Event()

        async def publisher() -> None:
            for n in itertools.count(1):
                name = f"wal probe view {n:04d}"
                call, body = await target.call(
                    "rest" if n % 2 else "websocket",
                    "publish_view_rule",
                    {"name": name, "rule": ["灯 并且 客厅", "lights and upstairs"][n % 2]},
                    client=n,
                )
                if stop.is_set():
                    return
                if call.outcome == "ok" and isinstance(body, dict):
                    published[name] = str(body.get("id"))

        task = asyncio.create_task(publisher())
        try:
            await asyncio.sleep(PUBLISH_SECONDS)
            acknowledged = dict(published)
            kill_9(process, devhome)
            stop.set()
            await asyncio.gather(task, return_exceptions=True)
            return acknowledged
        finally:
            await disconnect(session, target)

    published = asyncio.run(publish())
    frame = damage_wal(config_dir / VIEWS_DB)
    process, home, restart = restart_server(config_dir, devhome)

    async def check() -> tuple[list[dict[str, Any]], set[str]]:
        session, target = await connect(home.url, home.token)
        try:
            listing = await target.ws[0].command("repairs/list_issues")
            ours = [i for i in listing["issues"] if i["domain"] == "context_retrieval"]
            _, body = await target.rest("list_view_rules", {})
            names = {str(r["name"]) for r in (body or {}).get("rules", [])}
            return ours, names
        finally:
            await disconnect(session, target)

    issues, names = asyncio.run(check())
    raised = [i for i in issues if i.get("issue_id") == "view_store_recovered"]
    result = {
        "published": len(published),
        "damaged_frame": frame,
        "kept": sum(1 for n in published if n in names),
        "issue": raised[0].get("translation_key") if raised else None,
        "integrity": integrity(config_dir / VIEWS_DB),
        "restart_seconds": restart,
    }
    print(f"damaged log: {result}", flush=True)
    return result, process, home
