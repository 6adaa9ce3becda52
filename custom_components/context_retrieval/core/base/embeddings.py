"""Optional embedding models as the engine's `VectorSearcher` (stdlib HTTP + numpy only).

Nothing here runs unless the user configured an embedding URL. Three pieces:

* `EmbeddingClient` — POSTs texts to an OpenAI-compatible `/v1/embeddings` endpoint or to
  Ollama's `/api/embed` (the user gives the full URL) and returns float32 rows, L2-normalised.
  Every failure is an `EmbeddingError` with a stable `code`:

      EMBEDDING_TIMEOUT             no complete answer within `timeout` seconds
      EMBEDDING_HTTP_ERROR          non-2xx status / redirect / connection failure
      EMBEDDING_BAD_RESPONSE        not JSON, wrong shape or count, NaN/inf, zero vector, too big
      EMBEDDING_DIMENSION_MISMATCH  a vector of another dimension than expected

  Messages carry the status code or the kind of failure, never the API key, the URL or the
  response body. Redirects are not followed (the bearer token must not travel to another host)
  and responses are capped at `MAX_RESPONSE_BYTES`.

* `EmbeddingSearcher` — the same methods as `InMemoryVectorSearcher` (`build`, `__len__`,
  `vectorize`, `upsert`, `remove`, `scores`, `search`, `shortlist`) over embedded vectors.
  The dimension is fixed by the first successful batch; a later vector of another dimension
  is quarantined (not stored) and recorded in `quarantined` / `problems`, while what was
  built before keeps serving. `vectorize` raises `EmbeddingError`; the callers (`search.py`,
  `retrieval`) catch any exception from the semantic side and fall back to keyword.

* `FallbackSearcher` — serves the embedding searcher, and the hashing searcher whenever the
  embedding side cannot answer a query; `last_degradation` says why.

Do not install an `EmbeddingSearcher` as `DeviceIndex.vectors`: `keyword_search` uses that
searcher's `shortlist` as a character-n-gram prefilter without catching errors. Pass it as
`vector_searcher=` to `retrieve`/`search` instead.
"""

from __future__ import annotations

import http.client
import json
import math
import threading
import time
import urllib.error
import urllib.request
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from .models import Candidate
from .text import normalize
from .vector_search import Floats, InMemoryVectorSearcher

EmbeddingKind = Literal["openai", "ollama"]
KINDS: tuple[str, ...] = ("openai", "ollama")

EMBEDDING_TIMEOUT = "EMBEDDING_TIMEOUT"
EMBEDDING_HTTP_ERROR = "EMBEDDING_HTTP_ERROR"
EMBEDDING_BAD_RESPONSE = "EMBEDDING_BAD_RESPONSE"
EMBEDDING_DIMENSION_MISMATCH = "EMBEDDING_DIMENSION_MISMATCH"
EMBEDDING_NOT_READY = "EMBEDDING_NOT_READY"

MAX_RESPONSE_BYTES = 64 * 1024 * 1024
MAX_DIM = 65_536
MAX_PROBLEMS = 100
QUERY_CACHE_SIZE = 256
_READ_CHUNK = 1 << 16


