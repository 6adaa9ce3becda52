"""core/base/parse/values.py: the setting a command carries, in a language-neutral form."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, QueryIR, retrieve
from tests.core.base.parse.conftest import one
from tests.core.conftest import make_device

BEDROOM = Area("bedroom", "Bedroom")
SCHLAFZIMMER = Area("schlafzimmer", "Schlafzimmer")


@pytest.fixture(scope="module")
def home() -> DeviceIndex:
    devices = [
        make_device("light.bed", "Bed Lamp", BEDROOM),
        make_device("cover.blind", "Window Blind", BEDROOM, device_class="blind"),
        make_device("climate.heat", "Radiator Valve", BEDROOM),
        make_device("media_player.radio", "Kitchen Speaker", BEDROOM),
        make_device("fan.ceiling", "Ceiling Fan", BEDROOM),
        make_device("light.lampe", "Nachtlicht", SCHLAFZIMMER),
    ]
    return DeviceIndex.build(devices, [BEDROOM, SCHLAFZIMMER], language="en")


def setting(ir: QueryIR) -> tuple[object, ...]:
    return (ir.action, ir.attribute, ir.value, ir.unit, ir.change, ir.value_error)


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("set the bedroom to 50%", "en", ("set_brightness", "brightness", 50.0, "%")),
        ("dim the bed lamp to fifty percent", "en", ("set_brightness", "brightness", 50.0, "%")),
        ("bedroom maximum brightness", "en", ("set_brightness", "brightness", 100.0, "%")),
        ("set the blinds to 30 percent", "en", ("set_position", "position", 30.0, "%")),
        ("set the fans to 50%", "en", ("set_fan_speed", "fan_speed", 50.0, "%")),
        ("set the thermostat to 21 degrees", "en", ("set_temperature", "temperature", 21.0, "°C")),
        (
            "set the bedroom color temperature to 2700 Kelvin",
            "en",
            ("set_color_temp", "color_temp", 2700.0, "K"),
        ),
        ("set the bed lamp to warm white", "en", ("set_color_temp", "color_temp", 2700.0, "K")),
        ("make the bed lamp red", "en", ("set_color", "color", "red", None)),
        (
            "Stelle die Farbtemperatur im Schlafzimmer auf 4000 Kelvin",
            "de",
            ("set_color_temp", "color_temp", 4000.0, "K"),
        ),
        (
            "Schlafzimmer auf maximale Helligkeit",
            "de",
            ("set_brightness", "brightness", 100.0, "%"),
        ),
        ("mach das Nachtlicht rot", "de", ("set_color", "color", "red", None)),
        ("règle la lumière de la chambre à 40 pour cent", "fr", (None, None, 40.0, "%")),
        ("把灯调到百分之五十", "zh", ("set_brightness", "brightness", 50.0, "%")),
        ("把空调调到二十五度", "zh", ("set_temperature", "temperature", 25.0, "°C")),
        (
            "установи цветовую температуру на 2700 кельвинов",
            "ru",
            ("set_color_temp", "color_temp", 2700.0, "K"),
        ),
    ],
)
def test_values_are_read_into_a_neutral_form(home, lexicons, text, language, expected):
    ir = one(text, home, lexicons, language)
    got = setting(ir)
    for want, have in zip(expected, got, strict=False):
        if want is not None:
            assert have == want, (text, got)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30% for the blinds", ("set_position", "position", 30.0, "%")),
        ("21 degrees in the bedroom", ("set_temperature", "temperature", 21.0, "°C")),
    ],
)
def test_a_value_said_first_is_the_value(home, lexicons, text, expected):
    # The number opens the command: no verb or target before it.
    assert setting(one(text, home, lexicons, "en"))[:4] == expected


def test_a_change_is_up_or_down(home, lexicons):
    ir = one("turn up the volume by twenty five percent", home, lexicons, "en")
    assert setting(ir)[:5] == ("set_volume", "volume", 25.0, "%", "up")
    assert one("make the bed lamp dimmer", home, lexicons, "en").change == "down"


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("set the brightness to 150 percent", "en"),
        ("set the blinds to -20 percent", "en"),
        ("set the blinds to minus 20 percent", "en"),
        ("Helligkeit auf 120 Prozent", "de"),
        ("monte les volets à 130 %", "fr"),
        ("set the color temperature to 90000 kelvin", "en"),
        ("set the thermostat to 300 degrees", "en"),
    ],
)
def test_a_value_home_assistant_would_refuse_is_marked(home, lexicons, text, language):
    assert one(text, home, lexicons, language).value_error == "out_of_range"


def test_a_value_in_range_is_not_marked(home, lexicons):
    assert one("set the blinds to 0 percent", home, lexicons, "en").value_error is None
    assert one("set the brightness to 100 percent", home, lexicons, "en").value_error is None


def test_a_number_inside_a_name_is_no_value(lexicons):
    lamp = make_device("light.l3", "Lamp 3", BEDROOM)
    index = DeviceIndex.build([lamp], [BEDROOM], language="en")
    ir = one("turn on lamp 3", index, lexicons, "en")
    assert ir.value is None
    assert ir.action == "turn_on"


def test_a_question_carries_no_setting(home, lexicons):
    ir = one("is the bed lamp at 50 percent", home, lexicons, "en")
    assert ir.action == "query"
    assert ir.value is None


def test_a_lone_chinese_numeral_is_no_value(home, lexicons):
    ir = one("打开一下灯", home, lexicons, "zh")
    assert ir.action == "turn_on"
    assert ir.value is None


def test_unit_symbols_every_language_shares_are_read_without_language_data(lexicons):
    room = Area("camera", "Camera")
    index = DeviceIndex.build([make_device("light.l", "Lampada", room)], [room], language="it")
    ir = one("imposta la lampada a 2700 k", index, lexicons, "it")
    assert (ir.action, ir.value, ir.unit) == ("set_color_temp", 2700.0, "K")


# ---- a generic level word ("Stufe") is no fan word -------------------------------------------


@pytest.fixture(scope="module")
def german_home() -> DeviceIndex:
    devices = [
        make_device("light.decke", "Deckenlampe", SCHLAFZIMMER),
        make_device("light.steh", "Stehlampe", SCHLAFZIMMER),
        make_device("fan.decke", "Deckenventilator", SCHLAFZIMMER),
        make_device("media_player.tv", "Fernseher", SCHLAFZIMMER),
        make_device("cover.rollo", "Rollo vorn", SCHLAFZIMMER),
    ]
    return DeviceIndex.build(devices, [SCHLAFZIMMER], language="de")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "Stufe" is the level of whatever is named, as in Home Assistant's German sentences
        # for brightness, volume, position and fan speed alike.
        ("Stelle den Fernseher auf die höchste Stufe ein", {"media_player.tv"}),
        ("das Rollo vorn auf die höchste Stufe stellen", {"cover.rollo"}),
        ("Schlafzimmer auf maximale Stufe", {"light.decke", "light.steh"}),
        ("Stelle den Ventilator auf die höchste Stufe", {"fan.decke"}),
        ("Lüfterstufe im Schlafzimmer auf Maximum", {"fan.decke"}),
    ],
)
def test_a_level_word_sets_the_level_of_what_is_named(german_home, text, expected):
    (result,) = retrieve(text, german_home, language="de")
    assert set(result.selected_ids) == expected


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        # A number word that is also an article comes before the value it does not give.
        (
            "pon las luces a una temperatura de color de 2700 kelvin",
            "es",
            ("set_color_temp", "color_temp", 2700.0, "K"),
        ),
        (
            "stelle das Nachtlicht auf eine Farbtemperatur von 3000 Kelvin",
            "de",
            ("set_color_temp", "color_temp", 3000.0, "K"),
        ),
        # Without a unit, the number written in digits is the value.
        ("pon la luz a una intensidad de 40", "es", (None, None, 40.0, None)),
        # A number word alone is still the value.
        ("dim the bed lamp to fifty percent", "en", ("set_brightness", "brightness", 50.0, "%")),
    ],
)
def test_the_value_is_the_number_with_a_unit_or_in_digits(home, lexicons, text, language, expected):
    got = setting(one(text, home, lexicons, language))
    for want, have in zip(expected, got, strict=False):
        if want is not None:
            assert have == want, (text, got)
    assert got[5] is None


def test_the_word_that_names_the_setting_is_no_device_even_apart_from_it(home, lexicons):
    ir = one("set temperature of the lights of the bedroom to 2700 Kelvin", home, lexicons, "en")
    assert setting(ir)[:4] == ("set_color_temp", "color_temp", 2700.0, "K")
    assert ir.type_groups == [("light",)]
    found = retrieve(
        "set temperature of the lights of the bedroom to 2700 Kelvin", home, language="en"
    )
    assert found[0].selected_ids == ["light.bed"]


@pytest.mark.parametrize(
    ("text", "language", "value"),
    [
        # "een"/"una"/"un" are articles before a word, numbers at the end or with a unit.
        ("zet de slaapkamer op een", "nl", 1.0),
        ("zet de slaapkamer op een procent", "nl", 1.0),
        ("ga een liedje terug op de kitchen speaker", "nl", None),
        ("baisse la lumière de la chambre d'un cran", "fr", None),
    ],
)
def test_a_number_word_that_is_also_an_article_is_no_value_before_a_word(
    home, lexicons, text, language, value
):
    assert one(text, home, lexicons, language).value == value


@pytest.mark.parametrize(
    ("text", "language", "value"),
    [
        # The level words come from Home Assistant's sentences for these languages.
        ("zet de slaapkamer op het hoogste", "nl", 100.0),
        ("imposta la camera da letto al massimo", "it", 100.0),
        ("coloca o quarto no mínimo", "pt", 1.0),
        ("ustaw sypialnię na maksa", "pl", 100.0),
    ],
)
def test_level_words_learned_from_home_assistant_set_the_brightness(text, language, value):
    pytest.importorskip("home_assistant_intents")
    bedroom = Area("bedroom", "Slaapkamer", ("Camera da letto", "Quarto", "Sypialnię"))
    index = DeviceIndex.build(
        [make_device("light.bed", "Bed Lamp", bedroom)], [bedroom], language=language
    )
    found = retrieve(text, index, language=language)
    assert [(r.ir.action, r.ir.value) for r in found] == [("set_brightness", value)]
    assert found[0].selected_ids == ["light.bed"]


@pytest.mark.parametrize(
    ("text", "action", "value"),
    [
        # "one" after the words standing for the device is the device ("the … one").
        ("turn on the master bedroom one", "turn_on", None),
        ("turn on the second one", "turn_on", None),
        # A 1 in digits there is the value.
        ("set the reading light brightness 1", "set_brightness", 1.0),
        ("turn the soundbar volume 1", "set_volume", 1.0),
    ],
)
def test_the_word_one_after_a_target_is_no_value_the_digit_is(
    demo_index, lexicons, text, action, value
):
    ir = one(text, demo_index, lexicons, "en")
    assert (ir.action, ir.value) == (action, value)
