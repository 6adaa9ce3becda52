"""A real Home Assistant with the demo home: `scripts/develop` and the end-to-end tests.

What it does, in order:

1. Config folder. `demo/config/` (configuration.yaml, packages/) is copied to the target folder
   (`./config` for development, a temporary folder for the tests) the first time or with
   `--reset`; `packages/demo_home.yaml` is written from `demo/home.json` (again whenever that
   file changes); `custom_components/context_retrieval` is symlinked into it, so edits to the
   integration need only a restart.
2. Entities. Every entity of the demo home becomes a real Home Assistant entity that changes
   state when it is switched: template light/switch/fan/cover/lock/vacuum/sensor/binary_sensor
   backed by hidden `input_boolean`/`input_number` helpers, `generic_thermostat` climates,
   `generic_hygrostat` humidifiers, `universal` media players, YAML scenes and scripts. Water
   heaters have no such core platform and are left out, and device names cannot be given to
   YAML entities. The newer `template:` syntax is used for every domain the installed Home
   Assistant accepts it for, the legacy platform syntax for the rest (2025.4 has the new syntax
   only for light/switch/sensor/binary_sensor; the legacy one is deprecated from 2025.12 and
   goes away in 2026). Every entity has a unique id (`dh.<entity_id>`), by which its registry
   entry is renamed to the id of home.json (the new syntax derives ids from the Chinese names).
3. Home Assistant runs as a child process (`python -m homeassistant --skip-pip`, so nothing is
   ever downloaded) in its own process group, which is terminated, then killed, on exit; exit
   code 100 (restart from the UI) starts it again. The interpreter is this one, or the one
   `$DEVHOME_PYTHON` names (the newest tier runs the e2e tests in the venv of Home Assistant
   2026.10.4 against a server of 2026.11.0); what the generator needs to know about the
   installed Home Assistant is asked of that interpreter. It always loads `frontend`, and goes into
   recovery mode when that fails: without the home-assistant-frontend package a one-page
   stand-in is served through the frontend's `development_repo` option.
4. Onboarding. Before the first start `.storage/onboarding` marks every step but "user" done
   (the core-config step would set up met/radio_browser/google_translate, which are not
   installed); the owner is then created through `POST /api/onboarding/users` and later runs log
   in through the ordinary login flow.
5. Registries, through the websocket API after start (`config/floor_registry/*`,
   `config/area_registry/*`, `config/label_registry/*`, `config/entity_registry/update`,
   `homeassistant/expose_entity`). Why not write the `.storage` files before the first start:
   their schemas carry versions that change between releases (created_at/modified_at, categories,
   alias lists, …), entity entries must match the platform's unique ids and config entries
   exactly, and a file of a newer version than the running Home Assistant refuses to load. The
   websocket commands are what Home Assistant's own UI uses and stay stable from 2025.4 to 2026.x;
   Home Assistant validates and migrates everything they write. Floors and areas are created
   under their home.json id and then renamed, so `area_id`s are `living_room`, `kitchen`, ….
6. The integration: a config entry through the config-flow REST API (handler
   `context_retrieval`, downstream agent `conversation.home_assistant`), the preferred Assist
   pipeline's conversation engine set to its agent, its index rebuilt.
7. A long-lived access token (websocket `auth/long_lived_access_token`) in `<config>/.token`,
   the login in `<config>/.devhome.json`.
8. HTTP settings. From 2026.10 Home Assistant moves the `http:` YAML (loopback address, port)
   into its storage on the first start, as a pending config that reverts to the default (all
   interfaces, port 8123) with a restart five minutes later unless confirmed; it is confirmed
   through `http/config/promote`, and later starts of that folder use the stored port.

Registries are seeded on the first start and whenever demo/home.json changes; the config entry,
the pipeline and the token are checked on every start. Run `scripts/develop --help`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import yaml

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE_DIR = ROOT / "demo" / "config"
HOME_FILE = ROOT / "demo" / "home.json"
INTEGRATION_DIR = ROOT / "custom_components" / "context_retrieval"
DOMAIN = "context_retrieval"
BLUEPRINTS_DIR = ROOT / "blueprints"
# Views published in the demo (name, rule): what a homeowner might set up first.
DEMO_VIEWS = (
    ("节日装饰", "圣诞装饰 或 阳台"),
    ("Christmas", "圣诞装饰"),
    ("Upstairs lights", "lights and upstairs"),
)
DEFAULT_PORT = 8123
PORT_ENV = "DEVHOME_PORT"
PYTHON_ENV = "DEVHOME_PYTHON"  # the interpreter that runs Home Assistant (default: this one)
HOST = "127.0.0.1"
USERNAME = "dev"
PASSWORD = "dev-home"
DOWNSTREAM_AGENT = "conversation.home_assistant"
STATE_FILE = ".devhome.json"
TOKEN_FILE = ".token"
STDOUT_FILE = "hass.stdout.log"
LOG_FILE = "home-assistant.log"
PACKAGE_FILE = Path("packages") / "demo_home.yaml"
# Bump when the generated package or the seeding changes meaning: existing folders regenerate.
GENERATOR_VERSION = 1
RESTART_EXIT_CODE = 100  # Home Assistant asks to be started again (restart from the UI)

UNIQUE_PREFIX = "dh."  # unique ids of the demo entities: dh.<entity_id>
HELPER_PREFIX = "dh_"  # object ids of the hidden helpers behind them

# Scenes and scripts of home.json do something real; unknown ones get a harmless default.
SCENE_STATES: dict[str, dict[str, str]] = {
    "scene.movie_night": {
        "light.living_room_ceiling": "off",
        "light.living_room_tv_backlight": "on",
        "cover.living_room_curtain": "closed",
        "media_player.living_room_tv": "on",
    },
    "scene.dinner": {"light.dining_pendant": "on"},
    "scene.leave_home": {"light.xuan_guan_tong_deng": "off", "lock.front_door": "locked"},
    "scene.welcome_home": {"light.xuan_guan_tong_deng": "on", "light.living_room_ceiling": "on"},
    "scene.good_night": {
        "light.master_bedroom_ceiling": "off",
        "light.master_bedside_left": "off",
        "light.master_bedside_right": "off",
        "cover.master_bedroom_curtain": "closed",
    },
}
SCRIPT_STEPS: dict[str, list[dict[str, Any]]] = {
    "script.all_lights_off": [{"action": "light.turn_off", "target": {"entity_id": "all"}}],
    "script.water_plants": [
        {"action": "switch.turn_on", "target": {"entity_id": "switch.balcony_watering_valve"}}
    ],
    "script.morning_routine": [
        {"action": "cover.open_cover", "target": {"entity_id": "cover.master_bedroom_curtain"}},
        {"action": "light.turn_on", "target": {"entity_id": "light.master_bedroom_ceiling"}},
    ],
}
UNITS = {"temperature": "°C", "humidity": "%", "battery": "%", "power": "W", "pm25": "µg/m³"}


class DevHomeError(RuntimeError):
    """Home Assistant could not be started or set up; the message says why."""


# ---------------------------------------------------------------------------------------------
# The demo home as Home Assistant configuration
# ---------------------------------------------------------------------------------------------


@dataclass
class Emulated:
    """One entity of home.json and how Home Assistant provides it."""

    entity_id: str  # the id in home.json, which the registry entry is renamed to
    domain: str
    unique_id: str  # registry unique id of the providing entity
    helpers: list[str] = field(default_factory=list)  # hidden helper entity ids behind it


@dataclass
class Plan:
    package: dict[str, Any]
    entities: list[Emulated]

    @property
    def helpers(self) -> list[str]:
        return [h for e in self.entities for h in e.helpers]


def load_home(path: Path = HOME_FILE) -> dict[str, Any]:
    home: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return home


def home_hash(path: Path = HOME_FILE) -> str:
    digest = hashlib.sha256(path.read_bytes())
    digest.update(f"generator {GENERATOR_VERSION}".encode())
    return digest.hexdigest()[:16]


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


def _local_facts() -> dict[str, Any]:
    """What the generator and the summary need to know about this interpreter's Home Assistant."""
    from homeassistant.const import __version__

    return {
        "version": __version__,
        "modern": sorted(_modern_template_domains()),
        "frontend_installed": importlib.util.find_spec("hass_frontend") is not None,
        "frontend_requirement": _frontend_requirement(),
    }


