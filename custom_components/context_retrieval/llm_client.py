"""The engine's `LLMClient`, backed by what the user chose in the options.

- an AI task entity (`ai_task.async_generate_data`, Home Assistant ≥ 2025.8), asked for a
  structured `{"commands": [...]}` object (`{"rule", "rewrite_note"}` for view rules);
- or a conversation agent, asked to answer with JSON only.

Both only return text to the engine, which parses it strictly and falls back to its rules on
anything unusable (`meta.parse_degraded`); timeouts are applied by the engine.
"""

from __future__ import annotations

import json
from typing import Any

import voluptuous as vol
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import selector

from .const import DOMAIN, LLM_AGENT, LLM_AI_TASK, LOGGER
from .core import LLMClient
from .settings import Settings


def ai_task_available() -> bool:
    """Whether this Home Assistant has AI tasks with structured output (2025.8+); imported
    only where it exists."""
    try:
        from homeassistant.components.ai_task import async_generate_data  # noqa: F401
    except ImportError:
        return False
    return True


# What each task asks the AI task entity for: field → (description, is free text).
COMMAND_TASK = (
    "context_retrieval_commands",
    {"commands": ("The JSON command array described above", False)},
)
VIEW_RULE_TASK = (
    "context_retrieval_view_rule",
    {
        "rule": ("The rule object described above", False),
        "rewrite_note": ("How you read the text, in one sentence", True),
    },
)

QUERY_PLAN_TASK = (
    "context_retrieval_query_plan",
    {
        "plan": ("The query plan object described above", False),
        "note": ("How you read the question, in one sentence", True),
    },
)


class AITaskClient:
    """Ask an AI task entity for structured data (the command array, or a view rule)."""

    def __init__(
        self,
        hass: HomeAssistant,
        entity_id: str,
        task: tuple[str, dict[str, tuple[str, bool]]] = COMMAND_TASK,
    ) -> None:
        self.hass = hass
        self.entity_id = entity_id
        self.task = task

    async def complete(self, system_prompt: str, user_text: str) -> str:
        # Only made when `ai_task_available()`: the component is missing before 2025.8.
        from homeassistant.components.ai_task import async_generate_data

        task_name, fields = self.task
        structure = vol.Schema(
            {
                vol.Required(key, description=description): selector.TextSelector()
                if text
                else selector.ObjectSelector()
                for key, (description, text) in fields.items()
            }
        )
        result = await async_generate_data(
            self.hass,
            task_name=task_name,
            entity_id=self.entity_id,
            instructions=f"{system_prompt}\n\nRequest:\n{user_text}",
            structure=structure,
        )
        data: Any = getattr(result, "data", None)
        return data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)


class ConversationAgentClient:
    """Ask a conversation agent, in a throwaway conversation, for JSON only."""

    def __init__(self, hass: HomeAssistant, agent_id: str) -> None:
        self.hass = hass
        self.agent_id = agent_id

    async def complete(self, system_prompt: str, user_text: str) -> str:
        result = await conversation.async_converse(
            self.hass,
            text=user_text,
            conversation_id=None,
            context=Context(),
            agent_id=self.agent_id,
            extra_system_prompt=f"{system_prompt}\nAnswer with the JSON only.",
        )
        speech = result.response.speech.get("plain", {}).get("speech", "")
        if not speech:
            raise HomeAssistantError(translation_domain=DOMAIN, translation_key="llm_no_answer")
        return str(speech)


@callback
def async_create_llm_client(
    hass: HomeAssistant,
    settings: Settings,
    *,
    view_rules: bool = False,
    task: tuple[str, dict[str, tuple[str, bool]]] | None = None,
) -> LLMClient | None:
    """The configured client, or None (rules only). AI tasks are asked for structured data:
    the command array by default, a view rule with `view_rules`, or the given `task`."""
    if settings.llm_provider == LLM_AI_TASK and settings.llm_entity:
        if not ai_task_available():
            LOGGER.warning("AI tasks need Home Assistant 2025.8 or newer; using the rules only")
            return None
        return AITaskClient(
            hass, settings.llm_entity, task or (VIEW_RULE_TASK if view_rules else COMMAND_TASK)
        )
    if settings.llm_provider == LLM_AGENT and settings.llm_agent:
        return ConversationAgentClient(hass, settings.llm_agent)
    return None
