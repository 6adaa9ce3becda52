"""core/base/lexicon.py: languages are data files; every file must be complete and consistent.

The file checks iterate over whatever language files exist, so a newly added language is
checked the moment it lands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from custom_components.context_retrieval.core.base.actions import ACTIONS
from custom_components.context_retrieval.core.base.lexicon import (
    LEXICON_DIR,
    SHARED_FILES,
    Lexicon,
    LexiconSet,
    load_lexicons,
    merge_learned_data,
)
from custom_components.context_retrieval.core.base.text import normalize, tokens

# Every JSON file the loader does not treat as shared data is a language.
LANGUAGE_FILES = sorted(p for p in LEXICON_DIR.glob("*.json") if p.name not in SHARED_FILES)
ACTION_IDS = set(ACTIONS) | {"query"}
# "aliases" (extra language tags such as "zh-tw"), "marker_chars" (letters only this
# language writes) and "learn_sections" (what learned words may add) are optional metadata.
OPTIONAL_SECTIONS = {
    "aliases",
    "marker_chars",
    "learn_sections",
    "plural_markers",
    "colors",
    "levels",
    "color_temps",
    "changes",
    "minus_words",
    "separable_prefixes",
    "room_kinds",
    "not_home",
    "question_particles",
}


def _read(path: Path) -> dict[str, Any]:
    """A language file as the loader sees it: a file that extends another has its sections."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if path.name in SHARED_FILES or "extends" not in data:
        return data
    return load_lexicons().sources[data["language"]]


def _real(mapping: dict[str, Any]) -> dict[str, Any]:
    """Drop "_comment"-style keys."""
    return {k: v for k, v in mapping.items() if not k.startswith("_")}


@pytest.fixture(scope="module")
def types_json() -> dict[str, Any]:
    return _read(LEXICON_DIR / "types.json")


@pytest.fixture(scope="module")
def en(lexicons: LexiconSet) -> Lexicon:
    return lexicons.get("en")


def _lookup(lex: Lexicon, phrase: str) -> list[tuple[str, str]]:
    """How the lexicon reads `phrase` as the user wrote it (inflection respected)."""
    raw = tuple(tokens(normalize(phrase)))
    return lex.lookup(tuple(lex.key(t) for t in raw), raw)


# ---- the data files -------------------------------------------------------------------------


def test_english_and_chinese_are_bundled():
    names = {p.name for p in LANGUAGE_FILES}
    assert {"en.json", "zh.json"} <= names


def test_every_bundled_language_loads(lexicons: LexiconSet):
    for path in LANGUAGE_FILES:
        language = _read(path)["language"]
        assert language in lexicons.lexicons, f"{path.name} did not load"


def test_no_two_files_claim_the_same_language():
    languages = [json.loads(p.read_text(encoding="utf-8"))["language"] for p in LANGUAGE_FILES]
    assert len(languages) == len(set(languages)), "one language file silently replaces another"


@pytest.mark.parametrize("path", LANGUAGE_FILES, ids=lambda p: p.name)
def test_every_language_file_has_the_same_sections_as_english(path: Path):
    reference = set(_read(LEXICON_DIR / "en.json"))
    assert set(_read(path)) - OPTIONAL_SECTIONS == reference - OPTIONAL_SECTIONS


@pytest.mark.parametrize("path", LANGUAGE_FILES, ids=lambda p: p.name)
def test_every_language_can_word_every_message(path: Path):
    # A missing "clarify" template would ask the homeowner an empty question.
    reference = set(_read(LEXICON_DIR / "en.json")["messages"])
    messages = _read(path)["messages"]
    assert set(messages) >= reference
    assert all(isinstance(v, str) and (v or k == "list_separator") for k, v in messages.items())


@pytest.mark.parametrize("path", LANGUAGE_FILES, ids=lambda p: p.name)
def test_every_type_word_points_at_a_known_type(path: Path, types_json):
    data = _read(path)
    known = set(_real(types_json["types"]))
    assert set(_real(data["types"])) <= known
    assert set(_real(data["action_types"]).values()) <= known


@pytest.mark.parametrize("path", LANGUAGE_FILES, ids=lambda p: p.name)
def test_every_state_word_points_at_a_known_state(path: Path, types_json):
    assert set(_real(_read(path)["states"])) <= set(_real(types_json["states"]))


@pytest.mark.parametrize("path", LANGUAGE_FILES, ids=lambda p: p.name)
def test_every_action_is_one_the_engine_knows(path: Path):
    data = _read(path)
    assert set(_real(data["actions"])) <= ACTION_IDS
    assert set(data["particles"].values()) <= ACTION_IDS


