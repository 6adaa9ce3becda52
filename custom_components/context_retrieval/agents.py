"""The conversation agents and AI task entities a user can choose in the flows, and a watch on
the chosen ones: a repair issue while one is gone (its integration removed or failing), cleared
when it is back.

Forwarding needs an agent that exists and is not ours (that would loop); a language model for
reading requests also must not be Home Assistant's own agent, which matches sentences and
cannot answer with JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from homeassistant.components import conversation
from homeassistant.components.conversation.agent_manager import get_agent_manager
from homeassistant.const import Platform
from homeassistant.core import Event, EventStateChangedData, HomeAssistant, callback
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.event import async_track_state_change_event
from homeassistant.helpers.start import async_at_started

from .const import DOMAIN, HOME_ASSISTANT_AGENT, LLM_AGENT, LLM_AI_TASK
from .settings import Settings

AI_TASK_DOMAIN = "ai_task"
# Repair issues, by the role of what is missing (their translation keys are the same).
ISSUE_FORWARD_AGENT = "forward_agent_missing"
ISSUE_LLM_AGENT = "llm_agent_missing"
ISSUE_LLM_ENTITY = "llm_entity_missing"


@callback
def is_ours(hass: HomeAssistant, agent_id: str) -> bool:
    """Whether an agent id is this integration's own agent, even after a rename."""
    if agent_id == DOMAIN or agent_id.startswith(f"{Platform.CONVERSATION}.{DOMAIN}"):
        return True
    registered = er.async_get(hass).async_get(agent_id)
    return registered is not None and registered.platform == DOMAIN


@callback
def agent_exists(hass: HomeAssistant, agent_id: str) -> bool:
    """Whether Home Assistant can hand a message to this agent now."""
    return bool(agent_id) and conversation.async_get_agent_info(hass, agent_id) is not None


@callback
def conversation_agents(hass: HomeAssistant, *, language_models: bool = False) -> dict[str, str]:
    """The agents there are now, by id with their names, ours left out; Home Assistant's own
    agent first, or left out too for `language_models`."""
    found: dict[str, str] = {}
    for state in hass.states.async_all(Platform.CONVERSATION):
        if agent_exists(hass, state.entity_id):
            found[state.entity_id] = state.name
    # Agents registered without an entity (the older way, still supported).
    for info in get_agent_manager(hass).async_get_agent_info():
        found.setdefault(info.id, info.name)
    found = {k: v for k, v in found.items() if not is_ours(hass, k)}
    home_assistant = found.pop(HOME_ASSISTANT_AGENT, None)
    ordered = dict(sorted(found.items(), key=lambda item: (item[1].casefold(), item[0])))
    if home_assistant is not None and not language_models:
        return {HOME_ASSISTANT_AGENT: home_assistant, **ordered}
    return ordered


@callback
def ai_task_exists(hass: HomeAssistant, entity_id: str) -> bool:
    state = hass.states.get(entity_id) if entity_id else None
    return state is not None and state.domain == AI_TASK_DOMAIN and state.state != "unavailable"


@dataclass(frozen=True, slots=True)
class Chosen:
    """One agent or entity the options rely on, and the repair issue raised while it is gone."""

    issue: str
    entity_id: str
    exists: Callable[[HomeAssistant, str], bool]


def chosen(settings: Settings) -> list[Chosen]:
    """What the entry relies on: the agent it forwards to, and the language model if any."""
    out = [Chosen(ISSUE_FORWARD_AGENT, settings.agent_id, agent_exists)]
    if settings.llm_provider == LLM_AGENT and settings.llm_agent:
        out.append(Chosen(ISSUE_LLM_AGENT, settings.llm_agent, agent_exists))
    if settings.llm_provider == LLM_AI_TASK and settings.llm_entity:
        out.append(Chosen(ISSUE_LLM_ENTITY, settings.llm_entity, ai_task_exists))
    return out


@callback
def async_check(hass: HomeAssistant, settings: Settings) -> None:
    """A repair issue for each chosen agent or entity that is gone; cleared for the others."""
    relied_on = {c.issue: c for c in chosen(settings)}
    for issue in (ISSUE_FORWARD_AGENT, ISSUE_LLM_AGENT, ISSUE_LLM_ENTITY):
        wanted = relied_on.get(issue)
        if wanted is not None and not wanted.exists(hass, wanted.entity_id):
            ir.async_create_issue(
                hass,
                DOMAIN,
                issue,
                is_fixable=False,
                severity=ir.IssueSeverity.WARNING,
                translation_key=issue,
                translation_placeholders={"agent": wanted.entity_id},
            )
        else:
            ir.async_delete_issue(hass, DOMAIN, issue)


@callback
def async_clear(hass: HomeAssistant) -> None:
    """The entry is gone: nothing it relied on matters any more."""
    for issue in (ISSUE_FORWARD_AGENT, ISSUE_LLM_AGENT, ISSUE_LLM_ENTITY):
        ir.async_delete_issue(hass, DOMAIN, issue)


@callback
def async_watch(hass: HomeAssistant, settings: Settings) -> Callable[[], None]:
    """Check once Home Assistant has started (before, the integrations providing the agents
    may still be loading), then whenever a chosen entity appears or goes away."""
    unsubscribe: list[Callable[[], None]] = []

    @callback
    def check(_: object = None) -> None:
        async_check(hass, settings)

    @callback
    def started(_: HomeAssistant) -> None:
        check()
        watched = [c.entity_id for c in chosen(settings) if "." in c.entity_id]
        if watched:
            unsubscribe.append(async_track_state_change_event(hass, watched, _on_change))

    @callback
    def _on_change(event: Event[EventStateChangedData]) -> None:
        check()

    unsubscribe.append(async_at_started(hass, started))

    @callback
    def stop() -> None:
        while unsubscribe:
            unsubscribe.pop()()

    return stop
