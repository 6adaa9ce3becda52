"""Diagnostics download: what a homeowner can attach to an issue, without what they said."""

from __future__ import annotations

import hashlib
import json

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.context_retrieval.const import TIMINGS_KEPT
from custom_components.context_retrieval.core.base.redact import query_hash
from tests.ha.conftest import call_retrieve

QUERIES = [
    ("打开客厅的落地灯", "zh"),
    ("turn off everything upstairs", "en"),
    ("打开吸顶灯", "zh"),  # asks back
]


async def test_diagnostics_after_some_requests(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, loaded_entry: MockConfigEntry
) -> None:
    for text, _ in QUERIES:
        await call_retrieve(hass, text, conversation_id="diag")

    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, loaded_entry)

    settings = diagnostics["settings"]
    assert settings["agent_id"] == "conversation.home_assistant"
    assert settings["language"] is None  # automatic
    assert settings["top_k"] == 5
    assert settings["token_budget"] == 1500
    assert {
        "epsilon",
        "keyword_weight",
        "vector_weight",
        "command_parser",
        "llm_provider",
        "llm_timeout",
    } <= set(settings)

    index = diagnostics["index"]
    assert index["state"] == "ready"
    assert index["entities"] == 10
    assert index["by_domain"] == {"climate": 1, "cover": 1, "light": 6, "lock": 1, "switch": 1}
    assert index["areas"] == 4
    assert index["floors"] == 2
    assert index["builds"] >= 1

    assert diagnostics["languages_seen"] == {"zh": 2, "en": 1}
    assert diagnostics["conversations"] == 1

    timings = diagnostics["timings"]
    assert len(timings) == len(QUERIES)
    for timing, (text, language) in zip(timings, QUERIES, strict=True):
        assert timing["query_hash"] == query_hash(text)
        assert timing["language"] == language
        assert timing["milliseconds"] >= 0
        assert timing["commands"] == 1
    assert [t["clarified"] for t in timings] == [False, False, True]
    assert [t["selected"] for t in timings] == [1, 4, 0]


async def test_diagnostics_never_contain_the_query_text(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, loaded_entry: MockConfigEntry
) -> None:
    secret = "打开客厅的落地灯然后告诉我密码是hunter2"
    await call_retrieve(hass, secret)
    await call_retrieve(hass, "please unlock the front door for Alice")

    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, loaded_entry)
    dumped = json.dumps(diagnostics, ensure_ascii=False)
    for fragment in (
        "hunter2",
        "密码",
        "告诉我",
        "Alice",
        "unlock the front door",
        "please unlock",
    ):
        assert fragment not in dumped
    # Only a hash, which does not reveal the text either.
    hashes = [t["query_hash"] for t in diagnostics["timings"]]
    assert hashes == [query_hash(secret), query_hash("please unlock the front door for Alice")]
    assert query_hash(secret) == hashlib.sha256(secret.encode()).hexdigest()[:16]
    # Nor do unexposed entities show up.
    assert "secret_plug" not in dumped


async def test_diagnostics_keep_the_last_timings(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, loaded_entry: MockConfigEntry
) -> None:
    texts = [f"打开圣诞树{i}" for i in range(TIMINGS_KEPT + 5)]
    for text in texts:
        await call_retrieve(hass, text)
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, loaded_entry)
    timings = diagnostics["timings"]
    assert len(timings) == TIMINGS_KEPT == 50
    assert [t["query_hash"] for t in timings] == [query_hash(t) for t in texts[-TIMINGS_KEPT:]]


async def test_diagnostics_reflect_changed_options(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, loaded_entry: MockConfigEntry
) -> None:
    # Changed in the options form, as a homeowner does; applied when it is saved.
    form = await hass.config_entries.options.async_init(loaded_entry.entry_id)
    defaults = {
        str(key): key.default() for key in form["data_schema"].schema if callable(key.default)
    }
    await hass.config_entries.options.async_configure(
        form["flow_id"],
        user_input={**defaults, "top_k": 9, "vector_weight": 0.0, "token_budget": 800},
    )
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, loaded_entry)
    assert diagnostics["settings"]["top_k"] == 9
    assert diagnostics["settings"]["vector_weight"] == 0.0
    assert diagnostics["settings"]["token_budget"] == 800
    assert diagnostics["timings"] == []
