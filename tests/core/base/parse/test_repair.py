"""core/base/parse/repair.py: typos and speech-recognition slips are repaired, real words not."""

from __future__ import annotations

import dataclasses

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Floor, retrieve
from custom_components.context_retrieval.core.base.models import Note
from custom_components.context_retrieval.core.base.parse import (
    analyze,
    compile_utterance,
)
from custom_components.context_retrieval.core.base.parse.analysis import utterance_tokens
from custom_components.context_retrieval.core.base.parse.compounds import (
    split_compounds,
    split_run_together,
)
from custom_components.context_retrieval.core.base.parse.repair import (
    _among_name_words,
    repair_latin,
)
from custom_components.context_retrieval.core.base.parse.vocabulary import name_patterns
from custom_components.context_retrieval.core.base.parse.windows import find_spans
from custom_components.context_retrieval.core.base.text import normalize
from tests.core.base.parse.conftest import one
from tests.core.conftest import make_device


def test_latin_typo_repair_of_a_room(small_en_index, lexicons):
    analysis, commands = compile_utterance("turn off the kitchn lights", small_en_index, lexicons)
    assert ("kitchn", "kitchen") in analysis.corrections
    assert commands[0].scope_include == {"kitchen"}
    assert Note.SPELLING_REPAIRED in commands[0].notes


def test_turn_of_typo_still_means_turn_off(small_en_index, lexicons):
    ir = one("turn of the kitchn lights", small_en_index, lexicons)
    assert ir.scope_include == {"kitchen"}
    assert ir.action == "turn_off"


def test_chinese_one_character_slip_in_a_room(zh_index, lexicons):
    analysis, commands = compile_utterance("打开书方的台灯", zh_index, lexicons)
    assert ("书方", "书房") in analysis.corrections
    assert commands[0].scope_include == {"study"}
    assert commands[0].action == "turn_on"


def test_correct_words_are_not_repaired(zh_index, small_en_index, lexicons):
    assert analyze("打开书房的台灯", zh_index, lexicons).corrections == []
    assert analyze("turn off the kitchen lights", small_en_index, lexicons).corrections == []


def test_bedroom_word_is_not_repaired_into_bathroom(demo_index, lexicons):
    analysis, commands = compile_utterance("卧室温度多少", demo_index, lexicons)
    assert ("卧室", "浴室") not in analysis.corrections
    assert "bathroom" not in commands[0].scope_include


# ---- slips in names of several words, ties, and words that are no slips ----------------------


@pytest.fixture(scope="module")
def pt_index() -> DeviceIndex:
    return _pt_home()


def _pt_home() -> DeviceIndex:
    """A Portuguese home whose names have short grammar words inside ("Luz do Quarto")."""
    terreo = Floor("terreo", "Rés do Chão")
    primeiro = Floor("primeiro", "Primeiro Andar")
    quarto = Area("quarto", "Quarto", (), "primeiro")
    cozinha = Area("cozinha", "Cozinha", (), "terreo")
    devices = [
        make_device("light.luz_quarto", "Luz do Quarto", quarto, primeiro),
        make_device("light.luz_b", "Luz B", quarto, primeiro),
        make_device("light.candeeiro", "Candeeiro", cozinha, terreo),
        make_device("cover.garagem", "Porta da Garagem", cozinha, terreo, device_class="garage"),
    ]
    return DeviceIndex.build(devices, [quarto, cozinha], [terreo, primeiro], language="pt")


def test_a_lost_letter_in_a_short_word_inside_a_name(pt_index, lexicons):
    analysis, commands = compile_utterance("põe a Luz d Quarto a 50%", pt_index, lexicons)
    assert ("d", "do") in analysis.corrections
    assert {e for m in commands[0].mentions for e in m.entity_ids} == {"light.luz_quarto"}


def test_a_grammar_word_that_lost_a_letter_inside_a_name(pt_index, lexicons):
    # "o" is a word of its own (an article), but "Luz o Quarto" is "Luz do Quarto" said short.
    analysis, commands = compile_utterance("põe a Luz o Quarto a 50%", pt_index, lexicons)
    assert ("o", "do") in analysis.corrections
    assert {e for m in commands[0].mentions for e in m.entity_ids} == {"light.luz_quarto"}


