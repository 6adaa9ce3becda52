"""How a stored question is found again: the in-memory similarity index over the hashed n-gram
vectors, full-text search (FTS5, or a scan over the words), and loading both at open time."""

from __future__ import annotations

import builtins
import logging
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..base.vector_search import Floats, HashingVectorizer
from .store_schema import (
    FTS_DDL,
    FTS_TABLE,
    PLAN_COLUMNS,
    PLAN_SELECT,
    PLAN_SELECT_P,
    StoredPlan,
    as_int,
    decode_row,
    fts5_available,
    fts_query,
    fts_text,
    search_tokens,
)

_LOGGER = logging.getLogger(__name__)

_SIMILARITY_EPSILON = 1e-6  # float32 dot products of equal unit vectors land just below 1.0


@dataclass(slots=True)
class VectorIndex:
    """Unit vectors of every stored question plus what `similar()` filters and sorts on."""

    dim: int
    ids: builtins.list[str] = field(default_factory=builtins.list)
    row_of: dict[str, int] = field(default_factory=dict)
    matrix: Floats = field(init=False)
    language: NDArray[np.int32] = field(init=False)  # a code per row
    valid: NDArray[np.bool_] = field(init=False)
    usage: NDArray[np.int64] = field(init=False)
    codes: dict[str, int] = field(default_factory=dict)
    size: int = 0

    def __post_init__(self) -> None:
        self.matrix = np.zeros((0, self.dim), dtype=np.float32)
        self.language = np.zeros(0, dtype=np.int32)
        self.valid = np.zeros(0, dtype=bool)
        self.usage = np.zeros(0, dtype=np.int64)

    def code(self, language: str) -> int:
        return self.codes.setdefault(language, len(self.codes))

    def upsert(self, plan_id: str, vector: Floats, language: str, valid: bool, usage: int) -> None:
        row = self.row_of.get(plan_id)
        if row is None:
            if self.size == self.matrix.shape[0]:
                self._grow(max(16, self.size * 2))
            row = self.size
            self.ids.append(plan_id)
            self.row_of[plan_id] = row
            self.size += 1
        self.matrix[row] = vector
        self.language[row] = self.code(language)
        self.valid[row] = valid
        self.usage[row] = usage

    def set_state(self, plan_id: str, valid: bool | None = None, usage: int | None = None) -> None:
        row = self.row_of.get(plan_id)
        if row is None:
            return
        if valid is not None:
            self.valid[row] = valid
        if usage is not None:
            self.usage[row] = usage

    def remove(self, plan_id: str) -> None:
        row = self.row_of.pop(plan_id, None)
        if row is None:
            return
        last = self.size - 1
        if row != last:
            moved = self.ids[last]
            self.ids[row] = moved
            self.row_of[moved] = row
            for array in (self.matrix, self.language, self.valid, self.usage):
                array[row] = array[last]
        self.ids.pop()
        self.matrix[last] = 0.0
        self.size -= 1

    def best(
        self,
        query: Floats,
        language: str | None,
        limit: int,
        threshold: float,
        include_invalid: bool,
    ) -> builtins.list[tuple[str, float]]:
        """Ids and cosine scores at or above `threshold`, best first, ties by usage."""
        if self.size == 0 or limit <= 0:
            return []
        n = self.size
        sims = np.clip(self.matrix[:n] @ query.astype(np.float32), -1.0, 1.0)
        # Nothing in common (a score of 0 or less) is never "similar", whatever the threshold.
        mask = (sims >= np.float32(threshold - _SIMILARITY_EPSILON)) & (sims > 0.0)
        if not include_invalid:
            mask &= self.valid[:n]
        if language is not None:
            code = self.codes.get(language)
            if code is None:
                return []
            mask &= self.language[:n] == code
        rows = np.flatnonzero(mask)
        if rows.size == 0:
            return []
        order = np.lexsort((-self.usage[rows], -sims[rows]))[:limit]
        return [(self.ids[int(rows[i])], float(sims[rows[i]])) for i in order]

    def _grow(self, capacity: int) -> None:
        def grown[T: np.generic](array: NDArray[T]) -> NDArray[T]:
            out = np.zeros((capacity, *array.shape[1:]), dtype=array.dtype)
            out[: self.size] = array[: self.size]
            return out

        self.matrix = grown(self.matrix)
        self.language = grown(self.language)
        self.valid = grown(self.valid)
        self.usage = grown(self.usage)


