"""Config, options and reconfigure flows: everything is set up in the UI."""

from __future__ import annotations

from typing import Any

import voluptuous as vol
from homeassistant.config_entries import (
    ConfigEntry,
    ConfigFlow,
    ConfigFlowResult,
    OptionsFlow,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import selector

from .const import (
    CONF_AGENT_ID,
    CONF_ANSWER_QUESTIONS,
    CONF_COMMAND_PARSER,
    CONF_EMBEDDING_API_KEY,
    CONF_EMBEDDING_KIND,
    CONF_EMBEDDING_MODEL,
    CONF_EMBEDDING_TIMEOUT,
    CONF_EMBEDDING_URL,
    CONF_EPSILON,
    CONF_KEYWORD_WEIGHT,
    CONF_LANGUAGE,
    CONF_LLM_AGENT,
    CONF_LLM_ENTITY,
    CONF_LLM_PROVIDER,
    CONF_LLM_TIMEOUT,
    CONF_QUERY_AUTO_USE,
    CONF_QUERY_SUGGEST,
    CONF_QUERY_SUGGEST_LIMIT,
    CONF_SEMANTIC_TIMEOUT,
    CONF_TOKEN_BUDGET,
    CONF_TOP_K,
    CONF_VECTOR_WEIGHT,
    DEFAULTS,
    DOMAIN,
    EMBEDDING_KINDS,
    EMBEDDING_NONE,
    LANGUAGE_AUTO,
    LLM_AGENT,
    LLM_AI_TASK,
    LLM_NONE,
    LLM_PROVIDERS,
    PARSER_RULES,
    PARSERS,
)
from .core import default_lexicons
from .llm_client import ai_task_available

TITLE = "Context Retrieval"


def _languages() -> list[str]:
    return [LANGUAGE_AUTO, *sorted(default_lexicons().lexicons)]


def _agent_schema(values: dict[str, Any]) -> vol.Schema:
    return vol.Schema(
        {
            vol.Required(
                CONF_AGENT_ID, default=values.get(CONF_AGENT_ID, DEFAULTS[CONF_AGENT_ID])
            ): selector.ConversationAgentSelector(),
            vol.Required(
                CONF_LANGUAGE, default=values.get(CONF_LANGUAGE, DEFAULTS[CONF_LANGUAGE])
            ): selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=_languages(),
                    translation_key="language",
                    mode=selector.SelectSelectorMode.DROPDOWN,
                )
            ),
        }
    )


def _is_ours(hass: HomeAssistant, agent: str) -> bool:
    """Whether an agent id is this integration's own agent, even after a rename."""
    if agent == DOMAIN or agent.startswith(f"conversation.{DOMAIN}"):
        return True
    entry = er.async_get(hass).async_get(agent)
    return entry is not None and entry.platform == DOMAIN


