"""core/retrieval/resolve.py: whether words that are both a name and a type word mean the one
named or every device of the kind."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, retrieve
from tests.core.conftest import make_device

LIVING = Area("living", "Living Room")
GARAGE = Area("garage", "Garage")


def _selected(text: str, index: DeviceIndex, **kwargs: object) -> set[str]:
    return {e for r in retrieve(text, index, **kwargs) for e in r.selected_ids}  # type: ignore[arg-type]


def _garage_home() -> DeviceIndex:
    devices = [
        # Named like the class, but its owner gave it no garage class.
        make_device("cover.garage_door", "Garage Door", GARAGE),
        make_device("cover.overhead", "Overhead Door", LIVING, device_class="garage"),
    ]
    return DeviceIndex.build(devices, [LIVING, GARAGE], language="en")


def test_a_command_with_a_class_word_acts_on_the_class_before_a_device_named_so():
    assert _selected("open the garage door", _garage_home()) == {"cover.overhead"}
    assert _selected("close the garage door", _garage_home()) == {"cover.overhead"}
    # The one named so stays the other reading, for an assistant that reads the request.
    (result,) = retrieve("open the garage door", _garage_home())
    assert result.meta.name_reading == ["cover.garage_door"]


def test_a_question_with_a_class_word_that_is_a_name_asks_about_the_one_named():
    assert _selected("is the garage door open", _garage_home()) == {"cover.garage_door"}


def test_a_name_that_has_the_class_itself_stays_the_name():
    index = DeviceIndex.build(
        [
            make_device("cover.garage_door", "Garage Door", LIVING, device_class="garage"),
            make_device("cover.carport", "Carport Door", LIVING, device_class="garage"),
        ],
        [LIVING],
        language="en",
    )
    assert _selected("open the garage door", index) == {"cover.garage_door"}


# ---- a room and a type word that together are a name ------------------------------------------

KITCHEN = Area("kitchen", "Kitchen")
HALL = Area("hall", "Hall")


def _kitchen_home() -> DeviceIndex:
    devices = [
        make_device("light.kitchen_light", "Kitchen Light", KITCHEN),
        make_device("light.counter", "Counter Strip", KITCHEN),
        make_device("light.pendant", "Pendant", KITCHEN),
        make_device("light.hall", "Hall Lamp", HALL),
        make_device("fan.hall_fan", "Hall Fan", KITCHEN),  # named after the hall, filed here
    ]
    return DeviceIndex.build(devices, [KITCHEN, HALL], language="en")


def test_room_and_plural_type_mean_every_device_of_that_type_in_the_room():
    (result,) = retrieve("turn off the kitchen lights", _kitchen_home())
    assert set(result.selected_ids) == {"light.kitchen_light", "light.counter", "light.pendant"}
    assert result.meta.name_reading == ["light.kitchen_light"]


def test_the_full_name_said_as_written_is_the_one_device():
    assert _selected("turn off the kitchen light", _kitchen_home()) == {"light.kitchen_light"}


def test_the_name_reading_is_used_when_the_room_has_none_of_that_type():
    # "hall fans": the hall has no fan, but a fan is called "Hall Fan".
    (result,) = retrieve("turn off the hall fans", _kitchen_home())
    assert result.selected_ids == ["fan.hall_fan"]
    assert result.meta.name_reading_used is True


def test_an_exclusion_said_as_room_and_plural_type_spares_the_whole_room():
    assert _selected("turn off all the lights except the kitchen lights", _kitchen_home()) == {
        "light.hall"
    }


def test_a_plural_marker_makes_a_type_word_that_is_a_name_mean_the_type():
    bedroom = Area("schlafzimmer", "Schlafzimmer")
    index = DeviceIndex.build(
        [
            make_device("binary_sensor.fenster", "Fenster", bedroom),
            make_device("cover.links", "Links", bedroom, device_class="window"),
            make_device("cover.rechts", "Rechts", bedroom, device_class="window"),
        ],
        [bedroom],
        language="de",
    )
    assert _selected("welche Fenster sind offen", index, language="de") == {
        "cover.links",
        "cover.rechts",
    }
    assert _selected("wie viele Fenster sind offen", index, language="de") == {
        "cover.links",
        "cover.rechts",
    }
    assert _selected("ist das Fenster offen", index, language="de") == {"binary_sensor.fenster"}


# ---- persons and the home -----------------------------------------------------------------------


def _family_home() -> DeviceIndex:
    devices = [
        make_device("person.jane", "Jane"),
        make_device("person.john", "John"),
        make_device("weather.home", "Home"),
        make_device("light.hall", "Hall Lamp", HALL),
    ]
    return DeviceIndex.build(devices, [HALL], language="en")


def test_asking_whether_anyone_is_home_is_about_the_persons_not_an_entity_called_home():
    index = _family_home()
    for text in ("is anyone home", "who is home", "how many people are home"):
        assert _selected(text, index) == {"person.jane", "person.john"}, text


def test_asking_whether_someone_named_is_home_is_about_that_person():
    assert _selected("is jane home", _family_home()) == {"person.jane"}


def test_the_entity_called_home_is_still_meant_when_nothing_else_is_named():
    assert _selected("what's the weather at home", _family_home()) == {"weather.home"}
    assert _selected("show me home", _family_home()) == {"weather.home"}


def test_a_word_for_the_whole_home_that_is_also_a_name_spares_the_name():
    index = DeviceIndex.build(
        [
            make_device("weather.casa", "Casa"),
            make_device("light.a", "Lámpara", HALL),
            make_device("light.b", "Techo", KITCHEN),
        ],
        [HALL, KITCHEN],
        language="es",
    )
    assert _selected("apaga todas las luces de la casa", index, language="es") == {
        "light.a",
        "light.b",
    }


# ---- a switching command that names only a place ------------------------------------------------


def _place_home(kitchen: str = "Kitchen", language: str = "en") -> DeviceIndex:
    room = Area("kitchen", kitchen)
    devices = [
        make_device("light.ceiling", "Ceiling", room),
        make_device("fan.hood", "Hood", room),
        make_device("switch.kettle", "Kettle", room),
        make_device("fan.hall", "Fan", HALL),
    ]
    return DeviceIndex.build(devices, [room, HALL], language=language)


@pytest.mark.parametrize(
    ("text", "kitchen", "language"),
    [
        ("turn off the kitchen", "Kitchen", "en"),
        ("apaga la cocina", "Cocina", "es"),
        ("éteins la cuisine", "Cuisine", "fr"),
        ("schalte die Küche aus", "Küche", "de"),
    ],
)
def test_switching_a_place_alone_switches_its_lights(text: str, kitchen: str, language: str):
    index = _place_home(kitchen, language)
    assert _selected(text, index, language=language) == {"light.ceiling"}


def test_switching_everything_in_a_place_is_the_comfort_devices_that_switch():
    # A switch runs whatever is plugged in (here a kettle; elsewhere a fish tank or a fridge):
    # "everything" does not reach it, and the result says it was left alone.
    (result,) = retrieve("turn off everything in the kitchen", _place_home())
    assert set(result.selected_ids) == {"light.ceiling", "fan.hood"}
    assert result.meta.everything_skipped == ["switch.kettle"]


def test_switching_all_devices_in_a_place_is_every_device_that_switches():
    # "all the devices" names devices: the plugs are devices too.
    assert _selected("turn off all the devices in the kitchen", _place_home()) == {
        "light.ceiling",
        "fan.hood",
        "switch.kettle",
    }


def test_switching_a_place_without_lights_selects_nothing():
    (result,) = retrieve("turn off the hall", _place_home())
    assert result.selected_ids == []
    assert result.meta.place_only == "light"


def test_a_room_and_a_type_word_that_only_numbered_copies_are_named_mean_the_type():
    bedroom = Area("bedroom", "卧室")
    devices = [
        make_device("climate.a", "空调 4", bedroom),
        make_device("climate.b", "空调 6", bedroom),
        make_device("climate.c", "空调", KITCHEN),
    ]
    index = DeviceIndex.build(devices, [bedroom, KITCHEN], language="zh")
    (result,) = retrieve("把卧室空调温度设置为25度", index)
    assert set(result.selected_ids) == {"climate.a", "climate.b"}
    assert result.clarification is None


# ---- a singular type word that is also the whole name of one device -----------------------------


def _valve_home() -> DeviceIndex:
    devices = [
        make_device("valve.main", "Valve", KITCHEN),
        make_device("valve.hot", "Hot Water Valve", KITCHEN),
        make_device("valve.cold", "Cold Water Valve", KITCHEN),
        make_device("valve.hall", "Valve", HALL),
    ]
    return DeviceIndex.build(devices, [KITCHEN, HALL], language="en")


def test_a_singular_type_word_in_a_room_is_the_device_called_so_there():
    # Where words mark the plural, "the valve" beside "Hot Water Valve" is the one called Valve.
    assert _selected("close the valve in the kitchen", _valve_home()) == {"valve.main"}


def test_a_plural_type_word_in_a_room_is_every_device_of_the_kind_there():
    assert _selected("close the valves in the kitchen", _valve_home()) == {
        "valve.main",
        "valve.hot",
        "valve.cold",
    }


def test_without_a_plural_a_type_word_that_names_several_kinds_means_the_kind():
    # Chinese marks no plural: "厨房的插座" beside "智能插座" means the sockets there.
    kitchen = Area("chufang", "厨房")
    index = DeviceIndex.build(
        [
            make_device("switch.socket", "插座", kitchen),
            make_device("switch.smart", "智能插座", kitchen),
            make_device("switch.other", "插座", HALL),
        ],
        [kitchen, HALL],
        language="zh",
    )
    assert _selected("关掉厨房的插座", index, language="zh") == {"switch.socket", "switch.smart"}


def test_a_name_said_in_another_case_in_its_room_is_still_the_name():
    # "датчику движения" (dative) names the "Датчик движения" in the office, not every
    # occupancy sensor there.
    office = Area("kabinet", "Кабинет")
    index = DeviceIndex.build(
        [
            make_device(
                "binary_sensor.motion", "Датчик движения", office, device_class="occupancy"
            ),
            make_device(
                "binary_sensor.desk", "Присутствие у стола", office, device_class="occupancy"
            ),
        ],
        [office],
        language="ru",
    )
    assert _selected("что по датчику движения в кабинете", index, language="ru") == {
        "binary_sensor.motion"
    }


# ---- a type word, then the room: "as luzes da cozinha" ------------------------------------------


def _cozinha_home() -> DeviceIndex:
    cozinha = Area("cozinha", "Cozinha")
    sala = Area("sala", "Sala")
    devices = [
        make_device("light.luz_da_cozinha", "Luz da Cozinha", cozinha),
        make_device("light.candeeiro", "Candeeiro", cozinha),
        make_device("light.teto", "Teto", cozinha),
        # Named after the kitchen, filed in the living room.
        make_device("light.copy", "Luz da Cozinha 2", sala),
        make_device("light.sala", "Abajur", sala),
    ]
    return DeviceIndex.build(devices, [cozinha, sala], language="pt")


def test_plural_type_word_then_the_room_means_every_device_of_that_type_there():
    (result,) = retrieve("desliga as luzes da cozinha", _cozinha_home(), language="pt")
    assert set(result.selected_ids) == {"light.luz_da_cozinha", "light.candeeiro", "light.teto"}
    assert result.meta.name_reading == ["light.luz_da_cozinha"]


def test_singular_type_word_then_the_room_said_as_a_full_name_is_that_device():
    assert _selected("desliga a luz da cozinha", _cozinha_home(), language="pt") == {
        "light.luz_da_cozinha"
    }


def test_what_was_considered_is_ranked_best_first_ties_by_id_when_read():
    """`candidates` explains a result: every entity considered, the selected version of each,
    by score then entity id, at least `top_k` of them (or all selected); ranked only when read."""
    index = DeviceIndex.build(
        [
            make_device("light.desk_lamp", "Desk Lamp", LIVING),
            make_device("light.desk_lamp_2", "Desk Lamp 2", LIVING),
            make_device("light.floor_lamp", "Floor Lamp", LIVING),
            make_device("light.b_ceiling", "Ceiling", LIVING),
            make_device("switch.kettle", "Kettle", LIVING),
        ],
        [LIVING],
        language="en",
    )
    (named,) = retrieve("turn on the desk lamp", index, language="en")
    assert named.selected_ids == ["light.desk_lamp"]
    ranked = named.candidates
    assert ranked[0] is named.selected[0]
    scores = [c.total_score for c in ranked]
    assert scores == sorted(scores, reverse=True)
    assert "light.desk_lamp_2" in [c.entity_id for c in ranked]
    assert named.candidates is ranked  # ranked once

    (typed,) = retrieve("turn on all the lights", index, language="en", top_k=2)
    lights = ["light.b_ceiling", "light.desk_lamp", "light.desk_lamp_2", "light.floor_lamp"]
    # All tie: by id, and none left out although top_k is 2.
    assert [c.entity_id for c in typed.candidates] == lights
    assert sorted(typed.selected_ids) == lights


def _three_lamps() -> DeviceIndex:
    devices = [
        make_device("light.a", "Desk Lamp", LIVING),
        make_device("light.b", "Floor Lamp", LIVING),
        make_device("light.c", "Reading Lamp", LIVING),
    ]
    return DeviceIndex.build(devices, [LIVING], language="en")


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # Fewer asked for than found: which ones is the user's to say.
        ("turn on one of the living room lights", True),
        ("turn on two of the living room lights", True),
        # As many as found, or more, or no number: every one.
        ("turn on three of the living room lights", False),
        ("turn on four of the living room lights", False),
        ("turn on the living room lights", False),
    ],
)
def test_a_count_below_what_was_found_asks_which(text: str, asked: bool):
    (result,) = retrieve(text, _three_lamps())
    assert (result.clarification is not None) is asked
    if asked:
        assert result.selected_ids == []
        assert {o.entity_id for o in result.clarification.options} == {
            "light.a",
            "light.b",
            "light.c",
        }
    else:
        assert set(result.selected_ids) == {"light.a", "light.b", "light.c"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A script named "turn off all lights" said with more was read as every light but the
        # hallway's, and "activate" switched them on.
        ("关闭所有灯光除了走廊", []),
        ("关闭所有灯", ["script.all_lights_off"]),
    ],
)
def test_a_scene_or_script_run_by_its_name_runs_nothing_else(demo_index, text, expected):
    (result,) = retrieve(text, demo_index)
    assert result.selected_ids == expected
