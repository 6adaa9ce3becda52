"""The demo home as Home Assistant configuration: every entity of demo/home.json becomes a
template, generic or universal entity backed by hidden helpers, written as one YAML package."""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .common import HOME_FILE
from .facts import modern_template_domains

# Bump when the generated package or the seeding changes meaning: existing folders regenerate.
GENERATOR_VERSION = 2
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


def literal(text: str) -> str:
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
        base: dict[str, Any] = {"name": literal(name), "unique_id": unique_id}

        if domain in ("light", "switch", "fan", "lock", "vacuum", "binary_sensor"):
            on_states = {
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
            # A position (0 closed … 100 open) behind every cover, so "open the blinds to 30 %"
            # works as on a motorised cover.
            level = number(entity_id, "position", 100 if state == "open" else 0, 0, 100, 1)
            emulated.helpers.append(level)
            open_ = [_call("input_number.set_value", level, value=100)]
            close = [_call("input_number.set_value", level, value=0)]
            to_position = [_call("input_number.set_value", level, value="{{ position }}")]
            opened = f"{{{{ 'open' if states('{level}') | int(0) > 0 else 'closed' }}}}"
            position = f"{{{{ states('{level}') | int(0) }}}}"
            if "cover" in modern:
                item = {
                    **base,
                    "state": opened,
                    "position": position,
                    "open_cover": open_,
                    "close_cover": close,
                    "set_cover_position": to_position,
                }
                if device_class:
                    item["device_class"] = device_class
                template.setdefault("cover", []).append(item)
            else:
                legacy = {
                    "friendly_name": name,
                    "unique_id": unique_id,
                    "value_template": opened,
                    "position_template": position,
                    "open_cover": open_,
                    "close_cover": close,
                    "set_cover_position": to_position,
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
