"""What the SQLite stores (view rules, question plans) share.

Each store is one SQLite file in Home Assistant's config directory, used from executor threads.
`SQLiteStore` holds what they do alike:
- one connection (`check_same_thread=False`) and one lock: every public method of a store
  holds the lock, so calls from different worker threads are serialised;
- every write is one `BEGIN IMMEDIATE` … `COMMIT` transaction, rolled back on any failure and
  reported in the store's own error type;
- `open()` creates or migrates the schema in one transaction. A corrupt or unreadable file, or
  one whose schema is not the store's, is moved aside to `<name>.corrupt-<time>` (with its
  `-wal`/`-shm`) and a fresh file is created; `open()` reports that, never raises it. Errors
  that say nothing about the file (locked, disk full, I/O) are raised and the file stays;
- a file written by a newer version of the integration is opened read-only (`PRAGMA
  query_only`): reads work, every write raises the store's `NewerSchemaError`;
- before SQLite replays a write-ahead log left by a crash, the log is checked
  (`sqlite_wal.wal_damage`): SQLite would stop silently at a damaged frame and drop every
  transaction after it. The file and its log are copied aside (`<name>.corrupt-<time>`), the
  readable part is kept, and `open()` reports it (`log_damaged`);
- `close()` checkpoints the log into the file first, so a stopped store leaves one file.
A store says what its schema is (`_check_layout`, `_migrate`) and may load more at open time
(`_load`).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from shutil import copy2
from typing import ClassVar, Self

from .sqlite_wal import wal_damage

_LOGGER = logging.getLogger(__name__)

# The version table's layout never changes, so any version of the code can read any file's
# version. One row per applied migration; the file's version is MAX(version).
SCHEMA_VERSION_DDL = (
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL)"
)


class MovedAside(Exception):
    """The file was unusable and now lies at `target`."""

    def __init__(self, target: Path, reason: str) -> None:
        super().__init__(reason)
        self.target = target
        self.reason = reason


class NewerSchema(Exception):
    """The file was written by a newer version of the integration; it is kept read-only.
    Each store's `NewerSchemaError` is this and that store's own error."""

    def __init__(self, label: str, found: int, supported: int) -> None:
        super().__init__(
            f"the {label} database has schema version {found}, this version of the "
            f"integration knows up to {supported}; it is opened read-only"
        )
        self.found = found
        self.supported = supported


class UnusableFile(Exception):
    """Internal: the file is a database, but not one we can read or migrate."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


# SQLite primary result codes that mean the file itself is the problem.
SQLITE_CANTOPEN, SQLITE_CORRUPT, SQLITE_NOTADB = 14, 11, 26


def is_corruption(err: sqlite3.Error, path: Path) -> bool:
    """True when the error is about the file itself, not about locks, space or I/O."""
    code = getattr(err, "sqlite_errorcode", None)
    if code is None:
        return False
    primary = code & 0xFF
    if primary in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return True
    return primary == SQLITE_CANTOPEN and path.exists()


@contextmanager
def reading(
    conn: sqlite3.Connection, error: type[Exception], what: str
) -> Iterator[sqlite3.Connection]:
    """A read whose SQLite failures surface as `error` ("reading <what> failed")."""
    try:
        yield conn
    except sqlite3.Error as err:
        raise error(f"reading {what} failed: {err}") from err


