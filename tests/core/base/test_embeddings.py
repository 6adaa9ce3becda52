"""core/base/embeddings.py against a real HTTP server on 127.0.0.1 (OpenAI and Ollama shapes)."""

from __future__ import annotations

import json
import math
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from custom_components.context_retrieval.core import search as search_mod
from custom_components.context_retrieval.core.base import embeddings as emb
from custom_components.context_retrieval.core.base.embeddings import (
    EmbeddingClient,
    EmbeddingError,
    EmbeddingSearcher,
    FallbackSearcher,
)
from custom_components.context_retrieval.core.base.index import DeviceIndex
from custom_components.context_retrieval.core.base.text import normalize
from custom_components.context_retrieval.core.base.vector_search import (
    InMemoryVectorSearcher,
    VectorSearcher,
)
from custom_components.context_retrieval.core.retrieval.pipeline import retrieve

API_KEY = "sk-test-SECRET-abcdef123456"
# The server's vectors: one axis per keyword found in the text, plus a small shared base.
KEYWORDS = ("kitchen", "bedroom", "garage", "lamp", "fan", "door", "thermostat", "tree")
DIM = len(KEYWORDS)
ODD_DIM = 5  # dimension returned, in mode "odd", for texts containing ODD_MARKER
ODD_MARKER = "weird"

ITEMS = [
    ("light.kitchen", "kitchen light"),
    ("light.bedroom", "bedroom lamp"),
    ("cover.garage", "garage door"),
    ("fan.bedroom", "bedroom fan"),
    ("climate.hall", "thermostat"),
]


def vector_for(text: str) -> list[float]:
    return [1.0 if word in text else 0.05 for word in KEYWORDS]


class _State:
    def __init__(self) -> None:
        self.mode = "ok"
        self.delay = 0.0
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.release = threading.Event()  # cuts a slow handler's sleep short
        self.threads: list[threading.Thread] = []

    def reset(self) -> None:
        with self.lock:
            self.mode, self.delay, self.requests = "ok", 0.0, []
            self.release.clear()

    def drain(self) -> None:
        """Wake sleeping handlers and wait for their threads (no thread outlives a test)."""
        self.release.set()
        with self.lock:
            threads, self.threads = self.threads, []
        for thread in threads:
            thread.join(timeout=5)


