"""settings.py: the entry's options, typed, with one set of defaults (const.DEFAULTS) that
equals the engine's own, so the benchmarks measure what a new installation does."""

from __future__ import annotations

from dataclasses import asdict

from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval import const
from custom_components.context_retrieval.const import (
    CONF_COMMAND_PARSER,
    CONF_LANGUAGE,
    CONF_LLM_PROVIDER,
    CONF_TOP_K,
    DEFAULTS,
    DOMAIN,
)
from custom_components.context_retrieval.core import RetrievalOptions
from custom_components.context_retrieval.core import search as engine_search
from custom_components.context_retrieval.core.retrieval.render import DEFAULT_TOKEN_BUDGET
from custom_components.context_retrieval.settings import Settings


def settings(data: dict[str, object], options: dict[str, object] | None = None) -> Settings:
    return Settings.from_entry(MockConfigEntry(domain=DOMAIN, data=data, options=options or {}))


async def test_an_entry_without_options_reads_every_default() -> None:
    read = asdict(settings({}))
    for key, default in DEFAULTS.items():
        expected = None if key == CONF_LANGUAGE and default == const.LANGUAGE_AUTO else default
        assert read[key] == expected, key
    # What has no default stays unset.
    assert {key for key, value in read.items() if value is None} == {
        CONF_LANGUAGE,
        const.CONF_LLM_ENTITY,
        const.CONF_LLM_AGENT,
        const.CONF_EMBEDDING_URL,
        const.CONF_EMBEDDING_MODEL,
        const.CONF_EMBEDDING_API_KEY,
    }


async def test_the_defaults_are_the_engines() -> None:
    default = settings({})
    assert default.options() == RetrievalOptions()
    assert default.token_budget == DEFAULT_TOKEN_BUDGET
    assert const.DEFAULT_SEARCH_PAGE_SIZE == engine_search.DEFAULT_PAGE_SIZE
    assert const.DEFAULT_SEARCH_MIN_SCORE == engine_search.DEFAULT_MIN_SCORE


async def test_options_win_over_data_and_a_cleared_choice_is_the_default() -> None:
    read = settings(
        {CONF_TOP_K: 3, CONF_LANGUAGE: "zh", CONF_COMMAND_PARSER: "llm"},
        {CONF_TOP_K: 7, CONF_COMMAND_PARSER: "", CONF_LLM_PROVIDER: None},
    )
    assert read.top_k == 7
    assert read.language == "zh"
    assert read.command_parser == DEFAULTS[CONF_COMMAND_PARSER]
    assert read.llm_provider == DEFAULTS[CONF_LLM_PROVIDER]