@contextmanager
def writing(
    conn: sqlite3.Connection, error: type[Exception], what: str
) -> Iterator[sqlite3.Connection]:
    """One IMMEDIATE transaction: committed on success, rolled back on anything else; SQLite
    failures surface as `error`."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as err:
        raise error(f"could not start a transaction: {err}") from err
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException as err:
        with suppress(sqlite3.Error):
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        if isinstance(err, sqlite3.Error):
            raise error(f"writing {what} failed: {err}") from err
        raise


def _aside_name(path: Path, moment: datetime) -> Path:
    stamp = as_utc(moment).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
    return target


def copy_aside(path: Path, moment: datetime, error: type[Exception]) -> Path:
    """Copy the file and its -wal to `<name>.corrupt-<UTC time>` (the originals stay)."""
    target = _aside_name(path, moment)
    try:
        copy2(path, target)
        side = path.with_name(path.name + "-wal")
        if side.exists():
            copy2(side, target.with_name(target.name + "-wal"))
    except OSError as err:
        raise error(f"could not copy the damaged {path} aside: {err}") from err
    return target


def move_aside(path: Path, moment: datetime, error: type[Exception]) -> Path:
    """Rename the file (and its -wal/-shm) to `<name>.corrupt-<UTC time>`."""
    target = _aside_name(path, moment)
    try:
        path.rename(target)
        for suffix in ("-wal", "-shm", "-journal"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
    except OSError as err:
        raise error(f"could not move the unusable {path} aside: {err}") from err
    return target


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One IMMEDIATE transaction for the store's own housekeeping (open, migrate)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        with suppress(sqlite3.Error):
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        raise


def tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    return {str(row[0]) for row in rows}


def columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")}


def file_version(conn: sqlite3.Connection) -> int:
    """0 for a file without tables; the schema_version table's maximum otherwise."""
    found = tables(conn)
    if not found:
        return 0
    if "schema_version" not in found:
        raise UnusableFile(f"unrecognised schema (tables: {', '.join(sorted(found))})")
    if columns(conn, "schema_version") != {"version", "applied_at"}:
        raise UnusableFile("unrecognised schema_version table")
    value = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    if not isinstance(value, int) or value < 1:
        raise UnusableFile(f"invalid schema version {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class OpenReport:
    """What a store's `open()` found and did."""

    path: Path
    schema_version: int  # the schema now in use (the file's own when it is newer)
    migrated_from: int | None = None  # 0: a new file
    read_only: bool = False  # the file is from a newer schema version
    recovered: bool = False  # the old file was unusable and moved aside
    log_damaged: bool = False  # its write-ahead log was damaged: copied aside, the rest kept
    moved_to: Path | None = None  # where the unusable or damaged files now are (a copy)
    error: str | None = None  # why it was unusable or damaged
    journal_mode: str = ""


class SQLiteStore:
    """One SQLite file of the engine. Call `open()` first; every method may block (disk I/O).

    Subclasses set the class attributes and implement `_check_layout` and `_migrate`.
    """

    label: ClassVar[str]  # "view rule": in messages ("the view rule store is not open")
    what: ClassVar[str]  # "view rules": in transaction errors ("reading view rules failed")
    schema_version: ClassVar[int]
    error: ClassVar[type[Exception]]  # every error the store raises is one of these
    newer_schema_error: ClassVar[type[NewerSchema]]

    def __init__(self, path: Path, clock: Callable[[], datetime] | None = None) -> None:
        self.path = Path(path)
        self._clock = clock or utc_now
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._newer_version: int | None = None

    # ------------------------------------------------------------------ lifecycle

    def open(self) -> OpenReport:
        """Open (creating or migrating) the database; move an unusable file aside."""
        with self._lock:
            if self._conn is not None:
                raise self.error(f"the {self.label} store is already open")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            damage = wal_damage(self.path)
            copied = None
            if damage is not None:
                copied = copy_aside(self.path, self._clock(), self.error)
                _LOGGER.warning(
                    "%s database %s: %s; the damaged files were copied to %s and what could "
                    "be read is kept",
                    self.label.capitalize(),
                    self.path,
                    damage,
                    copied,
                )
            try:
                report = self._connect()
            except MovedAside as moved:
                moved_to, reason = moved.target, moved.reason
            else:
                if damage is None:
                    return report
                return replace(report, log_damaged=True, moved_to=copied, error=str(damage))
            _LOGGER.warning(
                "%s database %s was unusable (%s); moved it to %s and started a new one",
                self.label.capitalize(),
                self.path,
                reason,
                moved_to,
            )
            try:
                report = self._connect()
            except MovedAside as err:
                raise self.error(f"could not create {self.path}: {err}") from err
            return replace(report, recovered=True, moved_to=moved_to, error=reason)

    def close(self) -> None:
        """Checkpoint the write-ahead log into the file (unless read-only) and close."""
        with self._lock:
            conn, self._conn = self._conn, None
            writable = self._newer_version is None
            self._newer_version = None
            self._closed()
            if conn is not None:
                with suppress(sqlite3.Error):
                    if writable:
                        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                with suppress(sqlite3.Error):
                    conn.close()

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def read_only(self) -> bool:
        return self._newer_version is not None

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

    # ------------------------------------------------------------------ what a store says

    def _check_layout(self, conn: sqlite3.Connection, version: int) -> None:
        """The file's tables are what `version` says they are, else `UnusableFile`."""
        raise NotImplementedError

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        """Bring the schema from `version` to the current one inside the caller's
        transaction, recording the new version in `schema_version`."""
        raise NotImplementedError

    def _load(self, conn: sqlite3.Connection, report: OpenReport, writable: bool) -> OpenReport:
        """Read what the store keeps in memory once the schema is right (inside the opening
        transaction when `writable`); may return a richer report."""
        return report

    def _closed(self) -> None:
        """Forget what `_load` read."""

    # ------------------------------------------------------------------ transactions

    def _now(self) -> str:
        return as_utc(self._clock()).isoformat(timespec="microseconds")

    def _require(self) -> sqlite3.Connection:
        if self._conn is None:
            raise self.error(f"the {self.label} store is not open")
        return self._conn

    def _reading(self) -> AbstractContextManager[sqlite3.Connection]:
        return reading(self._require(), self.error, self.what)

    def _writing(self) -> AbstractContextManager[sqlite3.Connection]:
        conn = self._require()
        if self._newer_version is not None:
            raise self.newer_schema_error(self.label, self._newer_version, self.schema_version)
        return writing(conn, self.error, self.what)

    # ------------------------------------------------------------------ open and migrate

    def _connect(self) -> OpenReport:
        """Open the file, check it, migrate it, load it; keep the connection only on success."""
        try:
            conn = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
        except sqlite3.Error as err:
            raise self.error(f"could not open {self.path}: {err}") from err
        try:
            report = self._prepare(conn)
        except (sqlite3.Error, UnusableFile) as err:
            if isinstance(err, sqlite3.Error) and not is_corruption(err, self.path):
                conn.close()
                raise self.error(f"could not open {self.path}: {err}") from err
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
        self._newer_version = report.schema_version if report.read_only else None
        return report

    def _move_aside(self) -> Path:
        return move_aside(self.path, self._clock(), self.error)

    def _prepare(self, conn: sqlite3.Connection) -> OpenReport:
        conn.execute("PRAGMA foreign_keys=ON")
        check = conn.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            raise UnusableFile("; ".join(str(row[0]) for row in check[:5]))
        version = file_version(conn)
        if version > self.schema_version:
            # Read what we can, write nothing: not even the journal mode.
            conn.execute("PRAGMA query_only=ON")
            mode = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
            _LOGGER.warning(
                "%s database %s has schema version %s (this code knows %s); read-only",
                self.label.capitalize(),
                self.path,
                version,
                self.schema_version,
            )
            report = OpenReport(
                path=self.path, schema_version=version, read_only=True, journal_mode=mode
            )
            return self._load(conn, report, writable=False)
        self._check_layout(conn, version)
        mode = str(conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]).lower()
        conn.execute("PRAGMA synchronous=NORMAL")
        migrated_from: int | None = None
        with transaction(conn):
            # Another process may have migrated it between our read and our lock.
            version = file_version(conn)
            if version > self.schema_version:  # upgraded by a newer process since our look
                raise self.error(f"{self.path} was upgraded while opening; open it again")
            if version < self.schema_version:
                self._check_layout(conn, version)
                migrated_from = version
                self._migrate(conn, version)
            self._check_layout(conn, self.schema_version)
            report = OpenReport(
                path=self.path,
                schema_version=self.schema_version,
                migrated_from=migrated_from,
                journal_mode=mode,
            )
            return self._load(conn, report, writable=True)
