"""Embedding vectors as the engine's `VectorSearcher`, with the hashing vectors as fallback.

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

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .embeddings import (
    EMBEDDING_DIMENSION_MISMATCH,
    EMBEDDING_NOT_READY,
    EmbeddingClient,
    EmbeddingError,
)
from .models import Candidate, Reason, ReasonCode
from .text import normalize
from .vector_search import Floats, InMemoryVectorSearcher

MAX_PROBLEMS = 100  # problems kept for diagnostics
QUERY_CACHE_SIZE = 256  # query vectors kept: a conversation repeats its words

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
            self._matrix = np.vstack(rows) if rows else np.zeros((0, dim or 0), dtype=np.float32)
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
            raise EmbeddingError(
                EMBEDDING_DIMENSION_MISMATCH, f"query dimension {vec.shape[0]}, expected {self.dim}"
            )
        with self._lock:
            self._cache[norm] = vec
            while len(self._cache) > QUERY_CACHE_SIZE:
                self._cache.popitem(last=False)
        return vec.copy()

    def _snapshot(self) -> tuple[list[str], dict[str, int], Floats]:
        with self._lock:
            return self._ids, self._row_of, self._matrix

    def _rows(
        self, row_of: dict[str, int], size: int, allowed: set[str] | None
    ) -> NDArray[np.int64]:
        if allowed is None:
            return np.arange(size)
        return np.fromiter((row_of[e] for e in allowed if e in row_of), dtype=np.int64)

    def _sims(self, matrix: Floats, rows: NDArray[np.int64], query_vector: Floats) -> Floats:
        query = np.asarray(query_vector, dtype=np.float32)
        if query.shape != (matrix.shape[1],):
            raise EmbeddingError(
                EMBEDDING_DIMENSION_MISMATCH,
                f"query shape {query.shape}, index dimension {matrix.shape[1]}",
            )
        return np.asarray(matrix[rows] @ query)

    def scores(self, query_vector: Floats) -> dict[str, float]:
        """Cosine similarity of the query with every indexed entity."""
        ids, _, matrix = self._snapshot()
        if not ids:
            return {}
        sims = self._sims(matrix, np.arange(len(ids)), query_vector)
        return {eid: float(s) for eid, s in zip(ids, sims, strict=True)}

    def search(
        self, query_vector: Floats, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]:
        out = []
        for eid, score in self._ranked(query_vector, top_k, allowed):
            out.append(
                Candidate(
                    entity_id=eid,
                    vector_score=score,
                    breakdown={"vector": score},
                    reasons=[Reason(ReasonCode.EMBEDDING, score=score)],
                )
            )
        return out

    def shortlist(
        self, query_vector: Floats, top_k: int, allowed: set[str] | None = None
    ) -> list[str]:
        """Ids of the `top_k` most similar entities, without building candidates."""
        return [eid for eid, _ in self._ranked(query_vector, top_k, allowed)]

    def _ranked(
        self, query_vector: Floats, top_k: int, allowed: set[str] | None
    ) -> list[tuple[str, float]]:
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

    def search(
        self, query_vector: Floats, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]:
        target, vec = self._target(query_vector)
        result: list[Candidate] = target.search(vec, top_k, allowed)
        return result

    def shortlist(
        self, query_vector: Floats, top_k: int, allowed: set[str] | None = None
    ) -> list[str]:
        target, vec = self._target(query_vector)
        result: list[str] = target.shortlist(vec, top_k, allowed)
        return result

    def upsert(self, entity_id: str, normalized_text: str) -> None:
        self.primary.upsert(entity_id, normalized_text)
        self.fallback.upsert(entity_id, normalized_text)

    def remove(self, entity_id: str) -> None:
        self.primary.remove(entity_id)
        self.fallback.remove(entity_id)
