"""A tool of our LLM API: the devices the user's current request is about.

Home Assistant 2026.11 keeps an LLM conversation's system prompt and tools unchanged from the
second turn on (same agent, user, device, APIs and extra system prompt), so that providers can
cache them; only the tool calls get each turn's context. The devices a request is about
therefore cannot live in the prompt: they reach the model as this tool's answer, asked for
anew on every request, while the prompt keeps only what never changes with the request.

The request is the user's message being answered (the last user message of the chat log, or
`LLMContext.user_prompt` up to 2025.6), or the `request` the caller passes: an MCP client has
no chat log and always passes it. When our own conversation agent has already retrieved this
turn (it hands its selection over by context id, a reply to its question included), that
selection is the answer. One request is retrieved once per turn: a second identical call
answers the same without changing what "it" refers to.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from homeassistant.components.conversation.chat_log import current_chat_log
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm
from homeassistant.util.json import JsonObjectType

from .const import LOGGER, LOOKUP_MAX_FIELD_CHARS, RELEVANT_MEMO_KEPT
from .core.base.redact import clean
from .data import ContextRetrievalConfigEntry
from .llm_lookup import LOOKUP_TOOL
from .llm_tools import SCHEMA, ReadOnlyTool, tool_name, tool_result
from .retrieval import async_run_retrieval, render_selection, satellite_area

RELEVANT_TOOL = tool_name("GetRelevantDevices")
NOTHING_RELEVANT = (
    "No device of this home matched this request. If it is about a device, look it up with "
    f"the {LOOKUP_TOOL} tool, or ask which one they mean."
)
NO_REQUEST = "Pass the user's request, in their words, as `request`."
NOT_READY = "The device index is still being built; try again in a moment."
# Memo of this turn's answers: (context id, request) -> the YAML ("" when nothing matched).
Memo = OrderedDict[tuple[str, str], str]


def utterance_of(llm_context: llm.LLMContext) -> str | None:
    """The user's words being answered, on any supported Home Assistant."""
    text = getattr(llm_context, "user_prompt", None)
    if text:
        return str(text)
    chat_log = current_chat_log.get()
    if chat_log is None:
        return None
    for content in reversed(chat_log.content):
        if getattr(content, "role", None) == "user":
            return str(getattr(content, "content", "") or "") or None
    return None


def conversation_of(llm_context: llm.LLMContext) -> str | None:
    """The conversation being answered, so that "it" refers to the earlier turns."""
    chat_log = current_chat_log.get()
    return getattr(chat_log, "conversation_id", None) if chat_log is not None else None


def answer(request: str, context_yaml: str) -> JsonObjectType:
    """What the model gets: the devices as YAML, or the sentence saying none matched."""
    shown = clean(request, LOOKUP_MAX_FIELD_CHARS)
    if not context_yaml:
        return {"request": shown, "devices": None, "message": NOTHING_RELEVANT}
    return {"request": shown, "devices": context_yaml}


class RelevantDevicesTool(ReadOnlyTool):
    """The devices the current request is about, retrieved for this request."""

    name = RELEVANT_TOOL
    title = "Relevant devices"
    description = (
        "The devices of this home that the user's current request is about, with their "
        "current state and what they can do, found for this request (rooms included or "
        "excluded, names, aliases, 'it' from earlier turns). Call it first for every new "
        "request about the home: each request has its own devices, and an earlier answer "
        "does not apply to a later request. Leave `request` out to use the message being "
        "answered."
    )
    parameters = SCHEMA.Schema(
        {
            SCHEMA.Optional(
                "request", description="the user's request, in their own words and language"
            ): SCHEMA.All(str, SCHEMA.Length(max=LOOKUP_MAX_FIELD_CHARS)),
        }
    )

    def __init__(self, entry: ContextRetrievalConfigEntry, memo: Memo) -> None:
        super().__init__()
        self.entry = entry
        self.memo = memo

    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> Any:
        return tool_result(*await self._async_answer(hass, tool_input, llm_context))

    async def _async_answer(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> tuple[JsonObjectType, bool]:
        """The answer, and whether it is an error."""
        try:
            args = self.parameters(tool_input.tool_args or {})
        except SCHEMA.Invalid as err:
            return {"error": f"Invalid arguments: {err}. {NO_REQUEST}"}, True
        asked = " ".join(str(args.get("request") or "").split())
        current = utterance_of(llm_context)
        text = asked or current
        if not text:
            return {"error": NO_REQUEST}, True
        data = self.entry.runtime_data
        context = llm_context.context
        this_turn = not asked or asked == current
        if context is not None and this_turn and context.id in data.handover:
            return answer(text, data.handover[context.id]), False
        key = (context.id, text) if context is not None else None
        if key is not None and key in self.memo:
            return answer(text, self.memo[key]), False
        index = data.manager.index
        if index is None:
            return {"error": NOT_READY}, True
        try:
            results = await async_run_retrieval(
                hass,
                data,
                index,
                text,
                conversation_of(llm_context),
                llm_context.language,
                satellite_area(hass, llm_context.device_id),
            )
        except HomeAssistantError as err:
            LOGGER.warning("Retrieval for the LLM API failed: %s", err)
            return {"error": str(err) or type(err).__name__}, True
        language = results[0].meta.language if results else llm_context.language
        context_yaml = (
            render_selection(
                index,
                results,
                data.settings.token_budget,
                str(language),
                hass,
                with_question=True,
            )
            or ""
        )
        if key is not None:
            self.memo[key] = context_yaml
            while len(self.memo) > RELEVANT_MEMO_KEPT:
                self.memo.popitem(last=False)
        return answer(text, context_yaml), False
