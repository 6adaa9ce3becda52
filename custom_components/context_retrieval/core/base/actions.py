"""The abstract actions of the engine and which Home Assistant domains can do them.

Actions are the engine's own vocabulary ("turn_on", "set_position", "media_pause"). The Home
Assistant glue derives an entity's actions from its domain and supported features; where it
does not know them, the domain defaults below apply.
"""

from __future__ import annotations

from .models import Device

# What each domain can do when nothing more specific is known.
DOMAIN_ACTIONS: dict[str, frozenset[str]] = {
    "light": frozenset(
        {"turn_on", "turn_off", "toggle", "set_brightness", "set_color", "set_color_temp"}
    ),
    "switch": frozenset({"turn_on", "turn_off", "toggle"}),
    "input_boolean": frozenset({"turn_on", "turn_off", "toggle"}),
    "fan": frozenset({"turn_on", "turn_off", "toggle", "set_fan_speed"}),
    "climate": frozenset({"turn_on", "turn_off", "set_temperature", "set_hvac_mode"}),
    "water_heater": frozenset({"turn_on", "turn_off", "set_temperature"}),
    "humidifier": frozenset({"turn_on", "turn_off", "toggle", "set_humidity"}),
    "cover": frozenset({"open", "close", "stop", "set_position", "toggle"}),
    "valve": frozenset({"open", "close", "stop", "set_position"}),
    # A lock's "open" unlatches the door; it must not answer a generic "open everything".
    "lock": frozenset({"lock", "unlock", "unlatch"}),
    "media_player": frozenset(
        {
            "turn_on",
            "turn_off",
            "toggle",
            "set_volume",
            "mute",
            "unmute",
            "media_pause",
            "media_play",
            "media_next",
            "media_previous",
            "media_search_play",
            "stop",
        }
    ),
    "vacuum": frozenset({"start", "stop", "dock", "media_pause"}),
    "lawn_mower": frozenset({"start", "dock", "media_pause"}),
    "scene": frozenset({"activate"}),
    "script": frozenset({"activate"}),
    "automation": frozenset({"turn_on", "turn_off", "toggle", "activate"}),
    "button": frozenset({"activate"}),
    "input_button": frozenset({"activate"}),
    "siren": frozenset({"turn_on", "turn_off", "toggle"}),
    "remote": frozenset({"turn_on", "turn_off", "toggle"}),
    "number": frozenset({"set"}),
    "input_number": frozenset({"set"}),
    "select": frozenset({"set"}),
    "input_select": frozenset({"set"}),
    "camera": frozenset({"turn_on", "turn_off"}),
}

# Every abstract action the engine knows, with the capabilities that satisfy it.
# "strict" is used when the user named no type or device ("turn off everything upstairs"):
# then only entities that really switch off count, not covers that would close.
ACTIONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # action: (capabilities when targeted explicitly, capabilities when generic)
    # A lock is never switched: "关掉门锁", "turn off the lock" must not unlock the front door.
    "turn_on": (
        frozenset({"turn_on", "open", "activate", "start"}),
        frozenset({"turn_on"}),
    ),
    "turn_off": (frozenset({"turn_off", "close", "stop"}), frozenset({"turn_off"})),
    "toggle": (frozenset({"toggle", "turn_on"}), frozenset({"toggle"})),
    # Opening and closing are for what opens and closes (covers, valves, and a lock named as
    # such: "öffne die Haustür" unlocks it): "open the thermostat" asks for something the
    # thermostat cannot do, as Home Assistant reads it.
    "open": (frozenset({"open", "unlock"}), frozenset({"open"})),
    "close": (frozenset({"close", "lock"}), frozenset({"close"})),
    "stop": (frozenset({"stop", "media_pause", "turn_off"}), frozenset({"stop"})),
    "lock": (frozenset({"lock"}), frozenset({"lock"})),
    "unlock": (frozenset({"unlock", "unlatch"}), frozenset({"unlock"})),
    "set": (
        frozenset(
            {
                "set_brightness",
                "set_color",
                "set_color_temp",
                "set_temperature",
                "set_volume",
                "set_position",
                "set_fan_speed",
                "set_humidity",
                "set_hvac_mode",
                "set",
            }
        ),
        frozenset(
            {
                "set_brightness",
                "set_temperature",
                "set_volume",
                "set_position",
                "set_fan_speed",
                "set_humidity",
                "set",
            }
        ),
    ),
    "set_brightness": (frozenset({"set_brightness"}), frozenset({"set_brightness"})),
    "set_color": (frozenset({"set_color"}), frozenset({"set_color"})),
    # A light that takes colours takes a white temperature too (Home Assistant converts).
    "set_color_temp": (
        frozenset({"set_color_temp", "set_color"}),
        frozenset({"set_color_temp", "set_color"}),
    ),
    "set_temperature": (frozenset({"set_temperature"}), frozenset({"set_temperature"})),
    "set_volume": (frozenset({"set_volume"}), frozenset({"set_volume"})),
    "set_position": (frozenset({"set_position", "open", "close"}), frozenset({"set_position"})),
    "set_fan_speed": (frozenset({"set_fan_speed"}), frozenset({"set_fan_speed"})),
    "mute": (frozenset({"mute"}), frozenset({"mute"})),
    "unmute": (frozenset({"unmute"}), frozenset({"unmute"})),
    "media_pause": (frozenset({"media_pause"}), frozenset({"media_pause"})),
    "media_play": (frozenset({"media_play"}), frozenset({"media_play"})),
    "media_next": (frozenset({"media_next"}), frozenset({"media_next"})),
    "media_previous": (frozenset({"media_previous"}), frozenset({"media_previous"})),
    "media_search_play": (frozenset({"media_search_play"}), frozenset({"media_search_play"})),
    "start": (frozenset({"start", "turn_on", "activate"}), frozenset({"start"})),
    "dock": (frozenset({"dock"}), frozenset({"dock"})),
    "activate": (frozenset({"activate", "turn_on"}), frozenset({"activate"})),
}

# Actions that only read state: every entity qualifies.
READ_ONLY_ACTIONS = frozenset({"query"})

# Which action a command means when it says several: the one that says most. "Starte den
# nächsten Titel" is a skip, not a start; "Mets en pause" a pause, not a set.
ACTION_RANK: dict[str, int] = {
    "set_brightness": 0,
    "set_color": 0,
    "set_color_temp": 0,
    "set_temperature": 0,
    "set_volume": 0,
    "set_position": 0,
    "set_fan_speed": 0,
    "set_humidity": 0,
    "media_next": 1,
    "media_previous": 1,
    "media_pause": 1,
    "media_play": 1,
    "media_search_play": 1,
    "mute": 1,
    "unmute": 1,
    "dock": 1,
    "lock": 1,
    "unlock": 1,
}
GENERIC_RANK = 2

# A generic verb said of media ("start the music", "arrête la musique") is a media command,
# as Home Assistant reads it.
MEDIA_VARIANTS: dict[str, str] = {
    "start": "media_play",
    "turn_on": "media_play",
    "stop": "media_pause",
    "turn_off": "media_pause",
}


def default_actions(domain: str) -> frozenset[str]:
    return DOMAIN_ACTIONS.get(domain, frozenset())


def device_actions(device: Device) -> frozenset[str]:
    return device.actions or default_actions(device.domain)
