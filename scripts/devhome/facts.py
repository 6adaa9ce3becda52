"""What the demo needs to know about the Home Assistant that runs it: its release, the domains
its `template:` syntax accepts, whether its web UI is installed. That Home Assistant may live in
another interpreter (`$DEVHOME_PYTHON`), which is then asked once."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from .common import PYTHON_ENV, DevHomeError

# This folder, run as `python scripts/devhome --facts` by another interpreter.
PACKAGE_DIR = Path(__file__).resolve().parent


def _schema_keys(schema: Any, depth: int = 0) -> set[str]:
    """Top-level keys of a voluptuous schema, looking through Schema/All/Any wrappers."""
    if depth > 6:
        return set()
    if isinstance(schema, dict):
        return {str(key) for key in schema}
    validators = getattr(schema, "validators", None)  # All/Any (their .schema is the parent)
    if validators is not None:
        keys: set[str] = set()
        for validator in validators:
            keys |= _schema_keys(validator, depth + 1)
        return keys
    inner = getattr(schema, "schema", None)
    if inner is not None and inner is not schema:
        return _schema_keys(inner, depth + 1)
    return set()


def hass_python() -> str:
    """The interpreter that runs Home Assistant (as given: a venv's bin/python is a link that
    must not be resolved)."""
    chosen = os.environ.get(PYTHON_ENV)
    return str(Path(chosen).absolute()) if chosen else sys.executable


def local_facts() -> dict[str, Any]:
    """What the generator and the summary need to know about this interpreter's Home Assistant."""
    from homeassistant.const import __version__

    return {
        "version": __version__,
        "modern": sorted(_modern_template_domains()),
        "frontend_installed": importlib.util.find_spec("hass_frontend") is not None,
        "frontend_requirement": _frontend_requirement(),
        "http_storage": _http_storage(),
    }


def _http_storage() -> dict[str, Any] | None:
    """How Home Assistant 2026.10+ stores its HTTP settings (the defaults from its own schema),
    or None up to 2026.9, where the `http:` YAML is the HTTP configuration."""
    try:
        from homeassistant.components.http import config as http_config
    except ImportError:
        return None
    schema = getattr(http_config, "HTTP_STORAGE_SCHEMA", None)
    if schema is None:
        return None
    return {
        "key": http_config.STORAGE_KEY,
        "version": http_config.STORAGE_VERSION,
        "minor_version": http_config.STORAGE_MINOR_VERSION,
        "defaults": json.loads(json.dumps(schema({}), default=str)),
    }


_FACTS: dict[str, dict[str, Any]] = {}


def hass_facts() -> dict[str, Any]:
    """`local_facts` of the interpreter that runs Home Assistant (asked once)."""
    python = hass_python()
    if python not in _FACTS:
        if python == sys.executable or _prefix_of(python) == sys.prefix:
            _FACTS[python] = local_facts()
        else:
            done = subprocess.run(
                [python, str(PACKAGE_DIR), "--facts"],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            if done.returncode != 0:
                raise DevHomeError(
                    f"{python} cannot tell which Home Assistant it has:\n" + done.stderr[-2000:]
                )
            _FACTS[python] = json.loads(done.stdout)
    return _FACTS[python]


def _prefix_of(python: str) -> str:
    """The venv (or installation) an interpreter path belongs to: bin/python → its parent."""
    return str(Path(python).absolute().parent.parent)


def modern_template_domains() -> set[str]:
    """Domains the Home Assistant that runs the demo accepts under `template:`."""
    return set(hass_facts()["modern"])


def _modern_template_domains() -> set[str]:
    from homeassistant.components.template import config as template_config
    from homeassistant.const import __version__

    keys = _schema_keys(getattr(template_config, "CONFIG_SECTION_SCHEMA", None))
    if keys:
        return keys
    # The schema changed shape: releases from 2025.12 on have every domain in the new syntax.
    major, minor = (int(part) for part in __version__.split(".")[:2])
    if (major, minor) >= (2025, 12):
        return {"light", "switch", "sensor", "binary_sensor", "cover", "fan", "lock", "vacuum"}
    return {"light", "switch", "sensor", "binary_sensor"}


def frontend_installed() -> bool:
    return bool(hass_facts()["frontend_installed"])


def frontend_requirement() -> str:
    return str(hass_facts()["frontend_requirement"])


def _frontend_requirement() -> str:
    """The home-assistant-frontend release the installed Home Assistant wants."""
    import homeassistant.components.frontend as frontend

    manifest = json.loads((Path(frontend.__file__).parent / "manifest.json").read_text("utf-8"))
    return next(
        (r for r in manifest.get("requirements", []) if r.startswith("home-assistant-frontend")),
        "home-assistant-frontend",
    )


def release(version: str) -> tuple[int, ...]:
    """2026.11.0 → (2026, 11, 0); a pre-release suffix is ignored."""
    parts = []
    for part in version.split(".")[:3]:
        digits = ""
        for ch in part:
            if not ch.isdigit():
                break
            digits += ch
        parts.append(int(digits) if digits else 0)
    return tuple(parts)


def pip_command() -> str:
    return str(Path(hass_python()).parent / "pip")