_FACTS: dict[str, dict[str, Any]] = {}


def hass_facts() -> dict[str, Any]:
    """`_local_facts` of the interpreter that runs Home Assistant (asked once)."""
    python = hass_python()
    if python not in _FACTS:
        if python == sys.executable or _prefix_of(python) == sys.prefix:
            _FACTS[python] = _local_facts()
        else:
            done = subprocess.run(
                [python, str(Path(__file__).resolve()), "--facts"],
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


def _literal(text: str) -> str:
    """A name for a field that Home Assistant renders as a template."""
    if any(mark in text for mark in ("{{", "{%", "{#")):
        return "{% raw %}" + text + "{% endraw %}"
    return text


def _helper_id(domain: str, entity_id: str, suffix: str = "") -> str:
    object_id = HELPER_PREFIX + entity_id.replace(".", "_") + (f"_{suffix}" if suffix else "")
    return f"{domain}.{object_id}"


def _call(action: str, entity_id: str, **data: Any) -> dict[str, Any]:
    step: dict[str, Any] = {"action": action, "target": {"entity_id": entity_id}}
    if data:
        step["data"] = data
    return step


def _on(helper: str) -> dict[str, Any]:
    return _call("input_boolean.turn_on", helper)


def _off(helper: str) -> dict[str, Any]:
    return _call("input_boolean.turn_off", helper)


def _is_on(helper: str) -> str:
    return f"{{{{ is_state('{helper}', 'on') }}}}"


def _choose(helper: str, on: str, off: str) -> str:
    return f"{{{{ '{on}' if is_state('{helper}', 'on') else '{off}' }}}}"


def build_plan(home: dict[str, Any], modern: set[str] | None = None) -> Plan:
    """The package that provides every entity of `home`, and the mapping back to home.json."""
    modern = modern_template_domains() if modern is None else modern
    template: dict[str, list[dict[str, Any]]] = {}
    platforms: dict[str, list[dict[str, Any]]] = {}
    booleans: dict[str, dict[str, Any]] = {}
    numbers: dict[str, dict[str, Any]] = {}
    hygrostats: list[dict[str, Any]] = []
    scenes: list[dict[str, Any]] = []
    scripts: dict[str, dict[str, Any]] = {}
    entities: list[Emulated] = []
    known = {e["entity_id"] for e in home["entities"]}

    def boolean(entity_id: str, initial: bool, suffix: str = "") -> str:
        helper = _helper_id("input_boolean", entity_id, suffix)
        booleans[helper.split(".", 1)[1]] = {
            "name": f"backing {entity_id} {suffix}".strip(),
            "initial": initial,
        }
        return helper

    def number(
        entity_id: str, suffix: str, initial: float, low: float, high: float, step: float
    ) -> str:
        helper = _helper_id("input_number", entity_id, suffix)
        numbers[helper.split(".", 1)[1]] = {
            "name": f"backing {entity_id} {suffix}",
            "initial": initial,
            "min": low,
            "max": high,
            "step": step,
            "mode": "box",
        }
        return helper

    def area_value(area_id: str | None, device_class: str, default: float) -> float:
        for other in home["entities"]:
            if (
                other["domain"] == "sensor"
                and other.get("device_class") == device_class
                and other.get("area_id") == area_id
            ):
                with contextlib.suppress(TypeError, ValueError):
                    return float(other["state"])
        return default

    for entity in home["entities"]:
        entity_id: str = entity["entity_id"]
        domain, object_id = entity_id.split(".", 1)
        name = str(entity["name"])
        state = str(entity.get("state"))
        device_class = entity.get("device_class")
        unique_id = UNIQUE_PREFIX + entity_id
        emulated = Emulated(entity_id, domain, unique_id)
        base: dict[str, Any] = {"name": _literal(name), "unique_id": unique_id}

        if domain in ("light", "switch", "fan", "cover", "lock", "vacuum", "binary_sensor"):
            on_states = {
                "cover": ("open", "opening"),
                "lock": ("locked",),
                "vacuum": ("cleaning", "returning"),
            }.get(domain, ("on",))
            helper = boolean(entity_id, state in on_states)
            emulated.helpers.append(helper)

        if domain == "light":
            level = number(entity_id, "brightness", 255 if state == "on" else 180, 0, 255, 1)
            emulated.helpers.append(level)
            template.setdefault("light", []).append(
                {
                    **base,
                    "state": _is_on(helper),
                    "turn_on": [_on(helper)],
                    "turn_off": [_off(helper)],
                    "level": f"{{{{ states('{level}') | int(0) }}}}",
                    # Home Assistant calls only set_level when a brightness is given: switch on too.
                    "set_level": [
                        _call("input_number.set_value", level, value="{{ brightness }}"),
                        _on(helper),
                    ],
                }
            )
        elif domain == "switch":
            template.setdefault("switch", []).append(
                {
                    **base,
                    "state": _is_on(helper),
                    "turn_on": [_on(helper)],
                    "turn_off": [_off(helper)],
                }
            )
        elif domain == "binary_sensor":
            item = {**base, "state": _is_on(helper)}
            if device_class:
                item["device_class"] = device_class
            template.setdefault("binary_sensor", []).append(item)
        elif domain == "sensor":
            item = {**base}
            if state in ("unavailable", "unknown"):
                item["state"] = "0"
                item["availability"] = "{{ false }}"
            else:
                item["state"] = state
            if device_class:
                item["device_class"] = device_class
                item["state_class"] = "measurement"
            if device_class in UNITS:
                item["unit_of_measurement"] = UNITS[device_class]
            template.setdefault("sensor", []).append(item)
        elif domain == "cover":
            open_, close = [_on(helper)], [_off(helper)]
            if "cover" in modern:
                item = {
                    **base,
                    "state": _choose(helper, "open", "closed"),
                    "open_cover": open_,
                    "close_cover": close,
                }
                if device_class:
                    item["device_class"] = device_class
                template.setdefault("cover", []).append(item)
            else:
                legacy = {
                    "friendly_name": name,
                    "unique_id": unique_id,
                    "value_template": _choose(helper, "open", "closed"),
                    "open_cover": open_,
                    "close_cover": close,
                }
                if device_class:
                    legacy["device_class"] = device_class
                _legacy(platforms, "cover", "covers", object_id, legacy)
        elif domain == "fan":
            if "fan" in modern:
                template.setdefault("fan", []).append(
                    {
                        **base,
                        "state": _is_on(helper),
                        "turn_on": [_on(helper)],
                        "turn_off": [_off(helper)],
                    }
                )
            else:
                _legacy(
                    platforms,
                    "fan",
                    "fans",
                    object_id,
                    {
                        "friendly_name": name,
                        "unique_id": unique_id,
                        "value_template": _choose(helper, "on", "off"),
                        "turn_on": [_on(helper)],
                        "turn_off": [_off(helper)],
                    },
                )
        elif domain == "lock":
            if "lock" in modern:
                template.setdefault("lock", []).append(
                    {
                        **base,
                        "state": _choose(helper, "locked", "unlocked"),
                        "lock": [_on(helper)],
                        "unlock": [_off(helper)],
                    }
                )
            else:  # the legacy lock platform takes one lock per platform entry
                platforms.setdefault("lock", []).append(
                    {
                        "platform": "template",
                        "name": name,
                        "unique_id": unique_id,
                        "value_template": _choose(helper, "locked", "unlocked"),
                        "lock": [_on(helper)],
                        "unlock": [_off(helper)],
                    }
                )
        elif domain == "vacuum":
            actions = {
                "start": [_on(helper)],
                "stop": [_off(helper)],
                "return_to_base": [_off(helper)],
            }
            if "vacuum" in modern:
                template.setdefault("vacuum", []).append(
                    {**base, "state": _choose(helper, "cleaning", "docked"), **actions}
                )
            else:
                _legacy(
                    platforms,
                    "vacuum",
                    "vacuums",
                    object_id,
                    {
                        "friendly_name": name,
                        "unique_id": unique_id,
                        "value_template": _choose(helper, "cleaning", "docked"),
                        **actions,
                    },
                )
        elif domain == "media_player":
            power = boolean(entity_id, state not in ("off", "standby", "unavailable"))
            emulated.helpers.append(power)
            on_state = state if state not in ("off", "standby", "unavailable") else "on"
            item = {
                "platform": "universal",
                "name": name,
                "unique_id": unique_id,
                "state_template": _choose(power, on_state, "off"),
                "commands": {"turn_on": _on(power), "turn_off": _off(power)},
            }
            if device_class:
                item["device_class"] = device_class
            platforms.setdefault("media_player", []).append(item)
        elif domain == "climate":
            cooling = state == "cool" or any(
                a.lower() in ("ac", "air conditioner") for a in entity.get("aliases", [])
            )
            actuator = boolean(entity_id, False)
            temperature = number(
                entity_id,
                "temperature",
                area_value(entity.get("area_id"), "temperature", 22.0),
                -10,
                45,
                0.1,
            )
            emulated.helpers += [actuator, temperature]
            mode = state if state in ("cool", "heat") else "off"
            platforms.setdefault("climate", []).append(
                {
                    "platform": "generic_thermostat",
                    "name": name,
                    "unique_id": unique_id,
                    "heater": actuator,
                    "target_sensor": temperature,
                    "ac_mode": cooling,
                    "initial_hvac_mode": mode,
                    "target_temp": 26.0 if cooling else 22.0,
                    "min_temp": 16.0,
                    "max_temp": 30.0,
                }
            )
        elif domain == "humidifier":
            actuator = boolean(entity_id, False)
            humidity = number(
                entity_id,
                "humidity",
                area_value(entity.get("area_id"), "humidity", 45.0),
                0,
                100,
                1,
            )
            emulated.helpers += [actuator, humidity]
            hygrostats.append(
                {
                    "name": name,
                    "unique_id": unique_id,
                    "humidifier": actuator,
                    "target_sensor": humidity,
                    "device_class": device_class or "humidifier",
                    "initial_state": state == "on",
                    "target_humidity": 50,
                }
            )
        elif domain == "scene":
            states = {k: v for k, v in SCENE_STATES.get(entity_id, {}).items() if k in known}
            if not states:  # a scene nobody described: the lights of its room on
                states = {
                    e["entity_id"]: "on"
                    for e in home["entities"]
                    if e["domain"] == "light" and e.get("area_id") == entity.get("area_id")
                }
            if not states:
                continue
            scenes.append({"id": unique_id, "name": name, "entities": states})
        elif domain == "script":
            steps = SCRIPT_STEPS.get(entity_id) or [{"delay": 0}]
            scripts[object_id] = {"alias": name, "sequence": steps}
            emulated.unique_id = object_id  # YAML scripts are keyed by their object id
        else:
            continue  # water_heater and anything else without a core platform to emulate it
        entities.append(emulated)

    package: dict[str, Any] = {}
    if booleans:
        package["input_boolean"] = booleans
    if numbers:
        package["input_number"] = numbers
    if template:
        package["template"] = [{key: items} for key, items in template.items()]
    package.update(platforms)
    if hygrostats:
        package["generic_hygrostat"] = hygrostats
    if scenes:
        package["scene"] = scenes
    if scripts:
        package["script"] = scripts
    return Plan(package=package, entities=entities)


def _legacy(
    platforms: dict[str, list[dict[str, Any]]],
    domain: str,
    key: str,
    object_id: str,
    item: dict[str, Any],
) -> None:
    """Add to the single legacy `platform: template` entry of a domain."""
    entries = platforms.setdefault(domain, [])
    entry = next((e for e in entries if e.get("platform") == "template"), None)
    if entry is None:
        entry = {"platform": "template", key: {}}
        entries.append(entry)
    entry[key][object_id] = item


# ---------------------------------------------------------------------------------------------
# The config folder
# ---------------------------------------------------------------------------------------------


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
        f"<code>{_pip()} install {frontend_requirement()}</code>, then "
        "<code>scripts/develop</code> again.</p>\n"
    )
    for page in ("index.html", "authorize.html", "onboarding.html"):
        (pages / page).write_text(note, encoding="utf-8")
    package.write_text(
        "# Written by scripts/devhome.py: home-assistant-frontend is not installed.\n"
        + yaml.safe_dump({"frontend": {"development_repo": str(root)}}, allow_unicode=True),
        encoding="utf-8",
    )


