"""The learning cache: natural-language questions and the query plans that answered them.

A question that was once compiled into a query plan (deterministically, by the LLM or by hand)
is stored with that plan, so the next time the same (or a very similar) question is asked the
plan can be reused instead of compiled again. Three ways to find a stored plan:

- `exact()`: the same question after `normalize_question()` (case, width, punctuation at the
  ends and runs of spaces do not matter), in the same language;
- `similar()`: cosine similarity of hashed character n-gram vectors (`HashingVectorizer`),
  computed in memory over a numpy matrix that is built at `open()` and kept current on writes;
- `full_text()`: SQLite FTS5 over the questions' word tokens (every CJK character a token), or a
  token-overlap scan when the SQLite build has no FTS5 (or `use_fts=False`).

A single SQLite file, stdlib `sqlite3` and numpy only; nothing here knows about Home Assistant.
The glue calls it from an executor thread: the connection is opened with
`check_same_thread=False` and every public method holds one `threading.Lock`.

Guarantees (the same as the view rule store's):
- Every write is one transaction (`BEGIN IMMEDIATE` … `COMMIT`), rolled back on any failure; the
  in-memory vector index is changed only after the commit succeeded.
- `open()` creates or migrates the schema. A corrupt or unreadable file, or one whose schema is
  not ours, is moved aside to `<name>.corrupt-<time>` (with its `-wal`/`-shm`) and a fresh
  database is created; `open()` reports it, never raises it. Errors that say nothing about the
  file (locked, disk full, I/O) are raised as `PlanStoreError` and the file is left in place.
- A database written by a newer version of the integration is opened for reading only
  (`PRAGMA query_only`); every write raises `NewerSchemaError`, the file is not touched.
- A row whose JSON does not parse (a hand-edited file) never breaks a read: its plan reads as
  `{}` and it counts as invalid, so it is never offered for reuse.
"""

from __future__ import annotations

import builtins
import json
import logging
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import asdict, dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from .sqlite_file import (
    MovedAside,
    UnusableFile,
    as_utc,
    is_corruption,
    move_aside,
    reading,
    utc_now,
    writing,
)
from .text import normalize, tokens
from .vector_search import HashingVectorizer

_LOGGER = logging.getLogger(__name__)

SCHEMA_VERSION = 1
PLAN_SOURCES = ("deterministic", "llm", "manual")
FTS_TABLE = "query_plan_fts"

# The version table's layout never changes, so any version of the code can read any file's
# version. One row per applied migration; the file's version is MAX(version).
_SCHEMA_VERSION_DDL = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    "version INTEGER NOT NULL, applied_at TEXT NOT NULL)"
)

SCHEMA_V1: tuple[str, ...] = (
    _SCHEMA_VERSION_DDL,
    """CREATE TABLE IF NOT EXISTS query_plans (
  id TEXT PRIMARY KEY,
  question TEXT NOT NULL,
  normalized TEXT NOT NULL,
  language TEXT NOT NULL,
  slots TEXT NOT NULL DEFAULT '{}',
  plan_json TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('deterministic', 'llm', 'manual')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  usage_count INTEGER NOT NULL DEFAULT 0,
  is_valid INTEGER NOT NULL DEFAULT 1,
  last_result TEXT,
  last_error TEXT,
  UNIQUE (language, normalized)
)""",
    "CREATE INDEX IF NOT EXISTS idx_query_plans_usage_count ON query_plans(usage_count)",
    """CREATE TABLE IF NOT EXISTS query_plan_vectors (
  plan_id TEXT PRIMARY KEY REFERENCES query_plans(id) ON DELETE CASCADE,
  dim INTEGER NOT NULL,
  vector BLOB NOT NULL
)""",
)

# Optional: created when the SQLite build has FTS5. Not part of the versioned layout, so a file
# written with it opens on a build without it and vice versa (it is rebuilt when out of step).
# `text` holds the question's word tokens separated by spaces, each CJK character on its own.
_FTS_DDL = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5("
    "plan_id UNINDEXED, text, tokenize = 'unicode61')"
)
_FTS_SHADOW_SUFFIXES = ("", "_data", "_idx", "_content", "_docsize", "_config")

_MIGRATIONS: dict[int, tuple[str, ...]] = {0: SCHEMA_V1}  # from version → statements

