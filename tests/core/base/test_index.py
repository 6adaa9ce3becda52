"""core/base/index.py: the per-home index — rooms, room words inside names, incremental updates."""

from __future__ import annotations

import dataclasses

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor
from custom_components.context_retrieval.core.base.index import CHANGES_KEPT
from custom_components.context_retrieval.core.base.lexicon import Lexicon
from custom_components.context_retrieval.core.base.phrase_table import AMBIGUOUS
from custom_components.context_retrieval.core.base.text import normalize, tokens
from tests.core.conftest import make_device

LIVING = Area("living", "客厅", ("起居室",), "f1")
KITCHEN = Area("kitchen", "厨房", (), "f1")
BEDROOM = Area("bedroom", "卧室", (), "f2")
MASTER = Area("master", "主卧室", ("master bedroom",), "f2")
HALL = Area("hall", "厅", (), "f1")  # a one-character room word: too short to trust in names
F1 = Floor("f1", "一楼", ("downstairs",))
F2 = Floor("f2", "二楼", ("upstairs",))


@pytest.fixture
def zh_index() -> DeviceIndex:
    """A Chinese home where names and recorded rooms disagree in every way they can."""
    devices = [
        make_device("light.living_ceiling", "吸顶灯", LIVING, F1),
        make_device("light.living_downlight", "客厅筒灯", LIVING, F1),
        make_device("light.master_lamp", "主卧室台灯", MASTER, F2),
        make_device("light.bedroom_lamp", "卧室台灯", BEDROOM, F2),
        make_device("light.misfiled", "客厅落地灯", KITCHEN, F1),
        make_device("light.no_area", "卧室夜灯"),
        make_device("light.no_area_no_room", "小夜灯"),
        make_device("light.two_rooms", "客厅厨房灯带"),
        make_device("light.two_rooms_with_area", "客厅卧室灯", LIVING, F1),
        make_device("light.hall_word", "厅灯"),
        make_device("switch.garage_light_zh", "车库灯"),
        make_device("switch.kettle", "电热水壶", KITCHEN, F1, labels=("节能",)),
    ]
    return DeviceIndex.build(
        devices, [LIVING, KITCHEN, BEDROOM, MASTER, HALL], [F1, F2], language="zh"
    )


def _refs(index: DeviceIndex, lex: Lexicon, surface: str) -> set[tuple[str, str, str]]:
    keys = tuple(lex.key(t) for t in tokens(normalize(surface)))
    return {(r.kind, r.target, r.source) for r in index.table(lex).get(keys)}


def _targets(index: DeviceIndex, lex: Lexicon, surface: str) -> set[str]:
    return {target for _, target, _ in _refs(index, lex, surface)}


# ---- build ----------------------------------------------------------------------------------


def test_build_knows_every_device_area_and_floor(zh_index: DeviceIndex):
    assert len(zh_index) == 12
    assert "light.misfiled" in zh_index
    assert set(zh_index.areas) == {"living", "kitchen", "bedroom", "master", "hall"}
    assert set(zh_index.floors) == {"f1", "f2"}
    assert zh_index.device("light.master_lamp").name == "主卧室台灯"


def test_areas_and_floors_known_only_through_devices_are_added():
    shed = Area("shed", "Shed", ("garden shed",), "outside")
    outside = Floor("outside", "Outside")
    index = DeviceIndex.build(
        [
            make_device("light.shed", "Shed Light", shed, outside),
            make_device("light.porch", "Shed lamp 2"),
        ],
        language="en",
    )
    assert index.areas["shed"].name == "Shed"
    assert index.floors["outside"].name == "Outside"
    # ... and they count as rooms: a device without an area that names the shed is placed there.
    assert index.entries["light.porch"].name_room == "shed"
    assert _rooms_in(index, "the garden shed lights") == {"shed"}


def test_empty_home_builds():
    index = DeviceIndex.build([], language="en")
    assert len(index) == 0
    assert index.devices() == []
    assert len(index.vectors) == 0


# ---- room named in a device's name ---------------------------------------------------------


def test_longest_room_word_wins(zh_index: DeviceIndex):
    # "主卧室台灯" contains both "卧室" and "主卧室": the longer one is the room.
    assert zh_index.entries["light.master_lamp"].name_room == "master"
    assert _rooms_in(zh_index, "主卧室的灯") == {"master"}


