"""core/questions/reading.py: the words of a question (comparisons, units, negation)."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, LexiconSet
from custom_components.context_retrieval.core.questions.compiler import compile_question
from tests.core.conftest import make_device

OFFICE = Area("office", "Office")


@pytest.fixture(scope="module")
def sensors() -> DeviceIndex:
    devices = [
        make_device("sensor.t1", "Office Temperature", OFFICE, device_class="temperature"),
        make_device("sensor.t2", "Hall Temperature", OFFICE, device_class="temperature"),
    ]
    return DeviceIndex.build(devices, [OFFICE], [], language="en")


@pytest.mark.parametrize(
    ("text", "amount", "unit"),
    [
        # The number is the last word: no unit, and nothing after it to read.
        ("which temperatures are above 25", 25.0, None),
        ("哪些温度高于25", 25.0, None),
        # A unit word after the number is its unit.
        ("which temperatures are above 77 fahrenheit", 77.0, "°F"),
        ("which temperatures are above 25 degrees?", 25.0, "°C"),
        ("which temperatures are above 77 °F?", 77.0, "°F"),
        ("温度高于25度的传感器有哪些", 25.0, "°C"),
    ],
)
def test_a_compared_number_takes_the_unit_word_after_it(
    sensors: DeviceIndex, lexicons: LexiconSet, text: str, amount: float, unit: str | None
) -> None:
    compiled = compile_question(text, sensors, lexicons)
    assert compiled.plan is not None and compiled.confident, compiled.as_dict()
    compared = [f for clause in compiled.plan.where for f in clause if f.op == "gt"]
    assert [(f.field, f.value, f.unit) for f in compared] == [("state", amount, unit)]


def test_a_number_in_a_name_is_no_comparison(sensors: DeviceIndex, lexicons: LexiconSet) -> None:
    devices = [
        make_device("sensor.p2", "Probe 2 Temperature", OFFICE, device_class="temperature"),
        make_device("sensor.hall", "Hall Temperature", OFFICE, device_class="temperature"),
    ]
    index = DeviceIndex.build(devices, [OFFICE], [], language="en")
    compiled = compile_question("what is the temperature of probe 2?", index, lexicons)
    assert compiled.plan is not None and compiled.confident, compiled.as_dict()
    filters = [f for clause in compiled.plan.where for f in clause]
    assert ("entity_id", ("sensor.p2",)) in [(f.field, f.value) for f in filters]
    assert not [f for f in filters if f.op in ("gt", "lt")]


@pytest.mark.parametrize("text", ["which temperatures are higher than the hall?", "温度超过多少"])
def test_a_comparison_word_without_a_number_compares_nothing(
    sensors: DeviceIndex, lexicons: LexiconSet, text: str
) -> None:
    compiled = compile_question(text, sensors, lexicons)
    assert compiled.plan is not None
    assert not [f for clause in compiled.plan.where for f in clause if f.op in ("gt", "lt")]
