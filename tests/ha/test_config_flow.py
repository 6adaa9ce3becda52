"""Config, reconfigure and options flows: what a homeowner sees and what gets stored."""

from __future__ import annotations

import ast
import json
import logging
import re
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
import yaml
from homeassistant import data_entry_flow
from homeassistant.config_entries import SOURCE_USER, ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval import agents, config_flow, errors, llm_client, views
from custom_components.context_retrieval.const import (
    CONF_AGENT_ID,
    CONF_ANSWER_QUESTIONS,
    CONF_COMMAND_PARSER,
    CONF_CONFIRM_SECURITY,
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
    DOMAIN,
    LLM_PROVIDERS,
    PARSERS,
)
from tests.ha.fakes import async_add_fake_agent_entity, async_setup_integration

PACKAGE = Path(config_flow.__file__).parent
TRANSLATION_FILES = ("strings.json", "translations/en.json", "translations/zh-Hans.json")

# What a homeowner would submit in the options form (numbers come from the UI as floats).
OPTIONS: dict[str, Any] = {
    CONF_TOP_K: 7.0,
    CONF_EPSILON: 0.1,
    CONF_KEYWORD_WEIGHT: 1.5,
    CONF_VECTOR_WEIGHT: 0.5,
    CONF_TOKEN_BUDGET: 2000.0,
    CONF_COMMAND_PARSER: "rules",
    CONF_LLM_PROVIDER: "none",
    CONF_LLM_TIMEOUT: 7.5,
    CONF_ANSWER_QUESTIONS: False,
    CONF_CONFIRM_SECURITY: False,
    CONF_QUERY_AUTO_USE: 0.9,
    CONF_QUERY_SUGGEST: 0.75,
    CONF_QUERY_SUGGEST_LIMIT: 3.0,
    CONF_SEMANTIC_TIMEOUT: 1.5,
    CONF_EMBEDDING_KIND: "none",
    CONF_EMBEDDING_TIMEOUT: 3.0,
}


def _refused(error: data_entry_flow.InvalidData) -> dict[str, str]:
    """The fields a form refused before our validators ran: a value its dropdown does not
    offer (the UI cannot send it; an API call can)."""
    return dict.fromkeys(map(str, error.schema_errors), "not_offered")


async def _submit(hass: HomeAssistant, flow_id: str, user_input: dict[str, Any]) -> Any:
    """A config or reconfigure form sent; a refused field is reported like a form error."""
    try:
        return await hass.config_entries.flow.async_configure(flow_id, user_input=user_input)
    except data_entry_flow.InvalidData as err:
        return {"type": FlowResultType.FORM, "errors": _refused(err)}


async def _user_flow(hass: HomeAssistant) -> dict[str, Any]:
    return await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})


async def _options_flow(
    hass: HomeAssistant, entry: MockConfigEntry, **changes: Any
) -> dict[str, Any]:
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "init"
    try:
        return await hass.config_entries.options.async_configure(
            result["flow_id"], user_input={**OPTIONS, **changes}
        )
    except data_entry_flow.InvalidData as err:
        return {"type": FlowResultType.FORM, "step_id": "init", "errors": _refused(err)}


# --- setup ----------------------------------------------------------------------------------


async def test_user_step_creates_one_entry(hass: HomeAssistant, home: dict[str, str]) -> None:
    result = await _user_flow(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"
    assert not result["errors"]

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        user_input={CONF_AGENT_ID: "conversation.home_assistant", CONF_LANGUAGE: "zh"},
    )
    await hass.async_block_till_done()

    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "Context Retrieval"
    assert result["data"] == {CONF_AGENT_ID: "conversation.home_assistant", CONF_LANGUAGE: "zh"}
    entries = hass.config_entries.async_entries(DOMAIN)
    assert len(entries) == 1
    entry = entries[0]
    assert entry.unique_id == DOMAIN
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.settings.language == "zh"
    assert entry.runtime_data.settings.agent_id == "conversation.home_assistant"


