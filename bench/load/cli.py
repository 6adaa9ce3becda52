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
4. and 5. Renames through `kill -9` (3 runs) and a damaged write-ahead log: durability.py.

Before the soak, the same soak runs with the integration's entry disabled and Home Assistant's
own calls in place of the integration's (0. baseline): what Home Assistant itself grows by
under that churn and traffic, reported apart from the integration's soak.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from ..report import load_average, write_table
from .calls import BACKPRESSURE
from .clients import connect, disconnect, mixed_calls
from .crash import run_crash
from .durability import REGISTRY_SAVED_SECONDS, run_rename_crashes, run_wal_damage
from .server import STARTUP_SECONDS, load_devhome
from .stress import run_burst, run_soak
from .tables import format_tables


async def phase_baseline(
    url: str, token: str, pid: int, config_dir: Path, minutes: float, devhome: ModuleType
) -> dict[str, Any]:
    """The soak with the integration's entry disabled and Home Assistant's own calls."""
    session, target = await connect(url, token)
    try:
        ws = target.ws[0]
        entry = (await ws.command("config_entries/get", domain="context_retrieval"))[0]
        await ws.command("config_entries/disable", entry_id=entry["entry_id"], disabled_by="user")
        try:
            return await run_soak(target, pid, config_dir, minutes, devhome, services=False)
        finally:
            await ws.command("config_entries/disable", entry_id=entry["entry_id"], disabled_by=None)
            for _ in range(240):
                entries = await ws.command("config_entries/get", domain="context_retrieval")
                if entries[0]["state"] == "loaded":
                    break
                await asyncio.sleep(0.5)
    finally:
        await disconnect(session, target)


async def phase_burst_and_soak(
    url: str, token: str, pid: int, config_dir: Path, minutes: float, devhome: ModuleType
) -> dict[str, Any]:
    session, target = await connect(url, token)
    try:
        # One call of each kind first: the first question compiles lexicons, and so on.
        for service, data in mixed_calls(3):
            await target.rest(service, data)
        burst, problems = await run_burst(target)
        soak = None
        if minutes > 0:
            soak = await run_soak(target, pid, config_dir, minutes, devhome)
    finally:
        await disconnect(session, target)
    return {"burst": burst, "burst_problems": problems, "soak": soak}


def _crashes(
    result: dict[str, Any],
    config_dir: Path,
    process: Any,
    home: Any,
    devhome: ModuleType,
    rename_runs: int,
) -> tuple[Any, Any]:
    """3.-5.: each leaves its figures in `result`; a phase that fails ends them with a note
    (the figures measured so far are kept)."""
    try:
        result["crash"], process, home = run_crash(
            config_dir, process, home.url, home.token, devhome
        )
        if rename_runs:
            result["renames"], process, home = run_rename_crashes(
                config_dir, process, home.url, home.token, devhome, rename_runs
            )
        result["wal"], process, home = run_wal_damage(
            config_dir, process, home.url, home.token, devhome
        )
    except Exception as err:
        result["notes"].append(f"the crash phases stopped: {err!r}"[:400])
        print(devhome.log_tail(config_dir), file=sys.stderr)
    return process, home


def run(minutes: float, crash: bool = True, rename_runs: int = 3) -> dict[str, Any]:
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
            if minutes > 0:
                result["baseline"] = asyncio.run(
                    phase_baseline(home.url, home.token, process.pid, config_dir, minutes, devhome)
                )
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
                # Home Assistant writes its registries 10 s after the last change: under the
                # soak's churn it wrote none, and a kill now would lose the demo home's own
                # entity ids and expose settings with them.
                time.sleep(REGISTRY_SAVED_SECONDS)
                process, home = _crashes(result, config_dir, process, home, devhome, rename_runs)
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
        prog="python -m bench.load",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--soak-minutes",
        type=float,
        default=10.0,
        help="length of the soak (default 10; 0 skips it)",
    )
    parser.add_argument("--no-crash", action="store_true", help="skip the kill -9 tests")
    parser.add_argument(
        "--rename-crashes",
        type=int,
        default=3,
        help="kill -9 runs in the middle of renames (default 3; 0 skips them)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the raw figures here")
    parser.add_argument("--write", metavar="FILE", help="update the load section of FILE")
    parser.add_argument(
        "--section",
        default="load",
        help="the section of FILE to update (<!-- SECTION:start --> … end; default load)",
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    before = load_average()
    result = run(args.soak_minutes, crash=not args.no_crash, rename_runs=args.rename_crashes)
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
        write_table(args.write, args.section, table, "bench.load", argv, time.monotonic() - started)
    return 0
