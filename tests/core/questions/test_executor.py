"""core/questions/executor.py: filters, aggregates, ordering, limits and time."""

from __future__ import annotations

import copy
import itertools
import json
import math

import pytest

from custom_components.context_retrieval.core.base.lexicon import TypeTable
from custom_components.context_retrieval.core.questions.executor import (
    MAX_ROWS,
    QueryTimeout,
    execute,
)
from custom_components.context_retrieval.core.questions.plan import Filter, QueryPlan, validate_plan
from custom_components.context_retrieval.core.questions.rows import StateRow
from tests.core.questions.conftest import (
    BEDROOM,
    KITCHEN,
    LIVING,
    found,
    ids,
    q,
    row,
)


@pytest.mark.parametrize(
    "f, expected",
    [
        (Filter("entity_id", "eq", "light.garden"), {"light.garden"}),
        (
            Filter("entity_id", "in", ("light.garden", "lock.front_door", "light.nowhere")),
            {"light.garden", "lock.front_door"},
        ),
        (
            Filter("entity_id", "contains", "window"),
            {
                "cover.bedroom_window",
                "binary_sensor.kitchen_window",
                "binary_sensor.bedroom_window",
            },
        ),
        (Filter("domain", "eq", "lock"), {"lock.front_door", "lock.back_door"}),
        (
            Filter("domain", "in", ("person", "scene")),
            {"person.alice", "person.bob", "scene.movie"},
        ),
        (
            Filter("device_class", "eq", "window"),
            {
                "cover.bedroom_window",
                "binary_sensor.kitchen_window",
                "binary_sensor.bedroom_window",
            },
        ),
        (
            Filter("device_class", "in", ("tv", "outlet")),
            {"media_player.tv", "switch.christmas_tree"},
        ),
        (
            Filter("area", "eq", "kitchen"),
            {
                "light.kitchen_ceiling",
                "light.kitchen_island",
                "binary_sensor.kitchen_window",
                "lock.back_door",
                "sensor.kitchen_temperature",
            },
        ),
        (
            Filter("floor", "eq", "up"),
            {
                "light.bedroom_desk",
                "cover.bedroom_window",
                "binary_sensor.bedroom_window",
                "sensor.bedroom_temperature",
                "sensor.attic_temperature",
            },
        ),
        (Filter("label", "eq", "evening"), {"light.kitchen_ceiling", "light.bedroom_desk"}),
        (
            Filter("label", "in", ("xmas", "christmas")),
            {"light.bedroom_desk", "switch.christmas_tree"},
        ),
        (Filter("label", "contains", "mas"), {"light.bedroom_desk", "switch.christmas_tree"}),
        (Filter("name", "eq", "Desk Lamp"), {"light.bedroom_desk"}),
        (Filter("name", "eq", "study lamp"), {"light.bedroom_desk"}),  # an alias
        (
            Filter("name", "contains", "window"),
            {
                "cover.bedroom_window",
                "binary_sensor.kitchen_window",
                "binary_sensor.bedroom_window",
            },
        ),
        (Filter("name", "in", ("alice", "BOB")), {"person.alice", "person.bob"}),
    ],
)
def test_text_filters(
    f: Filter, expected: set[str], home: list[StateRow], types: TypeTable
) -> None:
    assert found(q(f), home, types) == expected


def test_ne_keeps_everything_else(home: list[StateRow], types: TypeTable) -> None:
    every = {r.entity_id for r in home}
    for f, dropped in [
        (Filter("entity_id", "ne", "light.garden"), {"light.garden"}),
        (Filter("domain", "ne", "light"), {r.entity_id for r in home if r.domain == "light"}),
        (
            Filter("device_class", "ne", "window"),
            {
                "cover.bedroom_window",
                "binary_sensor.kitchen_window",
                "binary_sensor.bedroom_window",
            },
        ),
        (Filter("name", "ne", "study lamp"), {"light.bedroom_desk"}),
        (Filter("label", "ne", "evening"), {"light.kitchen_ceiling", "light.bedroom_desk"}),
    ]:
        assert found(q(f), home, types) == every - dropped, f


