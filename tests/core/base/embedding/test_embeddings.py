"""core/base/embeddings.py against a real HTTP server on 127.0.0.1 (OpenAI and Ollama shapes)."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from custom_components.context_retrieval.core.base import embeddings as emb
from custom_components.context_retrieval.core.base.embeddings import (
    EmbeddingClient,
    EmbeddingError,
)
from tests.blocking_probe import certificate_loads
from tests.core.base.embedding.server import (
    API_KEY,
    DIM,
    ODD_MARKER,
    STATE,
    ollama_client,
    openai_client,
    vector_for,
)


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
    client = EmbeddingClient(
        f"http://127.0.0.1:{port}/v1/embeddings", "m", "openai", api_key=API_KEY
    )
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


def test_a_response_without_its_length_is_read_to_its_end(server: str) -> None:
    """A server may send no Content-Length (the body ends with the connection): read it."""
    STATE.mode = "unsized"
    vectors = openai_client(server).embed(["garage door", "kitchen light"])
    assert vectors.shape[0] == 2


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


def test_importing_loads_no_certificates_the_first_request_does() -> None:
    """Building the HTTPS opener loads the CA certificates, blocking file I/O: not at import
    (Home Assistant flags it on its event loop), but in the thread of the first request."""
    module = emb.__name__
    loads = certificate_loads([module], calls=(f"{module}._opener",))
    assert loads["import"] == []
    built_at = f"embeddings.py:{_line_of('build_opener')}"
    assert any(where.endswith(built_at) for where in loads["calls"])


def _line_of(text: str) -> int:
    source = Path(emb.__file__).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(source, 1) if text in line and "def " not in line)
