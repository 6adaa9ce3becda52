"""What the scope and the capability check took out of a command, in `RetrievalResult.meta`
(the panel's try-it page shows it)."""

from __future__ import annotations

from custom_components.context_retrieval.core import DeviceIndex, retrieve
from custom_components.context_retrieval.core.retrieval.stages import REMOVED_LISTED


def _meta(text: str, index: DeviceIndex) -> dict[str, object]:
    results = retrieve(text, index)
    assert len(results) == 1
    return results[0].meta


def test_scope_removed_counts_everything_outside_the_named_room(
    small_en_index: DeviceIndex,
) -> None:
    meta = _meta("turn on the kitchen lights", small_en_index)
    kitchen = {
        e for e, entry in small_en_index.entries.items() if entry.device.area_id == "kitchen"
    }
    assert meta.scope_removed == len(small_en_index) - len(kitchen)


def test_no_room_removes_nothing(small_en_index: DeviceIndex) -> None:
    meta = _meta("close the curtains", small_en_index)
    assert meta.scope_removed == 0
    assert meta.capability_removed is None and meta.capability_removed_count is None


def test_capability_removed_lists_what_cannot_do_it(small_en_index: DeviceIndex) -> None:
    results = retrieve("turn off everything in the living room", small_en_index)
    meta = results[0].meta
    removed = meta.capability_removed
    assert removed == ["cover.living_blinds", "lock.front_door"]
    assert meta.capability_removed_count == 2
    assert not set(removed) & set(results[0].selected_ids)


def test_capability_removed_by_a_named_device(small_en_index: DeviceIndex) -> None:
    # A fan cannot be dimmed: the name matched, the check took it out.
    meta = _meta("dim the ceiling fan", small_en_index)
    assert meta.capability_removed == ["fan.bedroom_fan"]
    assert meta.capability_removed_count == 1


def test_capability_removed_per_command_not_carried_over(small_en_index: DeviceIndex) -> None:
    results = retrieve("dim the ceiling fan and turn on the kitchen lights", small_en_index)
    assert len(results) == 2
    assert results[0].meta.capability_removed == ["fan.bedroom_fan"]
    assert results[1].meta.capability_removed is None


def test_capability_removed_list_is_bounded(small_en_index: DeviceIndex) -> None:
    from custom_components.context_retrieval.core import Area, Floor
    from tests.core.conftest import make_device

    area = Area("hall", "Hall", (), None)
    sensors = [
        make_device(f"sensor.hall_{i:02d}", f"Hall Sensor {i}", area, device_class="temperature")
        for i in range(REMOVED_LISTED + 5)
    ]
    lamp = make_device("light.hall_lamp", "Hall Lamp", area)
    index = DeviceIndex.build([lamp, *sensors], [area], [Floor("f", "Floor", ())], language="en")
    meta = _meta("turn off everything in the hall", index)
    assert meta.capability_removed_count == REMOVED_LISTED + 5
    assert len(meta.capability_removed) == REMOVED_LISTED  # type: ignore[arg-type]
