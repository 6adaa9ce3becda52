"""core/retrieval/names.py: which of the entities a name means, and what to ask otherwise."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, retrieve
from custom_components.context_retrieval.core.base.models import ReasonCode
from custom_components.context_retrieval.core.retrieval.gate import MAX_OPTIONS
from tests.core.conftest import make_device


def _plugs() -> DeviceIndex:
    return DeviceIndex.build(
        [
            make_device("switch.plug", "Smart Plug", aliases=("Desk Plug",)),
            make_device("switch.plug_2", "Smart Plug 2"),
            make_device("switch.plug_3", "Smart Plug 3"),
            make_device("light.lamp", "Lamp"),
        ],
        [],
    )


def _selected(text: str, index: DeviceIndex) -> list[str]:
    return [c.entity_id for r in retrieve(text, index, language="en") for c in r.selected]


def test_a_bare_name_with_numbered_siblings_means_them_all_when_all_are_asked_for():
    index = _plugs()
    assert _selected("switch off every smart plug", index) == [
        "switch.plug",
        "switch.plug_2",
        "switch.plug_3",
    ]
    # Said alone, the name is the entity called exactly that.
    assert _selected("switch off the smart plug", index) == ["switch.plug"]


def test_an_alias_names_its_own_entity_not_the_siblings_of_its_name():
    # "Desk Plug" is one plug; its name's numbered siblings are other plugs.
    assert _selected("switch off every desk plug", _plugs()) == ["switch.plug"]
    assert _selected("switch off the desk plug", _plugs()) == ["switch.plug"]


def _lamps(rooms: int) -> DeviceIndex:
    areas = [
        Area(f"r{i}", f"Room {n}")
        for i, n in enumerate(["Alpha", "Bravo", "Charlie", "Delta", "Echo"])
    ]
    devices = [
        make_device(f"light.floor_lamp_{i}", "Floor Lamp", a) for i, a in enumerate(areas[:rooms])
    ]
    devices.append(make_device("light.floor_light", "Floor Lamps Light", areas[0]))
    return DeviceIndex.build(devices, areas, language="en")


def test_similar_names_follow_the_tied_ones_in_the_question():
    (result,) = retrieve("turn off the floor lamp", _lamps(2), language="en")
    assert result.clarification is not None
    assert [o.entity_id for o in result.clarification.options] == [
        "light.floor_lamp_0",
        "light.floor_lamp_1",
        "light.floor_light",
    ]


def test_similar_names_are_left_out_when_the_tied_ones_fill_the_question():
    # Four of five "Floor Lamp"s are asked about; a similar name would be in the pool the
    # reply is read against without the user ever hearing it.
    (result,) = retrieve("turn off the floor lamp", _lamps(5), language="en")
    assert result.clarification is not None
    assert len(result.clarification.options) == MAX_OPTIONS == 4
    assert result.meta.clarification_pool == [f"light.floor_lamp_{i}" for i in range(5)]


def _names_field(text: str, index: DeviceIndex) -> dict[str, str]:
    """Each selected entity and which of its names the words matched."""
    (result,) = retrieve(text, index, language="en")
    return {
        c.entity_id: next(r.field for r in c.reasons if r.code is ReasonCode.NAME)
        for c in result.selected
    }


def _garden() -> DeviceIndex:
    return DeviceIndex.build(
        [
            make_device("switch.power", "Garden Power"),
            make_device("switch.power_2", "Garden Power 2"),
            make_device("switch.power_3", "Garden Power 3", aliases=("Pond Pump",)),
        ],
        [],
    )


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("switch off the garden power", {"switch.power": "name"}),
        ("switch off the pond pump", {"switch.power_3": "alias"}),
        (
            "switch off every garden power",
            {"switch.power": "name", "switch.power_2": "numbered", "switch.power_3": "numbered"},
        ),
        # A plural the name lacks: every entity of the name, the named one as inflected.
        (
            "switch off the garden powers",
            {
                "switch.power": "inflected",
                "switch.power_2": "numbered",
                "switch.power_3": "numbered",
            },
        ),
    ],
)
def test_the_reasons_say_which_of_its_names_a_name_matched(
    text: str, fields: dict[str, str]
) -> None:
    assert _names_field(text, _garden()) == fields


def test_a_plural_the_name_lacks_or_all_means_every_entity_of_the_name() -> None:
    lamps = [f"light.floor_lamp_{i}" for i in range(3)]
    for text in ("turn off the floor lamps", "turn off all floor lamps"):
        (result,) = retrieve(text, _lamps(3), language="en")
        assert [c.entity_id for c in result.selected] == lamps, text
        assert result.clarification is None, text


@pytest.mark.parametrize(("rooms", "similar"), [(2, True), (3, True), (4, False)])
def test_similar_names_are_offered_only_while_the_tied_ones_leave_room(
    rooms: int, similar: bool
) -> None:
    (result,) = retrieve("turn off the floor lamp", _lamps(rooms), language="en")
    assert result.clarification is not None
    tied = [f"light.floor_lamp_{i}" for i in range(rooms)]
    assert result.meta.clarification_pool == tied + (["light.floor_light"] if similar else [])


def test_the_satellites_room_settles_a_name_several_entities_share() -> None:
    index = _lamps(3)
    (result,) = retrieve("turn off the floor lamp", index, language="en", context_area="r1")
    assert [c.entity_id for c in result.selected] == ["light.floor_lamp_1"]
    assert ReasonCode.SATELLITE_ROOM in {r.code for r in result.selected[0].reasons}
    # A satellite in a room without one of them settles nothing.
    (result,) = retrieve("turn off the floor lamp", index, language="en", context_area="r4")
    assert result.selected == [] and result.clarification is not None


def test_the_satellites_room_narrows_the_question_to_the_ones_there() -> None:
    kitchen, hall = Area("kitchen", "Kitchen"), Area("hall", "Hall")
    index = DeviceIndex.build(
        [
            make_device("light.desk_1", "Desk Lamp", kitchen),
            make_device("light.desk_2", "Desk Lamp", kitchen),
            make_device("light.desk_3", "Desk Lamp", hall),
        ],
        [kitchen, hall],
        language="en",
    )
    (result,) = retrieve("turn on the desk lamp", index, language="en", context_area="kitchen")
    assert result.selected == []
    assert result.meta.clarification_pool == ["light.desk_1", "light.desk_2"]


def test_a_room_said_earlier_settles_a_name_said_later() -> None:
    text = "turn on the floor lamps in room alpha and turn off the floor lamp"
    _first, second = retrieve(text, _lamps(3), language="en")
    assert [c.entity_id for c in second.selected] == ["light.floor_lamp_0"]
    assert ReasonCode.ROOM_NAMED in {r.code for r in second.selected[0].reasons}


def test_a_room_said_with_the_name_outweighs_the_satellites_room() -> None:
    (result,) = retrieve(
        "turn off the floor lamp in room bravo", _lamps(3), language="en", context_area="r0"
    )
    assert [c.entity_id for c in result.selected] == ["light.floor_lamp_1"]


def _chinese_lamps() -> DeviceIndex:
    balcony, study, living = Area("balcony", "阳台"), Area("study", "书房"), Area("lr", "客厅")
    return DeviceIndex.build(
        [
            make_device("light.balcony", "阳台灯", balcony),
            make_device("light.desk", "台灯", study),
            make_device("light.desk_2", "台灯", living),
            make_device("light.old", "老台灯", study),
            make_device("light.ceiling", "吸顶灯", living),
            make_device("light.strip", "灯带", living),
        ],
        [balcony, study, living],
        language="zh",
    )


@pytest.mark.parametrize(
    ("text", "selected", "asked"),
    [
        # The tied 台灯s, then a name holding theirs (老台灯); 阳台灯 is a balcony light.
        ("打开台灯", [], ["light.desk", "light.desk_2", "light.old"]),
        ("打开阳台灯", ["light.balcony"], None),
        # No lamp of the living room is called 主灯: which of its lamps was meant.
        ("打开客厅主灯", [], ["light.desk_2", "light.ceiling", "light.strip"]),
    ],
)
def test_a_chinese_name_is_found_outside_the_room_words_of_other_names(
    text: str, selected: list[str], asked: list[str] | None
) -> None:
    (result,) = retrieve(text, _chinese_lamps(), language="zh")
    assert [c.entity_id for c in result.selected] == selected
    if asked is None:
        assert result.clarification is None
    else:
        assert result.clarification is not None
        assert result.meta.clarification_pool == asked


@pytest.mark.parametrize(
    ("text", "selected"),
    [
        ("turn on the desk lamp ikea", ["light.desk_lamp_ikea"]),
        ("turn on the desk lamp philip", ["light.desk_lamp_philips"]),
        ("turn on the desk lamp zzz", []),  # words that fit none tell nothing apart
        ("turn on the desk lamp", []),
    ],
)
def test_other_words_said_may_tell_entities_of_one_name_apart(
    text: str, selected: list[str]
) -> None:
    index = DeviceIndex.build(
        [
            make_device("light.desk_lamp_ikea", "Desk Lamp"),
            make_device("light.desk_lamp_philips", "Desk Lamp"),
        ],
        [],
        language="en",
    )
    (result,) = retrieve(text, index, language="en")
    assert [c.entity_id for c in result.selected] == selected
    if selected:
        assert ReasonCode.WORDS_FIT in {r.code for r in result.selected[0].reasons}
    else:
        assert result.meta.clarification_pool == ["light.desk_lamp_ikea", "light.desk_lamp_philips"]


# ---- which of its names, and what a number or a plural says -----------------------------------


def test_an_entitys_own_name_outranks_another_entitys_device_name() -> None:
    attic, kitchen = Area("attic", "Attic"), Area("kitchen", "Kitchen")
    index = DeviceIndex.build(
        [
            make_device("light.go", "Hue Go", attic),
            make_device("light.reading", "Reading Light", kitchen, device_name="Hue Go"),
        ],
        [attic, kitchen],
        language="en",
    )
    assert _names_field("turn on the hue go", index) == {"light.go": "name"}
    # Said with its room, the device name is the one there.
    assert _names_field("turn on the hue go in the kitchen", index) == {"light.reading": "device"}


def test_two_entities_of_one_device_name_are_asked_about() -> None:
    attic, kitchen = Area("attic", "Attic"), Area("kitchen", "Kitchen")
    index = DeviceIndex.build(
        [
            make_device("light.go", "Lamp", attic, device_name="Hue Go"),
            make_device("light.reading", "Reading Light", kitchen, device_name="Hue Go"),
        ],
        [attic, kitchen],
        language="en",
    )
    (result,) = retrieve("turn on the hue go", index, language="en")
    assert result.selected == []
    assert result.meta.clarification_pool == ["light.go", "light.reading"]
    assert _names_field("turn on all hue go", index) == {
        "light.go": "device",
        "light.reading": "device",
    }


@pytest.mark.parametrize(
    ("text", "selected"),
    [
        # A number said with the name is that one, even with "every".
        ("switch off the smart plug 2", ["switch.plug_2"]),
        ("switch off every smart plug 3", ["switch.plug_3"]),
        ("switch off any smart plug", ["switch.plug", "switch.plug_2", "switch.plug_3"]),
    ],
)
def test_a_number_said_with_a_name_is_that_entity_alone(text: str, selected: list[str]) -> None:
    assert _selected(text, _plugs()) == selected


# ---- what can do it ---------------------------------------------------------------------------


def _plug_and_its_sensor(with_switch: bool = False) -> DeviceIndex:
    devices = [make_device("sensor.plug_power", "Plug")]
    if with_switch:
        devices.append(make_device("switch.plug", "Plug"))
    return DeviceIndex.build(devices, [], language="en")


def test_of_one_name_the_entity_that_can_do_the_action_is_meant() -> None:
    (result,) = retrieve("turn on the plug", _plug_and_its_sensor(with_switch=True), language="en")
    assert result.selected_ids == ["switch.plug"]
    # What the check took out is told, so a person can see why it was not used.
    assert result.meta.capability_removed == ["sensor.plug_power"]
    # A question can be put to both: which one is asked.
    (result,) = retrieve("what is the plug", _plug_and_its_sensor(with_switch=True), language="en")
    assert result.meta.clarification_pool == ["sensor.plug_power", "switch.plug"]


def test_a_name_nothing_of_which_can_do_the_action_chooses_nothing() -> None:
    (result,) = retrieve("turn on the plug", _plug_and_its_sensor(), language="en")
    assert result.selected == [] and result.clarification is None
    assert result.meta.not_commanded == "cannot_do"
    assert result.meta.capability_removed == ["sensor.plug_power"]


def test_a_type_word_said_with_a_name_narrows_it() -> None:
    index = DeviceIndex.build(
        [
            make_device("sensor.phone_battery", "Phone", device_class="battery"),
            make_device("sensor.phone_steps", "Phone"),
            make_device("device_tracker.phone", "Phone"),
        ],
        [],
        language="en",
    )
    assert _selected("what is the phone battery", index) == ["sensor.phone_battery"]
    (result,) = retrieve("what is the phone", index, language="en")
    assert result.selected == [] and len(result.meta.clarification_pool or []) == 3


def test_words_that_fit_two_of_the_tied_equally_tell_nothing_apart() -> None:
    index = DeviceIndex.build(
        [
            make_device("light.desk_lamp_ikea", "Desk Lamp"),
            make_device("light.desk_lamp_philips", "Desk Lamp"),
            make_device("light.desk_lamp_philips_2", "Desk Lamp"),
        ],
        [],
        language="en",
    )
    (result,) = retrieve("turn on the desk lamp philips", index, language="en")
    assert result.selected == []
    assert len(result.meta.clarification_pool or []) == 3
    assert _selected("turn on the desk lamp ikea", index) == ["light.desk_lamp_ikea"]


# ---- a fragment with a type word --------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "text", "selected"),
    [
        (("Porch Light", "Mirror Light"), "turn on the porch lamp", ["light.porch"]),
        # "porch lamp" is no "mirror light": only the type word is shared.
        (("Mirror Light",), "turn on the porch lamp", []),
    ],
)
def test_a_fragment_matches_by_the_words_that_tell_names_apart(
    names: tuple[str, ...], text: str, selected: list[str]
) -> None:
    attic = Area("attic", "Attic")
    index = DeviceIndex.build(
        [make_device(f"light.{n.split()[0].lower()}", n, attic) for n in names],
        [attic],
        language="en",
    )
    assert _selected(text, index) == selected


def _bedside() -> DeviceIndex:
    attic, kitchen = Area("attic", "Attic"), Area("kitchen", "Kitchen")
    return DeviceIndex.build(
        [
            make_device("light.b1", "Left Bedside Lamp", attic),
            make_device("light.b2", "Right Bedside Lamp", attic),
            make_device("light.c", "Ceiling Light", attic),
            make_device("light.k", "Kitchen Bedside Lamp", kitchen),
            make_device("sensor.bedside", "Bedside Sensor", attic),
        ],
        [attic, kitchen],
        language="en",
    )


@pytest.mark.parametrize(
    ("text", "selected", "asked"),
    [
        # The fragment fits three lamps equally: which one; the sensor cannot be switched.
        ("turn on the bedside lamp", [], ["light.b1", "light.b2", "light.k"]),
        ("turn on all bedside lamps", ["light.b1", "light.b2", "light.k"], None),
        ("turn on every bedside lamp in the attic", ["light.b1", "light.b2"], None),
        ("turn on the bedside lamp in the attic", [], ["light.b1", "light.b2"]),
        ("turn on the left bedside lamp", ["light.b1"], None),
        # No lamp of the attic is called "main": which of its lamps was meant.
        ("turn on the main lamp in the attic", [], ["light.b1", "light.b2", "light.c"]),
        ("turn on the bedside sensor", [], None),
    ],
)
def test_a_fragment_is_every_fitting_one_with_all_else_the_question(
    text: str, selected: list[str], asked: list[str] | None
) -> None:
    (result,) = retrieve(text, _bedside(), language="en")
    assert [c.entity_id for c in result.selected] == selected
    if asked is None:
        assert result.clarification is None
    else:
        assert result.meta.clarification_pool == asked


def _floors() -> DeviceIndex:
    up, down = Floor("up", "Upstairs"), Floor("down", "Downstairs")
    alpha, bravo = Area("a", "Alpha", (), "up"), Area("b", "Bravo", (), "up")
    charlie = Area("c", "Charlie", (), "down")
    return DeviceIndex.build(
        [
            make_device("light.a", "Floor Lamp", alpha, up),
            make_device("light.b", "Floor Lamp", bravo, up),
            make_device("light.c", "Floor Lamp", charlie, down),
        ],
        [alpha, bravo, charlie],
        [up, down],
        language="en",
    )


def test_a_floor_said_with_the_name_is_not_settled_by_the_satellites_room() -> None:
    (result,) = retrieve("turn off the floor lamp upstairs", _floors(), context_area="a")
    assert result.selected == []
    assert result.meta.clarification_pool == ["light.a", "light.b"]
    assert _selected("turn off the floor lamp downstairs", _floors()) == ["light.c"]


def test_a_room_said_earlier_outweighs_the_satellites_room() -> None:
    text = "turn on the lights in alpha and turn off the floor lamp"
    _first, second = retrieve(text, _floors(), language="en", context_area="c")
    assert [c.entity_id for c in second.selected] == ["light.a"]
    assert ReasonCode.ROOM_NAMED in {r.code for r in second.selected[0].reasons}


@pytest.mark.parametrize(
    ("text", "selected"),
    [
        ("is any floor lamp on", ["light.a", "light.b", "light.c"]),
        ("turn off all floor lamps except the one in alpha", ["light.b", "light.c"]),
    ],
)
def test_any_and_except_mean_every_entity_of_the_name(text: str, selected: list[str]) -> None:
    assert _selected(text, _floors()) == selected


@pytest.mark.parametrize("text", ["turn on the desk lamp", "打开台灯"])
def test_a_name_holding_the_tied_name_in_another_language_is_offered_after_them(
    demo_index: DeviceIndex, text: str
) -> None:
    """The study's 老台灯 ("old lamp") is a desk lamp too, whichever language asks."""
    (result,) = retrieve(text, demo_index)
    tied = [
        "light.guest_room_desk_lamp",
        "light.kids_desk_lamp",
        "light.master_bedroom_desk_lamp",
    ]
    assert result.meta.clarification_pool == [*tied, "light.study_old_lamp"]
    assert result.meta.clarification_primary == tied