def test_area_and_floor_match_id_name_and_alias_in_any_case_or_width(
    home: list[StateRow], types: TypeTable
) -> None:
    kitchen = found(q(Filter("area", "eq", "kitchen")), home, types)
    for spelling in ("Kitchen", "KITCHEN", "ｋｉｔｃｈｅｎ", "cookhouse", "Cookhouse"):
        assert found(q(Filter("area", "eq", spelling)), home, types) == kitchen
    upstairs = found(q(Filter("floor", "eq", "up")), home, types)
    for spelling in ("Upstairs", "upstairs", "first floor", "FIRST FLOOR"):
        assert found(q(Filter("floor", "eq", spelling)), home, types) == upstairs
    assert found(q(Filter("area", "in", ("lounge", "master bedroom"))), home, types) == {
        r.entity_id for r in home if r.area_id in ("living", "bedroom")
    }
    assert not found(q(Filter("area", "eq", "kitch")), home, types)  # no partial names


def test_area_and_floor_ne_keep_entities_without_a_place(
    home: list[StateRow], types: TypeTable
) -> None:
    not_kitchen = found(q(Filter("area", "ne", "Kitchen")), home, types)
    assert "light.garden" in not_kitchen and "person.alice" in not_kitchen
    assert not not_kitchen & {r.entity_id for r in home if r.area_id == "kitchen"}
    not_up = found(q(Filter("floor", "ne", "first floor")), home, types)
    assert not not_up & {r.entity_id for r in home if r.floor_id == "up"}
    assert "light.garden" in not_up


def test_device_class_none_means_no_device_class(home: list[StateRow], types: TypeTable) -> None:
    no_class = found(
        q(Filter("domain", "eq", "light"), Filter("device_class", "eq", None)), home, types
    )
    assert no_class == {r.entity_id for r in home if r.domain == "light"}
    with_class = found(
        q(Filter("domain", "in", ("cover", "switch")), Filter("device_class", "ne", None)),
        home,
        types,
    )
    assert with_class == {"cover.living_blinds", "cover.bedroom_window", "switch.christmas_tree"}


@pytest.mark.parametrize(
    "f, expected",
    [
        (
            Filter("state", "eq", "ON"),
            {
                "light.kitchen_ceiling",
                "light.bedroom_desk",
                "switch.christmas_tree",
                "binary_sensor.kitchen_window",
            },
        ),
        (Filter("state", "in", ("home", "not_home")), {"person.alice", "person.bob"}),
        (Filter("state", "contains", "open"), {"cover.living_blinds", "lock.back_door"}),
        (Filter("state", "eq", 22.5), {"sensor.kitchen_temperature"}),
        (Filter("state", "eq", "68.0"), {"sensor.bedroom_temperature"}),  # as numbers
        (Filter("state", "gt", 22), {"sensor.kitchen_temperature", "sensor.bedroom_temperature"}),
        (Filter("state", "lt", 30), {"sensor.kitchen_temperature"}),
    ],
)
def test_state_filters(
    f: Filter, expected: set[str], home: list[StateRow], types: TypeTable
) -> None:
    assert found(q(f), home, types) == expected


def test_state_ne_and_numbers_skip_text_states(home: list[StateRow], types: TypeTable) -> None:
    available = found(q(Filter("state", "ne", "unavailable")), home, types)
    assert "light.garden" not in available and "sensor.attic_temperature" not in available
    assert len(available) == len(home) - 2  # the garden light and the attic sensor
    # "unavailable" is neither above nor below anything.
    for op in ("gt", "lt"):
        hits = found(q(Filter("state", op, -1e9 if op == "gt" else 1e9)), home, types)
        assert hits == {"sensor.kitchen_temperature", "sensor.bedroom_temperature"}


@pytest.mark.parametrize(
    "f, expected",
    [
        (Filter("attribute", "eq", "heating", attribute="hvac_action"), {"climate.thermostat"}),
        (
            Filter("attribute", "in", ("hs", "xy"), attribute="color_mode"),
            {"light.kitchen_ceiling"},
        ),
        (Filter("attribute", "gt", 100, attribute="brightness"), {"light.kitchen_ceiling"}),
        (Filter("attribute", "lt", 100, attribute="brightness"), {"light.bedroom_desk"}),
        (Filter("attribute", "eq", 40, attribute="brightness"), {"light.bedroom_desk"}),
        (Filter("attribute", "contains", "beatles", attribute="media_artist"), {"media_player.tv"}),
        (Filter("attribute", "lt", 50, attribute="current_position"), {"cover.living_blinds"}),
        (Filter("attribute", "gt", 21, attribute="current_temperature"), {"climate.thermostat"}),
    ],
)
def test_attribute_filters(
    f: Filter, expected: set[str], home: list[StateRow], types: TypeTable
) -> None:
    assert found(q(f), home, types) == expected