@pytest.mark.parametrize("path", LANGUAGE_FILES, ids=lambda p: p.name)
def test_action_types_name_an_action_or_one_of_its_words(path: Path):
    data = _read(path)
    words = {normalize(w) for ws in data["actions"].values() for w in ws}
    for key in _real(data["action_types"]):
        assert key in ACTION_IDS or normalize(key) in words, key


def test_shared_type_defaults_point_at_known_types(types_json):
    assert set(_real(types_json["defaults"]).values()) <= set(_real(types_json["types"]))


def test_every_type_and_state_has_at_least_one_target(lexicons: LexiconSet):
    for type_id, spec in lexicons.types.types.items():
        assert spec.domains, type_id
    for state, tiers in lexicons.types.states.items():
        assert tiers and all(tiers), state


def test_a_lexicon_directory_can_be_loaded_explicitly(lexicons: LexiconSet):
    fresh = load_lexicons(LEXICON_DIR)
    assert set(fresh.lexicons) == set(lexicons.lexicons)


# ---- stemming -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("lights", "light"),
        ("batteries", "battery"),
        ("switches", "switch"),
        ("plugs", "plug"),
        ("boxes", "box"),
        ("blinds", "blind"),
        ("sensors", "sensor"),
    ],
)
def test_english_plurals_reduce_to_the_singular(en: Lexicon, word, stem):
    assert en.key(word) == stem


@pytest.mark.parametrize("word", ["gas", "glass", "status", "bus", "light", "is", "this"])
def test_words_that_only_look_plural_are_left_alone(en: Lexicon, word):
    assert en.key(word) == word


def test_plural_and_singular_of_a_type_word_mean_the_same(en: Lexicon):
    assert en.keys("the Lights") == en.keys("the light")


# ---- lookup ---------------------------------------------------------------------------------


def test_plural_type_word_reads_as_the_type(en: Lexicon):
    assert ("type", "light") in _lookup(en, "lights")
    assert ("type", "battery") in _lookup(en, "batteries")
    assert ("type", "switch") in _lookup(en, "switches")


def test_action_phrase_reads_as_the_action(en: Lexicon):
    assert ("action", "turn_on") in _lookup(en, "switch on")
    assert ("action", "turn_off") in _lookup(en, "turn off")


def test_inflected_verb_phrase_is_not_the_action(en: Lexicon):
    # "the hallway switches on at dusk" names switches; it is not the command "switch on".
    assert ("action", "turn_on") not in _lookup(en, "switches on")
    assert ("action", "turn_on") not in _lookup(en, "turns on")


@pytest.mark.parametrize(
    ("language", "phrase", "reading"),
    [
        ("en", "color temperature", ("action", "set_color")),
        ("en", "kelvin", ("value", "")),
        ("en", "speed", ("action", "set_fan_speed")),
        ("en", "out", ("particle", "turn_off")),  # "kitchen lights out"
        ("de", "zieltemperatur", ("type", "temperature")),
        ("de", "wiederhole", ("action", "media_previous")),
        ("ru", "цветовую температуру", ("action", "set_color")),
        ("ru", "всего", ("quant_all", "all")),
        ("ru", "в комнате", ("here", "")),
        ("zh", "哪一盏", ("action", "query")),
        ("zh", "多热", ("type", "temperature")),
        ("zh", "解除静音", ("action", "unmute")),
        ("fr", "combien fait-il", ("type", "temperature")),
    ],
)
def test_everyday_words_are_read(lexicons: LexiconSet, language: str, phrase: str, reading):
    assert reading in _lookup(lexicons.get(language), phrase)


def test_gas_is_a_type_not_a_plural(en: Lexicon):
    assert ("type", "gas") in _lookup(en, "gas")


def test_unknown_words_read_as_nothing(en: Lexicon):
    assert _lookup(en, "flibbertigibbet") == []


def test_chinese_words_are_found(lexicons: LexiconSet):
    zh = lexicons.get("zh")
    assert ("action", "turn_on") in _lookup(zh, "打开")
    assert ("type", "light") in _lookup(zh, "灯")
    assert ("type", "light") in _lookup(zh, "燈")  # Traditional


# ---- language detection ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("打开客厅的灯", "zh"),
        ("打開客廳的燈", "zh"),
        ("turn on the kitchen lights", "en"),
        ("what is the temperature in the bedroom", "en"),
        ("暂停客厅music", "zh"),
        ("pause the music in the living room", "en"),
    ],
)
def test_detect(lexicons: LexiconSet, text, language):
    assert lexicons.detect(text) == language


