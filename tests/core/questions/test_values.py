"""core/questions/values.py: statuses across domains, numbers and units."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core.base.lexicon import TypeTable
from custom_components.context_retrieval.core.questions.executor import (
    execute,
)
from custom_components.context_retrieval.core.questions.plan import Filter
from custom_components.context_retrieval.core.questions.rows import StateRow
from custom_components.context_retrieval.core.questions.values import (
    canonical_unit,
    convert,
    has_status,
    load_statuses,
    number,
)
from tests.core.questions.conftest import (
    found,
    ids,
    q,
    row,
)


@pytest.mark.parametrize(
    "status, expected",
    [
        ("open", {"cover.living_blinds", "binary_sensor.kitchen_window", "lock.back_door"}),
        ("closed", {"cover.bedroom_window", "binary_sensor.bedroom_window", "lock.front_door"}),
        ("locked", {"lock.front_door"}),
        ("unlocked", {"lock.back_door"}),
        ("playing", {"media_player.tv"}),
        ("home", {"person.alice"}),
        ("away", {"person.bob"}),
        ("detected", {"binary_sensor.kitchen_window"}),
        ("clear", {"binary_sensor.bedroom_window"}),
        ("unavailable", {"light.garden", "sensor.attic_temperature"}),
        (
            "on",
            {
                "light.kitchen_ceiling",
                "light.bedroom_desk",
                "switch.christmas_tree",
                "cover.living_blinds",
                "binary_sensor.kitchen_window",
                "media_player.tv",
                "climate.thermostat",
            },
        ),
        ("off", {"light.kitchen_island", "cover.bedroom_window", "binary_sensor.bedroom_window"}),
    ],
)
def test_statuses_follow_the_status_table(
    status: str, expected: set[str], home: list[StateRow], types: TypeTable
) -> None:
    assert found(q(Filter("status", "eq", status)), home, types) == expected


def test_status_details() -> None:
    table = load_statuses()
    assert "_comment" not in table
    # A scene that never ran is "unknown", which is normal for a scene, not unavailable.
    assert not has_status(row("scene.movie", "unknown"), "unavailable")
    assert has_status(row("scene.movie", "unavailable"), "unavailable")
    assert has_status(row("sensor.x", "unknown"), "unavailable")
    # A lock or a sensor is never simply "on".
    assert not has_status(row("lock.door", "on"), "on")
    assert not has_status(row("sensor.x", "on"), "on")
    assert has_status(row("climate.x", "cool"), "on")
    assert not has_status(row("climate.x", "unavailable"), "on")
    assert has_status(row("media_player.x", "standby"), "off")
    assert has_status(row("cover.x", "closing"), "closed")
    assert has_status(row("binary_sensor.c", "on", device_class="battery_charging"), "charging")
    assert not has_status(row("binary_sensor.c", "on", device_class="motion"), "charging")
    assert has_status(row("vacuum.v", "docked"), "charging")
    assert not has_status(row("light.x", "on"), "no_such_status")
    # A light is not "open"; no rule fits it.
    assert not has_status(row("light.x", "on"), "open")


def test_a_custom_status_table_can_be_passed(home: list[StateRow], types: TypeTable) -> None:
    table = {"open": load_statuses()["locked"]}
    result = execute(q(Filter("status", "eq", "open")), home, types, statuses=table)
    assert ids(result) == ["lock.front_door"]


def test_unit_helpers() -> None:
    assert canonical_unit("c") == canonical_unit("℃") == canonical_unit(" °C ") == "°C"
    assert canonical_unit("KWH") == "kWh" and canonical_unit("lx") == "lx"
    assert canonical_unit("") is None and canonical_unit(None) is None
    assert convert(77, "°F", "°C") == pytest.approx(25)
    assert convert(25, "°C", "°F") == pytest.approx(77)
    assert convert(300, "K", "°C") == pytest.approx(26.85)
    assert convert(1.5, "kW", "W") == pytest.approx(1500)
    assert convert(2500, "Wh", "kWh") == pytest.approx(2.5)
    assert convert(1, "MWh", "Wh") == 1e6  # exactly: a factor is a power of ten
    assert convert(5, "W", "Wh") is None  # power is not energy
    assert convert(5, "°C", "%") is None
    assert convert(5, None, "°C") == 5 and convert(5, "°C", None) == 5


def test_number_reads_states_and_rejects_the_rest() -> None:
    assert number("21.5") == 21.5 and number(" 21,5 ") == 21.5 and number(3) == 3.0
    for value in (
        "unavailable",
        "unknown",
        "",
        "nan",
        "inf",
        "-inf",
        "1e400",
        True,
        None,
        [1],
        {"a": 1},
        float("nan"),
        float("inf"),
        10**400,
    ):
        assert number(value) is None, value
