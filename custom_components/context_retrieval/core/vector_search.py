"""Vector recall: hashed character n-gram vectors by default, any embedding model by protocol.

The default vectoriser needs no model and no download and works for every script: names are
bags of character 2- and 3-grams (plus single CJK characters) hashed into a fixed number of
buckets. It catches typos, split words and partial names that exact matching misses.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

import numpy as np

from .models import Candidate
from .text import char_ngrams, normalize

DEFAULT_DIM = 512


@runtime_checkable
class VectorSearcher(Protocol):
    """What the pipeline needs from a vector index (seed 004 §5.1).

    `vectorize` turns a query into the same space the index was built in; `search` returns the
    best `top_k` entities, optionally only among `allowed` entity ids.
    """

    def vectorize(self, text: str) -> np.ndarray: ...

    def search(
        self, query_vector: np.ndarray, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]: ...


class HashingVectorizer:
    """Text → L2-normalised hashed n-gram vector. Deterministic across processes."""

    def __init__(self, dim: int = DEFAULT_DIM) -> None:
        self.dim = dim
        self._bucket_cache: dict[str, int] = {}

    def _bucket(self, gram: str) -> int:
        bucket = self._bucket_cache.get(gram)
        if bucket is None:
            # crc32, not hash(): Python's str hash changes from one process to the next.
            bucket = zlib.crc32(gram.encode("utf-8")) % self.dim
            if len(self._bucket_cache) < 200_000:
                self._bucket_cache[gram] = bucket
        return bucket

    def vectorize(self, text: str, already_normalized: bool = False) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        norm_text = text if already_normalized else normalize(text)
        for gram in char_ngrams(norm_text):
            vec[self._bucket(gram)] += 1.0
        length = float(np.linalg.norm(vec))
        if length > 0:
            vec /= length
        return vec

    def vectorize_many(self, texts: Iterable[str]) -> np.ndarray:
        """One row per already-normalised text, built in a single numpy pass."""
        row_idx: list[int] = []
        col_idx: list[int] = []
        n = 0
        for n, text in enumerate(texts, 1):
            row = n - 1
            for gram in char_ngrams(text):
                row_idx.append(row)
                col_idx.append(self._bucket(gram))
        matrix = np.zeros((n, self.dim), dtype=np.float32)
        if row_idx:
            np.add.at(matrix, (np.asarray(row_idx), np.asarray(col_idx)), 1.0)
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            np.divide(matrix, norms, out=matrix, where=norms > 0)
        return matrix


class InMemoryVectorSearcher:
    """Brute-force cosine search over a growable matrix; fine up to tens of thousands of rows."""

    def __init__(self, vectorizer: HashingVectorizer | None = None) -> None:
        self.vectorizer = vectorizer or HashingVectorizer()
        self._ids: list[str] = []
        self._row_of: dict[str, int] = {}
        self._matrix = np.zeros((0, self.vectorizer.dim), dtype=np.float32)
        self._size = 0

    @classmethod
    def build(cls, items: Iterable[tuple[str, str]],
              vectorizer: HashingVectorizer | None = None) -> InMemoryVectorSearcher:
        """Index `(entity_id, normalised text)` pairs in one pass."""
        searcher = cls(vectorizer)
        pairs = list(items)
        searcher._ids = [entity_id for entity_id, _ in pairs]
        searcher._row_of = {entity_id: i for i, entity_id in enumerate(searcher._ids)}
        searcher._matrix = searcher.vectorizer.vectorize_many(text for _, text in pairs)
        searcher._size = len(pairs)
        return searcher

    def __len__(self) -> int:
        return self._size

    def vectorize(self, text: str) -> np.ndarray:
        return self.vectorizer.vectorize(text)

    def upsert(self, entity_id: str, normalized_text: str) -> None:
        vec = self.vectorizer.vectorize(normalized_text, already_normalized=True)
        row = self._row_of.get(entity_id)
        if row is not None:
            self._matrix[row] = vec
            return
        if self._size == self._matrix.shape[0]:
            # Grow geometrically so a stream of single additions stays amortised O(1).
            grown = np.zeros((max(16, self._size * 2), self.vectorizer.dim), dtype=np.float32)
            grown[: self._size] = self._matrix[: self._size]
            self._matrix = grown
        self._matrix[self._size] = vec
        self._ids.append(entity_id)
        self._row_of[entity_id] = self._size
        self._size += 1

    def remove(self, entity_id: str) -> None:
        row = self._row_of.pop(entity_id, None)
        if row is None:
            return
        last = self._size - 1
        if row != last:
            moved = self._ids[last]
            self._matrix[row] = self._matrix[last]
            self._ids[row] = moved
            self._row_of[moved] = row
        self._ids.pop()
        self._matrix[last] = 0.0
        self._size -= 1

    def scores(self, query_vector: np.ndarray) -> dict[str, float]:
        """Cosine similarity of the query with every indexed entity."""
        if self._size == 0:
            return {}
        sims = self._matrix[: self._size] @ query_vector.astype(np.float32)
        return dict(zip(self._ids, sims.tolist(), strict=True))

    def search(
        self, query_vector: np.ndarray, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]:
        if self._size == 0 or top_k <= 0:
            return []
        if allowed is not None:
            rows = np.fromiter((self._row_of[e] for e in allowed if e in self._row_of),
                               dtype=np.int64)
            if rows.size == 0:
                return []
            # Score only the allowed rows: a room's worth, not the whole house.
            sub = self._matrix[rows] @ query_vector.astype(np.float32)
            return self._top(sub, rows, top_k)
        sims = self._matrix[: self._size] @ query_vector.astype(np.float32)
        return self._top(sims, np.arange(self._size), top_k)

    def _top(self, sims: np.ndarray, rows: np.ndarray, top_k: int) -> list[Candidate]:
        k = min(top_k, len(sims))
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top], kind="stable")]
        out = []
        for i in top:
            score = float(sims[i])
            if score <= 0.0:
                break
            out.append(Candidate(entity_id=self._ids[int(rows[i])], vector_score=score,
                                 breakdown={"vector": score},
                                 reasons=[f"vector similarity {score:.2f}"]))
        return out