# Pairs of languages that share words ("la", "de", "luz", "die", "open"): each sentence must
# be told apart from its neighbour's on a few words.
CLOSE_PAIRS = [
    (("spegni la luce della cucina", "it"), ("apaga la luz de la cocina", "es")),
    (("accendi la luce", "it"), ("acende a luz", "pt")),
    (("desliga a luz da cozinha", "pt"), ("apaga la luz de la cocina", "es")),
    (("fecha a porta", "pt"), ("cierra la puerta", "es")),
    (("abre a janela", "pt"), ("abre la ventana", "es")),
    (("allume la lumière", "fr"), ("accendi la lampada", "it")),
    (("ferme les volets", "fr"), ("cierra las persianas", "es")),
    (("celui de la cuisine", "fr"), ("quella della cucina", "it")),
    (("zet het licht aan", "nl"), ("mach das Licht an", "de")),
    (("doe de lampen uit", "nl"), ("schalte die Lampen aus", "de")),
    (("die in de keuken", "nl"), ("die in der Küche", "de")),
    (("is de deur open", "nl"), ("ist die Tür offen", "de")),
    (("doe de lampen uit", "nl"), ("turn off the lamps", "en")),
    (("open het raam", "nl"), ("open the window", "en")),
    (("Licht an", "de"), ("lights on", "en")),
    (("włącz światło", "pl"), ("accendi la luce", "it")),
    (("zamknij wszystko", "pl"), ("chiudi tutto", "it")),
    (("qual é a temperatura", "pt"), ("qual è la temperatura", "it")),
    (("cuál es la temperatura", "es"), ("quelle est la température", "fr")),
]


@pytest.mark.parametrize(
    ("first", "second"), CLOSE_PAIRS, ids=lambda p: f"{p[1]}:{p[0]}" if isinstance(p, tuple) else p
)
def test_detect_tells_close_languages_apart(lexicons: LexiconSet, first, second):
    for text, language in (first, second):
        assert lexicons.detect(text) == language, text


@pytest.mark.parametrize(
    ("text", "home", "language"),
    [
        ("關閉客廳嘅燈", "zh-CN", "zh-hk"),  # 嘅 is Cantonese, whatever the home speaks
        ("开咗客厅嘅灯未", "zh-TW", "zh-hk"),
        ("打開客廳的燈", "zh-TW", "zh"),  # Traditional characters alone are still Mandarin
        ("打開客廳的燈", "zh-HK", "zh-hk"),  # …and standard written Chinese in Hong Kong
        ("打开客厅的灯", "zh-CN", "zh"),
    ],
)
def test_detect_tells_the_chinese_variants_apart(
    lexicons: LexiconSet, text: str, home: str, language: str
):
    assert lexicons.detect(text, fallback=home) == language


def test_a_word_every_neighbour_knows_does_not_outweigh_one_only_this_language_knows(
    lexicons: LexiconSet,
):
    # "de" and "la" are words of French, Spanish, Italian, Portuguese and Dutch; "celui" only
    # of French: the home speaking Portuguese does not make the French sentence Portuguese.
    assert lexicons.detect("celui de la cuisine", fallback="pt") == "fr"


def test_detect_falls_back_when_no_language_has_the_script(lexicons: LexiconSet):
    assert lexicons.detect("Ελληνικά φώτα", fallback="zh") == "zh"
    assert lexicons.detect("Ελληνικά φώτα") == lexicons.default_language


def test_detect_of_text_without_words_uses_the_fallback(lexicons: LexiconSet):
    assert lexicons.detect("", fallback="zh") == "zh"
    assert lexicons.detect("42", fallback="zh") == "zh"


# ---- picking a lexicon by language tag ------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("zh-CN", "zh"),
        ("zh_TW", "zh"),
        ("zh-Hant", "zh"),
        ("ZH", "zh"),
        ("en-US", "en"),
        ("en_GB", "en"),
        ("en", "en"),
    ],
)
def test_get_by_language_tag(lexicons: LexiconSet, tag, language):
    assert lexicons.get(tag).language == language


@pytest.mark.parametrize("tag", ["xx", "xx-YY", "", None])
def test_get_unknown_language_gives_the_default(lexicons: LexiconSet, tag):
    assert lexicons.get(tag).language == lexicons.default_language == "en"


