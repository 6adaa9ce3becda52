"""What the SQLite stores (view rules, question plans) share: transactions that report in the
store's own error type, recognising a damaged file, and moving one aside with its -wal/-shm."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path


class MovedAside(Exception):
    """The file was unusable and now lies at `target`."""

    def __init__(self, target: Path, reason: str) -> None:
        super().__init__(reason)
        self.target = target
        self.reason = reason


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
def reading(conn: sqlite3.Connection, error: type[Exception],
            what: str) -> Iterator[sqlite3.Connection]:
    """A read whose SQLite failures surface as `error` ("reading <what> failed")."""
    try:
        yield conn
    except sqlite3.Error as err:
        raise error(f"reading {what} failed: {err}") from err


@contextmanager
def writing(conn: sqlite3.Connection, error: type[Exception],
            what: str) -> Iterator[sqlite3.Connection]:
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


def move_aside(path: Path, moment: datetime, error: type[Exception]) -> Path:
    """Rename the file (and its -wal/-shm) to `<name>.corrupt-<UTC time>`."""
    stamp = as_utc(moment).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
    try:
        path.rename(target)
        for suffix in ("-wal", "-shm", "-journal"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(target.with_name(target.name + suffix))
    except OSError as err:
        raise error(f"could not move the unusable {path} aside: {err}") from err
    return target
