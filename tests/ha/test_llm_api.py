"""The "Context Retrieval" LLM API: Assist's tools, a prompt with only the retrieved entities."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager

import pytest
from homeassistant.components import conversation
from homeassistant.components.conversation import ConversationInput
from homeassistant.components.conversation.chat_log import (
    AssistantContent,
    ChatLog,
    UserContent,
    async_get_chat_log,
)
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import chat_session, llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval.const import LLM_API_ID, LLM_API_NAME
from custom_components.context_retrieval.llm_api import NOTHING_RELEVANT
from tests.ha.conftest import add_entity
from tests.ha.fakes import (
    FakeAgent,
    async_add_fake_agent,
    async_setup_integration,
    context_ids,
    our_agent_id,
    yaml_part,
)

ASSIST_PREAMBLE = "When controlling Home Assistant always call the intent tools"
LIVING_LIGHTS = {"light.living_ceiling", "light.living_lamp"}


@pytest.fixture
async def entry(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> MockConfigEntry:
    """The loaded entry, with Home Assistant's intents registered (Assist's tools)."""
    assert await async_setup_component(hass, "intent", {})
    return loaded_entry


def llm_context(user_prompt: str | None, context: Context | None = None,
                language: str = "zh-cn") -> llm.LLMContext:
    return llm.LLMContext(platform="test", context=context or Context(),
                          user_prompt=user_prompt, language=language,
                          assistant=conversation.DOMAIN, device_id=None)


async def prompt_for(hass: HomeAssistant, ctx: llm.LLMContext) -> str:
    return (await llm.async_get_api(hass, LLM_API_ID, ctx)).api_prompt


@contextmanager
def active_chat_log(hass: HomeAssistant, text: str,
                    conversation_id: str | None = None) -> Generator[ChatLog]:
    """A chat log being answered, as an LLM agent has it while it builds its prompt."""
    user_input = ConversationInput(text=text, context=Context(), conversation_id=conversation_id,
                                   device_id=None, language="zh-cn", agent_id="conversation.x")
    with (chat_session.async_get_chat_session(hass, conversation_id) as session,
          async_get_chat_log(hass, session, user_input) as chat_log):
        yield chat_log


async def test_api_is_registered_and_removed_with_the_entry(
        hass: HomeAssistant, entry: MockConfigEntry) -> None:
    apis = {api.id: api.name for api in llm.async_get_apis(hass)}
    assert apis[LLM_API_ID] == LLM_API_NAME == "Context Retrieval"
    assert llm.LLM_API_ASSIST in apis

    assert await hass.config_entries.async_reload(entry.entry_id)  # no "already registered"
    await hass.async_block_till_done()
    assert LLM_API_ID in {api.id for api in llm.async_get_apis(hass)}

    assert await hass.config_entries.async_unload(entry.entry_id)
    assert LLM_API_ID not in {api.id for api in llm.async_get_apis(hass)}


async def test_tools_are_assists_tools(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    ctx = llm_context("打开客厅的灯")
    ours = await llm.async_get_api(hass, LLM_API_ID, ctx)
    assist = await llm.async_get_api(hass, llm.LLM_API_ASSIST, ctx)

    names = [tool.name for tool in ours.tools]
    assert names
    assert names == [tool.name for tool in assist.tools]
    assert "HassTurnOn" in names and "HassTurnOff" in names
    assert ours.api.name == "Context Retrieval"
    assert ours.llm_context is ctx


async def test_prompt_has_assists_preamble_and_only_the_retrieved_entities(
        hass: HomeAssistant, entry: MockConfigEntry) -> None:
    prompt = await prompt_for(hass, llm_context("打开客厅的灯"))

    assert prompt.startswith(ASSIST_PREAMBLE)
    assert "Static Context" not in prompt  # Assist's list of the whole house is gone
    assert set(context_ids(yaml_part(prompt))) == LIVING_LIGHTS
    for absent in ("light.bedroom_ceiling", "light.bedroom_desk", "switch.secret_plug",
                   "Secret Plug"):
        assert absent not in prompt


async def test_unexposed_entity_is_never_listed(hass: HomeAssistant,
                                                entry: MockConfigEntry) -> None:
    for text in ("打开Secret Plug", "turn on the secret plug"):
        prompt = await prompt_for(hass, llm_context(text, language="en"))
        assert "secret_plug" not in prompt
        assert "Secret Plug" not in prompt


async def test_utterance_from_the_chat_log_without_user_prompt(
        hass: HomeAssistant, entry: MockConfigEntry) -> None:
    with active_chat_log(hass, "关掉主卧的吸顶灯", "chat-1") as chat_log:
        chat_log.async_add_assistant_content_without_tools(
            AssistantContent(agent_id="conversation.x", content="好的"))
        chat_log.async_add_user_content(UserContent(content="打开客厅的灯"))

        prompt = await prompt_for(hass, llm_context(None))

    assert prompt.startswith(ASSIST_PREAMBLE)
    assert set(context_ids(yaml_part(prompt))) == LIVING_LIGHTS  # the last user message


async def test_without_user_prompt_or_chat_log_nothing_is_listed(
        hass: HomeAssistant, entry: MockConfigEntry) -> None:
    prompt = await prompt_for(hass, llm_context(None))
    assert prompt.startswith(ASSIST_PREAMBLE)
    assert NOTHING_RELEVANT in prompt
    assert "light." not in prompt


async def test_selection_handed_over_by_context_id_is_used_as_is(
        hass: HomeAssistant, entry: MockConfigEntry) -> None:
    context = Context()
    handed = '# handed over\ndevices:\n  - id: "switch.xmas_tree"\n    name: "圣诞树"\n'
    entry.runtime_data.hand_over(context.id, handed)

    prompt = await prompt_for(hass, llm_context("打开客厅的灯", context))

    assert prompt.startswith(ASSIST_PREAMBLE)
    assert prompt.endswith(handed.rstrip("\n")) or handed in prompt
    assert context_ids(yaml_part(prompt)) == ["switch.xmas_tree"]
    assert "light.living_ceiling" not in prompt
    # Another context gets its own retrieval.
    other = await prompt_for(hass, llm_context("打开客厅的灯"))
    assert set(context_ids(yaml_part(other))) == LIVING_LIGHTS


@pytest.mark.parametrize("text", ["给我讲个笑话", "今天几号"])
async def test_nothing_matched_gives_the_no_device_sentence(
        hass: HomeAssistant, entry: MockConfigEntry, text: str) -> None:
    prompt = await prompt_for(hass, llm_context(text))
    assert prompt.startswith(ASSIST_PREAMBLE)
    assert prompt.rstrip().endswith(NOTHING_RELEVANT)
    assert "devices:" not in prompt


async def test_without_an_index_the_prompt_says_nothing_matched(
        hass: HomeAssistant, entry: MockConfigEntry) -> None:
    entry.runtime_data.manager.index = None
    prompt = await prompt_for(hass, llm_context("打开客厅的灯"))
    assert prompt.startswith(ASSIST_PREAMBLE)
    assert NOTHING_RELEVANT in prompt


async def test_prompt_is_much_shorter_than_assists_in_a_bigger_home(
        hass: HomeAssistant, home: dict[str, str]) -> None:
    assert await async_setup_component(hass, "intent", {})
    rooms = [home["living"], home["kitchen"], home["bedroom"], home["study"]]
    kinds = [("light", "筒灯", {"supported_color_modes": ["brightness"]}),
             ("switch", "插座", {}), ("sensor", "温度传感器", {"device_class": "temperature"}),
             ("fan", "风扇", {"supported_features": 1 | 16 | 32})]
    for n in range(48):
        domain, name, attributes = kinds[n % len(kinds)]
        await add_entity(hass, f"{domain}.extra_{n}", f"{name}{n}", "off",
                         rooms[(n // 4) % 4], **attributes)
    await async_setup_integration(hass)
    ctx = llm_context("打开客厅的灯")
    assist = (await llm.async_get_api(hass, llm.LLM_API_ASSIST, ctx)).api_prompt
    ours = (await llm.async_get_api(hass, LLM_API_ID, ctx)).api_prompt

    assert assist.count("names:") >= 50  # Assist lists every exposed entity
    living_lights = LIVING_LIGHTS | {f"light.extra_{n}" for n in range(0, 48, 4)
                                     if rooms[(n // 4) % 4] == home["living"]}
    assert len(living_lights) == 5
    assert set(context_ids(yaml_part(ours))) == living_lights  # every light there, only them
    listing = assist.partition("Static Context:")[2]
    assert len(yaml_part(ours)) < len(listing) / 3  # entity listing: 5 lights against 58

    one = llm_context("打开老伙计")
    assist = (await llm.async_get_api(hass, llm.LLM_API_ASSIST, one)).api_prompt
    ours = (await llm.async_get_api(hass, LLM_API_ID, one)).api_prompt
    assert context_ids(yaml_part(ours)) == ["light.living_lamp"]
    assert len(ours) < len(assist) / 2  # whole prompt, Assist's preamble included


async def test_selection_from_our_agent_reaches_the_llm_through_the_api(
        hass: HomeAssistant, home: dict[str, str]) -> None:
    """Our agent in front of an LLM agent that uses this API: on the turn that answers a
    clarification, the prompt lists the chosen lamp (handed over by context id), not whatever
    the words "书房的" alone would retrieve."""
    assert await async_setup_component(hass, "intent", {})
    prompts: list[str] = []

    async def use_api(agent: FakeAgent) -> None:
        user_input = agent.calls[-1]
        instance = await llm.async_get_api(hass, LLM_API_ID, llm_context(
            user_input.text, user_input.context, user_input.language))
        prompts.append(instance.api_prompt)

    agent_id, fake = await async_add_fake_agent(hass)
    original = fake.async_process

    async def process(user_input: ConversationInput) -> conversation.ConversationResult:
        result = await original(user_input)
        await use_api(fake)
        return result

    fake.async_process = process  # type: ignore[method-assign]
    await async_setup_integration(hass, agent_id=agent_id)

    agent = our_agent_id(hass)
    await conversation.async_converse(hass, "关掉台灯", "api-1", Context(), "zh-cn",
                                      agent_id=agent)
    assert prompts == []  # we asked back ourselves
    await conversation.async_converse(hass, "书房的", "api-1", Context(), "zh-cn",
                                      agent_id=agent)

    assert len(prompts) == 1
    assert context_ids(yaml_part(prompts[0])) == ["light.study_desk"]
    assert context_ids(fake.calls[0].extra_system_prompt) == ["light.study_desk"]


async def test_it_in_a_follow_up_turn_lists_the_same_device(
        hass: HomeAssistant, entry: MockConfigEntry) -> None:
    with active_chat_log(hass, "打开老伙计", "chat-2") as chat_log:
        first = await prompt_for(hass, llm_context(None))
        chat_log.async_add_assistant_content_without_tools(
            AssistantContent(agent_id="conversation.x", content="好的"))
    assert context_ids(yaml_part(first)) == ["light.living_lamp"]

    with active_chat_log(hass, "把它关掉", "chat-2"):
        follow_up = await prompt_for(hass, llm_context(None))

    assert NOTHING_RELEVANT not in follow_up
    assert context_ids(yaml_part(follow_up)) == ["light.living_lamp"]