_PLAN_COLUMNS = (
    "id",
    "question",
    "normalized",
    "language",
    "slots",
    "plan_json",
    "source",
    "created_at",
    "updated_at",
    "usage_count",
    "is_valid",
    "last_result",
    "last_error",
)
_VECTOR_COLUMNS = ("plan_id", "dim", "vector")
_PLAN_SELECT = f"SELECT {', '.join(_PLAN_COLUMNS)} FROM query_plans"
_PLAN_SELECT_P = f"SELECT {', '.join('p.' + c for c in _PLAN_COLUMNS)} FROM query_plans p"
_LIST_ORDER = "ORDER BY usage_count DESC, updated_at DESC, id"

# Characters stripped from both ends of a question: sentence punctuation and quotes (after
# NFKC the full-width ？！，；：～ are already their ASCII forms).
_EDGE_PUNCTUATION = "?!.,;:~…。、，．？！；：～·¿¡\"'“”‘’«»「」『』"

# SQLite primary result codes that mean "this file is not a usable database".

_SIMILARITY_EPSILON = 1e-6  # float32 dot products of equal unit vectors land just below 1.0


class PlanStoreError(Exception):
    """Base class of every error the plan store raises."""


class PlanNotFound(PlanStoreError):
    """No stored plan has this id."""

    def __init__(self, plan_id: str) -> None:
        super().__init__(f"no query plan with id {plan_id!r}")
        self.plan_id = plan_id


class NewerSchemaError(PlanStoreError):
    """The file was written by a newer version of the integration; it is kept read-only."""

    def __init__(self, found: int, supported: int = SCHEMA_VERSION) -> None:
        super().__init__(
            f"the query plan database has schema version {found}, this version of the "
            f"integration knows up to {supported}; it is opened read-only"
        )
        self.found = found
        self.supported = supported


@dataclass(frozen=True, slots=True)
class StoredPlan:
    """One cached question and its plan: a row of `query_plans`, JSON decoded."""

    id: str
    question: str
    normalized: str
    language: str
    slots: dict[str, Any]
    plan: dict[str, Any]
    source: str
    created_at: str
    updated_at: str
    usage_count: int
    is_valid: bool
    last_result: dict[str, Any] | None
    last_error: str | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class OpenReport:
    """What `PlanStore.open()` found and did."""

    path: Path
    schema_version: int  # the schema now in use (the file's own when it is newer)
    migrated_from: int | None = None  # 0: a new file
    read_only: bool = False  # the file is from a newer schema version
    recovered: bool = False  # the old file was unusable and moved aside
    moved_to: Path | None = None
    error: str | None = None  # why it was unusable
    journal_mode: str = ""
    fts: bool = False  # full-text search runs on FTS5 (else a token-overlap scan)
    plans: int = 0  # rows loaded into the similarity index
    vectors_rebuilt: int = 0  # stored vectors that were missing or of another dimension


# ---------------------------------------------------------------------- helpers


def normalize_question(text: str) -> str:
    """The form a question is matched by: `text.normalize`, no punctuation at either end, one
    space between words. "哪些灯开着？" and " 哪些灯开着 " are the same question."""
    if not isinstance(text, str):
        return ""
    folded = normalize(text)
    stripped = folded.strip(_EDGE_PUNCTUATION + " ")
    return " ".join(stripped.split())


def _search_tokens(normalized: str) -> tuple[str, ...]:
    """Word tokens (every CJK character one token) that carry a letter or digit."""
    return tuple(t for t in tokens(normalized) if any(ch.isalnum() for ch in t))


def _fts_text(normalized: str) -> str:
    return " ".join(_search_tokens(normalized))


def _fts_query(question_tokens: Iterable[str]) -> str:
    """An FTS5 query matching any of the tokens. Each token is a double-quoted string (quotes
    doubled), so nothing the user typed can act as FTS syntax (OR, NEAR(, *, ^, column:)."""
    unique = dict.fromkeys(question_tokens)
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in unique)


