"""core/base/embedding_search.py: embedding vectors as a searcher, with hashing as the fallback."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from custom_components.context_retrieval.core import search as search_mod
from custom_components.context_retrieval.core.base.embedding_search import (
    EmbeddingSearcher,
    FallbackSearcher,
)
from custom_components.context_retrieval.core.base.embeddings import EmbeddingError
from custom_components.context_retrieval.core.base.index import DeviceIndex
from custom_components.context_retrieval.core.base.models import ReasonCode
from custom_components.context_retrieval.core.base.text import normalize
from custom_components.context_retrieval.core.base.vector_search import (
    InMemoryVectorSearcher,
    VectorSearcher,
)
from custom_components.context_retrieval.core.retrieval.pipeline import retrieve
from tests.core.base.embedding.server import (
    DIM,
    ITEMS,
    ODD_MARKER,
    STATE,
    ollama_client,
    openai_client,
)


@pytest.mark.parametrize("make", [openai_client, ollama_client])
def test_searcher_ranks_the_matching_entity_first(server: str, make: Any) -> None:
    searcher = EmbeddingSearcher(make(server, batch=2)).build(ITEMS)
    assert isinstance(searcher, VectorSearcher)
    assert len(searcher) == len(ITEMS) and searcher.dim == DIM
    assert len(STATE.requests) == 3  # 5 items in batches of 2
    query = searcher.vectorize("Garage")
    found = searcher.search(query, 3)
    assert found[0].entity_id == "cover.garage"
    assert found[0].vector_score > found[1].vector_score
    assert searcher.shortlist(searcher.vectorize("thermostat"), 2)[0] == "climate.hall"
    allowed = {"light.bedroom", "fan.bedroom"}
    only = searcher.search(searcher.vectorize("bedroom fan"), 5, allowed=allowed)
    assert [c.entity_id for c in only] == ["fan.bedroom", "light.bedroom"]
    scores = searcher.scores(searcher.vectorize("kitchen"))
    assert set(scores) == {eid for eid, _ in ITEMS}
    assert max(scores, key=lambda e: scores[e]) == "light.kitchen"
    assert searcher.search(query, 0) == [] and searcher.search(query, 3, allowed=set()) == []


def test_query_vectors_are_cached(server: str) -> None:
    searcher = EmbeddingSearcher(openai_client(server)).build(ITEMS)
    before = len(STATE.requests)
    first = searcher.vectorize("garage")
    second = searcher.vectorize("GARAGE")
    np.testing.assert_array_equal(first, second)
    assert len(STATE.requests) == before + 1


def test_upsert_and_remove(server: str) -> None:
    searcher = EmbeddingSearcher(openai_client(server)).build(ITEMS)
    searcher.upsert("switch.tree", "christmas tree")
    assert searcher.search(searcher.vectorize("tree"), 1)[0].entity_id == "switch.tree"
    searcher.upsert("light.kitchen", "garage lamp")  # renamed: re-embedded in place
    assert len(searcher) == len(ITEMS) + 1
    assert "light.kitchen" in searcher.shortlist(searcher.vectorize("garage"), 2)
    searcher.remove("cover.garage")
    searcher.remove("missing.entity")
    assert len(searcher) == len(ITEMS)
    assert searcher.search(searcher.vectorize("garage door"), 1)[0].entity_id == "light.kitchen"


def test_wrong_dimension_is_quarantined_and_the_old_matrix_keeps_serving(server: str) -> None:
    searcher = EmbeddingSearcher(openai_client(server, batch=2)).build(ITEMS)
    STATE.mode = "odd"
    searcher.build(
        [
            *ITEMS[:-1],
            ("climate.hall", f"{ODD_MARKER} thermostat"),
            ("lock.odd", f"{ODD_MARKER} door"),
        ]
    )
    assert set(searcher.quarantined) == {"climate.hall", "lock.odd"}
    assert [p["code"] for p in searcher.problems] == ["EMBEDDING_DIMENSION_MISMATCH"] * 2
    assert searcher.dim == DIM
    # climate.hall keeps the vector it had; lock.odd was never stored.
    assert len(searcher) == len(ITEMS)
    assert searcher.shortlist(searcher.vectorize("thermostat"), 1) == ["climate.hall"]
    searcher.upsert("cover.garage", f"{ODD_MARKER} garage")
    assert "cover.garage" in searcher.quarantined
    assert searcher.problems[-1]["code"] == "EMBEDDING_DIMENSION_MISMATCH"
    assert searcher.search(searcher.vectorize("garage"), 1)[0].entity_id == "cover.garage"
    with pytest.raises(EmbeddingError) as info:
        searcher.vectorize(f"{ODD_MARKER} query")
    assert info.value.code == "EMBEDDING_DIMENSION_MISMATCH"


def test_a_failed_rebuild_keeps_the_previous_matrix(server: str) -> None:
    searcher = EmbeddingSearcher(openai_client(server)).build(ITEMS)
    query = searcher.vectorize("garage")
    STATE.mode = "error500"
    with pytest.raises(EmbeddingError):
        searcher.build([("light.other", "other light")])
    assert searcher.problems[-1]["code"] == "EMBEDDING_HTTP_ERROR"
    assert len(searcher) == len(ITEMS)
    assert searcher.search(query, 1)[0].entity_id == "cover.garage"
    searcher.upsert("light.kitchen", "kitchen light")  # never raises
    assert searcher.quarantined["light.kitchen"] == "EMBEDDING_HTTP_ERROR"
    with pytest.raises(EmbeddingError) as info:
        searcher.vectorize("bedroom")
    assert info.value.code == "EMBEDDING_HTTP_ERROR"


def test_query_vector_of_another_space_is_rejected(server: str) -> None:
    searcher = EmbeddingSearcher(openai_client(server)).build(ITEMS)
    with pytest.raises(EmbeddingError) as info:
        searcher.search(np.ones(512, dtype=np.float32), 3)
    assert info.value.code == "EMBEDDING_DIMENSION_MISMATCH"


def hashing(items: list[tuple[str, str]]) -> InMemoryVectorSearcher:
    return InMemoryVectorSearcher.build((eid, normalize(text)) for eid, text in items)


def test_fallback_serves_primary_then_hashing_when_primary_fails(server: str) -> None:
    primary = EmbeddingSearcher(openai_client(server)).build(ITEMS)
    both = FallbackSearcher(primary, hashing(ITEMS))
    assert isinstance(both, VectorSearcher)
    found = both.search(both.vectorize("garage"), 2)
    assert found[0].entity_id == "cover.garage" and both.last_degradation is None
    assert found[0].reasons[0].code is ReasonCode.EMBEDDING
    assert str(found[0].reasons[0]).startswith("embedding similarity 0.")

    STATE.mode = "error500"
    vec = both.vectorize("thermostat")
    assert both.last_degradation == {"code": "EMBEDDING_HTTP_ERROR", "fallback": "hashing"}
    found = both.search(vec, 2)
    assert found[0].entity_id == "climate.hall" and found[0].reasons[0].code is ReasonCode.VECTOR
    assert both.shortlist(vec, 1) == ["climate.hall"]
    assert set(both.scores(vec)) == {eid for eid, _ in ITEMS}

    STATE.mode = "odd"
    both.vectorize(f"{ODD_MARKER} door")
    assert both.last_degradation == {"code": "EMBEDDING_DIMENSION_MISMATCH", "fallback": "hashing"}
    STATE.mode = "ok"
    both.search(both.vectorize("kitchen"), 1)
    assert both.last_degradation is None


def test_fallback_times_out_to_hashing(server: str) -> None:
    primary = EmbeddingSearcher(openai_client(server, timeout=0.3)).build(ITEMS)
    both = FallbackSearcher(primary, hashing(ITEMS))
    STATE.delay = 1.0
    started = time.monotonic()
    found = both.search(both.vectorize("garage door"), 1)
    assert time.monotonic() - started < 0.3 + 0.5
    assert found[0].entity_id == "cover.garage"
    assert both.last_degradation == {"code": "EMBEDDING_TIMEOUT", "fallback": "hashing"}


def test_fallback_when_primary_was_never_built(server: str) -> None:
    both = FallbackSearcher(EmbeddingSearcher(openai_client(server)), hashing(ITEMS))
    assert both.search(both.vectorize("garage door"), 1)[0].entity_id == "cover.garage"
    assert both.last_degradation == {"code": "EMBEDDING_NOT_READY", "fallback": "hashing"}
    assert STATE.requests == []
    both.upsert("switch.tree", "christmas tree")
    both.remove("switch.tree")
    assert len(both.primary) == 0 and len(both.fallback) == len(ITEMS)


def index_items(index: DeviceIndex) -> list[tuple[str, str]]:
    return [(eid, normalize(index.device(eid).name)) for eid in index.entries]


def test_search_uses_the_embedding_searcher(server: str, small_en_index: DeviceIndex) -> None:
    searcher = EmbeddingSearcher(openai_client(server)).build(index_items(small_en_index))
    result = search_mod.search(small_en_index, "garage", vector_searcher=searcher)
    assert result.degraded == []
    assert result.results[0].entity_id == "switch.garage_light"
    assert result.results[0].score_breakdown["semantic"] > 0.5


def test_search_degrades_when_the_embedding_service_times_out(
    server: str, small_en_index: DeviceIndex
) -> None:
    searcher = EmbeddingSearcher(openai_client(server, timeout=0.3)).build(
        index_items(small_en_index)
    )
    STATE.delay = 1.0
    started = time.monotonic()
    result = search_mod.search(
        small_en_index, "garage light", vector_searcher=searcher, semantic_timeout=0.3
    )
    assert time.monotonic() - started < 0.3 + 0.5 + 0.5
    assert result.degraded == [{"code": "SEMANTIC_UNAVAILABLE", "fallback": "keyword"}]
    assert result.meta["effective_strategy"] == "keyword"
    assert result.results[0].entity_id == "switch.garage_light"


def test_search_reports_a_slow_but_successful_service_as_search_timeout(
    server: str, small_en_index: DeviceIndex
) -> None:
    searcher = EmbeddingSearcher(openai_client(server, timeout=2.0)).build(
        index_items(small_en_index)
    )
    STATE.delay = 0.4
    result = search_mod.search(
        small_en_index, "garage light", vector_searcher=searcher, semantic_timeout=0.1
    )
    assert result.degraded == [{"code": "SEARCH_TIMEOUT", "fallback": "keyword"}]
    assert result.results[0].entity_id == "switch.garage_light"


def test_retrieve_survives_a_failing_embedding_service(
    server: str, small_en_index: DeviceIndex
) -> None:
    searcher = EmbeddingSearcher(openai_client(server)).build(index_items(small_en_index))
    STATE.mode = "error500"
    results = retrieve("turn on the garage light", small_en_index, vector_searcher=searcher)
    assert results and results[0].selected_ids == ["switch.garage_light"]
