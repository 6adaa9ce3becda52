"""The embedding service through Home Assistant's shared HTTP session (inject-websession), a
refused API key (reauthentication), and the flows that test the service before they save.

Against the real HTTP server on 127.0.0.1 of the engine's embedding tests."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.config_entries import SOURCE_REAUTH, ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType

from custom_components.context_retrieval.const import (
    CONF_EMBEDDING_API_KEY,
    CONF_EMBEDDING_KIND,
    CONF_EMBEDDING_MODEL,
    CONF_EMBEDDING_URL,
    DOMAIN,
)
from custom_components.context_retrieval.core.base import embeddings as emb
from custom_components.context_retrieval.core.base.embeddings import (
    EmbeddingClient,
    EmbeddingError,
    HttpRequest,
)
from custom_components.context_retrieval.embedding_http import session_transport
from custom_components.context_retrieval.settings import Settings

# The embedding server on 127.0.0.1 and its fixtures.
from tests.core.base.embedding.server import (  # noqa: F401
    API_KEY,
    STATE,
    _no_proxy,
    _reset_server,
    server,
)
from tests.ha.conftest import add_entity
from tests.ha.fakes import async_setup_integration

NEW_KEY = "sk-test-NEW-0987654321"


@pytest.fixture
def url(server: str) -> str:  # noqa: F811 - the imported fixture
    return server


@pytest.fixture
def no_urllib(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stdlib opener fails: whatever still works went through Home Assistant's session."""

    def refuse() -> Any:
        raise AssertionError("the integration used urllib, not Home Assistant's session")

    monkeypatch.setattr(emb, "_opener", refuse)


def _client(hass: HomeAssistant, url: str, **kwargs: Any) -> EmbeddingClient:
    kwargs.setdefault("api_key", API_KEY)
    return EmbeddingClient(
        f"{url}/v1/embeddings", "m", "openai", transport=session_transport(hass), **kwargs
    )


async def _embed(hass: HomeAssistant, client: EmbeddingClient) -> Any:
    return await hass.async_add_executor_job(client.embed, ["garage door", "kitchen light"])


async def test_the_session_transport_answers_like_the_engine_expects(
    hass: HomeAssistant, url: str, no_urllib: None
) -> None:
    rows = await _embed(hass, _client(hass, url))
    assert rows.shape == (2, 8)
    assert STATE.requests[-1]["auth"] == f"Bearer {API_KEY}"


@pytest.mark.parametrize(
    ("mode", "code", "status"),
    [
        ("error500", "EMBEDDING_HTTP_ERROR", 500),
        ("redirect", "EMBEDDING_HTTP_ERROR", 302),
        ("malformed", "EMBEDDING_BAD_RESPONSE", None),
    ],
)
async def test_failures_are_the_engines_errors_without_the_key(
    hass: HomeAssistant, url: str, mode: str, code: str, status: int | None
) -> None:
    STATE.mode = mode
    with pytest.raises(EmbeddingError) as info:
        await _embed(hass, _client(hass, url))
    assert info.value.code == code and info.value.status == status
    assert API_KEY not in str(info.value)
    # A redirect is not followed: the bearer token never reaches another address.
    assert [r["path"] for r in STATE.requests] == ["/v1/embeddings"]


async def test_a_refused_key_is_told_apart(hass: HomeAssistant, url: str) -> None:
    STATE.accepted_key = NEW_KEY
    with pytest.raises(EmbeddingError) as info:
        await _embed(hass, _client(hass, url))
    assert info.value.status == 401 and info.value.auth_rejected
    assert (await _embed(hass, _client(hass, url, api_key=NEW_KEY))).shape == (2, 8)


