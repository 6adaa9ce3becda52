"""core/base/intents_lexicon.py and LexiconSet.learn: lexicons learned from intent data.

The intent data here is written for the tests (a tiny "Italian" with a few intents), so every
expectation follows from data the test shows; one test reads the real installed package.
"""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.context_retrieval.core import Area, Device, DeviceIndex, retrieve
from custom_components.context_retrieval.core.base.intents_lexicon import (
    TemplateError,
    learn_data,
    learnable,
    learned_sections,
    parse_template,
)
from custom_components.context_retrieval.core.base.lexicon import (
    LexiconSet,
    load_lexicons,
    merge_learned_data,
)

INTENTS: dict[str, Any] = {
    "language": "xx",
    "skip_words": ["per favore"],
    "expansion_rules": {
        "turn_on": "(accend(i|ere)|attiva)",
        "turn_off": "(spegn(i|ere)|disattiva)",
        "in": "(in|ne(l|lla))",
        "the": "(il|la|le)",
        "area": "[<the>] {area}",
        "name": "[<the>] {name}",
    },
    "lists": {
        "on_off_domains": {
            "values": [{"in": "luc(e|i)", "out": "light"}, {"in": "ventilator(e|i)", "out": "fan"}]
        },
        "cover_classes": {"values": [{"in": "tapparell(a|e)", "out": "shutter"}]},
        "color": {"values": [{"in": "rosso", "out": "red"}]},
    },
    "intents": {
        "HassTurnOn": {
            "data": [
                {"sentences": ["<turn_on> <name> [<in> <area>]", "<turn_on> le luci <in> <area>"]},
                {"sentences": ["apri <name>"], "requires_context": {"domain": "cover"}},
            ]
        },
        "HassTurnOff": {
            "data": [
                {
                    "sentences": [
                        "<turn_off> <name> [<in> <area>]",
                        "<turn_off> le luci <in> <area>",
                    ]
                },
                {"sentences": ["chiudi <name>"], "slots": {"domain": "cover"}},
            ]
        },
        "HassGetState": {
            "data": [
                {"sentences": ["quante luci sono accese <in> <area>", "quale <name> è acceso"]}
            ]
        },
        "HassMediaPause": {"data": [{"sentences": ["pausa <name>"]}]},
    },
}


# ---- the template syntax ----------------------------------------------------------------------


def test_template_alternatives_optionals_rules_and_lists():
    node = parse_template("accend(i|ere) [la] <name> {area:room}")
    kinds = [item[0] for item in node[1]]
    assert kinds == ["text", "alt", "text", "alt", "text", "rule", "text", "list"]
    assert node[1][3][2] is True  # [la] is optional
    assert node[1][7] == ("list", "area")  # the slot name after ":" is not the list


def test_template_permutation_and_bare_top_level_alternative():
    assert parse_template("(a;b)")[1][0][0] == "perm"
    top = parse_template("uno|due")
    assert top[0] == "alt" and len(top[1]) == 2


@pytest.mark.parametrize("bad", ["(a|b", "a)b", "<rule", "[a"])
def test_broken_templates_are_refused(bad: str):
    with pytest.raises(TemplateError):
        parse_template(bad)


# ---- learning from intent data -----------------------------------------------------------------


@pytest.fixture(scope="module")
def learned() -> dict[str, Any]:
    return learn_data(INTENTS)


def test_slot_lists_give_type_and_colour_words(learned: dict[str, Any]):
    assert {"luce", "luci"} <= set(learned["types"]["light"])
    assert {"ventilatore", "ventilatori"} <= set(learned["types"]["fan"])
    assert {"tapparella", "tapparelle"} <= set(learned["types"]["shutter"])
    assert "rosso" in learned["actions"]["set_color"]


def test_a_word_of_one_intent_is_its_verb(learned: dict[str, Any]):
    actions = learned["actions"]
    assert {"accendi", "accendere", "attiva"} <= set(actions["turn_on"])
    assert {"spegni", "spegnere", "disattiva"} <= set(actions["turn_off"])
    assert "apri" in actions["open"] and "chiudi" in actions["close"]  # by the cover domain
    assert "pausa" in actions["media_pause"]
    assert "quante" in actions["query"]


def test_words_before_places_are_prepositions(learned: dict[str, Any]):
    assert {"in", "nel", "nella"} <= set(learned["area_prepositions"])
    # "luci" stands before "in" but is a type word, never a preposition.
    assert "luci" not in learned["area_prepositions"]