def _release(version: str) -> tuple[int, ...]:
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
    if used and _release(used) > _release(version):
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
            "# Generated by scripts/devhome.py from demo/home.json; edit that file instead.\n"
            + yaml.safe_dump(plan.package, allow_unicode=True, sort_keys=False, width=100),
            encoding="utf-8",
        )
        write_state(config_dir, package_hash=digest)
    # The repository's blueprints, refreshed on every start like the integration itself.
    shutil.copytree(BLUEPRINTS_DIR, config_dir / "blueprints", dirs_exist_ok=True)
    _write_frontend_stub(config_dir)
    return created


# ---------------------------------------------------------------------------------------------
# The process
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# HTTP and websocket clients
# ---------------------------------------------------------------------------------------------


class Api:
    """Home Assistant's REST and websocket APIs with one access token."""

    def __init__(self, session: aiohttp.ClientSession, url: str, token: str | None = None):
        self.session = session
        self.url = url
        self.token = token
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._id = 0

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def request(
        self,
        method: str,
        path: str,
        *,
        json_data: Any = None,
        form: dict[str, str] | None = None,
        auth: bool = True,
        ok: tuple[int, ...] = (200, 201),
    ) -> Any:
        async with self.session.request(
            method,
            self.url + path,
            json=json_data,
            data=form,
            headers=self._headers() if auth else {},
            timeout=aiohttp.ClientTimeout(total=60),
        ) as response:
            text = await response.text()
            if response.status not in ok:
                raise DevHomeError(f"{method} {path}: HTTP {response.status}: {text[:500]}")
            try:
                return json.loads(text) if text else None
            except ValueError:
                return text

    async def connect(self) -> None:
        ws = await self.session.ws_connect(
            self.url + "/api/websocket", heartbeat=30, timeout=aiohttp.ClientWSTimeout(ws_close=10)
        )
        greeting = await ws.receive_json(timeout=30)
        if greeting.get("type") != "auth_required":
            raise DevHomeError(f"websocket: unexpected greeting {greeting}")
        await ws.send_json({"type": "auth", "access_token": self.token})
        answer = await ws.receive_json(timeout=30)
        if answer.get("type") != "auth_ok":
            raise DevHomeError(f"websocket: authentication failed: {answer}")
        self._ws = ws

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
            self._ws = None

    async def ws(self, command: str, **payload: Any) -> Any:
        """One websocket command; its result, or DevHomeError with Home Assistant's message."""
        if self._ws is None:
            await self.connect()
        assert self._ws is not None
        self._id += 1
        message_id = self._id
        await self._ws.send_json({"id": message_id, "type": command, **payload})
        deadline = time.monotonic() + 60
        while True:
            message = await self._ws.receive_json(timeout=max(1.0, deadline - time.monotonic()))
            if message.get("id") != message_id or message.get("type") != "result":
                continue
            if not message.get("success"):
                error = message.get("error") or {}
                raise DevHomeError(f"{command}: {error.get('code')}: {error.get('message')}")
            return message.get("result")


