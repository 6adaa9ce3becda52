"""The homes and questions measured: a synthetic home with plausible readings and a unit per
sensor device class, its state rows, and a pool of questions of every shape built from its own
area and floor names (English or Chinese)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from custom_components.context_retrieval.core import (
    home_from_dict,
)
from custom_components.context_retrieval.core.base.models import Device
from custom_components.context_retrieval.core.questions.rows import StateRow

from ..synthetic import make_home

UNAVAILABLE_SHARE = 0.01
# What a sensor of each device class reports in.
UNITS = {
    "temperature": "°C",
    "humidity": "%",
    "battery": "%",
    "power": "W",
    "energy": "kWh",
    "carbon_dioxide": "ppm",
    "pm25": "µg/m³",
    "illuminance": "lx",
}
# Plausible readings per device class: (low, high, decimals).
READINGS: dict[str, tuple[float, float, int]] = {
    "temperature": (17.0, 27.5, 1),
    "humidity": (30.0, 70.0, 1),
    "battery": (5, 100, 0),
    "power": (0.0, 2000.0, 1),
    "energy": (0.0, 20.0, 2),
    "carbon_dioxide": (400, 1400, 0),
    "pm25": (2, 80, 0),
    "illuminance": (0, 800, 0),
}
# Question templates. Placeholders: {floor} {floor_b} a floor; {area_*} an area that has the
# thing asked about (light, temp, hum, curtain, tv, lock, co2, any); {lock} a lock's own name.
# English areas are said with "the" unless numbered ("in the Lobby", "in Room 204").
TEMPLATES: dict[str, tuple[str, ...]] = {
    "en": (
        "Which lights are on in {area_light}?",
        "Which lights are on on {floor}?",
        "How many lights are on?",
        "Which lights are on?",
        "How many windows are open on {floor}?",
        "Are any windows open?",
        "What's the temperature in {area_temp}?",
        "What's the humidity in {area_hum}?",
        "What's the average humidity?",
        "What's the average temperature on {floor_b}?",
        "What's the highest temperature?",
        "Where is it coldest on {floor}?",
        "What's the lowest humidity reading?",
        "Which devices have a low battery?",
        "Is the {lock} locked?",
        "Is the door lock in {area_lock} locked?",
        "What's on in {area_any}?",
        "Which curtains are open in {area_curtain}?",
        "How many blinds are closed on {floor_b}?",
        "Which doors are open?",
        "Are any doors unlocked?",
        "How many locks are there?",
        "Which media players are playing?",
        "Is anything playing right now?",
        "How many TVs are on on {floor_b}?",
        "Which temperature sensors read above 25 degrees?",
        "What's the total power consumption?",
        "Which plugs are switched on?",
        "How many motion sensors are there?",
        "Is the TV in {area_tv} on?",
        "Which fans are running?",
        "Are any lights on in {area_light}?",
        "What devices are unavailable right now?",
        "How many lights does {area_light} have?",
        "Which switches are on on {floor}?",
        "Is there a water leak anywhere?",
        "What's the CO2 level in {area_co2}?",
        "Which blinds are open?",
    ),
    "zh": (
        "{area_light}哪些灯开着？",
        "{floor}有哪些灯亮着？",
        "家里一共开着几盏灯？",
        "哪些灯开着？",
        "{floor}有几扇窗户开着？",
        "有没有窗户开着？",
        "{area_temp}温度多少？",
        "{area_hum}湿度是多少？",
        "平均湿度是多少？",
        "{floor_b}平均温度多少？",
        "最高温度是多少？",
        "{floor}哪里最冷？",
        "哪里湿度最低？",
        "哪些设备电量低？",
        "{lock}锁好了吗？",
        "{area_lock}的门锁锁了吗？",
        "{area_any}有什么开着？",
        "{area_curtain}哪些窗帘是拉开的？",
        "{floor_b}有几个百叶窗是关着的？",
        "哪些门开着？",
        "有没有哪把锁没锁上？",
        "家里一共有几把锁？",
        "现在有哪些播放器在播放？",
        "有没有设备在播放？",
        "{floor_b}有几台电视开着？",
        "哪些温度传感器超过25度？",
        "全屋总功率是多少？",
        "哪些插座是通着电的？",
        "一共有几个人体传感器？",
        "{area_tv}的电视开着吗？",
        "哪些风扇在转？",
        "{area_light}有灯开着吗？",
        "哪些设备现在不可用？",
        "{area_light}有几盏灯？",
        "{floor}有哪些开关开着？",
        "哪里检测到漏水了？",
        "{area_co2}的二氧化碳浓度是多少？",
        "哪些百叶窗是打开的？",
    ),
}
# Area placeholders → what the area must hold: (domain, device_class or None for any).
AREA_NEEDS: dict[str, tuple[str, str | None] | None] = {
    "area_light": ("light", None),
    "area_temp": ("sensor", "temperature"),
    "area_hum": ("sensor", "humidity"),
    "area_curtain": ("cover", "curtain"),
    "area_tv": ("media_player", "tv"),
    "area_lock": ("lock", None),
    "area_co2": ("sensor", "carbon_dioxide"),
    "area_any": None,
}
# Rewordings for the similarity lookups and for the filler questions of the store.
PREFIXES = {
    "en": ("hey, ", "please tell me: ", "quick question: ", "can you check: "),
    "zh": ("请问，", "帮我看看，", "麻烦问一下，", "我想知道，"),
}


def bench_home(size: int, language: str, seed: int) -> dict[str, Any]:
    """`make_home` with plausible sensor readings and a few unavailable entities."""
    home = make_home(size, language, seed)
    rng = random.Random(f"queries:{size}:{language}:{seed}")
    for entity in home["entities"]:
        if entity["domain"] == "sensor":
            low, high, decimals = READINGS.get(entity.get("device_class") or "", (0, 100, 0))
            value = round(rng.uniform(low, high), decimals)
            entity["state"] = str(int(value)) if decimals == 0 else f"{value:.{decimals}f}"
        if rng.random() < UNAVAILABLE_SHARE:
            entity["state"] = "unavailable"
    return home


def state_rows(home: dict[str, Any]) -> tuple[Any, list[StateRow]]:
    """The parsed home and one state row per entity, with units on sensors."""
    parsed = home_from_dict(home)
    return parsed, rows_with_units(parsed.devices)


def rows_with_units(devices: Iterable[Device]) -> list[StateRow]:
    """One state row per device, a sensor's with the unit its device class reports in (the
    home files carry bare numbers)."""
    rows = []
    for device in devices:
        unit = UNITS.get(device.device_class or "") if device.domain == "sensor" else None
        rows.append(
            StateRow.from_device(device, attributes={"unit_of_measurement": unit} if unit else None)
        )
    return rows


def _slots(home: dict[str, Any], language: str, rng: random.Random) -> dict[str, list[str]]:
    """Every value each placeholder may take in this home, in a seeded order."""
    holds: dict[str, set[tuple[str, str | None]]] = {}
    for e in home["entities"]:
        if e.get("area_id"):
            holds.setdefault(e["area_id"], set()).update(
                {(e["domain"], None), (e["domain"], e.get("device_class"))}
            )

    def said(area: dict[str, Any]) -> str:
        name = str(area["name"])
        if language == "zh" or name.split()[0] == "Room":
            return name
        return f"the {name}"

    slots: dict[str, list[str]] = {}
    for key, need in AREA_NEEDS.items():
        slots[key] = [
            said(a)
            for a in home["areas"]
            if a["area_id"] in holds and (need is None or need in holds[a["area_id"]])
        ]
    floors = [str(f["name"]) for f in home["floors"]]
    slots["floor"] = floors
    slots["floor_b"] = floors[::-1]
    names: dict[str, int] = {}
    for e in home["entities"]:
        if e["domain"] == "lock":
            names[e["name"]] = names.get(e["name"], 0) + 1
    slots["lock"] = sorted(n for n, count in names.items() if count == 1)
    for values in slots.values():
        rng.shuffle(values)
    return slots


def _fill(template: str, slots: dict[str, list[str]], k: int) -> str | None:
    """The template with the `k`-th value of each of its placeholders; None if one has none."""
    values = {}
    for key, options in slots.items():
        if "{" + key + "}" in template:
            if not options:
                return None
            values[key] = options[k % len(options)]
    return template.format(**values)


def questions_for(home: dict[str, Any], language: str, seed: int = 0) -> list[str]:
    """The pool: every template once, and templates with an area twice (two areas)."""
    slots = _slots(home, language, random.Random(seed))
    pool: list[str] = []
    for template in TEMPLATES[language]:
        for k in range(2 if "{area_" in template else 1):
            question = _fill(template, slots, k)
            if question is not None and question not in pool:
                pool.append(question)
    return pool


def filler_questions(
    home: dict[str, Any], language: str, pool: list[str], n: int, seed: int = 0
) -> list[str]:
    """`n` more questions for the store: templates over further areas and floors, then
    reworded with a prefix, none equal to a pool question."""
    slots = _slots(home, language, random.Random(seed))
    seen = set(pool)
    out: list[str] = []
    k = 0
    prefixes = ("", *PREFIXES[language])
    limit = max((len(v) for v in slots.values()), default=1) * len(prefixes) + 1
    while len(out) < n and k < limit:
        prefix = prefixes[(k // max(1, len(slots["area_any"]))) % len(prefixes)]
        for template in TEMPLATES[language]:
            question = _fill(template, slots, k)
            if question is None:
                continue
            question = prefix + question
            if question not in seen:
                seen.add(question)
                out.append(question)
                if len(out) == n:
                    break
        k += 1
    return out
