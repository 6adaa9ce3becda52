"""core/base/sqlite_wal.py and the stores: a write-ahead log left by a crash is checked before
SQLite replays it; a damaged one (SQLite would silently drop every transaction after the damage)
is reported, copied aside, and what can be read is kept; a closed store leaves no log."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from custom_components.context_retrieval.core.base.sqlite_wal import (
    FRAME_HEADER,
    WAL_HEADER,
    wal_damage,
)
from custom_components.context_retrieval.core.views.store import ViewRuleStore

PAGE = 4096
RULE = '{"kind": "group", "op": "AND", "children": [{"kind": "tag", "tag": "灯"}]}'
FRAME = FRAME_HEADER + PAGE


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


@pytest.fixture
def crashed(tmp_path: Path) -> Iterator[Path]:
    """A database with 300 committed transactions still in its log, as a process killed
    with -9 leaves it (the files copied while the connection is open)."""
    live = tmp_path / "live.db"
    conn = sqlite3.connect(live, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x TEXT)")
    for i in range(300):
        conn.execute("INSERT INTO t VALUES (?)", (f"{'x' * 50} {i}",))
    copy = tmp_path / "crashed.db"
    shutil.copy(live, copy)
    shutil.copy(_wal(live), _wal(copy))
    conn.close()
    yield copy


def _flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    path.write_bytes(bytes(data))


def _frames(path: Path) -> int:
    return (_wal(path).stat().st_size - WAL_HEADER) // FRAME


def _rows(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM t").fetchone()[0])
    finally:
        conn.close()


def test_a_sound_log_is_not_damage(crashed: Path) -> None:
    assert _frames(crashed) > 100
    assert wal_damage(crashed) is None
    assert _rows(crashed) == 300


def test_no_log_is_not_damage(tmp_path: Path) -> None:
    assert wal_damage(tmp_path / "missing.db") is None


def test_a_damaged_frame_in_the_middle_is_found(crashed: Path) -> None:
    frames = _frames(crashed)
    _flip(_wal(crashed), WAL_HEADER + 100 * FRAME + FRAME_HEADER + 2000)
    damage = wal_damage(crashed)
    assert damage is not None and damage.frame == 101 and damage.lost == frames - 100
    assert "frame 101" in str(damage)
    # What SQLite does with it on its own: opens, and silently answers with less.
    assert _rows(crashed) < 300


def test_a_damaged_header_is_found(crashed: Path) -> None:
    _flip(_wal(crashed), 12)  # the checkpoint sequence: covered by the header's checksum
    damage = wal_damage(crashed)
    assert damage is not None and damage.frame == 0 and damage.lost == _frames(crashed)


def test_a_half_written_last_frame_is_how_a_crash_ends_not_damage(crashed: Path) -> None:
    last = _frames(crashed) - 1
    _flip(_wal(crashed), WAL_HEADER + last * FRAME + FRAME_HEADER + 10)
    assert wal_damage(crashed) is None


def test_frames_of_an_older_generation_behind_a_reset_are_not_damage(tmp_path: Path) -> None:
    path = tmp_path / "reused.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x TEXT)")
    for i in range(200):
        conn.execute("INSERT INTO t VALUES (?)", (str(i),))
    conn.execute("PRAGMA wal_checkpoint(RESTART)")
    conn.execute("INSERT INTO t VALUES ('new generation')")  # rewrites the log from the start
    copy = tmp_path / "copy.db"
    shutil.copy(path, copy)
    shutil.copy(_wal(path), _wal(copy))
    conn.close()
    assert _frames(copy) > 10
    assert wal_damage(copy) is None
    assert _rows(copy) == 201


def test_a_store_keeps_what_it_can_read_and_copies_the_damage_aside(tmp_path: Path) -> None:
    path = tmp_path / "views.db"
    store = ViewRuleStore(path)
    store.open()
    for i in range(40):  # a few hundred frames: no automatic checkpoint yet
        store.publish(
            f"view {i:03d}", "灯", '{"op":"and","children":[]}', "deterministic", None, "1"
        )
    crashed = tmp_path / "crashed" / "views.db"
    crashed.parent.mkdir()
    shutil.copy(path, crashed)
    shutil.copy(_wal(path), _wal(crashed))
    store.close()
    assert 100 < _frames(crashed) < 1000
    _flip(_wal(crashed), WAL_HEADER + (_frames(crashed) // 2) * FRAME + FRAME_HEADER + 100)
    damaged_log = _wal(crashed).read_bytes()

    again = ViewRuleStore(crashed)
    report = again.open()
    assert report.log_damaged and not report.recovered
    assert report.error and "write-ahead log" in report.error
    assert report.moved_to is not None
    assert _wal(report.moved_to).read_bytes() == damaged_log
    kept = again.list()
    assert 0 < len(kept) < 40  # the part before the damage
    again.close()
    assert not again.open().log_damaged  # reported once: the log is sound now
    again.close()


def test_closing_a_store_checkpoints_its_log(tmp_path: Path) -> None:
    path = tmp_path / "views.db"
    store = ViewRuleStore(path)
    store.open()
    for i in range(50):
        store.publish(
            f"view {i:03d}", "灯", '{"op":"and","children":[]}', "deterministic", None, "1"
        )
    assert _wal(path).stat().st_size > 0
    store.close()
    assert not _wal(path).exists() or _wal(path).stat().st_size == 0
    store.open()
    assert len(store.list()) == 50
    store.close()


@pytest.mark.parametrize(
    ("offset", "value"),
    [(0, 0x12345678), (8, 1000), (8, 256), (8, 131072)],  # the magic; page sizes SQLite never uses
)
def test_a_log_sqlite_would_not_read_at_all_is_no_damage(
    crashed: Path, offset: int, value: int
) -> None:
    """SQLite ignores such a log instead of replaying part of it: there is nothing to lose."""
    wal = _wal(crashed)
    data = bytearray(wal.read_bytes())
    data[offset : offset + 4] = value.to_bytes(4, "big")
    wal.write_bytes(bytes(data))
    assert wal_damage(crashed) is None
