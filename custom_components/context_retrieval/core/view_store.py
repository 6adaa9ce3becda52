"""Persistence of natural-language view rules (seed 000 "数据模型与 SQL", "错误处理与回退").

A single SQLite file (in Home Assistant's config directory) with the seed's two tables:
`view_rules` holds the published version of each rule, `view_rule_revisions` the last few
published versions of it (for rollback). Stdlib `sqlite3` only; nothing here knows about Home
Assistant. The glue calls it from an executor thread: the connection is opened with
`check_same_thread=False` and every public method holds one `threading.Lock`, so calls from
different worker threads are serialised.

Guarantees:
- Every write is one transaction (`BEGIN IMMEDIATE` … `COMMIT`); on any failure it is rolled
  back, so a failed update never replaces the published rule.
- `open()` creates or migrates the schema (0 → 2, 1 → 2, each in one transaction). A corrupt or
  unreadable file, or one whose schema is not ours, is moved aside to `<name>.corrupt-<time>`
  (with its `-wal`/`-shm`) and a fresh database is created; `open()` reports it, never raises it.
  Errors that say nothing about the file (locked, disk full, I/O) are raised as `ViewStoreError`
  and the file is left where it is.
- A database written by a newer version of the integration is opened for reading only
  (`PRAGMA query_only`); every write raises `NewerSchemaError`, the file is not touched.

Names are trimmed, 1–100 characters, and unique regardless of case. The index
`idx_view_rules_name_nocase` enforces that for ASCII (SQLite's NOCASE); lookups also compare
`str.casefold()` so "Свет" and "свет" are one rule too.
"""

from __future__ import annotations

import builtins
import json
import logging
import sqlite3
import threading
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager, suppress
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

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

_LOGGER = logging.getLogger(__name__)

SCHEMA_VERSION = 2
MAX_NAME_LENGTH = 100
DEFAULT_KEEP_REVISIONS = 5
COMPILE_SOURCES = ("deterministic", "llm")

# The version table's layout never changes, so any version of the code can read any file's
# version. One row per applied migration; the file's version is MAX(version).
_SCHEMA_VERSION_DDL = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    "version INTEGER NOT NULL, applied_at TEXT NOT NULL)"
)

