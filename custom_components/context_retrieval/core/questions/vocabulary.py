"""The home as a model sees it when it writes a plan: its areas, floors, labels, domains,
device classes and device types, each list bounded in items and characters, and the JSON
encoding that keeps a hostile name one string on one line."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..base.index import DeviceIndex
from ..base.lexicon import LexiconSet
from ..base.models import Floor
from ..base.text import normalize, truncate

MAX_ITEMS = 200  # per vocabulary list
MAX_NAME = 60  # characters of a name shown to the model
MAX_ALIASES = 2  # per area or floor
MAX_ID = 200  # longer ids cannot appear in a plan (plan.MAX_TEXT), so are not shown
# Characters of JSON per vocabulary list: with the question, the prompt stays under ~60,000
# characters whatever the home holds (a real 10,000-entity home needs about 18,000).
BUDGETS = {
    "areas": 20_000,
    "floors": 6_000,
    "labels": 8_000,
    "domains": 4_000,
    "device_classes": 4_000,
    "types": 4_000,
}


@dataclass(frozen=True, slots=True)
class HomeVocabulary:
    """What the model may name in a plan, capped to `MAX_ITEMS` per list. `totals` counts
    what the home has, so the prompt can say when a list was cut."""

    areas: tuple[dict[str, Any], ...] = ()  # {"id", "name", "aliases"?, "floor"?}
    floors: tuple[dict[str, Any], ...] = ()  # {"id", "name", "aliases"?, "level"?}
    labels: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    device_classes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    totals: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "areas": [dict(a) for a in self.areas],
            "floors": [dict(f) for f in self.floors],
            "labels": list(self.labels),
            "domains": list(self.domains),
            "device_classes": list(self.device_classes),
            "types": list(self.types),
            "totals": dict(self.totals),
        }


def _short(text: str) -> str:
    return truncate(str(text), MAX_NAME)


def _mentioned(names: Iterable[str], asked: str) -> bool:
    """A name (normalised, at least 2 characters) that the question contains."""
    return bool(asked) and any(len(n) >= 2 and n in asked for n in map(normalize, names) if n)


def _pick(items: list[tuple[str, list[str], int, Any]], asked: str, budget: int) -> list[Any]:
    """The payloads of at most `MAX_ITEMS` items (key, names, weight, payload) whose JSON
    fits in `budget` characters: those the question names first, then the most used, then by
    key; returned in key order."""
    ranked = sorted(items, key=lambda it: (not _mentioned(it[1], asked), -it[2], it[0]))
    kept: list[tuple[str, Any]] = []
    used = 2  # the brackets
    for key, _, _, payload in ranked:
        if len(kept) >= MAX_ITEMS:
            break
        size = len(encode(payload)) + 2  # and ", "
        if used + size > budget:
            continue  # a shorter one may still fit
        used += size
        kept.append((key, payload))
    return [payload for _, payload in sorted(kept, key=lambda kp: kp[0])]


_Item = tuple[str, list[str], int, Any]  # id, what it is called, how many devices, prompt item


def _area_items(
    index: DeviceIndex, floors: dict[str, Floor], per_area: Counter[str]
) -> list[_Item]:
    items: list[_Item] = []
    for area in index.areas.values():
        if not 0 < len(area.area_id) <= MAX_ID:
            continue
        item: dict[str, Any] = {"id": area.area_id, "name": _short(area.name)}
        if area.aliases:
            item["aliases"] = [_short(x) for x in area.aliases[:MAX_ALIASES]]
        if area.floor_id and area.floor_id in floors:
            item["floor"] = area.floor_id
        items.append((area.area_id, [area.name, *area.aliases], per_area[area.area_id], item))
    return items


def _floor_items(floors: dict[str, Floor], per_floor: Counter[str]) -> list[_Item]:
    items: list[_Item] = []
    for floor in floors.values():
        item: dict[str, Any] = {"id": floor.floor_id, "name": _short(floor.name)}
        if floor.aliases:
            item["aliases"] = [_short(x) for x in floor.aliases[:MAX_ALIASES]]
        if floor.level is not None:
            item["level"] = floor.level
        items.append(
            (floor.floor_id, [floor.name, *floor.aliases], per_floor[floor.floor_id], item)
        )
    return items


def _type_ids(
    lexicons: LexiconSet, per_domain: Counter[str], pairs: set[tuple[str, str | None]]
) -> list[str]:
    """The device types the home has a member of."""
    return sorted(
        t
        for t, spec in lexicons.types.types.items()
        if any(
            (c is None and d in per_domain) or (d, c) in pairs
            for tier in spec.tiers
            for d, c in tier
        )
    )


def home_vocabulary(
    index: DeviceIndex, lexicons: LexiconSet, question: str | None = None
) -> HomeVocabulary:
    """The home's areas, floors, labels, domains, device classes and device types for the
    prompt, each list capped in items (`MAX_ITEMS`) and characters (`BUDGETS`). With
    `question`, what it names is kept first when a list has to be cut."""
    asked = normalize(question or "")
    devices = index.devices()
    per_area = Counter(d.area_id for d in devices if d.area_id)
    per_floor = Counter(d.floor_id for d in devices if d.floor_id)
    per_label = Counter(label for d in devices for label in d.labels if label)
    per_domain = Counter(d.domain for d in devices)
    per_class = Counter(d.device_class for d in devices if d.device_class)
    pairs = {(d.domain, d.device_class) for d in devices}

    floors = {f.floor_id: f for f in index.floors.values() if 0 < len(f.floor_id) <= MAX_ID}
    area_items = _area_items(index, floors, per_area)
    floor_items = _floor_items(floors, per_floor)
    type_ids = _type_ids(lexicons, per_domain, pairs)
    return HomeVocabulary(
        areas=tuple(_pick(area_items, asked, BUDGETS["areas"])),
        floors=tuple(_pick(floor_items, asked, BUDGETS["floors"])),
        labels=tuple(
            _pick([(x, [x], n, _short(x)) for x, n in per_label.items()], asked, BUDGETS["labels"])
        ),
        domains=tuple(
            _pick(
                [(x, [], n, x) for x, n in per_domain.items() if len(x) <= MAX_ID],
                "",
                BUDGETS["domains"],
            )
        ),
        device_classes=tuple(
            _pick(
                [(x, [], n, x) for x, n in per_class.items() if len(x) <= MAX_ID],
                "",
                BUDGETS["device_classes"],
            )
        ),
        types=tuple(_pick([(t, [], 0, t) for t in type_ids], "", BUDGETS["types"])),
        totals={
            "areas": len(area_items),
            "floors": len(floor_items),
            "labels": len(per_label),
            "domains": len(per_domain),
            "device_classes": len(per_class),
            "types": len(type_ids),
        },
    )


# --- prompts ---------------------------------------------------------------------------------


def _escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # as a UTF-16 surrogate pair, the only way JSON writes it
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def encode(value: Any) -> str:
    """`value` as JSON on one line, with every character that is not plainly printable
    (line and paragraph separators, bidi overrides, zero-width and tag characters) escaped:
    untrusted text cannot start a line, hide text or reorder what the model reads."""
    text = json.dumps(value, ensure_ascii=False)
    if text.isprintable():
        return text
    # json.dumps escaped control characters, quotes and backslashes already, so what is left
    # outside the printable set can only sit inside strings, where \\uXXXX is valid JSON.
    return "".join(c if c.isprintable() else _escape(c) for c in text)
