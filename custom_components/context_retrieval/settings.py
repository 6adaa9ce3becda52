"""The entry's options, typed: read once per change (an options change reloads the entry).

A leaf of the glue: it imports only the constants and the engine, so every manager can take
`Settings` without importing the runtime data that holds them. Every default comes from
`const.DEFAULTS`; a key the entry does not have yet (an entry made by an older release) gets it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from homeassistant.config_entries import ConfigEntry

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
    LANGUAGE_AUTO,
)
from .core import RetrievalOptions
from .core.retrieval.scoring import Weights


@dataclass(frozen=True, slots=True)
class Settings:
    """What the entry is configured to do."""

    agent_id: str
    language: str | None  # None: detect per utterance
    top_k: int
    epsilon: float
    keyword_weight: float
    vector_weight: float
    token_budget: int
    command_parser: str
    llm_provider: str
    llm_entity: str | None
    llm_agent: str | None
    llm_timeout: float
    answer_questions: bool
    confirm_security: bool
    query_auto_use: float
    query_suggest: float
    query_suggest_limit: int
    semantic_timeout: float
    embedding_kind: str
    embedding_url: str | None
    embedding_model: str | None
    embedding_api_key: str | None
    embedding_timeout: float

    @classmethod
    def from_entry(cls, entry: ConfigEntry) -> Settings:
        return cls.from_values({**entry.data, **entry.options})

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> Settings:
        """From what a flow holds (the entry's data and options, and the form's input)."""
        merged: dict[str, Any] = {**DEFAULTS, **values}

        def choice(key: str) -> str:
            """A selector's value; an empty one (a cleared field) is the default."""
            return str(merged.get(key) or DEFAULTS[key])

        language = choice(CONF_LANGUAGE)
        return cls(
            agent_id=str(merged[CONF_AGENT_ID]),
            language=None if language == LANGUAGE_AUTO else language,
            top_k=int(merged[CONF_TOP_K]),
            epsilon=float(merged[CONF_EPSILON]),
            keyword_weight=float(merged[CONF_KEYWORD_WEIGHT]),
            vector_weight=float(merged[CONF_VECTOR_WEIGHT]),
            token_budget=int(merged[CONF_TOKEN_BUDGET]),
            command_parser=choice(CONF_COMMAND_PARSER),
            llm_provider=choice(CONF_LLM_PROVIDER),
            llm_entity=merged.get(CONF_LLM_ENTITY) or None,
            llm_agent=merged.get(CONF_LLM_AGENT) or None,
            llm_timeout=float(merged[CONF_LLM_TIMEOUT]),
            answer_questions=bool(merged[CONF_ANSWER_QUESTIONS]),
            confirm_security=bool(merged[CONF_CONFIRM_SECURITY]),
            query_auto_use=float(merged[CONF_QUERY_AUTO_USE]),
            query_suggest=float(merged[CONF_QUERY_SUGGEST]),
            query_suggest_limit=int(merged[CONF_QUERY_SUGGEST_LIMIT]),
            semantic_timeout=float(merged[CONF_SEMANTIC_TIMEOUT]),
            embedding_kind=choice(CONF_EMBEDDING_KIND),
            embedding_url=merged.get(CONF_EMBEDDING_URL) or None,
            embedding_model=merged.get(CONF_EMBEDDING_MODEL) or None,
            embedding_api_key=merged.get(CONF_EMBEDDING_API_KEY) or None,
            embedding_timeout=float(merged[CONF_EMBEDDING_TIMEOUT]),
        )

    def options(self) -> RetrievalOptions:
        """The engine's options; what the entry does not set keeps the engine's default."""
        return RetrievalOptions(
            top_k=self.top_k,
            epsilon=self.epsilon,
            weights=Weights(self.keyword_weight, self.vector_weight),
            llm_timeout=self.llm_timeout,
            confirm_security=self.confirm_security,
        )