def test_messages_fill_in_values_and_survive_missing_ones(lexicons: LexiconSet):
    zh = lexicons.get("zh")
    assert "卧室" in zh.message("option_area", name="台灯", area="卧室")
    # A template missing a value must not crash the conversation.
    assert isinstance(lexicons.get("en").message("option_area", name="Lamp"), str)
    assert lexicons.get("en").message("no_such_message") == ""


def test_function_words_come_from_the_lexicon_sections(lexicons: LexiconSet) -> None:
    """Determiners, conjunctions and prepositions tie a phrase together and name nothing;
    each token of a phrase of them counts ("de la" gives "de" and "la")."""
    es = lexicons.get("es").function_words
    assert {"de", "la", "el", "y"} <= es
    assert "lámpara" not in es
    assert "的" in lexicons.get("zh").function_words
    assert {"the", "of"} <= lexicons.get("en").function_words
    assert "light" not in lexicons.get("en").function_words


# ---- words learned from Home Assistant's intents, merged under the file's ------------------------


@pytest.mark.parametrize(
    ("hand", "dropped"),
    [
        (
            {"room_kinds": {"garage": ["车库"]}, "types": {"curtain": ["窗帘"]}},
            ["关闭车库的", "拉上窗帘"],
        ),
        ({"room_kinds": {"garage": ["车库"]}}, ["关闭车库的"]),
        ({"types": {"curtain": ["窗帘"]}}, ["拉上窗帘"]),
    ],
)
def test_a_learned_verb_holding_a_room_kind_or_a_type_word_is_not_learned(hand, dropped):
    """A learned "verb" holding a room-kind or type word of the file is a piece of a template's
    object, whichever of the two sections the file has."""
    learned = [{"actions": {"close": ["关闭车库的", "拉上窗帘", "关上"]}}]
    close = merge_learned_data({"language": "zh", **hand}, learned)["actions"]["close"]
    assert close == [w for w in ["关闭车库的", "拉上窗帘", "关上"] if w not in dropped]


@pytest.mark.parametrize(
    ("language", "reply", "meant"),
    [
        ("en", "yes", True),
        ("en", "yes please", True),
        ("en", "sure thing", True),  # the answer first, then more words
        ("es", "sí, ábrela", True),
        ("zh", "好的谢谢", True),
        ("zh", "嗯好的", True),  # a word of politeness before the answer
        ("en", "no", False),
        ("en", "no, leave it", False),
        ("es", "no la abras", False),
        ("zh", "不用了", False),
        ("zh", "嗯，不用了", False),
        # A hesitation before the answer, where the language lists "yes" among its fillers.
        ("en", "well yes", True),
        ("en", "uh, yes", True),
        ("en", "um no", False),
        ("en", "well, no thanks", False),
        ("de", "ähm nein", False),
        ("en", "well", None),  # a hesitation alone answers nothing
        ("en", "um", None),
        ("en", "yes no", None),  # both answers said: neither
        # Neither: a new request or a question is no answer to a confirmation.
        ("en", "what time is it", None),
        ("en", "open the garage door", None),
        ("en", "please", None),
        ("zh", "打开", None),
    ],
)
def test_a_reply_is_yes_no_or_neither(lexicons: LexiconSet, language, reply, meant):
    assert lexicons.get(language).yes_or_no(reply) is meant


@pytest.mark.parametrize(
    ("word", "expected"),
    [("10pm", True), ("7am", True), ("10", False), ("pm", False), ("10x", False), ("1pmx", False)],
)
def test_a_clock_time_is_digits_then_a_clock_word(lexicons: LexiconSet, word: str, expected: bool):
    assert lexicons.get("en").is_clock_time(word) is expected


@pytest.mark.parametrize(
    ("language", "words", "at", "expected"),
    [
        ("en", ["off", "later", "on"], 1, 2),
        ("en", ["off", "tomorrow"], 1, 1),
        ("en", ["later"], 0, 1),
        ("en", ["late"], 0, 0),
        ("zh", ["明", "天", "关", "灯"], 0, 2),
        ("zh", ["待", "会", "儿"], 0, 3),
        ("en", ["5", "pm"], 1, 0),
    ],
)
def test_words_for_another_time_are_read_longest_first(
    lexicons: LexiconSet, language: str, words: list[str], at: int, expected: int
):
    assert lexicons.get(language).later_at(words, at) == expected


def test_a_clock_word_after_a_number_is_read_as_time(lexicons: LexiconSet):
    en = lexicons.get("en")
    assert en.duration_at(["5", "pm"], 1) == 1
    assert en.duration_at(["5", "o'clock"], 1) == 1
    assert lexicons.get("zh").duration_at(["5", "点", "钟"], 1) == 2