def test_name_that_names_its_own_room(zh_index: DeviceIndex):
    entry = zh_index.entries["light.living_downlight"]
    assert entry.name_room == "living"
    assert not entry.room_conflict


def test_name_without_a_room_word(zh_index: DeviceIndex):
    entry = zh_index.entries["light.living_ceiling"]
    assert entry.name_room is None
    assert not entry.room_conflict


def test_name_naming_two_rooms_is_ambiguous(zh_index: DeviceIndex):
    assert zh_index.entries["light.two_rooms"].name_room == AMBIGUOUS
    assert zh_index.entries["light.two_rooms_with_area"].name_room == AMBIGUOUS


def test_ambiguous_name_is_no_conflict_with_a_set_area(zh_index: DeviceIndex):
    # An undecided name says nothing against the registry.
    assert not zh_index.entries["light.two_rooms_with_area"].room_conflict


def test_one_character_chinese_room_word_is_not_used(zh_index: DeviceIndex):
    assert zh_index.entries["light.hall_word"].name_room is None
    assert _rooms_in(zh_index, "厅里的灯") == set()


def test_a_device_without_area_is_in_no_room_whatever_its_name_says(zh_index: DeviceIndex):
    # The name's room is still read (answers to "which one?" use it), but it places nothing.
    assert zh_index.entries["light.no_area"].name_room == "bedroom"
    assert not zh_index.entries["light.no_area"].room_conflict
    assert not zh_index.entries["light.no_area_no_room"].room_conflict


def test_name_naming_another_room_does_not_overrule_the_registry(zh_index: DeviceIndex):
    # "客厅落地灯" filed under the kitchen is a kitchen lamp, as Home Assistant reads it.
    entry = zh_index.entries["light.misfiled"]
    assert entry.name_room == "living"
    assert not entry.room_conflict


def test_room_aliases_count_as_room_words(zh_index: DeviceIndex):
    assert _rooms_in(zh_index, "起居室") == {"living"}
    assert _rooms_in(zh_index, "the master bedroom lamp") == {"master"}


def test_room_words_match_across_bracket_width_and_dash_styles():
    east = Area("east", "客厅（东）")
    living = Area("lr", "Living Room")
    index = DeviceIndex.build(
        [
            make_device("light.a", "客厅(东)吸顶灯"),
            make_device("light.b", "living-room lamp"),
            make_device("light.c", "LIVING ROOM lamp"),
        ],
        [east, living],
        language="zh",
    )
    assert index.entries["light.a"].name_room == "east"
    assert index.entries["light.b"].name_room == "lr"
    assert index.entries["light.c"].name_room == "lr"


def test_english_room_words_match_whole_words_only():
    den = Area("den", "Den")
    index = DeviceIndex.build([make_device("light.garden", "Garden Light")], [den], language="en")
    assert index.entries["light.garden"].name_room is None


def test_floor_named_in_a_name():
    index = DeviceIndex.build(
        [
            make_device("light.stairs", "二楼楼梯灯"),
            make_device("light.up", "Upstairs hallway", floor=F1),
        ],
        [],
        [F1, F2],
        language="zh",
    )
    assert index.entries["light.stairs"].name_floor == "f2"
    assert index.entries["light.up"].name_floor == "f2"
    # The registry decides the floor, not the floor a name names.
    assert not index.entries["light.stairs"].floor_conflict
    assert not index.entries["light.up"].floor_conflict


# ---- types named in a name ------------------------------------------------------------------


def test_switch_named_like_a_light_is_a_light(small_en_index: DeviceIndex, zh_index: DeviceIndex):
    assert "light" in small_en_index.entries["switch.garage_light"].name_types
    assert "light" in zh_index.entries["switch.garage_light_zh"].name_types


def test_name_without_type_words_has_no_type(zh_index: DeviceIndex, small_en_index: DeviceIndex):
    assert "light" not in zh_index.entries["switch.kettle"].name_types
    assert "light" not in small_en_index.entries["switch.christmas_tree"].name_types


def test_only_the_entity_name_says_what_it_is():
    # A nickname ("heat lamp" on a bath heater) must not make "all the lights" switch it.
    heater = make_device("switch.bath_heater", "Bath Heater", aliases=("heat lamp",))
    lamp = make_device("switch.plug_3", "Reading Lamp", aliases=("plug 3",))
    index = DeviceIndex.build([heater, lamp], language="en")
    assert "light" not in index.entries["switch.bath_heater"].name_types
    assert "light" in index.entries["switch.plug_3"].name_types