def test_a_grammar_word_is_not_swapped_for_another_letter(pt_index, lexicons):
    # "a" is not a slip of "B": the light "Luz B" is not what "a luz a 50%" says.
    analysis, commands = compile_utterance("põe a luz a 50%", pt_index, lexicons)
    assert analysis.corrections == []
    assert not any("light.luz_b" in m.entity_ids for m in commands[0].mentions)


def test_a_slip_at_the_end_of_a_name_of_several_words(pt_index, lexicons):
    analysis, commands = compile_utterance("põe o brilho do Rés do Chã a 50%", pt_index, lexicons)
    assert ("chã", "chão") in analysis.corrections
    assert commands[0].floor_include == {"terreo"}


def test_a_word_of_the_home_wins_a_tie_with_a_word_of_the_language(pt_index, lexicons):
    # "primeirf" is one letter from "primeiro" (the floor) and from "primeira" (an ordinal).
    analysis, commands = compile_utterance("apaga as luzes do primeirf andar", pt_index, lexicons)
    assert ("primeirf", "primeiro") in analysis.corrections
    assert commands[0].floor_include == {"primeiro"}
    # "quato" is one letter from the room "Quarto" and from "quanto" (how much).
    ir = one("põe o brilho do quato a 50%", pt_index, lexicons)
    assert ir.scope_include == {"quarto"}


def test_a_tie_between_two_words_of_the_home_is_not_guessed(lexicons):
    sala, bala = Area("sala", "Sala"), Area("bala", "Bala")
    index = DeviceIndex.build(
        [make_device("light.s", "Candeeiro", sala), make_device("light.b", "Candeeiro", bala)],
        [sala, bala],
        language="pt",
    )
    assert analyze("acende a luz da xala", index, lexicons).corrections == []


def test_a_slip_is_compared_as_written_not_only_by_its_stem(lexicons):
    # Polish "salo" has the stem "sal" (its "o" looks like an ending), but as written it is
    # "Salon" with one letter lost.
    salon = Area("salon", "Salon")
    index = DeviceIndex.build([make_device("light.l", "Lampa", salon)], [salon], language="pl")
    ir = one("wyłącz światła w Salo", index, lexicons)
    assert ir.scope_include == {"salon"}


def test_a_real_word_is_not_repaired_into_a_verb_that_starts_differently(lexicons):
    # Russian "пуст" (empty) is one letter from the key of "опусти" (lower) but no slip of it.
    kabinet = Area("kabinet", "Кабинет")
    index = DeviceIndex.build(
        [make_device("binary_sensor.k", "Кабинет", kabinet, device_class="occupancy")],
        [kabinet],
        language="ru",
    )
    analysis = analyze("Кабинет пуст", index, lexicons)
    assert all(new != "опусти" for _, new in analysis.corrections)


def test_two_lost_letters_in_a_short_word_are_too_many(lexicons):
    # "manda" (send) is not the person "Ada" with two letters added.
    index = DeviceIndex.build(
        [make_device("person.ada", "Ada"), make_device("vacuum.robo", "Aspiradora")],
        language="es",
    )
    analysis = analyze("manda la aspiradora a la base", index, lexicons)
    assert ("manda", "ada") not in analysis.corrections


def test_a_compound_of_three_words_is_cut_into_its_parts(lexicons):
    # Dutch "slaapkamerkleurtemperatuur": the room, then "kleurtemperatuur" (a colour word).
    slaapkamer = Area("slaapkamer", "Slaapkamer")
    index = DeviceIndex.build(
        [make_device("light.plafond", "Plafondlamp", slaapkamer)], [slaapkamer], language="nl"
    )
    lex = lexicons.get("nl")
    assert split_compounds(["slaapkamerkleurtemperatuur"], index, lex) == [
        "slaapkamer",
        "kleurtemperatuur",
    ]
    ir = one("Zet de slaapkamerkleurtemperatuur op warm wit", index, lexicons)
    assert ir.scope_include == {"slaapkamer"}
    assert ir.action == "set_color"


