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
What every store guarantees (one lock, one transaction per write, a damaged file moved aside, a
newer schema opened read-only) is `base.sqlite_file.SQLiteStore`'s. Here, in addition, the
in-memory vector index is changed only after a write committed, and a row whose JSON does not
parse (a hand-edited file) never breaks a read: its plan reads as `{}` and it counts as
invalid, so it is never offered for reuse.
"""

from __future__ import annotations

import builtins
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..base.sqlite_file import NewerSchema, SQLiteStore, UnusableFile
from ..base.sqlite_file import OpenReport as StoreReport
from ..base.vector_search import HashingVectorizer
from .store_schema import (
    FTS_TABLE,
    LIST_ORDER,
    MIGRATIONS,
    PLAN_SELECT,
    PLAN_SOURCES,
    SCHEMA_VERSION,
    StoredPlan,
    check_layout,
    clean_language,
    clean_plan,
    clean_question,
    decode_row,
    dump_json,
    fts_in_step,
    normalize_question,
    search_tokens,
)
from .store_search import (
    VectorIndex,
    by_id,
    completing_search,
    fts_search,
    load_index,
    scan_search,
    sync_fts,
    write_searchable,
)


class PlanStoreError(Exception):
    """Base class of every error the plan store raises."""


class PlanNotFound(PlanStoreError):
    """No stored plan has this id."""

    def __init__(self, plan_id: str) -> None:
        super().__init__(f"no query plan with id {plan_id!r}")
        self.plan_id = plan_id


class NewerSchemaError(PlanStoreError, NewerSchema):
    """The file was written by a newer version of the integration; it is kept read-only."""


@dataclass(frozen=True, slots=True)
class OpenReport(StoreReport):
    """What `PlanStore.open()` found and did."""

    fts: bool = False  # full-text search runs on FTS5 (else a token-overlap scan)
    plans: int = 0  # rows loaded into the similarity index
    vectors_rebuilt: int = 0  # stored vectors that were missing or of another dimension


class PlanStore(SQLiteStore):
    """The query plan cache. Call `open()` first; every method may block (disk I/O)."""

    label: ClassVar[str] = "query plan"
    what: ClassVar[str] = "query plans"
    schema_version: ClassVar[int] = SCHEMA_VERSION
    error: ClassVar[type[Exception]] = PlanStoreError
    newer_schema_error: ClassVar[type[NewerSchema]] = NewerSchemaError

    def __init__(
        self,
        path: Path,
        vectorizer: HashingVectorizer | None = None,
        clock: Callable[[], datetime] | None = None,
        use_fts: bool = True,
    ) -> None:
        super().__init__(path, clock)
        self.vectorizer = vectorizer or HashingVectorizer()
        self.use_fts = use_fts
        self._fts = False
        self._index = VectorIndex(self.vectorizer.dim)

    def open(self) -> OpenReport:
        report = super().open()
        assert isinstance(report, OpenReport)
        return report

    # ------------------------------------------------------------------ reads

    def get(self, plan_id: str) -> StoredPlan | None:
        """The plan with this id (valid or not), or None."""
        with self._lock, self._reading() as conn:
            return self._by_id(conn, plan_id)

    def exact(self, question: str, language: str) -> StoredPlan | None:
        """The valid plan stored for this question (after `normalize_question`), or None."""
        normalized = normalize_question(question)
        lang = clean_language(language)
        if not normalized:
            return None
        with self._lock, self._reading() as conn:
            row = conn.execute(
                f"{PLAN_SELECT} WHERE language = ? AND normalized = ? AND is_valid = 1",
                (lang, normalized),
            ).fetchone()
        if row is None:
            return None
        plan = decode_row(row)
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
        lang = None if language is None else clean_language(language)
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
        lang = None if language is None else clean_language(language)
        words = search_tokens(normalized)
        if not words or limit <= 0:
            return []
        with self._lock, self._reading() as conn:
            if self._fts:
                return fts_search(conn, words, lang, limit)
            return scan_search(conn, words, lang, limit)

    def completing(
        self, question: str, language: str | None = None, limit: int = 5
    ) -> builtins.list[tuple[StoredPlan, float]]:
        """Valid plans whose question goes on from what is typed so far: every word typed is
        one of its words, the last one perhaps only begun ("which door" → "which doors are
        unlocked?", "门没" → "哪些门没锁"), with the vector similarity; the most used first.
        A half-typed question is far from the whole one by vectors, so `similar` misses it."""
        normalized = normalize_question(question)
        lang = None if language is None else clean_language(language)
        typed = search_tokens(normalized)
        if not typed or limit <= 0:
            return []
        with self._lock, self._reading() as conn:
            return completing_search(conn, self.vectorizer, normalized, typed, lang, limit)

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
                    f"{PLAN_SELECT} {LIST_ORDER} LIMIT ? OFFSET ?", (int(limit), offset)
                ).fetchall()
            else:
                rows = conn.execute(
                    f"{PLAN_SELECT} WHERE language = ? {LIST_ORDER} LIMIT ? OFFSET ?",
                    (clean_language(language), int(limit), offset),
                ).fetchall()
        return [decode_row(row) for row in rows]

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
        normalized = clean_question(question)
        lang = clean_language(language)
        plan_json = clean_plan(plan)
        if source not in PLAN_SOURCES:
            raise ValueError(f"source must be one of {', '.join(PLAN_SOURCES)}")
        if slots is None:
            slots = {}
        if not isinstance(slots, dict):
            raise ValueError("slots must be a dict or None")
        slots_json = dump_json(slots, "slots")
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
                write_searchable(conn, plan_id, vector, normalized, self._fts)
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
                last_result = dump_json({**result, "executed_at": now}, "result")
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
        """Replace the plan and/or set its validity (valid again clears `last_error`). A plan
        replaced here is someone's correction: its source becomes "manual", so a newer reading
        of the compiler never takes its place.

        `PlanNotFound` when there is no such plan.
        """
        plan_json = None if plan is None else clean_plan(plan)
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
                    sets += ["plan_json = ?", "source = ?"]
                    params += [plan_json, "manual"]
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
        return by_id(conn, plan_id)

    def _require_plan(self, conn: sqlite3.Connection, plan_id: str) -> StoredPlan:
        plan = self._by_id(conn, plan_id)
        if plan is None:  # pragma: no cover - only if the row vanished inside our transaction
            raise PlanStoreError(f"query plan {plan_id} disappeared")
        return plan

    # ------------------------------------------------------------------ internals: schema, loading

    def _check_layout(self, conn: sqlite3.Connection, version: int) -> None:
        check_layout(conn, version)

    def _load(self, conn: sqlite3.Connection, report: StoreReport, writable: bool) -> OpenReport:
        """Full-text search and the similarity index, read once at open time."""
        if writable:
            fts = self.use_fts and sync_fts(conn)
            index, rebuilt = load_index(conn, self.vectorizer, True, self.path)
        else:
            index, _unsaved = load_index(conn, self.vectorizer, False, self.path)
            fts = self.use_fts and fts_in_step(conn)
            rebuilt = 0
        self._index, self._fts = index, fts
        return OpenReport(
            path=report.path,
            schema_version=report.schema_version,
            migrated_from=report.migrated_from,
            read_only=report.read_only,
            journal_mode=report.journal_mode,
            fts=fts,
            plans=index.size,
            vectors_rebuilt=rebuilt,
        )

    def _closed(self) -> None:
        self._fts = False
        self._index = VectorIndex(self.vectorizer.dim)

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        """Bring the schema from `version` to SCHEMA_VERSION inside the caller's transaction."""
        while version < SCHEMA_VERSION:
            statements = MIGRATIONS.get(version)
            if statements is None:  # pragma: no cover - _check_layout admits known versions only
                raise UnusableFile(f"no migration from schema version {version}")
            for statement in statements:
                conn.execute(statement)
            version = SCHEMA_VERSION if version == 0 else version + 1
            conn.execute(
                "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                (version, self._now()),
            )