# ---------------------------------------------------------------------------------------------
# Setting Home Assistant up
# ---------------------------------------------------------------------------------------------


@dataclass
class DevHome:
    """A running, set-up Home Assistant."""

    url: str
    config_dir: Path
    username: str
    password: str
    token: str
    agent_id: str
    entities: int  # demo entities Home Assistant provides
    indexed: int | None  # entities in the integration's index after the rebuild
    version: str
    seconds: float = 0.0  # from start to ready
    skipped: list[str] = field(default_factory=list)  # home.json entities not emulated


async def _wait_http(
    session: aiohttp.ClientSession,
    url: str,
    process: subprocess.Popen[bytes] | None,
    deadline: float,
    config_dir: Path,
) -> None:
    """Until the HTTP server answers at all."""
    console = config_dir / STDOUT_FILE
    while True:
        if process is not None and process.poll() is not None:
            raise DevHomeError(
                f"Home Assistant exited with code {process.returncode} before "
                f"it answered on {url}\n{log_tail(config_dir)}"
            )
        # Recovery mode listens on Home Assistant's default address, not ours: say so at once.
        if console.exists() and "Activating recovery mode" in console.read_text(
            encoding="utf-8", errors="replace"
        ):
            raise DevHomeError(
                "Home Assistant went into recovery mode (a broken configuration "
                f"or a core integration failed)\n{log_tail(config_dir)}"
            )
        with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError, OSError):
            # An endpoint without authentication: probing /api/ would log failed logins.
            async with session.get(
                url + "/auth/providers", timeout=aiohttp.ClientTimeout(total=5)
            ) as response:
                if response.status < 500:
                    return
        if time.monotonic() > deadline:
            raise DevHomeError(
                f"Home Assistant did not answer on {url} in time\n{log_tail(config_dir)}"
            )
        await asyncio.sleep(0.5)