# Version 1: what the first release shipped. One table, names unique case-sensitively, no
# rewrite note, no error column, no revision history.
SCHEMA_V1: tuple[str, ...] = (
    _SCHEMA_VERSION_DDL,
    """CREATE TABLE IF NOT EXISTS view_rules (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  rule_nl TEXT NOT NULL,
  rule_json TEXT NOT NULL,
  parse_version TEXT NOT NULL,
  compile_source TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS idx_view_rules_updated_at ON view_rules(updated_at)",
)

# Version 2: the seed's tables and indexes, verbatim.
SCHEMA_V2: tuple[str, ...] = (
    _SCHEMA_VERSION_DDL,
    """CREATE TABLE IF NOT EXISTS view_rules (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  rule_nl TEXT NOT NULL,
  rule_json TEXT NOT NULL,
  parse_version TEXT NOT NULL,
  compile_source TEXT NOT NULL, -- deterministic | llm
  rewrite_note TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS idx_view_rules_created_at ON view_rules(created_at)",
    "CREATE INDEX IF NOT EXISTS idx_view_rules_updated_at ON view_rules(updated_at)",
    "CREATE UNIQUE INDEX IF NOT EXISTS idx_view_rules_name_nocase "
    "ON view_rules(name COLLATE NOCASE)",
    """CREATE TABLE IF NOT EXISTS view_rule_revisions (
  id TEXT PRIMARY KEY,
  view_rule_id TEXT NOT NULL,
  rule_nl TEXT NOT NULL,
  rule_json TEXT NOT NULL,
  parse_version TEXT NOT NULL,
  compile_source TEXT NOT NULL,
  rewrite_note TEXT,
  created_at TEXT NOT NULL,
  FOREIGN KEY (view_rule_id) REFERENCES view_rules(id) ON DELETE CASCADE
)""",
    "CREATE INDEX IF NOT EXISTS idx_view_rule_revisions_view_rule "
    "ON view_rule_revisions(view_rule_id, created_at DESC)",
)

_V1_RULE_COLUMNS = frozenset(
    {
        "id",
        "name",
        "rule_nl",
        "rule_json",
        "parse_version",
        "compile_source",
        "created_at",
        "updated_at",
    }
)
_RULE_COLUMNS = (
    "id",
    "name",
    "rule_nl",
    "rule_json",
    "parse_version",
    "compile_source",
    "rewrite_note",
    "last_error",
    "created_at",
    "updated_at",
)
_REVISION_COLUMNS = (
    "id",
    "view_rule_id",
    "rule_nl",
    "rule_json",
    "parse_version",
    "compile_source",
    "rewrite_note",
    "created_at",
)
_RULE_SELECT = f"SELECT {', '.join(_RULE_COLUMNS)} FROM view_rules"
_REVISION_SELECT = f"SELECT {', '.join(_REVISION_COLUMNS)} FROM view_rule_revisions"
# Newest first. rowid breaks ties between revisions written within the same microsecond.
_REVISION_ORDER = "ORDER BY created_at DESC, rowid DESC"

# SQLite primary result codes that mean "this file is not a usable database".


class ViewStoreError(Exception):
    """Base class of every error the view store raises."""


class RuleNotFound(ViewStoreError):
    """No published rule has this name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no view rule named {name!r}")
        self.name = name


class RevisionNotFound(ViewStoreError):
    """The rule has no such revision (or no earlier one to roll back to)."""

    def __init__(self, name: str, revision_id: str | None, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.revision_id = revision_id


class NewerSchemaError(ViewStoreError):
    """The file was written by a newer version of the integration; it is kept read-only."""

    def __init__(self, found: int, supported: int = SCHEMA_VERSION) -> None:
        super().__init__(
            f"the view rule database has schema version {found}, this version of the "
            f"integration knows up to {supported}; it is opened read-only"
        )
        self.found = found
        self.supported = supported


@dataclass(frozen=True, slots=True)
class ViewRule:
    """One published rule: a row of `view_rules`."""

    id: str
    name: str
    rule_nl: str
    rule_json: str
    parse_version: str
    compile_source: str
    rewrite_note: str | None
    last_error: str | None
    created_at: str
    updated_at: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ViewRuleRevision:
    """One published version of a rule: a row of `view_rule_revisions`."""

    id: str
    view_rule_id: str
    rule_nl: str
    rule_json: str
    parse_version: str
    compile_source: str
    rewrite_note: str | None
    created_at: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class OpenReport:
    """What `ViewRuleStore.open()` found and did."""

    path: Path
    schema_version: int  # the schema now in use (the file's own when it is newer)
    migrated_from: int | None = None  # 0: a new file; 1: the first release's schema
    read_only: bool = False  # the file is from a newer schema version
    recovered: bool = False  # the old file was unusable and moved aside
    moved_to: Path | None = None
    error: str | None = None  # why it was unusable
    journal_mode: str = ""


def clean_name(name: str) -> str:
    """The stored form of a rule name: trimmed, 1–100 characters, else `ValueError`."""
    if not isinstance(name, str):
        raise ValueError("a view rule name must be a string")
    cleaned = name.strip()
    if not cleaned:
        raise ValueError("a view rule name must not be empty")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise ValueError(f"a view rule name must be at most {MAX_NAME_LENGTH} characters")
    return cleaned


def _rule(row: sqlite3.Row | tuple[Any, ...]) -> ViewRule:
    return ViewRule(*row)


def _revision(row: sqlite3.Row | tuple[Any, ...]) -> ViewRuleRevision:
    return ViewRuleRevision(*row)


def _content(item: ViewRule | ViewRuleRevision) -> tuple[Any, ...]:
    return (item.rule_nl, item.rule_json, item.parse_version, item.compile_source)


class ViewRuleStore:
    """The view rule repository. Call `open()` first; every method may block (disk I/O)."""

    def __init__(
        self,
        path: Path,
        clock: Callable[[], datetime] | None = None,
        keep_revisions: int = DEFAULT_KEEP_REVISIONS,
    ) -> None:
        if keep_revisions < 1:
            raise ValueError("keep_revisions must be at least 1")
        self.path = Path(path)
        self.keep_revisions = keep_revisions
        self._clock = clock or utc_now
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._newer_version: int | None = None

    # ------------------------------------------------------------------ lifecycle

    def open(self) -> OpenReport:
        """Open (creating or migrating) the database; move an unusable file aside."""
        with self._lock:
            if self._conn is not None:
                raise ViewStoreError("the view rule store is already open")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                return self._connect()
            except MovedAside as moved:
                moved_to, reason = moved.target, moved.reason
            _LOGGER.warning(
                "View rule database %s was unusable (%s); moved it to %s and started a new one",
                self.path,
                reason,
                moved_to,
            )
            try:
                report = self._connect()
            except MovedAside as err:
                raise ViewStoreError(f"could not create {self.path}: {err}") from err
            return OpenReport(
                path=self.path,
                schema_version=report.schema_version,
                migrated_from=report.migrated_from,
                recovered=True,
                moved_to=moved_to,
                error=reason,
                journal_mode=report.journal_mode,
            )

    def close(self) -> None:
        with self._lock:
            conn, self._conn = self._conn, None
            self._newer_version = None
            if conn is not None:
                with suppress(sqlite3.Error):
                    conn.close()

    def __enter__(self) -> ViewRuleStore:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def read_only(self) -> bool:
        return self._newer_version is not None

    # ------------------------------------------------------------------ reads

    def get(self, name: str) -> ViewRule | None:
        """The published rule with this name (case-insensitive), or None."""
        key = clean_name(name)
        with self._lock, self._reading() as conn:
            return self._find(conn, key)

    def list(self) -> builtins.list[ViewRule]:
        """Every published rule, by name (case-insensitive)."""
        with self._lock, self._reading() as conn:
            rows = conn.execute(f"{_RULE_SELECT} ORDER BY name COLLATE NOCASE, name").fetchall()
        return [_rule(row) for row in rows]

    def revisions(self, name: str) -> builtins.list[ViewRuleRevision]:
        """The kept revisions of a rule, newest first; `RuleNotFound` if there is no such rule."""
        key = clean_name(name)
        with self._lock, self._reading() as conn:
            rule = self._find(conn, key)
            if rule is None:
                raise RuleNotFound(key)
            return self._revisions(conn, rule.id)

    def integrity_check(self) -> bool:
        """SQLite's integrity and foreign-key checks both pass."""
        with self._lock:
            conn = self._require()
            try:
                result = conn.execute("PRAGMA integrity_check").fetchall()
                dangling = conn.execute("PRAGMA foreign_key_check").fetchall()
            except sqlite3.Error:
                return False
        return result == [("ok",)] and not dangling

    # ------------------------------------------------------------------ writes

    def publish(
        self,
        name: str,
        rule_nl: str,
        rule_json: str,
        compile_source: str,
        rewrite_note: str | None = None,
        parse_version: str = "1",
    ) -> ViewRule:
        """Create or update (by case-insensitive name) a rule, and record the new revision.

        An update takes the name's new spelling and clears `last_error`. Only the newest
        `keep_revisions` revisions of the rule are kept.
        """
        key = clean_name(name)
        if not isinstance(rule_nl, str) or not rule_nl.strip():
            raise ValueError("rule_nl must be a non-empty string")
        if not isinstance(rule_json, str):
            raise ValueError("rule_json must be a JSON string")
        try:
            parsed = json.loads(rule_json)
        except ValueError as err:
            raise ValueError(f"rule_json is not valid JSON: {err}") from err
        if not isinstance(parsed, dict):
            raise ValueError("rule_json must be a JSON object")
        if compile_source not in COMPILE_SOURCES:
            raise ValueError(f"compile_source must be one of {', '.join(COMPILE_SOURCES)}")
        if not isinstance(parse_version, str) or not parse_version:
            raise ValueError("parse_version must be a non-empty string")
        if rewrite_note is not None and not isinstance(rewrite_note, str):
            raise ValueError("rewrite_note must be a string or None")

        with self._lock, self._writing() as conn:
            existing = self._find(conn, key)
            if existing is None:
                rule_id = uuid.uuid4().hex
                now = self._now()
                conn.execute(
                    "INSERT INTO view_rules (id, name, rule_nl, rule_json, parse_version, "
                    "compile_source, rewrite_note, last_error, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                    (
                        rule_id,
                        key,
                        rule_nl,
                        rule_json,
                        parse_version,
                        compile_source,
                        rewrite_note,
                        now,
                        now,
                    ),
                )
            else:
                rule_id = existing.id
                now = self._revision_time(conn, rule_id)
                conn.execute(
                    "UPDATE view_rules SET name = ?, rule_nl = ?, rule_json = ?, "
                    "parse_version = ?, compile_source = ?, rewrite_note = ?, last_error = NULL, "
                    "updated_at = ? WHERE id = ?",
                    (
                        key,
                        rule_nl,
                        rule_json,
                        parse_version,
                        compile_source,
                        rewrite_note,
                        now,
                        rule_id,
                    ),
                )
            self._insert_revision(
                conn, rule_id, rule_nl, rule_json, parse_version, compile_source, rewrite_note, now
            )
            self._trim_revisions(conn, rule_id)
            return self._by_id(conn, rule_id)

    def delete(self, name: str) -> bool:
        """Delete a rule and its revisions; False if there was no such rule."""
        key = clean_name(name)
        with self._lock, self._writing() as conn:
            rule = self._find(conn, key)
            if rule is None:
                return False
            conn.execute("DELETE FROM view_rules WHERE id = ?", (rule.id,))
            return True

    def rollback(self, name: str, revision_id: str | None = None) -> ViewRule:
        """Make an earlier revision the published rule again, recorded as a new revision.

        Without `revision_id`: the newest revision that differs from the published rule.
        `RuleNotFound` / `RevisionNotFound` when there is no such rule or revision.
        """
        key = clean_name(name)
        with self._lock, self._writing() as conn:
            rule = self._find(conn, key)
            if rule is None:
                raise RuleNotFound(key)
            history = self._revisions(conn, rule.id)
            target: ViewRuleRevision | None
            if revision_id is None:
                target = next((r for r in history if _content(r) != _content(rule)), None)
                if target is None:
                    raise RevisionNotFound(
                        key, None, f"view rule {key!r} has no earlier revision to roll back to"
                    )
            else:
                target = next((r for r in history if r.id == revision_id), None)
                if target is None:
                    raise RevisionNotFound(
                        key, revision_id, f"view rule {key!r} has no revision {revision_id!r}"
                    )
            now = self._revision_time(conn, rule.id)
            conn.execute(
                "UPDATE view_rules SET rule_nl = ?, rule_json = ?, parse_version = ?, "
                "compile_source = ?, rewrite_note = ?, last_error = NULL, updated_at = ? "
                "WHERE id = ?",
                (
                    target.rule_nl,
                    target.rule_json,
                    target.parse_version,
                    target.compile_source,
                    target.rewrite_note,
                    now,
                    rule.id,
                ),
            )
            self._insert_revision(
                conn,
                rule.id,
                target.rule_nl,
                target.rule_json,
                target.parse_version,
                target.compile_source,
                target.rewrite_note,
                now,
            )
            self._trim_revisions(conn, rule.id)
            return self._by_id(conn, rule.id)

    def record_error(self, name: str, message: str | None) -> None:
        """Note why the last compile/update of a rule failed (None clears it).

        The published rule, its `updated_at` and its revisions are left as they are.
        """
        key = clean_name(name)
        with self._lock, self._writing() as conn:
            rule = self._find(conn, key)
            if rule is None:
                raise RuleNotFound(key)
            conn.execute("UPDATE view_rules SET last_error = ? WHERE id = ?", (message, rule.id))

    # ------------------------------------------------------------------ internals: queries

    def _find(self, conn: sqlite3.Connection, key: str) -> ViewRule | None:
        row = conn.execute(f"{_RULE_SELECT} WHERE name = ? COLLATE NOCASE", (key,)).fetchone()
        if row is not None:
            return _rule(row)
        if key.isascii():
            return None
        # NOCASE folds ASCII only; other scripts (Cyrillic, Greek, accented Latin) fold here.
        folded = key.casefold()
        for rule_id, stored in conn.execute("SELECT id, name FROM view_rules"):
            if stored.casefold() == folded:
                return self._by_id(conn, rule_id)
        return None

    def _by_id(self, conn: sqlite3.Connection, rule_id: str) -> ViewRule:
        row = conn.execute(f"{_RULE_SELECT} WHERE id = ?", (rule_id,)).fetchone()
        if row is None:  # pragma: no cover - only if the row vanished inside our transaction
            raise ViewStoreError(f"view rule {rule_id} disappeared")
        return _rule(row)

    def _revisions(self, conn: sqlite3.Connection, rule_id: str) -> builtins.list[ViewRuleRevision]:
        rows = conn.execute(
            f"{_REVISION_SELECT} WHERE view_rule_id = ? {_REVISION_ORDER}", (rule_id,)
        ).fetchall()
        return [_revision(row) for row in rows]

    def _insert_revision(
        self,
        conn: sqlite3.Connection,
        rule_id: str,
        rule_nl: str,
        rule_json: str,
        parse_version: str,
        compile_source: str,
        rewrite_note: str | None,
        created_at: str,
    ) -> None:
        conn.execute(
            "INSERT INTO view_rule_revisions (id, view_rule_id, rule_nl, rule_json, "
            "parse_version, compile_source, rewrite_note, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                uuid.uuid4().hex,
                rule_id,
                rule_nl,
                rule_json,
                parse_version,
                compile_source,
                rewrite_note,
                created_at,
            ),
        )

    def _trim_revisions(self, conn: sqlite3.Connection, rule_id: str) -> None:
        conn.execute(
            "DELETE FROM view_rule_revisions WHERE view_rule_id = ? AND id NOT IN ("
            f"SELECT id FROM view_rule_revisions WHERE view_rule_id = ? {_REVISION_ORDER} "
            "LIMIT ?)",
            (rule_id, rule_id, self.keep_revisions),
        )

    def _now(self) -> str:
        return as_utc(self._clock()).isoformat(timespec="microseconds")

    def _revision_time(self, conn: sqlite3.Connection, rule_id: str) -> str:
        """Now, but never before the rule's newest revision (a clock set back keeps the order)."""
        now = self._now()
        row = conn.execute(
            "SELECT MAX(created_at) FROM view_rule_revisions WHERE view_rule_id = ?", (rule_id,)
        ).fetchone()
        newest = row[0] if row else None
        return newest if isinstance(newest, str) and newest > now else now

    # ------------------------------------------------------------------ internals: transactions

    def _require(self) -> sqlite3.Connection:
        if self._conn is None:
            raise ViewStoreError("the view rule store is not open")
        return self._conn

    def _reading(self) -> AbstractContextManager[sqlite3.Connection]:
        return reading(self._require(), ViewStoreError, "view rules")

    def _writing(self) -> AbstractContextManager[sqlite3.Connection]:
        conn = self._require()
        if self._newer_version is not None:
            raise NewerSchemaError(self._newer_version)
        return writing(conn, ViewStoreError, "view rules")

    # ------------------------------------------------------------------ internals: open/migrate

    def _connect(self) -> OpenReport:
        """Open the file, check it, migrate it; the connection is kept only on success."""
        try:
            conn = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
        except sqlite3.Error as err:
            raise ViewStoreError(f"could not open {self.path}: {err}") from err
        try:
            report = self._prepare(conn)
        except (sqlite3.Error, UnusableFile) as err:
            if isinstance(err, sqlite3.Error) and not is_corruption(err, self.path):
                conn.close()
                raise ViewStoreError(f"could not open {self.path}: {err}") from err
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
        return report

    def _prepare(self, conn: sqlite3.Connection) -> OpenReport:
        conn.execute("PRAGMA foreign_keys=ON")
        check = conn.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise UnusableFile("; ".join(str(row[0]) for row in check[:5]))
        version = _file_version(conn)
        if version > SCHEMA_VERSION:
            # Read what we can, write nothing: not even the journal mode.
            conn.execute("PRAGMA query_only=ON")
            self._newer_version = version
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            _LOGGER.warning(
                "View rule database %s has schema version %s (this code knows %s); read-only",
                self.path,
                version,
                SCHEMA_VERSION,
            )
            return OpenReport(
                path=self.path, schema_version=version, read_only=True, journal_mode=str(mode)
            )
        _check_layout(conn, version)
        mode = str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]).lower()
        conn.execute("PRAGMA synchronous=NORMAL")
        migrated_from: int | None = None
        if version < SCHEMA_VERSION:
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Another process may have migrated it between our read and our lock.
                version = _file_version(conn)
                if version < SCHEMA_VERSION:
                    _check_layout(conn, version)
                    migrated_from = version
                    self._migrate(conn, version)
                conn.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.Error):
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                raise
        _check_layout(conn, SCHEMA_VERSION)
        return OpenReport(
            path=self.path,
            schema_version=SCHEMA_VERSION,
            migrated_from=migrated_from,
            journal_mode=mode,
        )

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        """Bring the schema from `version` to SCHEMA_VERSION inside the caller's transaction."""
        if version == 0:
            for statement in SCHEMA_V2:
                conn.execute(statement)
        elif version == 1:
            self._migrate_1_to_2(conn)
        else:  # pragma: no cover - _check_layout admits only known versions
            raise UnusableFile(f"no migration from schema version {version}")
        conn.execute(
            "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
            (SCHEMA_VERSION, self._now()),
        )

    def _migrate_1_to_2(self, conn: sqlite3.Connection) -> None:
        """v1 → v2: the seed's layout, names unique regardless of case, one revision per rule.

        The table is rebuilt (not altered) so the file ends up with exactly the seed's DDL.
        Names are trimmed and cut to 100 characters; names that v1 allowed but that now collide
        ("Lights" and "lights") keep the oldest rule's spelling, later ones become "lights (2)".
        Each rule's current version becomes its first revision, so rollback has a baseline.
        """
        rows = conn.execute(
            "SELECT id, name, rule_nl, rule_json, parse_version, compile_source, created_at, "
            "updated_at FROM view_rules ORDER BY created_at, rowid"
        ).fetchall()
        conn.execute("DROP TABLE view_rules")  # drops its indexes too
        for statement in SCHEMA_V2:
            conn.execute(statement)
        taken: set[str] = set()
        for rule_id, name, nl, rule_json, parse_version, source, created, updated in rows:
            unique = _unique_name(str(name), taken)
            conn.execute(
                "INSERT INTO view_rules (id, name, rule_nl, rule_json, parse_version, "
                "compile_source, rewrite_note, last_error, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)",
                (rule_id, unique, nl, rule_json, parse_version, source, created, updated),
            )
            self._insert_revision(
                conn, rule_id, nl, rule_json, parse_version, source, None, updated
            )

    def _move_aside(self) -> Path:
        return move_aside(self.path, self._clock(), ViewStoreError)


