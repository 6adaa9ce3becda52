"""Config, options and reconfigure flows: everything is set up in the UI.

The agents offered are the ones there are (agents.py), never our own; a language model cannot
be Home Assistant's own agent. An option change reloads the entry before the flow finishes, so
whoever talks to the agent right after saving finds it back (a reload scheduled for later would
leave a moment in which Home Assistant refuses messages to an agent it does not know).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import voluptuous as vol
from homeassistant.config_entries import (
    ConfigEntry,
    ConfigFlow,
    ConfigFlowResult,
    OptionsFlow,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import selector

from .agents import AI_TASK_DOMAIN, agent_exists, ai_task_exists, conversation_agents, is_ours
from .const import (
    CONF_AGENT_ID,
    CONF_ANSWER_QUESTIONS,
    CONF_COMMAND_PARSER,
    CONF_CONFIRM_SECURITY,
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
    HOME_ASSISTANT_AGENT,
    LANGUAGE_AUTO,
    LLM_AGENT,
    LLM_AI_TASK,
    LLM_NONE,
    LLM_PROVIDERS,
    PARSER_RULES,
    PARSERS,
)
from .core import default_lexicons
from .data import async_apply_change
from .llm_client import ai_task_available
from .settings import Settings
from .vectors import async_probe

TITLE = "Context Retrieval"
# Where a user picks the conversation agent of an assistant (the success dialog links there).
VOICE_ASSISTANTS_PATH = "/config/voice-assistants/assistants"


def _languages() -> list[str]:
    return [LANGUAGE_AUTO, *sorted(default_lexicons().lexicons)]


def _agent_choice(agents: dict[str, str], current: str | None) -> selector.SelectSelector:
    """A dropdown of the agents there are, by name; a stored one that is gone stays listed
    under its id, so that the form opens with it and says what is wrong with it."""
    options = [selector.SelectOptionDict(value=k, label=v) for k, v in agents.items()]
    if current and current not in agents:
        options.append(selector.SelectOptionDict(value=current, label=current))
    return selector.SelectSelector(
        selector.SelectSelectorConfig(options=options, mode=selector.SelectSelectorMode.DROPDOWN)
    )


def _agent_schema(hass: HomeAssistant, values: dict[str, Any]) -> vol.Schema:
    agent = values.get(CONF_AGENT_ID, DEFAULTS[CONF_AGENT_ID])
    return vol.Schema(
        {
            vol.Required(CONF_AGENT_ID, default=agent): _agent_choice(
                conversation_agents(hass), agent
            ),
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


def _validate_agent(hass: HomeAssistant, values: dict[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    agent = str(values.get(CONF_AGENT_ID) or "")
    if is_ours(hass, agent):
        errors[CONF_AGENT_ID] = "agent_loop"  # forwarding to ourselves would loop forever
    elif not agent_exists(hass, agent):
        errors[CONF_AGENT_ID] = "agent_not_found"
    return errors


class ContextRetrievalConfigFlow(ConfigFlow, domain=DOMAIN):
    """One entry per Home Assistant: the home has one index."""

    VERSION = 1

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        # The language list comes from the lexicon files: read them off the event loop.
        await self.hass.async_add_executor_job(default_lexicons)
        # Another set-up left open (a closed browser tab) does not block this one; whichever
        # finishes first creates the entry, the other is told it exists.
        await self.async_set_unique_id(DOMAIN, raise_on_progress=False)
        self._abort_if_unique_id_configured()
        errors: dict[str, str] = {}
        if user_input is not None:
            errors = _validate_agent(self.hass, user_input)
            if not errors:
                return self.async_create_entry(
                    title=TITLE,
                    data=user_input,
                    description_placeholders={"assistants_url": VOICE_ASSISTANTS_PATH},
                )
        return self.async_show_form(
            step_id="user", data_schema=_agent_schema(self.hass, user_input or {}), errors=errors
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
                await async_apply_change(self.hass, entry, data={**entry.data, **user_input})
                return self.async_abort(reason="reconfigure_successful")
        return self.async_show_form(
            step_id="reconfigure",
            data_schema=_agent_schema(self.hass, user_input or {**entry.data, **entry.options}),
            errors=errors,
        )

    async def async_step_reauth(self, entry_data: Mapping[str, Any]) -> ConfigFlowResult:
        """The embedding service refused the API key (vectors.py starts this flow)."""
        return await self.async_step_reauth_confirm()

    async def async_step_reauth_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        entry = self._get_reauth_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            options = {
                **entry.options,
                CONF_EMBEDDING_API_KEY: user_input.get(CONF_EMBEDDING_API_KEY, ""),
            }
            errors = await _async_test_embedding(self.hass, {**entry.data, **options})
            if not errors:
                await async_apply_change(self.hass, entry, options=options)
                return self.async_abort(reason="reauth_successful")
        url = Settings.from_entry(entry).embedding_url or ""
        return self.async_show_form(
            step_id="reauth_confirm",
            data_schema=vol.Schema({vol.Required(CONF_EMBEDDING_API_KEY): _password()}),
            errors=errors,
            description_placeholders={"host": urlsplit(url).netloc or url},
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


def _password() -> selector.TextSelector:
    return selector.TextSelector(
        selector.TextSelectorConfig(type=selector.TextSelectorType.PASSWORD)
    )


async def _async_test_embedding(
    hass: HomeAssistant, values: dict[str, Any], *, unreachable_ok: bool = False
) -> dict[str, str]:
    """Ask the embedding service the values name for one vector: the form's errors. A service
    that does not answer is an error only where the answer is the point (a new key); in the
    options it may simply not run yet, and queries say when it fails."""
    failed = await async_probe(hass, Settings.from_values(values))
    if failed is None:
        return {}
    if failed.auth_rejected:
        return {CONF_EMBEDDING_API_KEY: "embedding_invalid_auth"}
    return {} if unreachable_ok else {"base": "embedding_cannot_connect"}


def _embedding(settings: Settings) -> tuple[str, str | None, str | None, str | None]:
    return (
        settings.embedding_kind,
        settings.embedding_url,
        settings.embedding_model,
        settings.embedding_api_key,
    )


def _providers(current: str | None) -> list[str]:
    """The kinds of language model this Home Assistant has: AI tasks from 2025.8 on."""
    offered = [p for p in LLM_PROVIDERS if p != LLM_AI_TASK or ai_task_available()]
    if current in LLM_PROVIDERS and current not in offered:
        offered.append(current)  # stored on a newer release: the form opens with it
    return offered


def _options_schema(hass: HomeAssistant, values: dict[str, Any]) -> vol.Schema:
    def default(key: str) -> Any:
        return values.get(key, DEFAULTS.get(key))

    language_model: dict[Any, Any] = {}
    if ai_task_available():
        language_model[
            vol.Optional(
                CONF_LLM_ENTITY, description={"suggested_value": values.get(CONF_LLM_ENTITY)}
            )
        ] = selector.EntitySelector(selector.EntitySelectorConfig(domain=AI_TASK_DOMAIN))
    language_model[
        vol.Optional(CONF_LLM_AGENT, description={"suggested_value": values.get(CONF_LLM_AGENT)})
    ] = _agent_choice(conversation_agents(hass, language_models=True), values.get(CONF_LLM_AGENT))

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
                options=_providers(values.get(CONF_LLM_PROVIDER)), translation_key="llm_provider"
            )
        ),
        **language_model,
        vol.Required(CONF_LLM_TIMEOUT, default=default(CONF_LLM_TIMEOUT)): _number(1, 60, 0.5, "s"),
        vol.Required(
            CONF_ANSWER_QUESTIONS, default=default(CONF_ANSWER_QUESTIONS)
        ): selector.BooleanSelector(),
        vol.Required(
            CONF_CONFIRM_SECURITY, default=default(CONF_CONFIRM_SECURITY)
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
        ): _password(),
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
        entity = str(values.get(CONF_LLM_ENTITY) or "")
        if not ai_task_available():
            errors[CONF_LLM_PROVIDER] = "ai_task_unavailable"
        elif not entity:
            errors[CONF_LLM_ENTITY] = "llm_missing"
        elif not ai_task_exists(hass, entity):
            errors[CONF_LLM_ENTITY] = "llm_entity_not_found"
    elif provider == LLM_AGENT:
        agent = str(values.get(CONF_LLM_AGENT) or "")
        if not agent:
            errors[CONF_LLM_AGENT] = "llm_missing"
        elif is_ours(hass, agent):
            errors[CONF_LLM_AGENT] = "agent_loop"
        elif agent == HOME_ASSISTANT_AGENT:
            # It matches sentences; it cannot read a request into JSON.
            errors[CONF_LLM_AGENT] = "llm_agent_not_llm"
        elif not agent_exists(hass, agent):
            errors[CONF_LLM_AGENT] = "agent_not_found"
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
            values = {**self.config_entry.data, **user_input}
            if not errors and _embedding(Settings.from_values(values)) != _embedding(
                Settings.from_entry(self.config_entry)
            ):
                # A changed embedding service is asked once: a key it refuses is told here.
                errors = await _async_test_embedding(self.hass, values, unreachable_ok=True)
            if not errors:
                # Numbers from the UI arrive as floats; keep counts whole.
                cleaned = {
                    **user_input,
                    CONF_TOP_K: int(user_input[CONF_TOP_K]),
                    CONF_TOKEN_BUDGET: int(user_input[CONF_TOKEN_BUDGET]),
                }
                if CONF_QUERY_SUGGEST_LIMIT in user_input:
                    cleaned[CONF_QUERY_SUGGEST_LIMIT] = int(user_input[CONF_QUERY_SUGGEST_LIMIT])
                # Applied before the flow finishes: saving returns once the agent is back.
                await async_apply_change(self.hass, self.config_entry, options=cleaned)
                return self.async_create_entry(title="", data=cleaned)
        entry = self.config_entry
        values = {**entry.data, **entry.options, **(user_input or {})}
        return self.async_show_form(
            step_id="init", data_schema=_options_schema(self.hass, values), errors=errors
        )