def _client_id(url: str) -> str:
    return url + "/"


async def _token_from_code(api: Api, code: str) -> str:
    answer = await api.request(
        "POST",
        "/auth/token",
        auth=False,
        form={"grant_type": "authorization_code", "code": code, "client_id": _client_id(api.url)},
    )
    return str(answer["access_token"])


async def _log_in(api: Api, username: str, password: str) -> str:
    """An access token: the owner is created on the first start, logged in afterwards."""
    steps = await api.request("GET", "/api/onboarding", auth=False, ok=(200, 404))
    user_pending = isinstance(steps, list) and any(
        s.get("step") == "user" and not s.get("done") for s in steps
    )
    if user_pending:
        answer = await api.request(
            "POST",
            "/api/onboarding/users",
            auth=False,
            json_data={
                "client_id": _client_id(api.url),
                "name": "Developer",
                "username": username,
                "password": password,
                "language": "zh-Hans",
            },
        )
        return await _token_from_code(api, answer["auth_code"])
    flow = await api.request(
        "POST",
        "/auth/login_flow",
        auth=False,
        json_data={
            "client_id": _client_id(api.url),
            "handler": ["homeassistant", None],
            "redirect_uri": _client_id(api.url),
        },
    )
    answer = await api.request(
        "POST",
        f"/auth/login_flow/{flow['flow_id']}",
        auth=False,
        json_data={"client_id": _client_id(api.url), "username": username, "password": password},
    )
    if answer.get("type") != "create_entry":
        raise DevHomeError(
            f"cannot log in as {username!r} ({answer.get('errors')}); start over with --reset"
        )
    return await _token_from_code(api, str(answer["result"]))