def test_words_shared_by_opposite_intents_are_not_verbs(learned: dict[str, Any]):
    verbs = {w for words in learned["actions"].values() for w in words}
    assert "le" not in verbs and "in" not in verbs


def test_skip_words_are_fillers(learned: dict[str, Any]):
    assert "per favore" in learned["fillers"]
    assert "per favore" in learned["request_markers"]


def test_two_letters_are_not_enough_for_a_learned_verb():
    data = {
        **INTENTS,
        "intents": {
            "HassTurnOn": {"data": [{"sentences": ["zu <name>"]}]},
            "HassTurnOff": {"data": [{"sentences": ["ab <name>"]}]},
        },
    }
    actions = learn_data(data).get("actions", {})
    assert "turn_on" not in actions and "turn_off" not in actions


# ---- merging under the hand-written layer -------------------------------------------------------


def test_hand_written_words_keep_their_meaning():
    hand = {"language": "xx", "everywhere": ["the room"], "fillers": ["in"]}
    learned = {"here": ["in the room", "right here"], "area_prepositions": ["in", "nel"]}
    merged = merge_learned_data(hand, [learned])
    assert merged["here"] == ["right here"]  # "in the room" would outvote "the room"
    assert merged["area_prepositions"] == ["nel"]  # "in" is the file's filler
    assert hand == {"language": "xx", "everywhere": ["the room"], "fillers": ["in"]}


def test_a_file_can_narrow_what_learned_words_add():
    hand = {"language": "xx", "fillers": ["the"], "learn_sections": ["fillers"]}
    merged = merge_learned_data(hand, [{"fillers": ["uh"], "types": {"light": ["luce"]}}])
    assert merged["fillers"] == ["the", "uh"]
    assert "types" not in merged
    assert merge_learned_data({**hand, "learn_sections": []}, [{"fillers": ["uh"]}])["fillers"] == [
        "the"
    ]


def _fake_set(calls: list[str], code: str = "xx") -> LexiconSet:
    def learner(asked: str) -> dict[str, Any] | None:
        calls.append(asked)
        return learn_data(INTENTS) if asked == code else None

    return load_lexicons(learner=learner, learnable=lambda: (code,))


def test_a_language_without_a_file_works_from_learned_words_alone():
    calls: list[str] = []
    lexicons = _fake_set(calls)
    devices = [
        Device("light.cucina", "Plafoniera", "light", area_id="cucina"),
        Device("light.sala", "Lampada", "light", area_id="sala"),
        Device("fan.cucina", "Ventola", "fan", area_id="cucina"),
    ]
    areas = [Area("cucina", "Cucina"), Area("sala", "Sala")]
    index = DeviceIndex.build(devices, areas, lexicons=lexicons, language="xx")
    assert lexicons.get("xx").language == "xx"
    results = retrieve("spegni le luci nella cucina", index, language="xx")
    assert [r.ir.action for r in results] == ["turn_off"]
    assert {e for r in results for e in r.selected_ids} == {"light.cucina"}
    # Messages come from the default language until the language has a file.
    assert lexicons.get("xx").messages["clarify"] == lexicons.get("en").messages["clarify"]


def test_learning_is_cached_per_language():
    calls: list[str] = []
    lexicons = _fake_set(calls)
    first = lexicons.learn("xx")
    assert lexicons.learn("XX") is first
    assert calls == ["xx"]


def test_without_a_learner_learn_is_get():
    lexicons = load_lexicons()
    assert lexicons.learn("it") is lexicons.get("it")
    assert lexicons.learn("sv").language == lexicons.get("sv").language == "en"


def test_learned_words_do_not_sway_language_detection():
    # Spanish has a file; words learned on top of it must not make Italian look Spanish.
    calls: list[str] = []
    lexicons = _fake_set(calls, code="es")
    before = lexicons.detect("spegni le luci nella cucina", fallback="en")
    lexicons.learn("es")
    assert "spegni" in {
        w for ws in lexicons.sources["es"]["actions"].values() for w in ws
    } or lexicons.get("es").lookup((lexicons.get("es").key("spegni"),))
    assert lexicons.detect("spegni le luci nella cucina", fallback="en") == before


# ---- the installed intent data -------------------------------------------------------------------


def test_real_intent_data_teaches_italian():
    pytest.importorskip("home_assistant_intents")
    if not learnable("it"):
        pytest.skip("the installed intent data has no Italian")
    sections = learned_sections("it")
    assert sections is not None
    assert "spegni" in sections["actions"]["turn_off"]
    assert "accendi" in sections["actions"]["turn_on"]
    assert "nella" in sections["area_prepositions"]
    assert "finestra" in sections["types"]["window"]
