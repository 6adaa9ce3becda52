"""core/base/parse/rooms.py: a generic room word covers every room of that kind."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from tests.core.base.parse.conftest import one
from tests.core.conftest import make_device


def _home(language: str, rooms: dict[str, str]) -> DeviceIndex:
    areas = [Area(area_id, name) for area_id, name in rooms.items()]
    devices = [make_device(f"light.{a.area_id}", f"Lamp {i}", a) for i, a in enumerate(areas)]
    return DeviceIndex.build(devices, areas, language=language)


ZH = {"master": "主卧", "second": "次卧", "guest": "客卧", "living": "客厅"}
EN = {"master": "Master Bedroom", "guest": "Guest Bedroom", "living": "Living Room"}
DE = {"eltern": "Elternschlafzimmer", "kinder": "Kinderschlafzimmer", "kueche": "Küche"}
FR = {"parents": "Chambre parentale", "amis": "Chambre d'amis", "salon": "Salon"}


@pytest.mark.parametrize(
    ("language", "rooms", "text", "expected"),
    [
        ("zh", ZH, "打开卧室的灯", {"master", "second", "guest"}),
        ("en", EN, "turn on the bedroom lights", {"master", "guest"}),
        ("de", DE, "schalte das Licht im Schlafzimmer an", {"eltern", "kinder"}),
        ("fr", FR, "allume la lumière de la chambre", {"parents", "amis"}),
    ],
)
def test_a_generic_room_word_includes_every_room_of_its_kind(
    lexicons, language, rooms, text, expected
):
    assert one(text, _home(language, rooms), lexicons, language).scope_include == expected


@pytest.mark.parametrize(
    ("language", "rooms", "text", "spared"),
    [
        ("zh", ZH, "关掉除了卧室以外的所有灯", {"master", "second", "guest"}),
        ("en", EN, "turn off all the lights except the bedrooms", {"master", "guest"}),
        ("de", DE, "schalte alle Lichter außer im Schlafzimmer aus", {"eltern", "kinder"}),
    ],
)
def test_a_generic_room_word_excludes_every_room_of_its_kind(language, rooms, text, spared):
    index = _home(language, rooms)
    (result,) = retrieve(text, index, language=language)
    kept = {index.device(e).area_id for e in result.selected_ids}
    assert kept == set(rooms) - spared


def test_a_room_called_exactly_so_is_that_room_alone(lexicons):
    rooms = {"bedroom": "卧室", "master": "主卧", "second": "次卧"}
    assert one("打开卧室的灯", _home("zh", rooms), lexicons, "zh").scope_include == {"bedroom"}


def test_a_kind_the_home_has_no_room_of_names_no_room(lexicons):
    ir = one("打开卧室的灯", _home("zh", {"living": "客厅", "kitchen": "厨房"}), lexicons, "zh")
    assert ir.scope_include == set()
