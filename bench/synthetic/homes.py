"""A synthetic home of any size in the benchmark home format: floors, rooms, entities, names,
aliases, labels, device names and states, seeded and deterministic."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from .entities import KINDS, UNASSIGNED_KINDS, Kind
from .rooms import (
    BUILDING_COMMONS,
    EN_ORDINALS,
    EN_SUFFIXED,
    HOUSE_FLOORS,
    HOUSE_ROOMS,
    LABELS_EN,
    LABELS_ZH,
    MODELS,
    ROOM_KINDS,
    ZH_NUMBERS,
    RoomKind,
    RoomSpec,
    area_count,
    room_spec,
)


def _floors_and_rooms(
    n_areas: int, rng: random.Random
) -> tuple[list[dict[str, Any]], list[RoomSpec]]:
    """Language-neutral floors (level, en, zh, aliases) and room specs."""
    floors: list[dict[str, Any]] = []
    rooms: list[RoomSpec] = []
    if n_areas <= len(HOUSE_ROOMS):
        chosen = HOUSE_ROOMS[:n_areas]
        levels = sorted({lvl for *_, lvl in chosen})
        if n_areas <= 5:
            levels = [0]
        for lvl in levels:
            floor_id, en, en_aliases, zh, zh_aliases = HOUSE_FLOORS[lvl]
            floors.append(
                {
                    "floor_id": floor_id,
                    "level": lvl,
                    "en": en,
                    "en_aliases": en_aliases,
                    "zh": zh,
                    "zh_aliases": zh_aliases,
                }
            )
        for row in chosen:
            wanted = row[-1]
            level = min(levels, key=lambda x: (abs(x - wanted), x))
            rooms.append(room_spec(row, level))
        return floors, rooms

    # A building: floors 1..F, a basement from four floors up.
    n_floors = max(3, min(12, round(n_areas / 18)))
    if n_floors >= 4:
        floors.append(
            {
                "floor_id": "basement",
                "level": -1,
                "en": "Basement",
                "en_aliases": ("Lower Level", "B1"),
                "zh": "地下一层",
                "zh_aliases": ("负一楼", "B1"),
            }
        )
    for f in range(1, n_floors + 1):
        floor_aliases = [f"{EN_ORDINALS[f]} Floor", f"Level {f}", f"{EN_SUFFIXED[f]} Floor"]
        if f == 1:
            floor_aliases.insert(0, "Ground Floor")
        floors.append(
            {
                "floor_id": f"floor_{f}",
                "level": f,
                "en": f"Floor {f}",
                "en_aliases": tuple(floor_aliases),
                "zh": f"{ZH_NUMBERS[f]}楼",
                "zh_aliases": (f"{ZH_NUMBERS[f]}层", f"{f}楼", f"{f}F"),
            }
        )
    has_basement = n_floors >= 4
    n_commons = min(len(BUILDING_COMMONS), max(3, n_areas // 8))
    for row in BUILDING_COMMONS[:n_commons]:
        rooms.append(room_spec(row, row[-1] if row[-1] > 0 or has_basement else 1))

    def floor_rooms(f: int) -> Iterator[RoomSpec]:
        ord_en, cn = EN_ORDINALS[f], ZH_NUMBERS[f]
        yield RoomSpec(
            f"floor_{f}_hallway",
            "hallway",
            f"{ord_en} Floor Hallway",
            f"{cn}楼走廊",
            (f"Floor {f} Hallway",),
            (f"{f}楼走廊",),
            f,
        )
        if f > 1:
            yield RoomSpec(
                f"floor_{f}_kitchenette",
                "kitchenette",
                f"{ord_en} Floor Kitchenette",
                f"{cn}楼茶水间",
                (f"Floor {f} Pantry",),
                (f"{f}楼茶水间",),
                f,
            )
            yield RoomSpec(
                f"floor_{f}_meeting_room",
                "meeting",
                f"{ord_en} Floor Meeting Room",
                f"{cn}楼会议室",
                (f"Meeting Room {f}",),
                (f"{f}楼会议室",),
                f,
            )
        for number in range(1, 100):
            num = f"{f}{number:02d}"
            if f > 1 and number % 12 == 0:
                yield RoomSpec(
                    f"office_{num}",
                    "office",
                    f"Office {num}",
                    f"{num}办公室",
                    (f"Suite {num}",),
                    (f"{num}室",),
                    f,
                )
            else:
                yield RoomSpec(
                    f"room_{num}",
                    "hotel_room",
                    f"Room {num}",
                    f"{num}房间",
                    (f"Unit {num}",),
                    (f"{num}号房",),
                    f,
                )

    gens = [floor_rooms(f) for f in range(1, n_floors + 1)]
    i = 0
    while len(rooms) < n_areas:
        rooms.append(next(gens[i % n_floors]))
        i += 1
    # A third of the numbered rooms go without their alias; people rarely set one.
    out = []
    for room in rooms:
        if room.kind == "hotel_room" and rng.random() < 0.66:
            room = RoomSpec(room.area_id, room.kind, room.en, room.zh, (), (), room.level)
        out.append(room)
    return floors, out


def _quotas(total: int, weights: list[float]) -> list[int]:
    """Split `total` in proportion to `weights` (largest remainder), at least 1 each if possible."""
    s = sum(weights) or 1.0
    raw = [total * w / s for w in weights]
    out = [int(x) for x in raw]
    order = sorted(range(len(raw)), key=lambda i: (out[i] - raw[i], i))
    for i in order[: total - sum(out)]:
        out[i] += 1
    return out


def _pick_kinds(room: RoomKind, quota: int, rng: random.Random) -> list[Kind]:
    """The kinds of entity in one area: the core first, then weighted extras."""
    chosen: list[Kind] = []
    counts: dict[str, int] = defaultdict(int)
    slots: set[str] = set()

    def fits(kind: Kind) -> bool:
        if kind.slot and kind.slot in slots:
            return False
        return not (kind.max_per_area and counts[kind.key] >= kind.max_per_area)

    def take(kind: Kind) -> None:
        chosen.append(kind)
        counts[kind.key] += 1
        if kind.slot:
            slots.add(kind.slot)

    for item in room.core:
        if len(chosen) >= quota:
            break
        key = rng.choice(item) if isinstance(item, tuple) else item
        if fits(KINDS[key]):
            take(KINDS[key])
    keys = [k for k, _ in room.extras]
    weights = [w for _, w in room.extras]
    # When the room's own kinds run out, more of the repeatable ones (spotlights, plugs, …).
    fallback = ["spotlight", "downlights", "smart_plug", "power", "temperature", "motion"]
    attempts = 0
    while len(chosen) < quota:
        attempts += 1
        key = rng.choices(keys, weights)[0] if attempts < quota * 8 else rng.choice(fallback)
        if fits(KINDS[key]):
            take(KINDS[key])
    return chosen


def _state(domain: str, device_class: str | None, rng: random.Random) -> str | None:
    if domain in ("light", "switch", "fan", "binary_sensor"):
        return rng.choice(("on", "off"))
    if domain == "climate":
        return rng.choice(("heat", "cool", "off", "auto"))
    if domain == "cover":
        return rng.choice(("open", "closed"))
    if domain == "media_player":
        return rng.choice(("playing", "paused", "idle", "off"))
    if domain == "lock":
        return rng.choice(("locked", "unlocked"))
    if domain == "vacuum":
        return rng.choice(("docked", "cleaning"))
    if domain == "sensor":
        ranges = {
            "temperature": (16, 28),
            "humidity": (30, 70),
            "illuminance": (0, 800),
            "power": (0, 2000),
            "energy": (0, 20),
            "carbon_dioxide": (400, 1400),
            "pm25": (2, 80),
            "battery": (5, 100),
        }
        lo, hi = ranges.get(device_class or "", (0, 100))
        return str(rng.randint(lo, hi))
    if domain == "script":
        return "off"
    return None


def make_home(n_entities: int, language: str = "en", seed: int = 0) -> dict[str, Any]:
    """A home of exactly `n_entities` entities in the benchmark JSON home format."""
    if language not in ("en", "zh"):
        raise ValueError(f"language must be 'en' or 'zh', not {language!r}")
    zh = language == "zh"
    rng = random.Random(f"home:{n_entities}:{seed}")  # language-independent layout
    n_areas = area_count(n_entities)
    floor_specs, rooms = _floors_and_rooms(n_areas, rng)
    level_to_floor = {f["level"]: f["floor_id"] for f in floor_specs}

    floors = [
        {
            "floor_id": f["floor_id"],
            "name": f["zh"] if zh else f["en"],
            "aliases": list(f["zh_aliases"] if zh else f["en_aliases"]),
        }
        for f in floor_specs
    ]
    areas = [
        {
            "area_id": r.area_id,
            "name": r.zh if zh else r.en,
            "aliases": list(r.zh_aliases if zh else r.en_aliases),
            "floor_id": level_to_floor.get(r.level),
        }
        for r in rooms
    ]

    n_unassigned = 0 if n_entities < 10 else max(1, round(n_entities * 0.03))
    weights = [ROOM_KINDS[r.kind].weight * rng.uniform(0.75, 1.25) for r in rooms]
    quotas = _quotas(n_entities - n_unassigned, weights)

    labels = LABELS_ZH if zh else LABELS_EN
    entities: list[dict[str, Any]] = []
    used_ids: set[str] = set()
    numbered: dict[str, int] = defaultdict(int)  # kind → last number handed out home-wide

    def entity_id(domain: str, stem: str) -> str:
        candidate = f"{domain}.{stem}"
        k = 2
        while candidate in used_ids:
            candidate = f"{domain}.{stem}_{k}"
            k += 1
        used_ids.add(candidate)
        return candidate

    def localise(kind: Kind, room_name: str | None, taken: set[str]) -> tuple[str, str]:
        """(name, base name) for one entity; numbered when the room already has that name."""
        variants = kind.zh if zh else kind.en
        if kind.numbered:
            numbered[kind.key] += 1
            base = variants[0]
            return (f"{base}{numbered[kind.key]}" if zh else f"{base} {numbered[kind.key]}"), base
        free = [v for v in variants if v.casefold() not in taken]
        base = rng.choice(free) if free else variants[0]
        name = base
        if room_name and kind.room_prefix and rng.random() < 0.5:
            name = f"{room_name}{base}" if zh else f"{room_name} {base}"
        k = 2
        while name.casefold() in taken:
            name = f"{base}{k}" if zh else f"{base} {k}"
            k += 1
        return name, base

    def finish(kind: Kind, name: str, area: dict[str, Any] | None, stem: str) -> None:
        aliases: list[str] = []
        if rng.random() < 0.10:
            pool = list(kind.zh_aliases if zh else kind.en_aliases)
            if pool:
                aliases.append(rng.choice(pool))
            elif area is not None and not name.startswith(area["name"]):
                # The other common alias: the name with its room in front.
                aliases.append(f"{area['name']}{name}" if zh else f"{area['name']} {name}")
        entity: dict[str, Any] = {
            "entity_id": entity_id(kind.domain, stem),
            "name": name,
            "aliases": [a for a in aliases if a.casefold() != name.casefold()],
            "domain": kind.domain,
            "device_class": kind.device_class,
            "area_id": area["area_id"] if area else None,
            "labels": sorted(rng.sample(labels, rng.choice((1, 1, 2))))
            if rng.random() < 0.10
            else [],
            "state": _state(kind.domain, kind.device_class, rng),
        }
        models = MODELS.get(kind.domain)
        if models and rng.random() < 0.30:
            entity["device_name"] = rng.choice(models)
        entities.append(entity)

    for room, area, quota in zip(rooms, areas, quotas, strict=True):
        taken: set[str] = set()
        for kind in _pick_kinds(ROOM_KINDS[room.kind], quota, rng):
            name, _ = localise(kind, str(area["name"]), taken)
            taken.add(name.casefold())
            finish(kind, name, area, f"{room.area_id}_{kind.key}")
    taken_loose: set[str] = set()
    # One of each loose kind (while they last), the rest loose bulbs: "Hue Bulb 7".
    loose = [k for k in UNASSIGNED_KINDS[1:] if rng.random() < 0.8]
    for i in range(n_unassigned):
        key = loose[i // 2] if i % 2 == 1 and i // 2 < len(loose) else UNASSIGNED_KINDS[0]
        kind = KINDS[key]
        name, _ = localise(kind, None, taken_loose)
        taken_loose.add(name.casefold())
        finish(kind, name, None, kind.key)

    return {
        "home_id": f"synthetic_{language}_{n_entities}_s{seed}",
        "language": language,
        "floors": floors,
        "areas": areas,
        "entities": entities,
        "meta": {
            "generator": "bench.synthetic",
            "seed": seed,
            "n_entities": n_entities,
            "layout": "house" if n_areas <= len(HOUSE_ROOMS) else "building",
        },
    }