async def test_user_step_offers_the_default_agent_and_auto_language(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    result = await _user_flow(hass)
    defaults = {str(key): key.default() for key in result["data_schema"].schema}
    assert defaults == {CONF_AGENT_ID: "conversation.home_assistant", CONF_LANGUAGE: "auto"}


async def test_second_setup_aborts_already_configured(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    result = await _user_flow(hass)
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "already_configured"
    assert len(hass.config_entries.async_entries(DOMAIN)) == 1


@pytest.mark.parametrize(
    "agent", ["conversation.context_retrieval", "conversation.context_retrieval_2"]
)
async def test_user_step_rejects_forwarding_to_itself(
    hass: HomeAssistant, home: dict[str, str], agent: str
) -> None:
    result = await _user_flow(hass)
    refused = await _submit(hass, result["flow_id"], {CONF_AGENT_ID: agent, CONF_LANGUAGE: "auto"})
    assert refused["type"] is FlowResultType.FORM
    assert refused["errors"] == {CONF_AGENT_ID: "not_offered"}
    assert not hass.config_entries.async_entries(DOMAIN)
    # Nor would the check behind the form let it through.
    assert config_flow._validate_agent(hass, {CONF_AGENT_ID: agent}) == {
        CONF_AGENT_ID: "agent_loop"
    }

    # The homeowner can correct it in the same flow.
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        user_input={CONF_AGENT_ID: "conversation.home_assistant", CONF_LANGUAGE: "auto"},
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY


# --- reconfigure ----------------------------------------------------------------------------


async def test_reconfigure_changes_agent_and_language_and_reloads(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    other = (await async_add_fake_agent_entity(hass, "other_agent")).entity_id
    before = loaded_entry.runtime_data
    assert before.settings.language is None  # "auto"

    result = await loaded_entry.start_reconfigure_flow(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "reconfigure"
    defaults = {str(key): key.default() for key in result["data_schema"].schema}
    assert defaults == {CONF_AGENT_ID: "conversation.home_assistant", CONF_LANGUAGE: "auto"}

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], user_input={CONF_AGENT_ID: other, CONF_LANGUAGE: "en"}
    )
    # Reloaded before the flow finishes: nothing left to wait for.
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    assert loaded_entry.state is ConfigEntryState.LOADED

    assert loaded_entry.data[CONF_AGENT_ID] == other
    assert loaded_entry.data[CONF_LANGUAGE] == "en"
    assert loaded_entry.state is ConfigEntryState.LOADED
    after = loaded_entry.runtime_data
    assert after is not before  # reloaded, not restarted
    assert after.settings.agent_id == other
    assert after.settings.language == "en"
    assert after.manager.index is not None and "light.living_lamp" in after.manager.index


async def test_reconfigure_rejects_forwarding_to_itself(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    result = await loaded_entry.start_reconfigure_flow(hass)
    offered = _offered(result, CONF_AGENT_ID)
    assert "conversation.context_retrieval" not in offered
    assert offered[0] == "conversation.home_assistant"
    result = await _submit(
        hass,
        result["flow_id"],
        {CONF_AGENT_ID: "conversation.context_retrieval", CONF_LANGUAGE: "auto"},
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_AGENT_ID: "not_offered"}
    assert loaded_entry.data[CONF_AGENT_ID] == "conversation.home_assistant"


def _offered(form: Any, field: str) -> list[str]:
    """The values a form's dropdown offers for a field."""
    schema = form["data_schema"].schema
    chooser = next(value for key, value in schema.items() if str(key) == field)
    return [o["value"] if isinstance(o, dict) else o for o in chooser.config["options"]]


def _own_agent(hass: HomeAssistant) -> str:
    """The entity id of this integration's conversation agent."""
    return next(
        e.entity_id
        for e in er.async_get(hass).entities.values()
        if e.platform == DOMAIN and e.domain == "conversation"
    )


async def test_reconfigure_rejects_our_own_agent_by_its_entity_id(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    result = await loaded_entry.start_reconfigure_flow(hass)
    result = await _submit(
        hass, result["flow_id"], {CONF_AGENT_ID: _own_agent(hass), CONF_LANGUAGE: "auto"}
    )
    assert result["errors"] == {CONF_AGENT_ID: "not_offered"}
    assert config_flow._validate_agent(hass, {CONF_AGENT_ID: _own_agent(hass)}) == {
        CONF_AGENT_ID: "agent_loop"
    }


async def test_renamed_own_agent_is_still_rejected(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    er.async_get(hass).async_update_entity(_own_agent(hass), new_entity_id="conversation.pre_step")
    await hass.async_block_till_done()
    result = await loaded_entry.start_reconfigure_flow(hass)
    assert "conversation.pre_step" not in _offered(result, CONF_AGENT_ID)
    assert config_flow._validate_agent(hass, {CONF_AGENT_ID: "conversation.pre_step"}) == {
        CONF_AGENT_ID: "agent_loop"
    }
    assert loaded_entry.data[CONF_AGENT_ID] == "conversation.home_assistant"

    # Nor can it serve as the language model.
    result = await hass.config_entries.options.async_init(loaded_entry.entry_id)
    assert "conversation.pre_step" not in _offered(result, CONF_LLM_AGENT)
    assert config_flow._validate_options(
        hass,
        {
            **OPTIONS,
            CONF_LLM_PROVIDER: "conversation_agent",
            CONF_LLM_AGENT: "conversation.pre_step",
        },
    ) == {CONF_LLM_AGENT: "agent_loop"}


async def test_the_agent_is_called_context_retrieval(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    state = hass.states.get(_own_agent(hass))
    assert state is not None
    assert state.attributes.get("friendly_name") == "Context Retrieval"
    assert state.entity_id == "conversation.context_retrieval"


# --- options --------------------------------------------------------------------------------


async def test_options_form_shows_the_defaults(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    result = await hass.config_entries.options.async_init(loaded_entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    defaults = {
        str(key): key.default()
        for key in result["data_schema"].schema
        if key.default is not None and callable(key.default) and key.default() is not None
    }
    assert defaults[CONF_TOP_K] == 5
    assert defaults[CONF_TOKEN_BUDGET] == 1500
    assert defaults[CONF_LLM_PROVIDER] == "none"
    assert defaults[CONF_COMMAND_PARSER] == "rules"


async def test_options_store_every_option_with_types_and_apply_without_restart(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    before = loaded_entry.runtime_data
    result = await _options_flow(hass, loaded_entry)
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY

    options = loaded_entry.options
    assert options == {
        **OPTIONS,
        CONF_TOP_K: 7,
        CONF_TOKEN_BUDGET: 2000,
        CONF_QUERY_SUGGEST_LIMIT: 3,
    }
    for key in (CONF_TOP_K, CONF_TOKEN_BUDGET, CONF_QUERY_SUGGEST_LIMIT):
        assert type(options[key]) is int, key
    for key in (CONF_EPSILON, CONF_KEYWORD_WEIGHT, CONF_VECTOR_WEIGHT, CONF_LLM_TIMEOUT):
        assert isinstance(options[key], float), key

    # Applied by reloading the entry: new runtime data with the new settings.
    assert loaded_entry.state is ConfigEntryState.LOADED
    after = loaded_entry.runtime_data
    assert after is not before
    settings = after.settings
    assert (
        settings.top_k,
        settings.epsilon,
        settings.keyword_weight,
        settings.vector_weight,
        settings.token_budget,
        settings.llm_timeout,
    ) == (7, 0.1, 1.5, 0.5, 2000, 7.5)
    assert settings.command_parser == "rules"
    assert settings.llm_provider == "none"
    assert after.llm_client is None
    assert settings.confirm_security is False
    assert settings.options().confirm_security is False
    assert (
        settings.answer_questions,
        settings.query_auto_use,
        settings.query_suggest,
        settings.query_suggest_limit,
    ) == (False, 0.9, 0.75, 3)
    assert (
        after.queries.auto_use,
        after.queries.suggest_threshold,
        after.queries.suggest_limit,
    ) == (0.9, 0.75, 3)
    # Options reopen with the stored values as defaults.
    result = await hass.config_entries.options.async_init(loaded_entry.entry_id)
    defaults = {
        str(key): key.default() for key in result["data_schema"].schema if callable(key.default)
    }
    assert defaults[CONF_TOP_K] == 7
    assert defaults[CONF_TOKEN_BUDGET] == 2000


async def test_options_with_a_conversation_agent_as_language_model(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    model = (await async_add_fake_agent_entity(hass, "ollama")).entity_id
    form = await hass.config_entries.options.async_init(loaded_entry.entry_id)
    # Only real language models are offered: neither Home Assistant's agent nor ours.
    assert _offered(form, CONF_LLM_AGENT) == [model]
    result = await _options_flow(
        hass,
        loaded_entry,
        **{
            CONF_COMMAND_PARSER: "llm_with_fallback",
            CONF_LLM_PROVIDER: "conversation_agent",
            CONF_LLM_AGENT: model,
        },
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert loaded_entry.options[CONF_LLM_AGENT] == model
    settings = loaded_entry.runtime_data.settings
    assert settings.command_parser == "llm_with_fallback"
    assert settings.llm_provider == "conversation_agent"
    assert settings.llm_agent == model
    assert isinstance(loaded_entry.runtime_data.llm_client, llm_client.ConversationAgentClient)


@pytest.mark.parametrize(
    ("changes", "errors"),
    [
        ({CONF_KEYWORD_WEIGHT: 0.0, CONF_VECTOR_WEIGHT: 0.0}, {"base": "invalid_weights"}),
        ({CONF_LLM_PROVIDER: "conversation_agent"}, {CONF_LLM_AGENT: "llm_missing"}),
        (
            {
                CONF_LLM_PROVIDER: "conversation_agent",
                CONF_LLM_AGENT: "conversation.context_retrieval",
            },
            {CONF_LLM_AGENT: "not_offered"},
        ),
        (
            {CONF_LLM_PROVIDER: "conversation_agent", CONF_LLM_AGENT: "Home Assistant"},
            {CONF_LLM_AGENT: "not_offered"},
        ),
        (
            {
                CONF_LLM_PROVIDER: "conversation_agent",
                CONF_LLM_AGENT: "conversation.home_assistant",
            },
            {CONF_LLM_AGENT: "not_offered"},
        ),
        ({CONF_COMMAND_PARSER: "llm"}, {CONF_COMMAND_PARSER: "parser_needs_llm"}),
        ({CONF_COMMAND_PARSER: "llm_with_fallback"}, {CONF_COMMAND_PARSER: "parser_needs_llm"}),
        ({CONF_LLM_PROVIDER: "ai_task"}, {CONF_LLM_PROVIDER: "not_offered"}),
    ],
    ids=[
        "invalid_weights",
        "llm_missing",
        "our_own_agent",
        "a_name_not_an_agent",
        "home_assistant_is_no_language_model",
        "parser_needs_llm",
        "parser_needs_llm_fallback",
        "ai_task_unavailable",
    ],
)
async def test_options_errors(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    changes: dict[str, Any],
    errors: dict[str, str],
) -> None:
    before = loaded_entry.runtime_data
    # AI tasks are missing before 2025.8; on newer releases that is simulated.
    with patch.object(config_flow, "ai_task_available", return_value=False):
        result = await _options_flow(hass, loaded_entry, **changes)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "init"
    assert result["errors"] == errors
    # Nothing stored, nothing reloaded.
    assert loaded_entry.options == {}
    assert loaded_entry.runtime_data is before


async def test_ai_task_is_feature_detected_on_this_home_assistant() -> None:
    try:
        import homeassistant.components.ai_task as ai_task
    except ImportError:
        expected = False
    else:
        expected = hasattr(ai_task, "async_generate_data")
    assert llm_client.ai_task_available() is expected


async def test_options_ai_task_without_entity_asks_for_one(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    """Where AI tasks exist, the entity is required."""
    with patch.object(config_flow, "ai_task_available", return_value=True):
        result = await _options_flow(hass, loaded_entry, **{CONF_LLM_PROVIDER: "ai_task"})
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_LLM_ENTITY: "llm_missing"}


async def test_options_error_can_be_corrected(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    result = await _options_flow(
        hass, loaded_entry, **{CONF_KEYWORD_WEIGHT: 0.0, CONF_VECTOR_WEIGHT: 0.0}
    )
    assert result["errors"] == {"base": "invalid_weights"}
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], user_input={**OPTIONS, CONF_KEYWORD_WEIGHT: 0.0}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert loaded_entry.runtime_data.settings.keyword_weight == 0.0
    assert loaded_entry.runtime_data.settings.vector_weight == 0.5


# --- strings and translations ---------------------------------------------------------------


def _load(name: str) -> dict[str, Any]:
    return json.loads((PACKAGE / name).read_text(encoding="utf-8"))


def _flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, path + "."))
        else:
            out[path] = value
    return out


def _functions(tree: ast.AST) -> dict[str, ast.AST]:
    return {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def _error_keys(node: ast.AST) -> set[str]:
    """Every `errors[...] = "key"` inside a function."""
    keys = set()
    for sub in ast.walk(node):
        if (
            isinstance(sub, ast.Assign)
            and isinstance(sub.value, ast.Constant)
            and any(
                isinstance(t, ast.Subscript)
                and isinstance(t.value, ast.Name)
                and t.value.id == "errors"
                for t in sub.targets
            )
        ):
            keys.add(sub.value.value)
    return keys


# Abort reasons Home Assistant's flow helpers give on our behalf, by the helper called.
IMPLICIT_ABORTS = {
    "_abort_if_unique_id_configured": "already_configured",
    "async_update_reload_and_abort": "reconfigure_successful",
    "async_update_and_abort": "reconfigure_successful",
    "_abort_if_unique_id_mismatch": "unique_id_mismatch",
}


def _flow_reasons(tree: ast.AST) -> set[str]:
    """Every abort reason a flow module can end with: given as `reason=`, or implied by the
    helper it calls (`async_set_unique_id` aborts with "already_in_progress" while another
    flow holds the id, unless told `raise_on_progress=False`)."""
    reasons: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called in IMPLICIT_ABORTS:
            reasons.add(IMPLICIT_ABORTS[called])
        if called == "async_set_unique_id" and not any(
            kw.arg == "raise_on_progress"
            and isinstance(kw.value, ast.Constant)
            and kw.value.value is False
            for kw in node.keywords
        ):
            reasons.add("already_in_progress")
        for kw in node.keywords:
            if kw.arg == "reason" and isinstance(kw.value, ast.Constant):
                reasons.add(kw.value.value)
    return reasons


def test_the_flow_reasons_walker_sees_what_home_assistant_adds() -> None:
    """The walker above finds the reasons Home Assistant's helpers give (so that a new helper
    call cannot add an untranslated abort unnoticed)."""
    source = (
        "async def step(self):\n"
        "    await self.async_set_unique_id('x')\n"
        "    self._abort_if_unique_id_configured()\n"
        "    return self.async_abort(reason='custom')\n"
    )
    assert _flow_reasons(ast.parse(source)) == {
        "already_in_progress",
        "already_configured",
        "custom",
    }
    quiet = (
        "async def step(self):\n    await self.async_set_unique_id('x', raise_on_progress=False)\n"
    )
    assert _flow_reasons(ast.parse(quiet)) == set()


async def test_an_abandoned_set_up_does_not_block_the_next(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    """A set-up left open (its browser tab closed) used to abort every later one with an
    untranslated "already_in_progress"."""
    abandoned = await _user_flow(hass)
    assert abandoned["type"] is FlowResultType.FORM
    result = await _user_flow(hass)
    assert result["type"] is FlowResultType.FORM
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        user_input={CONF_AGENT_ID: "conversation.home_assistant", CONF_LANGUAGE: "auto"},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    # Home Assistant ends the abandoned one with it (same unique id); a new one is told, in
    # words, that the entry exists.
    assert not hass.config_entries.flow.async_progress()
    late = await _user_flow(hass)
    assert late["type"] is FlowResultType.ABORT
    assert late["reason"] == "already_configured"
    for name in TRANSLATION_FILES:
        assert _has(_load(name), f"config.abort.{late['reason']}"), name


async def test_the_success_dialog_says_where_to_pick_the_agent(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    result = await _user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        user_input={CONF_AGENT_ID: "conversation.home_assistant", CONF_LANGUAGE: "auto"},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    # The frontend shows config.create_entry.<description or "default"> with these values.
    key = result.get("description") or "default"
    placeholders = result["description_placeholders"]
    assert placeholders == {"assistants_url": "/config/voice-assistants/assistants"}
    for name in TRANSLATION_FILES:
        text = _load(name)["config"]["create_entry"][key]
        assert "]({assistants_url})" in text, name  # a link, in the words of each language


def _required_paths(option_keys: set[str]) -> set[str]:
    """Every string the Python sources and services.yaml refer to, as a strings.json path."""
    paths: set[str] = set()
    flow = ast.parse((PACKAGE / "config_flow.py").read_text(encoding="utf-8"))
    functions = _functions(flow)
    agent_errors = _error_keys(functions["_validate_agent"])
    option_errors = _error_keys(functions["_validate_options"])
    assert agent_errors == {"agent_loop", "agent_not_found"}
    assert {
        "invalid_weights",
        "llm_missing",
        "agent_loop",
        "agent_not_found",
        "llm_agent_not_llm",
        "llm_entity_not_found",
        "parser_needs_llm",
        "ai_task_unavailable",
    } <= option_errors
    # The config flow (user + reconfigure) uses _validate_agent; the options flow the other.
    paths |= {f"config.error.{key}" for key in agent_errors}
    paths |= {f"options.error.{key}" for key in option_errors}
    all_error_keys = set()
    for name, node in functions.items():
        all_error_keys |= {(name, key) for key in _error_keys(node)}
    assert {name for name, _ in all_error_keys} <= {"_validate_agent", "_validate_options"}, (
        "errors set outside the validators; extend this test"
    )
    # Every way the flows end: each abort reason, and the success dialog.
    reasons = _flow_reasons(flow)
    assert {"already_configured", "reconfigure_successful"} <= reasons
    paths |= {f"config.abort.{reason}" for reason in reasons}
    paths.add("config.create_entry.default")
    paths |= {
        f"config.step.{step}.data.{field}"
        for step in ("user", "reconfigure")
        for field in (CONF_AGENT_ID, CONF_LANGUAGE)
    }
    paths |= {f"options.step.init.data.{key}" for key in option_keys}
    paths |= {
        f"options.step.init.data_description.{key}"
        for key in (CONF_COMMAND_PARSER, CONF_LLM_PROVIDER, CONF_LLM_ENTITY, CONF_LLM_AGENT)
    }
    for issue in (agents.ISSUE_FORWARD_AGENT, agents.ISSUE_LLM_AGENT, agents.ISSUE_LLM_ENTITY):
        paths |= {f"issues.{issue}.title", f"issues.{issue}.description"}
    paths |= {f"selector.language.options.{lang}" for lang in config_flow._languages()}
    paths |= {f"selector.command_parser.options.{parser}" for parser in PARSERS}
    paths |= {f"selector.llm_provider.options.{provider}" for provider in LLM_PROVIDERS}

    glue = [p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] != "core"]
    assert PACKAGE / "services" / "views.py" in glue  # the service modules are read too
    for source in sorted(glue):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                for kw in node.keywords:
                    if kw.arg != "translation_key" or not isinstance(kw.value, ast.Constant):
                        continue
                    key = kw.value.value
                    if called == "SelectSelectorConfig":
                        paths.add(f"selector.{key}")
                    elif called == "async_create_issue":
                        paths |= {f"issues.{key}.title", f"issues.{key}.description"}
                    else:  # exceptions raised with a translation key
                        paths.add(f"exceptions.{key}.message")
                for kw in node.keywords:
                    if kw.arg == "reason" and isinstance(kw.value, ast.Constant):
                        paths.add(f"config.abort.{kw.value.value}")
                if (
                    called in ("_error", "service_error", "InvalidRequest")
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    paths.add(f"exceptions.{node.args[0].value}.message")
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "_attr_translation_key" for t in node.targets
            ):
                paths.add(f"entity.{source.stem}.{node.value.value}.name")

    # View rule compile errors pick their key by error code and parser reason.
    paths |= {
        f"exceptions.view_rule_syntax_{reason}.message"
        for reason in (*errors.SYNTAX_REASONS, "unknown")
    }
    paths |= {"exceptions.view_rule_llm_timeout.message", "exceptions.view_rule_invalid.message"}
    for issue in (views.ISSUE_RECOVERED, views.ISSUE_READ_ONLY, views.ISSUE_UNAVAILABLE):
        paths |= {f"issues.{issue}.title", f"issues.{issue}.description"}

    services = yaml.safe_load((PACKAGE / "services.yaml").read_text(encoding="utf-8"))
    for service, spec in services.items():
        paths |= {f"services.{service}.name", f"services.{service}.description"}
        for field in (spec or {}).get("fields", {}):
            paths |= {
                f"services.{service}.fields.{field}.name",
                f"services.{service}.fields.{field}.description",
            }
    return paths


def _has(tree: dict[str, Any], path: str) -> bool:
    node: Any = tree
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return bool(node)


@pytest.mark.parametrize("name", TRANSLATION_FILES)
async def test_every_used_string_exists(
    hass: HomeAssistant, home: dict[str, str], name: str
) -> None:
    assert await async_setup_component(hass, "conversation", {})
    # Every field the options form can show (the AI task entity only where AI tasks exist).
    with patch.object(config_flow, "ai_task_available", return_value=True):
        option_keys = set(map(str, config_flow._options_schema(hass, {}).schema))
    assert CONF_LLM_ENTITY in option_keys
    strings = _load(name)
    missing = sorted(path for path in _required_paths(option_keys) if not _has(strings, path))
    assert not missing, f"{name} lacks {missing}"


@pytest.mark.parametrize("name", TRANSLATION_FILES[1:])
def test_translations_have_exactly_the_keys_of_strings_json(name: str) -> None:
    reference = _flatten(_load("strings.json"))
    translated = _flatten(_load(name))
    assert set(translated) == set(reference)
    for path, text in reference.items():
        assert isinstance(translated[path], str) and translated[path].strip(), path
        # Placeholders such as {limit} must survive translation.
        assert set(re.findall(r"{(\w+)}", translated[path])) == set(re.findall(r"{(\w+)}", text)), (
            path
        )


async def test_suggestions_cannot_start_above_the_reuse_threshold(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    result = await _options_flow(
        hass, loaded_entry, **{CONF_QUERY_AUTO_USE: 0.8, CONF_QUERY_SUGGEST: 0.9}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_QUERY_SUGGEST: "suggest_above_auto_use"}
    assert CONF_QUERY_AUTO_USE not in loaded_entry.options


@pytest.mark.parametrize(
    ("changes", "errors"),
    [
        ({CONF_EMBEDDING_KIND: "ollama"}, {CONF_EMBEDDING_URL: "embedding_url_invalid"}),
        (
            {CONF_EMBEDDING_KIND: "openai", CONF_EMBEDDING_URL: "ftp://x/v1/embeddings"},
            {CONF_EMBEDDING_URL: "embedding_url_invalid"},
        ),
        (
            {CONF_EMBEDDING_KIND: "ollama", CONF_EMBEDDING_URL: "http://127.0.0.1:9/api/embed"},
            {CONF_EMBEDDING_MODEL: "embedding_model_missing"},
        ),
    ],
)
async def test_an_embedding_service_needs_a_url_and_a_model(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    changes: dict[str, Any],
    errors: dict[str, str],
) -> None:
    result = await _options_flow(hass, loaded_entry, **changes)
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == errors


async def test_a_language_model_stored_by_an_older_release_is_explained(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    """Home Assistant's own agent, accepted as the language model before, opens in the form
    and is refused there in words."""
    entry = await async_setup_integration(
        hass,
        **{
            CONF_COMMAND_PARSER: "llm_with_fallback",
            CONF_LLM_PROVIDER: "conversation_agent",
            CONF_LLM_AGENT: "conversation.home_assistant",
        },
    )
    form = await hass.config_entries.options.async_init(entry.entry_id)
    assert "conversation.home_assistant" in _offered(form, CONF_LLM_AGENT)
    result = await hass.config_entries.options.async_configure(
        form["flow_id"],
        user_input={
            **OPTIONS,
            CONF_COMMAND_PARSER: "llm_with_fallback",
            CONF_LLM_PROVIDER: "conversation_agent",
            CONF_LLM_AGENT: "conversation.home_assistant",
        },
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_LLM_AGENT: "llm_agent_not_llm"}


async def test_an_ai_task_entity_that_is_gone_is_refused(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    with patch.object(config_flow, "ai_task_available", return_value=True):
        result = await _options_flow(
            hass,
            loaded_entry,
            **{CONF_LLM_PROVIDER: "ai_task", CONF_LLM_ENTITY: "ai_task.removed_model"},
        )
    assert result["errors"] == {CONF_LLM_ENTITY: "llm_entity_not_found"}
    assert loaded_entry.options == {}


@pytest.mark.parametrize("how", ["options", "reconfigure"])
async def test_saving_returns_once_the_agent_answers_again(
    hass: HomeAssistant,
    loaded_entry: MockConfigEntry,
    hass_client: Any,
    caplog: pytest.LogCaptureFixture,
    how: str,
) -> None:
    """Saving reloads the entry; a message right after must not find the agent missing
    (Home Assistant logged "invalid agent ID" and answered 400 while it reloaded)."""
    agent = _own_agent(hass)
    client = await hass_client()
    before = loaded_entry.runtime_data
    if how == "options":
        result = await _options_flow(hass, loaded_entry)
        assert result["type"] is FlowResultType.CREATE_ENTRY
    else:
        form = await loaded_entry.start_reconfigure_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            form["flow_id"],
            user_input={CONF_AGENT_ID: "conversation.home_assistant", CONF_LANGUAGE: "en"},
        )
        assert result["reason"] == "reconfigure_successful"
    reloaded = loaded_entry.runtime_data
    assert reloaded is not before
    answer = await client.post(
        "/api/conversation/process", json={"text": "打开老伙计", "agent_id": agent}
    )
    assert answer.status == 200, await answer.text()
    await hass.async_block_till_done()
    assert loaded_entry.state is ConfigEntryState.LOADED
    assert loaded_entry.runtime_data is reloaded  # once, not again by the update listener
    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING and "agent" in r.message]
    assert not noisy, [r.message for r in noisy]
