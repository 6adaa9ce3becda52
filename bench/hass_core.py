"""A real Home Assistant core in the benchmark's own process and event loop.

Set up the way `python -m homeassistant` sets it up (`bootstrap.async_setup_hass`), from a
temporary config folder: a minimal configuration (HTTP on a free loopback port, metric units,
nothing downloaded: `skip_pip`) and this repository's integration linked into
`custom_components/`. It needs no test package, so it runs on every supported release, including
the newest (2026.11), which pytest-homeassistant-custom-component does not start on.

Home Assistant's bootstrap configures the process (logging, exception hooks): one instance per
process. `bench.tokens` runs each home in a child process of its own.
"""

from __future__ import annotations

import contextlib
import socket
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INTEGRATION = ROOT / "custom_components" / "context_retrieval"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def write_config(config_dir: Path, components: tuple[str, ...]) -> None:
    """configuration.yaml and the linked integration."""
    lines = [
        "homeassistant:",
        "  name: Benchmark",
        "  latitude: 0",
        "  longitude: 0",
        "  elevation: 0",
        "  unit_system: metric",
        "  time_zone: UTC",
        "  country: US",
        "http:",
        "  server_host: 127.0.0.1",
        f"  server_port: {_free_port()}",
        "logger:",
        "  default: error",
        "  logs:",
        # Machine noise, as in the demo: no ffmpeg binary, no libturbojpeg.
        "    haffmpeg: critical",
        "    homeassistant.components.camera.img_util: critical",
        *(f"{component}:" for component in components),
    ]
    (config_dir / "configuration.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    custom = config_dir / "custom_components"
    custom.mkdir(exist_ok=True)
    (custom / INTEGRATION.name).symlink_to(INTEGRATION, target_is_directory=True)


@contextlib.asynccontextmanager
async def async_home_assistant(
    components: tuple[str, ...] = ("conversation", "intent"),
) -> AsyncIterator[Any]:
    """A started Home Assistant with `components` set up; stopped on leaving."""
    from homeassistant import bootstrap
    from homeassistant.runner import RuntimeConfig

    with tempfile.TemporaryDirectory(prefix="bench-hass-") as tmp:
        config_dir = Path(tmp)
        write_config(config_dir, components)
        hass = await bootstrap.async_setup_hass(
            RuntimeConfig(config_dir=str(config_dir), skip_pip=True)
        )
        if hass is None:
            raise RuntimeError("Home Assistant did not set up (see its log above)")
        if getattr(hass.config, "recovery_mode", False) or getattr(hass.config, "safe_mode", False):
            raise RuntimeError("Home Assistant started in recovery mode (see its log above)")
        await hass.async_start()
        try:
            yield hass
        finally:
            await hass.async_stop()
