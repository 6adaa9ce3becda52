"""Shared pieces of the benchmark reports: machine line, command line, BENCHMARKS.md sections."""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import math
import os
import platform
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def machine_info() -> dict[str, str]:
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 0
    try:
        home_assistant = importlib.metadata.version("homeassistant")
    except importlib.metadata.PackageNotFoundError:
        home_assistant = ""
    return {
        "cpu": cpu,
        "cores": f"{os.cpu_count()} ({usable} usable)",
        "python": platform.python_version(),
        "homeassistant": home_assistant,
        "platform": platform.platform(),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def load_average() -> str:
    try:
        return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def machine_line(info: dict[str, str]) -> str:
    home_assistant = (
        f"Home Assistant {info['homeassistant']}, " if info.get("homeassistant") else ""
    )
    return (
        f"Machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, "
        f"{home_assistant}{info['platform']}; {info['date']}."
    )


def interpreter() -> str:
    """How this interpreter is run from the checkout: its venv's python, through
    scripts/newest when it lives in the newest tier's chroot."""
    executable = Path(sys.executable).absolute()
    try:
        shown = str(executable.relative_to(ROOT))
    except ValueError:
        shown = str(executable)
    return ("bash scripts/newest " if os.environ.get("CONTEXT_RETRIEVAL_CHROOT") else "") + shown


def command_line(module: str, argv: list[str]) -> str:
    return " ".join([interpreter(), "-m", module, *(shlex.quote(a) for a in argv)])


def write_section(path: str | Path, start: str, end: str, body: str) -> None:
    """Put `body` between the `start` and `end` markers of `path` (append them if missing)."""
    path = Path(path)
    block = f"{start}\n{body.rstrip()}\n{end}"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    i, j = text.find(start), text.find(end)
    if i != -1 and j > i:
        text = text[:i] + block + text[j + len(end) :]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def write_table(
    path: str | Path, marker: str, table: str, module: str, argv: list[str], elapsed: float
) -> None:
    """A results table with the machine and the command that produced it, as one section."""
    write_section(
        path,
        f"<!-- {marker}:start -->",
        f"<!-- {marker}:end -->",
        "\n\n".join(
            [
                table,
                machine_line(machine_info()),
                f"Command: `{command_line(module, argv)}` ({elapsed:.0f} s).",
            ]
        ),
    )
