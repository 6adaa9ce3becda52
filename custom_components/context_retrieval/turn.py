"""One turn of the "Context Retrieval" conversation agent, from the user's words to the answer.

In order: a question understood with certainty is answered here from the states; otherwise the
message is retrieved against the live index. When two candidates are too close the turn asks
back (and keeps the conversation open). With Home Assistant's own agent downstream, commands
that agent cannot express ("turn it off", "all … except …", several commands at once, misspelt
names) are carried out here through Home Assistant's intent handlers. Everything else is
forwarded to the downstream agent with a small YAML context of just the entities that matter,
and carried out here after all when Home Assistant's sentences did not match it.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass
from typing import Any

from homeassistant.components import conversation
from homeassistant.components.conversation import (
    AssistantContent,
    ChatLog,
    ConversationInput,
    ConversationResult,
)
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent

from .agents import agent_exists
from .const import DOMAIN, HOME_ASSISTANT_AGENT, LOGGER, MAX_SPEECH_CHARS
from .core import DeviceIndex, RetrievalResult
from .core.base.lexicon import Lexicon
from .core.base.redact import clean
from .data import ContextRetrievalData
from .retrieval import async_run_retrieval, language_hint, render_selection, satellite_area

# Our abstract actions that Home Assistant's on/off intents carry out.
INTENT_FOR_ACTION = {
    "turn_on": intent.INTENT_TURN_ON,
    "turn_off": intent.INTENT_TURN_OFF,
    "toggle": intent.INTENT_TOGGLE,
    "open": intent.INTENT_TURN_ON,
    "close": intent.INTENT_TURN_OFF,
    "activate": intent.INTENT_TURN_ON,
    "lock": intent.INTENT_TURN_ON,  # Home Assistant: HassTurnOn locks a lock
    "unlock": intent.INTENT_TURN_OFF,
}
# At most this many rows of an answer become what "it"/"them" refer to next.
REMEMBERED_ROWS = 5


@dataclass
class ConversationTurn:
    """One message of a conversation, answered by the agent `agent_id` (the entity)."""

    hass: HomeAssistant
    data: ContextRetrievalData
    user_input: ConversationInput
    chat_log: ChatLog
    agent_id: str

    @property
    def conversation_id(self) -> str:
        return self.chat_log.conversation_id

    async def async_handle(self) -> ConversationResult:
        data = self.data
        user_input = self.user_input
        index = data.manager.index
        if index is None:
            return await self._async_forward(None)
        answered = await self._async_answer_question(index)
        if answered is not None:
            return answered
        started = time.perf_counter()
        results = await async_run_retrieval(
            self.hass,
            data,
            index,
            user_input.text,
            self.conversation_id,
            user_input.language,
            satellite_area(self.hass, user_input.device_id),
        )
        language = (
            str(results[0].meta.get("language", user_input.language))
            if results
            else user_input.language
        )
        data.record(user_input.text, started, results, language)

        question = next((r.clarification for r in results if r.clarification), None)
        if question is not None:
            return self._say(spoken(question.question), continue_conversation=True)

        context_yaml = render_selection(
            index, results, data.settings.token_budget, language, self.hass
        )
        to_home_assistant = data.settings.agent_id == HOME_ASSISTANT_AGENT
        if to_home_assistant and beyond_default_agent(results):
            done = await self._async_execute(results, index, language)
            if done is not None:
                self._log(done.speech.get("plain", {}).get("speech"))
                return ConversationResult(response=done, conversation_id=self.conversation_id)
        if user_input.context is not None and context_yaml:
            data.hand_over(user_input.context.id, context_yaml)
        result = await self._async_forward(context_yaml)
        if to_home_assistant and result.response.response_type == intent.IntentResponseType.ERROR:
            # Home Assistant's own sentences did not match, but we know what was meant.
            done = await self._async_execute(results, index, language)
            if done is not None:
                return ConversationResult(response=done, conversation_id=self.conversation_id)
        return result

    def _log(self, speech: str | None) -> None:
        """Write what we answer into the chat log as the assistant's own turn."""
        self.chat_log.async_add_assistant_content_without_tools(
            AssistantContent(agent_id=self.agent_id, content=speech)
        )

    def _say(self, speech: str, continue_conversation: bool = False) -> ConversationResult:
        """Answer with `speech` ourselves, without the downstream agent."""
        self._log(speech)
        response = intent.IntentResponse(language=self.user_input.language)
        response.async_set_speech(speech)
        return ConversationResult(
            response=response,
            conversation_id=self.conversation_id,
            continue_conversation=continue_conversation,
        )

    async def _async_answer_question(self, index: DeviceIndex) -> ConversationResult | None:
        """A question understood with certainty ("哪些窗户开着？") is answered here from the
        states; anything else (commands, unsure readings, replies to our own question) goes
        on as before."""
        data = self.data
        if not data.settings.answer_questions:
            return None
        state = data.states.get(self.conversation_id)
        if state is not None and state.pending is not None:
            return None  # "the second one" answers our question; it is not a new one
        queries = data.queries
        text = self.user_input.text
        language = data.settings.language or language_hint(self.user_input.language, index)
        compiled = await self.hass.async_add_executor_job(queries.compile, text, language)
        if not (compiled.is_question and compiled.confident and compiled.plan is not None):
            return None
        try:
            answer = await queries.async_ask(text, language, compiled)
        except HomeAssistantError as err:
            LOGGER.debug("Not answering the question here: %s", err)
            return None
        if not answer.get("success"):
            return None
        rows = (answer.get("raw") or {}).get("rows") or []
        if 0 < len(rows) <= REMEMBERED_ROWS:
            # "is the front door locked?" … "lock it": the answer is what "it" means next.
            data.state_for(self.conversation_id).remember([str(r["entity_id"]) for r in rows])
        return self._say(spoken(str(answer["human"])))

    async def _async_forward(self, context_yaml: str | None) -> ConversationResult:
        """Hand the message to the downstream agent, once, with every command's context."""
        user_input = self.user_input
        agent = self.data.settings.agent_id
        kwargs: dict[str, Any] = {
            "text": user_input.text,
            "conversation_id": self.conversation_id,
            "context": user_input.context,
            "language": user_input.language,
            # While the configured agent is gone (a repair issue says so), Home Assistant's own
            # agent answers rather than nobody.
            "agent_id": agent if agent_exists(self.hass, agent) else HOME_ASSISTANT_AGENT,
            "device_id": user_input.device_id,
            "extra_system_prompt": context_yaml,
        }
        satellite_id = getattr(user_input, "satellite_id", None)  # Home Assistant ≥ 2025.5
        if satellite_id and "satellite_id" in _converse_parameters():
            kwargs["satellite_id"] = satellite_id
        return await conversation.async_converse(self.hass, **kwargs)

    async def _async_execute(
        self, results: list[RetrievalResult], index: DeviceIndex, language: str
    ) -> intent.IntentResponse | None:
        """Carry out on/off style commands on the resolved entities via HA's intent handlers."""
        user_input = self.user_input
        plans = [(r, INTENT_FOR_ACTION.get(r.ir.action or "")) for r in results if r.selected]
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
                    self.hass,
                    platform=DOMAIN,
                    intent_type=intent_type or "",
                    slots={},
                    text_input=user_input.text,
                    context=user_input.context,
                    language=user_input.language,
                    assistant="conversation",
                    device_id=user_input.device_id,
                )
                handled = await handler.async_handle_states(
                    intent_obj,
                    intent.MatchTargetsResult(is_match=True, states=states),
                    intent.MatchTargetsConstraints(),
                )
                succeeded.extend(handled.success_results)
                failed.extend(handled.failed_results)
                names.extend(clean(s.name) for s in states)
        except (intent.IntentError, TypeError, ValueError) as err:
            LOGGER.warning("Could not carry out the command through intents: %s", err)
            return None
        lex = index.lexicons.get(language)
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_results(success_results=succeeded, failed_results=failed)
        outcome = "done" if not failed else "failed"
        response.async_set_speech(spoken(lex.message(outcome, names=short_list(names, lex))))
        return response


def spoken(text: str) -> str:
    """What we say, and write into the chat log as the assistant's own turn, cleaned once
    more as a whole: every name in it was cleaned already, this holds for whatever else."""
    return clean(text, MAX_SPEECH_CHARS)


def short_list(names: list[str], lex: Lexicon) -> str:
    """Names as the language lists them; past four, the first three and how many more."""
    separator = lex.messages.get("list_separator", ", ")
    if len(names) <= 4:
        return separator.join(names)
    return separator.join(names[:3]) + separator + lex.message("and_more", count=len(names) - 3)


def beyond_default_agent(results: list[RetrievalResult]) -> bool:
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
