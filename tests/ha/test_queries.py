"""Natural questions through Home Assistant: the services, the plan cache, the agent answering
questions itself, the model fallback, and recovery of a damaged cache."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import issue_registry as ir
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval import queries as queries_module
from custom_components.context_retrieval.const import DOMAIN
from custom_components.context_retrieval.core.questions.executor import QueryTimeout
from tests.ha.conftest import add_entity
from tests.ha.fakes import async_add_fake_agent, async_setup_integration, our_agent_id


async def call(hass: HomeAssistant, service: str, **data: Any) -> dict[str, Any]:
    return await hass.services.async_call(
        DOMAIN, service, data, blocking=True, return_response=True
    )


async def ask(hass: HomeAssistant, question: str, **data: Any) -> dict[str, Any]:
    return await call(hass, "natural_query", question=question, **data)


def listed(answer: dict[str, Any]) -> set[str]:
    return {row["entity_id"] for row in answer["raw"]["rows"]}


@pytest.fixture
async def lit(hass: HomeAssistant, home: dict[str, str]) -> None:
    """Two lights on, and the unexposed plug on too."""
    hass.states.async_set("light.living_lamp", "on", {"friendly_name": "落地灯"})
    hass.states.async_set("light.study_desk", "on", {"friendly_name": "台灯"})
    hass.states.async_set("switch.secret_plug", "on", {"friendly_name": "Secret Plug"})
    await hass.async_block_till_done()


async def test_a_question_is_answered_in_its_language_from_live_states(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry
) -> None:
    answer = await ask(hass, "哪些灯开着？")
    assert answer["success"] is True
    assert listed(answer) == {"light.living_lamp", "light.study_desk"}
    assert "落地灯" in answer["human"] and "台灯" in answer["human"]
    assert answer["language"] == "zh" and answer["cached"] is False
    assert answer["source"] == "deterministic" and answer["plan_id"]

    english = await ask(hass, "Which lights are on upstairs?")
    assert listed(english) == {"light.study_desk"}
    assert english["language"] == "en" and "台灯" in english["human"]


async def test_unexposed_entities_never_reach_an_answer(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry
) -> None:
    for question in ("书房有什么开着？", "哪些开关开着？", "what is on in the study?"):
        answer = await ask(hass, question)
        text = json.dumps(answer, ensure_ascii=False)
        assert "secret_plug" not in text and "Secret Plug" not in text, question


async def test_the_second_time_the_plan_comes_from_the_cache(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry
) -> None:
    first = await ask(hass, "哪些灯开着？")
    again = await ask(hass, "哪些灯开着")  # punctuation does not make a new question
    assert again["cached"] is True and again["source"] == "exact"
    assert again["plan_id"] == first["plan_id"] and again["plan"] == first["plan"]
    # The cached plan runs on the states of now, not of then.
    hass.states.async_set("light.study_desk", "off", {"friendly_name": "台灯"})
    now = await ask(hass, "哪些灯开着？")
    assert listed(now) == {"light.living_lamp"}
    stored = await call(hass, "get_query_plan", plan_id=first["plan_id"])
    assert stored["usage_count"] == 3 and stored["is_valid"] is True
    assert stored["last_result"]["count"] == 1 and "executed_at" in stored["last_result"]


async def test_a_similar_question_is_suggested_and_reused_only_when_it_names_the_same_things(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry
) -> None:
    first = await ask(hass, "which lights are on upstairs?")
    suggestions = await call(
        hass, "natural_query_suggest", question="which lights are on upstairs right now?"
    )
    assert suggestions["suggestions"][0]["id"] == first["plan_id"]
    assert suggestions["suggestions"][0]["similarity"] >= 0.8
    assert suggestions["suggestions"][0]["is_valid"] is True
    # Nearly the same words, but another floor: never answered with the upstairs plan.
    other = await ask(hass, "which lights are on downstairs?")
    assert other["plan_id"] != first["plan_id"]
    assert listed(other) == {"light.living_lamp"}
    none = await call(hass, "natural_query_suggest", question="卧室温度多少", threshold=0.99)
    assert none == {"high_confidence": False, "suggestions": []}


async def test_plans_can_be_listed_corrected_disabled_and_deleted(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry
) -> None:
    first = await ask(hass, "哪些灯开着？")
    plans = await call(hass, "list_query_plans")
    assert plans["total"] == 1 and plans["plans"][0]["id"] == first["plan_id"]

    # A hand-made plan replaces the compiled one: only the study's lights.
    study_only = {
        "version": 1,
        "where": [
            [
                {"field": "domain", "op": "eq", "value": "light"},
                {"field": "area", "op": "eq", "value": "书房"},
                {"field": "status", "op": "eq", "value": "on"},
            ]
        ],
    }
    updated = await call(hass, "update_query_plan", plan_id=first["plan_id"], plan=study_only)
    assert updated["plan"]["where"][0][1]["value"] == "书房"
    assert listed(await ask(hass, "哪些灯开着？")) == {"light.study_desk"}

    with pytest.raises(ServiceValidationError) as err:
        await call(
            hass,
            "update_query_plan",
            plan_id=first["plan_id"],
            plan={"where": [[{"field": "script", "op": "eq", "value": "x"}]]},
        )
    assert err.value.translation_key == "query_plan_invalid"
    # Why and where, for the panel to say in the user's language (issue 22).
    assert err.value.translation_placeholders is not None
    assert err.value.translation_placeholders["reason"] == "unknown_field"
    assert err.value.translation_placeholders["path"] == "where[0][0].field"
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "update_query_plan", plan_id=first["plan_id"], plan="{not json")
    assert err.value.translation_key == "query_plan_invalid"
    assert (err.value.translation_placeholders or {})["reason"] == "not_json"

    await call(hass, "update_query_plan", plan_id=first["plan_id"], is_valid=False)
    fresh = await ask(hass, "哪些灯开着？")
    assert fresh["cached"] is False  # a disabled plan is never served

    assert (await call(hass, "delete_query_plan", plan_id=first["plan_id"]))["deleted"]
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "get_query_plan", plan_id=first["plan_id"])
    assert err.value.translation_key == "query_plan_not_found"
    with pytest.raises(ServiceValidationError):
        await call(hass, "delete_query_plan", plan_id="nope")


async def test_a_plan_that_fails_when_run_is_marked_invalid(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await ask(hass, "哪些灯开着？")

    def too_slow(*args: Any, **kwargs: Any) -> Any:
        raise QueryTimeout("deadline")

    monkeypatch.setattr(queries_module, "execute", too_slow)
    failed = await ask(hass, "哪些灯开着？")
    assert failed["success"] is False and failed["error"] == "timeout"
    assert failed["human"] == "抱歉，查询用时太长了。"
    stored = await call(hass, "get_query_plan", plan_id=first["plan_id"])
    assert stored["is_valid"] is False and stored["last_error"] == "timeout"
    monkeypatch.undo()
    again = await ask(hass, "哪些灯开着？")
    assert again["success"] is True and again["cached"] is False


async def test_bad_questions_are_service_errors(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    for question, key in (("   ", "empty_text"),):
        with pytest.raises(ServiceValidationError) as err:
            await ask(hass, question)
        assert err.value.translation_key == key
    answer = await ask(hass, "🙂 \u202e")
    assert answer["success"] is False and answer["error"] == "not_understood"
    assert answer["human"]


class FakeModel:
    """An `LLMClient` answering with a fixed text, recording what it was asked."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.prompts: list[str] = []

    async def complete(self, system_prompt: str, user_text: str) -> str:
        self.prompts.append(user_text)
        return self.reply


