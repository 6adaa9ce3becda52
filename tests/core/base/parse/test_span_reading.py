"""core/base/parse/span_reading.py: what each stretch of a command says."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, QueryIR, retrieve
from custom_components.context_retrieval.core.base.models import Note
from custom_components.context_retrieval.core.base.parse import Span
from custom_components.context_retrieval.core.base.parse.span_reading import group_types
from tests.core.base.parse.conftest import one
from tests.core.conftest import make_device


@pytest.fixture(scope="module")
def home() -> DeviceIndex:
    hall = Area("hall", "Hall")
    return DeviceIndex.build([make_device("light.hall", "Hall Light", hall)], [hall], [])


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("turn off the others", "en"),
        ("turn off all the other lights", "en"),
        ("turn off the rest", "en"),
        ("其他的关掉", "zh"),
        ("别的灯都关了", "zh"),
        ("schalte die anderen aus", "de"),
        ("apaga los demás", "es"),
        ("éteins les autres", "fr"),
    ],
)
def test_the_others_are_noted_as_all_of_them(home, lexicons, text, language) -> None:
    ir = one(text, home, lexicons, language)
    assert Note.OTHERS in ir.notes
    assert ir.quantifier == "all"
    assert not ir.references  # never "them": the others are what was not talked about


@pytest.mark.parametrize(
    ("text", "language"),
    [("turn off all the lights", "en"), ("turn off them", "en"), ("把灯都关了", "zh")],
)
def test_no_others_without_the_word(home, lexicons, text, language) -> None:
    assert Note.OTHERS not in one(text, home, lexicons, language).notes


def test_the_other_one_said_in_the_singular_is_one_of_them(home, lexicons) -> None:
    # "the other" shares its stem with "the others" (all): "the other light" switched on every
    # light but the last one.
    ir = one("turn on the other light", home, lexicons, "en")
    assert Note.OTHERS in ir.notes
    assert ir.quantifier == "one"


# ---- a home whose names are also rooms, words and types -----------------------------------


@pytest.fixture(scope="module")
def en_home() -> DeviceIndex:
    down, up = Floor("down", "Downstairs"), Floor("up", "Upstairs")
    office = Area("office", "Office", (), "up")
    kitchen = Area("kitchen", "Kitchen", (), "down")
    living = Area("living", "Living Room", (), "down")
    devices = [
        make_device("binary_sensor.office", "Office", office, up, device_class="occupancy"),
        make_device("light.office", "Desk Lamp", office, up),
        make_device("light.kitchen", "Kitchen Light", kitchen, down),
        make_device("light.pendant", "Pendant", kitchen, down),
        make_device("binary_sensor.motion", "Motion Sensor", living, down, device_class="motion"),
        make_device("weather.home", "Home"),
        make_device("light.tree", "Tree", living, down, labels=("christmas",)),
        make_device("fan.living", "Fan", living, down),
    ]
    return DeviceIndex.build(devices, [office, kitchen, living], [down, up], language="en")


def _mentioned(ir: QueryIR) -> set[str]:
    return {e for m in ir.mentions for e in m.entity_ids}


@pytest.mark.parametrize(
    ("text", "rooms", "mentioned"),
    [
        # After a preposition of place, with a type the entity is not: the room.
        ("turn off the lights in the office", {"office"}, set()),
        # ... or where the command names another device.
        ("turn off the desk lamp in the office", {"office"}, {"light.office"}),
        # The preposition may come first, and the article may be left out.
        ("turn off the lights in office", {"office"}, set()),
        ("in the office turn off the lights", {"office"}, set()),
        # Alone, the name is the entity called so.
        ("is anyone in the office", set(), {"binary_sensor.office"}),
        ("is the office on", set(), {"binary_sensor.office"}),
    ],
)
def test_a_name_of_a_room_and_an_entity_is_the_room_where_a_type_says_so(
    en_home, lexicons, text, rooms, mentioned
):
    ir = one(text, en_home, lexicons, "en")
    assert ir.scope_include == rooms
    assert _mentioned(ir) == mentioned


def test_a_name_that_is_a_word_for_the_whole_home_is_the_word_beside_another_target(
    en_home, lexicons
):
    # "home" is the weather entity's name and a state: "is anyone home" asks about people.
    ir = one("is anyone home", en_home, lexicons, "en")
    assert ir.states == {"home"}
    assert not ir.mentions


@pytest.mark.parametrize("text", ["is home sunny", "home weather"])
def test_a_name_that_is_a_word_for_the_whole_home_said_alone_is_the_entity(en_home, lexicons, text):
    assert _mentioned(one(text, en_home, lexicons, "en")) == {"weather.home"}


@pytest.fixture(scope="module")
def upstairs_home() -> DeviceIndex:
    up = Floor("up", "Upstairs")
    hall = Area("hall", "Hall", (), "up")
    devices = [
        make_device("light.upstairs", "Upstairs Light", hall, up),
        make_device("light.lamp", "Lamp", hall, up),
    ]
    return DeviceIndex.build(devices, [hall], [up], language="en")


@pytest.mark.parametrize(
    ("text", "floors", "types", "mentioned"),
    [
        # A floor and a type said of several: that type on that floor.
        ("turn off the upstairs lights", {"up"}, [("light",)], set()),
        ("turn off the upstairs light", set(), [], {"light.upstairs"}),
    ],
)
def test_a_floor_and_a_type_said_of_several_are_the_type_on_the_floor(
    upstairs_home, lexicons, text, floors, types, mentioned
):
    ir = one(text, upstairs_home, lexicons, "en")
    assert (ir.floor_include, ir.type_groups, _mentioned(ir)) == (floors, types, mentioned)


@pytest.mark.parametrize(
    ("text", "rooms", "types", "mentioned", "alternatives"),
    [
        # Said of several, a name made of a room and a type is that type in that room.
        ("turn off the kitchen lights", {"kitchen"}, [("light",)], set(), ["kitchen lights"]),
        # Said of one, it is the light called so.
        ("turn off the kitchen light", set(), [], {"light.kitchen"}, []),
    ],
)
def test_a_room_and_a_type_said_of_several_are_the_type_in_the_room(
    en_home, lexicons, text, rooms, types, mentioned, alternatives
):
    ir = one(text, en_home, lexicons, "en")
    assert (ir.scope_include, ir.type_groups, _mentioned(ir)) == (rooms, types, mentioned)
    assert [m.text for m in ir.name_alternatives] == alternatives


@pytest.mark.parametrize(
    ("text", "inside", "only_types"),
    [
        ("is the motion sensor on", ("motion", "sensor"), True),
        ("turn off the kitchen light", ("light",), False),
        ("turn off the pendant", (), False),
    ],
)
def test_the_type_words_a_name_is_made_of(en_home, lexicons, text, inside, only_types):
    (mention,) = one(text, en_home, lexicons, "en").mentions
    assert (mention.types_inside, mention.only_type_words) == (inside, only_types)


def test_a_plural_of_a_name_made_of_type_words_is_said_of_several(en_home, lexicons):
    (mention,) = one("turn off the motion sensors", en_home, lexicons, "en").mentions
    assert mention.inflected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("turn off all lights except the kitchen", {"scope_exclude": {"kitchen"}}),
        ("turn off everything except upstairs", {"floor_exclude": {"up"}}),
        (
            "turn off everything except upstairs and the kitchen",
            {"floor_exclude": {"up"}, "scope_exclude": {"kitchen"}},
        ),
        ("turn off everything except the christmas stuff", {"exclude_labels": {"christmas"}}),
        ("turn off everything except the lights", {"exclude_type_groups": [("light",)]}),
        # What follows "except" only says what is left out: no "here" for the command.
        ("turn off everything except the lights here", {"here": False}),
        ("turn off the lights here except the kitchen", {"here": True}),
    ],
)
def test_what_follows_except_is_left_out(en_home, lexicons, text, expected):
    ir = one(text, en_home, lexicons, "en")
    assert ir.quantifier == "except"
    assert {key: getattr(ir, key) for key in expected} == expected
    assert not ir.scope_include and not ir.labels


def test_a_device_after_except_is_left_out_and_not_named(en_home, lexicons):
    ir = one("turn off everything except the fan", en_home, lexicons, "en")
    assert [sorted(m.entity_ids) for m in ir.exclude_mentions] == [["fan.living"]]
    assert not ir.mentions


# "except (in) the office" was the occupancy sensor called Office, not the room: the office's
# light was switched off too.
@pytest.mark.parametrize(
    "text",
    ["turn off all the lights except the office", "turn off all the lights except in the office"],
)
def test_a_room_after_except_is_left_out_though_an_entity_shares_its_name(en_home, text):
    found = retrieve(text, en_home, language="en")
    assert [r.ir.action for r in found] == ["turn_off"]
    assert "light.office" not in found[0].selected_ids


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("zh", "关掉厨房以外的灯", {"scope_exclude": {"kitchen"}}),
        ("zh", "关掉一楼以外的灯", {"floor_exclude": {"floor_1"}}),
        ("zh", "除了厨房都关掉", {"scope_exclude": {"kitchen"}}),
    ],
)
def test_a_place_before_an_exclusion_suffix_is_left_out(
    demo_index, lexicons, language, text, expected
):
    ir = one(text, demo_index, lexicons, language)
    assert {key: getattr(ir, key) for key in expected} == expected
    assert not ir.scope_include and not ir.floor_include


@pytest.mark.parametrize(
    ("text", "rooms", "by_kind"),
    [
        # "卧室" is a kind of room the home has two of (主卧, 次卧).
        ("关掉卧室的灯", {"guest_room", "master_bedroom"}, True),
        ("关掉主卧的灯", {"master_bedroom"}, False),
    ],
)
def test_a_kind_of_room_names_every_room_of_that_kind(demo_index, lexicons, text, rooms, by_kind):
    ir = one(text, demo_index, lexicons, "zh")
    assert (ir.scope_include, ir.rooms_by_kind) == (rooms, by_kind)


@pytest.mark.parametrize(
    ("language", "text", "quantifier", "everything"),
    [
        ("en", "turn off everything", "all", True),
        ("de", "schalte alles aus", "all", True),
        # "alle" shares the stem of "alles" but is "all of them", not everything.
        ("de", "schalte alle Lichter aus", "all", False),
        ("en", "turn off some lights", "any", False),
        ("en", "turn on any of the lights", "any", False),
        ("en", "turn off the lights", "one", False),
    ],
)
def test_how_many_the_words_say(en_home, lexicons, language, text, quantifier, everything):
    ir = one(text, en_home, lexicons, language)
    assert (ir.quantifier, ir.everything, ir.generic) == (quantifier, everything, everything)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("turn off the lights here", "here", True),
        ("turn off the lights in there", "there", True),
        ("turn off the lights everywhere", "everywhere", True),
        ("turn off the lights", "here", False),
        ("turn them off", "reference_kind", "plural"),
        ("switch it off", "reference_kind", "singular"),
        ("turn them and it off", "reference_kind", "plural"),
        ("it's too dark in the kitchen", "condition", "dark"),
        ("turn off the lights upstairs", "floor_include", {"up"}),
    ],
)
def test_words_that_point_at_the_target_without_naming_it(en_home, lexicons, text, field, value):
    assert getattr(one(text, en_home, lexicons, "en"), field) == value


@pytest.mark.parametrize(
    ("text", "states"),
    [
        # A state word asks in a question; in a command it is the verb.
        ("are the curtains open", {"open_closed"}),
        ("open the curtains", set()),
    ],
)
def test_a_state_word_is_a_state_in_a_question(demo_index, lexicons, text, states):
    assert one(text, demo_index, lexicons, "en").states == states


def _typed(*words: str) -> list[Span]:
    """Spans of the given words: "T:x" a type word of type x, "and" a conjunction, else a filler."""
    out: list[Span] = []
    for i, word in enumerate(words):
        if word.startswith("T:"):
            lex = [("type", word[2:])]
        elif word == "and":
            lex = [("conj", "")]
        else:
            lex = [("filler", "")]
        out.append(Span(i, i + 1, word, lex=lex))
    return out


@pytest.mark.parametrize(
    ("words", "groups"),
    [
        # Adjacent type words narrow each other ("motion sensors").
        (("T:motion", "T:sensor"), [("motion", "sensor")]),
        (("T:motion", "the", "T:sensor"), [("motion", "sensor")]),
        (("T:motion", "the", "the", "T:sensor"), [("motion", "sensor")]),
        (("T:light", "T:light"), [("light",)]),
        # "and" separates them, and so do more than two words between.
        (("T:light", "and", "T:fan"), [("light",), ("fan",)]),
        (("T:light", "the", "the", "the", "T:fan"), [("light",), ("fan",)]),
        (("T:light",), [("light",)]),
    ],
)
def test_adjacent_type_words_narrow_each_other(words, groups):
    seg = _typed(*words)
    type_spans = [(i, s.values("type")[0]) for i, s in enumerate(seg) if s.has("type")]
    assert group_types(type_spans, seg) == groups


@pytest.fixture(scope="module")
def pt_home() -> DeviceIndex:
    cozinha, sala = Area("cozinha", "Cozinha"), Area("sala", "Sala")
    devices = [
        make_device("light.luz_cozinha", "Luz da Cozinha", cozinha),
        make_device("light.pendente", "Pendente", cozinha),
        make_device("light.sala", "Candeeiro", sala),
    ]
    return DeviceIndex.build(devices, [cozinha, sala], language="pt")


@pytest.mark.parametrize(
    ("text", "rooms", "types", "mentioned", "alternatives"),
    [
        # The type first and the room after an article: "luzes da cozinha".
        ("apaga as luzes da cozinha", {"cozinha"}, [("light",)], set(), ["luzes da cozinha"]),
        ("apaga a luz da cozinha", set(), [], {"light.luz_cozinha"}, []),
    ],
)
def test_a_type_and_a_room_after_an_article_said_of_several_are_the_type_in_the_room(
    pt_home, lexicons, text, rooms, types, mentioned, alternatives
):
    ir = one(text, pt_home, lexicons, "pt")
    assert (ir.scope_include, ir.type_groups, _mentioned(ir)) == (rooms, types, mentioned)
    assert [m.text for m in ir.name_alternatives] == alternatives


@pytest.mark.parametrize(
    ("text", "several"),
    [
        # A name that is also a type word, asked or commanded of several, is said of several.
        ("哪些窗帘开着", True),
        ("打开所有窗帘", True),
        ("窗帘开着吗", False),
    ],
)
def test_a_name_that_is_a_type_word_said_of_several_is_plural(demo_index, lexicons, text, several):
    (mention,) = one(text, demo_index, lexicons, "zh").mentions
    assert mention.inflected is several
