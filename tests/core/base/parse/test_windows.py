"""core/base/parse/windows.py: the windows of words an utterance is read from."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, retrieve
from custom_components.context_retrieval.core.base.parse.spans import utterance_tokens
from custom_components.context_retrieval.core.base.parse.windows import (
    find_spans,
    prefer_exact_surface,
)
from custom_components.context_retrieval.core.base.phrase_table import Ref
from custom_components.context_retrieval.core.base.text import normalize
from tests.core.base.parse.conftest import one
from tests.core.conftest import make_device


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


def _spans(text: str, index: DeviceIndex, lexicons) -> list[tuple[int, int, str]]:
    lex = lexicons.get(index.language)
    toks = utterance_tokens(normalize(text))
    keys = [lex.key(t) for t in toks]
    return [(s.start, s.end, s.text) for s in find_spans(toks, keys, index, lex, [])]


def test_a_window_reaches_over_a_whole_name_but_not_past_a_clause_mark(lexicons):
    hall = Area("hall", "Hall")
    index = DeviceIndex.build(
        [make_device("light.a", "Big Reading Lamp", hall)], [hall], language="en"
    )
    spans = _spans("big reading lamp, big reading lamp", index, lexicons)
    assert (0, 3, "big reading lamp") in spans
    assert (4, 7, "big reading lamp") in spans
    assert (3, 4, ",") in spans
    assert not any(start < 3 < end for start, end, _ in spans)


def test_a_part_of_a_chinese_room_name_is_read_over_single_characters(lexicons):
    study = Area("study", "北书房")
    index = DeviceIndex.build([make_device("light.s", "吸顶灯", study)], [study], language="zh")
    spans = _spans("打开书房的灯", index, lexicons)
    assert any(text == "书房" for _, _, text in spans)


def test_english_type_words_in_a_chinese_command_are_read_with_english(demo_index, lexicons):
    """Loan words are common in Chinese commands: "lights" and "fan" are read with the
    English lexicon when the window holds no CJK character."""
    living_lights = {
        e
        for e in demo_index.entries
        if e.startswith("light.") and demo_index.device(e).area_id == "living_room"
    }
    (lights,) = retrieve("打开客厅的lights", demo_index, language="zh")
    assert set(lights.selected_ids) == living_lights and living_lights
    (fan,) = retrieve("把客厅的fan打开", demo_index, language="zh")
    assert fan.selected_ids == ["fan.living_room_purifier"]