def _tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    return {str(row[0]) for row in rows}


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")}


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
    tables = _tables(conn)
    if version == 0:
        return
    if version == 1:
        expected = {"schema_version", "view_rules"}
        if tables != expected or _columns(conn, "view_rules") != _V1_RULE_COLUMNS:
            raise UnusableFile("schema version 1 without the version 1 tables")
        return
    if version == 2:
        expected = {"schema_version", "view_rules", "view_rule_revisions"}
        if (
            tables != expected
            or _columns(conn, "view_rules") != set(_RULE_COLUMNS)
            or _columns(conn, "view_rule_revisions") != set(_REVISION_COLUMNS)
        ):
            raise UnusableFile("schema version 2 without the version 2 tables")
        index = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'index' "
            "AND name = 'idx_view_rules_name_nocase'"
        ).fetchone()
        if index is None:
            raise UnusableFile("the unique name index is missing")
        return
    raise UnusableFile(f"unknown schema version {version}")  # pragma: no cover


def _unique_name(raw: str, taken: set[str]) -> str:
    base = raw.strip()[:MAX_NAME_LENGTH] or "view rule"
    candidate = base
    counter = 1
    while candidate.casefold() in taken:
        counter += 1
        suffix = f" ({counter})"
        candidate = base[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
    taken.add(candidate.casefold())
    return candidate