def test_attribute_ne_and_missing_attributes(home: list[StateRow], types: TypeTable) -> None:
    lights = Filter("domain", "eq", "light")
    assert found(
        q(lights, Filter("attribute", "ne", 200, attribute="brightness")), home, types
    ) == {"light.kitchen_island", "light.bedroom_desk", "light.garden"}
    assert found(
        q(lights, Filter("attribute", "eq", None, attribute="brightness")), home, types
    ) == {"light.kitchen_island", "light.garden"}
    assert not found(q(Filter("attribute", "eq", "x", attribute="nope")), home, types)
    assert not found(q(Filter("attribute", "gt", 0, attribute="nope")), home, types)


def test_type_uses_the_first_tier_this_home_has(home: list[StateRow], types: TypeTable) -> None:
    assert found(q(Filter("type", "eq", "window")), home, types) == {
        "cover.bedroom_window",
        "binary_sensor.kitchen_window",
        "binary_sensor.bedroom_window",
    }
    assert found(q(Filter("type", "eq", "light")), home, types) == {
        r.entity_id for r in home if r.domain == "light"
    }
    # "temperature" is the climate entity when there is one, else the sensors.
    assert found(q(Filter("type", "eq", "temperature")), home, types) == {"climate.thermostat"}
    no_climate = [r for r in home if r.domain != "climate"]
    assert found(q(Filter("type", "eq", "temperature")), no_climate, types) == {
        "sensor.kitchen_temperature",
        "sensor.bedroom_temperature",
        "sensor.attic_temperature",
    }
    assert found(q(Filter("type", "in", ("lock", "person"))), home, types) == {
        "lock.front_door",
        "lock.back_door",
        "person.alice",
        "person.bob",
    }
    assert not found(q(Filter("type", "eq", "no_such_type")), home, types)


def test_clauses_are_or_of_and(home: list[StateRow], types: TypeTable) -> None:
    plan = QueryPlan(
        where=(
            (Filter("domain", "eq", "light"), Filter("area", "eq", "kitchen")),
            (Filter("domain", "eq", "light"), Filter("state", "eq", "on")),
        )
    )
    result = execute(plan, home, types)
    # The kitchen ceiling light fits both clauses and is still counted once.
    assert sorted(ids(result)) == [
        "light.bedroom_desk",
        "light.kitchen_ceiling",
        "light.kitchen_island",
    ]
    assert result.count == 3
    assert execute(QueryPlan(where=((),)), home, types).count == len(home)


def test_rows_can_be_any_iterable(home: list[StateRow], types: TypeTable) -> None:
    plan = q(Filter("domain", "eq", "person"))
    assert execute(plan, (r for r in home), types).count == 2
    assert execute(plan, [], types).count == 0


def test_status_ne_and_in(home: list[StateRow], types: TypeTable) -> None:
    locks = Filter("domain", "eq", "lock")
    assert found(q(locks, Filter("status", "ne", "locked")), home, types) == {"lock.back_door"}
    assert found(q(Filter("status", "in", ("home", "away"))), home, types) == {
        "person.alice",
        "person.bob",
    }


