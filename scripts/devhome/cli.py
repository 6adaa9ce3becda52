"""`scripts/develop`: start the demo Home Assistant, print how to reach it, restart it when it
asks, stop it on Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .common import (
    DEFAULT_PORT,
    DOWNSTREAM_AGENT,
    HOST,
    LOG_FILE,
    PORT_ENV,
    RESTART_EXIT_CODE,
    ROOT,
    TOKEN_FILE,
    DevHomeError,
)
from .config_dir import prepare_config
from .facts import frontend_installed, frontend_requirement, local_facts, pip_command
from .process import start_server, stop_server
from .set_up import DevHome, async_set_up, server_port


def _summary(home: DevHome) -> str:
    lines = [
        "",
        f"Home Assistant {home.version} with the demo home is ready ({home.seconds:.1f} s).",
        f"  URL       {home.url}"
        + (
            ""
            if frontend_installed()
            else f"   (API only; for the web UI: {pip_command()} install {frontend_requirement()})"
        ),
        f"  login     {home.username} / {home.password}",
        f"  token     {home.token}",
        f"            (also in {home.config_dir / TOKEN_FILE})",
        f"  agent     {home.agent_id}  (Assist's preferred pipeline; downstream: "
        f"{DOWNSTREAM_AGENT})",
        f"  entities  {home.entities} demo entities"
        + (f", {home.indexed} in the index" if home.indexed is not None else "")
        + (f"; not emulated: {', '.join(home.skipped)}" if home.skipped else ""),
        f"  log       {home.config_dir / LOG_FILE}",
        "",
        "Try:",
        f'  curl -s -H "Authorization: Bearer $(cat {home.config_dir / TOKEN_FILE})" '
        f"-H 'Content-Type: application/json' \\\n"
        f'    -d \'{{"text": "关掉除了卧室以外的所有灯", "language": "zh-Hans", '
        f'"agent_id": "{home.agent_id}"}}\' {home.url}/api/conversation/process',
        "",
        "Ctrl-C stops Home Assistant.",
    ]
    return "\n".join(lines)


class _Stop(Exception):
    """A termination signal arrived."""


def _raise_stop(signum: int, frame: Any) -> None:
    raise _Stop(signal.Signals(signum).name)


def main(argv: list[str] | None = None) -> int:
    if (argv if argv is not None else sys.argv[1:]) == ["--facts"]:
        print(json.dumps(local_facts()))  # asked by hass_facts() from another interpreter
        return 0
    parser = argparse.ArgumentParser(
        prog="scripts/develop",
        description="Start a real Home Assistant with this integration and the demo home.",
    )
    parser.add_argument(
        "--tier",
        choices=("newest", "oldest"),
        default="newest",
        help="which tested Home Assistant runs the demo: newest (default; config folder "
        "./config) or oldest (./config-oldest: a folder a newer release used cannot be read "
        "by an older one); chosen by scripts/develop before this starts",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get(PORT_ENV, DEFAULT_PORT)),
        help=f"HTTP port on {HOST} (default: ${PORT_ENV} or {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--config", type=Path, default=ROOT / "config", help="config folder (default: ./config)"
    )
    parser.add_argument(
        "--reset",
        action="store_true",
        help="recreate the config folder from demo/config and demo/home.json",
    )
    parser.add_argument(
        "--reseed", action="store_true", help="write floors, areas, labels, names and aliases again"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=180.0,
        help="seconds to wait for Home Assistant to be ready (default 180)",
    )
    args = parser.parse_args(argv)
    config_dir: Path = args.config.resolve()

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _raise_stop)
    try:
        created = prepare_config(config_dir, reset=args.reset)
    except DevHomeError as err:
        print(f"scripts/develop: {err}", file=sys.stderr)
        return 1
    port = server_port(config_dir, args.port)
    if port != args.port:
        print(
            f"Home Assistant keeps the HTTP settings of {config_dir} in its storage (2026.10+):"
            f" port {port}, not {args.port}; --reset starts over with a new port."
        )
    print(
        f"{'Created' if created else 'Reusing'} {config_dir}; starting Home Assistant on "
        f"http://{HOST}:{port} …",
        flush=True,
    )
    process: subprocess.Popen[bytes] | None = None
    try:
        while True:
            started = time.monotonic()
            process = start_server(config_dir, port)
            home = asyncio.run(
                async_set_up(config_dir, port, process, args.timeout, reseed=args.reseed)
            )
            home.seconds = time.monotonic() - started
            print(_summary(home), flush=True)
            code = process.wait()
            if code != RESTART_EXIT_CODE:
                print(f"Home Assistant exited with code {code}.")
                return code
            print("Home Assistant asked for a restart; starting it again …", flush=True)
    except DevHomeError as err:
        print(f"scripts/develop: {err}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, _Stop):
        print("\nStopping Home Assistant …", flush=True)
        return 0
    finally:
        if process is not None:
            # Ctrl-C again must not leave Home Assistant behind.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            stop_server(process)
