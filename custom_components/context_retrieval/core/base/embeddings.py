"""An optional embedding model, asked over HTTP (stdlib `urllib` + numpy only).

Nothing here runs unless the user configured an embedding URL. `EmbeddingClient` POSTs texts to
an OpenAI-compatible `/v1/embeddings` endpoint or to Ollama's `/api/embed` (the user gives the
full URL) and returns float32 rows, L2-normalised. Every failure is an `EmbeddingError` with a
stable `code`:

    EMBEDDING_TIMEOUT             no complete answer within `timeout` seconds
    EMBEDDING_HTTP_ERROR          non-2xx status / redirect / connection failure
    EMBEDDING_BAD_RESPONSE        not JSON, wrong shape or count, NaN/inf, zero vector, too big
    EMBEDDING_DIMENSION_MISMATCH  a vector of another dimension than expected

Messages carry the status code or the kind of failure, never the API key, the URL or the
response body. Redirects are not followed (the bearer token must not travel to another host)
and responses are capped at `MAX_RESPONSE_BYTES`. `embedding_search` turns the client into a
`VectorSearcher`.
"""

from __future__ import annotations

import functools
import http.client
import json
import math
import time
import urllib.error
import urllib.request
from typing import Any, Literal

import numpy as np

from .vector_search import Floats

EmbeddingKind = Literal["openai", "ollama"]
KINDS: tuple[str, ...] = ("openai", "ollama")

EMBEDDING_TIMEOUT = "EMBEDDING_TIMEOUT"
EMBEDDING_HTTP_ERROR = "EMBEDDING_HTTP_ERROR"
EMBEDDING_BAD_RESPONSE = "EMBEDDING_BAD_RESPONSE"
EMBEDDING_DIMENSION_MISMATCH = "EMBEDDING_DIMENSION_MISMATCH"
EMBEDDING_NOT_READY = "EMBEDDING_NOT_READY"

MAX_RESPONSE_BYTES = 64 * 1024 * 1024
MAX_DIM = 65_536
_READ_CHUNK = 1 << 16


