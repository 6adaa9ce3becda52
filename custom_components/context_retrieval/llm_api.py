"""The "Context Retrieval" LLM API: Home Assistant's device control (the "Assist" API, named
"Device control" from 2026.11), without the list of every exposed entity.

Selecting it instead of "Device control"/"Assist" in an LLM conversation agent (OpenAI,
Ollama, Anthropic, Google…) is what shrinks the prompt. The model keeps every instruction and
tool of Home Assistant's API; the overview of every exposed entity is replaced by a compact
outline of the home (floors, areas, how many devices of each kind: `core.retrieval.outline`),
and the devices a request is about come from a tool, asked anew on every request
(`llm_relevant.py`); another tool looks up any other exposed device (`llm_lookup.py`). Any
user may use it, like Home Assistant's device-control API: it only ever shows entities exposed
to Assist. Home Assistant's MCP server serves it to MCP clients with the same tools.

Why nothing in the prompt depends on the request: from 2026.11 Home Assistant keeps an LLM
conversation's system prompt and tools unchanged from the second turn on, so that providers
can cache them; a prompt with this turn's devices would show every later turn the first
turn's devices. The prompt here is the same for every turn and every conversation until the
home changes, which is also what a provider's prompt cache needs.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

from .const import LLM_API_ID, LLM_API_NAME, OUTLINE_TOKEN_BUDGET
from .core.retrieval.outline import render_outline
from .data import ContextRetrievalConfigEntry
from .llm_lookup import LOOKUP_TOOL, FindDevicesTool
from .llm_relevant import RELEVANT_TOOL, Memo, RelevantDevicesTool

# The device-control prompt lists the whole house as YAML right after this line. Up to 2026.9
# that overview closed the prompt; from 2026.10 on, the prompt is assembled from every
# integration's fragment and more instructions follow it (device control, the satellite's
# area, timers).
_OVERVIEW_MARKER = "Static Context:"
HOW_TO_GET_DEVICES = (
    "This prompt does not list the devices of this home and stays the same for the whole "
    f"conversation. For each new request about the home, first call {RELEVANT_TOOL}: it "
    "returns the devices that request is about, found for it, with their current state; "
    "use their names with the other tools. Devices of an earlier request do not apply to a "
    "later one. If the devices of the current request are already given at the end of this "
    f"prompt, use those instead. When no device fits, look one up with {LOOKUP_TOOL} or ask "
    "the user which one they mean; never guess an entity id."
)


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


def _api_options() -> dict[str, Any]:
    """`requires_admin` exists from 2026.11: declared, so that every user may use the API."""
    names = (
        {f.name for f in dataclasses.fields(llm.API)}
        if dataclasses.is_dataclass(llm.API)
        else set()
    )
    return {"requires_admin": False} if "requires_admin" in names else {}


class ContextRetrievalAPI(llm.API):
    """Device control, with the devices of each request from a tool."""

    def __init__(self, hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> None:
        super().__init__(hass=hass, id=LLM_API_ID, name=LLM_API_NAME, **_api_options())
        self.entry = entry
        # Home Assistant's instructions and tools depend on the exposed entities and the
        # satellite, not on the utterance: built once per index build and device, not on every
        # message (its prompt lays out the whole house each time, ~0.2 s at 3,000 entities).
        self._assist_cache: dict[tuple[Any, ...], tuple[str, list[Any], Any]] = {}
        self._outline: tuple[Any, str] | None = None
        # The relevant-devices tool's answers of the latest turns (one retrieval per request).
        self._memo: Memo = Memo()

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

    async def _async_outline(self) -> str:
        """The home's outline, made once per index build."""
        index = self.entry.runtime_data.manager.index
        if index is None:
            return ""
        key = (self.entry.runtime_data.manager.builds, id(index))
        if self._outline is None or self._outline[0] != key:
            text = await self.hass.async_add_executor_job(
                partial(render_outline, index, OUTLINE_TOKEN_BUDGET)
            )
            self._outline = (key, text.rstrip("\n"))
        return self._outline[1]

    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        instructions, tools, serializer = await self._async_assist_parts(llm_context)
        outline = await self._async_outline()
        prompt = "\n".join(p for p in (instructions, HOW_TO_GET_DEVICES, outline) if p)
        return llm.APIInstance(
            api=self,
            api_prompt=prompt,
            llm_context=llm_context,
            # Home Assistant's tools, this request's devices, and a lookup of any other.
            tools=[
                *tools,
                RelevantDevicesTool(self.entry, self._memo),
                FindDevicesTool(self.entry),
            ],
            custom_serializer=serializer,
        )
