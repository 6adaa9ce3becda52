"""core/base/parse/values.py: the setting a command carries, in a language-neutral form."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, Mention, QueryIR, retrieve
from custom_components.context_retrieval.core.base.parse.values import (
    Setting,
    number_words,
    settle_setting,
)
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


# ---- numbers said in words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "said", "expected"),
    [
        ("en", "twenty five degrees", (25.0, 2)),
        ("en", "hundred", (100.0, 1)),
        ("en", "two hundred", (200.0, 2)),
        ("en", "two hundred five", (205.0, 3)),
        ("en", "one hundred ten", (110.0, 3)),
        ("en", "two hundred fifty percent", (250.0, 3)),
        ("en", "percent", (None, 0)),
        ("fr", "deux cent cinq", (205.0, 3)),
        ("de", "zwei hundert zehn", (210.0, 3)),
        ("zh", "二 十 五", (25.0, 3)),
        ("zh", "十 五", (15.0, 2)),
        ("zh", "一 百 零 五", (105.0, 4)),
        ("zh", "三 百 五 十", (350.0, 4)),
    ],
)
def test_a_number_in_words_adds_tens_and_multiplies_hundreds(lexicons, language, said, expected):
    # A hundred closes what was said before it, so the words after it add up instead of
    # multiplying ("one hundred ten" is 110, not 1,000).
    assert number_words(said.split(), 0, lexicons.get(language)) == expected


def test_a_number_in_words_is_read_from_the_position_given(lexicons):
    words = ["set", "to", "forty", "two", "now"]
    assert number_words(words, 2, lexicons.get("en")) == (42.0, 2)
    assert number_words(words, 0, lexicons.get("en")) == (None, 0)


# ---- which number is the value, and its unit --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        # A number with a unit wins over one in digits without ("the 2 blinds").
        ("set the 2 blinds to fifty percent", "en", ("set_position", 50.0, "%")),
        # Without units, the number in digits wins over a larger one in words.
        ("dim the bed lamp by fifty to 20", "en", ("set_brightness", 20.0, "%")),
        # A unit said after the number makes a named device's generic "set" precise.
        ("set the radiator valve to 21 degrees now", "en", ("set_temperature", 21.0, "°C")),
        ("set the radiator valve to 21 degrees", "en", ("set_temperature", 21.0, "°C")),
        ("set the bed lamp to 30 per cent now", "en", ("set", 30.0, "%")),
        ("set the bed lamp to 30 per cent in the bedroom", "en", ("set", 30.0, "%")),
        ("set the bed lamp to 50%", "en", ("set", 50.0, "%")),
        ("set the radiator valve to 70°F", "en", ("set_temperature", 70.0, "°F")),
        ("set the radiator valve to 21.5°", "en", ("set_temperature", 21.5, "°")),
        ("set the bed lamp to 2700k", "en", ("set_color_temp", 2700.0, "K")),
        # A percent word before the number ("百分之五十", "percentage 40").
        ("set the bed lamp percentage 40", "en", ("set", 40.0, "%")),
        # A minus word before the number, also when the command opens with it.
        ("minus five degrees for the thermostat", "en", ("set_temperature", -5.0, "°C")),
        ("set the thermostat to negative 5 degrees", "en", ("set_temperature", -5.0, "°C")),
        ("把空调调到零下五度", "zh", ("set_temperature", -5.0, "°C")),
        ("把空调调到负五度", "zh", ("set_temperature", -5.0, "°C")),
    ],
)
def test_the_value_and_its_unit(home, lexicons, text, language, expected):
    ir = one(text, home, lexicons, language)
    assert (ir.action, ir.value, ir.unit) == expected, text


def test_a_percent_word_before_the_number_makes_it_a_percentage(zh_index, lexicons):
    ir = one("把主卧灯调到百分之五十", zh_index, lexicons, "zh")
    assert (ir.value, ir.unit) == (50.0, "%")
    assert ir.mentions


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        # A named value opens the command.
        ("maximum brightness in the bedroom", "en", ("set_brightness", 100.0, "%")),
        ("red for the bed lamp", "en", ("set_color", "red", None)),
        ("rot im Schlafzimmer", "de", ("set_color", "red", None)),
        # A number right after a change word is the step.
        ("make the bed lamp brighter 20 percent", "en", ("set_brightness", 20.0, "%")),
    ],
)
def test_named_values_and_the_numbers_next_to_them(home, lexicons, text, language, expected):
    ir = one(text, home, lexicons, language)
    assert (ir.action, ir.value, ir.unit) == expected, text


@pytest.mark.parametrize(
    ("text", "language"),
    [
        # A complaint says no value: "chaud" and "warm" are also warm white.
        ("il fait trop chaud dans la chambre", "fr"),
        ("es ist zu warm im Schlafzimmer", "de"),
        ("it is too warm in the bedroom", "en"),
    ],
)
def test_a_complaint_carries_no_value(home, lexicons, text, language):
    ir = one(text, home, lexicons, language)
    assert (ir.value, ir.attribute) == (None, None)
    assert ir.action != "set_color_temp"


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        # "in 5 minutes" is when, not what: the number before a duration word is no value.
        ("turn off the bed lamp in 5 minutes", "en", ("turn_off", None)),
        ("schalte das Nachtlicht in 5 Minuten aus", "de", ("turn_off", None)),
        ("dim the bed lamp in 10 minutes to 20 percent", "en", ("set_brightness", 20.0)),
        # The word right after the duration is read again.
        ("dim the bed lamp in 10 minutes 20 percent", "en", ("set_brightness", 20.0)),
        ("10秒后关灯", "zh", ("turn_off", None)),
    ],
)
def test_a_delay_is_no_value(home, lexicons, text, language, expected):
    ir = one(text, home, lexicons, language)
    assert (ir.action, ir.value) == expected, text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("卧室灯5分钟后调到30", ("set", 30.0)),
        ("5分钟后关闭卧室灯", ("turn_off", None)),
        ("2小时后关闭卧室灯", ("turn_off", None)),
    ],
)
def test_a_chinese_delay_of_two_characters_is_no_value(zh_index, lexicons, text, expected):
    ir = one(text, zh_index, lexicons, "zh")
    assert (ir.action, ir.value) == expected, text


# ---- what a setting makes of the command ------------------------------------------------------

LAMP = Mention("bed lamp", frozenset({"light.bed"}))


def settled(lexicons, setting: Setting, action=None, types=(), mention=False) -> tuple:
    ir = QueryIR(
        raw="x",
        action=action,
        type_groups=[tuple(types)] if types else [],
        mentions=[LAMP] if mention else [],
    )
    settle_setting(ir, setting, lexicons)
    return (ir.action, ir.attribute, ir.value, ir.unit, ir.change, ir.value_error)


@pytest.mark.parametrize(
    ("setting", "action", "types", "mention", "expected"),
    [
        # Nothing said: the command is left as it was.
        (Setting(), "turn_on", (), False, ("turn_on", None, None, None, None, None)),
        # A colour temperature, named or in kelvin, sets the white of a generic or of a
        # light's other setting ...
        (
            Setting(named=("color_temp", "warm")),
            "set",
            (),
            True,
            ("set_color_temp", "color_temp", 2700.0, "K", None, None),
        ),
        (
            Setting(number=4000.0, unit="K"),
            "set_brightness",
            (),
            True,
            ("set_color_temp", "color_temp", 4000, "K", None, None),
        ),
        # ... but never turns another action into it.
        (
            Setting(named=("color_temp", "warm")),
            "turn_off",
            (),
            True,
            ("turn_off", None, None, None, None, None),
        ),
        # A colour name sets the colour of a generic command only.
        (
            Setting(named=("color", "red")),
            "turn_on",
            (),
            True,
            ("set_color", "color", "red", None, None, None),
        ),
        (
            Setting(named=("color", "red")),
            "turn_off",
            (),
            True,
            ("turn_off", None, None, None, None, None),
        ),
        # Degrees set the temperature of a generic command only.
        (
            Setting(number=21.0, unit="°C"),
            None,
            (),
            False,
            ("set_temperature", "temperature", 21, "°C", None, None),
        ),
        (
            Setting(number=21.0, unit="°"),
            "set",
            (),
            True,
            ("set_temperature", "temperature", 21, "°", None, None),
        ),
        (
            Setting(number=21.0, unit="°C"),
            "set_brightness",
            (),
            True,
            ("set_brightness", "brightness", 21, "°C", None, None),
        ),
        # A bare number sets what the type's devices set, or of a named device "set" ...
        (
            Setting(number=40.0),
            "set",
            ("blind",),
            False,
            ("set_position", "position", 40, "%", None, None),
        ),
        (
            Setting(number=40.0),
            "close",
            ("blind",),
            False,
            ("set_position", "position", 40, "%", None, None),
        ),
        (Setting(number=40.0), "set", (), True, ("set", None, 40, None, None, None)),
        # ... and with nothing named, a percentage is the brightness, as Home Assistant
        # reads it; a bare number of nothing is not (it asked which light to set).
        (
            Setting(number=40.0, unit="%"),
            None,
            (),
            False,
            ("set_brightness", "brightness", 40, "%", None, None),
        ),
        (Setting(number=40.0), None, (), False, (None, None, 40, None, None, None)),
        (
            Setting(named=("level", "max")),
            None,
            ("light",),
            False,
            ("set_brightness", "brightness", 100.0, "%", None, None),
        ),
        (
            Setting(named=("level", "min")),
            "turn_on",
            ("blind",),
            False,
            ("set_position", "position", 1.0, "%", None, None),
        ),
        # A change of a type or a named device sets it; a bare change keeps to the setting
        # the conversation was about.
        (
            Setting(change="up"),
            None,
            ("light",),
            False,
            ("set_brightness", "brightness", None, None, "up", None),
        ),
        (Setting(change="up"), None, (), True, ("set", None, None, None, "up", None)),
        (Setting(change="down"), None, (), False, (None, None, None, None, "down", None)),
        (Setting(change="down"), "turn_on", (), False, ("turn_on", None, None, None, "down", None)),
        # A change with a number steps by it.
        (
            Setting(number=10.0, unit="%", change="up"),
            None,
            ("media_player",),
            False,
            ("set_volume", "volume", 10, "%", "up", None),
        ),
        # A value said with an action that takes none is no setting of it: "turn off the
        # bedroom lights at 11" set them to 11 %, "turn the tv off at 9" its volume.
        (
            Setting(named=("level", "max")),
            "turn_off",
            (),
            False,
            ("turn_off", None, None, None, None, None),
        ),
        (Setting(number=11.0), "turn_off", ("light",), False, ("turn_off",) + (None,) * 5),
        (Setting(number=9.0), "turn_off", (), True, ("turn_off",) + (None,) * 5),
        (Setting(number=3.0, unit="%"), "lock", (), True, ("lock",) + (None,) * 5),
        (Setting(number=20.0), "pause", ("media_player",), False, ("pause",) + (None,) * 5),
    ],
)
def test_a_setting_settles_the_action_attribute_and_value(
    lexicons, setting, action, types, mention, expected
):
    assert settled(lexicons, setting, action, types, mention) == expected


@pytest.mark.parametrize(
    ("setting", "in_range"),
    [
        (Setting(number=0.0, unit="%"), True),
        (Setting(number=100.0, unit="%"), True),
        (Setting(number=100.5, unit="%"), False),
        (Setting(number=-0.5, unit="%"), False),
        (Setting(number=1000.0, unit="K"), True),
        (Setting(number=999.0, unit="K"), False),
        (Setting(number=12000.0, unit="K"), True),
        (Setting(number=12001.0, unit="K"), False),
        (Setting(number=50.0, unit="°C"), True),
        (Setting(number=50.5, unit="°C"), False),
        # Fahrenheit has its own range; degrees of no scale the widest.
        (Setting(number=100.0, unit="°F"), True),
        (Setting(number=31.0, unit="°F"), False),
        (Setting(number=122.0, unit="°"), True),
        (Setting(number=123.0, unit="°"), False),
    ],
)
def test_a_value_is_checked_against_the_range_of_its_unit(lexicons, setting, in_range):
    error = settled(lexicons, setting, "set", ("light",) if setting.unit == "%" else ())[5]
    assert (error is None) is in_range, setting


@pytest.mark.parametrize(
    ("text", "language", "change"),
    [
        # A value to reach is no step: the change word only said which way.
        ("brighten the bed lamp to 50 percent", "en", None),
        ("auf 30 Prozent dimmen im Schlafzimmer", "de", None),
        ("brighten the bed lamp by 5 percent", "en", "up"),
    ],
)
def test_a_value_to_reach_is_no_step(home, lexicons, text, language, change):
    ir = one(text, home, lexicons, language)
    assert ir.value is not None
    assert ir.change == change


@pytest.mark.parametrize(
    ("text", "language", "value"),
    [
        # "one"/"eine"/"una" standing for a device or as an article is no value.
        ("bedroom one off", "en", None),
        ("dim the bedroom one 30 percent", "en", 30.0),
        ("schalte bitte eine Lampe im Schlafzimmer ein", "de", None),
        ("enciende por favor una luz del dormitorio", "es", None),
    ],
)
def test_one_standing_for_a_device_or_an_article(home, lexicons, text, language, value):
    assert one(text, home, lexicons, language).value == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # Chinese numbers of one character are values with a unit, of two without.
        ("把卧室灯调到五度", 5.0),
        ("把卧室灯调到十五", 15.0),
        ("把卧室灯调到二十五", 25.0),
    ],
)
def test_chinese_numbers_in_characters(zh_index, lexicons, text, value):
    assert one(text, zh_index, lexicons, "zh").value == value


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        # The word naming a setting in percent sets it ("humidity" is no humidity sensor) ...
        ("set the humidity to 60", "en", ("set_humidity", 60.0, "%")),
        # ... a setting in kelvin or in degrees is not set by a bare number.
        ("set the temperature to 21", "en", ("set", 21.0, None)),
        ("set the thermostat to 21", "en", ("set", 21.0, None)),
    ],
)
def test_a_bare_number_sets_only_what_is_set_in_percent(home, lexicons, text, language, expected):
    ir = one(text, home, lexicons, language)
    assert (ir.action, ir.value, ir.unit) == expected, text
    assert ir.value_error is None


@pytest.mark.parametrize(
    ("types", "expected"),
    [
        # A type word's first reading decides what a bare number sets.
        (("light", "fan"), "set_brightness"),
        (("fan", "light"), "set_fan_speed"),
        # A type the tables do not know decides nothing.
        (("no_such_type",), "set"),
    ],
)
def test_the_first_reading_of_a_type_word_decides_what_a_number_sets(lexicons, types, expected):
    assert settled(lexicons, Setting(number=40.0), "set", types)[0] == expected


@pytest.mark.parametrize(
    "setting",
    [Setting(number=40.0), Setting(named=("level", "max"))],
)
def test_a_value_for_it_waits_for_the_device(lexicons, setting):
    # "set it to 40": what "it" is decides the setting; the value is kept for it.
    ir = QueryIR(raw="x", references=["it"])
    settle_setting(ir, setting, lexicons)
    assert ir.action is None
    assert ir.value in (40.0, 100.0)


def test_a_value_in_a_unit_the_setting_has_no_range_for_is_checked_in_its_own(lexicons):
    # A brightness said in degrees is still a brightness: 150 is beyond it.
    error = settled(lexicons, Setting(number=150.0, unit="°C"), "set_brightness", ("light",))[5]
    assert error == "out_of_range"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # "one" after an article stands for a device: every light was set to 1 %.
        ("turn off all the lights except the one in the kitchen", None),
        ("turn on the one in the kitchen", None),
        # A number before a type word counts devices.
        ("turn on one light in the kitchen", None),
        ("set two lights in the kitchen to 50%", 50.0),
        # Said as the value, it is one.
        ("dim the bed lamp to one", 1.0),
        ("set the bed lamp to one percent", 1.0),
        # A number after an ordinal counts from there: "the last two" set them to 2 %.
        ("turn on the last two", None),
        ("the first three", None),
        ("set the last two to fifty percent", 50.0),
        ("dim the last one to two", 2.0),
    ],
)
def test_one_that_stands_for_a_device_is_no_value(home, lexicons, text, value):
    assert one(text, home, lexicons, "en").value == value


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # A number said of nothing is no brightness ("set the heat to 21" asked which light).
        ("set the heat to 21", "set"),
        ("set to 21", None),
        # A percentage is one, and so is a number said of a room or a named level.
        ("set to 50%", "set_brightness"),
        ("set the bedroom to 30", "set_brightness"),
        ("dim to 30", "set_brightness"),
    ],
)
def test_a_bare_number_of_nothing_is_no_brightness(home, lexicons, text, action):
    ir = one(text, home, lexicons, "en")
    assert ir.action == action or (action is None and ir.action != "set_brightness")


@pytest.mark.parametrize(
    ("text", "language", "action", "count"),
    [
        # A number before "of", a type word, a name of the home or an article says how many:
        # "turn off 2 of the …" set the lights to 2 % (on) instead of off.
        ("turn off 2 of the bedroom lights", "en", "turn_off", 2),
        ("switch on one of the bed lamps", "en", "turn_on", 1),
        ("turn on one bedroom light", "en", "turn_on", 1),
        ("turn on two lights in the bedroom", "en", "turn_on", 2),
        ("turn on 3 lights", "en", "turn_on", 3),
        ("schalte zwei der Lampen im Schlafzimmer ein", "de", "turn_on", 2),
        ("schalte zwei von den Lampen ein", "de", "turn_on", 2),
        # "de las", "delle": "dos de las luces" set them to 2 %; an article before "of the"
        # is one of them, before a noun no count.
        ("enciende dos de las luces", "es", "turn_on", 2),
        ("apaga una de las luces", "es", "turn_off", 1),
        ("spegni due delle luci", "it", "turn_off", 2),
        ("allume une des lampes", "fr", "turn_on", 1),
        ("enciende una luz", "es", "turn_on", None),
        # "each and every one": all of them, no count.
        ("desactiva todas y cada una de las luces", "es", "turn_off", None),
        ("turn off each and every one of the lights", "en", "turn_off", None),
        # An article is no count; a value with its unit or said last is no count.
        ("schalte eine Lampe im Schlafzimmer ein", "de", "turn_on", None),
        ("turn on a light in the bedroom", "en", "turn_on", None),
        ("set the bed lamp to 50%", "en", "set", None),
        ("set the bed lamp to one", "en", "set", None),
        ("turn on the bed lamp", "en", "turn_on", None),
        ("turn on the bedroom one", "en", "turn_on", None),
    ],
)
def test_a_number_before_what_it_counts_is_a_count_not_a_value(
    home, lexicons, text, language, action, count
):
    ir = one(text, home, lexicons, language)
    assert (ir.action, ir.count) == (action, count)
    if count is not None:
        assert ir.value is None


@pytest.mark.parametrize(
    ("text", "value", "count"),
    [
        # Digits before a name of the home or an article may still be the value; a number
        # word there is a count.
        ("set the bed lamp to 20 the bedroom", 20.0, None),
        ("set the bed lamp to twenty the bedroom", None, 20),
        ("turn on two bedroom lights", None, 2),
        ("turn on 2 bedroom lights", 2.0, None),
        # Nothing but whole numbers of at least one counts.
        ("turn on 0 lights", None, None),
        ("turn on 1.5 lights", None, None),
    ],
)
def test_digits_count_only_before_a_type_word_or_of(home, lexicons, text, value, count):
    ir = one(text, home, lexicons, "en")
    assert (ir.value, ir.count) == (value, count)