def test_low_battery_plan(types: TypeTable) -> None:
    """The compiler's low-battery plan: sensors under 20 % or battery binary sensors on."""
    rows = [
        row("sensor.door_battery", "15", "Door Battery", device_class="battery", unit="%"),
        row("sensor.remote_battery", "45", "Remote Battery", device_class="battery", unit="%"),
        row("sensor.lost_battery", "unavailable", "Lost Battery", device_class="battery", unit="%"),
        row("sensor.odd_battery", "0.1", "Odd Battery", device_class="battery", unit="V"),
        row("binary_sensor.smoke_battery", "on", "Smoke Battery", device_class="battery"),
        row("binary_sensor.leak_battery", "off", "Leak Battery", device_class="battery"),
        row("sensor.kitchen_humidity", "10", "Humidity", device_class="humidity", unit="%"),
    ]
    plan = validate_plan(
        {
            "where": [
                [
                    {"field": "domain", "op": "eq", "value": "sensor"},
                    {"field": "device_class", "op": "eq", "value": "battery"},
                    {"field": "state", "op": "lt", "value": 20, "unit": "%"},
                ],
                [
                    {"field": "domain", "op": "eq", "value": "binary_sensor"},
                    {"field": "device_class", "op": "eq", "value": "battery"},
                    {"field": "state", "op": "eq", "value": "on"},
                ],
            ],
            "aggregate": "list",
            "measure": "state",
            "order_by": "measure",
        }
    )
    result = execute(plan, rows, types)
    # Lowest first; the binary sensor has no number and goes last.
    assert ids(result) == ["sensor.door_battery", "binary_sensor.smoke_battery"]
    assert result.rows[0]["value"] == 15 and result.rows[0]["unit"] == "%"
    assert "value" not in result.rows[1]
    assert result.skipped == 1  # the binary sensor has no reading


@pytest.mark.parametrize(
    "threshold, unit, op, expected",
    [
        (24, "°C", "gt", {"sensor.f_hot"}),  # 77 °F = 25 °C
        (24, "°C", "lt", {"sensor.c", "sensor.f_cold", "sensor.k"}),
        (70, "°F", "gt", {"sensor.f_hot", "sensor.c"}),  # 22 °C = 71.6 °F
        (296, "K", "lt", {"sensor.c", "sensor.f_cold", "sensor.k"}),
        (300, "K", "lt", {"sensor.c", "sensor.f_cold", "sensor.k", "sensor.f_hot"}),
        (24, "c", "gt", {"sensor.f_hot"}),
    ],
)
def test_temperature_thresholds_convert_units(
    threshold: float, unit: str, op: str, expected: set[str], types: TypeTable
) -> None:
    rows = [
        row("sensor.c", "22", unit="°C"),
        row("sensor.f_hot", "77", unit="°F"),
        row("sensor.f_cold", "59", unit="°F"),
        row("sensor.k", "290", unit="K"),
        row("sensor.humidity", "50", unit="%"),
    ]
    assert found(q(Filter("state", op, threshold, unit=unit)), rows, types) == expected


def test_power_and_energy_thresholds_convert_units(types: TypeTable) -> None:
    power = [
        row("sensor.heater", "1.5", unit="kW"),
        row("sensor.tv", "120", unit="W"),
        row("sensor.kettle", "2000", unit="w"),
        row("sensor.energy", "3", unit="kWh"),
    ]
    assert found(q(Filter("state", "gt", 1000, unit="W")), power, types) == {
        "sensor.heater",
        "sensor.kettle",
    }
    assert found(q(Filter("state", "lt", 0.5, unit="kW")), power, types) == {"sensor.tv"}
    energy = [
        row("sensor.day", "1500", unit="Wh"),
        row("sensor.month", "120", unit="kWh"),
        row("sensor.year", "1.2", unit="MWh"),
    ]
    assert found(q(Filter("state", "lt", 2, unit="kWh")), energy, types) == {"sensor.day"}
    assert found(q(Filter("state", "gt", 100_000, unit="Wh")), energy, types) == {
        "sensor.month",
        "sensor.year",
    }


def test_a_threshold_without_a_unit_compares_the_raw_number(types: TypeTable) -> None:
    rows = [
        row("sensor.f", "77", unit="°F"),
        row("sensor.c", "22", unit="°C"),
        row("sensor.plain", "30"),
    ]
    assert found(q(Filter("state", "gt", 24)), rows, types) == {"sensor.f", "sensor.plain"}
    # A row without a unit is taken to be in the threshold's unit.
    assert found(q(Filter("state", "gt", 24, unit="°C")), rows, types) == {
        "sensor.f",
        "sensor.plain",
    }


TEMPS = [
    row("sensor.kitchen", "20", "Kitchen", unit="°C", area=KITCHEN),
    row("sensor.bedroom", "68", "Bedroom", unit="°F", area=BEDROOM),  # 20 °C
    row("sensor.living", "77", "Living", unit="°F", area=LIVING),  # 25 °C
    row("sensor.attic", "unavailable", "Attic", unit="°C"),
    row("sensor.cellar", "unknown", "Cellar", unit="°C"),
    row("sensor.garage", "broken", "Garage", unit="°C"),
    row("sensor.shed", "nan", "Shed", unit="°C"),
]