def vector_blob(vector: Floats) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def vector_from_blob(dim: Any, blob: Any, expected_dim: int) -> Floats | None:
    """The stored vector, or None when it is missing, of another dimension or not finite."""
    if dim != expected_dim or not isinstance(blob, bytes) or len(blob) != 4 * expected_dim:
        return None
    vector = np.frombuffer(blob, dtype="<f4").astype(np.float32)
    if not np.all(np.isfinite(vector)):
        return None
    return vector


def load_index(
    conn: sqlite3.Connection, vectorizer: HashingVectorizer, writable: bool, path: Path
) -> tuple[VectorIndex, int]:
    """The similarity index of every row; missing or stale vectors are recomputed (and
    stored, when writable). A newer schema we cannot read leaves the index empty."""
    dim = vectorizer.dim
    index = VectorIndex(dim)
    sql = (
        f"SELECT {', '.join('p.' + c for c in PLAN_COLUMNS)}, v.dim, v.vector "
        "FROM query_plans p LEFT JOIN query_plan_vectors v ON v.plan_id = p.id "
        "ORDER BY p.rowid"
    )
    try:
        rows = conn.execute(sql).fetchall()
    except sqlite3.OperationalError as err:
        if writable:
            raise
        _LOGGER.warning("Could not load cached query plans from %s: %s", path, err)
        return index, 0
    missing: builtins.list[tuple[str, Floats]] = []
    for row in rows:
        plan = decode_row(row[: len(PLAN_COLUMNS)])
        vector = vector_from_blob(row[-2], row[-1], dim)
        if vector is None:
            vector = vectorizer.vectorize(plan.normalized, already_normalized=True)
            missing.append((plan.id, vector))
        index.upsert(plan.id, vector, plan.language, plan.is_valid, plan.usage_count)
    if writable and missing:
        conn.executemany(
            "INSERT OR REPLACE INTO query_plan_vectors (plan_id, dim, vector) VALUES (?, ?, ?)",
            [(plan_id, dim, vector_blob(vector)) for plan_id, vector in missing],
        )
    return index, len(missing)


def sync_fts(conn: sqlite3.Connection) -> bool:
    """Create the FTS5 table if this SQLite has FTS5, and make it match `query_plans`."""
    if not fts5_available():
        return False
    try:
        conn.execute(FTS_DDL)
    except sqlite3.OperationalError as err:
        _LOGGER.info("Full-text search over cached questions is unavailable: %s", err)
        return False
    expected = {
        (str(plan_id), fts_text(str(normalized)))
        for plan_id, normalized in conn.execute("SELECT id, normalized FROM query_plans")
    }
    rows = conn.execute(f"SELECT plan_id, text FROM {FTS_TABLE}").fetchall()
    present = [(str(plan_id), str(text)) for plan_id, text in rows]
    if len(present) != len(expected) or set(present) != expected:
        conn.execute(f"DELETE FROM {FTS_TABLE}")
        conn.executemany(f"INSERT INTO {FTS_TABLE} (plan_id, text) VALUES (?, ?)", sorted(expected))
    return True


