"""core/questions/subjects.py: which devices a name said in part, or in the asker's words, means.

"Haustür" is the German lexicon's word for a name the home writes "front door"
(`question_names`): the question is about the entities whose names hold those words, as whole
words, and only when they are a few (more are a kind, not a name).
"""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, LexiconSet
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import execute
from custom_components.context_retrieval.core.questions.rows import StateRow
from custom_components.context_retrieval.core.questions.subjects import MAX_PART_MATCHES
from tests.core.conftest import make_device

HALL = Area("hall", "Hall")


def _asked(text: str, devices: list, lexicons: LexiconSet) -> list[str]:
    """The entities the compiled plan reads (all of them open, so none is filtered out)."""
    index = DeviceIndex.build(devices, [HALL], [], language="en")
    compiled = compile_question(text, index, lexicons)
    assert compiled.plan is not None and compiled.confident, compiled.as_dict()
    rows = [StateRow.from_device(d, state="on") for d in devices]
    return sorted(r["entity_id"] for r in execute(compiled.plan, rows, lexicons.types).rows)


def test_a_name_in_the_asker_s_words_finds_whole_words_not_parts_of_words(lexicons: LexiconSet):
    """ "front door" is in "Main Front Door"; "Storefront Doorway" only holds the letters."""
    devices = [
        make_device("binary_sensor.main_front_door", "Main Front Door", HALL, device_class="door"),
        make_device(
            "binary_sensor.storefront_doorway", "Storefront Doorway", HALL, device_class="door"
        ),
        make_device("binary_sensor.back_door", "Back Door", HALL, device_class="door"),
    ]
    assert _asked("ist die Haustür offen?", devices, lexicons) == ["binary_sensor.main_front_door"]


@pytest.mark.parametrize("count", [1, MAX_PART_MATCHES, MAX_PART_MATCHES + 1])
def test_a_name_that_finds_more_than_a_few_entities_is_a_kind(lexicons: LexiconSet, count: int):
    """Up to four front doors are the ones asked about; five are read as "doors", and the
    back door is asked too."""
    devices = [
        make_device(f"binary_sensor.front_{i}", f"Front Door {i}", HALL, device_class="door")
        for i in range(count)
    ]
    devices.append(make_device("binary_sensor.back_door", "Back Door", HALL, device_class="door"))
    fronts = [f"binary_sensor.front_{i}" for i in range(count)]
    expected = fronts if count <= 4 else sorted([*fronts, "binary_sensor.back_door"])
    assert _asked("ist die Haustür offen?", devices, lexicons) == expected