async def test_slow_and_huge_answers_are_bounded(
    hass: HomeAssistant, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    STATE.delay = 3.0
    with pytest.raises(EmbeddingError) as info:
        await _embed(hass, _client(hass, url, timeout=0.3))
    assert info.value.code == "EMBEDDING_TIMEOUT"
    STATE.release.set()
    STATE.delay = 0.0
    STATE.mode = "huge"
    monkeypatch.setattr(emb, "MAX_RESPONSE_BYTES", 1024)
    with pytest.raises(EmbeddingError) as info:
        await _embed(hass, _client(hass, url))
    assert info.value.code == "EMBEDDING_BAD_RESPONSE" and "large" in info.value.message


async def test_the_transport_refuses_the_event_loop(hass: HomeAssistant, url: str) -> None:
    """Called on the event loop it would wait for itself: a programming error, said so."""
    transport = session_transport(hass)
    with pytest.raises(RuntimeError, match="executor"):
        transport(HttpRequest(f"{url}/v1/embeddings", b"{}", {}, 1.0, 1024))


async def _setup(hass: HomeAssistant, url: str, key: str = API_KEY) -> Any:
    await add_entity(hass, "light.garage_lamp", "garage lamp", "off")
    return await async_setup_integration(
        hass,
        embedding_kind="openai",
        embedding_url=f"{url}/v1/embeddings",
        embedding_model="test-embed",
        embedding_api_key=key,
    )


def _reauth_flows(hass: HomeAssistant) -> list[Any]:
    return [
        flow
        for flow in hass.config_entries.flow.async_progress_by_handler(DOMAIN)
        if flow["context"]["source"] == SOURCE_REAUTH
    ]


async def test_the_integration_embeds_through_the_session(
    hass: HomeAssistant, home: dict[str, str], url: str, no_urllib: None
) -> None:
    entry = await _setup(hass, url)
    status = entry.runtime_data.vectors.status()
    assert status["vectors"] == len(entry.runtime_data.manager.index)
    assert status["problems"] == []


async def test_a_refused_key_starts_reauthentication_and_a_new_key_ends_it(
    hass: HomeAssistant, home: dict[str, str], url: str
) -> None:
    STATE.accepted_key = NEW_KEY  # the key the entry has no longer works
    entry = await _setup(hass, url)
    # The entry still runs, on the built-in vectors, and the user is asked for a new key.
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.vectors.status()["vectors"] == 0
    found = await hass.services.async_call(
        DOMAIN, "search", {"query": "garage lamp"}, blocking=True, return_response=True
    )
    assert found["results"][0]["entity_id"] == "light.garage_lamp"
    (flow,) = _reauth_flows(hass)
    form = await hass.config_entries.flow.async_configure(flow["flow_id"])
    assert form["step_id"] == "reauth_confirm"
    assert form["description_placeholders"]["host"] == url.split("//", 1)[1]

    wrong = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {CONF_EMBEDDING_API_KEY: "sk-still-wrong"}
    )
    assert wrong["errors"] == {CONF_EMBEDDING_API_KEY: "embedding_invalid_auth"}
    assert entry.options.get(CONF_EMBEDDING_API_KEY) is None  # nothing saved

    done = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {CONF_EMBEDDING_API_KEY: NEW_KEY}
    )
    assert done["type"] is FlowResultType.ABORT and done["reason"] == "reauth_successful"
    await hass.async_block_till_done()
    assert Settings.from_entry(entry).embedding_api_key == NEW_KEY
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.vectors.status()["vectors"] == len(entry.runtime_data.manager.index)
    assert _reauth_flows(hass) == []


async def _options(hass: HomeAssistant, entry: Any, **changes: Any) -> Any:
    flow = await hass.config_entries.options.async_init(entry.entry_id)
    defaults = {
        key.schema: key.default()
        for key in flow["data_schema"].schema
        if callable(getattr(key, "default", None))
    }
    return await hass.config_entries.options.async_configure(
        flow["flow_id"], {**defaults, **changes}
    )


async def test_the_options_flow_tests_a_changed_service_before_saving(
    hass: HomeAssistant, home: dict[str, str], url: str
) -> None:
    entry = await async_setup_integration(hass)
    service = {
        CONF_EMBEDDING_KIND: "openai",
        CONF_EMBEDDING_URL: f"{url}/v1/embeddings",
        CONF_EMBEDDING_MODEL: "test-embed",
    }
    STATE.accepted_key = NEW_KEY
    refused = await _options(hass, entry, **service, **{CONF_EMBEDDING_API_KEY: API_KEY})
    assert refused["errors"] == {CONF_EMBEDDING_API_KEY: "embedding_invalid_auth"}
    assert CONF_EMBEDDING_URL not in entry.options  # not saved
    asked = len(STATE.requests)
    saved = await _options(hass, entry, **service, **{CONF_EMBEDDING_API_KEY: NEW_KEY})
    assert saved["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_EMBEDDING_API_KEY] == NEW_KEY
    assert len(STATE.requests) > asked


async def test_a_service_that_does_not_run_yet_is_saved_and_unchanged_ones_are_not_asked(
    hass: HomeAssistant, home: dict[str, str], url: str
) -> None:
    """Saving other options never waits on the service, and a service that is down is saved
    (queries then say they fell back): only a refused key stops the form."""
    entry = await async_setup_integration(hass)
    down = {
        CONF_EMBEDDING_KIND: "openai",
        CONF_EMBEDDING_URL: "http://127.0.0.1:9/v1/embeddings",
        CONF_EMBEDDING_MODEL: "test-embed",
    }
    saved = await _options(hass, entry, **down)
    assert saved["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_EMBEDDING_URL] == down[CONF_EMBEDDING_URL]
    await hass.async_block_till_done()
    STATE.accepted_key = NEW_KEY  # it would refuse: but it is not asked for an unchanged one
    asked = len(STATE.requests)
    again = await _options(hass, entry, **down, top_k=7)
    assert again["type"] is FlowResultType.CREATE_ENTRY and entry.options["top_k"] == 7
    assert len(STATE.requests) == asked


async def test_an_unavailable_service_is_logged_once_and_its_return_too(
    hass: HomeAssistant, home: dict[str, str], url: str, caplog: pytest.LogCaptureFixture
) -> None:
    entry = await _setup(hass, url)
    manager = entry.runtime_data.manager
    STATE.mode = "error500"
    for _ in range(3):
        await manager.async_rebuild()
        await hass.async_block_till_done()
    down = [r for r in caplog.records if "could not embed the home" in r.getMessage()]
    assert len(down) == 1 and down[0].levelname == "WARNING"
    STATE.mode = "ok"
    for _ in range(2):
        await manager.async_rebuild()
        await hass.async_block_till_done()
    back = [r for r in caplog.records if "answers again;" in r.getMessage()]
    assert len(back) == 1 and back[0].levelname == "INFO"
