"""core/base/parse/analysis.py: which language an utterance is read in, and how."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor
from custom_components.context_retrieval.core.base.index import Ref
from custom_components.context_retrieval.core.base.parse import (
    analyze,
)
from custom_components.context_retrieval.core.base.parse.analysis import prefer_exact_surface
from tests.core.base.parse.conftest import one, types_of
from tests.core.conftest import make_device


def test_language_is_detected_when_not_given(small_en_index, demo_index, lexicons):
    # The English home hears Chinese, the Chinese home hears English.
    assert analyze("打开客厅的灯", small_en_index, lexicons).language == "zh"
    assert analyze("turn on the living room light", demo_index, lexicons).language == "en"


def test_traditional_chinese_reads_like_simplified(zh_index, lexicons):
    ir = one("關掉客廳的燈", zh_index, lexicons)
    assert ir.action == "turn_off"
    assert ir.scope_include == {"living"}
    assert types_of(ir) == {"light"}


def test_given_language_wins(small_en_index, lexicons):
    assert (
        analyze("turn on the kitchen light", small_en_index, lexicons, language="en").language
        == "en"
    )


# ---- which of several readings a stretch keeps -----------------------------------------------


def _home_with_same_stem_rooms() -> DeviceIndex:
    # Two rooms whose names are the same word in two cases: the stem cannot tell them apart.
    kitchen = Area("kuhnya", "Кухня")
    kitchen_loc = Area("kuhne", "Кухне")
    ground = Floor("ground", "первый этаж")
    ground_loc = Floor("ground_loc", "Первом этаже")
    devices = [
        make_device("light.a", "Лампа", kitchen, ground),
        make_device("light.b", "Торшер", kitchen_loc, ground_loc),
    ]
    return DeviceIndex.build(devices, [kitchen, kitchen_loc], [ground, ground_loc], language="ru")


def test_a_room_said_as_written_beats_one_that_only_shares_its_stem(lexicons):
    index = _home_with_same_stem_rooms()
    assert one("включи свет в Кухня", index, lexicons).scope_include == {"kuhnya"}
    assert one("включи свет в кухне", index, lexicons).scope_include == {"kuhne"}
    assert one("выключи свет на первом этаже", index, lexicons).floor_include == {"ground_loc"}


def test_a_stem_match_stays_when_nothing_is_said_as_written(lexicons):
    index = _home_with_same_stem_rooms()
    # "кухню" is neither name as written: both rooms it may mean stay.
    assert one("включи свет в кухню", index, lexicons).scope_include == {"kuhnya", "kuhne"}


def test_prefer_exact_surface_keeps_other_kinds():
    stem_area = Ref("area", "a1", "area", ("кухне",))
    exact_area = Ref("area", "a2", "area", ("кухня",))
    stem_entity = Ref("entity", "light.x", "name", ("кухне",))
    kept = prefer_exact_surface([stem_area, exact_area, stem_entity], ("кухня",))
    assert kept == [exact_area, stem_entity]
    assert prefer_exact_surface([stem_area], ("кухня",)) == [stem_area]


def test_a_floor_of_the_home_beats_the_relative_floor_word(lexicons):
    ground = Floor("eg", "Erdgeschoss", (), 0)
    upper = Floor("og", "Obergeschoss", (), 1)
    attic = Floor("dg", "Dachboden", (), 2)
    rooms = [Area("bad", "Bad", (), "og"), Area("studio", "Studio", (), "dg")]
    index = DeviceIndex.build(
        [make_device("light.bad", "Spiegel", rooms[0], upper)],
        rooms,
        [ground, upper, attic],
        language="de",
    )
    assert one("schalte das Licht im Obergeschoss an", index, lexicons).floor_include == {"og"}


def test_the_relative_floor_word_reads_as_before_without_such_a_floor(lexicons):
    ground = Floor("eg", "Parterre", (), 0)
    upper = Floor("og", "Stock 1", (), 1)
    attic = Floor("dg", "Dach", (), 2)
    index = DeviceIndex.build(
        [make_device("light.x", "Spiegel", Area("bad", "Bad", (), "og"), upper)],
        [Area("bad", "Bad", (), "og")],
        [ground, upper, attic],
        language="de",
    )
    assert one("schalte das Licht im Obergeschoss an", index, lexicons).floor_include == {
        "og",
        "dg",
    }


# ---- separable verbs ----------------------------------------------------------------------------


def _german_home() -> DeviceIndex:
    garten = Area("garten", "Garten")
    wohnzimmer = Area("wohnzimmer", "Wohnzimmer")
    devices = [
        make_device("lawn_mower.schaf", "Schaf", garten),
        make_device("media_player.tv", "Fernseher", wohnzimmer),
        make_device("light.decke", "Decke", wohnzimmer),
    ]
    return DeviceIndex.build(devices, [garten, wohnzimmer], language="de")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("schicke das Schaf zurück", "dock"),
        ("schick das Schaf zurück an die Ladestation", "dock"),
        ("setz den Fernseher im Wohnzimmer fort", "media_play"),
        ("spule im Wohnzimmer ein Lied vor", "media_next"),
        ("schalte die Decke im Wohnzimmer aus", "turn_off"),
        ("mach die Decke an", "turn_on"),
    ],
)
def test_a_separable_verb_reads_as_the_verb_with_its_particle(text: str, action: str, lexicons):
    assert one(text, _german_home(), lexicons, "de").action == action


def test_a_particle_without_a_verb_of_its_own_keeps_its_reading(lexicons):
    # "zurück" alone (no verb forms "zurück…" with it) still means the previous track.
    assert one("Wohnzimmer zurück", _german_home(), lexicons, "de").action == "media_previous"


def test_languages_without_separable_verbs_are_untouched(lexicons, small_en_index):
    assert one("turn the kitchen light back", small_en_index, lexicons, "en").action != "dock"
