"""core/base/parse/sentence.py: which action a command's words say."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from tests.core.base.parse.conftest import one
from tests.core.conftest import make_device


@pytest.fixture(scope="module")
def es_home() -> DeviceIndex:
    salon = Area("salon", "Salón")
    devices = [
        make_device("vacuum.robi", "Robi", salon),
        make_device("media_player.tele", "Tele", salon),
    ]
    return DeviceIndex.build(devices, [salon], language="es")


@pytest.mark.parametrize(
    ("text", "action", "selected"),
    [
        # "vuelva" alone reads as the previous track; "a la base" says where to return.
        ("que Robi vuelva a la base", "dock", ["vacuum.robi"]),
        ("que la aspiradora vuelva a la base", "dock", ["vacuum.robi"]),
        # One action word only: it stands.
        ("vuelve atrás en la tele", "media_previous", ["media_player.tele"]),
    ],
)
def test_of_two_equally_precise_actions_the_longer_phrase_wins(es_home, text, action, selected):
    found = retrieve(text, es_home, language="es")
    assert [r.ir.action for r in found] == [action]
    assert found[0].selected_ids == selected


@pytest.fixture(scope="module")
def en_hall() -> DeviceIndex:
    hall = Area("hall", "Hall")
    devices = [make_device("lock.front", "Front Door", hall), make_device("light.hall", "Hall")]
    return DeviceIndex.build(devices, [hall], language="en")


def test_a_verb_said_after_an_article_is_the_kind_it_names(en_hall):
    # "lock" is a verb and a kind: after "the" it names the device, "open" stays the action.
    found = retrieve("open the lock", en_hall, language="en")
    assert [r.ir.action for r in found] == ["open"]
    assert found[0].selected_ids == ["lock.front"]
    # Said first, the same word is the verb.
    assert [r.ir.action for r in retrieve("lock the lock", en_hall, language="en")] == ["lock"]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("lights off here", "turn_off"),
        ("lights on in here", "turn_on"),
        ("lights off in there", "turn_off"),
        ("lights off everywhere", "turn_off"),
    ],
)
def test_a_particle_followed_only_by_a_place_word_says_the_action(
    demo_index, lexicons, text, action
):
    assert one(text, demo_index, lexicons, "en").action == action


@pytest.mark.parametrize("text", ["on the fish tank", "off the fish tank please"])
def test_a_particle_before_its_target_without_a_verb_says_no_action(demo_index, lexicons, text):
    assert one(text, demo_index, lexicons, "en").action not in ("turn_on", "turn_off")


@pytest.mark.parametrize("text", ["the kitchen lights", "厨房的灯", "kitchen", "鱼缸"])
def test_a_target_said_alone_commands_nothing(demo_index, text):
    found = retrieve(text, demo_index)
    assert [(r.ir.action, r.selected_ids) for r in found] == [(None, [])]


@pytest.mark.parametrize("text", ["frobnicate the fish tank", "fish tank now", "鱼缸吧"])
def test_a_target_with_a_word_of_no_target_is_still_the_target(demo_index, text):
    # The other word, unknown or read as a filler, may be a verb the language data lacks.
    found = retrieve(text, demo_index)
    assert [r.selected_ids for r in found] == [["switch.yu_gang"]]