def test_a_word_that_is_no_compound_of_known_words_stays_whole(lexicons):
    index = DeviceIndex.build([make_device("light.l", "Plafondlamp")], language="nl")
    assert split_compounds(["zwembadverlichting"], index, lexicons.get("nl")) == [
        "zwembadverlichting"
    ]


def test_a_word_of_the_home_beside_a_slip_is_not_repaired_too(lexicons):
    """In "the frst floor" only "frst" is a slip: "floor" is a word of the home, though it
    matched nothing until "frst" was repaired, and stays "floor" (not "flood")."""
    first = Floor("f1", "First Floor")
    second = Floor("f2", "Second Floor")
    hall, den = Area("hall", "Hall", floor_id="f1"), Area("den", "Den", floor_id="f2")
    index = DeviceIndex.build(
        [
            make_device("light.hall", "Ceiling", hall, first),
            make_device("light.den", "Ceiling 2", den, second),
            make_device("binary_sensor.leak", "Sink", hall, first, device_class="moisture"),
        ],
        [hall, den],
        [first, second],
        language="en",
    )
    analysis, commands = compile_utterance("turn the frst floor lights on", index, lexicons)
    assert analysis.corrections == [("frst", "first")]
    assert commands[0].floor_include == {"f1"}
    assert commands[0].type_groups == [("light",)]
    analysis, commands = compile_utterance("light up the secnd floor", index, lexicons)
    assert analysis.corrections == [("secnd", "second")]
    assert commands[0].floor_include == {"f2"}


def _german_home() -> DeviceIndex:
    wohnzimmer = Area("wohnzimmer", "Wohnzimmer")
    schlafzimmer = Area("schlafzimmer", "Schlafzimmer")
    return DeviceIndex.build(
        [
            make_device("climate.wz", "Heizung", wohnzimmer),
            make_device("climate.sz", "Heizung 2", schlafzimmer),
            make_device("light.sz_lampe", "Schlafzimmerlampe", schlafzimmer),
            make_device("light.sz_decke", "Decke", schlafzimmer),
        ],
        [wohnzimmer, schlafzimmer],
        language="de",
    )


def test_a_compound_with_a_slip_in_one_part_is_cut_and_repaired(lexicons):
    index, lex = _german_home(), lexicons.get("de")
    repaired: list[tuple[str, str]] = []
    assert split_compounds(["wohnzimmrtemperatur"], index, lex, repaired) == [
        "wohnzimmer",
        "temperatur",
    ]
    assert repaired == [("wohnzimmrtemperatur", "wohnzimmer temperatur")]
    # The slip may be in either part, and is repaired into a word of the home only.
    assert split_compounds(["wohnzimmerheizng"], index, lex) == ["wohnzimmer", "heizung"]
    assert split_compounds(["wohnzimmertemperatir"], index, lex) == ["wohnzimmertemperatir"]
    assert split_compounds(["eingeschaltet"], index, lex) == ["eingeschaltet"]
    analysis, commands = compile_utterance("Wohnzimmrtemperatur auf 22 Grad", index, lexicons)
    assert ("wohnzimmrtemperatur", "wohnzimmer temperatur") in analysis.corrections
    assert commands[0].scope_include == {"wohnzimmer"}
    assert commands[0].action == "set_temperature"


def test_a_slip_of_a_whole_name_is_not_cut_into_room_and_type(lexicons):
    # "Schlafzimmerlamqe" is the lamp called so, not every lamp of the bedroom.
    index = _german_home()
    assert split_compounds(["schlafzimmerlamqe"], index, lexicons.get("de")) == [
        "schlafzimmerlamqe"
    ]
    assert {
        e for r in retrieve("Schlafzimmerlamqe aus", index, language="de") for e in r.selected_ids
    } == {"light.sz_lampe"}


def test_a_short_part_is_no_part_to_repair_around(lexicons):
    # "Mähvorgang": "mäh" is too short to vouch for the cut, so "vorgang" is not made "vorhang".
    index = _german_home()
    assert split_compounds(["mähvorgang"], index, lexicons.get("de")) == ["mähvorgang"]