async def test_a_question_the_rules_cannot_read_goes_to_the_model_and_its_plan_is_checked(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry
) -> None:
    queries = loaded_entry.runtime_data.queries
    question = "灯 gemütlich 开着没有"  # a word the rules do not know
    plan = {
        "version": 1,
        "where": [
            [
                {"field": "domain", "op": "eq", "value": "light"},
                {"field": "status", "op": "eq", "value": "on"},
            ]
        ],
        "aggregate": "count",
    }
    queries.llm = FakeModel(json.dumps({"plan": plan, "note": "数开着的灯"}))
    answer = await ask(hass, question)
    assert answer["success"] is True and answer["source"] == "llm"
    assert answer["raw"]["count"] == 2
    assert "客厅" in queries.llm.prompts[0]  # the home's rooms were in the prompt
    stored = await call(hass, "get_query_plan", plan_id=answer["plan_id"])
    assert stored["source"] == "llm"
    # Next time the model is not asked.
    queries.llm = FakeModel("must not be used")
    assert (await ask(hass, question))["cached"] is True
    assert queries.llm.prompts == []

    # A model answer that is not a valid plan is never run.
    queries.llm = FakeModel('{"plan": {"where": [[{"field": "service", "op": "call"}]]}}')
    answer = await ask(hass, "灯 wunderbar 开着没有")
    assert answer["success"] is False and answer["error"] == "not_understood"
    assert answer["human"] == "抱歉，我没弄明白这个问题要查什么。"


