"""core/retrieval/scope.py: the deterministic room/floor pre-filter."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor
from custom_components.context_retrieval.core.base.text import mentions
from custom_components.context_retrieval.core.retrieval.scope import _unknown_hits, apply_scope
from tests.core.conftest import make_device

LIVING = Area("living", "客厅", (), "f1")
KITCHEN = Area("kitchen", "厨房", (), "f1")
BEDROOM = Area("bedroom", "卧室", (), "f2")
MASTER = Area("master", "主卧室", (), "f2")
STUDY = Area("study", "书房", (), "f2")
F1 = Floor("f1", "一楼")
F2 = Floor("f2", "二楼")


@pytest.fixture
def home() -> DeviceIndex:
    devices = [
        make_device("light.living_ceiling", "吸顶灯", LIVING, F1),
        make_device("light.living_downlight", "客厅筒灯", LIVING, F1),
        make_device("light.kitchen", "厨房灯", KITCHEN, F1),
        make_device("light.misfiled", "客厅落地灯", KITCHEN, F1),  # name names another room
        make_device("light.master", "主卧室台灯", MASTER, F2),
        make_device("light.bedroom", "卧室灯", BEDROOM, F2),
        make_device("light.study_no_area", "书房台灯"),  # no area, name names the study
        make_device("light.plain_no_area", "小夜灯"),  # no area, no room in the name
        make_device("light.two_rooms", "客厅厨房灯带"),  # no area, name names two rooms
        make_device("light.two_rooms_area", "客厅卧室灯", LIVING, F1),
        make_device("light.attic", "阁楼灯", BEDROOM, F2),  # "阁楼" is no room of this home
        make_device("light.stairs", "二楼楼梯灯"),  # no area/floor; name names floor 2
    ]
    return DeviceIndex.build(
        devices, [LIVING, KITCHEN, BEDROOM, MASTER, STUDY], [F1, F2], language="zh"
    )


def area_of(index: DeviceIndex, entity_id: str) -> str | None:
    return index.device(entity_id).area_id


# ---- no scope -------------------------------------------------------------------------------


def test_without_scope_everything_passes(home: DeviceIndex):
    result = apply_scope(home)
    assert sorted(result.entity_ids) == sorted(home.entries)
    assert not result.include_fallback
    assert result.room_name_used == result.room_name_ambiguous == 0
    assert result.room_unknown_terms == []


def test_candidates_restrict_the_pool_and_unknown_ids_are_dropped(home: DeviceIndex):
    result = apply_scope(home, candidates=["light.kitchen", "light.gone"])
    assert result.entity_ids == ["light.kitchen"]


# ---- exclude --------------------------------------------------------------------------------


def test_exclude_removes_every_device_of_the_room(home: DeviceIndex):
    result = apply_scope(home, exclude_areas={"living"})
    assert all(area_of(home, e) != "living" for e in result.entity_ids)
    assert "light.kitchen" in result.entity_ids
    assert "light.plain_no_area" in result.entity_ids


def test_exclude_follows_the_registry_not_a_room_word_in_the_name(home: DeviceIndex):
    # "客厅落地灯" is filed under the kitchen: "除了客厅" leaves the living room's devices out,
    # and this lamp is a kitchen lamp, as Home Assistant reads it.
    result = apply_scope(home, exclude_areas={"living"})
    assert "light.misfiled" in result.entity_ids
    assert result.room_name_used == 0
    assert "light.misfiled" not in apply_scope(home, exclude_areas={"kitchen"}).entity_ids


def test_exclude_keeps_a_device_without_area_whose_name_names_the_room(home: DeviceIndex):
    # "书房台灯" is filed in no room: leaving the study out does not touch it.
    result = apply_scope(home, exclude_areas={"study"})
    assert "light.study_no_area" in result.entity_ids
    assert result.room_name_used == 0


def test_exclude_is_hard_even_when_nothing_is_left(home: DeviceIndex):
    result = apply_scope(
        home,
        candidates=["light.living_ceiling", "light.living_downlight"],
        exclude_areas={"living"},
    )
    assert result.entity_ids == []
    assert not result.include_fallback


def test_exclude_stays_hard_when_include_falls_back(home: DeviceIndex):
    result = apply_scope(
        home,
        candidates=["light.living_ceiling", "light.kitchen"],
        include_areas={"study"},
        exclude_areas={"kitchen"},
    )
    assert result.include_fallback
    assert result.entity_ids == ["light.living_ceiling"]


def test_undecided_name_is_never_used_to_exclude(home: DeviceIndex):
    result = apply_scope(home, exclude_areas={"living", "kitchen"})
    assert "light.two_rooms" in result.entity_ids  # "客厅厨房灯带", no area


# ---- include --------------------------------------------------------------------------------


def test_include_keeps_only_the_room(home: DeviceIndex):
    result = apply_scope(home, include_areas={"bedroom"})
    assert set(result.entity_ids) == {"light.bedroom", "light.attic"}
    assert result.include_matched
    assert not result.include_fallback
    assert result.include_fallback is False


def test_include_several_rooms(home: DeviceIndex):
    result = apply_scope(home, include_areas={"bedroom", "master"})
    assert set(result.entity_ids) == {"light.bedroom", "light.attic", "light.master"}


def test_include_and_exclude_together(home: DeviceIndex):
    result = apply_scope(home, include_floors={"f2"}, exclude_areas={"bedroom"})
    assert "light.master" in result.entity_ids
    assert "light.bedroom" not in result.entity_ids
    assert "light.attic" not in result.entity_ids


def test_include_that_empties_the_result_falls_back_to_exclude_only(home: DeviceIndex):
    result = apply_scope(
        home, candidates=["light.kitchen", "light.living_ceiling"], include_areas={"bedroom"}
    )
    assert result.include_fallback
    assert not result.include_matched
    assert result.include_fallback is True
    assert set(result.entity_ids) == {"light.kitchen", "light.living_ceiling"}


def test_star_includes_everything(home: DeviceIndex):
    result = apply_scope(home, include_areas={"*"})
    assert sorted(result.entity_ids) == sorted(home.entries)
    assert not result.include_fallback


def test_star_with_exclude_keeps_the_exclude(home: DeviceIndex):
    result = apply_scope(home, include_areas={"*"}, exclude_areas={"kitchen"})
    assert "light.kitchen" not in result.entity_ids
    assert "light.living_ceiling" in result.entity_ids
    assert not result.include_fallback


# ---- device-name room fallback --------------------------------------------------------------


def test_device_without_area_is_in_no_room(home: DeviceIndex):
    # The study has no device in the registry: the include finds none and falls back.
    result = apply_scope(home, include_areas={"study"})
    assert result.include_fallback
    assert result.room_name_used == 0
    assert result.room_name_used == 0


def test_misfiled_device_stays_in_the_room_the_registry_says(home: DeviceIndex):
    result = apply_scope(home, include_areas={"living"})
    assert "light.misfiled" not in result.entity_ids
    assert set(result.entity_ids) == {
        "light.living_ceiling",
        "light.living_downlight",
        "light.two_rooms_area",
    }
    assert result.room_name_used == 0
    assert "light.misfiled" in apply_scope(home, include_areas={"kitchen"}).entity_ids


def test_registry_decides_when_there_is_no_conflict(home: DeviceIndex):
    # "客厅筒灯" is filed under the living room: the registry decides, the name is not "used".
    result = apply_scope(home, candidates=["light.living_downlight"], include_areas={"living"})
    assert result.entity_ids == ["light.living_downlight"]
    assert result.room_name_used == 0


def test_name_is_not_consulted_when_registry_and_command_agree(home: DeviceIndex):
    # "阁楼灯" (attic lamp) filed under the bedroom; "阁楼" is no room of this home and the
    # command does not mention it, so the name plays no part.
    result = apply_scope(home, exclude_areas={"bedroom"})
    assert "light.attic" not in result.entity_ids
    assert result.room_name_used == 0


def test_device_without_area_and_without_room_in_name_is_not_included(home: DeviceIndex):
    result = apply_scope(home, include_areas={"kitchen"})
    assert "light.plain_no_area" not in result.entity_ids


def test_unknown_room_word_is_tried_against_device_names(home: DeviceIndex):
    # "打开阁楼的灯": the home has no attic, but one lamp is called "阁楼灯".
    result = apply_scope(home, unknown_rooms=["阁楼"])
    assert result.entity_ids == ["light.attic"]
    assert result.room_name_used == 1
    assert result.room_unknown_terms == ["阁楼"]
    assert result.room_unknown_terms == ["阁楼"]


def test_unknown_room_word_matching_no_name_falls_back(home: DeviceIndex):
    result = apply_scope(home, unknown_rooms=["花园"])
    assert result.include_fallback
    assert sorted(result.entity_ids) == sorted(home.entries)
    assert result.room_name_used == 0
    assert result.room_unknown_terms == ["花园"]


def test_unknown_room_terms_are_normalised_and_blank_ones_dropped(home: DeviceIndex):
    result = apply_scope(home, unknown_rooms=["閣樓", "  ", ""])
    assert result.room_unknown_terms == ["阁楼"]
    assert result.entity_ids == ["light.attic"]


def test_room_name_used_counts_only_devices_the_name_decided(home: DeviceIndex):
    # The include falls back: no device was kept by its name, so none is reported.
    result = apply_scope(
        home, candidates=["light.kitchen", "light.misfiled"], include_areas={"study"}
    )
    assert result.include_fallback
    assert result.room_name_used == 0


# ---- ambiguous names ------------------------------------------------------------------------


def test_a_name_naming_two_rooms_places_nothing(home: DeviceIndex):
    result = apply_scope(home, include_areas={"kitchen"})
    assert "light.two_rooms" not in result.entity_ids
    assert result.room_name_ambiguous == 0
    fallback = apply_scope(home, candidates=["light.two_rooms"], include_areas={"living"})
    assert fallback.include_fallback
    assert fallback.entity_ids == ["light.two_rooms"]


def test_unknown_word_plus_a_known_room_in_one_name_is_ambiguous():
    index = DeviceIndex.build([make_device("light.x", "客厅阁楼灯")], [LIVING], [F1], language="zh")
    result = apply_scope(index, unknown_rooms=["阁楼"])
    assert result.room_name_ambiguous == 1
    assert result.room_name_used == 0
    assert result.include_fallback


# ---- floors ---------------------------------------------------------------------------------


def test_include_floor(home: DeviceIndex):
    result = apply_scope(home, include_floors={"f2"})
    assert {"light.master", "light.bedroom", "light.attic"} <= set(result.entity_ids)
    assert all(home.device(e).floor_id in ("f2", None) for e in result.entity_ids)
    assert "light.kitchen" not in result.entity_ids


def test_exclude_floor_is_hard(home: DeviceIndex):
    result = apply_scope(home, exclude_floors={"f1"})
    assert all(home.device(e).floor_id != "f1" for e in result.entity_ids)
    assert "light.master" in result.entity_ids


def test_device_without_floor_is_on_no_floor(home: DeviceIndex):
    result = apply_scope(home, include_floors={"f2"})
    assert "light.stairs" not in result.entity_ids  # "二楼楼梯灯", filed nowhere
    assert "light.stairs" in apply_scope(home, exclude_floors={"f2"}).entity_ids


def test_floor_include_that_empties_falls_back(home: DeviceIndex):
    result = apply_scope(home, candidates=["light.kitchen"], include_floors={"f2"})
    assert result.include_fallback
    assert result.entity_ids == ["light.kitchen"]


def test_room_and_floor_include_must_both_hold(home: DeviceIndex):
    result = apply_scope(home, include_areas={"living", "bedroom"}, include_floors={"f2"})
    assert set(result.entity_ids) == {"light.bedroom", "light.attic"}


def test_star_floor_includes_everything(home: DeviceIndex):
    result = apply_scope(home, include_floors={"*"})
    assert sorted(result.entity_ids) == sorted(home.entries)


# ---- the demo home --------------------------------------------------------------------------


def test_demo_living_room_leaves_the_lamp_filed_in_the_dining_room(demo_index: DeviceIndex):
    # demo: "客厅落地灯" is filed under the dining room, so it is a dining-room lamp.
    result = apply_scope(demo_index, include_areas={"living_room"})
    assert "light.ke_ting_luo_di_deng" not in result.entity_ids
    assert "light.dining_pendant" not in result.entity_ids
    assert result.room_name_used == 0


def test_demo_upstairs_except_master_bedroom(demo_index: DeviceIndex):
    result = apply_scope(demo_index, include_floors={"floor_2"}, exclude_areas={"master_bedroom"})
    areas = {demo_index.device(e).area_id for e in result.entity_ids}
    assert areas == {"guest_room", "kids_room", "study", "bathroom"}


# ---- suspected bugs -------------------------------------------------------------------------


def test_one_character_unknown_room_word_is_not_matched_in_names():
    index = DeviceIndex.build(
        [make_device("light.store", "库房灯"), make_device("light.kitchen", "厨房灯", KITCHEN, F1)],
        [KITCHEN],
        [F1],
        language="zh",
    )
    result = apply_scope(index, unknown_rooms=["房"])
    assert result.room_name_used == 0
    assert result.include_fallback
    assert sorted(result.entity_ids) == ["light.kitchen", "light.store"]


def test_unknown_latin_room_word_matches_whole_words_only():
    index = DeviceIndex.build(
        [make_device("light.garden", "Garden Light"), make_device("light.den", "Den Lamp")],
        language="en",
    )
    result = apply_scope(index, unknown_rooms=["den"])
    assert result.entity_ids == ["light.den"]


# ---- unknown room words found through the names that hold them ------------------------------


def _every_name_read(index: DeviceIndex, unknown: list[str]) -> tuple[dict[str, set[str]], set]:
    """What `_unknown_hits` must give: every name of the home read for every term."""
    hits: dict[str, set[str]] = {term: set() for term in unknown}
    ambiguous: set[str] = set()
    for eid, entry in index.entries.items():
        name = entry.norm_names[0] if entry.norm_names else ""
        said = {term for term in unknown if mentions(name, term)}
        if len(said) > 1 or (said and entry.name_room is not None):
            ambiguous.add(eid)
        elif said:
            hits[next(iter(said))].add(eid)
    return hits, ambiguous


def test_unknown_words_find_what_reading_every_name_finds() -> None:
    names = [
        "Attic Fan",
        "attic light 2",
        "Studio Lamp",
        "studio attic lamp",
        "Gardenia Lamp",
        "Garden Light",
        "阁楼灯",
        "阁楼风扇",
        "小阁楼灯",
        "楼梯灯",
        "3楼 attic 灯",
        "Pool Pump",
        "Living Room Lamp",
        "l'atelier lampe",
        "atelier",
    ]
    devices = [
        make_device(f"light.d{i}", name, LIVING if i % 3 == 0 else None)
        for i, name in enumerate(names)
    ]
    index = DeviceIndex.build(devices, [LIVING, KITCHEN], [F1], language="en")
    index.upsert(make_device("light.d0", "Garden Shed Light"))  # renamed: no longer "attic"
    cases = [
        ["attic"],
        ["garden"],
        ["阁楼"],
        ["楼"],
        ["attic light"],
        ["atelier"],
        ["studio", "attic"],
        ["pool pump", "阁楼"],
        ["garden light", "gardenia"],
        ["-"],
    ]
    for unknown in cases:
        ambiguous: set[str] = set()
        hits = _unknown_hits(index, unknown, ambiguous)
        assert (hits, ambiguous) == _every_name_read(index, unknown), unknown