def test_a_slip_of_a_new_name_is_repaired_after_a_rename(lexicons):
    """The tables slips are looked up in follow the home: a name given after the first
    question is repaired like one the home was built with."""
    kitchen = Area("kitchen", "厨房")
    index = DeviceIndex.build(
        [make_device("light.a", "吸顶灯", kitchen), make_device("light.b", "台灯", kitchen)],
        [kitchen],
        language="zh",
    )
    assert retrieve("打开吸项灯", index, language="zh")[0].selected_ids == ["light.a"]
    index.upsert(dataclasses.replace(index.device("light.a"), name="阅读灯"))
    (result,) = retrieve("打开阅渎灯", index, language="zh")
    assert result.selected_ids == ["light.a"]
    assert result.meta.spelling_repaired


def test_a_compound_whose_last_part_is_no_device_adds_no_device_kind(lexicons):
    """ "Fernsehsendung" is a show (its last part says what it is): it stays whole, so the
    television word inside it does not narrow "continue the show" to the televisions."""
    wohnzimmer = Area("wohnzimmer", "Wohnzimmer")
    index = DeviceIndex.build(
        [
            make_device("media_player.tv", "Großbild", wohnzimmer, device_class="tv"),
            make_device("media_player.box", "Lautsprecher", wohnzimmer, device_class="speaker"),
            make_device("light.decke", "Decke", wohnzimmer),
        ],
        [wohnzimmer],
        language="de",
    )
    lex = lexicons.get("de")
    assert split_compounds(["fernsehsendung"], index, lex) == ["fernsehsendung"]
    # A device word as the last part still cuts ("Wohnzimmerfernseher").
    assert split_compounds(["wohnzimmerfernseher"], index, lex) == ["wohnzimmer", "fernseher"]
    selected = {
        e
        for r in retrieve("Setz die Fernsehsendung im Wohnzimmer fort", index, language="de")
        for e in r.selected_ids
    }
    assert selected == {"media_player.tv", "media_player.box"}


def test_a_slip_inside_a_name_given_by_a_rename_is_repaired(lexicons):
    """The name patterns follow a rename (updated, not made again): "Luz d Cozinha" is the
    light renamed "Luz da Cozinha" after the first question."""
    index = _pt_home()
    assert compile_utterance("põe a Luz d Quarto a 50%", index, lexicons)[0].corrections
    patterns = name_patterns(index, lexicons.get("pt"))
    index.upsert(dataclasses.replace(index.device("light.luz_b"), name="Luz da Cozinha"))
    analysis, commands = compile_utterance("põe a Luz d Cozinha a 50%", index, lexicons)
    assert ("d", "da") in analysis.corrections
    assert {e for m in commands[0].mentions for e in m.entity_ids} == {"light.luz_b"}
    assert name_patterns(index, lexicons.get("pt")) is patterns  # followed, not made again


def test_a_slip_in_a_name_is_looked_for_among_the_words_of_names_only():
    """The windows around a slipped word stop at the clause and at a word no name holds."""
    keys = ["turn", "on", "luz", "d", "quarto", "now", "luz"]
    words = {"luz", "quarto", "cozinha"}
    assert _among_name_words(keys, 3, 0, 7, words) == (2, 5)
    assert _among_name_words(keys, 3, 3, 4, words) == (3, 4)  # the clause is the word alone
    assert _among_name_words(keys, 5, 0, 7, words) == (4, 7)  # the slipped word needs none
    assert _among_name_words(keys, 0, 0, 7, words) == (0, 1)
    assert _among_name_words(keys, 6, 0, 7, words) == (6, 7)


@pytest.mark.parametrize("text", ["关灯嘞", "嘞关灯"])
def test_only_what_nothing_explained_is_repaired_into_a_name(lexicons, text):
    """A stray character beside "关灯" (turn off the light) does not make the understood words
    a slip of a name that sounds like them (a light called 观灯, "guan deng")."""
    living = Area("living", "客厅")
    devices = [make_device("light.guan", "观灯", living), make_device("light.main", "吊灯", living)]
    index = DeviceIndex.build(devices, [living], language="zh")
    analysis, commands = compile_utterance(text, index, lexicons)
    assert analysis.corrections == []
    assert [c.action for c in commands] == ["turn_off"]
    assert not commands[0].mentions


