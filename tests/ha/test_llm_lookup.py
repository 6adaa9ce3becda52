"""The LLM API's device lookup (`llm_lookup.py`), called as an LLM agent calls a tool: only
exposed devices, within its budget, names kept as data."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval.const import (
    CONF_TOKEN_BUDGET,
    LLM_API_ID,
    LOOKUP_TOKEN_BUDGET,
)
from custom_components.context_retrieval.core.retrieval.render import estimate_tokens
from custom_components.context_retrieval.llm_api import HOW_TO_GET_DEVICES
from custom_components.context_retrieval.llm_lookup import LOOKUP_TOOL
from custom_components.context_retrieval.llm_relevant import NOTHING_RELEVANT
from tests.ha.conftest import add_entity
from tests.ha.fakes import async_setup_integration, llm_request
from tests.ha.test_hostile import (
    HOSTILE,
    SECRET,
    _assert_names_are_values,
    assert_clean,
)

# The fixture, imported by its name so that pytest finds it here.
from tests.ha.test_hostile import hostile as hostile


@pytest.fixture
async def entry(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> MockConfigEntry:
    assert await async_setup_component(hass, "intent", {})
    return loaded_entry


async def look_up(hass: HomeAssistant, text: str = "打开客厅的灯", **args: Any) -> Any:
    """What an LLM agent gets back when it calls the lookup tool of our API (the object
    itself; from 2026.x wrapped in a `ToolResult`, whose error flag must match)."""
    async with llm_request(hass, text) as ctx:
        api = await llm.async_get_api(hass, LLM_API_ID, ctx)
        result = await api.async_call_tool(
            llm.ToolInput(tool_name=LOOKUP_TOOL, tool_args=args, id="call-1")
        )
    if hasattr(llm, "ToolResult"):
        assert isinstance(result, llm.ToolResult)
        assert result.error is ("error" in result.data)
        return result.data
    return result


def tool_spec(tool: llm.Tool, serializer: Any) -> dict[str, Any]:
    """The tool's parameters as an LLM agent (OpenAI's, for one) hands them to its model."""
    try:
        import probatio  # Home Assistant 2026.10+

        spec: dict[str, Any] = probatio.to_openapi(tool.parameters, custom_serializer=serializer)
    except ImportError:
        from voluptuous_openapi import convert

        spec = convert(tool.parameters, custom_serializer=serializer)
    return spec


def ids(answer: dict[str, Any]) -> set[str]:
    """The entity ids in the answer's YAML, in whichever of the context's forms it came."""
    if not answer.get("devices"):
        return set()
    document = yaml.safe_load(answer["devices"])
    rows = [row["id"] for row in document.get("devices") or []]
    for by_area in (document.get("devices_by_area") or {}).values():
        rows += [row[0] for row in by_area]
    for by_area in (document.get("device_ids_by_area") or {}).values():
        rows += list(by_area)
    return set(rows)


async def test_the_api_offers_the_lookup_and_says_when_to_use_it(
    hass: HomeAssistant, entry: MockConfigEntry
) -> None:
    async with llm_request(hass, "打开客厅的落地灯") as ctx:
        ours = await llm.async_get_api(hass, LLM_API_ID, ctx)
    assert [t.name for t in ours.tools].count(LOOKUP_TOOL) == 1
    # The prompt and the relevant-devices tool's "nothing matched" both point at it.
    assert LOOKUP_TOOL in HOW_TO_GET_DEVICES and HOW_TO_GET_DEVICES in ours.api_prompt
    assert LOOKUP_TOOL in NOTHING_RELEVANT
    lookup = next(t for t in ours.tools if t.name == LOOKUP_TOOL)
    assert tool_spec(lookup, ours.custom_serializer)["properties"] == {
        "name": {"type": "string", "maxLength": 200, "description": "a device name or alias"},
        "area": {"type": "string", "maxLength": 200, "description": "a room or floor"},
        "domain": {
            "type": "string",
            "maxLength": 200,
            "description": "a Home Assistant domain such as light",
        },
    }
    assert lookup.description and "look up" in lookup.description.lower()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"name": "老伙计"}, {"light.living_lamp"}),  # an alias the retrieval did not list
        ({"name": "台灯"}, {"light.bedroom_desk", "light.study_desk"}),  # not every "…灯"
        ({"name": "台灯", "area": "bedroom"}, {"light.bedroom_desk"}),  # of the two 台灯
        (
            {"area": "bedroom"},  # an alias of 主卧
            {"light.bedroom_ceiling", "light.bedroom_desk", "climate.bedroom_ac"},
        ),
        ({"area": "主卧", "domain": "light"}, {"light.bedroom_ceiling", "light.bedroom_desk"}),
        (
            {"area": "upstairs", "domain": "light"},  # a floor, by its alias
            {"light.study_desk", "light.bedroom_ceiling", "light.bedroom_desk"},
        ),
        ({"domain": "cover"}, {"cover.living_curtain"}),
        ({"domain": "curtain"}, {"cover.living_curtain"}),  # a device class
        ({"domain": "switch"}, {"switch.xmas_tree"}),  # the unexposed plug is not there
        ({"name": "Secret Plug"}, set()),
        ({"area": "garage"}, set()),
    ],
)
async def test_the_lookup_finds_by_name_area_and_domain_among_exposed_devices(
    hass: HomeAssistant, entry: MockConfigEntry, args: dict[str, str], expected: set[str]
) -> None:
    answer = await look_up(hass, **args)
    assert ids(answer) == expected, answer
    assert "switch.secret_plug" not in json.dumps(answer)
    if expected:
        assert answer["found"] == len(expected)
        assert "state" in answer["devices"]  # live states, as in the prompt
    else:
        assert answer["found"] == 0 and "guess" in answer["message"]


async def test_the_lookup_needs_something_to_look_for_and_bounded_arguments(
    hass: HomeAssistant, entry: MockConfigEntry
) -> None:
    assert "error" in await look_up(hass)
    assert "error" in await look_up(hass, name="  ", area="")
    for wrong in ({"name": "x" * 10_000}, {"name": ["落地灯"]}, {"entity_id": "lock.front_door"}):
        answer = await look_up(hass, **wrong)
        assert set(answer) == {"error"} and "Invalid arguments" in answer["error"], wrong


async def test_the_answer_stays_within_its_budget_in_a_big_home(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    assert await async_setup_component(hass, "intent", {})
    hall = ar.async_get(hass).async_create("Hall")
    for i in range(300):
        await add_entity(hass, f"light.hall_{i}", f"Hall light number {i}", "on", hall.id)
    await async_setup_integration(hass)
    answer = await look_up(hass, domain="light")
    assert estimate_tokens(answer["devices"]) <= LOOKUP_TOKEN_BUDGET
    assert 10 <= answer["found"] < 306
    assert (
        answer["found"] + answer["more"] == 306
    )  # the home's 6 lights and the hall's and "narrow" in answer["message"]
    narrowed = await look_up(hass, domain="light", area="主卧")
    assert ids(narrowed) == {"light.bedroom_ceiling", "light.bedroom_desk"}
    assert "more" not in narrowed


async def test_a_smaller_context_budget_shrinks_the_answer_too(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    assert await async_setup_component(hass, "intent", {})
    await async_setup_integration(hass, **{CONF_TOKEN_BUDGET: 150})
    answer = await look_up(hass, domain="light")
    assert estimate_tokens(answer["devices"]) <= 150
    assert answer["found"] >= 1


async def test_hostile_names_come_back_as_data_and_the_unexposed_never(
    hass: HomeAssistant, hostile: dict[str, str]
) -> None:
    assert await async_setup_component(hass, "intent", {})
    await async_setup_integration(hass)
    for args in ({"domain": "light"}, {"name": "Lamp"}, {"area": "Den"}, {"name": SECRET}):
        answer = await look_up(hass, "turn on every lamp", **args)
        assert_clean(answer, f"lookup {args}")
        if answer.get("devices"):
            _assert_names_are_values(answer["devices"])
    found = await look_up(hass, "turn on every lamp", domain="light")
    assert ids(found) & set(hostile)
    assert len(HOSTILE) == len(hostile)
