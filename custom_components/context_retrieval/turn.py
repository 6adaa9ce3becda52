"""The "Context Retrieval" conversation agent: a pre-step in front of the chosen agent.

Each message is retrieved against the live index. When two candidates are too close it asks
back (and keeps the conversation open); otherwise it forwards the message to the downstream
agent with a small YAML context of just the entities that matter. With Home Assistant's own
agent downstream, commands that agent cannot express ("turn it off", "all … except …", several
commands at once, misspelt names) are carried out here through Home Assistant's intent handlers.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import replace
from functools import partial
from typing import Any, Literal

from homeassistant.components import conversation
from homeassistant.components.conversation import (
    AssistantContent,
    ChatLog,
    ConversationEntity,
    ConversationEntityFeature,
    ConversationInput,
    ConversationResult,
)
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import chat_session, intent
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from . import ContextRetrievalConfigEntry, ContextRetrievalData
from .const import (
    DOMAIN,
    HOME_ASSISTANT_AGENT,
    LOGGER,
    MAX_SPEECH_CHARS,
    PARSER_LLM,
    PARSER_RULES,
)
from .core import DeviceIndex, RetrievalResult, async_retrieve, retrieve, selected_devices
from .core.base.redact import clean
from .core.retrieval.render import quote, render_context

# Our abstract actions that Home Assistant's on/off intents carry out.
_INTENT_FOR_ACTION = {
    "turn_on": intent.INTENT_TURN_ON,
    "turn_off": intent.INTENT_TURN_OFF,
    "toggle": intent.INTENT_TOGGLE,
    "open": intent.INTENT_TURN_ON,
    "close": intent.INTENT_TURN_OFF,
    "activate": intent.INTENT_TURN_ON,
    "lock": intent.INTENT_TURN_ON,  # Home Assistant: HassTurnOn locks a lock
    "unlock": intent.INTENT_TURN_OFF,
}


async def async_setup_entry(hass: HomeAssistant, entry: ContextRetrievalConfigEntry,
                            async_add_entities: AddEntitiesCallback) -> None:
    async_add_entities([ContextRetrievalConversationEntity(entry)])


class ContextRetrievalConversationEntity(ConversationEntity,
                                         conversation.AbstractConversationAgent):
    """Retrieval first, then the user's agent with only the entities that matter."""

    _attr_has_entity_name = True
    _attr_translation_key = "agent"
    _attr_supported_features = ConversationEntityFeature.CONTROL

    def __init__(self, entry: ContextRetrievalConfigEntry) -> None:
        self.entry = entry
        self._attr_unique_id = entry.entry_id
        self._attr_device_info = None

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return MATCH_ALL

    @property
    def data(self) -> ContextRetrievalData:
        return self.entry.runtime_data

    def _forget(self, conversation_id: str) -> None:
        self.data.states.pop(conversation_id, None)
        self.data.cleanup_registered.discard(conversation_id)

    # No `async_process` of our own: Home Assistant's opens the chat session and its log (and,
    # from 2026.11, passes the user's context, so the conversation belongs to that user and a
    # second message while one is answered gets Home Assistant's "busy" answer).

    def _follow_session(self, conversation_id: str) -> None:
        """What "它"/"it" refer to lives as long as Home Assistant keeps the chat session
        (5 minutes)."""
        session = chat_session.current_session.get()
        if session is None or session.conversation_id != conversation_id:
            return  # the bounded per-conversation store forgets it in time anyway
        if conversation_id not in self.data.cleanup_registered:
            self.data.cleanup_registered.add(conversation_id)
            session.async_on_cleanup(partial(self._forget, conversation_id))

    async def _async_handle_message(self, user_input: ConversationInput,
                                    chat_log: ChatLog) -> ConversationResult:
        data = self.data
        index = data.manager.index
        conversation_id = chat_log.conversation_id
        self._follow_session(conversation_id)
        if index is None:
            return await self._async_forward(user_input, conversation_id, None)
        answered = await self._async_answer_question(user_input, chat_log)
        if answered is not None:
            return answered
        started = time.perf_counter()
        results = await async_run_retrieval(self.hass, data, index, user_input.text,
                                            conversation_id, user_input.language,
                                            _satellite_area(self.hass, user_input.device_id))
        language = str(results[0].meta.get("language", user_input.language)) if results else \
            user_input.language
        data.record(user_input.text, started, results, language)

        question = next((r.clarification for r in results if r.clarification), None)
        if question is not None:
            asked = spoken(question.question)
            chat_log.async_add_assistant_content_without_tools(
                AssistantContent(agent_id=self.entity_id or DOMAIN, content=asked))
            response = intent.IntentResponse(language=user_input.language)
            response.async_set_speech(asked)
            return ConversationResult(response=response, conversation_id=conversation_id,
                                      continue_conversation=True)

        context_yaml = render_selection(index, results, data.settings.token_budget,
                                        language, self.hass)
        if data.settings.agent_id == HOME_ASSISTANT_AGENT and _beyond_default_agent(results):
            done = await self._async_execute(user_input, results, index, language)
            if done is not None:
                chat_log.async_add_assistant_content_without_tools(AssistantContent(
                    agent_id=self.entity_id or DOMAIN,
                    content=done.speech.get("plain", {}).get("speech")))
                return ConversationResult(response=done, conversation_id=conversation_id)
        if user_input.context is not None and context_yaml:
            data.hand_over(user_input.context.id, context_yaml)
        result = await self._async_forward(user_input, conversation_id, context_yaml)
        if (data.settings.agent_id == HOME_ASSISTANT_AGENT
                and result.response.response_type == intent.IntentResponseType.ERROR):
            # Home Assistant's own sentences did not match, but we know what was meant.
            done = await self._async_execute(user_input, results, index, language)
            if done is not None:
                return ConversationResult(response=done, conversation_id=conversation_id)
        return result

    async def _async_answer_question(self, user_input: ConversationInput,
                                     chat_log: ChatLog) -> ConversationResult | None:
        """A question understood with certainty ("哪些窗户开着？") is answered here from the
        states; anything else (commands, unsure readings, replies to our own question) goes
        on as before."""
        data = self.data
        if not data.settings.answer_questions:
            return None
        state = data.states.get(chat_log.conversation_id)
        if state is not None and state.pending is not None:
            return None  # "the second one" answers our question; it is not a new one
        queries = data.queries
        language = data.settings.language or _language_hint(user_input.language,
                                                            data.manager.index)  # type: ignore[arg-type]
        compiled = await self.hass.async_add_executor_job(queries.compile, user_input.text,
                                                          language)
        if not (compiled.is_question and compiled.confident and compiled.plan is not None):
            return None
        try:
            answer = await queries.async_ask(user_input.text, language, compiled)
        except HomeAssistantError as err:
            LOGGER.debug("Not answering the question here: %s", err)
            return None
        if not answer.get("success"):
            return None
        rows = (answer.get("raw") or {}).get("rows") or []
        if 0 < len(rows) <= 5:
            # "is the front door locked?" … "lock it": the answer is what "it" means next.
            data.state_for(chat_log.conversation_id).remember(
                [str(r["entity_id"]) for r in rows])
        speech = spoken(str(answer["human"]))
        chat_log.async_add_assistant_content_without_tools(
            AssistantContent(agent_id=self.entity_id or DOMAIN, content=speech))
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_speech(speech)
        return ConversationResult(response=response,
                                  conversation_id=chat_log.conversation_id)

    async def _async_forward(self, user_input: ConversationInput, conversation_id: str,
                             context_yaml: str | None) -> ConversationResult:
        """Hand the message to the downstream agent, once, with every command's context."""
        kwargs: dict[str, Any] = {
            "text": user_input.text,
            "conversation_id": conversation_id,
            "context": user_input.context,
            "language": user_input.language,
            "agent_id": self.data.settings.agent_id,
            "device_id": user_input.device_id,
            "extra_system_prompt": context_yaml,
        }
        satellite_id = getattr(user_input, "satellite_id", None)  # Home Assistant ≥ 2025.5
        if satellite_id and "satellite_id" in _converse_parameters():
            kwargs["satellite_id"] = satellite_id
        return await conversation.async_converse(self.hass, **kwargs)

    async def _async_execute(self, user_input: ConversationInput,
                             results: list[RetrievalResult], index: DeviceIndex,
                             language: str) -> intent.IntentResponse | None:
        """Carry out on/off style commands on the resolved entities via HA's intent handlers."""
        plans = [(r, _INTENT_FOR_ACTION.get(r.ir.action or "")) for r in results if r.selected]
        if not plans or any(intent_type is None for _, intent_type in plans):
            return None
        handlers = {h.intent_type: h for h in intent.async_get(self.hass)}
        names: list[str] = []
        succeeded: list[intent.IntentResponseTarget] = []
        failed: list[intent.IntentResponseTarget] = []
        try:
            for result, intent_type in plans:
                handler = handlers.get(intent_type or "")
                states = [s for e in result.selected_ids if (s := self.hass.states.get(e))]
                if handler is None or not states or not hasattr(handler, "async_handle_states"):
                    return None
                intent_obj = intent.Intent(
                    self.hass, platform=DOMAIN, intent_type=intent_type or "", slots={},
                    text_input=user_input.text, context=user_input.context,
                    language=user_input.language, assistant="conversation",
                    device_id=user_input.device_id)
                handled = await handler.async_handle_states(
                    intent_obj, intent.MatchTargetsResult(is_match=True, states=states),
                    intent.MatchTargetsConstraints())
                succeeded.extend(handled.success_results)
                failed.extend(handled.failed_results)
                names.extend(clean(s.name) for s in states)
        except (intent.IntentError, TypeError, ValueError) as err:
            LOGGER.warning("Could not carry out the command through intents: %s", err)
            return None
        lex = index.lexicons.get(language)
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_results(success_results=succeeded, failed_results=failed)
        response.async_set_speech(spoken(lex.message("done" if not failed else "failed",
                                                     names=_short_list(names, lex))))
        return response


