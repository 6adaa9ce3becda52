"""How answers are worded (issue 19): in the asker's language with the entities' aliases in it,
the room when names repeat, one and many told apart, the place said once."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core import DeviceIndex, LexiconSet
from custom_components.context_retrieval.core.questions.answer import answer
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import QueryResult, execute
from custom_components.context_retrieval.core.questions.plan import Filter
from custom_components.context_retrieval.core.questions.rows import StateRow
from tests.core.questions.conftest import BEDROOM, KITCHEN, LIVING, q, row
from tests.core.questions.test_safety import demo_rows

CEILINGS = {
    "light.living_room_ceiling",
    "light.kitchen_ceiling",
    "light.master_bedroom_ceiling",
    "light.guest_room_ceiling",
}


def lights_on(lexicons: LexiconSet, index: DeviceIndex, text: str) -> str:
    rows = [
        StateRow.from_device(
            index.device(r.entity_id),
            state="on" if r.entity_id in CEILINGS else ("off" if r.domain == "light" else r.state),
        )
        for r in demo_rows()
    ]
    compiled = compile_question(text, index, lexicons)
    assert compiled.confident and compiled.plan is not None
    result = execute(compiled.plan, rows, lexicons.types)
    return answer(compiled.plan, result, lexicons.get(compiled.language))


def test_repeated_names_are_said_with_their_rooms_in_the_askers_language(
    demo_index: DeviceIndex, lexicons: LexiconSet
) -> None:
    english = lights_on(lexicons, demo_index, "which lights are on")
    for room in ("living room", "kitchen", "master bedroom", "guest room"):
        assert f"ceiling light in the {room}" in english, english
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in english), english
    chinese = lights_on(lexicons, demo_index, "哪些灯开着")
    for room in ("客厅", "厨房", "主卧", "次卧"):
        assert f"{room}的吸顶灯" in chinese, chinese


def test_a_name_the_home_has_once_has_no_room(lexicons: LexiconSet) -> None:
    rows = [
        row("light.a", "on", "吸顶灯", area=KITCHEN, aliases=("ceiling light",)),
        row("light.b", "on", "台灯", area=BEDROOM, aliases=("desk lamp",)),
        row("light.c", "off", "吸顶灯", area=LIVING, aliases=("ceiling light",)),
    ]
    plan = q(Filter("domain", "eq", "light"), Filter("status", "eq", "on"))
    said = answer(plan, execute(plan, rows, lexicons.types), lexicons.get("en"))
    # One ceiling light is listed, but the home has two: which one, its room says; the
    # desk lamp is the only one.
    assert said == "2 devices: desk lamp and ceiling light in the Kitchen."
    # Two of them: each with its room.
    rows[2] = row("light.c", "on", "吸顶灯", area=LIVING, aliases=("ceiling light",))
    said = answer(plan, execute(plan, rows, lexicons.types), lexicons.get("en"))
    assert said == (
        "3 devices: desk lamp, ceiling light in the Kitchen and ceiling light in the Living Room."
    )


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("which lights are on upstairs", " upstairs"),
        ("which lights are on on the second floor", " on the second floor"),
        ("which lights are on in the kitchen", " in the kitchen"),
    ],
)
def test_the_status_word_is_not_the_places_preposition(
    demo_index: DeviceIndex, lexicons: LexiconSet, text: str, place: str
) -> None:
    compiled = compile_question(text, demo_index, lexicons)
    assert compiled.plan is not None
    assert compiled.plan.about.get("place") == place


def one(style: str, lex_name: str, lexicons: LexiconSet, **about: str) -> str:
    rows = [row("lock.side", "unlocked", "Side Door")]
    plan = q(Filter("domain", "eq", "lock"), about={"style": style, **about})
    result = QueryResult(
        rows=[{"entity_id": "lock.side", "name": "Side Door", "state": "unlocked"}],
        count=1,
        aggregate="list",
    )
    result.sources = {"lock.side": rows[0]}
    return answer(plan, result, lexicons.get(lex_name))


@pytest.mark.parametrize("language", ["en", "de", "fr", "es", "it", "nl", "pt", "pl"])
def test_one_is_not_said_as_many(lexicons: LexiconSet, language: str) -> None:
    said = one("yes_no_any", language, lexicons, subject="locks", status="unlocked")
    assert "1 locks" not in said and "1 devices" not in said and "Side Door" in said
    lex = lexicons.get(language)
    for key in ("q_yes_any", "q_avg", "q_sum", "q_list", "q_count"):
        assert lex.messages.get(f"{key}_one"), (language, key)


def test_averages_of_one_sensor_say_one_sensor(lexicons: LexiconSet) -> None:
    rows = [row("sensor.t", "21", "T", device_class="temperature", unit="°C")]
    plan = q(
        Filter("domain", "eq", "sensor"),
        aggregate="avg",
        measure="state",
        about={"style": "avg", "measure": "temperature"},
    )
    said = answer(plan, execute(plan, rows, lexicons.types), lexicons.get("en"))
    assert said == "The average temperature is 21 °C (1 sensor)."
    rows.append(row("sensor.u", "23", "U", device_class="temperature", unit="°C"))
    said = answer(plan, execute(plan, rows, lexicons.types), lexicons.get("en"))
    assert said == "The average temperature is 22 °C (2 sensors)."


@pytest.mark.parametrize(
    "language",
    ["en", "zh", "de", "fr", "es", "it", "nl", "pt", "pl", "ru", "ja", "ko"],
)
def test_every_language_can_say_it_cannot_tell(lexicons: LexiconSet, language: str) -> None:
    lex = lexicons.get(language)
    for key in ("q_nothing_found", "q_cannot_tell", "q_all_yes", "q_all_no", "q_item_state"):
        assert lex.messages.get(key), (language, key)


def test_a_contact_sensor_is_said_open_or_closed(lexicons: LexiconSet) -> None:
    rows = [row("binary_sensor.door", "off", "Door", device_class="door")]
    plan = q(
        Filter("entity_id", "eq", "binary_sensor.door"),
        expect="open",
        about={"style": "yes_no", "status": "open"},
    )
    result = execute(plan, rows, lexicons.types)
    assert answer(plan, result, lexicons.get("en")) == "No, Door: closed."
    assert answer(plan, result, lexicons.get("zh")) == "没有，Door现在关着。"