def test_a_name_that_is_plural_already_says_nothing_of_how_many() -> None:
    attic, kitchen = Area("attic", "Attic"), Area("kitchen", "Kitchen")
    index = DeviceIndex.build(
        [
            make_device("light.r1", "Recessed Lights", attic),
            make_device("light.r2", "Recessed Lights", kitchen),
        ],
        [attic, kitchen],
        language="en",
    )
    (result,) = retrieve("turn on the recessed lights", index, language="en")
    assert result.selected == []
    assert result.meta.clarification_pool == ["light.r1", "light.r2"]
    assert _selected("turn on all recessed lights", index) == ["light.r1", "light.r2"]


def test_a_room_and_a_type_word_that_are_a_name_is_that_entity_when_the_room_has_none() -> None:
    kitchen = Area("kitchen", "Kitchen")
    index = DeviceIndex.build(
        [
            make_device("switch.kitchen_lights", "Kitchen Lights"),
            make_device("fan.kitchen", "Fan", kitchen),
        ],
        [kitchen],
        language="en",
    )
    assert _selected("turn on the kitchen lights", index) == ["switch.kitchen_lights"]


def test_the_plural_of_a_name_that_begins_with_a_filler_word_is_that_name() -> None:
    bedroom = Area("bedroom", "Bedroom")
    index = DeviceIndex.build(
        [
            make_device("light.reading", "Reading Light", bedroom),
            make_device("light.ceiling", "Ceiling Light", bedroom),
            make_device("light.strip", "Strip", bedroom),
        ],
        [bedroom],
        language="en",
    )
    assert _selected("turn on the reading light", index) == ["light.reading"]
    assert _selected("turn on the reading lights", index) == ["light.reading"]