def spoken(text: str) -> str:
    """What we say, and write into the chat log as the assistant's own turn, cleaned once
    more as a whole: every name in it was cleaned already, this holds for whatever else."""
    return clean(text, MAX_SPEECH_CHARS)


def _short_list(names: list[str], lex: Any) -> str:
    separator = lex.messages.get("list_separator", ", ")
    if len(names) <= 4:
        return separator.join(names)
    return separator.join(names[:3]) + separator + lex.message("and_more",
                                                               count=len(names) - 3)


def _beyond_default_agent(results: list[RetrievalResult]) -> bool:
    """Commands Home Assistant's sentence matcher cannot express, but we resolved."""
    if not results or not all(r.selected for r in results):
        return False
    if len(results) > 1:
        return True
    for r in results:
        if r.ir.references or r.meta.get("reference") or r.ir.quantifier == "except":
            return True
        if r.meta.get("spelling_repaired") or r.meta.get("clarification_answer"):
            return True
        if any(m.partial for m in r.ir.mentions):
            return True
    return False


def _converse_parameters() -> set[str]:
    return set(inspect.signature(conversation.async_converse).parameters)


def _satellite_area(hass: HomeAssistant, device_id: str | None) -> str | None:
    if not device_id:
        return None
    device = dr.async_get(hass).async_get(device_id)
    return device.area_id if device else None


