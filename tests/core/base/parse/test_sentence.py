"""core/base/parse/sentence.py: which action a command's words say."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
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