class EmbeddingError(Exception):
    """An embedding request failed; `code` is one of the `EMBEDDING_*` constants."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Turn every redirect into an HTTPError: the Authorization header must not be re-sent."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


# ---- client --------------------------------------------------------------------------------


class EmbeddingClient:
    """Blocking HTTP client for one embedding model; call it from a worker thread.

    `timeout` bounds the whole request (connect, wait and body), `batch` the texts per request.
    `dim`, when set, is the dimension `embed` insists on (`EMBEDDING_DIMENSION_MISMATCH`).
    """

    def __init__(self, url: str, model: str, kind: EmbeddingKind = "openai",
                 api_key: str | None = None, timeout: float = 2.0, batch: int = 64,
                 dim: int | None = None) -> None:
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
            raise EmbeddingError(EMBEDDING_DIMENSION_MISMATCH,
                                 f"expected dimension {expected}, got {sorted(dims)}")
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
            with _OPENER.open(request, timeout=self.timeout) as response:
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
                raise EmbeddingError(EMBEDDING_TIMEOUT,
                                     f"no answer within {self.timeout:g} s") from None
            raise EmbeddingError(EMBEDDING_HTTP_ERROR,
                                 f"connection failed ({type(err.reason).__name__})") from None
        except TimeoutError:
            raise EmbeddingError(EMBEDDING_TIMEOUT,
                                 f"no answer within {self.timeout:g} s") from None
        except (OSError, ValueError, http.client.HTTPException) as err:  # reset, bad status
            raise EmbeddingError(EMBEDDING_HTTP_ERROR,
                                 f"connection failed ({type(err).__name__})") from None
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
            if (not all(type(i) is int for i in indices)
                    or sorted(indices) != list(range(len(data)))):
                raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "bad 'index' values in 'data'")
            vectors = [d.get("embedding") for _, d in sorted(zip(indices, data, strict=True),
                                                               key=lambda p: p[0])]
        if len(vectors) != count:
            raise EmbeddingError(EMBEDDING_BAD_RESPONSE,
                                 f"expected {count} embeddings, got {len(vectors)}")
        return [_row(v) for v in vectors]


def _row(value: Any) -> Floats:
    if (not isinstance(value, list) or not value or len(value) > MAX_DIM
            or not all(type(x) in (int, float) for x in value)):
        raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "an embedding is not a list of numbers")
    vec = np.asarray(value, dtype=np.float64)
    if not np.all(np.isfinite(vec)):
        raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "an embedding contains NaN or infinity")
    length = float(np.linalg.norm(vec))
    if not math.isfinite(length) or length == 0.0:
        raise EmbeddingError(EMBEDDING_BAD_RESPONSE, "an embedding has no usable length")
    return (vec / length).astype(np.float32)


# ---- searcher ------------------------------------------------------------------------------


class EmbeddingSearcher:
    """Brute-force cosine search over embeddings from an `EmbeddingClient`.

    Mirrors `InMemoryVectorSearcher`. `build(items)` embeds `(entity_id, normalised text)` in
    batches and swaps the new matrix in only when every request succeeded; on a failed request
    it records the problem and raises, and whatever was served before keeps serving. Vectors of
    another dimension than the first successful batch's are quarantined: not stored (an entity
    that had a vector keeps its previous one), listed in `quarantined` and `problems`.
    """

    def __init__(self, client: EmbeddingClient) -> None:
        self.client = client
        self.dim: int | None = client.dim
        self.quarantined: dict[str, str] = {}
        self.problems: list[dict[str, str]] = []
        self._ids: list[str] = []
        self._row_of: dict[str, int] = {}
        self._matrix: Floats = np.zeros((0, self.dim or 0), dtype=np.float32)
        self._cache: OrderedDict[str, Floats] = OrderedDict()
        self._lock = threading.RLock()

    # -- building --

    def build(self, items: Iterable[tuple[str, str]]) -> EmbeddingSearcher:
        """(Re)index every `(entity_id, normalised text)` pair; returns `self`.

        Raises `EmbeddingError` (and keeps the previous matrix) when a request fails.
        """
        pairs = list(dict(items).items())  # last text wins for a repeated entity id
        ids: list[str] = []
        rows: list[Floats] = []
        quarantined: dict[str, str] = {}
        dim = self.dim
        for start in range(0, len(pairs), self.client.batch):
            chunk = pairs[start : start + self.client.batch]
            try:
                vectors = self.client.embed_rows([text for _, text in chunk])
            except EmbeddingError as err:
                self._problem(err.code, err.message)
                raise
            for (eid, _), vec in zip(chunk, vectors, strict=True):
                if dim is None:
                    dim = vec.shape[0]
                if vec.shape[0] != dim:
                    quarantined[eid] = f"dimension {vec.shape[0]}, expected {dim}"
                    continue
                ids.append(eid)
                rows.append(vec)
        with self._lock:
            previous = {e: self._matrix[r] for e, r in self._row_of.items()}
            for eid in quarantined:
                if eid in previous:  # keep serving the vector it had
                    ids.append(eid)
                    rows.append(previous[eid])
            self.dim = dim
            self.client.dim = dim
            self._ids = ids
            self._row_of = {e: i for i, e in enumerate(ids)}
            self._matrix = (np.vstack(rows) if rows
                            else np.zeros((0, dim or 0), dtype=np.float32))
            self.quarantined = quarantined
            self._cache.clear()
            for eid, why in quarantined.items():
                self._problem(EMBEDDING_DIMENSION_MISMATCH, f"{eid}: {why}")
        return self

    def upsert(self, entity_id: str, normalized_text: str) -> None:
        """Embed one entity now. Never raises: a failure is recorded in `problems` and
        `quarantined`, and the entity keeps its previous vector (if any)."""
        try:
            (vec,) = self.client.embed_rows([normalized_text])
        except EmbeddingError as err:
            with self._lock:
                self.quarantined[entity_id] = err.code
                self._problem(err.code, f"{entity_id}: {err.message}")
            return
        with self._lock:
            if self.dim is None:
                self.dim = self.client.dim = vec.shape[0]
                self._matrix = np.zeros((0, self.dim), dtype=np.float32)
            if vec.shape[0] != self.dim:
                why = f"dimension {vec.shape[0]}, expected {self.dim}"
                self.quarantined[entity_id] = why
                self._problem(EMBEDDING_DIMENSION_MISMATCH, f"{entity_id}: {why}")
                return
            self.quarantined.pop(entity_id, None)
            row = self._row_of.get(entity_id)
            if row is not None:
                matrix = self._matrix.copy()  # readers may hold the old matrix
                matrix[row] = vec
                self._matrix = matrix
                return
            self._matrix = np.vstack([self._matrix, vec[None, :]])
            self._ids = [*self._ids, entity_id]
            self._row_of = {**self._row_of, entity_id: len(self._ids) - 1}

    def remove(self, entity_id: str) -> None:
        with self._lock:
            self.quarantined.pop(entity_id, None)
            row = self._row_of.get(entity_id)
            if row is None:
                return
            ids = [e for e in self._ids if e != entity_id]
            self._matrix = np.delete(self._matrix, row, axis=0)
            self._ids = ids
            self._row_of = {e: i for i, e in enumerate(ids)}

    def _problem(self, code: str, detail: str) -> None:
        self.problems.append({"code": code, "detail": detail})
        del self.problems[:-MAX_PROBLEMS]

    # -- querying --

    def __len__(self) -> int:
        return len(self._ids)

    def vectorize(self, text: str) -> Floats:
        """The query's embedding (one request, `client.timeout`); raises `EmbeddingError`."""
        norm = normalize(text)
        with self._lock:
            cached = self._cache.get(norm)
            if cached is not None:
                self._cache.move_to_end(norm)
                return cached.copy()
        (vec,) = self.client.embed_rows([norm])
        if self.dim is not None and vec.shape[0] != self.dim:
            raise EmbeddingError(EMBEDDING_DIMENSION_MISMATCH,
                                 f"query dimension {vec.shape[0]}, expected {self.dim}")
        with self._lock:
            self._cache[norm] = vec
            while len(self._cache) > QUERY_CACHE_SIZE:
                self._cache.popitem(last=False)
        return vec.copy()

    def _snapshot(self) -> tuple[list[str], dict[str, int], Floats]:
        with self._lock:
            return self._ids, self._row_of, self._matrix

    def _rows(self, row_of: dict[str, int], size: int,
              allowed: set[str] | None) -> NDArray[np.int64]:
        if allowed is None:
            return np.arange(size)
        return np.fromiter((row_of[e] for e in allowed if e in row_of), dtype=np.int64)

    def _sims(self, matrix: Floats, rows: NDArray[np.int64], query_vector: Floats
              ) -> Floats:
        query = np.asarray(query_vector, dtype=np.float32)
        if query.shape != (matrix.shape[1],):
            raise EmbeddingError(EMBEDDING_DIMENSION_MISMATCH,
                                 f"query shape {query.shape}, index dimension {matrix.shape[1]}")
        return np.asarray(matrix[rows] @ query)

    def scores(self, query_vector: Floats) -> dict[str, float]:
        """Cosine similarity of the query with every indexed entity."""
        ids, _, matrix = self._snapshot()
        if not ids:
            return {}
        sims = self._sims(matrix, np.arange(len(ids)), query_vector)
        return {eid: float(s) for eid, s in zip(ids, sims, strict=True)}

    def search(self, query_vector: Floats, top_k: int,
               allowed: set[str] | None = None) -> list[Candidate]:
        out = []
        for eid, score in self._ranked(query_vector, top_k, allowed):
            out.append(Candidate(entity_id=eid, vector_score=score, breakdown={"vector": score},
                                 reasons=[f"embedding similarity {score:.2f}"]))
        return out

    def shortlist(self, query_vector: Floats, top_k: int,
                  allowed: set[str] | None = None) -> list[str]:
        """Ids of the `top_k` most similar entities, without building candidates."""
        return [eid for eid, _ in self._ranked(query_vector, top_k, allowed)]

    def _ranked(self, query_vector: Floats, top_k: int,
                allowed: set[str] | None) -> list[tuple[str, float]]:
        ids, row_of, matrix = self._snapshot()
        if not ids or top_k <= 0:
            return []
        rows = self._rows(row_of, len(ids), allowed)
        if rows.size == 0:
            return []
        sims = self._sims(matrix, rows, query_vector)
        k = min(top_k, len(sims))
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top], kind="stable")]
        return [(ids[int(rows[i])], float(sims[i])) for i in top if sims[i] > 0.0]