def fts_search(
    conn: sqlite3.Connection,
    words: tuple[str, ...],
    language: str | None,
    limit: int,
) -> builtins.list[StoredPlan]:
    sql = (
        f"{PLAN_SELECT_P} JOIN {FTS_TABLE} f ON f.plan_id = p.id "
        f"WHERE {FTS_TABLE} MATCH ? AND p.is_valid = 1"
    )
    params: builtins.list[Any] = [fts_query(words)]
    if language is not None:
        sql += " AND p.language = ?"
        params.append(language)
    sql += " ORDER BY f.rank, p.usage_count DESC, p.id"
    out: builtins.list[StoredPlan] = []
    for row in conn.execute(sql, params):
        plan = decode_row(row)
        if plan.is_valid:
            out.append(plan)
            if len(out) >= limit:
                break
    return out


def scan_search(
    conn: sqlite3.Connection,
    words: tuple[str, ...],
    language: str | None,
    limit: int,
) -> builtins.list[StoredPlan]:
    wanted = set(words)
    sql = "SELECT id, normalized, usage_count FROM query_plans WHERE is_valid = 1"
    params: builtins.list[Any] = []
    if language is not None:
        sql += " AND language = ?"
        params.append(language)
    scored: builtins.list[tuple[int, float, int, str]] = []
    for plan_id, normalized, usage in conn.execute(sql, params):
        have = set(search_tokens(str(normalized)))
        shared = len(wanted & have)
        if shared:
            scored.append((shared, shared / len(have), as_int(usage), str(plan_id)))
    scored.sort(key=lambda s: (-s[0], -s[1], -s[2], s[3]))
    out: builtins.list[StoredPlan] = []
    for *_, plan_id in scored:
        plan = by_id(conn, plan_id)
        if plan is not None and plan.is_valid:
            out.append(plan)
            if len(out) >= limit:
                break
    return out


def by_id(conn: sqlite3.Connection, plan_id: str) -> StoredPlan | None:
    if not isinstance(plan_id, str):
        return None
    row = conn.execute(f"{PLAN_SELECT} WHERE id = ?", (plan_id,)).fetchone()
    return None if row is None else decode_row(row)


def completing_search(
    conn: sqlite3.Connection,
    vectorizer: HashingVectorizer,
    normalized: str,
    typed: tuple[str, ...],
    language: str | None,
    limit: int,
) -> builtins.list[tuple[StoredPlan, float]]:
    """Valid plans whose question goes on from the words `typed` (the last perhaps only
    begun), with the vector similarity to `normalized`; the most used first."""
    *whole, begun = typed
    sql = "SELECT id, normalized FROM query_plans WHERE is_valid = 1"
    params: builtins.list[Any] = []
    if language is not None:
        sql += " AND language = ?"
        params.append(language)
    sql += " ORDER BY usage_count DESC, updated_at DESC"
    query = vectorizer.vectorize(normalized, already_normalized=True)
    norm = float(np.linalg.norm(query))
    out: builtins.list[tuple[StoredPlan, float]] = []
    for plan_id, stored_text in conn.execute(sql, params):
        words = search_tokens(str(stored_text))
        if not set(whole) <= set(words) or not any(w.startswith(begun) for w in words):
            continue
        plan = by_id(conn, str(plan_id))
        if plan is None:
            continue
        other = vectorizer.vectorize(plan.normalized, already_normalized=True)
        scale = norm * float(np.linalg.norm(other))
        out.append((plan, float(np.dot(query, other)) / scale if scale > 0 else 0.0))
        if len(out) >= limit:
            break
    return out


def write_searchable(
    conn: sqlite3.Connection, plan_id: str, vector: Floats, normalized: str, fts: bool
) -> None:
    """The rows a similar question finds a plan by: its vector and (with FTS) its words."""
    conn.execute(
        "INSERT OR REPLACE INTO query_plan_vectors (plan_id, dim, vector) VALUES (?, ?, ?)",
        (plan_id, int(vector.shape[0]), vector_blob(vector)),
    )
    if fts:
        conn.execute(f"DELETE FROM {FTS_TABLE} WHERE plan_id = ?", (plan_id,))
        conn.execute(
            f"INSERT INTO {FTS_TABLE} (plan_id, text) VALUES (?, ?)",
            (plan_id, fts_text(normalized)),
        )
