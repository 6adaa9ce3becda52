"""The "Context Retrieval" LLM API: Home Assistant's device control (the "Assist" API, named
"Device control" from 2026.11), but a prompt with only the entities that matter for this
utterance.

Selecting it instead of "Device control"/"Assist" in an LLM conversation agent (OpenAI,
Ollama, Anthropic, Google…) is what shrinks the prompt. The model keeps every instruction and
tool of Home Assistant's API; only the overview of every exposed entity is replaced by the
retrieved ones, and a tool looks up any other exposed device (`llm_lookup.py`). Any user may
use it, like Home Assistant's device-control API: it only ever shows entities exposed to Assist.

The utterance is found, in order: the selection our own pre-step agent handed over for this
context id; `LLMContext.user_prompt` (Home Assistant up to 2025.6); the last user message of the
chat log being answered (2025.7+).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from homeassistant.components.conversation.chat_log import current_chat_log
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm

from .const import LLM_API_ID, LLM_API_NAME, LOGGER
from .data import ContextRetrievalConfigEntry
from .llm_lookup import LOOKUP_TOOL, FindDevicesTool
from .retrieval import async_run_retrieval, render_selection, satellite_area

# The device-control prompt lists the whole house as YAML right after this line. Up to 2026.9
# that overview closed the prompt; from 2026.10 on, the prompt is assembled from every
# integration's fragment and more instructions follow it (device control, the satellite's
# area, timers).
_OVERVIEW_MARKER = "Static Context:"
_LIVE_CONTEXT_TOOL = "GetLiveContext"  # namespaced by its integration from 2026.10 on
NOTHING_RELEVANT = (
    "No device matched the user's request. If it is about a device, look it up with the "
    f"{LOOKUP_TOOL} tool, or ask which one they mean."
)
PARTIAL_LIST = (
    "Only the devices relevant to this request are listed below, not the whole home; look up "
    f"any other with the {LOOKUP_TOOL} tool."
)
LIVE_CONTEXT_HINT = "For anything else use the {tool} tool."


def utterance_of(llm_context: llm.LLMContext) -> str | None:
    """The user's words this API instance is for, on any supported Home Assistant."""
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


def _in_overview(line: str) -> bool:
    """A line of the YAML overview: a list item or its indented continuation."""
    return line.startswith(("- ", " ", "\t")) or line == "-"


def without_overview(prompt: str) -> str:
    """Home Assistant's device-control prompt without its list of every exposed entity.

    The overview is the marker line and the YAML list after it (items start with "- ",
    everything else in them is indented, a blank line only occurs inside a quoted value and is
    followed by an indented line). Whatever follows it, and everything before it, is kept.
    """
    lines = prompt.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith(_OVERVIEW_MARKER)), None)
    if start is None:
        return prompt.strip()
    end = start + 1
    while end < len(lines):
        line = lines[end]
        if _in_overview(line):
            end += 1
            continue
        if not line.strip():
            following = next((later for later in lines[end + 1 :] if later.strip()), "")
            if following.startswith((" ", "\t")):
                end += 1
                continue
        break
    kept = [line.rstrip() for line in (*lines[:start], *lines[end:])]
    # Fragments were joined with blank lines around the overview; one is enough.
    text = "\n".join(kept)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip()


def _live_context_tool(tools: list[Any]) -> str | None:
    return next(
        (
            str(tool.name)
            for tool in tools
            if str(getattr(tool, "name", "")).rsplit("__", 1)[-1] == _LIVE_CONTEXT_TOOL
        ),
        None,
    )


def _api_options() -> dict[str, Any]:
    """`requires_admin` exists from 2026.11: declared, so that every user may use the API."""
    names = (
        {f.name for f in dataclasses.fields(llm.API)}
        if dataclasses.is_dataclass(llm.API)
        else set()
    )
    return {"requires_admin": False} if "requires_admin" in names else {}


class ContextRetrievalAPI(llm.API):
    """Device control, narrowed to the retrieved entities."""

    def __init__(self, hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> None:
        super().__init__(hass=hass, id=LLM_API_ID, name=LLM_API_NAME, **_api_options())
        self.entry = entry
        # Home Assistant's instructions and tools depend on the exposed entities and the
        # satellite, not on the utterance: built once per index build and device, not on every
        # message (its prompt lays out the whole house each time, ~0.2 s at 3,000 entities).
        self._assist_cache: dict[tuple[Any, ...], tuple[str, list[Any], Any]] = {}

    async def _async_assist_parts(self, llm_context: llm.LLMContext) -> tuple[str, list[Any], Any]:
        manager = self.entry.runtime_data.manager
        key = (manager.builds, llm_context.device_id, llm_context.language, llm_context.assistant)
        parts = self._assist_cache.get(key)
        if parts is None:
            assist = await llm.async_get_api(self.hass, llm.LLM_API_ASSIST, llm_context)
            parts = (
                without_overview(assist.api_prompt),
                list(assist.tools),
                assist.custom_serializer,
            )
            if len(self._assist_cache) > 32:
                self._assist_cache.clear()
            self._assist_cache[key] = parts
        return parts

    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        instructions, tools, serializer = await self._async_assist_parts(llm_context)
        context_yaml = await self._async_context_for(llm_context)
        if context_yaml:
            tool = _live_context_tool(tools)
            listing = [
                PARTIAL_LIST + (" " + LIVE_CONTEXT_HINT.format(tool=tool) if tool else ""),
                context_yaml,
            ]
        else:
            listing = [NOTHING_RELEVANT]
        prompt = "\n".join(p for p in (instructions, *listing) if p)
        return llm.APIInstance(
            api=self,
            api_prompt=prompt,
            llm_context=llm_context,
            # Home Assistant's tools, and a lookup for what the retrieval did not list.
            tools=[*tools, FindDevicesTool(self.entry)],
            custom_serializer=serializer,
        )

    async def _async_context_for(self, llm_context: llm.LLMContext) -> str | None:
        data = self.entry.runtime_data
        context = llm_context.context
        if context is not None and context.id in data.handover:
            return data.handover[context.id]
        text = utterance_of(llm_context)
        index = data.manager.index
        if not text or index is None:
            return None
        try:
            results = await async_run_retrieval(
                self.hass,
                data,
                index,
                text,
                conversation_of(llm_context),
                llm_context.language,
                satellite_area(self.hass, llm_context.device_id),
            )
        except HomeAssistantError as err:
            LOGGER.warning("Retrieval for the LLM API failed: %s", err)
            return None
        language = results[0].meta.get("language") if results else llm_context.language
        return render_selection(
            index, results, data.settings.token_budget, str(language), self.hass, with_question=True
        )