# ---- fallback ------------------------------------------------------------------------------


class _HashingQuery(np.ndarray[Any, np.dtype[np.float32]]):
    """Marks a query vector that came from the fallback searcher (so `search` routes it)."""


class FallbackSearcher:
    """The embedding searcher, or the hashing searcher when the embedding side can't answer.

    `vectorize` asks `primary`; if it raises `EmbeddingError` (timeout, HTTP, bad response,
    dimension mismatch) or `primary` holds no vectors, it returns `fallback`'s vector instead,
    tagged so that `search`/`shortlist`/`scores` on that vector go to `fallback`, and sets
    `last_degradation = {"code": ..., "fallback": "hashing"}` (reset to `None` on a query the
    primary answered). `upsert`/`remove` go to both (the fallback may be `DeviceIndex.vectors`,
    which the index already maintains; doing it twice is harmless).
    """

    def __init__(self, primary: EmbeddingSearcher, fallback: InMemoryVectorSearcher) -> None:
        self.primary = primary
        self.fallback = fallback
        self.last_degradation: dict[str, str] | None = None

    def __len__(self) -> int:
        return len(self.primary) or len(self.fallback)

    def vectorize(self, text: str) -> Floats:
        if len(self.primary) == 0:
            return self._degrade(EMBEDDING_NOT_READY, text)
        try:
            vec = self.primary.vectorize(text)
        except EmbeddingError as err:
            return self._degrade(err.code, text)
        self.last_degradation = None
        return vec

    def _degrade(self, code: str, text: str) -> Floats:
        self.last_degradation = {"code": code, "fallback": "hashing"}
        return self.fallback.vectorize(text).view(_HashingQuery)

    def _target(self, query_vector: Floats) -> tuple[Any, Floats]:
        if isinstance(query_vector, _HashingQuery):
            return self.fallback, query_vector.view(np.ndarray)
        return self.primary, query_vector

    def scores(self, query_vector: Floats) -> dict[str, float]:
        target, vec = self._target(query_vector)
        result: dict[str, float] = target.scores(vec)
        return result

    def search(self, query_vector: Floats, top_k: int,
               allowed: set[str] | None = None) -> list[Candidate]:
        target, vec = self._target(query_vector)
        result: list[Candidate] = target.search(vec, top_k, allowed)
        return result

    def shortlist(self, query_vector: Floats, top_k: int,
                  allowed: set[str] | None = None) -> list[str]:
        target, vec = self._target(query_vector)
        result: list[str] = target.shortlist(vec, top_k, allowed)
        return result

    def upsert(self, entity_id: str, normalized_text: str) -> None:
        self.primary.upsert(entity_id, normalized_text)
        self.fallback.upsert(entity_id, normalized_text)

    def remove(self, entity_id: str) -> None:
        self.primary.remove(entity_id)
        self.fallback.remove(entity_id)
