"""The demo Home Assistant a run talks to, of one tier, started by scripts/devhome/ in a
temporary config folder on a free port and stopped at the end whatever happens.

newest: Home Assistant 2026.11.0 (.venv-newest-ha); on a machine without Python 3.14 that venv
lives in the chroot of scripts/newest, so the benchmark itself runs there:
`bash scripts/newest .venv-newest/bin/python -m bench.dialogs`. oldest: Home Assistant 2025.4.4
(.venv). The venvs are looked for in this checkout, then in the main checkout of a git
worktree; `--python` (or $DEVHOME_PYTHON) names the interpreter instead.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..load.server import load_devhome

ROOT = Path(__file__).resolve().parents[2]
TIERS = {"newest": ".venv-newest-ha", "oldest": ".venv"}
PYTHON_ENV = "DEVHOME_PYTHON"
STARTUP_SECONDS = 240.0


class ServerError(RuntimeError):
    """Home Assistant could not be found, started or set up; the message says why."""


def checkouts() -> list[Path]:
    """This checkout, then the main one when this is a git worktree (`.git` is a file)."""
    found = [ROOT]
    marker = ROOT / ".git"
    if marker.is_file():
        text = marker.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            gitdir = Path(text.split(":", 1)[1].strip())
            # <main>/.git/worktrees/<name> → <main>
            if gitdir.parent.name == "worktrees":
                found.append(gitdir.parent.parent.parent)
    return found


def hass_python(tier: str, explicit: str | None = None) -> str:
    """The interpreter of the tier's Home Assistant (not resolved: a venv's python is a link)."""
    chosen = explicit or os.environ.get(PYTHON_ENV)
    if chosen:
        return str(Path(chosen).absolute())
    if tier not in TIERS:
        raise ServerError(f"unknown tier {tier!r} (newest or oldest)")
    for checkout in checkouts():
        python = checkout / TIERS[tier] / "bin" / "python"
        if (checkout / TIERS[tier] / "pyvenv.cfg").exists():
            return str(python)
    raise ServerError(f"no {TIERS[tier]} in {', '.join(map(str, checkouts()))}: bash scripts/setup")


def check_python(python: str, tier: str) -> str:
    """The Home Assistant version that interpreter has; a clear error when it cannot run here
    (the newest tier's venv outside its chroot)."""
    try:
        done = subprocess.run(
            [python, "-c", "from homeassistant.const import __version__; print(__version__)"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    except OSError as err:
        done = subprocess.CompletedProcess([python], 1, "", str(err))
    if done.returncode != 0:
        hint = ""
        if tier == "newest" and not os.environ.get("CONTEXT_RETRIEVAL_CHROOT"):
            hint = (
                "\nThe newest tier runs in the chroot of scripts/newest: "
                "bash scripts/newest .venv-newest/bin/python -m bench.dialogs"
            )
        raise ServerError(f"{python} cannot run Home Assistant: {done.stderr.strip()[-500:]}{hint}")
    return done.stdout.strip()


@contextlib.contextmanager
def home_assistant(tier: str, python: str | None = None) -> Iterator[Any]:
    """A started, set-up demo Home Assistant (devhome's `DevHome`), stopped on leaving."""
    chosen = hass_python(tier, python)
    check_python(chosen, tier)
    os.environ[PYTHON_ENV] = chosen  # devhome starts and asks this interpreter
    devhome = load_devhome()
    with tempfile.TemporaryDirectory(prefix="bench-dialogs-") as tmp:
        config_dir = Path(tmp) / "config"
        try:
            with devhome.running(config_dir, timeout=STARTUP_SECONDS) as (home, _process):
                yield home
        except devhome.DevHomeError as err:
            raise ServerError(str(err)) from err
