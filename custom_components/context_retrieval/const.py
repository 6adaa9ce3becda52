"""Constants of the Context Retrieval integration."""

from __future__ import annotations

import logging
from typing import Final

DOMAIN: Final = "context_retrieval"
LOGGER = logging.getLogger(__package__)

# Options (config entry data/options keys).
CONF_AGENT_ID: Final = "agent_id"
CONF_LANGUAGE: Final = "language"
CONF_TOP_K: Final = "top_k"
CONF_EPSILON: Final = "epsilon"
CONF_KEYWORD_WEIGHT: Final = "keyword_weight"
CONF_VECTOR_WEIGHT: Final = "vector_weight"
CONF_TOKEN_BUDGET: Final = "token_budget"
CONF_COMMAND_PARSER: Final = "command_parser"
CONF_LLM_PROVIDER: Final = "llm_provider"
CONF_LLM_ENTITY: Final = "llm_entity"
CONF_LLM_AGENT: Final = "llm_agent"
CONF_LLM_TIMEOUT: Final = "llm_timeout"

LANGUAGE_AUTO: Final = "auto"
HOME_ASSISTANT_AGENT: Final = "conversation.home_assistant"

PARSER_RULES: Final = "rules"
PARSER_LLM: Final = "llm"
PARSER_LLM_FALLBACK: Final = "llm_with_fallback"
PARSERS: Final = (PARSER_RULES, PARSER_LLM, PARSER_LLM_FALLBACK)

LLM_NONE: Final = "none"
LLM_AI_TASK: Final = "ai_task"
LLM_AGENT: Final = "conversation_agent"
LLM_PROVIDERS: Final = (LLM_NONE, LLM_AI_TASK, LLM_AGENT)

DEFAULTS: Final = {
    CONF_AGENT_ID: HOME_ASSISTANT_AGENT,
    CONF_LANGUAGE: LANGUAGE_AUTO,
    CONF_TOP_K: 5,
    CONF_EPSILON: 0.05,
    CONF_KEYWORD_WEIGHT: 1.0,
    CONF_VECTOR_WEIGHT: 0.3,
    CONF_TOKEN_BUDGET: 1500,
    CONF_COMMAND_PARSER: PARSER_RULES,
    CONF_LLM_PROVIDER: LLM_NONE,
    CONF_LLM_TIMEOUT: 5.0,
}

# The LLM API registered with Home Assistant.
LLM_API_ID: Final = "context_retrieval"
LLM_API_NAME: Final = "Context Retrieval"

# How long registry changes are collected before the index is rebuilt.
REBUILD_DEBOUNCE_SECONDS: Final = 1.0
# Timings kept for diagnostics.
TIMINGS_KEPT: Final = 50

SERVICE_RETRIEVE: Final = "retrieve"
SERVICE_REBUILD_INDEX: Final = "rebuild_index"
