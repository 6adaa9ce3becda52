"""`search`: explainable search over the exposed entities (keyword, semantic or both, with
recency), for the service and the panel."""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import partial
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant

from ..const import (
    DEFAULT_SEARCH_MIN_SCORE,
    DEFAULT_SEARCH_PAGE_SIZE,
    DEFAULT_SEARCH_STRATEGY,
    MAX_TEXT_CHARS,
    SEARCH_STRATEGIES,
)
from ..core import DeviceIndex
from ..core.search import search
from ..data import ContextRetrievalData, loaded_data
from ..errors import service_error
from .schema import RequestSchema, unicode_string

SEARCH_SCHEMA = RequestSchema(
    {
        vol.Required("query"): vol.All(unicode_string, vol.Length(max=MAX_TEXT_CHARS)),
        vol.Optional("strategy", default=DEFAULT_SEARCH_STRATEGY): vol.In(SEARCH_STRATEGIES),
        vol.Optional("page", default=1): vol.All(vol.Coerce(int), vol.Range(min=1, max=10_000)),
        vol.Optional("page_size", default=DEFAULT_SEARCH_PAGE_SIZE): vol.All(
            vol.Coerce(int), vol.Range(min=1, max=50)
        ),
        vol.Optional("min_score", default=DEFAULT_SEARCH_MIN_SCORE): vol.All(
            vol.Coerce(float), vol.Range(min=0, max=1)
        ),
    }
)


def recency(
    hass: HomeAssistant, data: ContextRetrievalData, index: DeviceIndex
) -> dict[str, float]:
    """When each entity last changed, or now when a conversation just used it: recently
    touched entities rank a little higher."""
    recent: dict[str, float] = {}
    for device in index.devices():
        state = hass.states.get(device.entity_id)
        if state is not None:
            recent[device.entity_id] = state.last_changed.timestamp()
    now = time.time()
    for conversation in data.states.values():
        for entity_id in conversation.recent_entity_ids:
            recent[entity_id] = now
    return recent


async def async_search(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    data = loaded_data(hass)
    index = data.manager.index
    if index is None:
        raise service_error("index_not_ready")
    recent = recency(hass, data, index)
    now = time.time()
    vectors = data.vectors.for_index(index)
    strategy = request["strategy"]
    result = await hass.async_add_executor_job(
        partial(
            search,
            index,
            str(request["query"]),
            strategy=strategy,
            page=request["page"],
            page_size=request["page_size"],
            min_score=request["min_score"],
            recency=recent,
            now=now,
            semantic_timeout=data.settings.semantic_timeout,
            vector_searcher=vectors,
        )
    )
    visible = data.manager.visible()
    answer = {**result.as_dict(), "index_state": data.manager.index_state}
    # Taken from Assist since the index was built: not shown (the next index has it not).
    shown = [hit for hit in answer["results"] if visible(hit["entity_id"])]
    answer["total"] -= len(answer["results"]) - len(shown)
    answer["results"] = shown
    # The searcher that answered, not the current one: a rebuild may have swapped it meanwhile.
    degraded = getattr(vectors, "last_degradation", None) if vectors is not None else None
    if degraded and strategy != "keyword":
        # The embedding service failed and the built-in vectors answered instead: say why.
        answer["degraded"] = [*answer.get("degraded", []), dict(degraded)]
    return answer