def test_two_words_of_a_name_written_together_are_the_name(lexicons):
    """ "livingroom", "ceilinglight" and, at the shortest, "bigfan" (two words of three
    letters): a name of the home written as one word is its words."""
    living = Area("living", "Living Room")
    devices = [
        make_device("fan.big", "Big Fan", living),
        make_device("light.ceiling", "Ceiling Light", living),
    ]
    index = DeviceIndex.build(devices, [living], language="en")
    assert split_run_together(["bigfan", "livingroom", "big"], index, lexicons.get("en")) == [
        "big",
        "fan",
        "living",
        "room",
        "big",
    ]
    for text, action, selected in [
        ("turn on the bigfan", "turn_on", ["fan.big"]),
        ("turn off the livingroom lights", "turn_off", ["light.ceiling"]),
    ]:
        found = retrieve(text, index, language="en")
        assert [(r.ir.action, r.selected_ids) for r in found] == [(action, selected)], text


@pytest.mark.parametrize(
    ("text", "corrections", "rooms"),
    [
        # The joined word ends the command.
        ("turn on the dish washer", [("dish", "dishwasher")], set()),
        # The word after the joined pair is repaired on its own.
        (
            "turn off dish washer kitchn",
            [("dish", "dishwasher"), ("kitchn", "kitchen")],
            {"kitchen"},
        ),
    ],
)
def test_two_unknown_words_that_are_one_word_of_the_home_are_joined(
    lexicons, text, corrections, rooms
):
    kitchen = Area("kitchen", "Kitchen")
    devices = [
        make_device("switch.dishwasher", "Dishwasher", kitchen),
        make_device("light.kitchen", "Kitchen Lamp", kitchen),
    ]
    index = DeviceIndex.build(devices, [kitchen], language="en")
    analysis, commands = compile_utterance(text, index, lexicons)
    assert analysis.corrections == corrections
    assert [sorted(m.entity_ids) for m in commands[0].mentions] == [["switch.dishwasher"]]
    assert commands[0].scope_include == rooms


def test_a_type_word_is_never_slipped_into_another_kind(lexicons):
    # "落地灯" (a floor lamp) one character from the fan "落地扇": the lamp said is no fan.
    living = Area("living", "客厅")
    devices = [
        make_device("fan.floor_fan", "落地扇", living),
        make_device("light.floor_lamp", "客厅落地灯", living),
    ]
    index = DeviceIndex.build(devices, [living], [], language="zh")
    for text in ("打开落地灯", "关掉所有的落地灯"):
        analysis, commands = compile_utterance(text, index, lexicons)
        assert not analysis.corrections, text
        assert "fan.floor_fan" not in {
            e for c in commands for m in c.mentions for e in m.entity_ids
        }
        assert all("fan.floor_fan" not in r.selected_ids for r in retrieve(text, index))
    # A slip of a character that is no type word is still repaired ("台登" for 台灯).
    lamp = DeviceIndex.build(
        [make_device("light.desk", "台灯", living)], [living], [], language="zh"
    )
    analysis, _ = compile_utterance("打开台登", lamp, lexicons)
    assert analysis.corrections


# ---- the limits of a slip: how long a word, how many letters, which words vouch -------------


@pytest.fixture(scope="module")
def en_rooms() -> DeviceIndex:
    hall = Area("hall", "Hall")
    rooms = [
        hall,
        Area("workshop", "Workshop"),
        Area("storeroom", "Storeroom"),
        Area("laundry", "Laundry"),
        Area("den", "Den"),
    ]
    devices = [
        make_device("light.porch", "Porch Light", hall),
        make_device("light.reading", "Reading Lamp", hall),
        make_device("light.workshop", "Lamp", rooms[1]),
        make_device("light.storeroom", "Lamp", rooms[2]),
    ]
    return DeviceIndex.build(devices, rooms, language="en")