def test_avg_converts_units_and_skips_states_without_numbers(types: TypeTable) -> None:
    result = execute(
        q(Filter("domain", "eq", "sensor"), aggregate="avg", measure="state"), TEMPS, types
    )
    assert result.value == pytest.approx(65 / 3)
    assert result.unit == "°C"
    assert result.count == 7 and result.skipped == 4
    assert len(result.rows) == 3
    assert {r["unit"] for r in result.rows} == {"°C"}
    assert result.best is None
    assert result.as_dict()["value"] == round(65 / 3, 3)
    assert result.as_dict()["skipped"] == 4


def test_the_first_reading_decides_the_unit(types: TypeTable) -> None:
    rows = [TEMPS[2], TEMPS[0]]  # 77 °F first
    result = execute(q(aggregate="avg", measure="state"), rows, types)
    assert result.unit == "°F"
    assert result.value == pytest.approx((77 + 68) / 2)


@pytest.mark.parametrize(
    "aggregate, value, best",
    [
        ("min", 20.0, "sensor.kitchen"),
        ("max", 25.0, "sensor.living"),
    ],
)
def test_min_and_max_name_the_entity(
    aggregate: str, value: float, best: str, types: TypeTable
) -> None:
    result = execute(q(aggregate=aggregate, measure="state"), TEMPS, types)
    assert result.value == pytest.approx(value)
    assert result.best is not None and result.best["entity_id"] == best
    assert result.best["unit"] == "°C"
    values = [r["value"] for r in result.rows]
    assert values == sorted(values, reverse=aggregate == "max")
    assert result.skipped == 4


def test_sum_of_power_and_energy_in_mixed_units(types: TypeTable) -> None:
    power = [
        row("sensor.heater", "1.5", unit="kW"),
        row("sensor.tv", "120", unit="W"),
        row("sensor.off", "unavailable", unit="W"),
        row("sensor.odd", "3", unit="kWh"),
    ]
    result = execute(q(aggregate="sum", measure="state"), power, types)
    assert result.unit == "kW"
    assert result.value == pytest.approx(1.62)
    assert result.skipped == 2  # no number, and energy does not add to power
    energy = [
        row("sensor.day", "1500", unit="Wh"),
        row("sensor.month", "2", unit="kWh"),
        row("sensor.year", "0.001", unit="MWh"),
    ]
    result = execute(q(aggregate="sum", measure="state"), energy, types)
    assert (result.value, result.unit) == (pytest.approx(4500), "Wh")


def test_attribute_measure(home: list[StateRow], types: TypeTable) -> None:
    result = execute(
        q(Filter("domain", "eq", "light"), aggregate="max", measure="attribute:brightness"),
        home,
        types,
    )
    assert result.value == 200 and result.best is not None
    assert result.best["name"] == "Ceiling Light"
    assert result.unit is None
    assert result.skipped == 2  # lights without a brightness


def test_aggregates_without_any_number(types: TypeTable) -> None:
    rows = TEMPS[3:]
    for aggregate in ("avg", "sum", "min", "max"):
        result = execute(q(aggregate=aggregate, measure="state"), rows, types)
        assert result.value is None and result.best is None and result.rows == []
        assert result.count == 4 and result.skipped == 4
        assert "value" not in result.as_dict()


def test_huge_readings_never_overflow(types: TypeTable) -> None:
    rows = [
        row("sensor.a", "1e308", unit="W"),
        row("sensor.b", "1.5e308", unit="W"),
        row("sensor.c", "1e305", unit="MWh"),
        row("sensor.d", "1e300", unit="kW"),
        row("sensor.e", "x", unit="W", attributes={"big": 10**400}),
    ]
    for aggregate in ("avg", "sum", "min", "max"):
        result = execute(q(aggregate=aggregate, measure="state"), rows, types)
        assert result.value is None or math.isfinite(result.value)
        json.dumps(result.as_dict())
    assert execute(q(aggregate="max", measure="state"), rows, types).value == 1.5e308
    assert not execute(q(Filter("attribute", "gt", 0, attribute="big")), rows, types).rows
    assert not execute(q(Filter("attribute", "eq", 1, attribute="big")), rows, types).rows