def test_type_word_inside_a_longer_english_word_does_not_count():
    index = DeviceIndex.build([make_device("switch.x", "Lighthouse Model")], language="en")
    assert "light" not in index.entries["switch.x"].name_types


# ---- phrase tables --------------------------------------------------------------------------


def test_table_finds_names_aliases_areas_floors_and_labels(small_en_index: DeviceIndex, lexicons):
    en = lexicons.get("en")
    assert _refs(small_en_index, en, "Floor Lamp") == {("entity", "light.living_lamp", "name")}
    assert ("entity", "light.living_lamp", "alias") in _refs(small_en_index, en, "old buddy")
    assert ("area", "living", "area") in _refs(small_en_index, en, "living room")
    assert ("area", "living", "area_alias") in _refs(small_en_index, en, "lounge")
    assert ("floor", "up", "floor") in _refs(small_en_index, en, "upstairs")
    assert ("floor", "down", "floor_alias") in _refs(small_en_index, en, "ground floor")
    assert ("label", "christmas", "label") in _refs(small_en_index, en, "Christmas")


def test_table_finds_every_device_sharing_a_name(small_en_index: DeviceIndex, lexicons):
    en = lexicons.get("en")
    assert _targets(small_en_index, en, "ceiling light") == {
        "light.living_ceiling",
        "light.kitchen_ceiling",
        "light.bedroom_ceiling",
    }


def test_table_matches_plural_forms_of_names(small_en_index: DeviceIndex, lexicons):
    en = lexicons.get("en")
    assert "light.living_lamp" in _targets(small_en_index, en, "floor lamps")


def test_table_finds_device_names(lexicons):
    index = DeviceIndex.build(
        [make_device("light.x", "吸顶灯", device_name="Yeelight Ceiling")], language="en"
    )
    assert ("entity", "light.x", "device") in _refs(index, lexicons.get("en"), "yeelight ceiling")


def test_chinese_table_finds_names_areas_floors_labels(demo_index: DeviceIndex, lexicons):
    zh = lexicons.get("zh")
    assert ("entity", "light.study_old_lamp", "alias") in _refs(demo_index, zh, "老伙计")
    assert ("area", "master_bedroom", "area") in _refs(demo_index, zh, "主卧")
    assert ("floor", "floor_2", "floor_alias") in _refs(demo_index, zh, "楼上")
    assert ("label", "节能", "label") in _refs(demo_index, zh, "节能")
    # The Traditional spelling of a name finds the same device.
    assert "light.study_old_lamp" in _targets(demo_index, zh, "老夥計")


def test_tables_of_several_languages_coexist(small_en_index: DeviceIndex, lexicons):
    assert _targets(small_en_index, lexicons.get("zh"), "Floor Lamp") == {"light.living_lamp"}
    assert _targets(small_en_index, lexicons.get("en"), "Floor Lamp") == {"light.living_lamp"}


# ---- partial room names ---------------------------------------------------------------------


def test_part_of_room_names_means_all_of_them(lexicons):
    areas = [
        Area("master", "主卧室"),
        Area("guest", "次卧室"),
        Area("kitchen", "厨房"),
        Area("mb", "Master Bedroom"),
        Area("gb", "Guest Bedroom"),
        Area("k", "Kitchen"),
    ]
    index = DeviceIndex.build([], areas, language="zh")
    assert index.rooms.areas_containing("卧室", lexicons.get("zh")) == {"master", "guest"}
    assert index.rooms.areas_containing("bedrooms", lexicons.get("en")) == {"mb", "gb"}


def test_too_short_room_fragments_match_nothing(lexicons):
    areas = [Area("master", "主卧室"), Area("mb", "Master Bedroom"), Area("lr", "Living Room")]
    index = DeviceIndex.build([], areas, language="zh")
    assert index.rooms.areas_containing("室", lexicons.get("zh")) == set()
    assert index.rooms.areas_containing("bed", lexicons.get("en")) == set()  # not a whole word
    assert index.rooms.areas_containing("", lexicons.get("en")) == set()


# ---- incremental updates --------------------------------------------------------------------