@pytest.mark.parametrize(
    ("text", "corrections"),
    [
        # One slip in a word of up to eight letters; two in a longer one.
        ("turn on the worksop lamp", [("worksop", "workshop")]),
        ("turn on the wirkshap lamp", []),
        ("turn on the stareroim lamp", [("stareroim", "storeroom")]),
        ("turn on the sotreroim lamp", [("sotreroim", "storeroom")]),
        # A word of four letters is repaired; one of three is too likely another word.
        ("turn on the hsll lamp", [("hsll", "hall")]),
        ("turn on the dem lamp", []),
        # A slip at the end of the command, or said alone.
        ("turn on the lamp in the laundr", [("laundr", "laundry")]),
        ("laundr", [("laundr", "laundry")]),
        # A word said right is no slip.
        ("turn on the workshop lamp", []),
        # Two unknown words that are one word of the home are that word.
        ("turn on the store room lamp", [("store", "storeroom")]),
    ],
)
def test_a_slip_is_one_letter_in_a_short_word_and_two_in_a_long_one(
    en_rooms, lexicons, text, corrections
):
    assert analyze(text, en_rooms, lexicons, "en").corrections == corrections


@pytest.mark.parametrize(
    ("text", "corrections"),
    [
        # A verb of the language: it starts the same, and a short one only had letters swapped.
        ("opne the den lamp", [("opne", "open")]),
        ("colse the den lamp", [("colse", "close")]),
        ("clise the den lamp", []),
        ("oven the den lamp", []),
        ("ipen the den lamp", []),
        # A word of six letters may have one letter changed.
        ("unlosk the den", [("unlosk", "unlock")]),
    ],
)
def test_a_short_word_of_the_language_is_only_repaired_from_swapped_letters(
    en_rooms, lexicons, text, corrections
):
    assert analyze(text, en_rooms, lexicons, "en").corrections == corrections


@pytest.mark.parametrize(
    ("text", "corrections"),
    [
        # The name's other word vouches for two slips in a part of five letters or more.
        ("turn on the porch lihjt", [("lihjt", "light")]),
        ("turn on the reading lsmo", []),
        # Three slips are too many even so.
        ("turn on the porch lihjx", []),
        # Without the name around it, the same word is two slips too many; a name never
        # runs over a clause's punctuation.
        ("turn on the lihjt", []),
        ("turn on the porch, lihjt", []),
    ],
)
def test_the_words_of_a_name_around_a_slip_vouch_for_two_slips_in_a_long_part(
    en_rooms, lexicons, text, corrections
):
    assert analyze(text, en_rooms, lexicons, "en").corrections == corrections


@pytest.fixture(scope="module")
def zh_slips() -> DeviceIndex:
    study, living, master = Area("study", "书房"), Area("living", "客厅"), Area("m", "主卧室")
    devices = [
        make_device("light.ceiling", "吸顶灯", living),
        make_device("light.wall", "吸壁灯", study),
        make_device("light.desk", "台灯", study),
        make_device("switch.charger", "充电桩", living),
        make_device("light.string", "窗台串灯", living),
    ]
    return DeviceIndex.build(devices, [study, living, master], language="zh")


@pytest.mark.parametrize(
    ("text", "corrections"),
    [
        # Two characters: only a slip that sounds alike ("芳" fang for "房" fang).
        ("打开书芳的台灯", [("书芳", "书房")]),
        ("打开书厨的台灯", []),
        ("打开客听的灯", [("客听", "客厅")]),
        ("客听的灯开着吗", [("客听", "客厅")]),  # the slip opens the utterance
        ("打开书方的b灯", [("书方", "书房")]),  # a stray Latin letter is passed over
        # Three or four characters: any one character, at any place of the name.
        ("打开充电装", [("充电装", "充电桩")]),
        ("打开窗台穿灯", [("窗台穿灯", "窗台串灯")]),
        ("打开囱台串灯", [("囱台串灯", "窗台串灯")]),  # once, though two runs reach it
        # A slip that fits two names (吸顶灯, 吸壁灯) is not guessed.
        ("打开吸项灯", []),
        ("打开吸顶灯", []),
        # A part of a room's name is no slip: "卧室" is the room 主卧室 said short.
        ("打开卧室的灯", []),
    ],
)
def test_one_slipped_character_is_repaired_when_it_names_one_thing(
    zh_slips, lexicons, text, corrections
):
    assert analyze(text, zh_slips, lexicons, "zh").corrections == corrections


# ---- repair_latin word by word: which words it looks at, what it puts where -----------------


