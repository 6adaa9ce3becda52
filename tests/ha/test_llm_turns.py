"""Every turn of an LLM conversation gets that turn's devices, never the previous turn's.

From 2026.11 Home Assistant keeps an LLM conversation's system prompt and tools unchanged from
the second turn on; a prompt built from the first turn's devices would be shown on every later
turn. The scripted LLM agent (tests/scripted_llm) talks to Home Assistant as its LLM
integrations do and records what its model would be given; five-turn conversations over
different rooms and devices, on both paths:

- the LLM API chosen directly in the agent: the system prompt and tools must be the same on
  every turn and name no device (so freezing them changes nothing), and the relevant-devices
  tool, called on each turn, must answer with that turn's devices;
- our agent in front (pre-step): each turn forwards its own devices as the extra system prompt,
  an explicit "nothing relevant" when there are none, and the system prompt the model gets
  holds this turn's devices and no other turn's.

Home Assistant 2026.10.4 and 2025.4.4 rebuild the prompt every turn, so these tests show the
prompt does not depend on the turn; tests/e2e/test_llm_agents.py runs the same conversations on
the real 2026.11.0 server, which does freeze it.
"""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.components.conversation.const import DATA_COMPONENT as CONVERSATION_COMPONENT
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component

from bench.tokens.measure import prompt_ids
from custom_components.context_retrieval.const import LLM_API_ID, NOTHING_RELEVANT_THIS_TURN
from custom_components.context_retrieval.llm_relevant import NOTHING_RELEVANT, RELEVANT_TOOL
from tests.ha.fakes import async_setup_integration, our_agent_id
from tests.scripted_llm.agent import ScriptedLLMEntity, TurnRecord, without_clock

CALL_RELEVANT = [{"call": "GetRelevantDevices"}]
# (what the user says, the devices that turn is about); every turn names other devices than
# the turn before it, one names none, and "it" refers to the turn before.
ZH_TURNS: list[tuple[str, set[str]]] = [
    ("打开厨房的吸顶灯", {"light.kitchen_ceiling"}),
    ("把客厅的窗帘关上", {"cover.living_curtain"}),
    ("给我讲个笑话", set()),
    ("打开主卧的空调", {"climate.bedroom_ac"}),
    ("打开书房的台灯", {"light.study_desk"}),
]
EN_TURNS: list[tuple[str, set[str]]] = [
    ("close the living room curtains", {"cover.living_curtain"}),
    ("turn on the kitchen light", {"light.kitchen_ceiling"}),
    ("turn on the air conditioner in the bedroom", {"climate.bedroom_ac"}),
    ("tell me a joke", set()),
    ("turn on the light in the study", {"light.study_desk"}),
]
CONVERSATIONS = {"zh": ("zh-cn", ZH_TURNS), "en": ("en", EN_TURNS)}
EVERY_DEVICE = {e for _, ids in ZH_TURNS + EN_TURNS for e in ids} | {
    "light.living_ceiling",
    "light.living_lamp",
    "light.bedroom_ceiling",
    "light.bedroom_desk",
    "switch.xmas_tree",
    "lock.front_door",
    "switch.secret_plug",
}


async def add_scripted_agent(
    hass: HomeAssistant, name: str, llm_api: str | None, script: list[dict[str, Any]]
) -> ScriptedLLMEntity:
    assert await async_setup_component(hass, "conversation", {})
    agent = ScriptedLLMEntity(name, llm_api, script)
    await hass.data[CONVERSATION_COMPONENT].async_add_entities([agent])
    await hass.async_block_till_done()
    return agent


async def talk(
    hass: HomeAssistant, agent_id: str, turns: list[tuple[str, set[str]]], language: str
) -> None:
    """The five turns, one conversation, each with its own context (as each HTTP request or
    voice command has)."""
    conversation_id = f"five-turns-{language}"
    for text, _ in turns:
        result = await conversation.async_converse(
            hass, text, conversation_id, Context(), language, agent_id=agent_id
        )
        assert result.conversation_id == conversation_id
        await hass.async_block_till_done()