def _table_snapshot(index: DeviceIndex, lex: Lexicon) -> dict[tuple[str, ...], set]:
    return {
        k: {(r.kind, r.target, r.source) for r in v}
        for k, v in index.table(lex).entries.items()
        if v
    }


def test_rename_forgets_the_old_name_and_learns_the_new(small_en_index: DeviceIndex, lexicons):
    index = DeviceIndex.build(
        small_en_index.devices(),
        small_en_index.areas.values(),
        small_en_index.floors.values(),
        language="en",
    )
    en = lexicons.get("en")
    index.table(en)
    renamed = dataclasses.replace(index.device("light.office_desk"), name="Banker Lamp")
    index.upsert(renamed)
    assert "light.office_desk" not in _targets(index, en, "desk lamp")
    assert _targets(index, en, "desk lamp") == {"light.bedroom_desk"}
    assert _targets(index, en, "banker lamp") == {"light.office_desk"}
    assert len(index) == len(small_en_index)
    best = index.vectors.search(index.vectors.vectorize("banker lamp"), 1)
    assert best[0].entity_id == "light.office_desk"


def test_upsert_adds_a_new_device(zh_index: DeviceIndex, lexicons):
    zh = lexicons.get("zh")
    zh_index.upsert(make_device("light.kitchen_strip", "橱柜灯带", KITCHEN, F1))
    assert len(zh_index) == 13
    assert _targets(zh_index, zh, "橱柜灯带") == {"light.kitchen_strip"}
    best = zh_index.vectors.search(zh_index.vectors.vectorize("橱柜灯带"), 1)
    assert best[0].entity_id == "light.kitchen_strip"


def test_device_in_a_brand_new_area_makes_that_area_known(zh_index: DeviceIndex, lexicons):
    zh = lexicons.get("zh")
    zh_index.table(zh)  # the Chinese table already exists: it must learn the new room too
    study = Area("study", "书房", (), "f2")
    zh_index.upsert(make_device("light.study_panel", "面板灯", study, F2))
    zh_index.upsert(make_device("light.study_lamp", "书房台灯"))
    assert "study" in zh_index.areas
    assert ("area", "study", "area") in _refs(zh_index, zh, "书房")
    assert _rooms_in(zh_index, "书房的灯") == {"study"}
    assert zh_index.entries["light.study_lamp"].name_room == "study"


def test_new_area_updates_room_extraction_of_existing_devices():
    index = DeviceIndex.build([make_device("light.shed", "Shed Light")], language="en")
    assert index.entries["light.shed"].name_room is None
    index.upsert(make_device("light.shed_2", "Lamp", Area("shed", "Shed")))
    assert index.entries["light.shed"].name_room == "shed"


def test_move_to_another_room(zh_index: DeviceIndex):
    moved = dataclasses.replace(
        zh_index.device("light.misfiled"), area_id="living", area_name="客厅"
    )
    zh_index.upsert(moved)
    assert not zh_index.entries["light.misfiled"].room_conflict


def test_upsert_matches_a_fresh_build(small_en_index: DeviceIndex, lexicons):
    en = lexicons.get("en")
    devices = small_en_index.devices()
    index = DeviceIndex.build(
        devices, small_en_index.areas.values(), small_en_index.floors.values(), language="en"
    )
    index.table(en)
    renamed = dataclasses.replace(
        index.device("light.living_lamp"), name="Arc Lamp", aliases=("big arc",)
    )
    index.upsert(renamed)
    fresh = DeviceIndex.build(
        [renamed if d.entity_id == renamed.entity_id else d for d in devices],
        small_en_index.areas.values(),
        small_en_index.floors.values(),
        language="en",
    )
    assert _table_snapshot(index, en) == _table_snapshot(fresh, en)


def test_remove_forgets_the_device_everywhere(small_en_index: DeviceIndex, lexicons):
    en = lexicons.get("en")
    index = DeviceIndex.build(
        small_en_index.devices(),
        small_en_index.areas.values(),
        small_en_index.floors.values(),
        language="en",
    )
    index.table(en)
    index.remove("light.living_lamp")
    assert "light.living_lamp" not in index
    assert len(index) == len(small_en_index) - 1
    assert len(index.vectors) == len(small_en_index) - 1
    assert "light.living_lamp" not in _targets(index, en, "floor lamp")
    assert "light.living_lamp" not in _targets(index, en, "old buddy")
    hits = index.vectors.search(index.vectors.vectorize("floor lamp"), len(index))
    assert "light.living_lamp" not in {c.entity_id for c in hits}
    # Devices that shared nothing with it are untouched.
    assert _targets(index, en, "ceiling light") == {
        "light.living_ceiling",
        "light.kitchen_ceiling",
        "light.bedroom_ceiling",
    }


