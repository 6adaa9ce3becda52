"""core/questions/reading.py: the words of a question (comparisons, units, negation)."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, LexiconSet
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import execute
from custom_components.context_retrieval.core.questions.rows import StateRow
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
    assert _compared(text, sensors, lexicons) == [("gt", "state", amount, unit)]


def _compared(
    text: str, index: DeviceIndex, lexicons: LexiconSet
) -> list[tuple[str, str, object, str | None]]:
    """The comparisons of the trusted plan `text` compiles to: (op, field, value, unit)."""
    compiled = compile_question(text, index, lexicons)
    assert compiled.plan is not None and compiled.confident, compiled.as_dict()
    return [
        (f.op, f.field, f.value, f.unit)
        for clause in compiled.plan.where
        for f in clause
        if f.op in ("gt", "lt")
    ]


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
    """With nothing to compare to, the plan would list every sensor as if all were above:
    the question is not trusted (the model, if any, or a "did not understand" answers)."""
    compiled = compile_question(text, sensors, lexicons)
    assert compiled.plan is not None
    assert not [f for clause in compiled.plan.where for f in clause if f.op in ("gt", "lt")]
    assert not compiled.confident
    assert compiled.reason == "comparison_without_number"


@pytest.mark.parametrize(
    ("text", "op", "amount", "unit"),
    [
        ("which temperatures are above zero degrees?", "gt", 0.0, "°C"),
        ("which temperatures are above zero?", "gt", 0.0, None),
        ("which temperatures are below twenty five", "lt", 25.0, None),
        ("哪些温度高于零度", "gt", 0.0, "°C"),
        ("哪些温度低于二十五度", "lt", 25.0, "°C"),
    ],
)
def test_a_compared_number_may_be_said_in_words(
    sensors: DeviceIndex,
    lexicons: LexiconSet,
    text: str,
    op: str,
    amount: float,
    unit: str | None,
) -> None:
    assert _compared(text, sensors, lexicons) == [(op, "state", amount, unit)]


@pytest.mark.parametrize("text", ["which temperatures are above zero degrees?", "哪些温度高于零度"])
def test_above_zero_in_words_lists_only_what_is_above(lexicons: LexiconSet, text: str) -> None:
    """Before, the number in words was not read and every temperature was listed."""
    devices = [
        make_device("sensor.in", "Office Temperature", OFFICE, device_class="temperature"),
        make_device("sensor.out", "Porch Temperature", OFFICE, device_class="temperature"),
    ]
    index = DeviceIndex.build(devices, [OFFICE], [], language="en")
    rows = [
        StateRow("sensor.in", "Office Temperature", "sensor", "21.5", device_class="temperature"),
        StateRow("sensor.out", "Porch Temperature", "sensor", "-3", device_class="temperature"),
    ]
    compiled = compile_question(text, index, lexicons)
    assert compiled.plan is not None and compiled.confident
    listed = [r["entity_id"] for r in execute(compiled.plan, rows, lexicons.types).rows]
    assert listed == ["sensor.in"]