async def test_an_unsure_reading_is_not_answered_without_a_model(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry
) -> None:
    answer = await ask(hass, "which flux capacitors are humming?")
    assert answer["success"] is False and answer["error"] == "not_understood"
    assert answer["raw"] is None and answer["plan_id"] is None
    assert (await call(hass, "list_query_plans"))["total"] == 0  # nothing unsure is cached


async def test_the_agent_answers_questions_itself_and_forwards_commands(
    hass: HomeAssistant, lit: None
) -> None:
    agent_id, fake = await async_add_fake_agent(hass, reply="好的。")
    await async_setup_integration(hass, agent_id=agent_id)
    result = await conversation.async_converse(
        hass, "哪些灯开着？", None, Context(), "zh-cn", agent_id=our_agent_id(hass)
    )
    speech = result.response.speech["plain"]["speech"]
    assert "落地灯" in speech and "台灯" in speech
    assert fake.calls == []  # answered here, the downstream agent never asked
    result = await conversation.async_converse(
        hass, "打开客厅的吸顶灯", None, Context(), "zh-cn", agent_id=our_agent_id(hass)
    )
    assert len(fake.calls) == 1


async def test_with_answers_off_questions_go_downstream(hass: HomeAssistant, lit: None) -> None:
    agent_id, fake = await async_add_fake_agent(hass, reply="我去看看。")
    await async_setup_integration(hass, agent_id=agent_id, answer_questions=False)
    result = await conversation.async_converse(
        hass, "哪些灯开着？", None, Context(), "zh-cn", agent_id=our_agent_id(hass)
    )
    assert result.response.speech["plain"]["speech"] == "我去看看。"
    assert len(fake.calls) == 1


def _damage(path: Path) -> None:
    path.write_bytes(b"this is not a database" * 100)


async def test_a_damaged_cache_is_replaced_and_reported(
    hass: HomeAssistant, lit: None, query_db: Path
) -> None:
    _damage(query_db)
    entry = await async_setup_integration(hass)
    issue = ir.async_get(hass).async_get_issue(DOMAIN, "query_store_recovered")
    assert issue is not None
    assert entry.runtime_data.queries.store is not None
    answer = await ask(hass, "哪些灯开着？")
    assert answer["success"] is True and answer["plan_id"]
    assert [p for p in query_db.parent.iterdir() if ".corrupt" in p.name]