async def _wait_running(api: Api, deadline: float, config_dir: Path) -> str:
    while True:
        config = await api.request("GET", "/api/config")
        if config.get("recovery_mode") or config.get("safe_mode"):
            raise DevHomeError(
                "Home Assistant started in recovery mode (the configuration or a "
                f"core integration failed)\n{log_tail(config_dir)}"
            )
        if config.get("state", "RUNNING") == "RUNNING":
            return str(config.get("version", "?"))
        if time.monotonic() > deadline:
            raise DevHomeError(f"Home Assistant stayed in state {config.get('state')}")
        await asyncio.sleep(0.5)


async def _wait_entities(api: Api, plan: Plan, deadline: float) -> dict[tuple[str, str], Any]:
    """Registry entries of the demo entities, by (domain, unique_id), once all exist."""
    while True:
        entries = await api.ws("config/entity_registry/list")
        by_unique = {(e["entity_id"].split(".", 1)[0], str(e.get("unique_id"))): e for e in entries}
        missing = [e.entity_id for e in plan.entities if (e.domain, e.unique_id) not in by_unique]
        if not missing:
            return by_unique
        if time.monotonic() > deadline:
            raise DevHomeError(
                "these demo entities never appeared (see home-assistant.log): "
                + ", ".join(missing[:20])
            )
        await asyncio.sleep(0.5)


async def _seed_floors_and_areas(api: Api, home: dict[str, Any]) -> None:
    """Floors and areas exactly as in home.json, under home.json's ids."""
    floors = {f["floor_id"]: f for f in await api.ws("config/floor_registry/list")}
    areas = {a["area_id"]: a for a in await api.ws("config/area_registry/list")}
    wanted_floors = {f["floor_id"]: f for f in home.get("floors", [])}
    wanted_areas = {a["area_id"]: a for a in home.get("areas", [])}
    # First away with what is not ours (onboarding's default rooms), so names are free.
    for area_id in set(areas) - set(wanted_areas):
        await api.ws("config/area_registry/delete", area_id=area_id)
    for floor_id in set(floors) - set(wanted_floors):
        await api.ws("config/floor_registry/delete", floor_id=floor_id)
    for level, (floor_id, floor) in enumerate(wanted_floors.items()):
        if floor_id not in floors:
            created = await api.ws("config/floor_registry/create", name=floor_id)
            if created["floor_id"] != floor_id:
                raise DevHomeError(f"floor {floor_id!r} got the id {created['floor_id']!r}")
        await api.ws(
            "config/floor_registry/update",
            floor_id=floor_id,
            name=floor["name"],
            aliases=list(floor.get("aliases", [])),
            level=floor.get("level", level),
        )
    for area_id, area in wanted_areas.items():
        if area_id not in areas:
            created = await api.ws("config/area_registry/create", name=area_id)
            if created["area_id"] != area_id:
                raise DevHomeError(f"area {area_id!r} got the id {created['area_id']!r}")
        await api.ws(
            "config/area_registry/update",
            area_id=area_id,
            name=area["name"],
            aliases=list(area.get("aliases", [])),
            floor_id=area.get("floor_id"),
        )


async def _seed_labels(api: Api, home: dict[str, Any]) -> dict[str, str]:
    """Labels by name; returns name → label_id."""
    labels = {lab["name"]: lab["label_id"] for lab in await api.ws("config/label_registry/list")}
    wanted = sorted({str(name) for e in home["entities"] for name in e.get("labels", [])})
    for name in set(labels) - set(wanted):
        await api.ws("config/label_registry/delete", label_id=labels.pop(name))
    for name in wanted:
        if name not in labels:
            created = await api.ws("config/label_registry/create", name=name)
            labels[name] = created["label_id"]
    return labels


async def _seed_entities(
    api: Api,
    home: dict[str, Any],
    plan: Plan,
    entries: dict[tuple[str, str], Any],
    labels: dict[str, str],
) -> None:
    """Entity ids, aliases, areas, labels and device classes as in home.json; helpers hidden."""
    by_id = {e["entity_id"]: e for e in home["entities"]}
    current = {entry["entity_id"]: key for key, entry in entries.items()}
    for emulated in plan.entities:
        key = (emulated.domain, emulated.unique_id)
        entity_id = entries[key]["entity_id"]
        if entity_id != emulated.entity_id:
            holder = current.get(emulated.entity_id)
            if holder is not None:  # the id is taken (by a not-yet-renamed entity): move it
                spare = f"{emulated.entity_id}_displaced_{int(time.time())}"
                await api.ws(
                    "config/entity_registry/update",
                    entity_id=emulated.entity_id,
                    new_entity_id=spare,
                )
                entries[holder]["entity_id"] = spare
                current[spare] = holder
            await api.ws(
                "config/entity_registry/update",
                entity_id=entity_id,
                new_entity_id=emulated.entity_id,
            )
            current.pop(entity_id, None)
            current[emulated.entity_id] = key
            entries[key]["entity_id"] = emulated.entity_id
    # From 2026.10 an entity's aliases start with a marker (null over the API) that stands for
    # its computed name; a homeowner who adds aliases in the UI keeps it, and so does the demo.
    stored = await api.ws(
        "config/entity_registry/get_entries", entity_ids=[e.entity_id for e in plan.entities]
    )
    for emulated in plan.entities:
        source = by_id[emulated.entity_id]
        markers = [
            a for a in ((stored.get(emulated.entity_id) or {}).get("aliases") or []) if a is None
        ]
        await api.ws(
            "config/entity_registry/update",
            entity_id=emulated.entity_id,
            aliases=[*markers, *source.get("aliases", [])],
            area_id=source.get("area_id"),
            labels=[labels[name] for name in source.get("labels", [])],
        )
    states = {s["entity_id"]: s for s in await api.request("GET", "/api/states")}
    for emulated in plan.entities:
        wanted = by_id[emulated.entity_id].get("device_class")
        state = states.get(emulated.entity_id)
        if wanted and state and state["attributes"].get("device_class") != wanted:
            # e.g. template switches of 2025.4 cannot declare "outlet"; the registry can.
            await api.ws(
                "config/entity_registry/update", entity_id=emulated.entity_id, device_class=wanted
            )
    helpers = set(plan.helpers)
    for entry in entries.values():
        if entry["entity_id"] in helpers and entry.get("hidden_by") is None:
            await api.ws(
                "config/entity_registry/update", entity_id=entry["entity_id"], hidden_by="user"
            )