class EmbeddingError(Exception):
    """An embedding request failed; `code` is one of the `EMBEDDING_*` constants."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Turn every redirect into an HTTPError: the Authorization header must not be re-sent."""

    def redirect_request(
        self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> None:
        return None


@functools.cache
def _opener() -> urllib.request.OpenerDirector:
    """The HTTP(S) opener, built by the first request: building it loads the system's CA
    certificates, blocking file I/O that belongs in the worker thread making the request, never
    in an import (whoever imports, Home Assistant's event loop included, would wait for it).
    Two threads racing here build two equal openers; either is fine."""
    return urllib.request.build_opener(_NoRedirect)


# ---- client --------------------------------------------------------------------------------


class EmbeddingClient:
    """Blocking HTTP client for one embedding model; call it from a worker thread.

    `timeout` bounds the whole request (connect, wait and body), `batch` the texts per request.
    `dim`, when set, is the dimension `embed` insists on (`EMBEDDING_DIMENSION_MISMATCH`).
    """

    def __init__(
        self,
        url: str,
        model: str,
        kind: EmbeddingKind = "openai",
        api_key: str | None = None,
        timeout: float = 2.0,
        batch: int = 64,
        dim: int | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        if not isinstance(url, str) or not url.lower().startswith(("http://", "https://")):
            raise ValueError("url must be an http:// or https:// URL")
        if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
            raise ValueError("timeout must be a positive number of seconds")
        if not isinstance(batch, int) or batch < 1:
            raise ValueError("batch must be a positive integer")
        self.url = url
        self.model = model
        self.kind: EmbeddingKind = kind
        self._api_key = api_key or None
        self.timeout = float(timeout)
        self.batch = batch
        self.dim = dim

    def __repr__(self) -> str:  # never show the key
        return f"EmbeddingClient(kind={self.kind!r}, model={self.model!r})"

    def embed(self, texts: list[str]) -> Floats:
        """One L2-normalised float32 row per text (`texts` split into `batch`-sized requests)."""
        rows = self.embed_rows(texts)
        if not rows:
            return np.zeros((0, self.dim or 0), dtype=np.float32)
        dims = {r.shape[0] for r in rows}
        expected = self.dim if self.dim is not None else rows[0].shape[0]
        if dims != {expected}:
            raise EmbeddingError(
                EMBEDDING_DIMENSION_MISMATCH, f"expected dimension {expected}, got {sorted(dims)}"
            )
        return np.vstack(rows)

    def embed_rows(self, texts: list[str]) -> list[Floats]:
        """Like `embed` but one array per text, dimensions unchecked (for quarantining)."""
        out: list[Floats] = []
        for start in range(0, len(texts), self.batch):
            out.extend(self._request(list(texts[start : start + self.batch])))
        return out

    # -- one request --

    def _request(self, texts: list[str]) -> list[Floats]:
        body = json.dumps({"model": self.model, "input": texts}).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        deadline = time.monotonic() + self.timeout
        try:
            with _opener().open(request, timeout=self.timeout) as response:
                length = response.headers.get("Content-Length")
                if length is not None and length.isdigit() and int(length) > MAX_RESPONSE_BYTES:
                    raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "response too large")
                raw = self._read(response, deadline)
        except EmbeddingError:
            raise
        except urllib.error.HTTPError as err:
            status = err.code
            err.close()
            raise EmbeddingError(EMBEDDING_HTTP_ERROR, f"HTTP status {status}") from None
        except urllib.error.URLError as err:
            if isinstance(err.reason, TimeoutError):
                raise EmbeddingError(
                    EMBEDDING_TIMEOUT, f"no answer within {self.timeout:g} s"
                ) from None
            raise EmbeddingError(
                EMBEDDING_HTTP_ERROR, f"connection failed ({type(err.reason).__name__})"
            ) from None
        except TimeoutError:
            raise EmbeddingError(
                EMBEDDING_TIMEOUT, f"no answer within {self.timeout:g} s"
            ) from None
        except (OSError, ValueError, http.client.HTTPException) as err:  # reset, bad status
            raise EmbeddingError(
                EMBEDDING_HTTP_ERROR, f"connection failed ({type(err).__name__})"
            ) from None
        return self._parse(raw, len(texts))

    def _read(self, response: Any, deadline: float) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            if time.monotonic() > deadline:
                raise EmbeddingError(EMBEDDING_TIMEOUT, f"no answer within {self.timeout:g} s")
            chunk = response.read(_READ_CHUNK)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_RESPONSE_BYTES:
                raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "response too large")
            chunks.append(chunk)
        if time.monotonic() > deadline:
            raise EmbeddingError(EMBEDDING_TIMEOUT, f"no answer within {self.timeout:g} s")
        return b"".join(chunks)

    def _parse(self, raw: bytes, count: int) -> list[Floats]:
        try:
            payload = json.loads(raw)
        except (UnicodeDecodeError, ValueError):
            raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "response is not JSON") from None
        if not isinstance(payload, dict):
            raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "response is not a JSON object")
        vectors: list[Any]
        if self.kind == "ollama":
            found = payload.get("embeddings")
            if not isinstance(found, list):
                raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "no 'embeddings' list")
            vectors = found
        else:
            data = payload.get("data")
            if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
                raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "no 'data' list of objects")
            indices = [d.get("index", i) for i, d in enumerate(data)]
            if not all(type(i) is int for i in indices) or sorted(indices) != list(
                range(len(data))
            ):
                raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "bad 'index' values in 'data'")
            vectors = [
                d.get("embedding")
                for _, d in sorted(zip(indices, data, strict=True), key=lambda p: p[0])
            ]
        if len(vectors) != count:
            raise EmbeddingError(
                EMBEDDING_BAD_RESPONSE, f"expected {count} embeddings, got {len(vectors)}"
            )
        return [_row(v) for v in vectors]


def _row(value: Any) -> Floats:
    if (
        not isinstance(value, list)
        or not value
        or len(value) > MAX_DIM
        or not all(type(x) in (int, float) for x in value)
    ):
        raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "an embedding is not a list of numbers")
    vec = np.asarray(value, dtype=np.float64)
    if not np.all(np.isfinite(vec)):
        raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "an embedding contains NaN or infinity")
    length = float(np.linalg.norm(vec))
    if not math.isfinite(length) or length == 0.0:
        raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "an embedding has no usable length")
    return (vec / length).astype(np.float32)