def test_remove_of_one_of_two_namesakes_keeps_the_other(small_en_index: DeviceIndex, lexicons):
    en = lexicons.get("en")
    index = DeviceIndex.build(
        small_en_index.devices(),
        small_en_index.areas.values(),
        small_en_index.floors.values(),
        language="en",
    )
    index.table(en)
    index.remove("light.office_desk")
    assert _targets(index, en, "desk lamp") == {"light.bedroom_desk"}


def test_remove_unknown_entity_is_harmless(zh_index: DeviceIndex):
    zh_index.remove("light.does_not_exist")
    assert len(zh_index) == 12


def test_remove_matches_a_fresh_build(lexicons):
    en = lexicons.get("en")
    devices = [
        make_device("light.a", "Kitchen Light", Area("kitchen", "Kitchen")),
        make_device("light.b", "Desk Lamp", labels=("xmas",)),
    ]
    index = DeviceIndex.build(devices, language="en")
    index.table(en)
    index.remove("light.b")
    fresh = DeviceIndex.build(devices[:1], language="en")
    assert _table_snapshot(index, en) == _table_snapshot(fresh, en)


def test_updates_bump_the_generation(zh_index: DeviceIndex):
    start = zh_index.generation
    zh_index.upsert(make_device("light.new", "新灯", KITCHEN, F1))
    zh_index.remove("light.new")
    assert zh_index.generation == start + 2


# ---- room kinds -------------------------------------------------------------------------------


def _read(text: str, index: DeviceIndex):
    from custom_components.context_retrieval.core.base.parse import compile_utterance

    _, commands = compile_utterance(text, index, index.lexicons)
    assert len(commands) == 1
    return commands[0]


def _home(areas: list[Area], language: str) -> DeviceIndex:
    devices = [
        make_device(f"light.{a.area_id}", "灯" if language == "zh" else "Lamp", a) for a in areas
    ]
    return DeviceIndex.build(devices, areas, language=language)


def test_a_generic_room_word_covers_every_room_of_its_kind_in_chinese():
    # No room is called 卧室, so it means both bedrooms (主卧, 次卧), not just the one whose
    # name happens to contain the characters.
    index = _home(
        [Area("master", "主卧"), Area("guest", "次卧", ("客卧",)), Area("living", "客厅")], "zh"
    )
    assert _read("打开卧室的灯", index).scope_include == {"master", "guest"}
    assert _read("关掉除了卧室以外的所有灯", index).scope_exclude == {"master", "guest"}


def test_a_generic_room_word_covers_rooms_named_by_other_words_of_the_kind():
    index = _home(
        [Area("master", "Master Bedroom"), Area("guest", "Guest Room"), Area("kitchen", "Kitchen")],
        "en",
    )
    assert _read("turn off the bedroom lights", index).scope_include == {"master", "guest"}


def test_a_compound_ending_in_a_room_word_is_of_that_kind():
    index = _home(
        [
            Area("eltern", "Elternschlafzimmer"),
            Area("gast", "Gästezimmer"),
            Area("bad", "Badezimmer"),
        ],
        "de",
    )
    assert _read("Schalte das Licht im Schlafzimmer aus", index).scope_include == {"eltern", "gast"}


def test_a_room_with_exactly_that_name_wins_over_the_kind():
    index = _home([Area("bedroom", "Bedroom"), Area("guest", "Guest Bedroom")], "en")
    assert _read("turn off the bedroom lights", index).scope_include == {"bedroom"}


def test_a_room_kind_word_is_no_target_for_typo_repair():
    # "stube" (a word for a living room) is no name of this home: "staub" stays as said.
    from custom_components.context_retrieval.core.base.parse import analyze

    index = _home([Area("wohnen", "Wohnzimmer"), Area("kueche", "Küche")], "de")
    assert analyze("Sauge den Staub im Wohnzimmer", index, index.lexicons).corrections == []


