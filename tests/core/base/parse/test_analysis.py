"""core/base/parse/analysis.py: which language an utterance is read in, and how."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, retrieve
from custom_components.context_retrieval.core.base.parse import (
    analyze,
    compile_utterance,
)
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


@pytest.mark.parametrize(
    "text",
    [
        "schalte das Licht in der Küche ein und schalte das Licht im Wohnzimmer aus",
        "schalte das Licht in der Küche ein und das Licht im Wohnzimmer aus",
        "schalte das Licht in der Küche ein und schalte alle anderen aus",
    ],
)
def test_each_clause_keeps_its_own_particle(text: str, lexicons) -> None:
    # The first "schalte" took the last "aus": the kitchen light was switched off.
    kueche, wohnzimmer = Area("kueche", "Küche"), Area("wohnzimmer", "Wohnzimmer")
    devices = [
        make_device("light.kueche", "Küchenlicht", kueche),
        make_device("light.wohnzimmer", "Wohnzimmerlicht", wohnzimmer),
    ]
    index = DeviceIndex.build(devices, [kueche, wohnzimmer], language="de")
    _, commands = compile_utterance(text, index, lexicons, "de")
    assert [c.action for c in commands] == ["turn_on", "turn_off"]
    assert commands[0].scope_include == {"kueche"}
    assert "kueche" not in commands[1].scope_include


@pytest.mark.parametrize(
    "text",
    [
        "das Schaf zurück schicken",
        "das Schaf zurück zur Ladestation schicken",
        "das Schaf in den Garten zurück schicken",
    ],
)
def test_a_particle_spelled_apart_before_the_closing_verb_joins_it(text: str, lexicons):
    assert one(text, _german_home(), lexicons, "de").action == "dock"


def _dutch_home() -> DeviceIndex:
    woonkamer = Area("woonkamer", "Woonkamer")
    devices = [
        make_device("media_player.tv", "TV", woonkamer),
        make_device("light.plafond", "Plafondlamp", woonkamer),
        make_device("valve.kraan", "Hoofdkraan", woonkamer),
        make_device("vacuum.robot", "Robbie", woonkamer),
    ]
    return DeviceIndex.build(devices, [woonkamer], language="nl")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # "huidige" alone would make a question of it.
        ("sla het huidige liedje in woonkamer over", "media_next"),
        ("ga een liedje op de TV terug", "media_previous"),
        ("stuur Robbie terug", "dock"),
        ("Robbie terug sturen", "dock"),
    ],
)
def test_dutch_separable_verbs_read_with_their_particle(text: str, action: str):
    # Through `retrieve`: the words learned from Home Assistant's sentences take part.
    found = retrieve(text, _dutch_home(), language="nl")
    assert [r.ir.action for r in found] == [action]


def test_a_particle_with_an_action_of_its_own_keeps_it_before_the_closing_verb(lexicons):
    # "dichtdraaien" locks a lock in Home Assistant's sentences; "dicht draaien" of a valve
    # closes it, as the particle "dicht" says.
    ir = one("de hoofdkraan dicht draaien", _dutch_home(), lexicons, "nl")
    assert ir.action != "lock"
    found = retrieve("de hoofdkraan dicht draaien", _dutch_home(), language="nl")
    assert found[0].selected_ids == ["valve.kraan"]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # "terug" is a particle of its own, "keren" no verb that takes one: joined.
        ("Robbie terug keren", "dock"),
        # "schakelen" takes particles, "om" and "in" are none: joined.
        ("de plafondlamp om schakelen", "toggle"),
        ("de plafondlamp in schakelen", "turn_on"),
    ],
)
def test_a_closing_verb_joins_its_particle_unless_both_are_a_particle_verb_pair(
    text: str, action: str, lexicons
):
    assert one(text, _dutch_home(), lexicons, "nl").action == action


def test_a_particle_without_a_verb_of_its_own_keeps_its_reading(lexicons):
    # "zurück" alone (no verb forms "zurück…" with it) still means the previous track.
    assert one("Wohnzimmer zurück", _german_home(), lexicons, "de").action == "media_previous"


def test_languages_without_separable_verbs_are_untouched(lexicons, small_en_index):
    assert one("turn the kitchen light back", small_en_index, lexicons, "en").action != "dock"


# ---- stem matches that are really other words ------------------------------------------------


@pytest.fixture(scope="module")
def it_index() -> DeviceIndex:
    """An Italian home where a person and a light share a stem ("Luca", "Luce A")."""
    cucina = Area("cucina", "Cucina")
    devices = [
        make_device("person.luca", "Luca"),
        make_device("light.luce_a", "Luce A", cucina),
        make_device("light.lampada", "Lampada Tavolo", cucina),
        make_device("zone.casa", "Casa"),
    ]
    return DeviceIndex.build(devices, [cucina], language="it")


@pytest.fixture(scope="module")
def pt_index() -> DeviceIndex:
    sala = Area("sala", "Sala")
    devices = [
        make_device("light.luz_a", "Luz A", sala),
        make_device("light.candeeiro", "Candeeiro", sala),
    ]
    return DeviceIndex.build(devices, [sala], language="pt")


def _mentioned(ir) -> set[str]:
    return {eid for m in ir.mentions for eid in m.entity_ids}


def test_a_word_of_the_language_is_not_an_inflected_name(it_index, lexicons):
    # "luce" (a light) and "Luca" share the stem "luc"; as written, "luce" is the type word.
    ir = one("accendi la luce", it_index, lexicons)
    assert "person.luca" not in _mentioned(ir)
    assert types_of(ir) == {"light"}


def test_a_name_said_exactly_is_not_part_of_an_inflected_one(it_index, lexicons):
    # "Luca a" shares stems with the light "Luce A", but "Luca" is a whole name as said.
    ir = one("è Luca a casa?", it_index, lexicons)
    assert "light.luce_a" not in _mentioned(ir)
    assert "person.luca" in _mentioned(ir)


def test_the_name_said_exactly_still_matches(it_index, lexicons):
    assert _mentioned(one("accendi la luce a", it_index, lexicons)) == {"light.luce_a"}


def test_a_type_word_and_an_article_are_not_a_name(pt_index, lexicons):
    # "as luzes a 50%": the plural type word and a preposition, not the light "Luz A".
    ir = one("põe as luzes a 50%", pt_index, lexicons)
    assert "light.luz_a" not in _mentioned(ir)
    assert types_of(ir) == {"light"}


def test_words_to_skip_never_swallow_a_name_said_whole_inside_them():
    # Home Assistant's Korean sentences skip "표시등이" ("the indicator light" + particle);
    # in a home with a sensor called "표시등" those words are its name.
    index = DeviceIndex.build(
        [
            make_device("binary_sensor.indicator", "표시등", device_class="light"),
            make_device("light.lamp", "스탠드"),
        ],
        [],
        language="ko",
    )
    spans = analyze("표시등이 켜져있어", index, index.lexicons, "ko").spans
    assert [s.text for s in spans if s.home("entity")] == ["표시등"]


def test_a_part_of_a_chinese_room_name_is_found_anywhere_even_last(lexicons):
    """ "星空" or "影音" is part of the room "星空影音室": found mid-sentence and as the last
    characters said, but not across a clause mark or a Latin word."""
    cinema, kids = Area("cinema", "星空影音室"), Area("kids", "儿童房")
    index = DeviceIndex.build(
        [make_device("light.a", "吸顶灯", cinema), make_device("light.b", "吸顶灯", kids)],
        [cinema, kids],
        language="zh",
    )

    def parts(text: str) -> list[str]:
        return [
            s.text
            for s in analyze(text, index, lexicons, "zh").spans
            if any(r.source == "area_part" and r.target == "cinema" for r in s.refs)
        ]

    assert parts("打开星空的灯") == ["星空"]
    assert parts("把灯关掉星空") == ["星空"]
    assert parts("关灯影音") == ["影音"]
    assert parts("打开星，空调") == []


# ---- one character inside a word the lexicon does not know ------------------------------------


def test_an_excluding_character_ending_an_unknown_word_excludes_nothing(zh_index, lexicons):
    # "解除" (release) ends in "除" (except): the television is what is unmuted, not the one
    # device spared.
    ir = one("解除电视的静音", zh_index, lexicons, "zh")
    assert ir.quantifier != "except"
    assert [set(m.entity_ids) for m in ir.mentions] == [{"media_player.living_tv"}]
    found = retrieve("解除电视的静音", zh_index, language="zh")
    assert found[0].selected_ids == ["media_player.living_tv"]


def test_an_excluding_character_after_a_known_word_still_excludes(zh_index, lexicons):
    ir = one("打开除卧室外的灯", zh_index, lexicons, "zh")
    assert ir.quantifier == "except"
    assert "bedroom" in ir.scope_exclude


def _room_105() -> DeviceIndex:
    room, hall = Area("room_105", "Room 105"), Area("hall", "Hall")
    return DeviceIndex.build(
        [
            make_device("light.nl", "Night Light", room, aliases=("Room 105 Night Light",)),
            make_device("light.nl_3", "Night Light 3", room),
            make_device("light.hall_nl_3", "Night Light 3", hall),
            make_device("light.hall_nl", "Night Light", hall, aliases=("Hall Night Light",)),
        ],
        [room, hall],
        language="en",
    )


def test_a_number_after_a_name_it_lacks_means_the_numbered_sibling_there(lexicons):
    """ "Room 105 Night Light" is an alias of the room's "Night Light": said with a 3 after it,
    it is that room's "Night Light 3", not the Night Light with a stray number."""
    index = _room_105()

    def selected(text: str) -> list[str]:
        return [e for r in retrieve(text, index, language="en") for e in r.selected_ids]

    assert selected("Room 105 Night Light 3 off") == ["light.nl_3"]
    assert selected("turn off the hall night light 3") == ["light.hall_nl_3"]
    # Without a sibling of that number the name stays itself.
    assert selected("Room 105 Night Light off") == ["light.nl"]
    assert selected("set the Room 105 Night Light to 30 percent") == ["light.nl"]


@pytest.mark.parametrize(
    ("text", "action"),
    [("Room 105 Night Light 3 off", "turn_off"), ("turn on Room 105 Night Light 3", "turn_on")],
)
def test_the_number_joined_to_a_name_is_no_value(text, action):
    found = retrieve(text, _room_105(), language="en")
    assert [(r.ir.action, r.ir.value, r.selected_ids) for r in found] == [
        (action, None, ["light.nl_3"])
    ]