STATE = _State()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def _send(self, status: int, body: bytes, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        payload = json.loads(self.rfile.read(length) or b"{}")
        with STATE.lock:
            STATE.requests.append({"path": self.path, "body": payload,
                                   "auth": self.headers.get("Authorization")})
            mode, delay = STATE.mode, STATE.delay
            STATE.threads.append(threading.current_thread())
        if delay:
            STATE.release.wait(delay)
        if mode == "error500":
            self._send(500, json.dumps({"error": f"bad key {API_KEY}"}).encode())
            return
        if mode == "redirect":
            self._send(302, b"", {"Location": "/elsewhere"})
            return
        if mode == "malformed":
            self._send(200, b'{"data": [ {"embedding": [1, 2')
            return
        texts = payload.get("input", [])
        vectors: list[list[float]] = []
        for text in texts:
            vec = vector_for(text)
            if mode == "nan":
                vec[0] = math.nan
            if mode == "odd" and ODD_MARKER in text:
                vec = vec[:ODD_DIM]
            vectors.append(vec)
        if mode == "short":
            vectors = vectors[:-1]
        if self.path == "/api/embed":
            body: dict[str, Any] = {"model": payload.get("model"), "embeddings": vectors}
        elif self.path == "/v1/embeddings":
            data = [{"object": "embedding", "index": i, "embedding": v}
                    for i, v in enumerate(vectors)]
            body = {"object": "list", "data": data[::-1]}  # out of order: client must sort
        else:
            self._send(404, b"{}")
            return
        self._send(200, json.dumps(body).encode())  # NaN is written as NaN (valid for loads)


def _allow_sockets() -> None:
    """pytest-homeassistant-custom-component blocks sockets before every test; these tests
    need loopback HTTP to their own server."""
    try:
        import pytest_socket
    except ImportError:
        return
    pytest_socket.enable_socket()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (timeout) leaves a broken pipe; that is expected


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    _allow_sockets()
    httpd = _Server(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        STATE.drain()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@pytest.fixture(autouse=True)
def _reset_server() -> Iterator[None]:
    _allow_sockets()
    STATE.reset()
    yield
    STATE.drain()
    STATE.reset()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                 "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)


def openai_client(server: str, **kwargs: Any) -> EmbeddingClient:
    kwargs.setdefault("api_key", API_KEY)
    return EmbeddingClient(f"{server}/v1/embeddings", "test-model", "openai", **kwargs)


def ollama_client(server: str, **kwargs: Any) -> EmbeddingClient:
    return EmbeddingClient(f"{server}/api/embed", "nomic-embed-text", "ollama", **kwargs)


# ---- client ---------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [openai_client, ollama_client])
def test_embed_returns_normalised_float32_rows_in_input_order(server: str, make: Any) -> None:
    client = make(server, batch=2)
    texts = ["garage door", "kitchen light", "bedroom fan"]
    matrix = client.embed(texts)
    assert matrix.dtype == np.float32 and matrix.shape == (3, DIM)
    np.testing.assert_allclose(np.linalg.norm(matrix, axis=1), 1.0, rtol=1e-5)
    for row, text in zip(matrix, texts, strict=True):
        expected = np.asarray(vector_for(text)) / np.linalg.norm(vector_for(text))
        np.testing.assert_allclose(row, expected, rtol=1e-5)
    assert [len(r["body"]["input"]) for r in STATE.requests] == [2, 1]
    assert all(r["body"]["model"] == client.model for r in STATE.requests)
    assert client.embed([]).shape[0] == 0


def test_openai_sends_bearer_key_and_ollama_sends_none(server: str) -> None:
    openai_client(server).embed(["lamp"])
    ollama_client(server).embed(["lamp"])
    assert [r["path"] for r in STATE.requests] == ["/v1/embeddings", "/api/embed"]
    assert STATE.requests[0]["auth"] == f"Bearer {API_KEY}"
    assert STATE.requests[1]["auth"] is None


def test_timeout_is_reported_within_the_timeout(server: str) -> None:
    STATE.delay = 1.5
    client = openai_client(server, timeout=0.3)
    started = time.monotonic()
    with pytest.raises(EmbeddingError) as info:
        client.embed(["garage"])
    assert info.value.code == "EMBEDDING_TIMEOUT"
    assert time.monotonic() - started < 0.3 + 0.5


def test_http_500_is_an_http_error_that_never_shows_the_key(server: str) -> None:
    STATE.mode = "error500"
    client = openai_client(server)
    with pytest.raises(EmbeddingError) as info:
        client.embed(["garage"])
    err = info.value
    assert err.code == "EMBEDDING_HTTP_ERROR"
    assert "500" in err.message
    for text in (str(err), repr(err), err.message, repr(client)):
        assert API_KEY not in text and "SECRET" not in text
    assert err.__cause__ is None and err.__suppress_context__


def test_redirect_is_not_followed(server: str) -> None:
    STATE.mode = "redirect"
    with pytest.raises(EmbeddingError) as info:
        openai_client(server).embed(["garage"])
    assert info.value.code == "EMBEDDING_HTTP_ERROR" and "302" in info.value.message
    assert [r["path"] for r in STATE.requests] == ["/v1/embeddings"]


def test_connection_refused_is_an_http_error() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = EmbeddingClient(f"http://127.0.0.1:{port}/v1/embeddings", "m", "openai",
                             api_key=API_KEY)
    with pytest.raises(EmbeddingError) as info:
        client.embed(["garage"])
    assert info.value.code == "EMBEDDING_HTTP_ERROR" and API_KEY not in str(info.value)


@pytest.mark.parametrize("mode", ["malformed", "nan", "short"])
@pytest.mark.parametrize("make", [openai_client, ollama_client])
def test_bad_responses(server: str, make: Any, mode: str) -> None:
    STATE.mode = mode
    with pytest.raises(EmbeddingError) as info:
        make(server).embed(["garage door", "kitchen light"])
    assert info.value.code == "EMBEDDING_BAD_RESPONSE"


def test_response_size_is_capped(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(emb, "MAX_RESPONSE_BYTES", 64)
    with pytest.raises(EmbeddingError) as info:
        openai_client(server).embed(["garage door", "kitchen light"])
    assert info.value.code == "EMBEDDING_BAD_RESPONSE" and "large" in info.value.message


def test_embed_with_mixed_dimensions_is_a_dimension_mismatch(server: str) -> None:
    STATE.mode = "odd"
    with pytest.raises(EmbeddingError) as info:
        openai_client(server).embed(["garage", f"{ODD_MARKER} lamp"])
    assert info.value.code == "EMBEDDING_DIMENSION_MISMATCH"


def test_client_rejects_bad_configuration() -> None:
    with pytest.raises(ValueError):
        EmbeddingClient("http://x/v1/embeddings", "m", "cohere")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        EmbeddingClient("file:///etc/passwd", "m", "openai")
    with pytest.raises(ValueError):
        EmbeddingClient("http://x/", "m", "openai", timeout=0)


# ---- searcher -------------------------------------------------------------------------------


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
    searcher.build([*ITEMS[:-1], ("climate.hall", f"{ODD_MARKER} thermostat"),
                    ("lock.odd", f"{ODD_MARKER} door")])
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


# ---- fallback -------------------------------------------------------------------------------


def hashing(items: list[tuple[str, str]]) -> InMemoryVectorSearcher:
    return InMemoryVectorSearcher.build((eid, normalize(text)) for eid, text in items)


def test_fallback_serves_primary_then_hashing_when_primary_fails(server: str) -> None:
    primary = EmbeddingSearcher(openai_client(server)).build(ITEMS)
    both = FallbackSearcher(primary, hashing(ITEMS))
    assert isinstance(both, VectorSearcher)
    found = both.search(both.vectorize("garage"), 2)
    assert found[0].entity_id == "cover.garage" and both.last_degradation is None
    assert "embedding" in found[0].reasons[0]

    STATE.mode = "error500"
    vec = both.vectorize("thermostat")
    assert both.last_degradation == {"code": "EMBEDDING_HTTP_ERROR", "fallback": "hashing"}
    found = both.search(vec, 2)
    assert found[0].entity_id == "climate.hall" and "vector" in found[0].reasons[0]
    assert both.shortlist(vec, 1) == ["climate.hall"]
    assert set(both.scores(vec)) == {eid for eid, _ in ITEMS}

    STATE.mode = "odd"
    both.vectorize(f"{ODD_MARKER} door")
    assert both.last_degradation == {"code": "EMBEDDING_DIMENSION_MISMATCH",
                                     "fallback": "hashing"}
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


# ---- the engine's callers -------------------------------------------------------------------


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
        index_items(small_en_index))
    STATE.delay = 1.0
    started = time.monotonic()
    result = search_mod.search(small_en_index, "garage light", vector_searcher=searcher,
                               semantic_timeout=0.3)
    assert time.monotonic() - started < 0.3 + 0.5 + 0.5
    assert result.degraded == [{"code": "SEMANTIC_UNAVAILABLE", "fallback": "keyword"}]
    assert result.meta["effective_strategy"] == "keyword"
    assert result.results[0].entity_id == "switch.garage_light"


def test_search_reports_a_slow_but_successful_service_as_search_timeout(
    server: str, small_en_index: DeviceIndex
) -> None:
    searcher = EmbeddingSearcher(openai_client(server, timeout=2.0)).build(
        index_items(small_en_index))
    STATE.delay = 0.4
    result = search_mod.search(small_en_index, "garage light", vector_searcher=searcher,
                               semantic_timeout=0.1)
    assert result.degraded == [{"code": "SEARCH_TIMEOUT", "fallback": "keyword"}]
    assert result.results[0].entity_id == "switch.garage_light"


def test_retrieve_survives_a_failing_embedding_service(
    server: str, small_en_index: DeviceIndex
) -> None:
    searcher = EmbeddingSearcher(openai_client(server)).build(index_items(small_en_index))
    STATE.mode = "error500"
    results = retrieve("turn on the garage light", small_en_index, vector_searcher=searcher)
    assert results and results[0].selected_ids == ["switch.garage_light"]