async def _seed_exposure(api: Api, plan: Plan) -> None:
    """Exactly the demo entities exposed to Assist; nothing new exposed by itself."""
    await api.ws(
        "homeassistant/expose_new_entities/set", assistant="conversation", expose_new=False
    )
    ours = sorted(e.entity_id for e in plan.entities)
    everything = {s["entity_id"] for s in await api.request("GET", "/api/states")}
    everything |= {e["entity_id"] for e in await api.ws("config/entity_registry/list")}
    others = sorted(everything - set(ours))
    await api.ws(
        "homeassistant/expose_entity",
        assistants=["conversation"],
        entity_ids=ours,
        should_expose=True,
    )
    if others:
        await api.ws(
            "homeassistant/expose_entity",
            assistants=["conversation"],
            entity_ids=others,
            should_expose=False,
        )


async def _ensure_entry(api: Api, deadline: float) -> None:
    """One loaded config entry of the integration, Home Assistant's own agent downstream."""
    entries = await api.ws("config_entries/get", domain=DOMAIN)
    if not entries:
        flow = await api.request(
            "POST",
            "/api/config/config_entries/flow",
            json_data={"handler": DOMAIN, "show_advanced_options": False},
        )
        while flow.get("type") == "form":
            answer: dict[str, Any] = {}
            for item in flow.get("data_schema", []):
                if "default" in item:
                    answer[item["name"]] = item["default"]
            answer["agent_id"] = DOWNSTREAM_AGENT
            if flow.get("errors"):
                raise DevHomeError(f"config flow of {DOMAIN}: {flow['errors']}")
            flow = await api.request(
                "POST", f"/api/config/config_entries/flow/{flow['flow_id']}", json_data=answer
            )
        if flow.get("type") not in ("create_entry", "abort"):
            raise DevHomeError(f"config flow of {DOMAIN} ended with {flow}")
    while True:
        entries = await api.ws("config_entries/get", domain=DOMAIN)
        state = entries[0]["state"] if entries else "missing"
        if state == "loaded":
            return
        if (
            state in ("setup_error", "migration_error", "failed_unload")
            or time.monotonic() > deadline
        ):
            raise DevHomeError(
                f"the {DOMAIN} config entry is {state} (see home-assistant.log): {entries}"
            )
        await asyncio.sleep(0.5)


async def _ensure_views(api: Api) -> None:
    """The demo's views, published once (a later edit by hand is left alone)."""
    listed = await api.request(
        "POST", f"/api/services/{DOMAIN}/list_view_rules?return_response", json_data={}
    )
    have = {
        r["name"].casefold() for r in (listed or {}).get("service_response", {}).get("rules", [])
    }
    for name, rule in DEMO_VIEWS:
        if name.casefold() not in have:
            await api.request(
                "POST",
                f"/api/services/{DOMAIN}/publish_view_rule",
                json_data={"name": name, "rule": rule},
            )


async def _agent_id(api: Api, deadline: float) -> str:
    while True:
        for entry in await api.ws("config/entity_registry/list"):
            if entry.get("platform") == DOMAIN and entry["entity_id"].startswith("conversation."):
                return str(entry["entity_id"])
        if time.monotonic() > deadline:
            raise DevHomeError(f"{DOMAIN} registered no conversation entity")
        await asyncio.sleep(0.5)


async def _ensure_pipeline(api: Api, agent_id: str) -> None:
    """The preferred Assist pipeline talks to our agent."""
    listing = await api.ws("assist_pipeline/pipeline/list")
    pipelines = listing.get("pipelines", [])
    preferred = next(
        (p for p in pipelines if p["id"] == listing.get("preferred_pipeline")),
        pipelines[0] if pipelines else None,
    )
    if preferred is None:
        created = await api.ws(
            "assist_pipeline/pipeline/create",
            name="Context Retrieval",
            conversation_engine=agent_id,
            conversation_language="*",
            language="zh-Hans",
            stt_engine=None,
            stt_language=None,
            tts_engine=None,
            tts_language=None,
            tts_voice=None,
            wake_word_entity=None,
            wake_word_id=None,
        )
        await api.ws("assist_pipeline/pipeline/set_preferred", pipeline_id=created["id"])
        return
    if preferred.get("conversation_engine") == agent_id:
        return
    fields = {k: v for k, v in preferred.items() if k != "id"}
    fields["conversation_engine"] = agent_id
    await api.ws("assist_pipeline/pipeline/update", pipeline_id=preferred["id"], **fields)


