"""LLM agents on the real server: every turn's model input holds that turn's devices.

Home Assistant 2026.11 keeps an LLM conversation's system prompt and tools unchanged from the
second turn on (`ChatLog.async_provide_llm_data`); the newest tier's server is 2026.11.0, so
this is where a prompt built from the first turn's devices would show them on every later turn.
The scripted LLM agent (tests/scripted_llm, linked into the server's custom_components by
conftest.py) talks to Home Assistant exactly as its LLM integrations do and records what its
model is given on each turn; its script calls `context_retrieval__GetRelevantDevices` every
turn. Five-turn conversations over different rooms and devices of the demo home, in Chinese and
English, on both paths:

- the Context Retrieval LLM API chosen in the agent directly: the system prompt and tools are
  the same on every turn and list no device; the tool's answer on each turn holds that turn's
  devices and no other turn's;
- our agent in front of the LLM agent (pre-step): each turn's extra system prompt, and so the
  system prompt the model gets, holds that turn's devices, or says that nothing is relevant.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bench.tokens.measure import prompt_ids
from custom_components.context_retrieval.const import LLM_API_ID, NOTHING_RELEVANT_THIS_TURN
from custom_components.context_retrieval.llm_relevant import NOTHING_RELEVANT, RELEVANT_TOOL
from tests.scripted_llm.agent import without_clock

from .conftest import ROOT, SCRIPTED_LLM, Client, devhome

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

HOME: dict[str, Any] = json.loads((ROOT / "demo" / "home.json").read_text(encoding="utf-8"))
EVERY_ENTITY = {e["entity_id"] for e in HOME["entities"]}
SCRIPT = json.dumps([{"call": "GetRelevantDevices"}])
DOMAIN = "context_retrieval"
# (what the user says, the devices that turn is about): every turn is about other devices than
# the turn before, one about none; "it" refers to the turn before.
TURNS: dict[str, tuple[str, list[tuple[str, set[str]]]]] = {
    "zh": (
        "zh-Hans",
        [
            ("打开厨房的橱柜灯", {"light.kitchen_cabinet"}),
            ("打开主卧的左床头灯", {"light.master_bedside_left"}),
            ("给我讲个笑话", set()),
            ("打开书房的桌面风扇", {"fan.study_desk_fan"}),
            ("把它关掉", {"fan.study_desk_fan"}),
        ],
    ),
    "en": (
        "en",
        [
            ("turn on the balcony string lights", {"light.balcony_string_lights"}),
            ("close the garage door", {"cover.garage_door"}),
            ("tell me a joke", set()),
            ("turn on the bathroom exhaust fan", {"fan.bathroom_exhaust"}),
            ("open the venetian blinds in the study", {"cover.study_blinds"}),
        ],
    ),
}


def add_scripted_agent(ha: Client, name: str) -> str:
    """A scripted LLM agent using our LLM API, through its config flow; its entity id."""
    flow = ha.request("POST", "/api/config/config_entries/flow", {"handler": SCRIPTED_LLM})
    done = ha.request(
        "POST",
        f"/api/config/config_entries/flow/{flow['flow_id']}",
        {"name": name, "llm_hass_api": LLM_API_ID, "script": SCRIPT},
    )
    assert done["type"] == "create_entry", done
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for entity_id, agent in records(ha).items():
            if agent["name"] == name:
                return entity_id
        time.sleep(0.2)
    raise AssertionError(f"the scripted agent {name} never appeared")


def records(ha: Client) -> dict[str, Any]:
    answer = ha.request("POST", f"/api/services/{SCRIPTED_LLM}/records?return_response", {})
    agents: dict[str, Any] = answer["service_response"]["agents"]
    return agents


def talk(ha: Client, agent_id: str, language: str, turns: list[tuple[str, set[str]]]) -> str:
    conversation_id = ""
    for text, _ in turns:
        body: dict[str, Any] = {"text": text, "language": language, "agent_id": agent_id}
        if conversation_id:
            body["conversation_id"] = conversation_id
        result = ha.request("POST", "/api/conversation/process", body)
        conversation_id = conversation_id or result["conversation_id"]
        assert result["conversation_id"] == conversation_id
    return conversation_id


def turns_of(ha: Client, agent_id: str, conversation_id: str) -> list[dict[str, Any]]:
    return [r for r in records(ha)[agent_id]["records"] if r["conversation_id"] == conversation_id]


def others(turns: list[tuple[str, set[str]]], expected: set[str]) -> set[str]:
    """The devices of the other turns, which this turn must not show."""
    return {e for _, ids in turns for e in ids} - expected


def tool_devices(record: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    answers = [r["result"] for r in record["tool_results"] if r["tool"] == RELEVANT_TOOL]
    assert len(answers) == 1, record["tool_results"]
    answer: dict[str, Any] = answers[0]
    return (prompt_ids(answer["devices"]) if answer.get("devices") else []), answer


@pytest.fixture
def pre_step_to(ha: Client) -> Iterator[Any]:
    """Our agent forwarding to another agent for one test, then back to what it was."""
    entries = ha.request("GET", f"/api/config/config_entries/entry?domain={DOMAIN}")
    entry_id = entries[0]["entry_id"]
    previous: list[str] = []

    def set_agent(agent_id: str) -> str:
        """The reconfigure flow, as Settings → Devices & services → Reconfigure does it."""
        flow = ha.request(
            "POST",
            "/api/config/config_entries/flow",
            {"handler": DOMAIN, "entry_id": entry_id},
        )
        answer = {i["name"]: i["default"] for i in flow["data_schema"] if "default" in i}
        previous.append(str(answer.get("agent_id")))
        answer["agent_id"] = agent_id
        done = ha.request("POST", f"/api/config/config_entries/flow/{flow['flow_id']}", answer)
        assert done.get("reason") == "reconfigure_successful", done
        return str(previous[0])

    yield set_agent
    if previous:
        set_agent(previous[0])


@pytest.mark.parametrize("language", ["zh", "en"])
def test_api_chosen_directly_every_turn_gets_its_own_devices(ha: Client, language: str) -> None:
    logged = devhome.integration_records(ha.config_dir)
    agent_id = add_scripted_agent(ha, f"direct {language}")
    tag, turns = TURNS[language]

    conversation_id = talk(ha, agent_id, tag, turns)

    got = turns_of(ha, agent_id, conversation_id)
    assert [r["text"] for r in got] == [t for t, _ in turns]
    assert all(r["error"] is None for r in got)
    # What 2026.11 keeps from the first turn lists no device, so keeping it is right.
    assert len({without_clock(r["system_prompt"]) for r in got}) == 1
    assert len({tuple(r["tools"]) for r in got}) == 1
    assert RELEVANT_TOOL in got[0]["tools"]
    assert not [e for e in EVERY_ENTITY if e in got[0]["system_prompt"]]
    for turn, (record, (_, expected)) in enumerate(zip(got, turns, strict=True)):
        seen, answer = tool_devices(record)
        assert answer["request"] == record["text"]
        assert expected <= set(seen), (turn + 1, record["text"], answer)
        assert not others(turns, expected) & set(seen), (turn + 1, record["text"], answer)
        if not expected:
            assert answer["devices"] is None and answer["message"] == NOTHING_RELEVANT
    assert devhome.integration_records(ha.config_dir) == logged  # no error, no warning


@pytest.mark.parametrize("language", ["zh", "en"])
def test_pre_step_every_turn_forwards_its_own_devices(
    ha: Client, language: str, pre_step_to: Any
) -> None:
    logged = devhome.integration_records(ha.config_dir)
    agent_id = add_scripted_agent(ha, f"downstream {language}")
    pre_step_to(agent_id)
    tag, turns = TURNS[language]

    conversation_id = talk(ha, ha.agent_id, tag, turns)

    got = turns_of(ha, agent_id, conversation_id)
    assert [r["text"] for r in got] == [t for t, _ in turns]
    for turn, (record, (_, expected)) in enumerate(zip(got, turns, strict=True)):
        extra = record["extra_system_prompt"] or ""
        assert extra, (turn + 1, record["text"])
        if not expected:
            assert extra == NOTHING_RELEVANT_THIS_TURN
        # The system prompt the model gets this turn ends with this turn's devices …
        assert record["system_prompt"].endswith(extra), (turn + 1, record["text"])
        seen = prompt_ids(extra)
        assert expected <= set(seen), (turn + 1, record["text"], extra)
        # … and holds no other turn's.
        for entity_id in others(turns, expected):
            assert entity_id not in record["system_prompt"], (turn + 1, entity_id)
        tool_seen, _ = tool_devices(record)
        assert set(tool_seen) == set(seen), (turn + 1, record["text"])
    assert devhome.integration_records(ha.config_dir) == logged  # no error, no warning