async def test_readings_on_a_real_instance_skip_unavailable_and_convert_units(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    await add_entity(
        hass,
        "sensor.living_temp",
        "客厅温度",
        "22.0",
        home["living"],
        device_class="temperature",
        unit_of_measurement="°C",
    )
    await add_entity(
        hass,
        "sensor.bedroom_temp",
        "主卧温度",
        "77.0",
        home["bedroom"],
        device_class="temperature",
        unit_of_measurement="°F",
    )  # 25 °C
    await add_entity(
        hass,
        "sensor.study_temp",
        "书房温度",
        "unavailable",
        home["study"],
        device_class="temperature",
        unit_of_measurement="°C",
    )
    await add_entity(
        hass,
        "sensor.kitchen_temp",
        "厨房温度",
        "warm-ish",
        home["kitchen"],
        device_class="temperature",
        unit_of_measurement="°C",
    )
    await async_setup_integration(hass)
    average = await ask(hass, "家里平均温度是多少？")
    assert average["success"] is True, average
    assert average["raw"]["value"] == pytest.approx(23.5)  # (22 + 25) / 2
    assert average["raw"]["unit"] == "°C" and average["raw"]["skipped"] == 2
    assert "23.5 °C" in average["human"]
    hottest = await ask(hass, "which room is the warmest?")
    assert hottest["raw"]["best"]["entity_id"] == "sensor.bedroom_temp"
    above = await ask(hass, "哪些房间温度超过23度？")
    assert listed(above) == {"sensor.bedroom_temp"}
    offline = await ask(hass, "书房温度多少")
    assert offline["success"] is True and "不可用" in offline["human"]
    unavailable = await ask(hass, "哪些设备不可用？")
    assert listed(unavailable) == {"sensor.study_temp"}


async def test_cache_order_exact_then_similar_then_full_text(
    hass: HomeAssistant, lit: None, home: dict[str, str]
) -> None:
    # A low reuse threshold: the slots, not the wording, decide what may be reused.
    entry = await async_setup_integration(hass, query_auto_use=0.6, query_suggest=0.5)
    queries = entry.runtime_data.queries
    assert queries.auto_use == 0.6
    first = await ask(hass, "which lights are on upstairs?")
    exact = await ask(hass, "Which lights are on upstairs")
    assert exact["source"] == "exact" and exact["similarity"] == 1.0
    similar = await ask(hass, "which lights are on upstairs right now?")
    assert similar["source"] == "similar" and similar["plan_id"] == first["plan_id"]
    assert 0.6 <= similar["similarity"] < 1.0 and similar["high_confidence"] is True

    # Wording far enough apart that the vectors miss, with the same slots: full text finds it.
    queries.auto_use = 0.999
    far = await ask(hass, "hey could you tell me which lights are on upstairs right now please")
    assert far["source"] == "full_text" and far["plan_id"] == first["plan_id"]

    # The same words about another floor are never served the upstairs plan by any path.
    other = await ask(hass, "which lights are on downstairs right now?")
    assert other["source"] == "deterministic" and other["plan_id"] != first["plan_id"]
    stored = await call(hass, "get_query_plan", plan_id=first["plan_id"])
    assert stored["usage_count"] == 4


async def test_a_command_said_as_a_question_is_refused_and_never_stored(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry
) -> None:
    """Issue 22: "turn on the kitchen light" was answered (and saved as a valid plan); no
    source may answer an order, not even a model that would return a plan for it."""
    queries = loaded_entry.runtime_data.queries
    plan = {"where": [[{"field": "domain", "op": "eq", "value": "light"}]]}
    queries.llm = FakeModel(json.dumps({"plan": plan}))
    for question, language, said in (
        ("turn on the living room light", "en", "That sounds like a command"),
        ("打开客厅灯", "zh", "这听起来是一条指令"),
        ("Schalte das Licht im Wohnzimmer ein", "de", "Das klingt nach einem Befehl"),
    ):
        answer = await ask(hass, question, language=language)
        assert answer["success"] is False and answer["error"] == "command", question
        assert answer["human"].startswith(said), answer["human"]
        assert answer["plan_id"] is None and answer["raw"] is None
    assert queries.llm.prompts == []
    assert (await call(hass, "list_query_plans"))["total"] == 0
    # The same words as a question are answered.
    assert (await ask(hass, "Are the living room lights on?"))["success"] is True


async def test_a_question_being_typed_is_completed_by_the_questions_it_begins(
    hass: HomeAssistant, lit: None, loaded_entry: MockConfigEntry
) -> None:
    """Issue 22: typing "which door" suggested nothing, however often "which doors are
    unlocked?" had been asked (a half-typed question is far from the whole by vectors)."""
    english = await ask(hass, "Which doors are unlocked?")
    chinese = await ask(hass, "哪些门没锁？")
    assert english["success"] and chinese["success"]
    for typed, wanted in (("which door", english), ("哪些门", chinese), ("门没", chinese)):
        found = await call(hass, "natural_query_suggest", question=typed)
        assert [s["id"] for s in found["suggestions"]][:1] == [wanted["plan_id"]], typed
    # Words it does not hold complete nothing.
    found = await call(hass, "natural_query_suggest", question="which windows")
    assert english["plan_id"] not in {s["id"] for s in found["suggestions"]}
