"""Reading a SQLite write-ahead log before SQLite does, to tell a damaged one from a sound one.

When SQLite opens a database after a crash it replays the `-wal` file frame by frame and stops,
without a word, at the first frame whose checksum or salt is wrong: every transaction committed
after that point is gone, and the database opens as if they had never happened. A store that
opened it so would answer with data older than what it acknowledged. This module walks the log
as SQLite's recovery does (the format is documented at https://sqlite.org/fileformat.html,
"The Write-Ahead Log") and reports damage: a frame of the log's current generation (same salts
as its header) that comes after a frame that fails the check. A last frame that is only half
written, or frames of an older generation left behind a reset, are how a sound log ends and
are not damage.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

WAL_HEADER = 32
FRAME_HEADER = 24
_MAGIC_LITTLE, _MAGIC_BIG = 0x377F0682, 0x377F0683
_MASK = 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class WalDamage:
    """Where SQLite would stop replaying, and how many frames it would drop from there."""

    frame: int  # 1-based number of the first frame that fails the check; 0: the log's header
    lost: int  # frames of the current generation from there on

    def __str__(self) -> str:
        where = "its header" if self.frame == 0 else f"frame {self.frame}"
        return (
            f"damaged write-ahead log: {where} fails its checksum, {self.lost} frame(s) "
            "written after that could not be read"
        )


def checksum(data: bytes, big_endian: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    """SQLite's cumulative WAL checksum of `data` (a multiple of 8 bytes), from (s0, s1)."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & _MASK
        s1 = (s1 + words[i + 1] + s0) & _MASK
    return s0, s1


def wal_damage(path: Path) -> WalDamage | None:
    """The damage in the write-ahead log of the database at `path` (its `-wal` file), or None
    when there is no log or SQLite can replay all of it that was committed."""
    wal = path.with_name(path.name + "-wal")
    try:
        data = wal.read_bytes()
    except OSError:
        return None
    if len(data) < WAL_HEADER:
        return None
    magic, _version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:32])
    if magic not in (_MAGIC_LITTLE, _MAGIC_BIG) or not _valid_page_size(page_size):
        return None  # not a log SQLite would read at all: nothing it would replay
    big_endian = magic == _MAGIC_BIG
    frame_size = FRAME_HEADER + page_size
    frames = (len(data) - WAL_HEADER) // frame_size
    salts = (salt1, salt2)
    s0, s1 = checksum(data[:24], big_endian)
    bad: int | None = -1 if (s0, s1) != (c0, c1) else None  # the header: every frame dropped
    for n in range(frames):
        start = WAL_HEADER + n * frame_size
        header = struct.unpack(">6I", data[start : start + FRAME_HEADER])
        current = (header[2], header[3]) == salts
        if bad is not None:
            if current:  # the writer went on past the frame that fails
                return WalDamage(bad + 1, _current(data, max(bad, 0), frames, frame_size, salts))
            continue
        page = data[start + FRAME_HEADER : start + frame_size]
        t0, t1 = checksum(data[start : start + 8] + page, big_endian, s0, s1)
        if not current or header[0] == 0 or (t0, t1) != (header[4], header[5]):
            bad = n
            continue
        s0, s1 = t0, t1
    return None


def _current(data: bytes, first: int, frames: int, size: int, salts: tuple[int, int]) -> int:
    """Frames of the current generation from frame index `first` on."""
    return sum(
        1
        for n in range(first, frames)
        if struct.unpack(">2I", data[WAL_HEADER + n * size + 8 : WAL_HEADER + n * size + 16])
        == salts
    )


def _valid_page_size(size: int) -> bool:
    return 512 <= size <= 65536 and size & (size - 1) == 0
