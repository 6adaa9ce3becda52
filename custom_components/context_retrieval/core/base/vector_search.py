"""Vector recall: hashed character n-gram vectors by default, any embedding model by protocol.

The default vectoriser needs no model and no download and works for every script: names are
bags of character 2- and 3-grams (plus single CJK characters) hashed into a fixed number of
buckets. It catches typos, split words and partial names that exact matching misses.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, cast, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from .models import Candidate, Reason, ReasonCode
from .text import CJK_BLOCKS, is_cjk, normalize

DEFAULT_DIM = 512

# Vectors and matrices of vectors are float32; n-gram hashing works on uint64 code points.
Floats = NDArray[np.float32]
_Codes = NDArray[np.uint64]
_Ints = NDArray[np.int64]


@runtime_checkable
class VectorSearcher(Protocol):
    """What retrieval and search need from a vector index, so an embedding model can stand in.

    `vectorize` turns a query into the same space the index was built in; `search` returns the
    best `top_k` entities, optionally only among `allowed` entity ids.
    """

    def vectorize(self, text: str) -> Floats: ...

    def search(
        self, query_vector: Floats, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]: ...


# Odd 64-bit multipliers for the n-gram hash (arithmetic wraps modulo 2**64).
_K1, _K2, _K3, _K4 = (
    np.uint64(0x9E3779B97F4A7C15),
    np.uint64(0xC2B2AE3D27D4EB4F),
    np.uint64(0x165667B19E3779F9),
    np.uint64(0xD6E8FEB86659FD93),
)
_SPACE = np.uint64(32)


# Where the CJK blocks of `text.CJK_BLOCKS` begin and end (each end one past the block).
_CJK_EDGES = np.array(
    [edge for first, last in CJK_BLOCKS for edge in (first, last + 1)], dtype=np.uint64
)
_CJK_FIRST = CJK_BLOCKS[0][0]
_CJK_CHAR_FIRST = chr(_CJK_FIRST)
# The multipliers as Python integers, for hashing a short text without numpy.
_P1, _P2, _P3, _P4 = (int(k) for k in (_K1, _K2, _K3, _K4))
_MASK64 = (1 << 64) - 1
# Texts up to this many characters (padding included) are hashed in Python, longer ones in
# numpy; both give the same buckets.
SHORT_TEXT = 32


def _is_cjk_code(codes: _Codes) -> NDArray[np.bool_]:
    # A code point is inside a block when an odd number of edges lie at or below it.
    return (np.searchsorted(_CJK_EDGES, codes, side="right") & 1).astype(bool)


class HashingVectorizer:
    """Text → L2-normalised vector of hashed character 2-/3-grams (+ single CJK characters).

    The hashing is plain integer arithmetic over code points, done for a whole corpus at once in
    numpy, so a 10,000-entity home is vectorised in milliseconds; it is deterministic across
    processes and platforms (no `hash()`).
    """

    def __init__(self, dim: int = DEFAULT_DIM) -> None:
        self.dim = dim

    def _buckets(self, codes: _Codes, start_row: _Ints | None = None) -> tuple[_Ints, _Ints | None]:
        """Buckets of every gram in `codes` (texts padded with spaces, separated by 0)."""
        with np.errstate(over="ignore"):
            head = codes[:-1] * _K1
            second = codes[1:] * _K2
            bi = head + second
            tri = head[:-1] + second[:-1] + codes[2:] * _K3
        # A gram is kept unless it crosses a text's end (0) or is all spaces. Each fact about a
        # character is found once and shifted, instead of comparing the three slices apart:
        # a query is vectorised on every turn and its cost is these passes, not its length.
        blank = codes == _SPACE
        if start_row is None and codes.all():
            bi_ok = ~(blank[:-1] & blank[1:])
            tri_ok = ~(blank[:-2] & blank[1:-1] & blank[2:])
        else:
            solid = codes != 0
            bi_ok = solid[:-1] & solid[1:] & ~(blank[:-1] & blank[1:])
            tri_ok = solid[:-2] & solid[1:-1] & solid[2:] & ~(blank[:-2] & blank[1:-1] & blank[2:])
        # Single characters count only in CJK text; most queries have none.
        uni_ok = _is_cjk_code(codes) if codes.max(initial=0) >= _CJK_FIRST else None
        parts = [bi[bi_ok], tri[tri_ok]]
        if uni_ok is not None:
            with np.errstate(over="ignore"):
                parts.append(codes[uni_ok] * _K4)
        hashes = np.concatenate(parts)
        buckets = ((hashes ^ (hashes >> np.uint64(31))) % np.uint64(self.dim)).astype(np.int64)
        if start_row is None:
            return buckets, None
        rows = [start_row[:-1][bi_ok], start_row[:-2][tri_ok]]
        if uni_ok is not None:
            rows.append(start_row[uni_ok])
        return buckets, np.concatenate(rows)

    @staticmethod
    def _codes(text: str) -> _Codes:
        return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(
            np.uint64
        )

    def _few_buckets(self, padded: str) -> list[int]:
        """`_buckets` of one short text, in plain Python: the same hashes, gram by gram.

        A query of a few words has a few dozen grams; hashing them one by one costs less than
        the two dozen numpy passes `_buckets` makes whatever the length."""
        dim, mask = self.dim, _MASK64
        codes = [ord(ch) for ch in padded]
        out: list[int] = []
        for i in range(len(codes) - 1):
            a, b = codes[i], codes[i + 1]
            if a and b and (a != 32 or b != 32):
                h = (a * _P1 + b * _P2) & mask
                out.append((h ^ (h >> 31)) % dim)
        for i in range(len(codes) - 2):
            a, b, c = codes[i], codes[i + 1], codes[i + 2]
            if a and b and c and (a != 32 or b != 32 or c != 32):
                h = (a * _P1 + b * _P2 + c * _P3) & mask
                out.append((h ^ (h >> 31)) % dim)
        for ch in padded:
            if ch >= _CJK_CHAR_FIRST and is_cjk(ch):
                h = (ord(ch) * _P4) & mask
                out.append((h ^ (h >> 31)) % dim)
        return out

    def vectorize(self, text: str, already_normalized: bool = False) -> Floats:
        norm_text = text if already_normalized else normalize(text)
        padded = f" {norm_text} "
        buckets: _Ints | list[int] = (
            self._few_buckets(padded)
            if len(padded) <= SHORT_TEXT
            else self._buckets(self._codes(padded))[0]
        )
        vec = np.bincount(buckets, minlength=self.dim).astype(np.float32)
        length = float(np.linalg.norm(vec))
        if length > 0:
            vec /= length
        return vec

    def vectorize_many(self, texts: Iterable[str], chunk: int = 1024) -> Floats:
        """One L2-normalised row per already-normalised text, a chunk of texts per numpy pass
        (chunks bound the temporary arrays to a few MB whatever the home's size)."""
        parts = [f" {t} " for t in texts]
        if not parts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack(
            [self._vectorize_chunk(parts[i : i + chunk]) for i in range(0, len(parts), chunk)]
        )

    def _vectorize_chunk(self, parts: list[str]) -> Floats:
        n = len(parts)
        codes = self._codes("\x00".join(parts))
        lengths = np.fromiter((len(p) + 1 for p in parts), dtype=np.int64, count=n)
        lengths[-1] -= 1  # no separator after the last text
        row_of = np.repeat(np.arange(n, dtype=np.int64), lengths)
        buckets, rows = self._buckets(codes, row_of)
        assert rows is not None
        flat = np.bincount(rows * self.dim + buckets, minlength=n * self.dim)
        matrix = flat.reshape(n, self.dim).astype(np.float32)
        del flat
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        np.divide(matrix, norms, out=matrix, where=norms > 0)
        return matrix


class InMemoryVectorSearcher:
    """Brute-force cosine search over a growable matrix; fine up to tens of thousands of rows."""

    def __init__(self, vectorizer: HashingVectorizer | None = None) -> None:
        self.vectorizer = vectorizer or HashingVectorizer()
        self._ids: list[str] = []
        self._row_of: dict[str, int] = {}
        # The vectors stored by bucket (one row per bucket, one column per entity): a query
        # touches a few dozen buckets, so scoring a whole home reads those rows only.
        self._columns: Floats = np.zeros((self.vectorizer.dim, 0), dtype=np.float32)
        self._size = 0

    @classmethod
    def build(
        cls, items: Iterable[tuple[str, str]], vectorizer: HashingVectorizer | None = None
    ) -> InMemoryVectorSearcher:
        """Index `(entity_id, normalised text)` pairs in one pass."""
        searcher = cls(vectorizer)
        pairs = list(items)
        searcher._ids = [entity_id for entity_id, _ in pairs]
        searcher._row_of = {entity_id: i for i, entity_id in enumerate(searcher._ids)}
        matrix = searcher.vectorizer.vectorize_many(text for _, text in pairs)
        searcher._columns = np.ascontiguousarray(matrix.T)
        searcher._size = len(pairs)
        return searcher

    def __len__(self) -> int:
        return self._size

    def vectorize(self, text: str) -> Floats:
        return self.vectorizer.vectorize(text)

    def upsert(self, entity_id: str, normalized_text: str) -> None:
        vec = self.vectorizer.vectorize(normalized_text, already_normalized=True)
        row = self._row_of.get(entity_id)
        if row is not None:
            self._columns[:, row] = vec
            return
        if self._size == self._columns.shape[1]:
            # Grow geometrically so a stream of single additions stays amortised O(1).
            grown = np.zeros((self.vectorizer.dim, max(16, self._size * 2)), dtype=np.float32)
            grown[:, : self._size] = self._columns[:, : self._size]
            self._columns = grown
        self._columns[:, self._size] = vec
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
            self._columns[:, row] = self._columns[:, last]
            self._ids[row] = moved
            self._row_of[moved] = row
        self._ids.pop()
        self._columns[:, last] = 0.0
        self._size -= 1

    def scores(self, query_vector: Floats) -> dict[str, float]:
        """Cosine similarity of the query with every indexed entity."""
        if self._size == 0:
            return {}
        sims = self.bucket_similarities(query_vector)
        values: list[float] = sims.tolist()  # type: ignore[assignment, unused-ignore]  # 1-d; numpy stubs differ by release
        return dict(zip(self._ids, values, strict=True))

    def search(
        self, query_vector: Floats, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]:
        rows, sims = self._best_rows(query_vector, top_k, allowed)
        ids = self._ids
        return [
            Candidate(
                entity_id=ids[row],
                vector_score=score,
                breakdown={"vector": score},
                reasons=[Reason(ReasonCode.VECTOR, score=score)],
            )
            for row, score in zip(rows, sims, strict=True)
        ]

    def scores_of(self, query_vector: Floats, allowed: set[str]) -> dict[str, float]:
        """Similarity of each allowed entity with the query, those above zero: what
        `search(..., top_k=len(allowed))` scores, without ranking or building candidates."""
        row_of = self._row_of
        rows = np.array([row_of[e] for e in allowed if e in row_of], dtype=np.int64)
        if self._size == 0 or rows.size == 0:
            return {}
        sims = self.bucket_similarities(query_vector, rows)
        ids = self._ids
        # numpy types `tolist` as any nesting; for these 1-D arrays it is a flat list.
        row_list = cast("list[int]", rows.tolist())
        score_list = cast("list[float]", sims.tolist())
        return {
            ids[row]: score for row, score in zip(row_list, score_list, strict=True) if score > 0.0
        }

    def shortlist(
        self, query_vector: Floats, top_k: int, allowed: set[str] | None = None
    ) -> list[str]:
        """Ids of the `top_k` most similar entities, without building candidates."""
        rows, _ = self._best_rows(query_vector, top_k, allowed)
        ids = self._ids
        return [ids[row] for row in rows]

    def _best_rows(
        self, query_vector: Floats, top_k: int, allowed: set[str] | None
    ) -> tuple[list[int], list[float]]:
        """Rows (and scores) of the `top_k` entities of `allowed` (default: all) most similar
        to the query, above zero, best first, ties in row order, so the same home and query
        always give the same list.

        `allowed` may be most of the home ("every light", the whole home minus a room): then
        every row is scored at numpy speed and the best rows are checked against `allowed`
        from the top, a few times `top_k` at a time, instead of looking up thousands of ids
        one by one; a few allowed ids are looked up and only their rows scored."""
        if self._size == 0 or top_k <= 0 or (allowed is not None and not allowed):
            return [], []
        if allowed is not None and len(allowed) * 8 < self._size:
            rows = np.fromiter(
                (self._row_of[e] for e in allowed if e in self._row_of), dtype=np.int64
            )
            rows.sort()
            sims = self.bucket_similarities(query_vector, rows)
            best = _best_positions(sims, top_k)
            return _listed(rows[best], sims[best])
        sims = self.bucket_similarities(query_vector)
        positive = np.flatnonzero(sims > 0.0)
        scores = sims[positive]
        if allowed is None:
            best = _best_positions(scores, top_k)
            return _listed(positive[best], scores[best])
        ids = self._ids
        want = top_k * 4
        while True:
            best = _best_positions(scores, want)
            kept = [i for i in _ints(best) if ids[positive[i]] in allowed][:top_k]
            if len(kept) == top_k or len(best) == len(scores):
                return _listed(positive[kept], scores[kept])
            want *= 4

    def bucket_similarities(self, query_vector: Floats, rows: _Ints | None = None) -> Floats:
        """Cosine similarity of the query with every row (or with `rows`, in their order),
        summed over the query's non-zero buckets only.

        A query touches a few dozen of the buckets, so this reads those bucket rows instead of
        every entity's whole vector, and it needs no BLAS thread pool: on a busy machine a
        threaded matrix-vector product over thousands of rows waited milliseconds for its
        threads. Every score of this searcher comes from here, so one entity scores the same
        whichever way it is asked for."""
        query = query_vector.astype(np.float32)
        buckets = np.flatnonzero(query)
        few = rows is not None and len(rows) * 4 < self._size
        # One gather of the query's bucket rows (for a few entities, only their columns), then
        # the buckets added one after the other, so that every way of asking adds in the same
        # order and an entity scores the same to the last bit.
        block = (
            self._columns[buckets[:, None], rows]
            if few and rows is not None
            else self._columns[buckets, : self._size]
        )
        block *= query[buckets, None]
        sims = _in_bucket_order(block)
        return sims if few or rows is None else sims[rows]


def _in_bucket_order(block: Floats) -> Floats:
    """Each column of `block` summed from its first row to its last, one addition at a time.

    Reducing along the rows of a block of two or more columns adds row after row; a single
    column is contiguous, where numpy would add pairwise, so it is accumulated instead (a
    test holds both to a plain loop)."""
    rows, columns = block.shape
    if rows == 0:
        return np.zeros(columns, dtype=np.float32)
    if columns == 1:
        return cast("Floats", np.add.accumulate(block[:, 0])[-1:])
    return cast("Floats", np.add.reduce(block, axis=0))


def _best_positions(sims: Floats, k: int) -> _Ints:
    """Positions of the `k` highest scores above zero, best first, ties by position."""
    if k < len(sims):
        # The k-th best score, then every position at least that good (more than k on ties),
        # in position order: the stable sort keeps it among equals.
        kth = np.partition(sims, len(sims) - k)[len(sims) - k]
        candidates = np.flatnonzero(sims >= kth)
    else:
        candidates = np.arange(len(sims))
    order = candidates[np.argsort(-sims[candidates], kind="stable")][:k]
    return order[sims[order] > 0.0]


def _ints(values: _Ints) -> list[int]:
    # numpy types `tolist` as any nesting; for these 1-D arrays it is a flat list.
    return cast("list[int]", values.tolist())


def _listed(rows: _Ints, sims: Floats) -> tuple[list[int], list[float]]:
    return _ints(rows), cast("list[float]", sims.tolist())