def test_ordered_is_the_home_order_for_few_and_for_many_ids_after_updates():
    from dataclasses import replace

    from custom_components.context_retrieval.core import DeviceIndex
    from tests.core.conftest import make_device

    devices = [make_device(f"light.l{i:02d}", f"Lamp {i}") for i in range(20)]
    index = DeviceIndex.build(devices, language="en")
    index.upsert(replace(devices[3], name="Renamed Lamp"))  # a rename keeps its place
    index.remove("light.l05")
    index.upsert(devices[5])  # removed and added again: now the last
    home_order = [f"light.l{i:02d}" for i in range(20) if i != 5] + ["light.l05"]
    many = set(home_order) | {"light.unknown"}  # every device: one pass over the home
    assert index.ordered(many) == home_order
    few = {"light.l05", "light.l03", "light.l00", "light.unknown"}  # 3 of 20: sorted
    assert index.ordered(few) == ["light.l00", "light.l03", "light.l05"]
    # Lists keep their repeats, as before: only sets take the one-pass path.
    assert index.ordered(["light.l05", "light.l01", "light.l05"]) == [
        "light.l01",
        "light.l05",
        "light.l05",
    ]
    assert index.ordered(set(home_order[:3])) == home_order[:3]  # 3 * 8 >= 20: one pass
    assert index.ordered(frozenset(home_order[-2:])) == home_order[-2:]  # 2 * 8 < 20: sorted


def test_id_set_is_the_homes_own_keys_for_the_whole_home_and_a_set_otherwise(
    zh_index: DeviceIndex,
):
    every = list(zh_index.entries)
    whole = zh_index.id_set(every)
    assert set(whole) == set(every)
    assert whole is not None and type(whole) is type(zh_index.entries.keys())
    part = every[:-1]
    some = zh_index.id_set(part)
    assert isinstance(some, set) and some == set(part)
    assert every[-1] not in some and every[-1] in whole
    assert zh_index.id_set([]) == set()
    # The key view follows the home: a device added later is in it.
    zh_index.upsert(make_device("light.added_later", "新灯"))
    assert "light.added_later" in whole


def test_changed_since_names_what_updates_touched_and_knows_when_it_cannot():
    living = Area("living", "Living Room")
    index = DeviceIndex.build(
        [make_device("light.a", "Lamp", living), make_device("light.b", "Fan", living)], [living]
    )
    start = index.generation
    assert index.changed_since(start) == set()
    index.upsert(dataclasses.replace(index.device("light.a"), name="Reading Lamp"))
    index.remove("light.b")
    assert index.changed_since(start) == {"light.a", "light.b"}
    middle = index.generation
    index.upsert(make_device("light.c", "Desk Lamp", living))
    assert index.changed_since(middle) == {"light.c"}
    # A new room re-reads every name: no list of changes can say what that touched.
    index.upsert(make_device("light.d", "Lamp", Area("den", "Den")))
    assert index.changed_since(middle) is None
    # Too many updates ago is not known either.
    last = index.generation
    for i in range(CHANGES_KEPT + 1):
        index.upsert(make_device(f"light.n{i}", f"Lamp {i}", living))
    assert index.changed_since(last) is None
    assert index.changed_since(index.generation - 1) == {f"light.n{CHANGES_KEPT}"}


def _rooms_in(index: DeviceIndex, text: str) -> set[str]:
    """The rooms the home's room words find in `text`, as in a name ("Kitchen Light")."""
    return index.rooms.rooms_in(tokens(normalize(text)))


def test_moving_to_a_brand_new_room_leaves_nothing_of_the_old_record():
    office = Area("office", "Office")
    devices = [
        make_device("light.desk", "Desk Lamp", office, labels=("work",)),
        make_device("light.hall", "Hall Light"),
    ]
    index = DeviceIndex.build(devices, language="en")
    moved = dataclasses.replace(
        index.device("light.desk"), name="Garden Lamp", area_id="garden", area_name="Garden"
    )
    moved = dataclasses.replace(moved, labels=("outside",))
    index.upsert(moved)
    assert index.postings.by_area.get("office", set()) == set()
    assert index.postings.by_area["garden"] == {"light.desk"}
    assert index.postings.by_label.get("work", set()) == set()
    assert index.postings.by_label["outside"] == {"light.desk"}
