"""core/questions/rows.py: state rows copy the device, and are rebuilt only when a state changes."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, Device, Floor
from custom_components.context_retrieval.core.questions.rows import RowCache, StateRow
from tests.core.conftest import make_device


def test_row_from_device_copies_the_device_and_its_attributes() -> None:
    area, floor = Area("kitchen", "Kitchen", ("cookhouse",), "down"), Floor("down", "Down")
    device = make_device(
        "sensor.kitchen_temperature",
        "Kitchen Temperature",
        area,
        floor,
        device_class="temperature",
        labels=("climate",),
        aliases=("temp",),
    )
    attributes = {"unit_of_measurement": "°C", "friendly_name": "Kitchen Temperature"}
    r = StateRow.from_device(device, "21.5", attributes, last_changed="2024-01-01")
    attributes["unit_of_measurement"] = "°F"
    assert r.unit == "°C"  # the row kept its own copy
    assert (r.entity_id, r.name, r.domain, r.state, r.device_class) == (
        "sensor.kitchen_temperature",
        "Kitchen Temperature",
        "sensor",
        "21.5",
        "temperature",
    )
    assert (r.area_id, r.area_name, r.area_aliases) == ("kitchen", "Kitchen", ("cookhouse",))
    assert (r.floor_id, r.floor_name, r.labels, r.aliases, r.last_changed) == (
        "down",
        "Down",
        ("climate",),
        ("temp",),
        "2024-01-01",
    )
    assert StateRow.from_device(device).state == "unknown"
    assert StateRow.from_device(device).unit is None
    with pytest.raises(AttributeError):
        r.state = "off"  # type: ignore[misc]


class _FakeState:
    def __init__(self, state: str) -> None:
        self.state = state
        self.attributes = {"unit_of_measurement": "°C"}
        self.last_changed = None


def test_row_cache_rebuilds_only_changed_entities_and_follows_a_new_home() -> None:

    devices = [
        Device(entity_id=f"sensor.t{i}", name=f"T{i}", domain="sensor", device_class="temperature")
        for i in range(3)
    ]
    states = {d.entity_id: _FakeState(str(20 + i)) for i, d in enumerate(devices)}
    cache = RowCache()
    home = object()
    first = cache.rows(home, devices, states.get)
    assert [r.state for r in first] == ["20", "21", "22"]
    states["sensor.t1"] = _FakeState("30")
    del states["sensor.t2"]
    second = cache.rows(home, devices, states.get)
    assert second[0] is first[0]  # unchanged state object: the same row
    assert [r.state for r in second] == ["20", "30", "unavailable"]
    assert second is not cache.rows(home, devices, states.get)  # callers get their own list
    renamed = [Device(entity_id="sensor.t0", name="Kitchen", domain="sensor")]
    third = cache.rows(object(), renamed, states.get)  # a new index build starts over
    assert [r.name for r in third] == ["Kitchen"]


def test_row_cache_told_what_changed_rereads_only_those() -> None:

    devices = [Device(entity_id=f"light.l{i}", name=f"L{i}", domain="light") for i in range(4)]
    states = {d.entity_id: _FakeState("off") for d in devices}
    reads: list[str] = []

    def get(entity_id: str) -> _FakeState | None:
        reads.append(entity_id)
        return states.get(entity_id)

    cache = RowCache()
    home = object()
    cache.rows(home, devices, get, changed=["light.l0"])  # the first call reads everything
    assert len(reads) == 4
    reads.clear()
    states["light.l2"] = _FakeState("on")
    rows = cache.rows(home, devices, get, changed=["light.l2", "sensor.not_indexed"])
    assert reads == ["light.l2"]
    assert [r.state for r in rows] == ["off", "off", "on", "off"]
