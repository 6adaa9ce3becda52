"""core/base/intents_lexicon.py and LexiconSet.learn: lexicons learned from intent data.

The intent data here is written for the tests (a tiny "Italian" with a few intents), so every
expectation follows from data the test shows; one test reads the real installed package.
"""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.context_retrieval.core import Area, Device, DeviceIndex, retrieve
from custom_components.context_retrieval.core.base.intents_lexicon import (
    learn_data,
    learnable,
    learned_sections,
)
from custom_components.context_retrieval.core.base.lexicon import (
    LexiconSet,
    load_lexicons,
    merge_learned_data,
)
from tests.core.conftest import make_device

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


def _all_words(sections: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for value in sections.values():
        if isinstance(value, dict):
            for words in value.values():
                out.update(words)
        else:
            out.update(value)
    return out


def _with_intents(intents: dict[str, Any], **rules: str) -> dict[str, Any]:
    return {
        **INTENTS,
        "expansion_rules": {**INTENTS["expansion_rules"], **rules},
        "intents": intents,
    }


def test_the_parts_of_a_permutation_are_separate_words():
    data = _with_intents(
        {
            "HassTurnOn": {"data": [{"sentences": ["(accendi <name>;subito)", "accendi <name>"]}]},
            "HassTurnOff": {"data": [{"sentences": ["(spegni <name>;subito)", "spegni <name>"]}]},
        }
    )
    learned = learn_data(data)
    words = _all_words(learned)
    assert "subitoaccendi" not in words and "subitospegni" not in words
    assert "accendi" in learned["actions"]["turn_on"]


def test_a_short_piece_glued_before_a_whole_word_is_its_own_word():
    # "[fa(i|re)](accendi)" reads "fai accendi", not "faiaccendi"; endings still glue on.
    data = _with_intents(
        {
            "HassTurnOn": {"data": [{"sentences": ["[fa(i|re)](accendi) <name>"]}]},
            "HassTurnOff": {"data": [{"sentences": ["spegn(i|ere) <name>"]}]},
        }
    )
    learned = learn_data(data)
    words = _all_words(learned)
    assert not any(w.startswith(("faiaccend", "fareaccend")) for w in words)
    assert "accendi" in learned["actions"]["turn_on"]
    assert {"spegni", "spegnere"} <= set(learned["actions"]["turn_off"])


def test_the_room_noun_of_a_here_phrase_is_not_here_on_its_own():
    data = _with_intents(
        {
            "HassTurnOn": {
                "data": [
                    {
                        "sentences": ["accendi le luci <here>", "accendi <here> le luci"],
                        "requires_context": {"area": {"slot": True}},
                    },
                    {"sentences": ["accendi <name>"]},
                ]
            },
            "HassTurnOff": {
                "data": [
                    {
                        "sentences": ["spegni le luci <here>", "spegni <here> le luci"],
                        "requires_context": {"area": {"slot": True}},
                    },
                    {"sentences": ["spegni <name>"]},
                ]
            },
        },
        here="(qui|in questa camera)",
    )
    here = learn_data(data)["here"]
    assert "in questa camera" in here and "qui" in here
    assert "camera" not in here


def _here_intents(here_rule: str) -> dict[str, Any]:
    """Sentences for the satellite's room, where "here" is said by the rule `here_rule`."""
    area = {"requires_context": {"area": {"slot": True}}}
    return _with_intents(
        {
            "HassTurnOn": {
                "data": [
                    {"sentences": [f"accendi le luci <{here_rule}> dove mi trovo"], **area},
                    {"sentences": [f"accendi tutte le luci <{here_rule}> dove mi trovo"], **area},
                    {"sentences": ["accendi <name>"]},
                ]
            },
            "HassTurnOff": {
                "data": [
                    {"sentences": [f"spegni le luci <{here_rule}> dove mi trovo"], **area},
                    {"sentences": [f"spegni tutte le luci <{here_rule}> dove mi trovo"], **area},
                    {"sentences": ["spegni <name>"]},
                ]
            },
        },
        **{here_rule: "(qua|in questa camera)"},
    )


def test_once_a_rule_says_here_the_other_words_of_its_sentences_are_not_here():
    # "ici" is a rule name the map knows: "mi trovo" of those sentences is no "here".
    here = learn_data(_here_intents("ici"))["here"]
    assert "qua" in here and "in questa camera" in here
    assert not {"mi", "trovo", "dove"} & set(here)


def test_without_a_rule_for_here_the_sentences_still_teach_it():
    # An unknown rule name: the words of the satellite-room sentences are the evidence.
    here = learn_data(_here_intents("qui_dentro"))["here"]
    assert "qua" in here


def test_the_subject_of_one_question_intent_is_no_question_word():
    data = _with_intents(
        {
            "HassGetWeather": {"data": [{"sentences": ["com'è il vento", "dimmi il vento oggi"]}]},
            "HassGetState": {"data": [{"sentences": ["quante luci sono accese <in> <area>"]}]},
            "HassTurnOn": {"data": [{"sentences": ["accendi <name>"]}]},
        }
    )
    query = learn_data(data)["actions"]["query"]
    assert "vento" not in query
    assert "quante" in query  # opens a question


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
    assert index.lexicons.get("xx").language == "xx"
    results = retrieve("spegni le luci nella cucina", index, language="xx")
    assert [r.ir.action for r in results] == ["turn_off"]
    assert {e for r in results for e in r.selected_ids} == {"light.cucina"}
    # Messages come from the default language until the language has a file.
    read = index.lexicons
    assert read.get("xx").messages["clarify"] == read.get("en").messages["clarify"]


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
    learned = lexicons.with_learned("es")
    es = learned.get("es")
    assert es.lookup((es.key("spegni"),))  # the learned verb is read…
    assert learned.detect("spegni le luci nella cucina", fallback="en") == before  # …not weighed


def test_learning_leaves_the_set_it_was_asked_of_unchanged():
    # Whoever holds the bundled set (another home, another test) never sees learned words.
    calls: list[str] = []
    lexicons = _fake_set(calls, code="es")
    hand_written = lexicons.get("es")
    learned = lexicons.with_learned("es")
    assert learned.get("es") is not hand_written
    assert lexicons.get("es") is hand_written
    assert not hand_written.lookup((hand_written.key("spegni"),))
    # Learned once: a second home in the same language reuses it.
    assert lexicons.with_learned("es").get("es") is learned.get("es")
    assert calls == ["es"]


def test_an_index_reads_with_its_language_learned_and_others_do_not_see_it():
    calls: list[str] = []
    lexicons = _fake_set(calls, code="es")
    devices = [Device("light.cocina", "Lámpara", "light", area_id="cocina")]
    index = DeviceIndex.build(devices, [Area("cocina", "Cocina")], lexicons=lexicons, language="es")
    es = index.lexicons.get("es")
    assert es.lookup((es.key("spegni"),))
    assert not lexicons.get("es").lookup((lexicons.get("es").key("spegni"),))
    other = DeviceIndex.build(devices, [Area("cocina", "Cocina")], lexicons=lexicons, language="en")
    assert other.lexicons.get("es") is lexicons.get("es")


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


@pytest.mark.parametrize(
    ("language", "here", "not_here"),
    [
        ("fr", "ici", {"se", "trouve", "situe", "même", "suis"}),
        ("es", "aquí", {"pieza", "sala", "re", "cuarto"}),
    ],
)
def test_real_intent_data_says_here_by_its_rule(language, here, not_here):
    pytest.importorskip("home_assistant_intents")
    if not learnable(language):
        pytest.skip(f"the installed intent data has no {language}")
    sections = learned_sections(language)
    assert sections is not None
    assert here in sections["here"]
    assert not not_here & set(sections["here"])


def test_what_the_real_here_rules_mean_for_a_request():
    pytest.importorskip("home_assistant_intents")
    if not (learnable("fr") and learnable("es")):
        pytest.skip("the installed intent data lacks French or Spanish")
    salon, cuisine = Area("salon", "Salon"), Area("cuisine", "Cuisine")
    fr_home = DeviceIndex.build(
        [
            make_device("person.jeanne", "Jeanne"),
            make_device("light.salon", "Plafonnier", salon),
            make_device("light.cuisine", "Suspension", cuisine),
        ],
        [salon, cuisine],
        language="fr",
    )
    # "se trouve" is no "here": where Jeanne is, asked from the kitchen.
    found = retrieve("où se trouve Jeanne", fr_home, language="fr", context_area="cuisine")
    assert not found[0].ir.here
    assert found[0].selected_ids == ["person.jeanne"]
    sala, cocina = Area("sala", "Sala"), Area("cocina", "Cocina")
    es_home = DeviceIndex.build(
        [make_device("fan.sala", "Abanico", sala), make_device("fan.cocina", "Ventilador", cocina)],
        [sala, cocina],
        language="es",
    )
    # "la pieza" is the room the user is in; a room of the home called "Sala" stays itself.
    here = retrieve(
        "desconecta los abanicos de la pieza", es_home, language="es", context_area="cocina"
    )
    assert here[0].ir.here and here[0].selected_ids == ["fan.cocina"]
    there = retrieve("apaga los abanicos de la sala", es_home, language="es", context_area="cocina")
    assert there[0].selected_ids == ["fan.sala"]


def test_a_learned_verb_holding_a_room_or_kind_word_is_no_verb() -> None:
    """ "关闭车库的" is a piece of "关闭车库的门" holding the kind word 车库: not learned as a
    verb. A kind word of one character ("灯") is in too many words to tell anything, and a
    learned verb holding it stays ("开灯" is learned)."""
    hand = {"language": "zh", "types": {"garage_door": ["车库"], "light": ["灯"]}}
    learned = [{"actions": {"close": ["关闭车库的", "关上"], "turn_on": ["开灯"]}}]
    actions = merge_learned_data(hand, learned)["actions"]
    assert actions["close"] == ["关上"]
    assert actions["turn_on"] == ["开灯"]


def test_a_state_word_that_also_says_on_or_off_never_narrows_to_covers():
    lists = {
        **INTENTS["lists"],
        "on_off_states": {"values": [{"in": "aperto", "out": "on"}]},
        "cover_states": {
            "values": [{"in": "aperto", "out": "open"}, {"in": "spalancata", "out": "open"}]
        },
    }
    learned = learn_data({**INTENTS, "lists": lists})
    # A cover-only word is a state word; the one the on/off list shares is not ...
    assert learned["states"]["open_closed"] == ["spalancata"]
    # ... though it still answers "is it open?" and "is it on?".
    assert {"aperto", "spalancata"} <= set(learned["question_status"]["open"])
    assert "aperto" in learned["question_status"]["on"]


def test_two_han_characters_are_a_word_to_learn_and_one_is_not():
    sentences = {
        "HassTurnOn": ["打开<name><please>"],
        "HassTurnOff": ["关闭<name><please>"],
        "HassMediaPause": ["暂停<name><please>"],
        "HassGetState": ["查看<name><please>"],
    }
    intents = {k: {"data": [{"sentences": v}]} for k, v in sentences.items()}
    rules = {"please": "请", "name": "{name}"}
    learned = learn_data({"language": "zz", "expansion_rules": rules, "intents": intents})
    assert "打开" in learned["actions"]["turn_on"]
    assert "关闭" in learned["actions"]["turn_off"]
    # "请" (please) ends the sentences of four intents, but one character says too little.
    assert "请" not in _all_words(learned)


def test_the_word_opening_a_sentence_before_its_place_is_a_preposition():
    data = _with_intents(
        {
            "HassTurnOn": {"data": [{"sentences": ["dentro {area} accendi {name}"]}]},
            "HassTurnOff": {"data": [{"sentences": ["dentro {area} spegni {name}"]}]},
        }
    )
    assert "dentro" in learn_data(data)["area_prepositions"]


def _sentences(**by_intent: list[str]) -> dict[str, Any]:
    return _with_intents({k: {"data": [{"sentences": v}]} for k, v in by_intent.items()})


def test_a_noun_of_three_media_commands_is_a_media_word_and_of_two_is_not():
    three = learn_data(
        _sentences(
            HassMediaPause=["pausa <name> musica"],
            HassMediaNext=["avanti <name> musica"],
            HassMediaPrevious=["indietro <name> musica"],
        )
    )
    assert "musica" in three["media_words"]
    two = learn_data(
        _sentences(HassMediaPause=["pausa <name> musica"], HassMediaNext=["avanti <name> musica"])
    )
    assert "musica" not in _all_words(two)


def test_a_verb_shared_by_setting_commands_sets():
    learned = learn_data(
        _sentences(HassLightSet=["regola <name>"], HassSetPosition=["regola <name>"])
    )
    assert "regola" in learned["actions"]["set"]


def test_a_word_spread_over_four_intents_is_a_function_word():
    learned = learn_data(
        _sentences(
            HassTurnOn=["accendi <name> subito"],
            HassTurnOff=["spegni <name> subito"],
            HassMediaPause=["pausa <name> subito"],
            HassGetState=["quanto <name> subito"],
        )
    )
    assert "subito" in learned["fillers"]
    # A word that already means something is not made a function word by its spread.
    assert "accendi" not in learned["fillers"]


def test_a_word_before_a_number_in_half_its_sentences_is_a_function_word():
    learned = learn_data(
        _sentences(
            HassLightSet=["imposta <name> circa {brightness}"], HassTurnOn=["accendi <name> circa"]
        )
    )
    assert "circa" in learned["fillers"]