def test_count_counts_every_match_beyond_the_limit(home: list[StateRow], types: TypeTable) -> None:
    result = execute(q(aggregate="count", limit=2), home, types)
    assert result.count == len(home)
    assert len(result.rows) == 2 and result.truncated
    assert result.value is None
    assert execute(q(Filter("domain", "eq", "vacuum"), aggregate="count"), home, types).count == 0


def test_rows_are_plain_data_with_the_selected_attributes(
    home: list[StateRow], types: TypeTable
) -> None:
    class Odd:
        def __str__(self) -> str:
            return "odd"

    rows = [
        row(
            "light.x",
            "on",
            "X",
            area=KITCHEN,
            attributes={"rgb": (255, 0, 0), "nested": {"a": [1, 2, Odd()]}, "obj": Odd()},
        )
    ]
    result = execute(q(select=("rgb", "nested", "obj", "missing")), rows, types)
    out = result.rows[0]
    assert out == {
        "entity_id": "light.x",
        "name": "X",
        "area": "Kitchen",
        "state": "on",
        "attributes": {
            "rgb": [255, 0, 0],
            "nested": {"a": [1, 2, "odd"]},
            "obj": "odd",
            "missing": None,
        },
    }
    json.dumps(result.as_dict())
    assert "attributes" not in execute(q(), home, types).rows[0]


def test_long_attribute_values_are_cut_to_fifty_items(types: TypeTable) -> None:
    """A list or mapping attribute (a media player's source list, a forecast) is handed on
    with its first 50 items, no more: exactly 50 pass whole."""
    rows = [
        row(
            "media_player.tv",
            "on",
            "TV",
            attributes={
                "fifty": list(range(50)),
                "long": list(range(51)),
                "map": {f"k{i}": i for i in range(51)},
            },
        )
    ]
    out = execute(q(select=("fifty", "long", "map")), rows, types).rows[0]["attributes"]
    assert out["fifty"] == list(range(50))
    assert out["long"] == list(range(50))
    assert out["map"] == {f"k{i}": i for i in range(50)}


def test_default_order_is_by_area_then_name_with_no_area_last(
    home: list[StateRow], types: TypeTable
) -> None:
    result = execute(q(Filter("domain", "eq", "light")), home, types)
    assert [r["name"] for r in result.rows] == [
        "Desk Lamp",
        "Ceiling Light",
        "Island Pendants",
        "Garden Light",
    ]
    assert [r["area"] for r in result.rows] == ["Bedroom", "Kitchen", "Kitchen", None]


def test_explicit_orders(home: list[StateRow], types: TypeTable) -> None:
    lights = Filter("domain", "eq", "light")
    by_name = execute(q(lights, order_by="name"), home, types)
    assert [r["name"] for r in by_name.rows] == [
        "Ceiling Light",
        "Desk Lamp",
        "Garden Light",
        "Island Pendants",
    ]
    backwards = execute(q(lights, order_by="name", descending=True), home, types)
    assert backwards.rows == by_name.rows[::-1]
    assert ids(execute(q(lights, order_by="entity_id"), home, types)) == sorted(
        r.entity_id for r in home if r.domain == "light"
    )
    changed = execute(q(lights, order_by="last_changed", descending=True), home, types)
    assert ids(changed)[:3] == [
        "light.bedroom_desk",
        "light.kitchen_ceiling",
        "light.kitchen_island",
    ]
    rows = [
        row("sensor.a", "10"),
        row("sensor.b", "9"),
        row("sensor.c", "unavailable"),
        row("sensor.d", "-1"),
    ]
    assert ids(execute(q(order_by="state"), rows, types)) == [
        "sensor.d",
        "sensor.b",
        "sensor.a",
        "sensor.c",
    ]


def test_order_by_measure_puts_readings_first(types: TypeTable) -> None:
    result = execute(q(measure="state", order_by="measure"), TEMPS, types)
    assert ids(result)[:3] == ["sensor.bedroom", "sensor.kitchen", "sensor.living"]
    assert [r.get("value") for r in result.rows[:3]] == [20, 20, 25]
    assert all("value" not in r for r in result.rows[3:])
    assert result.skipped == 4 and result.count == 7


