"""An optional embedding model, asked over HTTP (numpy, and a transport for the requests).

Nothing here runs unless the user configured an embedding URL. `EmbeddingClient` POSTs texts to
an OpenAI-compatible `/v1/embeddings` endpoint or to Ollama's `/api/embed` (the user gives the
full URL) and returns float32 rows, L2-normalised. The POST itself is a `Transport`, passed in:
Home Assistant's glue hands in one over Home Assistant's shared HTTP session (the engine imports
nothing of Home Assistant), and the benchmarks and the command line use `urllib_transport`
(stdlib `urllib`). Every failure is an `EmbeddingError` with a stable `code`:

    EMBEDDING_TIMEOUT             no complete answer within `timeout` seconds
    EMBEDDING_HTTP_ERROR          non-2xx status / redirect / connection failure
    EMBEDDING_BAD_RESPONSE        not JSON, wrong shape or count, NaN/inf, zero vector, too big
    EMBEDDING_DIMENSION_MISMATCH  a vector of another dimension than expected

Messages carry the status code or the kind of failure, never the API key, the URL or the
response body; `status` keeps the HTTP status, so that a rejected key (401, 403) can be told
from a service that is down. Every transport must refuse redirects (the bearer token must not
travel to another host) and cap responses at `HttpRequest.max_bytes`. `embedding_search` turns
the client into a `VectorSearcher`.
"""

from __future__ import annotations

import functools
import http.client
import json
import math
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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
READ_CHUNK = 1 << 16
# The statuses with which a service rejects the API key (or its absence).
AUTH_REJECTED = frozenset({401, 403})


class EmbeddingError(Exception):
    """An embedding request failed; `code` is one of the `EMBEDDING_*` constants, `status` the
    HTTP status when the service answered with one."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status

    @property
    def auth_rejected(self) -> bool:
        """The service refused the API key: asking again with the same key will not help."""
        return self.status in AUTH_REJECTED


@dataclass(frozen=True, slots=True)
class HttpRequest:
    """One POST of the client: what a `Transport` sends, within `timeout` seconds in all."""

    url: str
    body: bytes
    headers: Mapping[str, str]
    timeout: float
    max_bytes: int


# Sends the request and returns the body of a 2xx answer; any failure is an `EmbeddingError`
# (a redirect or another status: EMBEDDING_HTTP_ERROR with `status`; no complete answer in
# time: EMBEDDING_TIMEOUT; a body over `max_bytes`: EMBEDDING_BAD_RESPONSE). Called from a
# worker thread, never from an event loop.
Transport = Callable[[HttpRequest], bytes]


def http_status_error(status: int) -> EmbeddingError:
    return EmbeddingError(EMBEDDING_HTTP_ERROR, f"HTTP status {status}", status=status)


def timeout_error(timeout: float) -> EmbeddingError:
    return EmbeddingError(EMBEDDING_TIMEOUT, f"no answer within {timeout:g} s")


def too_large_error() -> EmbeddingError:
    return EmbeddingError(EMBEDDING_BAD_RESPONSE, "response too large")


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


def urllib_transport(request: HttpRequest) -> bytes:
    """The stdlib transport (benchmarks, the command line, the engine's own tests)."""
    prepared = urllib.request.Request(
        request.url, data=request.body, headers=dict(request.headers), method="POST"
    )
    deadline = time.monotonic() + request.timeout
    try:
        with _opener().open(prepared, timeout=request.timeout) as response:
            length = response.headers.get("Content-Length")
            if length is not None and length.isdigit() and int(length) > request.max_bytes:
                raise too_large_error()
            return _read(response, deadline, request)
    except EmbeddingError:
        raise
    except urllib.error.HTTPError as err:
        status = err.code
        err.close()
        raise http_status_error(status) from None
    except urllib.error.URLError as err:
        if isinstance(err.reason, TimeoutError):
            raise timeout_error(request.timeout) from None
        raise EmbeddingError(
            EMBEDDING_HTTP_ERROR, f"connection failed ({type(err.reason).__name__})"
        ) from None
    except TimeoutError:
        raise timeout_error(request.timeout) from None
    except (OSError, ValueError, http.client.HTTPException) as err:  # reset, bad status
        raise EmbeddingError(
            EMBEDDING_HTTP_ERROR, f"connection failed ({type(err).__name__})"
        ) from None


def _read(response: Any, deadline: float, request: HttpRequest) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > deadline:
            raise timeout_error(request.timeout)
        chunk = response.read(READ_CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if size > request.max_bytes:
            raise too_large_error()
        chunks.append(chunk)
    if time.monotonic() > deadline:
        raise timeout_error(request.timeout)
    return b"".join(chunks)


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
        transport: Transport = urllib_transport,
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
        self._transport = transport

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
        # The cap is read per request, so that a test can lower it.
        request = HttpRequest(self.url, body, headers, self.timeout, MAX_RESPONSE_BYTES)
        return self._parse(self._transport(request), len(texts))

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
