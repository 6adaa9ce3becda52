"""One turn of the "Context Retrieval" conversation agent, from the user's words to the answer.

The turn is read and answered in one language: the utterance's own (detected), the pipeline's
only breaking ties, a language fixed in the options above both. In order: a question understood
with certainty is answered here from the states; otherwise the message is retrieved against
the live index. When two candidates are too close the turn asks back (a question that keeps the
conversation open; what was clear is done first), and when the replies do not answer it twice
it says it stops asking. With Home Assistant's own agent downstream, commands that agent cannot
express ("turn it off", "all … except …", several commands at once, misspelt names) are carried
out here through Home Assistant's intent handlers (intents.py) and confirmed with exactly what
changed (confirm.py). Everything else is forwarded to the downstream agent, in the utterance's
language, with a small YAML context of just the entities that matter, and carried out here after
all when Home Assistant's sentences did not match it.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass, field
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
from .confirm import confirmation, join_sentences
from .const import HOME_ASSISTANT_AGENT, LOGGER, MAX_SPEECH_CHARS, NOTHING_RELEVANT_THIS_TURN
from .core import DeviceIndex, RetrievalResult
from .core.base.lexicon import Lexicon
from .core.base.redact import clean
from .data import ContextRetrievalData
from .intents import async_carry_out
from .retrieval import (
    async_run_retrieval,
    render_selection,
    reply_language,
    satellite_area,
    utterance_language,
)

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
    # The utterance's language (a lexicon's code) and the tag Home Assistant gets for it.
    language: str = ""
    reply_tag: str = ""
    lex: Lexicon | None = field(default=None, repr=False)

    @property
    def conversation_id(self) -> str:
        return self.chat_log.conversation_id

    @property
    def to_home_assistant(self) -> bool:
        return self.data.settings.agent_id == HOME_ASSISTANT_AGENT

    async def async_handle(self) -> ConversationResult:
        data = self.data
        user_input = self.user_input
        index = data.manager.index
        self.reply_tag = user_input.language
        if index is None:
            return await self._async_forward(None)
        self.language = utterance_language(
            data.settings, index, user_input.text, user_input.language
        )
        self.reply_tag = reply_language(self.language, user_input.language, index)
        self.lex = index.lexicons.get(self.language)
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
        data.record(user_input.text, started, results, self.language)

        settled = self._settled(results)
        if settled is not None:
            return self._say(settled, intent.IntentResponseType.QUERY_ANSWER)
        question = next((r.clarification for r in results if r.clarification), None)
        if question is not None:
            return await self._async_ask(question.question, results, index)
        confirms = [r.confirmation.question for r in results if r.confirmation]
        if confirms:
            # "Unlock the front door?": nothing of it is done before the user says yes.
            return await self._async_ask(join_sentences(confirms), results, index)

        context_yaml = render_selection(
            index, results, data.settings.token_budget, self.language, self.hass
        )
        if self.to_home_assistant and any(ours(r) for r in results):
            # What we resolved we carry out (or say why not) ourselves: Home Assistant's
            # sentences would read the words again, and may read them otherwise.
            done = await self._async_execute(results, index)
            if done is not None:
                return done
        if user_input.context is not None:
            # "" when nothing is relevant: the LLM API's tool then says so for this turn too.
            data.hand_over(user_input.context.id, context_yaml or "")
        return await self._async_forward(context_yaml)

    def _settled(self, results: list[RetrievalResult]) -> str | None:
        """What to say when the turn only ends something: a question we gave up on, or one
        the user called off ("算了", "never mind"), a confirmation said no to."""
        lex = self.lex
        assert lex is not None
        notes = [r.meta for r in results]
        if any(m.clarification_abandoned for m in notes):
            return lex.message("clarify_give_up")
        if any(m.clarification_cancelled for m in notes):
            return lex.message("cancelled")
        if any(m.confirmation_declined for m in notes):
            return lex.message("confirm_declined")
        return None

    def _log(self, speech: str) -> None:
        """Write what we answer into the chat log as the assistant's own turn (after the
        downstream agent's, when we answer in its place)."""
        self.chat_log.async_add_assistant_content_without_tools(
            AssistantContent(agent_id=self.agent_id, content=speech)
        )

    def _say(
        self,
        speech: str,
        response_type: intent.IntentResponseType,
        continue_conversation: bool = False,
    ) -> ConversationResult:
        """Answer with `speech` ourselves, without the downstream agent: a question or an
        answer (`QUERY_ANSWER`), never "action done" when nothing was done."""
        speech = spoken(speech)
        self._log(speech)
        response = intent.IntentResponse(language=self.reply_tag)
        response.response_type = response_type
        response.async_set_speech(speech)
        return ConversationResult(
            response=response,
            conversation_id=self.conversation_id,
            continue_conversation=continue_conversation,
        )

    async def _async_ask(
        self, question: str, results: list[RetrievalResult], index: DeviceIndex
    ) -> ConversationResult:
        """Ask back, keeping the conversation open (a voice satellite keeps listening). With
        Home Assistant's agent downstream, the commands that were clear are done first
        ("打开阅读灯和空调": the reading light, then which 空调)."""
        said = ""
        clear = [r for r in results if ours(r)]
        if clear and self.to_home_assistant:
            outcome = await async_carry_out(
                self.hass, self.user_input, clear, index, self.reply_tag
            )
            if outcome is not None and outcome.said_anything and self.lex is not None:
                said = confirmation(outcome, index, self.lex, self.hass)
        return self._say(
            join_sentences([s for s in (said, question) if s]),
            intent.IntentResponseType.QUERY_ANSWER,
            continue_conversation=True,
        )

    async def _async_answer_question(self, index: DeviceIndex) -> ConversationResult | None:
        """A question understood with certainty ("哪些窗户开着？") is answered here from the
        states; anything else (commands, unsure readings, replies to our own question) goes
        on as before. A question of its own drops one we asked."""
        data = self.data
        if not data.settings.answer_questions:
            return None
        queries = data.queries
        text = self.user_input.text
        if self.lex is not None and self.lex.condition_in(text) and not asks(text):
            # "im Arbeitszimmer ist es zu dunkel" asks for the lights, not about a state.
            return None
        compiled = await self.hass.async_add_executor_job(queries.compile, text, self.language)
        if not (compiled.is_question and compiled.confident and compiled.plan is not None):
            return None
        try:
            answer = await queries.async_ask(text, self.language, compiled)
        except HomeAssistantError as err:
            LOGGER.debug("Not answering the question here: %s", err)
            return None
        if not answer.get("success"):
            return None
        state = data.state_for(self.conversation_id)
        state.pending = None
        rows = (answer.get("raw") or {}).get("rows") or []
        if 0 < len(rows) <= REMEMBERED_ROWS:
            # "is the front door locked?" … "lock it": the answer is what "it" means next.
            state.remember([str(r["entity_id"]) for r in rows])
        return self._say(str(answer["human"]), intent.IntentResponseType.QUERY_ANSWER)

    async def _async_forward(self, context_yaml: str | None) -> ConversationResult:
        """Hand the message to the downstream agent, once, with every command's context, in
        the utterance's language (English typed in a Chinese pipeline reaches Home
        Assistant's agent as English)."""
        user_input = self.user_input
        agent = self.data.settings.agent_id
        kwargs: dict[str, Any] = {
            "text": user_input.text,
            "conversation_id": self.conversation_id,
            "context": user_input.context,
            "language": self.reply_tag,
            # While the configured agent is gone (a repair issue says so), Home Assistant's own
            # agent answers rather than nobody.
            "agent_id": agent if agent_exists(self.hass, agent) else HOME_ASSISTANT_AGENT,
            "device_id": user_input.device_id,
            # The caller's own prompt (an automation that started the conversation) first,
            # then the context; neither replaces the other. Never empty: an LLM agent's chat
            # log keeps the previous turn's extra prompt when a turn sends none.
            "extra_system_prompt": "\n\n".join(
                p
                for p in (
                    user_input.extra_system_prompt,
                    context_yaml or NOTHING_RELEVANT_THIS_TURN,
                )
                if p
            ),
        }
        satellite_id = getattr(user_input, "satellite_id", None)  # Home Assistant ≥ 2025.5
        if satellite_id and "satellite_id" in _converse_parameters():
            kwargs["satellite_id"] = satellite_id
        return await conversation.async_converse(self.hass, **kwargs)

    async def _async_execute(
        self, results: list[RetrievalResult], index: DeviceIndex
    ) -> ConversationResult | None:
        """Carry the commands out through Home Assistant's intents and say exactly what
        changed; None when they cannot be expressed that way."""
        mine = [r for r in results if ours(r)]
        outcome = await async_carry_out(self.hass, self.user_input, mine, index, self.reply_tag)
        if outcome is None or self.lex is None:
            return None
        if len(mine) < len(results):
            outcome.nothing = True  # a command of the utterance we could not read
        speech = spoken(confirmation(outcome, index, self.lex, self.hass))
        self._log(speech)
        response = intent.IntentResponse(language=self.reply_tag)
        if outcome.left_alone and not outcome.acted:
            response.response_type = intent.IntentResponseType.QUERY_ANSWER
            response.async_set_speech(speech)
        elif outcome.acted:
            response.async_set_results(
                success_results=outcome.success_results, failed_results=outcome.failed_results
            )
            # Home Assistant's pipeline reads these (were all targets in the satellite's room?)
            response.async_set_states(matched_states=outcome.states)
            response.async_set_speech(speech)
        else:
            response.async_set_error(intent.IntentResponseErrorCode.NO_VALID_TARGETS, speech)
        return ConversationResult(response=response, conversation_id=self.conversation_id)


def asks(text: str) -> bool:
    """Said as a question: it ends with a question mark."""
    return text.rstrip().endswith(("?", "？"))


def spoken(text: str) -> str:
    """What we say, and write into the chat log as the assistant's own turn, cleaned once
    more as a whole: every name in it was cleaned already, this holds for whatever else."""
    return clean(text, MAX_SPEECH_CHARS)


# Commands that select nothing, for a reason we can say ourselves.
SAID_HERE = frozenset(
    {
        "not_found",
        "negated",
        "cannot_do",
        "value_out_of_range",
        "nothing_there",
        "reference_unresolved",
        # "at 11 pm", "later", "in 5 minutes": handed on, a newer Home Assistant's matcher
        # read past the time and switched the lights off at once.
        "delayed",
    }
)


def ours(result: RetrievalResult) -> bool:
    """A command this agent carries out, or answers why not, itself: it selected what to act
    on (and needs no answer or yes first), or it selected nothing for a reason we know."""
    if result.clarification is not None or result.confirmation is not None:
        return False
    if result.selected and result.ir.action not in (None, "query"):
        return True
    return not result.selected and result.meta.not_commanded in SAID_HERE


def _converse_parameters() -> set[str]:
    return set(inspect.signature(conversation.async_converse).parameters)