def _latin(text: str, index: DeviceIndex, lexicons, language: str = "en") -> list[tuple[int, str]]:
    """repair_latin's fixes (position, word; "" for a word joined into the one before) for
    `text` read as analyze reads it up to the repair."""
    lex = lexicons.get(language)
    toks = utterance_tokens(normalize(text))
    keys = [lex.key(t) for t in toks]
    return repair_latin(toks, keys, find_spans(toks, keys, index, lex, []), index, lex)


def _dishwasher_home() -> DeviceIndex:
    kitchen = Area("kitchen", "Kitchen")
    devices = [
        make_device("switch.dishwasher", "Dishwasher", kitchen),
        make_device("light.kitchen", "Kitchen Lamp", kitchen),
    ]
    return DeviceIndex.build(devices, [kitchen], language="en")


@pytest.mark.parametrize(
    ("text", "fixes"),
    [
        # Two slips side by side are each repaired.
        ("turn on the readng lmap", [(3, "reading"), (4, "lamp")]),
        # A word already understood (the value "half") is no slip of the room "Hall".
        ("set the reading lamp to half", []),
        # Three slips are too many even in a long word.
        ("turn on the sxorxroxm lamp", []),
    ],
)
def test_each_unknown_word_is_repaired_and_understood_words_are_not(
    en_rooms, lexicons, text, fixes
):
    assert _latin(text, en_rooms, lexicons) == fixes


@pytest.mark.parametrize(
    ("text", "fixes"),
    [
        ("turn on the dish washer", [(3, "dishwasher"), (4, "")]),
        ("turn on the dish washer kitchn", [(3, "dishwasher"), (4, ""), (5, "kitchen")]),
    ],
)
def test_two_words_joined_into_one_put_the_word_first_and_blank_the_second(lexicons, text, fixes):
    assert _latin(text, _dishwasher_home(), lexicons) == fixes


def test_a_number_said_with_a_name_is_never_repaired_into_another_number(lexicons):
    """ "Lamp 2" is said right: its number is no slip of the "1" of "Lamp 1"."""
    hall = Area("hall", "Hall")
    index = DeviceIndex.build(
        [make_device("light.l1", "Lamp 1", hall), make_device("light.l2", "Lamp 2", hall)],
        [hall],
        language="en",
    )
    assert analyze("turn on lamp 2", index, lexicons, "en").corrections == []
    assert [r.selected_ids for r in retrieve("turn on lamp 2", index, language="en")] == [
        ["light.l2"]
    ]


def test_a_slipped_name_with_two_unexplained_characters_is_one_repair(lexicons):
    """ "囱台串" for the switch 窗台串: 囱 (the slip) and 串 (said right, but a word of its
    own nowhere) are both unexplained, and the name is repaired once, not once per character."""
    living = Area("living", "客厅")
    index = DeviceIndex.build(
        [make_device("switch.string", "窗台串", living)], [living], language="zh"
    )
    assert analyze("打开囱台串", index, lexicons, "zh").corrections == [("囱台串", "窗台串")]
    (result,) = retrieve("打开囱台串", index, language="zh")
    assert result.selected_ids == ["switch.string"]
    assert result.meta.spelling_repaired == [["囱台串", "窗台串"]]


@pytest.mark.parametrize(
    "text",
    [
        "turn on the reading lamp porch lihjt",  # after a name of two words
        "turn on lamp porch lihjt",
        "turn on the porch lihjt lamp",
        # The clause starts the utterance, or right after a comma.
        "porch lihjt on",
        "turn on the lamp, porch lihjt",
        "lamp, porch lihjt reading lamp",
    ],
)
def test_a_slipped_name_is_found_among_other_words_of_names(lexicons, text):
    """The name a slip completes may be shorter than the run of name words around it, and
    the home may have longer names (here of three words): every length is tried."""
    hall = Area("hall", "Hall")
    index = DeviceIndex.build(
        [
            make_device("light.porch", "Porch Light", hall),
            make_device("light.reading", "Reading Lamp", hall),
            make_device("lock.front", "Front Door Lock", hall),
        ],
        [hall],
        language="en",
    )
    assert analyze(text, index, lexicons, "en").corrections == [("lihjt", "light")]