@cache
def fts5_available() -> bool:
    """Whether this Python's SQLite library was built with FTS5."""
    try:
        conn = sqlite3.connect(":memory:")
    except sqlite3.Error:  # pragma: no cover
        return False
    try:
        conn.execute("CREATE VIRTUAL TABLE probe USING fts5(text)")
        return True
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def _dump(value: Any, what: str) -> str:
    """Strict JSON (no NaN/Infinity); `ValueError` for anything that does not serialise."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as err:
        raise ValueError(f"{what} is not JSON-serialisable: {err}") from err


def _load_object(raw: Any) -> dict[str, Any] | None:
    """The JSON object in `raw`, or None when it is missing, malformed or not an object."""
    if not isinstance(raw, str):
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _as_int(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default


def _decode(row: sqlite3.Row | tuple[Any, ...]) -> StoredPlan:
    """A row of `query_plans` as a `StoredPlan`; a malformed plan or slots makes it invalid."""
    (
        plan_id,
        question,
        normalized,
        language,
        slots_raw,
        plan_raw,
        source,
        created_at,
        updated_at,
        usage_count,
        is_valid,
        last_result_raw,
        last_error,
    ) = row
    plan = _load_object(plan_raw)
    slots = _load_object(slots_raw)
    valid = bool(_as_int(is_valid, 0)) and plan is not None and slots is not None
    return StoredPlan(
        id=str(plan_id),
        question=str(question),
        normalized=str(normalized),
        language=str(language),
        slots=slots if slots is not None else {},
        plan=plan if plan is not None else {},
        source=str(source),
        created_at=str(created_at),
        updated_at=str(updated_at),
        usage_count=_as_int(usage_count),
        is_valid=valid,
        last_result=_load_object(last_result_raw),
        last_error=None if last_error is None else str(last_error),
    )


def _clean_language(language: str) -> str:
    if not isinstance(language, str) or not language.strip():
        raise ValueError("language must be a non-empty string")
    return language.strip().lower()


def _clean_question(question: str) -> str:
    if not isinstance(question, str):
        raise ValueError("question must be a string")
    normalized = normalize_question(question)
    if not normalized:
        raise ValueError("question must contain more than punctuation and spaces")
    return normalized


def _clean_plan(plan: Any) -> str:
    if not isinstance(plan, dict):
        raise ValueError("plan must be a dict (a JSON object)")
    return _dump(plan, "plan")


# ---------------------------------------------------------------------- the similarity index


@dataclass(slots=True)
class _VectorIndex:
    """Unit vectors of every stored question plus what `similar()` filters and sorts on."""

    dim: int
    ids: builtins.list[str] = field(default_factory=builtins.list)
    row_of: dict[str, int] = field(default_factory=dict)
    matrix: np.ndarray = field(init=False)
    language: np.ndarray = field(init=False)  # int32 code per row
    valid: np.ndarray = field(init=False)  # bool per row
    usage: np.ndarray = field(init=False)  # int64 per row
    codes: dict[str, int] = field(default_factory=dict)
    size: int = 0

    def __post_init__(self) -> None:
        self.matrix = np.zeros((0, self.dim), dtype=np.float32)
        self.language = np.zeros(0, dtype=np.int32)
        self.valid = np.zeros(0, dtype=bool)
        self.usage = np.zeros(0, dtype=np.int64)

    def code(self, language: str) -> int:
        return self.codes.setdefault(language, len(self.codes))

    def upsert(
        self, plan_id: str, vector: np.ndarray, language: str, valid: bool, usage: int
    ) -> None:
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
        query: np.ndarray,
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
        def grown(array: np.ndarray) -> np.ndarray:
            out = np.zeros((capacity, *array.shape[1:]), dtype=array.dtype)
            out[: self.size] = array[: self.size]
            return out

        self.matrix = grown(self.matrix)
        self.language = grown(self.language)
        self.valid = grown(self.valid)
        self.usage = grown(self.usage)


def _vector_blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def _vector_from_blob(dim: Any, blob: Any, expected_dim: int) -> np.ndarray | None:
    """The stored vector, or None when it is missing, of another dimension or not finite."""
    if dim != expected_dim or not isinstance(blob, bytes) or len(blob) != 4 * expected_dim:
        return None
    vector = np.frombuffer(blob, dtype="<f4").astype(np.float32)
    if not np.all(np.isfinite(vector)):
        return None
    return vector


# ---------------------------------------------------------------------- the store


class PlanStore:
    """The query plan cache. Call `open()` first; every method may block (disk I/O)."""

    def __init__(
        self,
        path: Path,
        vectorizer: HashingVectorizer | None = None,
        clock: Callable[[], datetime] | None = None,
        use_fts: bool = True,
    ) -> None:
        self.path = Path(path)
        self.vectorizer = vectorizer or HashingVectorizer()
        self.use_fts = use_fts
        self._clock = clock or utc_now
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._newer_version: int | None = None
        self._fts = False
        self._index = _VectorIndex(self.vectorizer.dim)

    # ------------------------------------------------------------------ lifecycle

    def open(self) -> OpenReport:
        """Open (creating or migrating) the database; move an unusable file aside."""
        with self._lock:
            if self._conn is not None:
                raise PlanStoreError("the query plan store is already open")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                return self._connect()
            except MovedAside as moved:
                moved_to, reason = moved.target, moved.reason
            _LOGGER.warning(
                "Query plan database %s was unusable (%s); moved it to %s and started a new one",
                self.path,
                reason,
                moved_to,
            )
            try:
                report = self._connect()
            except MovedAside as err:
                raise PlanStoreError(f"could not create {self.path}: {err}") from err
            return OpenReport(
                path=self.path,
                schema_version=report.schema_version,
                migrated_from=report.migrated_from,
                recovered=True,
                moved_to=moved_to,
                error=reason,
                journal_mode=report.journal_mode,
                fts=report.fts,
                plans=report.plans,
                vectors_rebuilt=report.vectors_rebuilt,
            )

    def close(self) -> None:
        with self._lock:
            conn, self._conn = self._conn, None
            self._newer_version = None
            self._fts = False
            self._index = _VectorIndex(self.vectorizer.dim)
            if conn is not None:
                with suppress(sqlite3.Error):
                    conn.close()

    def __enter__(self) -> PlanStore:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def read_only(self) -> bool:
        return self._newer_version is not None

    @property
    def fts_enabled(self) -> bool:
        """Full-text search runs on FTS5 (False: token-overlap scan)."""
        return self._fts

    # ------------------------------------------------------------------ reads

    def get(self, plan_id: str) -> StoredPlan | None:
        """The plan with this id (valid or not), or None."""
        with self._lock, self._reading() as conn:
            return self._by_id(conn, plan_id)

    def exact(self, question: str, language: str) -> StoredPlan | None:
        """The valid plan stored for this question (after `normalize_question`), or None."""
        normalized = normalize_question(question)
        lang = _clean_language(language)
        if not normalized:
            return None
        with self._lock, self._reading() as conn:
            row = conn.execute(
                f"{_PLAN_SELECT} WHERE language = ? AND normalized = ? AND is_valid = 1",
                (lang, normalized),
            ).fetchone()
        if row is None:
            return None
        plan = _decode(row)
        return plan if plan.is_valid else None

    def similar(
        self,
        question: str,
        language: str | None = None,
        limit: int = 5,
        threshold: float = 0.8,
        include_invalid: bool = False,
    ) -> builtins.list[tuple[StoredPlan, float]]:
        """Stored plans whose question's vector has cosine similarity ≥ `threshold` (and > 0)
        with this one, best first (equal scores: the more used first). Only valid plans unless
        `include_invalid`; only one language if `language` is given."""
        normalized = normalize_question(question)
        lang = None if language is None else _clean_language(language)
        if not normalized or limit <= 0:
            return []
        query = self.vectorizer.vectorize(normalized, already_normalized=True)
        if not float(np.linalg.norm(query)) > 0.0:
            return []
        with self._lock, self._reading() as conn:
            hits = self._index.best(query, lang, limit, float(threshold), include_invalid)
            out: builtins.list[tuple[StoredPlan, float]] = []
            for plan_id, score in hits:
                plan = self._by_id(conn, plan_id)
                if plan is not None and (include_invalid or plan.is_valid):
                    out.append((plan, score))
        return out

    def full_text(
        self, question: str, language: str | None = None, limit: int = 5
    ) -> builtins.list[StoredPlan]:
        """Valid plans whose question shares words with this one, best match first.

        Words are `text.tokens` of the normalised question (every CJK character is a word).
        FTS5 ranks by BM25; without FTS5 the rank is the number of shared words, then the
        share of the stored question they cover. Never raises on odd input: every word is
        quoted, so quotes, `*`, `NEAR(`, `OR` or brackets are just text.
        """
        normalized = normalize_question(question)
        lang = None if language is None else _clean_language(language)
        words = _search_tokens(normalized)
        if not words or limit <= 0:
            return []
        with self._lock, self._reading() as conn:
            if self._fts:
                return self._fts_search(conn, words, lang, limit)
            return self._scan_search(conn, words, lang, limit)

    def list(
        self, limit: int = 100, offset: int = 0, language: str | None = None
    ) -> builtins.list[StoredPlan]:
        """Stored plans, most used first, then most recently updated."""
        if limit <= 0:
            return []
        offset = max(0, int(offset))
        with self._lock, self._reading() as conn:
            if language is None:
                rows = conn.execute(
                    f"{_PLAN_SELECT} {_LIST_ORDER} LIMIT ? OFFSET ?", (int(limit), offset)
                ).fetchall()
            else:
                rows = conn.execute(
                    f"{_PLAN_SELECT} WHERE language = ? {_LIST_ORDER} LIMIT ? OFFSET ?",
                    (_clean_language(language), int(limit), offset),
                ).fetchall()
        return [_decode(row) for row in rows]

    def stats(self) -> dict[str, Any]:
        """Counts of stored plans (as flagged in the file) and whether FTS5 is in use."""
        with self._lock, self._reading() as conn:
            count, valid = conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(is_valid = 1), 0) FROM query_plans"
            ).fetchone()
        return {
            "count": int(count),
            "valid": int(valid),
            "invalid": int(count) - int(valid),
            "fts": self._fts,
        }

    # ------------------------------------------------------------------ writes

    def save(
        self,
        question: str,
        language: str,
        plan: dict[str, Any],
        source: str,
        slots: dict[str, Any] | None = None,
    ) -> StoredPlan:
        """Store the plan for a question; the same question (normalised, same language) is
        updated in place: it keeps its id, usage count and original wording, takes the new
        plan, slots and source, and becomes valid again."""
        normalized = _clean_question(question)
        lang = _clean_language(language)
        plan_json = _clean_plan(plan)
        if source not in PLAN_SOURCES:
            raise ValueError(f"source must be one of {', '.join(PLAN_SOURCES)}")
        if slots is None:
            slots = {}
        if not isinstance(slots, dict):
            raise ValueError("slots must be a dict or None")
        slots_json = _dump(slots, "slots")
        vector = self.vectorizer.vectorize(normalized, already_normalized=True)

        with self._lock:
            with self._writing() as conn:
                now = self._now()
                row = conn.execute(
                    "SELECT id FROM query_plans WHERE language = ? AND normalized = ?",
                    (lang, normalized),
                ).fetchone()
                if row is None:
                    plan_id = uuid.uuid4().hex
                    conn.execute(
                        "INSERT INTO query_plans (id, question, normalized, language, slots, "
                        "plan_json, source, created_at, updated_at, usage_count, is_valid, "
                        "last_result, last_error) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 1, NULL, NULL)",
                        (
                            plan_id,
                            question.strip(),
                            normalized,
                            lang,
                            slots_json,
                            plan_json,
                            source,
                            now,
                            now,
                        ),
                    )
                else:
                    plan_id = str(row[0])
                    conn.execute(
                        "UPDATE query_plans SET slots = ?, plan_json = ?, source = ?, "
                        "updated_at = ?, is_valid = 1, last_error = NULL WHERE id = ?",
                        (slots_json, plan_json, source, now, plan_id),
                    )
                conn.execute(
                    "INSERT OR REPLACE INTO query_plan_vectors (plan_id, dim, vector) "
                    "VALUES (?, ?, ?)",
                    (plan_id, int(vector.shape[0]), _vector_blob(vector)),
                )
                if self._fts:
                    conn.execute(f"DELETE FROM {FTS_TABLE} WHERE plan_id = ?", (plan_id,))
                    conn.execute(
                        f"INSERT INTO {FTS_TABLE} (plan_id, text) VALUES (?, ?)",
                        (plan_id, _fts_text(normalized)),
                    )
                stored = self._require_plan(conn, plan_id)
            self._index.upsert(plan_id, vector, lang, stored.is_valid, stored.usage_count)
            return stored

    def record_use(self, plan_id: str, result: dict[str, Any]) -> StoredPlan:
        """Count one reuse of the plan and keep its result (with `executed_at`)."""
        if not isinstance(result, dict):
            raise ValueError("result must be a dict")
        with self._lock:
            with self._writing() as conn:
                now = self._now()
                last_result = _dump({**result, "executed_at": now}, "result")
                cursor = conn.execute(
                    "UPDATE query_plans SET usage_count = usage_count + 1, last_result = ? "
                    "WHERE id = ?",
                    (last_result, plan_id),
                )
                if cursor.rowcount == 0:
                    raise PlanNotFound(plan_id)
                stored = self._require_plan(conn, plan_id)
            self._index.set_state(plan_id, usage=stored.usage_count)
            return stored

    def invalidate(self, plan_id: str, error: str) -> StoredPlan:
        """Mark the plan as not to be reused, and why (`updated_at` is left as it is)."""
        if not isinstance(error, str):
            raise ValueError("error must be a string")
        with self._lock:
            with self._writing() as conn:
                cursor = conn.execute(
                    "UPDATE query_plans SET is_valid = 0, last_error = ? WHERE id = ?",
                    (error, plan_id),
                )
                if cursor.rowcount == 0:
                    raise PlanNotFound(plan_id)
                stored = self._require_plan(conn, plan_id)
            self._index.set_state(plan_id, valid=False)
            return stored

    def update(
        self,
        plan_id: str,
        plan: dict[str, Any] | None = None,
        is_valid: bool | None = None,
    ) -> StoredPlan:
        """Replace the plan and/or set its validity (valid again clears `last_error`).

        `PlanNotFound` when there is no such plan.
        """
        plan_json = None if plan is None else _clean_plan(plan)
        if is_valid is not None and not isinstance(is_valid, bool):
            raise ValueError("is_valid must be a bool or None")
        with self._lock:
            with self._writing() as conn:
                found = conn.execute("SELECT 1 FROM query_plans WHERE id = ?", (plan_id,))
                if found.fetchone() is None:
                    raise PlanNotFound(plan_id)
                sets = ["updated_at = ?"]
                params: builtins.list[Any] = [self._now()]
                if plan_json is not None:
                    sets.append("plan_json = ?")
                    params.append(plan_json)
                if is_valid is not None:
                    sets.append("is_valid = ?")
                    params.append(int(is_valid))
                    if is_valid:
                        sets.append("last_error = NULL")
                conn.execute(
                    f"UPDATE query_plans SET {', '.join(sets)} WHERE id = ?", (*params, plan_id)
                )
                stored = self._require_plan(conn, plan_id)
            self._index.set_state(plan_id, valid=stored.is_valid)
            return stored

    def delete(self, plan_id: str) -> bool:
        """Delete a plan (and its vector); False if there was no such plan."""
        with self._lock:
            with self._writing() as conn:
                cursor = conn.execute("DELETE FROM query_plans WHERE id = ?", (plan_id,))
                if cursor.rowcount == 0:
                    return False
                if self._fts:
                    conn.execute(f"DELETE FROM {FTS_TABLE} WHERE plan_id = ?", (plan_id,))
            self._index.remove(plan_id)
            return True

    # ------------------------------------------------------------------ internals: queries

    def _by_id(self, conn: sqlite3.Connection, plan_id: str) -> StoredPlan | None:
        if not isinstance(plan_id, str):
            return None
        row = conn.execute(f"{_PLAN_SELECT} WHERE id = ?", (plan_id,)).fetchone()
        return None if row is None else _decode(row)

    def _require_plan(self, conn: sqlite3.Connection, plan_id: str) -> StoredPlan:
        plan = self._by_id(conn, plan_id)
        if plan is None:  # pragma: no cover - only if the row vanished inside our transaction
            raise PlanStoreError(f"query plan {plan_id} disappeared")
        return plan

    def _fts_search(
        self,
        conn: sqlite3.Connection,
        words: tuple[str, ...],
        language: str | None,
        limit: int,
    ) -> builtins.list[StoredPlan]:
        sql = (
            f"{_PLAN_SELECT_P} JOIN {FTS_TABLE} f ON f.plan_id = p.id "
            f"WHERE {FTS_TABLE} MATCH ? AND p.is_valid = 1"
        )
        params: builtins.list[Any] = [_fts_query(words)]
        if language is not None:
            sql += " AND p.language = ?"
            params.append(language)
        sql += " ORDER BY f.rank, p.usage_count DESC, p.id"
        out: builtins.list[StoredPlan] = []
        for row in conn.execute(sql, params):
            plan = _decode(row)
            if plan.is_valid:
                out.append(plan)
                if len(out) >= limit:
                    break
        return out

    def _scan_search(
        self,
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
            have = set(_search_tokens(str(normalized)))
            shared = len(wanted & have)
            if shared:
                scored.append((shared, shared / len(have), _as_int(usage), str(plan_id)))
        scored.sort(key=lambda s: (-s[0], -s[1], -s[2], s[3]))
        out: builtins.list[StoredPlan] = []
        for *_, plan_id in scored:
            plan = self._by_id(conn, plan_id)
            if plan is not None and plan.is_valid:
                out.append(plan)
                if len(out) >= limit:
                    break
        return out

    def _now(self) -> str:
        return as_utc(self._clock()).isoformat(timespec="microseconds")

    # ------------------------------------------------------------------ internals: transactions

    def _require(self) -> sqlite3.Connection:
        if self._conn is None:
            raise PlanStoreError("the query plan store is not open")
        return self._conn

    def _reading(self) -> AbstractContextManager[sqlite3.Connection]:
        return reading(self._require(), PlanStoreError, "query plans")

    def _writing(self) -> AbstractContextManager[sqlite3.Connection]:
        conn = self._require()
        if self._newer_version is not None:
            raise NewerSchemaError(self._newer_version)
        return writing(conn, PlanStoreError, "query plans")

    # ------------------------------------------------------------------ internals: open/migrate

    def _connect(self) -> OpenReport:
        """Open the file, check it, migrate it, load it; keep the connection only on success."""
        try:
            conn = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
        except sqlite3.Error as err:
            raise PlanStoreError(f"could not open {self.path}: {err}") from err
        try:
            report, index, fts, newer = self._prepare(conn)
        except (sqlite3.Error, UnusableFile) as err:
            if isinstance(err, sqlite3.Error) and not is_corruption(err, self.path):
                conn.close()
                raise PlanStoreError(f"could not open {self.path}: {err}") from err
            # Move the files while the connection still holds them: closing first would let
            # SQLite delete the -wal file, and with it data not yet in the main file.
            try:
                target = self._move_aside()
            finally:
                conn.close()
            raise MovedAside(target, str(err) or type(err).__name__) from err
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        self._index = index
        self._fts = fts
        self._newer_version = newer
        return report

    def _prepare(
        self, conn: sqlite3.Connection
    ) -> tuple[OpenReport, _VectorIndex, bool, int | None]:
        conn.execute("PRAGMA foreign_keys=ON")
        check = conn.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise UnusableFile("; ".join(str(row[0]) for row in check[:5]))
        version = _file_version(conn)
        if version > SCHEMA_VERSION:
            # Read what we can, write nothing: not even the journal mode.
            conn.execute("PRAGMA query_only=ON")
            mode = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
            _LOGGER.warning(
                "Query plan database %s has schema version %s (this code knows %s); read-only",
                self.path,
                version,
                SCHEMA_VERSION,
            )
            index, _rebuilt = self._load_index(conn, writable=False)
            fts = self.use_fts and _fts_in_step(conn)
            report = OpenReport(
                path=self.path,
                schema_version=version,
                read_only=True,
                journal_mode=mode,
                fts=fts,
                plans=index.size,
            )
            return report, index, fts, version
        _check_layout(conn, version)
        mode = str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]).lower()
        conn.execute("PRAGMA synchronous=NORMAL")
        migrated_from: int | None = None
        with _transaction(conn):
            # Another process may have migrated it between our read and our lock.
            version = _file_version(conn)
            if version > SCHEMA_VERSION:  # upgraded by a newer process since our first look
                raise PlanStoreError(f"{self.path} was upgraded while opening; open it again")
            if version < SCHEMA_VERSION:
                _check_layout(conn, version)
                migrated_from = version
                self._migrate(conn, version)
            _check_layout(conn, SCHEMA_VERSION)
            fts = self.use_fts and self._ensure_fts(conn)
            index, rebuilt = self._load_index(conn, writable=True)
        report = OpenReport(
            path=self.path,
            schema_version=SCHEMA_VERSION,
            migrated_from=migrated_from,
            journal_mode=mode,
            fts=fts,
            plans=index.size,
            vectors_rebuilt=rebuilt,
        )
        return report, index, fts, None

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        """Bring the schema from `version` to SCHEMA_VERSION inside the caller's transaction."""
        while version < SCHEMA_VERSION:
            statements = _MIGRATIONS.get(version)
            if statements is None:  # pragma: no cover - _check_layout admits known versions only
                raise UnusableFile(f"no migration from schema version {version}")
            for statement in statements:
                conn.execute(statement)
            version = SCHEMA_VERSION if version == 0 else version + 1
            conn.execute(
                "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                (version, self._now()),
            )

    def _ensure_fts(self, conn: sqlite3.Connection) -> bool:
        """Create the FTS5 table if this SQLite has FTS5, and make it match `query_plans`."""
        if not fts5_available():
            return False
        try:
            conn.execute(_FTS_DDL)
        except sqlite3.OperationalError as err:
            _LOGGER.info("Full-text search over cached questions is unavailable: %s", err)
            return False
        expected = {
            (str(plan_id), _fts_text(str(normalized)))
            for plan_id, normalized in conn.execute("SELECT id, normalized FROM query_plans")
        }
        rows = conn.execute(f"SELECT plan_id, text FROM {FTS_TABLE}").fetchall()
        present = [(str(plan_id), str(text)) for plan_id, text in rows]
        if len(present) != len(expected) or set(present) != expected:
            conn.execute(f"DELETE FROM {FTS_TABLE}")
            conn.executemany(
                f"INSERT INTO {FTS_TABLE} (plan_id, text) VALUES (?, ?)", sorted(expected)
            )
        return True

    def _load_index(
        self, conn: sqlite3.Connection, writable: bool
    ) -> tuple[_VectorIndex, int]:
        """The similarity index of every row; missing or stale vectors are recomputed (and
        stored, when writable). A newer schema we cannot read leaves the index empty."""
        dim = self.vectorizer.dim
        index = _VectorIndex(dim)
        sql = (
            f"SELECT {', '.join('p.' + c for c in _PLAN_COLUMNS)}, v.dim, v.vector "
            "FROM query_plans p LEFT JOIN query_plan_vectors v ON v.plan_id = p.id "
            "ORDER BY p.rowid"
        )
        try:
            rows = conn.execute(sql).fetchall()
        except sqlite3.OperationalError as err:
            if writable:
                raise
            _LOGGER.warning("Could not load cached query plans from %s: %s", self.path, err)
            return index, 0
        missing: builtins.list[tuple[str, np.ndarray]] = []
        for row in rows:
            plan = _decode(row[: len(_PLAN_COLUMNS)])
            vector = _vector_from_blob(row[-2], row[-1], dim)
            if vector is None:
                vector = self.vectorizer.vectorize(plan.normalized, already_normalized=True)
                missing.append((plan.id, vector))
            index.upsert(plan.id, vector, plan.language, plan.is_valid, plan.usage_count)
        if writable and missing:
            conn.executemany(
                "INSERT OR REPLACE INTO query_plan_vectors (plan_id, dim, vector) "
                "VALUES (?, ?, ?)",
                [(plan_id, dim, _vector_blob(vector)) for plan_id, vector in missing],
            )
        return index, len(missing)

    def _move_aside(self) -> Path:
        return move_aside(self.path, self._clock(), PlanStoreError)


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        with suppress(sqlite3.Error):
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        raise


