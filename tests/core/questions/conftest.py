"""Fixtures and helpers shared by the tests of this package."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.context_retrieval.core import LexiconSet
from custom_components.context_retrieval.core.base.lexicon import TypeTable
from custom_components.context_retrieval.core.questions.executor import (
    QueryResult,
    execute,
)
from custom_components.context_retrieval.core.questions.plan import Filter, QueryPlan
from custom_components.context_retrieval.core.questions.rows import StateRow

KITCHEN = ("kitchen", "Kitchen", ("cookhouse",))


BEDROOM = ("bedroom", "Bedroom", ("master bedroom",))


LIVING = ("living", "Living Room", ("lounge",))


UP = ("up", "Upstairs", ("first floor",))


DOWN = ("down", "Downstairs", ("ground floor",))


def row(
    entity_id: str,
    state: str = "on",
    name: str | None = None,
    *,
    device_class: str | None = None,
    area: tuple[str, str, tuple[str, ...]] | None = None,
    floor: tuple[str, str, tuple[str, ...]] | None = None,
    unit: str | None = None,
    attributes: dict[str, Any] | None = None,
    labels: tuple[str, ...] = (),
    aliases: tuple[str, ...] = (),
    last_changed: str | None = None,
) -> StateRow:
    attrs = dict(attributes or {})
    if unit is not None:
        attrs["unit_of_measurement"] = unit
    return StateRow(
        entity_id=entity_id,
        name=name or entity_id.split(".", 1)[1].replace("_", " ").title(),
        domain=entity_id.split(".", 1)[0],
        state=state,
        attributes=attrs,
        device_class=device_class,
        area_id=area[0] if area else None,
        area_name=area[1] if area else None,
        area_aliases=area[2] if area else (),
        floor_id=floor[0] if floor else None,
        floor_name=floor[1] if floor else None,
        floor_aliases=floor[2] if floor else (),
        labels=labels,
        aliases=aliases,
        last_changed=last_changed,
    )


def where(*filters: Filter) -> tuple[tuple[Filter, ...], ...]:
    return (tuple(filters),)


def q(*filters: Filter, **kwargs: Any) -> QueryPlan:
    return QueryPlan(where=where(*filters), **kwargs)


@pytest.fixture(scope="module")
def types(lexicons: LexiconSet) -> TypeTable:
    return lexicons.types


@pytest.fixture(scope="module")
def home() -> list[StateRow]:
    return [
        row(
            "light.kitchen_ceiling",
            "on",
            "Ceiling Light",
            area=KITCHEN,
            floor=DOWN,
            attributes={"brightness": 200, "color_mode": "hs"},
            labels=("evening",),
            last_changed="2024-01-01T10:00:00",
        ),
        row(
            "light.kitchen_island",
            "off",
            "Island Pendants",
            area=KITCHEN,
            floor=DOWN,
            last_changed="2024-01-01T09:00:00",
        ),
        row(
            "light.bedroom_desk",
            "on",
            "Desk Lamp",
            area=BEDROOM,
            floor=UP,
            attributes={"brightness": 40},
            aliases=("study lamp",),
            labels=("evening", "xmas"),
            last_changed="2024-01-01T11:00:00",
        ),
        row("light.garden", "unavailable", "Garden Light"),
        row(
            "switch.christmas_tree",
            "on",
            "Christmas Tree",
            device_class="outlet",
            area=LIVING,
            floor=DOWN,
            labels=("christmas",),
        ),
        row(
            "cover.living_blinds",
            "opening",
            "Blinds",
            device_class="blind",
            area=LIVING,
            floor=DOWN,
            attributes={"current_position": 40},
        ),
        row(
            "cover.bedroom_window",
            "closed",
            "Bedroom Roof Window",
            device_class="window",
            area=BEDROOM,
            floor=UP,
        ),
        row(
            "binary_sensor.kitchen_window",
            "on",
            "Kitchen Window",
            device_class="window",
            area=KITCHEN,
            floor=DOWN,
        ),
        row(
            "binary_sensor.bedroom_window",
            "off",
            "Bedroom Window",
            device_class="window",
            area=BEDROOM,
            floor=UP,
        ),
        row("lock.front_door", "locked", "Front Door", area=LIVING, floor=DOWN),
        row("lock.back_door", "open", "Back Door", area=KITCHEN, floor=DOWN),
        row(
            "media_player.tv",
            "playing",
            "Living Room TV",
            device_class="tv",
            area=LIVING,
            floor=DOWN,
            attributes={"media_artist": "The Beatles", "volume_level": 0.4},
        ),
        row(
            "climate.thermostat",
            "heat",
            "Thermostat",
            area=LIVING,
            floor=DOWN,
            attributes={"current_temperature": 21.5, "hvac_action": "heating"},
        ),
        row("person.alice", "home", "Alice"),
        row("person.bob", "not_home", "Bob"),
        row("scene.movie", "unknown", "Movie Time"),
        row(
            "sensor.kitchen_temperature",
            "22.5",
            "Kitchen Temperature",
            device_class="temperature",
            area=KITCHEN,
            floor=DOWN,
            unit="°C",
        ),
        row(
            "sensor.bedroom_temperature",
            "68",
            "Bedroom Temperature",
            device_class="temperature",
            area=BEDROOM,
            floor=UP,
            unit="°F",
        ),
        row(
            "sensor.attic_temperature",
            "unavailable",
            "Attic Temperature",
            device_class="temperature",
            floor=UP,
            unit="°C",
        ),
    ]


def ids(result: QueryResult) -> list[str]:
    return [r["entity_id"] for r in result.rows]


def found(plan: QueryPlan, rows: list[StateRow], types: TypeTable) -> set[str]:
    result = execute(plan, rows, types)
    assert result.count == len(result.rows)  # no limit reached in these small homes
    return set(ids(result))
