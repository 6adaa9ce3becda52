"""core/base/sqlite_file.py: what every store of the engine does alike, on a store of notes."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

import pytest

from custom_components.context_retrieval.core.base import sqlite_file
from custom_components.context_retrieval.core.base.sqlite_file import (
    SCHEMA_VERSION_DDL,
    NewerSchema,
    SQLiteStore,
    UnusableFile,
    columns,
    tables,
)

MOMENT = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)


class NoteError(Exception):
    pass


class NewerNotes(NoteError, NewerSchema):
    pass


class NoteStore(SQLiteStore):
    label: ClassVar[str] = "note"
    what: ClassVar[str] = "notes"
    schema_version: ClassVar[int] = 1
    error: ClassVar[type[Exception]] = NoteError
    newer_schema_error: ClassVar[type[NewerSchema]] = NewerNotes

    def _check_layout(self, conn: sqlite3.Connection, version: int) -> None:
        if version == 1 and (
            tables(conn) != {"schema_version", "notes"} or columns(conn, "notes") != {"text"}
        ):
            raise UnusableFile("not the notes tables")

    def _migrate(self, conn: sqlite3.Connection, version: int) -> None:
        conn.execute(SCHEMA_VERSION_DDL)
        conn.execute("CREATE TABLE notes (text TEXT NOT NULL)")
        conn.execute("INSERT INTO schema_version VALUES (1, ?)", (self._now(),))

    def add(self, text: str) -> None:
        with self._lock, self._writing() as conn:
            conn.execute("INSERT INTO notes VALUES (?)", (text,))

    def all(self) -> list[str]:
        with self._lock, self._reading() as conn:
            return [row[0] for row in conn.execute("SELECT text FROM notes ORDER BY rowid")]


def test_a_new_file_is_created_in_wal_mode(tmp_path: Path) -> None:
    store = NoteStore(tmp_path / "deep" / "notes.db", clock=lambda: MOMENT)
    with pytest.raises(NoteError, match="the note store is not open"):
        store.all()
    report = store.open()
    assert (report.schema_version, report.migrated_from, report.journal_mode) == (1, 0, "wal")
    assert not report.recovered and not report.read_only and not store.read_only
    with pytest.raises(NoteError, match="already open"):
        store.open()
    store.add("milk")
    store.close()
    with NoteStore(tmp_path / "deep" / "notes.db") as again:
        assert again.all() == ["milk"]
        assert again.integrity_check()


def test_a_failed_write_is_rolled_back_and_reported_as_the_stores_error(tmp_path: Path) -> None:
    with NoteStore(tmp_path / "notes.db") as store:
        store.add("kept")
        with (
            pytest.raises(NoteError, match="writing notes failed"),
            store._lock,
            store._writing() as conn,
        ):
            conn.execute("INSERT INTO notes VALUES ('lost')")
            conn.execute("INSERT INTO notes VALUES (NULL)")  # NOT NULL: the write fails
        with pytest.raises(RuntimeError), store._lock, store._writing() as conn:
            conn.execute("INSERT INTO notes VALUES ('lost too')")
            raise RuntimeError("not a database error")
        assert store.all() == ["kept"]


@pytest.mark.parametrize("junk", [b"not a database at all" * 50, b""])
def test_an_unusable_file_is_moved_aside_with_its_side_files(tmp_path: Path, junk: bytes) -> None:
    path = tmp_path / "notes.db"
    if junk:
        path.write_bytes(junk)
    else:  # a database, but not ours
        with sqlite3.connect(path) as other:
            other.execute("CREATE TABLE strangers (x)")
    path.with_name("notes.db-wal").write_bytes(b"wal")
    with NoteStore(path, clock=lambda: MOMENT) as store:
        store.add("fresh")
        assert store.all() == ["fresh"]
    moved = {p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name}
    assert {"notes.db.corrupt-20250102T030405Z", "notes.db.corrupt-20250102T030405Z-wal"} <= moved
    assert (tmp_path / "notes.db.corrupt-20250102T030405Z-wal").read_bytes() == b"wal"


def test_recovery_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"garbage" * 100)
    store = NoteStore(path, clock=lambda: MOMENT)
    report = store.open()
    assert report.recovered and report.error and report.migrated_from == 0
    assert report.moved_to == tmp_path / "notes.db.corrupt-20250102T030405Z"
    store.close()


def test_a_newer_file_is_read_only(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    with NoteStore(path) as store:
        store.add("from before")
    with sqlite3.connect(path) as other:
        other.execute("INSERT INTO schema_version VALUES (2, 'later')")
    store = NoteStore(path)
    report = store.open()
    assert report.read_only and report.schema_version == 2 and store.read_only
    assert store.all() == ["from before"]
    with pytest.raises(NewerNotes) as caught:
        store.add("new")
    assert caught.value.found == 2 and caught.value.supported == 1
    assert str(caught.value) == (
        "the note database has schema version 2, this version of the integration knows up "
        "to 1; it is opened read-only"
    )
    store.close()
    assert not store.read_only


def test_a_file_upgraded_while_opening_is_not_touched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notes.db"
    with NoteStore(path) as store:
        store.add("kept")
    seen = iter([1, 2])  # our first look, then the look under the lock
    monkeypatch.setattr(sqlite_file, "file_version", lambda conn: next(seen))
    with pytest.raises(NoteError, match="upgraded while opening"):
        NoteStore(path).open()
    monkeypatch.undo()
    with NoteStore(path) as store:
        assert store.all() == ["kept"]
    assert not [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]


def test_file_version_reads_the_version_table(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "v.db")
    assert sqlite_file.file_version(conn) == 0
    conn.execute("CREATE TABLE other (x)")
    with pytest.raises(UnusableFile, match="unrecognised schema"):
        sqlite_file.file_version(conn)
    conn.execute(SCHEMA_VERSION_DDL)
    with pytest.raises(UnusableFile, match="invalid schema version"):
        sqlite_file.file_version(conn)
    conn.execute("INSERT INTO schema_version VALUES (3, 'x'), (1, 'y')")
    assert sqlite_file.file_version(conn) == 3
    conn.close()


def _sqlite_error(code: int | None) -> sqlite3.Error:
    err = sqlite3.OperationalError("failed")
    if code is not None:
        err.sqlite_errorcode = code
    return err


@pytest.mark.parametrize(
    ("code", "exists", "corrupt"),
    [
        (11, True, True),  # SQLITE_CORRUPT
        (26, True, True),  # SQLITE_NOTADB
        (11 | (1 << 8), True, True),  # an extended code of CORRUPT
        (14, True, True),  # CANTOPEN of a file that is there: the file is the problem
        (14, False, False),  # CANTOPEN of a missing file: its folder is
        (5, True, False),  # BUSY: a lock, not the file
        (10, True, False),  # IOERR
        (None, True, False),  # no code at all
    ],
)
def test_only_errors_about_the_file_itself_count_as_corruption(
    tmp_path: Path, code: int | None, exists: bool, corrupt: bool
) -> None:
    path = tmp_path / "notes.db"
    if exists:
        path.write_bytes(b"")
    assert sqlite_file.is_corruption(_sqlite_error(code), path) is corrupt