def test_limit_and_truncated(home: list[StateRow], types: TypeTable) -> None:
    result = execute(q(order_by="entity_id", limit=3), home, types)
    assert ids(result) == sorted(r.entity_id for r in home)[:3]
    assert result.truncated and result.count == len(home)
    assert result.as_dict()["truncated"] is True
    exact = execute(q(limit=len(home)), home, types)
    assert not exact.truncated and "truncated" not in exact.as_dict()
    top = execute(q(aggregate="max", measure="state", limit=1), TEMPS, types)
    assert len(top.rows) == 1 and top.truncated and ids(top) == ["sensor.living"]


@pytest.mark.parametrize("aggregate", ["list", "count", "max", "avg"])
def test_never_more_than_max_rows(aggregate: str, types: TypeTable) -> None:
    rows = [row(f"sensor.s{i:04}", str(i), unit="W") for i in range(MAX_ROWS + 100)]
    # Plans built in code are not validated; the executor caps them anyway.
    plan = QueryPlan(
        where=((),),
        aggregate=aggregate,  # type: ignore[arg-type]
        measure="state" if aggregate in ("max", "avg") else None,
        limit=10_000,
    )
    result = execute(plan, rows, types)
    assert len(result.rows) == MAX_ROWS
    assert result.truncated and result.count == MAX_ROWS + 100


def test_expect_says_whether_every_match_has_the_status(
    home: list[StateRow], types: TypeTable
) -> None:
    front = execute(q(Filter("entity_id", "eq", "lock.front_door"), expect="locked"), home, types)
    assert front.expected is True and front.as_dict()["expected"] is True
    back = execute(q(Filter("entity_id", "eq", "lock.back_door"), expect="locked"), home, types)
    assert back.expected is False
    both = execute(q(Filter("domain", "eq", "lock"), expect="locked"), home, types)
    assert both.expected is False
    windows = execute(
        q(Filter("type", "eq", "window"), Filter("floor", "eq", "up"), expect="closed"), home, types
    )
    assert windows.expected is True
    nothing = execute(q(Filter("domain", "eq", "vacuum"), expect="on"), home, types)
    assert nothing.expected is False and nothing.count == 0
    assert execute(q(), home, types).expected is None


def test_deadline_raises_query_timeout(types: TypeTable) -> None:
    rows = [row(f"light.l{i}") for i in range(2000)]
    ticks = itertools.count()
    with pytest.raises(QueryTimeout):
        execute(
            q(Filter("name", "contains", "zzz")),
            rows,
            types,
            deadline_seconds=0.5,
            clock=lambda: float(next(ticks)),
        )
    with pytest.raises(QueryTimeout):
        execute(q(Filter("name", "contains", "zzz")), rows, types, deadline_seconds=0)


def test_a_generous_deadline_does_not_fire(types: TypeTable) -> None:
    rows = [row(f"light.l{i}") for i in range(2000)]
    ticks = itertools.count()
    result = execute(q(), rows, types, deadline_seconds=100, clock=lambda: float(next(ticks)))
    assert result.count == 2000


def test_query_timeout_is_a_runtime_error() -> None:
    assert issubclass(QueryTimeout, RuntimeError)


def test_execute_never_changes_the_rows(home: list[StateRow], types: TypeTable) -> None:
    rows = [
        *home,
        *TEMPS,
        row("light.x", "on", attributes={"rgb": [1, 2, 3], "nested": {"a": [1]}}),
    ]
    before = copy.deepcopy(rows)
    plans = [
        q(select=("rgb", "nested", "brightness")),
        q(aggregate="avg", measure="state"),
        q(aggregate="max", measure="attribute:brightness", select=("nested",)),
        q(Filter("status", "eq", "open"), expect="open", order_by="name", descending=True),
        q(Filter("type", "in", ("light", "window")), aggregate="count"),
        q(Filter("state", "gt", 10, unit="°F"), measure="state", order_by="measure"),
    ]
    for plan in plans:
        result = execute(plan, rows, types)
        for out in result.rows:  # what comes out is a copy
            attributes = out.get("attributes") or {}
            if isinstance(attributes.get("rgb"), list):
                attributes["rgb"].append(99)
            if isinstance(attributes.get("nested"), dict):
                attributes["nested"]["b"] = 1
            out["state"] = "hacked"
    assert rows == before
    assert [dict(r.attributes) for r in rows] == [dict(r.attributes) for r in before]
