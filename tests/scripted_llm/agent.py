"""A scripted LLM conversation agent: a conversation entity that talks to Home Assistant
exactly as its LLM integrations (ollama, openai_conversation, anthropic …) do, with a script
instead of a model.

Each message: `chat_log.async_provide_llm_data(user_input.as_llm_context(domain), api, prompt,
user_input.extra_system_prompt)` (2025.8+; `async_update_llm_data(domain, user_input, api,
prompt)` before), then "the model" is asked: every request it would send (the system prompt,
the history, the tool specifications) is recorded, the script's tool calls go through
`chat_log.async_add_assistant_content` (Home Assistant runs the tools), and a closing answer
ends the turn. The record of each turn (system prompt, tool names, tool results, requests)
is what a test or a benchmark reads: what a real model would have been given.

The script is a list of steps, run on every turn: `{"call": "<tool name or its last part>",
"args": {...}}` calls that tool when the API offers it (`"{text}"` in an argument stands for
the user's message). It is also a custom integration (`scripted_llm`): the end-to-end tests
link this folder into the real server's configuration.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from homeassistant.components import conversation
from homeassistant.components.conversation import (
    AssistantContent,
    ChatLog,
    ConversationEntityFeature,
    ConversationInput,
    ConversationResult,
)
from homeassistant.const import MATCH_ALL
from homeassistant.helpers import intent, llm

DOMAIN = "scripted_llm"
ANSWER = "OK."
MAX_RECORDS = 200


@dataclass
class TurnRecord:
    """What the model was given on one turn."""

    text: str
    conversation_id: str
    extra_system_prompt: str | None
    system_prompt: str = ""
    tools: list[str] = field(default_factory=list)
    tool_results: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_CLOCK = re.compile(r"Current time is [0-9:]+\. Today's date is [0-9-]+\.")


def without_clock(prompt: str) -> str:
    """A system prompt without the time of day Home Assistant adds to it (up to the second,
    when no tool tells the time): what stays the same from turn to turn."""
    return _CLOCK.sub("", prompt)


def _fields(cls: Any) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def result_data(content: Any) -> Any:
    """A tool result's data: `result.data` from 2026.x (`tool_result` is deprecated there),
    `tool_result` before."""
    if "result" in _fields(type(content)):
        return content.result.data
    return content.tool_result


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


def tool_spec(tool: llm.Tool, serializer: Any) -> dict[str, Any]:
    """A tool as an LLM integration hands it to its model: name, description, parameters."""
    try:  # probatio from Home Assistant 2026.10, voluptuous-openapi before
        converter = importlib.import_module("probatio").to_openapi
    except ImportError:
        converter = importlib.import_module("voluptuous_openapi").convert
    parameters = converter(tool.parameters, custom_serializer=serializer)
    return {"name": tool.name, "description": tool.description or "", "parameters": parameters}


def message(content: Any) -> dict[str, Any]:
    """One entry of the chat log as a provider's chat message."""
    role = content.role
    if role == "tool_result":
        return {
            "role": "tool",
            "tool_call_id": content.tool_call_id,
            "name": content.tool_name,
            "content": json.dumps(_jsonable(result_data(content)), ensure_ascii=False),
        }
    out: dict[str, Any] = {"role": role, "content": content.content or ""}
    for call in getattr(content, "tool_calls", None) or []:
        out.setdefault("tool_calls", []).append(
            {
                "id": call.id,
                "name": call.tool_name,
                "arguments": json.dumps(call.tool_args, ensure_ascii=False),
            }
        )
    return out


def _matches(name: str, wanted: str) -> bool:
    return name == wanted or name.endswith("__" + wanted)


class ScriptedLLMEntity(conversation.ConversationEntity):
    """An LLM agent whose model is a script; records what the model would have been given."""

    _attr_supported_features = ConversationEntityFeature.CONTROL

    def __init__(
        self,
        name: str,
        llm_api: str | None,
        script: list[dict[str, Any]] | None = None,
        unique_id: str | None = None,
    ) -> None:
        self._attr_name = name
        self._attr_unique_id = unique_id or f"{DOMAIN}_{name}"
        self.llm_api = llm_api or None
        self.script = list(script or [])
        self.records: list[TurnRecord] = []

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return MATCH_ALL

    async def async_added_to_hass(self) -> None:
        await super().async_added_to_hass()
        self.hass.data.setdefault(DOMAIN, {})[self.entity_id] = self  # for `records`

    async def async_will_remove_from_hass(self) -> None:
        self.hass.data.get(DOMAIN, {}).pop(self.entity_id, None)
        await super().async_will_remove_from_hass()

    async def _async_handle_message(
        self, user_input: ConversationInput, chat_log: ChatLog
    ) -> ConversationResult:
        record = TurnRecord(
            user_input.text, chat_log.conversation_id, user_input.extra_system_prompt
        )
        self.records.append(record)
        del self.records[:-MAX_RECORDS]
        try:
            await self._async_provide_llm_data(user_input, chat_log)
        except conversation.ConverseError as err:
            record.error = str(err)
            return err.as_conversation_result()
        record.system_prompt = str(getattr(chat_log.content[0], "content", ""))
        api = chat_log.llm_api
        record.tools = [tool.name for tool in api.tools] if api else []
        for step in self.script:
            tool = self._tool(chat_log, str(step.get("call", "")))
            if tool is None:
                continue
            self._ask_model(record, chat_log)
            args = {
                key: value.replace("{text}", user_input.text) if isinstance(value, str) else value
                for key, value in (step.get("args") or {}).items()
            }
            call = llm.ToolInput(tool_name=tool.name, tool_args=args)
            async for result in chat_log.async_add_assistant_content(
                AssistantContent(agent_id=self.entity_id or DOMAIN, tool_calls=[call])
            ):
                record.tool_results.append(
                    {"tool": tool.name, "args": args, "result": _jsonable(result_data(result))}
                )
        self._ask_model(record, chat_log)
        chat_log.async_add_assistant_content_without_tools(
            AssistantContent(agent_id=self.entity_id or DOMAIN, content=ANSWER)
        )
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_speech(ANSWER)
        return ConversationResult(response=response, conversation_id=chat_log.conversation_id)

    async def _async_provide_llm_data(
        self, user_input: ConversationInput, chat_log: ChatLog
    ) -> None:
        """As Home Assistant's LLM integrations of the running release do."""
        if hasattr(chat_log, "async_provide_llm_data"):
            as_llm_context = getattr(user_input, "as_llm_context")  # noqa: B009 (2025.8+)
            await chat_log.async_provide_llm_data(
                as_llm_context(DOMAIN),
                self.llm_api,
                None,
                user_input.extra_system_prompt,
            )
        else:  # up to 2025.7
            await chat_log.async_update_llm_data(DOMAIN, user_input, self.llm_api, None)

    @staticmethod
    def _tool(chat_log: ChatLog, wanted: str) -> llm.Tool | None:
        api = chat_log.llm_api
        if not wanted or api is None:
            return None
        return next((t for t in api.tools if _matches(t.name, wanted)), None)

    @staticmethod
    def _ask_model(record: TurnRecord, chat_log: ChatLog) -> None:
        """Record one request to the model: the chat log so far and the tools."""
        api = chat_log.llm_api
        tools = [tool_spec(t, api.custom_serializer) for t in api.tools] if api else []
        record.requests.append(
            {"messages": [message(c) for c in chat_log.content], "tools": _jsonable(tools)}
        )