async def async_run_retrieval(hass: HomeAssistant, data: ContextRetrievalData,
                              index: DeviceIndex, text: str, conversation_id: str | None,
                              language: str | None, context_area: str | None
                              ) -> list[RetrievalResult]:
    """Retrieve with the entry's settings; the rule path runs off the event loop."""
    settings = data.settings
    state = data.state_for(conversation_id) if conversation_id else None
    # A fixed language in the options wins; otherwise every utterance is read in its own
    # language ("关掉台灯" in an English pipeline), the pipeline's only breaking ties.
    lang = settings.language or index.lexicons.detect(text, fallback=_language_hint(language,
                                                                                  index))
    options = settings.options()
    # An embedding service, when configured, is asked from the executor only (blocking I/O);
    # when it fails the hashing vectors answer and the results say so.
    vectors = data.vectors.for_index(index)
    if settings.command_parser != PARSER_RULES and data.llm_client is not None:
        results = await async_retrieve(text, index, data.llm_client, state, settings.top_k,
                                       vectors, lang, context_area=context_area,
                                       options=options, offload=hass.async_add_executor_job)
        _note_degradation(data, vectors, results)
        if settings.command_parser == PARSER_LLM and any(r.meta.get("parse_degraded")
                                                       for r in results):
            # "LLM only": the rules were not asked for, so nothing is selected.
            for r in results:
                r.selected = []
                r.clarification = None
        return results
    results = await hass.async_add_executor_job(partial(
        retrieve, text, index, state, settings.top_k, vectors, lang,
        context_area=context_area, options=options))
    _note_degradation(data, vectors, results)
    return results


def _note_degradation(data: ContextRetrievalData, vectors: Any,
                      results: list[RetrievalResult]) -> None:
    degraded = data.vectors.degradation() if vectors is not None else None
    if degraded:
        for result in results:
            result.meta["semantic_degraded"] = dict(degraded)


def _language_hint(language: str | None, index: DeviceIndex) -> str | None:
    """The pipeline's language when a lexicon exists for it, else detect per utterance."""
    if not language or language == MATCH_ALL:
        return None
    lex = index.lexicons.get(language)
    primary = language.lower().replace("_", "-").split("-")[0]
    return lex.language if lex.language == primary or language.lower() in lex.aliases else None


def render_selection(index: DeviceIndex, results: list[RetrievalResult], token_budget: int,
                     language: str, hass: HomeAssistant | None = None,
                     with_question: bool = False) -> str | None:
    """The YAML context for the selected entities, with their live states.

    With `with_question`, a command we would ask back about contributes its candidates and
    the question, so an LLM can ask it itself.
    """
    devices = selected_devices(results, index)
    extra: list[str] = []
    if with_question:
        seen = {d.entity_id for d in devices}
        for r in results:
            if r.clarification is None:
                continue
            extra.append(f"ask_user: {quote(clean(r.clarification.question, 300))}")
            pool = r.meta.get("clarification_pool") or [o.entity_id for o in
                                                      r.clarification.options]
            for entity_id in pool:
                if entity_id in index and entity_id not in seen:
                    seen.add(entity_id)
                    devices.append(index.device(entity_id))
    if not devices:
        return None
    if hass is not None:
        devices = [replace(d, state=(s.state if (s := hass.states.get(d.entity_id)) else None))
                   for d in devices]
    lex = index.lexicons.get(language)
    return render_context(devices, header=lex.messages.get("yaml_header", ""),
                          token_budget=token_budget, index=index, extra_sections=extra).yaml
