"""core/base/parse/sentence.py: which action a command's words say."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import Area, DeviceIndex, QueryIR, retrieve
from custom_components.context_retrieval.core.base.lexicon import Lexicon
from custom_components.context_retrieval.core.base.models import Mention, Note
from custom_components.context_retrieval.core.base.parse import Span, analyze
from custom_components.context_retrieval.core.base.parse.sentence import (
    asks_for_several,
    asks_without_a_verb,
    decide_action,
    has_percentage,
    is_question,
    media_content,
    only_a_target,
)
from tests.core.base.parse.conftest import one
from tests.core.conftest import make_device


@pytest.fixture(scope="module")
def es_home() -> DeviceIndex:
    salon = Area("salon", "Salón")
    devices = [
        make_device("vacuum.robi", "Robi", salon),
        make_device("media_player.tele", "Tele", salon),
    ]
    return DeviceIndex.build(devices, [salon], language="es")


@pytest.mark.parametrize(
    ("text", "action", "selected"),
    [
        # "vuelva" alone reads as the previous track; "a la base" says where to return.
        ("que Robi vuelva a la base", "dock", ["vacuum.robi"]),
        ("que la aspiradora vuelva a la base", "dock", ["vacuum.robi"]),
        # One action word only: it stands.
        ("vuelve atrás en la tele", "media_previous", ["media_player.tele"]),
    ],
)
def test_of_two_equally_precise_actions_the_longer_phrase_wins(es_home, text, action, selected):
    found = retrieve(text, es_home, language="es")
    assert [r.ir.action for r in found] == [action]
    assert found[0].selected_ids == selected


@pytest.fixture(scope="module")
def en_hall() -> DeviceIndex:
    hall = Area("hall", "Hall")
    devices = [make_device("lock.front", "Front Door", hall), make_device("light.hall", "Hall")]
    return DeviceIndex.build(devices, [hall], language="en")


def test_a_verb_said_after_an_article_is_the_kind_it_names(en_hall):
    # "lock" is a verb and a kind: after "the" it names the device, "open" stays the action.
    found = retrieve("open the lock", en_hall, language="en")
    assert [r.ir.action for r in found] == ["open"]
    assert found[0].selected_ids == ["lock.front"]
    # Said first, the same word is the verb.
    assert [r.ir.action for r in retrieve("lock the lock", en_hall, language="en")] == ["lock"]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("lights off here", "turn_off"),
        ("lights on in here", "turn_on"),
        ("lights off in there", "turn_off"),
        ("lights off everywhere", "turn_off"),
    ],
)
def test_a_particle_followed_only_by_a_place_word_says_the_action(
    demo_index, lexicons, text, action
):
    assert one(text, demo_index, lexicons, "en").action == action


@pytest.mark.parametrize("text", ["on the fish tank", "off the fish tank please", "off aquarium"])
def test_a_particle_before_its_target_without_a_verb_says_no_action(demo_index, lexicons, text):
    assert one(text, demo_index, lexicons, "en").action not in ("turn_on", "turn_off")


@pytest.mark.parametrize("text", ["the kitchen lights", "厨房的灯", "kitchen", "鱼缸"])
def test_a_target_said_alone_commands_nothing(demo_index, text):
    found = retrieve(text, demo_index)
    assert [(r.ir.action, r.selected_ids) for r in found] == [(None, [])]


@pytest.mark.parametrize("text", ["frobnicate the fish tank", "fish tank now", "鱼缸吧"])
def test_a_target_with_a_word_of_no_target_is_still_the_target(demo_index, text):
    # The other word, unknown or read as a filler, may be a verb the language data lacks.
    found = retrieve(text, demo_index)
    assert [r.selected_ids for r in found] == [["switch.yu_gang"]]


# --- the sentence functions read directly, on the spans the analysis finds -----------------


def _spans(text: str, index: DeviceIndex, lexicons, language: str) -> tuple[list[Span], Lexicon]:
    found = analyze(text, index, lexicons, language)
    return found.spans, lexicons.get(found.language)


@pytest.mark.parametrize(
    ("language", "text", "asks"),
    [
        # The first word that says an action decides: a question word, or a control verb.
        ("en", "is the kitchen light on", True),
        ("en", "turn on the kitchen light", False),
        ("en", "can you turn on the kitchen light", False),
        ("en", "turn on the light and is the tv on", False),
        ("en", "kitchen", False),
        # "关了吗" is "turned off?" or "turn it off?": a question unless a request marker says so.
        ("zh", "客厅灯关了吗", True),
        ("zh", "能把客厅灯关了吗", False),
        ("zh", "能帮我关一下客厅灯吗", False),
        # A closing "吗" makes a question whatever verb came before, thanks after it or not.
        ("zh", "打开窗帘吗", True),
        ("zh", "打开窗帘吗，谢谢", True),
        ("zh", "请打开窗帘吗", False),
        # A complaint is no question, unless a question mark says it is one.
        ("de", "Im Schlafzimmer ist es viel zu warm", False),
        ("de", "Ist es im Schlafzimmer zu warm?", True),
        ("zh", "卧室太热了", False),
        ("zh", "卧室太热了吗？", True),
        ("zh", "卧室太热了吗?", True),
        # Spoken, with no question mark: a complaint opened by a word that asks, holding one
        # that can only ask, or closed by a question particle, asks ("is it too dark in the
        # office" turned the lights on); "is"/"ist" in the middle states.
        ("en", "is it too dark in the office", True),
        ("en", "it is too dark in the office", False),
        ("en", "the office is too dark", False),
        ("de", "ist es im Schlafzimmer zu warm", True),
        ("fr", "est-ce qu'il fait trop chaud dans la chambre", True),
        ("fr", "il fait trop chaud dans la chambre", False),
        ("zh", "卧室是不是太热了", True),
        ("zh", "卧室太热了吗", True),
    ],
)
def test_a_question_word_before_any_control_verb_makes_a_question(
    demo_index, lexicons, language, text, asks
):
    seg, lex = _spans(text, demo_index, lexicons, language)
    assert is_question(seg, lex) is asks


@pytest.mark.parametrize(
    ("language", "text", "action", "implied"),
    [
        # A verb that names what it acts on implies that type, by its phrase or its action.
        ("en", "light up the kitchen", "turn_on", "light"),
        ("fr", "éclaire le salon", "turn_on", "light"),
        ("zh", "点亮客厅", "turn_on", "light"),
        ("en", "did you light up the kitchen", "query", "light"),
        ("en", "mute the tv", "mute", "media_player"),
        ("en", "is the kitchen light on", "query", None),
        # A generic verb said of media is the media command.
        ("en", "stop the music", "media_pause", "media_player"),
        ("en", "turn off the music", "media_pause", "media_player"),
        ("en", "stop the robot vacuum", "stop", None),
        ("en", "turn off the tv", "turn_off", None),
        # A particle says the action a generic verb ("put") or no verb leaves open.
        ("en", "put the lights on", "turn_on", None),
        ("en", "put the kitchen lights up", "set", None),
        ("en", "lights off in the kitchen", "turn_off", None),
        ("en", "lights on upstairs", "turn_on", None),
        ("de", "Licht im Wohnzimmer aus", "turn_off", None),
        ("de", "Rollladen hoch", "open", None),
        # Only "on"/"off" overrides the generic verb: "auf 50 Prozent" sets, it does not open.
        ("de", "stell das Licht auf 50 Prozent", "set", None),
        ("en", "everything off except the kitchen", "turn_off", None),
        # A percentage with no verb sets.
        ("en", "kitchen light 50%", "set", None),
        ("zh", "客厅灯百分之50", "set", None),
        # A precise action beats a generic one, whichever is said first.
        ("en", "brighten the kitchen light to 80 percent", "set_brightness", "light"),
        ("en", "the kitchen", None, None),
    ],
)
def test_the_action_and_the_type_the_verbs_say(
    demo_index, lexicons, language, text, action, implied
):
    seg, lex = _spans(text, demo_index, lexicons, language)
    assert decide_action(seg, lex, is_question(seg, lex)) == (action, implied)


@pytest.fixture(scope="module")
def en_den() -> DeviceIndex:
    den = Area("den", "Den")
    devices = [
        make_device("lock.front", "Front Door", den),
        make_device("media_player.radio", "Radio", den),
        make_device("light.daylight", "Daylight", den),
        make_device("fan.den", "Den Fan", den),
    ]
    return DeviceIndex.build(devices, [den], language="en")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # A media word that is a device's name is the device: switching it is no media command.
        ("turn off the radio", "turn_off"),
        ("turn off the music on the radio", "media_pause"),
        # "lock" after an article is the device, wherever the article stands.
        ("the lock open", "open"),
        ("open the lock", "open"),
        # A precise action beats a generic phrase, even a longer one.
        ("turn up the volume on the radio", "set_volume"),
        ("turn the den fan speed down", "set_fan_speed"),
        # A name said alone can be no verb.
        ("is the daylight on", "query"),
    ],
)
def test_which_verb_says_the_action_in_a_home_with_names_that_are_words(
    en_den, lexicons, text, action
):
    seg, lex = _spans(text, en_den, lexicons, "en")
    assert decide_action(seg, lex, is_question(seg, lex))[0] == action


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        # A name is no verb, in a question either: "Daylight" is a lamp here, not a setting.
        ("the daylight, is it on", True),
        ("daylight is on?", True),
    ],
)
def test_a_name_that_is_an_action_word_does_not_decide_a_question(en_den, lexicons, text, asks):
    seg, lex = _spans(text, en_den, lexicons, "en")
    assert is_question(seg, lex) is asks


# A name's own verb beat the one said: "turn on the daylight" set the lamp's colour temperature.
def test_a_name_that_is_also_an_action_word_does_not_replace_the_verb(en_den):
    found = retrieve("turn on the daylight", en_den, language="en")
    assert [(r.ir.action, r.selected_ids) for r in found] == [("turn_on", ["light.daylight"])]


# "flip" toggles, and its particle only overrode "set": "flip the lights off" turned on the
# lights that were off.
@pytest.mark.parametrize(("text", "action"), [("flip the kitchen lights off", "turn_off")])
def test_a_particle_says_which_way_a_flip_goes(demo_index, text, action):
    found = retrieve(text, demo_index, language="en")
    assert [r.ir.action for r in found] == [action]


def test_a_complaint_with_a_question_word_and_no_verb_is_read_as_asking(demo_index, lexicons):
    # "ist" is a question word; the complaint is no question, yet no verb says anything else.
    seg, lex = _spans("Im Schlafzimmer ist es viel zu warm", demo_index, lexicons, "de")
    assert decide_action(seg, lex, False) == ("query", None)


@pytest.mark.parametrize(
    ("language", "text", "percentage"),
    [
        ("en", "kitchen light 50%", True),
        ("en", "set the kitchen light to 50 percent", True),
        ("en", "50 percent kitchen light", True),
        ("en", "set the kitchen light to fifty percent", True),
        ("en", "kitchen light fifty percent", True),
        ("zh", "客厅灯百分之50", True),
        ("zh", "百分之50", True),
        ("de", "Licht auf 50 Prozent", True),
        # A number alone, or a percent word with no number beside it, is no percentage.
        ("en", "set the kitchen light to 50", False),
        ("en", "set the kitchen light to 50 degrees", False),
        ("en", "percent of the kitchen light 50", False),
        ("en", "kitchen light percent", False),
    ],
)
def test_a_number_beside_a_percent_word_is_a_percentage(
    demo_index, lexicons, language, text, percentage
):
    seg, _ = _spans(text, demo_index, lexicons, language)
    assert has_percentage(seg) is percentage


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # What follows "play" is a title, up to a preposition that a target follows.
        ("play some jazz on the tv", ["some", "jazz"]),
        ("play the christmas song in the living room", ["the", "christmas", "song"]),
        ("play jazz in the kitchen", ["jazz"]),
        ("play jazz in kitchen", ["jazz"]),
        # A room's name in a title with no preposition before it is part of the title.
        ("play the kitchen nightmares", ["the", "kitchen", "nightmares"]),
        ("the tv play jazz", ["jazz"]),
        # A preposition no target follows is part of the title.
        ("play music on repeat", ["music", "on", "repeat"]),
        ("play jazz on the", ["jazz", "on", "the"]),
        ("turn on the tv", []),
    ],
)
def test_the_words_after_play_are_the_title_up_to_a_target(demo_index, lexicons, text, content):
    seg, _ = _spans(text, demo_index, lexicons, "en")
    assert [seg[i].text for i in sorted(media_content(seg))] == content


@pytest.mark.parametrize(
    ("language", "text", "bare"),
    [
        ("en", "kitchen", True),
        ("en", "the kitchen lights", True),
        ("en", "all the lights in here", True),
        ("en", "in the kitchen", True),
        ("en", "lights and fan", True),
        ("en", "all the devices in the kitchen", True),
        ("de", "alle Geräte", True),
        ("zh", "客厅的灯", True),
        # A number, an unknown word, a verb or a politeness word is more than a target.
        ("en", "lights 50", False),
        ("en", "frobnicate the fish tank", False),
        ("en", "fish tank now", False),
        ("en", "turn on the lights", False),
        ("en", "the kitchen lights please", False),
        # Words around a target with no target said are not a target.
        ("en", "the", False),
        ("en", "everywhere", False),
    ],
)
def test_only_a_place_or_a_device_said_is_a_bare_target(demo_index, lexicons, language, text, bare):
    seg, _ = _spans(text, demo_index, lexicons, language)
    assert only_a_target(seg) is bare


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("set the bedroom lamp banana potato tomato", True),
        # A number, a named value, a change or a setting word is a value.
        ("set the desk lamp to 50", False),
        ("set the desk lamp to red", False),
        ("set the desk lamp brighter", False),
        ("set the desk lamp to max", False),
        ("set the desk lamp banana 50", False),
        ("set the desk lamp brighter banana", False),
        ("set the desk lamp to red banana", False),
        # A particle that is also a value word ("on") is no value.
        ("set the desk lamp on banana", True),
        # An unknown word before the verb or the target may be a verb the data lacks.
        ("banana set the desk lamp", False),
        ("set banana the desk lamp", False),
        # Not a set command: nothing is missing.
        ("turn on the desk lamp banana", False),
        ("set the desk lamp", False),
    ],
)
def test_a_set_command_whose_value_is_unknown_words_misses_its_value(
    demo_index, lexicons, text, missing
):
    assert (Note.VALUE_MISSING in one(text, demo_index, lexicons, "en").notes) is missing


@pytest.mark.parametrize(
    ("language", "text", "missing"),
    [
        # A precise setting ("color", "volume") with unknown words for its value misses it too.
        ("en", "set the desk lamp color banana", True),
        ("en", "set the desk lamp volume banana", True),
        ("en", "change the desk lamp to banana potato", True),
        # An unknown word before the setting may be the verb: "restaura" (restore).
        ("es", "restaura el volumen de la tele", False),
        # Italian data names no direction: any unknown word would look like a missing value.
        ("it", "imposta la lampada da scrivania su banana", False),
    ],
)
def test_a_value_is_missing_only_after_the_verb_and_where_the_language_names_values(
    demo_index, lexicons, language, text, missing
):
    ir = one(text, demo_index, lexicons, language)
    assert ir.unknown_terms
    assert (Note.VALUE_MISSING in ir.notes) is missing


@pytest.mark.parametrize(
    ("language", "text", "action"),
    [
        # No verb, and a type read rather than switched, a state or a status: a question.
        ("en", "kitchen temperature", "query"),
        ("de", "Temperatur Wohnzimmer", "query"),
        ("en", "front door locked", "query"),
        ("ru", "Лампа включена", "query"),
        # No verb and nothing asked: no action.
        ("en", "kitchen lights", None),
        ("ru", "Лампа", None),
        ("en", "fridge power", None),
    ],
)
def test_a_command_without_a_verb_asks_when_it_names_a_state_or_a_reading(
    demo_index, lexicons, language, text, action
):
    assert one(text, demo_index, lexicons, language).action == action


@pytest.mark.parametrize(
    ("ir", "asks"),
    [
        (QueryIR("x", states={"locked"}), True),
        (QueryIR("x", type_groups=[("temperature",)]), True),
        (QueryIR("x", type_groups=[("light", "humidity")]), True),
        (QueryIR("x", type_groups=[("light",)]), False),
        (QueryIR("x", mentions=[Mention("t", frozenset({"sensor.t"}), type_id="power")]), True),
        (QueryIR("x", mentions=[Mention("t", frozenset({"light.t"}), type_id="light")]), False),
        (
            QueryIR("x", mentions=[Mention("t", frozenset({"sensor.t"}), modifiers=("battery",))]),
            True,
        ),
        (QueryIR("x", mentions=[Mention("t", frozenset({"light.t"}))]), False),
    ],
)
def test_a_type_read_rather_than_switched_asks_however_it_is_said(demo_index, lexicons, ir, asks):
    seg, lex = _spans("kitchen", demo_index, lexicons, "en")
    assert asks_without_a_verb(ir, seg, lex, lexicons) is asks


@pytest.mark.parametrize(
    ("language", "text", "several"),
    [
        # A plural marker or a count question right before the name asks about several.
        ("en", "which curtains are open", True),
        ("en", "which um curtains are open", True),
        ("en", "how many curtains are open", True),
        ("zh", "哪些窗帘开着", True),
        ("en", "are the curtains open", False),
        ("en", "curtains which are open", False),
        ("en", "curtains", False),
        ("en", "open the curtains", False),
        ("en", "what curtains are open", False),
    ],
)
def test_a_plural_marker_right_before_a_name_asks_about_several(
    demo_index, lexicons, language, text, several
):
    seg, lex = _spans(text, demo_index, lexicons, language)
    pos = next(i for i, s in enumerate(seg) if s.home("entity"))
    assert asks_for_several(seg, pos, lex) is several


@pytest.mark.parametrize(
    ("text", "confidence"),
    [
        # 0.4, +0.3 for an action, +0.2 for a target, +0.1 when every word is read, -0.2 for a
        # room the home does not have.
        ("turn on the tv", 1.0),
        ("turn off upstairs", 1.0),
        ("turn off everything", 1.0),
        ("light up the kitchen", 1.0),
        ("turn it off", 0.8),
        ("turn on blorp", 0.7),
        ("turn on the lights in the attic", 0.7),
        ("set the desk lamp on banana", 0.7),
        ("kitchen", 0.7),
        ("the attic lights", 0.6),
        ("the", 0.5),
        ("frobnicate", 0.4),
    ],
)
def test_how_sure_the_reading_is(demo_index, lexicons, text, confidence):
    assert one(text, demo_index, lexicons, "en").confidence == confidence


# "了吗" was one filler word, so no closing question particle was seen: the question "are the
# living room lights off?" turned them off.
@pytest.mark.parametrize("text", ["客厅灯熄灭了吗", "客厅灯点亮了吗"])
def test_a_state_asked_with_le_ma_is_a_question_not_a_command(demo_index, text):
    found = retrieve(text, demo_index, language="zh")
    assert [r.ir.action for r in found] == ["query"]