def _validate_agent(hass: HomeAssistant, values: dict[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    # Forwarding to ourselves would loop forever.
    if _is_ours(hass, str(values.get(CONF_AGENT_ID) or "")):
        errors[CONF_AGENT_ID] = "agent_loop"
    return errors


class ContextRetrievalConfigFlow(ConfigFlow, domain=DOMAIN):
    """One entry per Home Assistant: the home has one index."""

    VERSION = 1

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        # The language list comes from the lexicon files: read them off the event loop.
        await self.hass.async_add_executor_job(default_lexicons)
        await self.async_set_unique_id(DOMAIN)
        self._abort_if_unique_id_configured()
        errors: dict[str, str] = {}
        if user_input is not None:
            errors = _validate_agent(self.hass, user_input)
            if not errors:
                return self.async_create_entry(title=TITLE, data=user_input)
        return self.async_show_form(
            step_id="user", data_schema=_agent_schema(user_input or {}), errors=errors
        )

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        await self.hass.async_add_executor_job(default_lexicons)
        entry = self._get_reconfigure_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            errors = _validate_agent(self.hass, user_input)
            if not errors:
                return self.async_update_reload_and_abort(entry, data_updates=user_input)
        return self.async_show_form(
            step_id="reconfigure",
            data_schema=_agent_schema(user_input or {**entry.data, **entry.options}),
            errors=errors,
        )

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: ConfigEntry) -> OptionsFlow:
        return ContextRetrievalOptionsFlow()


def _number(
    low: float, high: float, step: float, unit: str | None = None
) -> selector.NumberSelector:
    config = selector.NumberSelectorConfig(
        min=low, max=high, step=step, mode=selector.NumberSelectorMode.BOX
    )
    if unit:
        config["unit_of_measurement"] = unit
    return selector.NumberSelector(config)


def _options_schema(values: dict[str, Any]) -> vol.Schema:
    def default(key: str) -> Any:
        return values.get(key, DEFAULTS.get(key))

    schema: dict[Any, Any] = {
        vol.Required(CONF_TOP_K, default=default(CONF_TOP_K)): _number(1, 50, 1),
        vol.Required(CONF_EPSILON, default=default(CONF_EPSILON)): _number(0, 0.5, 0.01),
        vol.Required(CONF_KEYWORD_WEIGHT, default=default(CONF_KEYWORD_WEIGHT)): _number(
            0, 5, 0.05
        ),
        vol.Required(CONF_VECTOR_WEIGHT, default=default(CONF_VECTOR_WEIGHT)): _number(0, 5, 0.05),
        vol.Required(CONF_TOKEN_BUDGET, default=default(CONF_TOKEN_BUDGET)): _number(
            200, 20000, 50
        ),
        vol.Required(
            CONF_COMMAND_PARSER, default=default(CONF_COMMAND_PARSER)
        ): selector.SelectSelector(
            selector.SelectSelectorConfig(options=list(PARSERS), translation_key="command_parser")
        ),
        vol.Required(
            CONF_LLM_PROVIDER, default=default(CONF_LLM_PROVIDER)
        ): selector.SelectSelector(
            selector.SelectSelectorConfig(
                options=list(LLM_PROVIDERS), translation_key="llm_provider"
            )
        ),
        vol.Optional(
            CONF_LLM_ENTITY, description={"suggested_value": values.get(CONF_LLM_ENTITY)}
        ): selector.EntitySelector(selector.EntitySelectorConfig(domain="ai_task")),
        vol.Optional(
            CONF_LLM_AGENT, description={"suggested_value": values.get(CONF_LLM_AGENT)}
        ): selector.ConversationAgentSelector(),
        vol.Required(CONF_LLM_TIMEOUT, default=default(CONF_LLM_TIMEOUT)): _number(1, 60, 0.5, "s"),
        vol.Required(
            CONF_ANSWER_QUESTIONS, default=default(CONF_ANSWER_QUESTIONS)
        ): selector.BooleanSelector(),
        vol.Required(CONF_QUERY_AUTO_USE, default=default(CONF_QUERY_AUTO_USE)): _number(
            0.5, 1, 0.01
        ),
        vol.Required(CONF_QUERY_SUGGEST, default=default(CONF_QUERY_SUGGEST)): _number(
            0.3, 1, 0.01
        ),
        vol.Required(CONF_QUERY_SUGGEST_LIMIT, default=default(CONF_QUERY_SUGGEST_LIMIT)): _number(
            1, 20, 1
        ),
        vol.Required(CONF_SEMANTIC_TIMEOUT, default=default(CONF_SEMANTIC_TIMEOUT)): _number(
            0.1, 30, 0.1, "s"
        ),
        vol.Required(
            CONF_EMBEDDING_KIND, default=default(CONF_EMBEDDING_KIND)
        ): selector.SelectSelector(
            selector.SelectSelectorConfig(
                options=list(EMBEDDING_KINDS), translation_key="embedding_kind"
            )
        ),
        vol.Optional(
            CONF_EMBEDDING_URL, description={"suggested_value": values.get(CONF_EMBEDDING_URL)}
        ): selector.TextSelector(selector.TextSelectorConfig(type=selector.TextSelectorType.URL)),
        vol.Optional(
            CONF_EMBEDDING_MODEL, description={"suggested_value": values.get(CONF_EMBEDDING_MODEL)}
        ): selector.TextSelector(),
        vol.Optional(
            CONF_EMBEDDING_API_KEY,
            description={"suggested_value": values.get(CONF_EMBEDDING_API_KEY)},
        ): selector.TextSelector(
            selector.TextSelectorConfig(type=selector.TextSelectorType.PASSWORD)
        ),
        vol.Required(CONF_EMBEDDING_TIMEOUT, default=default(CONF_EMBEDDING_TIMEOUT)): _number(
            0.1, 30, 0.1, "s"
        ),
    }
    return vol.Schema(schema)


def _validate_options(hass: HomeAssistant, values: dict[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    if (
        float(values.get(CONF_KEYWORD_WEIGHT, 0)) <= 0
        and float(values.get(CONF_VECTOR_WEIGHT, 0)) <= 0
    ):
        errors["base"] = "invalid_weights"
    provider = values.get(CONF_LLM_PROVIDER, DEFAULTS[CONF_LLM_PROVIDER])
    if provider == LLM_AI_TASK:
        if not ai_task_available():
            errors[CONF_LLM_PROVIDER] = "ai_task_unavailable"
        elif not values.get(CONF_LLM_ENTITY):
            errors[CONF_LLM_ENTITY] = "llm_missing"
    elif provider == LLM_AGENT:
        agent = str(values.get(CONF_LLM_AGENT) or "")
        if not agent:
            errors[CONF_LLM_AGENT] = "llm_missing"
        elif _is_ours(hass, agent):
            errors[CONF_LLM_AGENT] = "agent_loop"
    parser = values.get(CONF_COMMAND_PARSER, DEFAULTS[CONF_COMMAND_PARSER])
    if parser != PARSER_RULES and provider == LLM_NONE:
        errors[CONF_COMMAND_PARSER] = "parser_needs_llm"
    if float(values.get(CONF_QUERY_SUGGEST, 0)) > float(values.get(CONF_QUERY_AUTO_USE, 1)):
        errors[CONF_QUERY_SUGGEST] = "suggest_above_auto_use"
    if values.get(CONF_EMBEDDING_KIND, DEFAULTS[CONF_EMBEDDING_KIND]) != EMBEDDING_NONE:
        url = str(values.get(CONF_EMBEDDING_URL) or "")
        if not url.startswith(("http://", "https://")):
            errors[CONF_EMBEDDING_URL] = "embedding_url_invalid"
        elif not values.get(CONF_EMBEDDING_MODEL):
            errors[CONF_EMBEDDING_MODEL] = "embedding_model_missing"
    return errors


class ContextRetrievalOptionsFlow(OptionsFlow):
    """Tuning and the optional language model; applied without a restart."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        errors: dict[str, str] = {}
        if user_input is not None:
            errors = _validate_options(self.hass, user_input)
            if not errors:
                # Numbers from the UI arrive as floats; keep counts whole.
                cleaned = {
                    **user_input,
                    CONF_TOP_K: int(user_input[CONF_TOP_K]),
                    CONF_TOKEN_BUDGET: int(user_input[CONF_TOKEN_BUDGET]),
                }
                if CONF_QUERY_SUGGEST_LIMIT in user_input:
                    cleaned[CONF_QUERY_SUGGEST_LIMIT] = int(user_input[CONF_QUERY_SUGGEST_LIMIT])
                return self.async_create_entry(title="", data=cleaned)
        values = {**self.config_entry.options, **(user_input or {})}
        return self.async_show_form(
            step_id="init", data_schema=_options_schema(values), errors=errors
        )
