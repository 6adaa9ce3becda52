"""Home Assistant as a child process in its own process group, and its log."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
from pathlib import Path

from .common import DOMAIN, HOST, LOG_FILE, PORT_ENV, STDOUT_FILE, DevHomeError
from .config_dir import prepare_http
from .facts import hass_python


def port_free(port: int, host: str = HOST) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # As Home Assistant binds: connections of a previous run in TIME_WAIT do not count,
        # a listening server does.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = HOST) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(config_dir: Path, port: int) -> subprocess.Popen[bytes]:
    """Home Assistant in its own process group; output in <config>/hass.stdout.log."""
    if not port_free(port):
        raise DevHomeError(
            f"port {port} on {HOST} is in use (another Home Assistant?); "
            "choose another one with --port"
        )
    prepare_http(config_dir, port)
    env = {**os.environ, PORT_ENV: str(port), "PYTHONUNBUFFERED": "1"}
    out = (config_dir / STDOUT_FILE).open("wb")  # this run's console output only
    try:
        return subprocess.Popen(
            [
                hass_python(),
                "-m",
                "homeassistant",
                "--config",
                str(config_dir),
                "--skip-pip",
                "--log-no-color",
            ],
            cwd=config_dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    finally:
        out.close()


def stop_server(process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Terminate the process group, kill it when it does not stop in time."""
    if process.poll() is not None:
        _kill_group(process, signal.SIGKILL)  # leftovers of an exited leader, if any
        return
    _kill_group(process, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process, signal.SIGKILL)
        process.wait(timeout=10)
    _kill_group(process, signal.SIGKILL)


def _kill_group(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


def log_tail(config_dir: Path, lines: int = 40) -> str:
    parts = []
    for name in (LOG_FILE, STDOUT_FILE):
        path = config_dir / name
        if path.exists():
            text = path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
            parts.append(f"--- {path} (last {len(text)} lines) ---\n" + "\n".join(text))
    return "\n".join(parts) or "(no log written)"


def integration_records(
    config_dir: Path, levels: tuple[str, ...] = ("WARNING", "ERROR", "CRITICAL")
) -> list[str]:
    """Log records at these levels that involve this integration, each with its traceback
    (Home Assistant's notice that a custom integration is loaded aside)."""
    path = config_dir / LOG_FILE
    if not path.exists():
        return []
    records: list[list[str]] = []
    marks = tuple(f" {level} (" for level in levels)
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line[:4].isdigit() and line[4:5] == "-":  # a record starts with its date
            current = [line] if any(m in line for m in marks) else None
            if current is not None:
                records.append(current)
        elif current is not None:
            current.append(line)
    return [
        "\n".join(r)
        for r in records
        if DOMAIN in "\n".join(r) and "has not been tested by Home Assistant" not in r[0]
    ]
