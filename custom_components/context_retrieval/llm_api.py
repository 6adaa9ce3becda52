"""The "Context Retrieval" LLM API: Assist's tools, but a prompt with only the entities that
matter for this utterance.

Selecting it instead of "Assist" in an LLM conversation agent (OpenAI, Ollama, Anthropic,
Google…) is what shrinks the prompt. The utterance is found, in order: the selection our own
pre-step agent handed over for this context id; `LLMContext.user_prompt` (Home Assistant up to
2025.6); the last user message of the chat log being answered (2025.7+).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm

from .const import LLM_API_ID, LLM_API_NAME, LOGGER

if TYPE_CHECKING:
    from . import ContextRetrievalConfigEntry

# Assist's prompt puts the whole house after this line; everything before it is its preamble.
_ASSIST_OVERVIEW_MARKER = "Static Context:"
NOTHING_RELEVANT = ("No device matched the user's request. If it is about a device, ask which "
                    "one they mean.")
PARTIAL_LIST = ("Only the devices relevant to this request are listed below, not the whole "
                "home; for anything else use the GetLiveContext tool.")


def _current_chat_log() -> Any:
    try:
        from homeassistant.components.conversation.chat_log import current_chat_log
    except ImportError:  # pragma: no cover - very old releases
        return None
    return current_chat_log.get()


def utterance_of(llm_context: llm.LLMContext) -> str | None:
    """The user's words this API instance is for, on any supported Home Assistant."""
    text = getattr(llm_context, "user_prompt", None)
    if text:
        return str(text)
    chat_log = _current_chat_log()
    if chat_log is None:
        return None
    for content in reversed(chat_log.content):
        if getattr(content, "role", None) == "user":
            return str(getattr(content, "content", "") or "") or None
    return None


def conversation_of(llm_context: llm.LLMContext) -> str | None:
    """The conversation being answered, so that "it" refers to the earlier turns."""
    chat_log = _current_chat_log()
    return getattr(chat_log, "conversation_id", None) if chat_log is not None else None


def assist_preamble(assist: llm.APIInstance) -> str:
    """Assist's own instructions, without its list of every exposed entity."""
    api = assist.api
    preamble = getattr(api, "_async_get_preable", None)
    if callable(preamble):
        try:
            return "\n".join(preamble(assist.llm_context))
        except (TypeError, AttributeError):  # private API changed shape: use the split below
            pass
    prompt = assist.api_prompt
    head, marker, _ = prompt.partition(_ASSIST_OVERVIEW_MARKER)
    return head.rstrip() if marker else ""


class ContextRetrievalAPI(llm.API):
    """Assist, narrowed to the retrieved entities."""

    def __init__(self, hass: HomeAssistant, entry: ContextRetrievalConfigEntry) -> None:
        super().__init__(hass=hass, id=LLM_API_ID, name=LLM_API_NAME)
        self.entry = entry
        # Assist's preamble and tools depend on the exposed entities and the satellite, not on
        # the utterance: built once per index build and device, not on every message (Assist
        # lays out the whole house each time, which costs ~0.2 s at 3,000 entities).
        self._assist_cache: dict[tuple[int, str | None, str | None], tuple[str, list[Any],
                                                                           Any]] = {}

    async def _async_assist_parts(self, llm_context: llm.LLMContext) -> tuple[str, list[Any],
                                                                                Any]:
        manager = self.entry.runtime_data.manager
        key = (manager.builds, llm_context.device_id, llm_context.language)
        parts = self._assist_cache.get(key)
        if parts is None:
            assist = await llm.async_get_api(self.hass, llm.LLM_API_ASSIST, llm_context)
            parts = (assist_preamble(assist), list(assist.tools), assist.custom_serializer)
            if len(self._assist_cache) > 32:
                self._assist_cache.clear()
            self._assist_cache[key] = parts
        return parts

    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        preamble, tools, serializer = await self._async_assist_parts(llm_context)
        context_yaml = await self._async_context_for(llm_context)
        prompt = "\n".join(p for p in (preamble, PARTIAL_LIST if context_yaml else "",
                                       context_yaml or NOTHING_RELEVANT) if p)
        return llm.APIInstance(api=self, api_prompt=prompt, llm_context=llm_context,
                               tools=tools, custom_serializer=serializer)

    async def _async_context_for(self, llm_context: llm.LLMContext) -> str | None:
        from .conversation import _satellite_area, async_run_retrieval, render_selection

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
                self.hass, data, index, text, conversation_of(llm_context),
                llm_context.language, _satellite_area(self.hass, llm_context.device_id))
        except HomeAssistantError as err:
            LOGGER.warning("Retrieval for the LLM API failed: %s", err)
            return None
        language: Any = results[0].meta.get("language") if results else llm_context.language
        return render_selection(index, results, data.settings.token_budget, str(language),
                                self.hass, with_question=True)
