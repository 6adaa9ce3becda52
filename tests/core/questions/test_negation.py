"""Issue 22: a negated status word asks about the opposite status in every language that
writes its negation before the word ("no está bloqueada", "nicht verriegelt", "not locked",
"没关"), and a status word that is also a detector's name asks those detectors ("有没有漏水"
is not "is any binary sensor on")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from custom_components.context_retrieval.core import DeviceIndex, LexiconSet, load_home
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import execute
from custom_components.context_retrieval.core.questions.rows import StateRow
from tests.core.conftest import DEMO_HOME

HOMES = DEMO_HOME.parents[1] / "tests" / "data" / "homes"


def _ask(home_path, states: dict[str, str], question: str, lexicons: LexiconSet, lang: str):
    home = load_home(home_path)
    devices = [replace(d, state=states.get(d.entity_id, d.state)) for d in home.devices]
    index = DeviceIndex.build(devices, home.areas, home.floors, language=home.language)
    compiled = compile_question(question, index, lexicons, lang)
    assert compiled.plan is not None and compiled.confident, compiled.as_dict()
    rows = [StateRow.from_device(d) for d in devices]
    return compiled, execute(compiled.plan, rows, lexicons.types)


@pytest.mark.parametrize(
    ("home", "lang", "question", "states", "want"),
    [
        ("demo", "en", "Which doors are not locked?", {}, {"lock.garage_side_door"}),
        ("demo", "zh", "哪个门没上锁？", {}, {"lock.garage_side_door"}),
        ("demo", "zh", "哪些窗户没关", {}, {"binary_sensor.master_bedroom_window"}),
        (
            "home_es",
            "es",
            "¿Qué puerta no está bloqueada?",
            {"lock.puerta_principal": "unlocked"},
            {"lock.puerta_principal"},
        ),
        (
            "home_de",
            "de",
            "Welche Fenster sind nicht geschlossen?",
            {"binary_sensor.kinderzimmer_fenster": "on"},
            {"binary_sensor.kinderzimmer_fenster"},
        ),
        (
            "home_fr",
            "fr",
            "Quelles fenêtres ne sont pas fermées ?",
            {"binary_sensor.enfant_fenetre": "on"},
            {"binary_sensor.enfant_fenetre"},
        ),
    ],
)
def test_a_negated_status_asks_the_opposite(
    lexicons: LexiconSet,
    home: str,
    lang: str,
    question: str,
    states: dict[str, str],
    want: set[str],
) -> None:
    path = DEMO_HOME if home == "demo" else HOMES / f"{home}.json"
    _, result = _ask(path, states, question, lexicons, lang)
    assert {r["entity_id"] for r in result.rows} == want


def test_a_leak_question_asks_the_leak_sensors_only(lexicons: LexiconSet) -> None:
    # The master bedroom window is open (on) in the demo home: it is no leak.
    for question in ("有没有漏水", "家里漏水了吗？"):
        _, result = _ask(DEMO_HOME, {}, question, lexicons, "zh")
        assert result.count == 0, question
        _, wet = _ask(DEMO_HOME, {"binary_sensor.bathroom_leak": "on"}, question, lexicons, "zh")
        assert {r["entity_id"] for r in wet.rows} == {"binary_sensor.bathroom_leak"}, question


@pytest.mark.parametrize(
    ("lang", "question"),
    [("en", "Did anyone forget to lock a door?"), ("zh", "有没有哪个门忘了锁")],
)
def test_forgetting_to_lock_asks_what_is_unlocked(
    lexicons: LexiconSet, lang: str, question: str
) -> None:
    compiled, result = _ask(
        DEMO_HOME,
        {"lock.front_door": "unlocked", "lock.garage_side_door": "locked"},
        question,
        lexicons,
        lang,
    )
    assert {r["entity_id"] for r in result.rows} == {"lock.front_door"}
    assert compiled.plan is not None and compiled.plan.about.get("style") != "yes_no_all"


@pytest.mark.parametrize(
    ("home", "lang", "question", "states", "negated_word"),
    [
        (
            "home_nl",
            "nl",
            "Welke deuren zijn niet vergrendeld?",
            {"lock.voordeur": "unlocked"},
            "(vergrendeld)",
        ),
        (
            "home_pt",
            "pt",
            "Quais portas não estão trancadas?",
            {"lock.porta_frente": "unlocked"},
            "(trancadas)",
        ),
    ],
)
def test_the_answer_says_the_status_found_not_the_word_negated(
    lexicons: LexiconSet,
    home: str,
    lang: str,
    question: str,
    states: dict[str, str],
    negated_word: str,
) -> None:
    from custom_components.context_retrieval.core.questions.answer import answer

    compiled, result = _ask(HOMES / f"{home}.json", states, question, lexicons, lang)
    assert result.count == 1
    assert compiled.plan is not None
    said = answer(compiled.plan, result, lexicons.get(lang))
    assert negated_word not in said, said