def _tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    return {str(row[0]) for row in rows}


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")}


def _fts_tables() -> frozenset[str]:
    return frozenset(FTS_TABLE + suffix for suffix in _FTS_SHADOW_SUFFIXES)


def _fts_in_step(conn: sqlite3.Connection) -> bool:
    """Read-only use of an existing FTS table: only if it is readable and has every row."""
    if FTS_TABLE not in _tables(conn) or not fts5_available():
        return False
    try:
        present = {str(r[0]) for r in conn.execute(f"SELECT plan_id FROM {FTS_TABLE}")}
        ids = {str(r[0]) for r in conn.execute("SELECT id FROM query_plans")}
    except sqlite3.Error:
        return False
    return present == ids


def _file_version(conn: sqlite3.Connection) -> int:
    """0 for a file without tables; the schema_version table's maximum otherwise."""
    tables = _tables(conn)
    if not tables:
        return 0
    if "schema_version" not in tables:
        raise UnusableFile(f"unrecognised schema (tables: {', '.join(sorted(tables))})")
    if _columns(conn, "schema_version") != {"version", "applied_at"}:
        raise UnusableFile("unrecognised schema_version table")
    value = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    if not isinstance(value, int) or value < 1:
        raise UnusableFile(f"invalid schema version {value!r}")
    return value


def _check_layout(conn: sqlite3.Connection, version: int) -> None:
    """The file's tables are what `version` says they are, else `UnusableFile`."""
    if version == 0:
        return
    if version == 1:
        tables = _tables(conn) - _fts_tables()
        expected = {"schema_version", "query_plans", "query_plan_vectors"}
        if (
            tables != expected
            or _columns(conn, "query_plans") != set(_PLAN_COLUMNS)
            or _columns(conn, "query_plan_vectors") != set(_VECTOR_COLUMNS)
        ):
            raise UnusableFile("schema version 1 without the version 1 tables")
        return
    raise UnusableFile(f"unknown schema version {version}")  # pragma: no cover