def relevant_answer(record: TurnRecord) -> dict[str, Any]:
    """The relevant-devices tool's answer of this turn (exactly one call per turn)."""
    answers = [r["result"] for r in record.tool_results if r["tool"] == RELEVANT_TOOL]
    assert len(answers) == 1, record.tool_results
    answer: dict[str, Any] = answers[0]
    return answer


def assert_only_this_turns_devices(
    seen: list[str], expected: set[str], turn: int, where: str
) -> None:
    """This turn's devices are all there, and no device of another turn or of the home."""
    assert expected <= set(seen), f"turn {turn + 1}: {where} lacks {expected - set(seen)}"
    others = (EVERY_DEVICE - expected) & set(seen)
    assert not others, f"turn {turn + 1}: {where} shows {others} (another turn's devices)"


@pytest.mark.parametrize("language", ["zh", "en"])
async def test_api_chosen_directly_gives_each_turn_its_own_devices(
    hass: HomeAssistant, loaded_entry: Any, language: str
) -> None:
    assert await async_setup_component(hass, "intent", {})
    agent = await add_scripted_agent(hass, "direct", LLM_API_ID, CALL_RELEVANT)
    tag, turns = CONVERSATIONS[language]

    await talk(hass, str(agent.entity_id), turns, tag)

    records = agent.records
    assert [r.text for r in records] == [t for t, _ in turns]
    assert all(r.error is None for r in records)
    # What Home Assistant 2026.11 freezes after turn 1 is the same on every turn anyway …
    assert len({without_clock(r.system_prompt) for r in records}) == 1
    assert len({tuple(r.tools) for r in records}) == 1
    assert RELEVANT_TOOL in records[0].tools
    # … and lists no device at all: the devices come from the tool, each turn.
    for entity_id in EVERY_DEVICE:
        assert entity_id not in records[0].system_prompt
    for turn, (record, (_, expected)) in enumerate(zip(records, turns, strict=True)):
        answer = relevant_answer(record)
        assert answer["request"] == record.text
        seen = prompt_ids(answer["devices"]) if answer["devices"] else []
        assert_only_this_turns_devices(seen, expected, turn, "the tool's answer")
        if not expected:
            assert answer["devices"] is None and answer["message"] == NOTHING_RELEVANT
        # The model's last request of the turn ends with this turn's tool result.
        last = record.requests[-1]["messages"]
        assert last[-1]["role"] == "tool" and last[-1]["name"] == RELEVANT_TOOL


@pytest.mark.parametrize("downstream_api", [None, LLM_API_ID])
@pytest.mark.parametrize("language", ["zh", "en"])
async def test_pre_step_forwards_each_turns_devices_and_says_when_there_are_none(
    hass: HomeAssistant, home: dict[str, str], language: str, downstream_api: str | None
) -> None:
    assert await async_setup_component(hass, "intent", {})
    script = CALL_RELEVANT if downstream_api else []
    agent = await add_scripted_agent(hass, "downstream", downstream_api, script)
    await async_setup_integration(hass, agent_id=agent.entity_id)
    tag, turns = CONVERSATIONS[language]

    await talk(hass, our_agent_id(hass), turns, tag)

    records = agent.records
    assert [r.text for r in records] == [t for t, _ in turns]
    for turn, (record, (_, expected)) in enumerate(zip(records, turns, strict=True)):
        extra = record.extra_system_prompt or ""
        assert extra, f"turn {turn + 1} forwarded no extra system prompt"
        assert_only_this_turns_devices(prompt_ids(extra), expected, turn, "the forwarded YAML")
        if not expected:
            assert extra == NOTHING_RELEVANT_THIS_TURN
        # What the model is given: the system prompt of this turn, never an earlier one's.
        assert record.system_prompt.endswith(extra)
        assert_only_this_turns_devices(
            prompt_ids(record.system_prompt[record.system_prompt.index(extra) :]),
            expected,
            turn,
            "the system prompt",
        )
        for entity_id in EVERY_DEVICE - expected:
            assert entity_id not in record.system_prompt, (turn, entity_id)
        if downstream_api:
            answer = relevant_answer(record)
            seen = prompt_ids(answer["devices"]) if answer["devices"] else []
            assert_only_this_turns_devices(seen, expected, turn, "the tool's answer")
