"""An optional embedding service as the semantic side, its failures made visible.

When the options name an OpenAI-compatible `/v1/embeddings` or an Ollama `/api/embed` URL,
every index build is followed by embedding the entities' texts in the executor; queries then
use those vectors, falling back to the built-in hashing vectors — with a code saying why — when
the service is slow, down, or answers vectors of the wrong dimension (those are quarantined and
the previous vectors keep serving). Nothing is contacted unless a URL is configured.

The requests go through Home Assistant's shared HTTP session (`embedding_http`). A service that
refuses the API key (401, 403) is a degradation like any other for the queries, and also starts
Home Assistant's reauthentication flow, in which the user gives a new key: the first build runs
while the entry sets up, so a key that no longer works is found then.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback

from .const import LOGGER
from .core.base.embedding_search import EmbeddingSearcher, FallbackSearcher
from .core.base.embeddings import EMBEDDING_HTTP_ERROR, EmbeddingClient, EmbeddingError
from .core.base.index import DeviceIndex
from .embedding_http import session_transport
from .registry import IndexManager
from .settings import Settings

PROBLEMS_KEPT = 20
# What the flows ask the service to embed when they test it.
PROBE_TEXT = "living room light"


@dataclass(repr=False)
class VectorManager:
    """Keeps an embedding searcher in step with the live index."""

    def __repr__(self) -> str:  # cheap: callbacks and jobs are named after it on the loop
        return "<VectorManager>"

    hass: HomeAssistant
    manager: IndexManager
    client: EmbeddingClient | None = None
    searcher: FallbackSearcher | None = None
    built_for: DeviceIndex | None = None
    problems: list[dict[str, str]] = field(default_factory=list)
    # Called (on the event loop) when the service refuses the API key.
    on_auth_rejected: Callable[[], None] | None = None
    _auth_rejected: bool = False
    _unavailable: bool = False  # the last build failed (logged once until it succeeds)
    _unsub: CALLBACK_TYPE | None = None
    _building: bool = False
    _again: bool = False

    @classmethod
    def from_settings(
        cls,
        hass: HomeAssistant,
        manager: IndexManager,
        settings: Settings,
        on_auth_rejected: Callable[[], None] | None = None,
    ) -> VectorManager:
        client = None
        try:
            client = embedding_client(hass, settings)
        except (EmbeddingError, ValueError) as err:
            LOGGER.error("The embedding service settings are not usable: %s", err)
        return cls(hass, manager, client, on_auth_rejected=on_auth_rejected)

    async def async_start(self) -> None:
        if self.client is None:
            return
        self._unsub = self.manager.async_add_listener(self._async_index_rebuilt)
        if self.manager.index is not None:
            await self.async_build()

    async def async_stop(self) -> None:
        if self._unsub is not None:
            self._unsub()
            self._unsub = None

    @callback
    def _async_index_rebuilt(self) -> None:
        self.hass.async_create_task(self.async_build(), eager_start=False)

    async def async_build(self) -> None:
        """Embed the current index's entities (one build at a time, later ones coalesced);
        until it is done, queries use the previous searcher."""
        if self.client is None:
            return
        if self._building:
            self._again = True
            return
        self._building = True
        try:
            while True:
                self._again = False
                index = self.manager.index
                if index is None:
                    return
                searcher = await self.hass.async_add_executor_job(self._build, index)
                self.searcher, self.built_for = searcher, index
                if self._auth_rejected and self.on_auth_rejected is not None:
                    self.on_auth_rejected()
                if not self._again:
                    return
        finally:
            self._building = False

    def _build(self, index: DeviceIndex) -> FallbackSearcher:
        assert self.client is not None
        primary = EmbeddingSearcher(self.client)
        items = [(eid, index._vector_text(entry)) for eid, entry in index.entries.items()]
        self._auth_rejected = False
        try:
            primary.build(items)
        except EmbeddingError as err:
            self._auth_rejected = err.auth_rejected
            if not self._unavailable:  # said once, not at every rebuild while it lasts
                LOGGER.warning(
                    "The embedding service could not embed the home (%s); the built-in "
                    "vectors are used until it answers again",
                    err.code,
                )
            self._unavailable = True
        else:
            if self._unavailable:
                LOGGER.info("The embedding service answers again; its vectors are used")
            self._unavailable = False
        self._remember(primary.problems)
        return FallbackSearcher(primary, index.vectors)

    def _remember(self, problems: list[dict[str, str]]) -> None:
        self.problems = [*self.problems, *problems][-PROBLEMS_KEPT:]

    def for_index(self, index: DeviceIndex) -> FallbackSearcher | None:
        """The searcher for queries over `index`, or None (the index's own vectors)."""
        if self.searcher is None or self.built_for is None:
            return None
        # A newer index than the last embedding build: its entities may differ; the last
        # build still answers for the entities it knows, the hashing side for the rest.
        return self.searcher

    def degradation(self) -> dict[str, str] | None:
        return self.searcher.last_degradation if self.searcher is not None else None

    def status(self) -> dict[str, Any]:
        primary = getattr(self.searcher, "primary", None)
        return {
            "configured": self.client is not None,
            "kind": self.client.kind if self.client else None,
            "vectors": len(primary) if primary is not None else 0,
            "dimension": getattr(primary, "dim", None),
            "quarantined": len(getattr(primary, "quarantined", {}) or {}),
            "problems": [p.get("code", "") for p in self.problems],
        }


def embedding_client(hass: HomeAssistant, settings: Settings) -> EmbeddingClient | None:
    """The client for the configured service, over Home Assistant's shared session; None when
    none is configured. Raises ValueError for settings the client refuses."""
    if settings.embedding_kind not in ("openai", "ollama") or not settings.embedding_url:
        return None
    return EmbeddingClient(
        settings.embedding_url,
        settings.embedding_model or "",
        kind=settings.embedding_kind,  # type: ignore[arg-type]
        api_key=settings.embedding_api_key,
        timeout=settings.embedding_timeout,
        transport=session_transport(hass),
    )


async def async_probe(hass: HomeAssistant, settings: Settings) -> EmbeddingError | None:
    """Ask the configured service for one vector (the flows test what the user typed); the
    failure, or None when it answered or none is configured."""
    try:
        client = embedding_client(hass, settings)
    except ValueError as err:
        return EmbeddingError(EMBEDDING_HTTP_ERROR, str(err))
    if client is None:
        return None
    try:
        await hass.async_add_executor_job(client.embed, [PROBE_TEXT])
    except EmbeddingError as err:
        return err
    return None
