"""The config folder: made from demo/config once, the demo package regenerated whenever
demo/home.json changes, the integration linked in, and what the demo remembers between starts."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from .common import (
    BLUEPRINTS_DIR,
    DOMAIN,
    HOST,
    INTEGRATION_DIR,
    PACKAGE_FILE,
    STATE_FILE,
    TEMPLATE_DIR,
    DevHomeError,
)
from .facts import frontend_installed, frontend_requirement, hass_facts, pip_command, release
from .package import build_plan, home_hash, load_home


def read_state(config_dir: Path) -> dict[str, Any]:
    path = config_dir / STATE_FILE
    if not path.exists():
        return {}
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data


def write_state(config_dir: Path, **values: Any) -> None:
    data = {**read_state(config_dir), **values}
    path = config_dir / STATE_FILE
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    path.chmod(0o600)


# The `http:` block of configuration.yaml before the demo wrote its HTTP settings itself; an
# older copy of the template still has it.
_OLD_HTTP_YAML = "http:\n  server_host: 127.0.0.1\n  server_port: !env_var DEVHOME_PORT 8123\n\n"


def prepare_http(config_dir: Path, port: int) -> None:
    """The demo listens on 127.0.0.1:`port`. Up to 2026.9 the `http:` YAML says so (a package
    file, rewritten at every start). From 2026.10 Home Assistant keeps its HTTP settings in its
    storage and raises a repair for `http:` YAML (it stops working in 2027.2): the demo writes
    that storage itself before the first start, from Home Assistant's own defaults, and Home
    Assistant owns it after that (`server_port` reads the port back)."""
    package = config_dir / "packages" / "http.yaml"
    configuration = config_dir / "configuration.yaml"
    text = configuration.read_text(encoding="utf-8")
    if _OLD_HTTP_YAML in text:
        configuration.write_text(text.replace(_OLD_HTTP_YAML, ""), encoding="utf-8")
    storage = hass_facts().get("http_storage")
    if storage is None:
        package.parent.mkdir(parents=True, exist_ok=True)
        package.write_text(
            "# Written by scripts/devhome at every start: where the demo listens.\n"
            + yaml.safe_dump({"http": {"server_host": HOST, "server_port": port}}),
            encoding="utf-8",
        )
        return
    package.unlink(missing_ok=True)
    path = config_dir / ".storage" / storage["key"]
    if path.exists():
        return
    stable = {
        **storage["defaults"],
        "server_host": [HOST],
        "server_port": port,
        "created_at": datetime.now(UTC).isoformat(),
        "error": None,
        "error_message": None,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {
                "version": storage["version"],
                "minor_version": storage["minor_version"],
                "key": storage["key"],
                "data": {"stable": stable, "pending": None, "yaml_migration_done": True},
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    write_state(config_dir, http_port=port)


def _write_frontend_stub(config_dir: Path) -> None:
    """Home Assistant always loads `frontend` (recovery mode if it fails). Without the
    home-assistant-frontend package, serve a one-page stand-in through its development_repo
    option instead of letting Home Assistant download the package."""
    package = config_dir / "packages" / "frontend.yaml"
    if frontend_installed():
        package.unlink(missing_ok=True)
        return
    root = config_dir / ".devhome" / "frontend"
    pages = root / "hass_frontend"
    for sub in ("static", "frontend_latest", "frontend_es5"):
        (pages / sub).mkdir(parents=True, exist_ok=True)
    note = (
        "<!doctype html><meta charset=utf-8><title>Context Retrieval demo</title>"
        "<h1>Home Assistant is running</h1><p>The web UI is not installed in this venv "
        "(package <code>home-assistant-frontend</code>). The REST API is at <code>/api/</code> "
        "and the websocket API at <code>/api/websocket</code> (Home Assistant "
        f"{hass_facts()['version']}); the token is in <code>config/.token</code>. For the UI: "
        f"<code>{pip_command()} install {frontend_requirement()}</code>, then "
        "<code>scripts/develop</code> again.</p>\n"
    )
    for page in ("index.html", "authorize.html", "onboarding.html"):
        (pages / page).write_text(note, encoding="utf-8")
    package.write_text(
        "# Written by scripts/devhome: home-assistant-frontend is not installed.\n"
        + yaml.safe_dump({"frontend": {"development_repo": str(root)}}, allow_unicode=True),
        encoding="utf-8",
    )


def prepare_config(config_dir: Path, *, reset: bool = False) -> bool:
    """Create the config folder from the template (or reuse it); True when it is new."""
    config_dir = config_dir.resolve()
    if reset and config_dir.exists():
        shutil.rmtree(config_dir)
    created = not (config_dir / "configuration.yaml").exists()
    if created:
        config_dir.mkdir(parents=True, exist_ok=True)
        shutil.copytree(TEMPLATE_DIR, config_dir, dirs_exist_ok=True)
        storage = config_dir / ".storage"
        storage.mkdir(exist_ok=True)
        # Every onboarding step but "user" done: the owner is created through the API, and the
        # core-config step's extra integrations (met, radio_browser, …) are never set up.
        (storage / "onboarding").write_text(
            json.dumps(
                {
                    "version": 4,
                    "minor_version": 1,
                    "key": "onboarding",
                    "data": {"done": ["core_config", "analytics", "integration"]},
                },
                indent=2,
            ),
            encoding="utf-8",
        )
    # Home Assistant migrates its storage forward only: a folder a newer release has used
    # cannot be read by an older one (the tiers of scripts/develop keep separate folders).
    version = str(hass_facts()["version"])
    used = str(read_state(config_dir).get("ha_version") or "")
    if used and release(used) > release(version):
        raise DevHomeError(
            f"{config_dir} was last used by Home Assistant {used}, which "
            f"{version} cannot read; start over with --reset or choose another "
            "--config"
        )
    write_state(config_dir, ha_version=version)
    # The integration under development, linked so that a restart picks up every edit.
    custom = config_dir / "custom_components"
    custom.mkdir(exist_ok=True)
    link = custom / DOMAIN
    if link.is_symlink() and link.resolve() != INTEGRATION_DIR.resolve():
        link.unlink()
    if not link.exists() and not link.is_symlink():
        link.symlink_to(INTEGRATION_DIR.resolve(), target_is_directory=True)
    # The demo home, regenerated whenever home.json (or this generator) changes.
    digest = home_hash()
    package = config_dir / PACKAGE_FILE
    if created or read_state(config_dir).get("package_hash") != digest or not package.exists():
        plan = build_plan(load_home())
        package.parent.mkdir(parents=True, exist_ok=True)
        package.write_text(
            "# Generated by scripts/devhome from demo/home.json; edit that file instead.\n"
            + yaml.safe_dump(plan.package, allow_unicode=True, sort_keys=False, width=100),
            encoding="utf-8",
        )
        write_state(config_dir, package_hash=digest)
    # The repository's blueprints, refreshed on every start like the integration itself.
    shutil.copytree(BLUEPRINTS_DIR, config_dir / "blueprints", dirs_exist_ok=True)
    _write_frontend_stub(config_dir)
    return created