async def _confirm_http_config(api: Api, config_dir: Path, port: int) -> None:
    """From 2026.10 Home Assistant moves the `http:` YAML into its storage on the first start
    as a *pending* config that the user must confirm, or it reverts to the default (all
    interfaces, port 8123) and restarts five minutes later; later starts ignore the YAML. The
    demo confirms it at once and remembers that the port now lives in the storage."""
    try:
        http = await api.ws("http/config")
    except DevHomeError as err:
        if "unknown_command" in str(err):
            return  # up to 2026.9 the YAML is the HTTP configuration
        raise
    pending = http.get("pending") or {}
    if pending and not pending.get("error"):
        await api.ws("http/config/promote")
    write_state(config_dir, http_port=port)


def server_port(config_dir: Path, requested: int) -> int:
    """The port Home Assistant will listen on: `requested`, unless this folder's Home
    Assistant keeps its HTTP settings in its storage (2026.10+), where the YAML is read once."""
    stored = read_state(config_dir).get("http_port")
    return int(stored) if stored else requested


async def _ensure_token(api: Api, config_dir: Path) -> str:
    """The stored long-lived token while it works, a new one otherwise."""
    path = config_dir / TOKEN_FILE
    if path.exists():
        stored = path.read_text(encoding="utf-8").strip()
        probe = Api(api.session, api.url, stored)
        with contextlib.suppress(DevHomeError):
            await probe.request("GET", "/api/")
            return stored
    token = await api.ws(
        "auth/long_lived_access_token",
        client_name=f"scripts/develop {time.strftime('%Y-%m-%d %H:%M:%S')}",
        lifespan=3650,
    )
    path.write_text(str(token) + "\n", encoding="utf-8")
    path.chmod(0o600)
    return str(token)


async def async_set_up(
    config_dir: Path,
    port: int,
    process: subprocess.Popen[bytes] | None = None,
    wait_seconds: float = 180.0,
    reseed: bool = False,
) -> DevHome:
    """Wait for Home Assistant on `port`, then onboard, seed and configure it (idempotent)."""
    started = time.monotonic()
    deadline = started + wait_seconds
    url = f"http://{HOST}:{port}"
    home = load_home()
    plan = build_plan(home)
    state = read_state(config_dir)
    username = str(state.get("username", USERNAME))
    password = str(state.get("password", PASSWORD))
    async with aiohttp.ClientSession() as session:
        await _wait_http(session, url, process, deadline, config_dir)
        api = Api(session, url)
        api.token = await _log_in(api, username, password)
        write_state(config_dir, username=username, password=password)
        try:
            version = await _wait_running(api, deadline, config_dir)
            await _confirm_http_config(api, config_dir, port)
            entries = await _wait_entities(api, plan, deadline)
            digest = home_hash()
            if reseed or state.get("seeded_hash") != digest:
                await _seed_floors_and_areas(api, home)
                labels = await _seed_labels(api, home)
                await _seed_entities(api, home, plan, entries, labels)
                await _seed_exposure(api, plan)
                write_state(config_dir, seeded_hash=digest)
            await _ensure_entry(api, deadline)
            await _ensure_views(api)
            agent_id = await _agent_id(api, deadline)
            await _ensure_pipeline(api, agent_id)
            indexed = None
            with contextlib.suppress(DevHomeError):
                rebuilt = await api.request(
                    "POST", f"/api/services/{DOMAIN}/rebuild_index?return_response", json_data={}
                )
                indexed = int((rebuilt or {}).get("service_response", {}).get("entities", 0))
            token = await _ensure_token(api, config_dir)
            write_state(config_dir, agent_id=agent_id, url=url)
        finally:
            await api.close()
    emulated = {e.entity_id for e in plan.entities}
    return DevHome(
        url=url,
        config_dir=config_dir,
        username=username,
        password=password,
        token=token,
        agent_id=agent_id,
        entities=len(plan.entities),
        indexed=indexed,
        version=version,
        seconds=time.monotonic() - started,
        skipped=[e["entity_id"] for e in home["entities"] if e["entity_id"] not in emulated],
    )


@contextlib.contextmanager
def running(
    config_dir: Path, port: int | None = None, *, reset: bool = False, timeout: float = 180.0
) -> Iterator[tuple[DevHome, subprocess.Popen[bytes]]]:
    """Prepare, start and set up Home Assistant; stop it (whatever happens) on leaving."""
    prepare_config(config_dir, reset=reset)
    port = server_port(config_dir, port or free_port())
    started = time.monotonic()
    process = start_server(config_dir, port)
    try:
        home = asyncio.run(async_set_up(config_dir, port, process, timeout))
        home.seconds = time.monotonic() - started
        yield home, process
    finally:
        stop_server(process)


# ---------------------------------------------------------------------------------------------
# scripts/develop
# ---------------------------------------------------------------------------------------------


def _pip() -> str:
    return str(Path(hass_python()).parent / "pip")


def _summary(home: DevHome) -> str:
    lines = [
        "",
        f"Home Assistant {home.version} with the demo home is ready ({home.seconds:.1f} s).",
        f"  URL       {home.url}"
        + (
            ""
            if frontend_installed()
            else f"   (API only; for the web UI: {_pip()} install {frontend_requirement()})"
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
        print(json.dumps(_local_facts()))  # asked by hass_facts() from another interpreter
        return 0
    parser = argparse.ArgumentParser(
        prog="scripts/develop",
        description="Start a real Home Assistant with this integration and the demo home.",
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


if __name__ == "__main__":
    sys.exit(main())
