"""core/views/store.py: persistence of view rules and their revisions."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from custom_components.context_retrieval.core.views import store as view_store
from custom_components.context_retrieval.core.views.schema import (
    SCHEMA_V1,
    SCHEMA_V2,
    SCHEMA_VERSION,
)
from custom_components.context_retrieval.core.views.store import (
    NewerSchemaError,
    RevisionNotFound,
    RuleNotFound,
    ViewRuleStore,
    ViewStoreError,
)

LIGHTS = json.dumps({"kind": "group", "op": "AND", "children": [{"kind": "tag", "tag": "灯"}]})
XMAS = json.dumps(
    {
        "kind": "group",
        "op": "AND",
        "children": [
            {"kind": "tag", "tag": "christmas"},
            {
                "kind": "group",
                "op": "OR",
                "children": [
                    {"kind": "tag", "tag": "area:living room"},
                    {"kind": "tag", "tag": "area:porch"},
                ],
            },
        ],
    }
)


def rule_json(n: int) -> str:
    return json.dumps(
        {"kind": "group", "op": "OR", "children": [{"kind": "tag", "tag": f"tag{n}"}]}
    )


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float = 1.0) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "context_retrieval_views.db"


@pytest.fixture
def store(db_path: Path, clock: Clock):
    s = ViewRuleStore(db_path, clock=clock)
    s.open()
    yield s
    s.close()


def publish_n(store: ViewRuleStore, clock: Clock, name: str, count: int) -> None:
    for n in range(1, count + 1):
        clock.advance()
        store.publish(name, f"v{n}", rule_json(n), "deterministic")


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(path))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------- schema and migrations


def test_new_file_gets_the_seed_schema(db_path: Path, clock: Clock) -> None:
    s = ViewRuleStore(db_path, clock=clock)
    report = s.open()
    s.close()
    assert report.schema_version == SCHEMA_VERSION == 2
    assert report.migrated_from == 0
    assert not report.recovered and report.moved_to is None and report.error is None
    with raw(db_path) as conn:
        rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
        sql = dict(rows.fetchall())
        versions = conn.execute("SELECT version, applied_at FROM schema_version").fetchall()
    assert set(sql) == {
        "schema_version",
        "view_rules",
        "view_rule_revisions",
        "idx_view_rules_created_at",
        "idx_view_rules_updated_at",
        "idx_view_rules_name_nocase",
        "idx_view_rule_revisions_view_rule",
    }
    assert "ON view_rules(name COLLATE NOCASE)" in sql["idx_view_rules_name_nocase"]
    assert sql["idx_view_rules_name_nocase"].startswith("CREATE UNIQUE INDEX")
    assert "ON DELETE CASCADE" in sql["view_rule_revisions"]
    assert versions == [(2, "2025-01-01T12:00:00.000000+00:00")]


def test_empty_file_is_migrated_and_reopening_does_nothing(db_path: Path, clock: Clock) -> None:
    db_path.touch()
    first = ViewRuleStore(db_path, clock=clock)
    assert first.open().migrated_from == 0
    first.publish("lights", "灯", LIGHTS, "deterministic")
    first.close()

    second = ViewRuleStore(db_path, clock=clock)
    report = second.open()
    assert report.migrated_from is None and report.schema_version == 2
    assert second.get("lights") is not None
    second.close()
    with raw(db_path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (1,)


def make_v1(path: Path, rows: list[tuple[str, ...]]) -> None:
    conn = raw(path)
    for statement in SCHEMA_V1:
        conn.execute(statement)
    conn.execute("INSERT INTO schema_version VALUES (1, '2024-06-01T00:00:00.000000+00:00')")
    conn.executemany("INSERT INTO view_rules VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()


V1_ROWS = [
    ("a" * 32, "Lights", "灯", LIGHTS, "1", "deterministic",
     "2024-06-01T00:00:00.000000+00:00", "2024-06-02T00:00:00.000000+00:00"),
    ("b" * 32, "lights", "lamps", LIGHTS, "1", "llm",
     "2024-06-03T00:00:00.000000+00:00", "2024-06-03T00:00:00.000000+00:00"),
    ("c" * 32, "  christmas  ", "christmas and (living room or porch)", XMAS, "1",
     "deterministic", "2024-06-04T00:00:00.000000+00:00", "2024-06-05T00:00:00.000000+00:00"),
]  # fmt: skip


def test_v1_file_is_migrated_with_its_data(db_path: Path, clock: Clock) -> None:
    make_v1(db_path, V1_ROWS)
    s = ViewRuleStore(db_path, clock=clock)
    report = s.open()
    assert report.migrated_from == 1 and report.schema_version == 2 and not report.recovered

    rules = {r.id: r for r in s.list()}
    assert set(rules) == {"a" * 32, "b" * 32, "c" * 32}
    first, second, xmas = rules["a" * 32], rules["b" * 32], rules["c" * 32]
    # The oldest keeps its spelling; the one v1 allowed but v2's NOCASE index forbids is renamed.
    assert first.name == "Lights" and second.name == "lights (2)"
    assert xmas.name == "christmas"
    assert (xmas.rule_nl, xmas.rule_json, xmas.parse_version, xmas.compile_source) == (
        "christmas and (living room or porch)",
        XMAS,
        "1",
        "deterministic",
    )
    assert (xmas.created_at, xmas.updated_at) == (V1_ROWS[2][6], V1_ROWS[2][7])
    assert xmas.rewrite_note is None and xmas.last_error is None
    assert second.compile_source == "llm"
    # Each rule's current version is its first revision: the baseline for rollback.
    [baseline] = s.revisions("CHRISTMAS")
    assert (baseline.view_rule_id, baseline.rule_json, baseline.created_at) == (
        xmas.id,
        XMAS,
        xmas.updated_at,
    )

    clock.advance()
    s.publish("christmas", "christmas", rule_json(1), "deterministic")
    assert s.rollback("christmas").rule_json == XMAS
    assert s.integrity_check()
    s.close()

    with raw(db_path) as conn:
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (2,)
        table_sql = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'view_rules'"
        ).fetchone()[0]
        assert table_sql == SCHEMA_V2[1].replace(" IF NOT EXISTS", "")
        assert conn.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'idx_view_rules_name_nocase'"
        ).fetchone() == (1,)


def test_failed_migration_leaves_the_v1_file_as_it_was(
    db_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_v1(db_path, V1_ROWS)
    original = ViewRuleStore._migrate_1_to_2

    def half_then_fail(self: ViewRuleStore, conn: sqlite3.Connection) -> None:
        conn.execute("DROP TABLE view_rules")
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(ViewRuleStore, "_migrate_1_to_2", half_then_fail)
    s = ViewRuleStore(db_path, clock=clock)
    with pytest.raises(ViewStoreError, match="disk is full"):
        s.open()
    assert db_path.exists() and not list(db_path.parent.glob("*.corrupt-*"))
    with raw(db_path) as conn:
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (1,)
        assert conn.execute("SELECT COUNT(*) FROM view_rules").fetchone() == (3,)

    monkeypatch.setattr(ViewRuleStore, "_migrate_1_to_2", original)
    assert s.open().migrated_from == 1
    assert len(s.list()) == 3
    s.close()


def test_v1_version_with_a_foreign_layout_is_moved_aside(db_path: Path, clock: Clock) -> None:
    with raw(db_path) as conn:
        conn.execute(SCHEMA_V1[0])
        conn.execute("INSERT INTO schema_version VALUES (1, 'x')")
        conn.execute("CREATE TABLE view_rules (id TEXT PRIMARY KEY, title TEXT)")
    s = ViewRuleStore(db_path, clock=clock)
    report = s.open()
    assert report.recovered and report.moved_to is not None and report.moved_to.exists()
    assert report.migrated_from == 0 and s.list() == []
    s.close()


# ---------------------------------------------------------------- CRUD and names


def test_create_get_list_update_delete(store: ViewRuleStore, clock: Clock, db_path: Path) -> None:
    created = store.publish("Christmas", "christmas and (living room or porch)", XMAS, "llm",
                            rewrite_note="kept both areas")  # fmt: skip
    assert len(created.id) == 32 and int(created.id, 16) >= 0
    assert created.created_at == created.updated_at == "2025-01-01T12:00:00.000000+00:00"
    assert (created.compile_source, created.rewrite_note, created.parse_version) == (
        "llm",
        "kept both areas",
        "1",
    )
    store.publish("灯", "灯", LIGHTS, "deterministic")
    store.publish("alarm", "alarm", rule_json(1), "deterministic")
    assert [r.name for r in store.list()] == ["alarm", "Christmas", "灯"]

    clock.advance(60)
    updated = store.publish("christmas", "christmas", rule_json(2), "deterministic",
                            parse_version="2")  # fmt: skip
    assert updated.id == created.id and updated.created_at == created.created_at
    assert updated.updated_at == "2025-01-01T12:01:00.000000+00:00"
    assert (updated.rule_json, updated.rewrite_note, updated.parse_version) == (
        rule_json(2),
        None,
        "2",
    )
    assert store.get("CHRISTMAS") == updated
    assert store.get("nothing") is None
    assert updated.as_dict()["name"] == "christmas"

    assert store.delete("  Christmas ")
    assert not store.delete("Christmas")
    assert store.get("christmas") is None
    with raw(db_path) as conn:
        left = conn.execute(
            "SELECT COUNT(*) FROM view_rule_revisions WHERE view_rule_id = ?", (created.id,)
        ).fetchone()
    assert left == (0,)
    assert [r.name for r in store.list()] == ["alarm", "灯"]
    assert store.integrity_check()


def test_names_are_unique_regardless_of_case(store: ViewRuleStore, db_path: Path) -> None:
    first = store.publish("Living Room", "a", rule_json(1), "deterministic")
    second = store.publish("LIVING ROOM", "b", rule_json(2), "deterministic")
    assert second.id == first.id and second.name == "LIVING ROOM"
    assert len(store.list()) == 1
    # Beyond ASCII, which SQLite's NOCASE does not fold.
    cyr = store.publish("Свет", "свет", rule_json(3), "deterministic")
    assert store.publish("СВЕТ", "свет", rule_json(4), "deterministic").id == cyr.id
    assert store.get("свет") is not None
    assert len(store.list()) == 2
    # The database enforces it too.
    with raw(db_path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO view_rules VALUES ('x', 'living room', 'a', '{}', '1', "
            "'deterministic', NULL, NULL, 't', 't')"
        )


@pytest.mark.parametrize("name", ["", "   ", "x" * 101, None])
def test_bad_names_are_rejected(store: ViewRuleStore, name: object) -> None:
    with pytest.raises(ValueError):
        store.publish(name, "a", rule_json(1), "deterministic")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        store.get(name)  # type: ignore[arg-type]
    assert store.list() == []


def test_names_are_trimmed_and_may_be_100_characters(store: ViewRuleStore) -> None:
    assert store.publish("  porch  ", "a", rule_json(1), "deterministic").name == "porch"
    long_name = " " + "y" * 100 + " "
    assert store.publish(long_name, "a", rule_json(1), "deterministic").name == "y" * 100


@pytest.mark.parametrize(
    ("rule_nl", "rule", "source"),
    [
        ("a", rule_json(1), "regex"),
        ("a", "{not json", "llm"),
        ("a", "[1, 2]", "llm"),
        ("  ", rule_json(1), "llm"),
    ],
)
def test_bad_rule_fields_are_rejected(
    store: ViewRuleStore, rule_nl: str, rule: str, source: str
) -> None:
    store.publish("kept", "kept", LIGHTS, "deterministic")
    with pytest.raises(ValueError):
        store.publish("kept", rule_nl, rule, source)
    kept = store.get("kept")
    assert kept is not None and kept.rule_json == LIGHTS
    assert len(store.revisions("kept")) == 1


# ---------------------------------------------------------------- revisions and rollback


def test_only_the_newest_five_revisions_are_kept(store: ViewRuleStore, clock: Clock) -> None:
    publish_n(store, clock, "view", 8)
    history = store.revisions("VIEW")
    assert [r.rule_nl for r in history] == ["v8", "v7", "v6", "v5", "v4"]
    assert [r.created_at for r in history] == sorted((r.created_at for r in history), reverse=True)
    rule = store.get("view")
    assert rule is not None and {r.view_rule_id for r in history} == {rule.id}
    assert len({r.id for r in history}) == 5
    with pytest.raises(RuleNotFound):
        store.revisions("nothing")


def test_revision_order_survives_a_stopped_or_backward_clock(db_path: Path, clock: Clock) -> None:
    s = ViewRuleStore(db_path, clock=clock, keep_revisions=3)
    s.open()
    for n in range(1, 5):  # the same microsecond every time
        s.publish("view", f"v{n}", rule_json(n), "deterministic")
    clock.advance(-3600)
    s.publish("view", "v5", rule_json(5), "deterministic")
    assert [r.rule_nl for r in s.revisions("view")] == ["v5", "v4", "v3"]
    assert s.rollback("view").rule_nl == "v4"
    s.close()


def test_rollback_to_the_latest_earlier_revision(store: ViewRuleStore, clock: Clock) -> None:
    publish_n(store, clock, "view", 3)
    clock.advance()
    restored = store.rollback("View")
    assert (restored.rule_nl, restored.rule_json) == ("v2", rule_json(2))
    assert restored.updated_at == "2025-01-01T12:00:04.000000+00:00"
    # The restored version is recorded as a new revision.
    assert [r.rule_nl for r in store.revisions("view")] == ["v2", "v3", "v2", "v1"]
    # Rolling back again undoes the rollback.
    clock.advance()
    assert store.rollback("view").rule_nl == "v3"


def test_rollback_to_a_given_revision(store: ViewRuleStore, clock: Clock) -> None:
    publish_n(store, clock, "view", 4)
    target = next(r for r in store.revisions("view") if r.rule_nl == "v2")
    clock.advance()
    restored = store.rollback("VIEW", target.id)
    assert (restored.rule_nl, restored.rule_json, restored.compile_source) == (
        "v2",
        rule_json(2),
        "deterministic",
    )
    assert store.get("view") == restored
    newest = store.revisions("view")[0]
    assert newest.rule_nl == "v2" and newest.id != target.id
    assert len(store.revisions("view")) == 5


def test_rollback_errors(store: ViewRuleStore, clock: Clock) -> None:
    store.publish("single", "only", rule_json(1), "deterministic")
    with pytest.raises(RevisionNotFound):
        store.rollback("single")
    publish_n(store, clock, "other", 2)
    other_revision = store.revisions("other")[1]
    with pytest.raises(RevisionNotFound):
        store.rollback("single", other_revision.id)
    with pytest.raises(RevisionNotFound):
        store.rollback("other", "0" * 32)
    with pytest.raises(RuleNotFound):
        store.rollback("nothing")
    single = store.get("single")
    assert single is not None and single.rule_nl == "only"
    assert len(store.revisions("single")) == 1


def test_record_error_leaves_the_published_rule(store: ViewRuleStore, clock: Clock) -> None:
    publish_n(store, clock, "view", 2)
    before = store.get("view")
    clock.advance()
    store.record_error("VIEW", "PARSE_ERROR at 4: unexpected ')'")
    after = store.get("view")
    assert before is not None and after is not None
    assert after.last_error == "PARSE_ERROR at 4: unexpected ')'"
    assert after.as_dict() | {"last_error": None} == before.as_dict()
    assert len(store.revisions("view")) == 2
    # A successful rollback (or publish) clears it.
    assert store.rollback("view").last_error is None
    store.record_error("view", "again")
    assert store.publish("view", "v9", rule_json(9), "llm").last_error is None
    with pytest.raises(RuleNotFound):
        store.record_error("nothing", "x")


# ---------------------------------------------------------------- failures keep the published rule


def test_failed_update_leaves_the_published_rule(
    store: ViewRuleStore, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    publish_n(store, clock, "view", 2)
    before = store.get("view")
    history = store.revisions("view")

    def broken(*args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "_insert_revision", broken)
    clock.advance()
    with pytest.raises(ViewStoreError, match="disk I/O error"):
        store.publish("view", "v3", rule_json(3), "llm")
    with pytest.raises(ViewStoreError):
        store.publish("brand new", "x", rule_json(3), "llm")
    with pytest.raises(ViewStoreError):
        store.rollback("view")

    def not_sqlite(*args: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(store, "_insert_revision", not_sqlite)
    with pytest.raises(RuntimeError):
        store.publish("view", "v3", rule_json(3), "llm")

    assert store.get("view") == before
    assert store.revisions("view") == history
    assert store.get("brand new") is None
    monkeypatch.undo()
    assert store.publish("view", "v3", rule_json(3), "llm").rule_nl == "v3"


def test_connection_lost_mid_update_leaves_the_published_rule(
    store: ViewRuleStore, clock: Clock, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    publish_n(store, clock, "view", 2)
    before = store.get("view")

    def lose_connection(conn: sqlite3.Connection, *args: object) -> None:
        conn.close()

    monkeypatch.setattr(store, "_insert_revision", lose_connection)
    with pytest.raises(ViewStoreError):
        store.publish("view", "v3", rule_json(3), "llm")
    store.close()

    again = ViewRuleStore(db_path, clock=clock)
    assert not again.open().recovered
    assert again.get("view") == before
    assert [r.rule_nl for r in again.revisions("view")] == ["v2", "v1"]
    assert again.integrity_check()
    again.close()


# ---------------------------------------------------------------- corrupt and unreadable files


def write_random(path: Path) -> None:
    path.write_bytes(random.Random(0).randbytes(8192))


def write_text(path: Path) -> None:
    path.write_text("automation:\n  - alias: not a database\n" * 20, encoding="utf-8")


def write_truncated(path: Path) -> None:
    s = ViewRuleStore(path)
    s.open()
    for n in range(60):
        s.publish(f"rule {n}", "x" * 500, rule_json(n), "deterministic")
    s.close()
    data = path.read_bytes()
    assert len(data) > 40_000
    path.write_bytes(data[: len(data) // 2])


def write_foreign(path: Path) -> None:
    with raw(path) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        conn.execute("INSERT INTO notes (body) VALUES ('hello')")


def write_missing_table(path: Path) -> None:
    with raw(path) as conn:
        for statement in SCHEMA_V2:
            conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (2, 'x')")
        conn.execute("DROP TABLE view_rule_revisions")


@pytest.mark.parametrize(
    "spoil",
    [write_random, write_text, write_truncated, write_foreign, write_missing_table],
    ids=["random-bytes", "text-file", "truncated-db", "foreign-schema", "missing-table"],
)
def test_unusable_file_is_moved_aside_and_replaced(
    db_path: Path, clock: Clock, spoil: object
) -> None:
    spoil(db_path)  # type: ignore[operator]
    original = db_path.read_bytes()
    s = ViewRuleStore(db_path, clock=clock)
    report = s.open()
    assert report.recovered and report.error
    assert report.moved_to == db_path.with_name(db_path.name + ".corrupt-20250101T120000Z")
    assert report.moved_to.read_bytes() == original
    assert report.schema_version == 2 and report.migrated_from == 0
    assert report.journal_mode == "wal"
    assert s.list() == []
    s.publish("lights", "灯", LIGHTS, "deterministic")
    assert s.integrity_check()
    s.close()
    again = ViewRuleStore(db_path, clock=clock)
    assert not again.open().recovered
    assert again.get("lights") is not None
    again.close()


def test_an_earlier_casualty_is_not_overwritten(db_path: Path, clock: Clock) -> None:
    write_random(db_path)
    previous = db_path.with_name(db_path.name + ".corrupt-20250101T120000Z")
    previous.write_bytes(b"an earlier casualty")
    s = ViewRuleStore(db_path, clock=clock)
    report = s.open()
    assert report.moved_to == db_path.with_name(db_path.name + ".corrupt-20250101T120000Z-2")
    assert previous.read_bytes() == b"an earlier casualty"
    assert s.list() == []
    s.close()


def test_side_files_move_with_the_file(db_path: Path, clock: Clock) -> None:
    # SQLite deletes a junk -wal when it closes; one kept by another reader must not be
    # replayed into the fresh database, so it goes with the file it belongs to.
    for suffix, body in (("", b"main"), ("-wal", b"wal"), ("-shm", b"shm")):
        db_path.with_name(db_path.name + suffix).write_bytes(body)
    moved = ViewRuleStore(db_path, clock=clock)._move_aside()
    assert not any(db_path.parent.glob(db_path.name + "-*"))
    assert not db_path.exists()
    for suffix, body in (("", b"main"), ("-wal", b"wal"), ("-shm", b"shm")):
        assert moved.with_name(moved.name + suffix).read_bytes() == body


def test_wal_of_a_corrupt_file_is_kept(db_path: Path, clock: Clock) -> None:
    # A crash leaves committed data in the -wal only; the main file then goes bad. Recovery
    # must keep that -wal beside the moved file, not let SQLite delete it on close.
    source = db_path.with_name("source.db")
    writer = sqlite3.connect(str(source))
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE t(x TEXT)")
    writer.execute("INSERT INTO t VALUES ('only in the wal')")
    writer.commit()
    wal_bytes = source.with_name("source.db-wal").read_bytes()
    assert b"only in the wal" in wal_bytes
    spoiled = bytearray(source.read_bytes())
    spoiled[100:4096] = b"\xff" * (4096 - 100)  # keep the header, wreck the schema page
    db_path.write_bytes(bytes(spoiled))
    db_path.with_name(db_path.name + "-wal").write_bytes(wal_bytes)
    writer.close()
    s = ViewRuleStore(db_path, clock=clock)
    report = s.open()
    assert report.recovered and report.moved_to is not None
    kept = report.moved_to.with_name(report.moved_to.name + "-wal")
    assert kept.exists() and b"only in the wal" in kept.read_bytes()
    assert s.list() == []
    s.close()


# ---------------------------------------------------------------- a newer schema


def test_newer_schema_is_read_but_never_written(db_path: Path, clock: Clock) -> None:
    s = ViewRuleStore(db_path, clock=clock)
    s.open()
    publish_n(s, clock, "view", 2)
    s.close()
    with raw(db_path) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("ALTER TABLE view_rules ADD COLUMN icon TEXT")
        conn.execute("CREATE TABLE view_rule_shares (id TEXT PRIMARY KEY)")
        conn.execute("INSERT INTO schema_version VALUES (3, 'later')")
    before = digest(db_path)

    newer = ViewRuleStore(db_path, clock=clock)
    report = newer.open()
    assert report.read_only and newer.read_only
    assert report.schema_version == 3 and not report.recovered and report.migrated_from is None
    rule = newer.get("view")
    assert rule is not None and rule.rule_nl == "v2"
    assert [r.rule_nl for r in newer.revisions("view")] == ["v2", "v1"]
    writes = [
        lambda: newer.publish("view", "v3", rule_json(3), "llm"),
        lambda: newer.publish("new", "v3", rule_json(3), "llm"),
        lambda: newer.delete("view"),
        lambda: newer.rollback("view"),
        lambda: newer.record_error("view", "x"),
    ]
    for write in writes:
        with pytest.raises(NewerSchemaError) as caught:
            write()
        assert caught.value.found == 3 and caught.value.supported == 2
        assert isinstance(caught.value, ViewStoreError)
    newer.close()
    assert digest(db_path) == before
    assert not list(db_path.parent.glob("*.corrupt-*"))


# ---------------------------------------------------------------- connection settings and threads


def test_wal_and_pragmas(store: ViewRuleStore, db_path: Path) -> None:
    store.publish("lights", "灯", LIGHTS, "deterministic")
    with raw(db_path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn = store._conn
    assert conn is not None
    assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert conn.execute("PRAGMA synchronous").fetchone() == (1,)  # NORMAL


def test_open_close_lifecycle(db_path: Path, clock: Clock) -> None:
    s = ViewRuleStore(db_path, clock=clock)
    with pytest.raises(ViewStoreError, match="not open"):
        s.list()
    assert s.open().journal_mode == "wal"
    with pytest.raises(ViewStoreError, match="already open"):
        s.open()
    s.close()
    s.close()
    with ViewRuleStore(db_path, clock=clock) as again:
        assert again.list() == []
    with pytest.raises(ValueError):
        ViewRuleStore(db_path, keep_revisions=0)


def test_naive_clock_is_taken_as_utc(db_path: Path) -> None:
    with ViewRuleStore(db_path, clock=lambda: datetime(2025, 3, 1, 8, 30)) as s:
        rule = s.publish("lights", "灯", LIGHTS, "deterministic")
    assert rule.created_at == "2025-03-01T08:30:00.000000+00:00"
    assert datetime.fromisoformat(rule.created_at).utcoffset() == timedelta(0)


def test_two_threads_are_serialised(db_path: Path) -> None:
    inside = 0
    most = 0
    guard = threading.Lock()

    def slow_clock() -> datetime:
        # Called while the store's lock is held: it must never see a second caller.
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
        time.sleep(0.001)
        with guard:
            inside -= 1
        return datetime.now(UTC)

    s = ViewRuleStore(db_path, clock=slow_clock)
    s.open()
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def work(name: str) -> None:
        try:
            start.wait()
            for n in range(25):
                s.publish(name, f"v{n}", rule_json(n), "deterministic")
                assert s.get(name) is not None
                s.list()
            s.rollback(name)
        except BaseException as err:  # surfaced below
            errors.append(err)

    threads = [threading.Thread(target=work, args=(name,)) for name in ("left", "right")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert most == 1
    for name in ("left", "right"):
        rule = s.get(name)
        assert rule is not None and rule.rule_nl == "v23"
        assert [r.rule_nl for r in s.revisions(name)] == ["v23", "v24", "v23", "v22", "v21"]
    assert s.integrity_check()
    s.close()


def test_module_has_no_home_assistant_imports() -> None:
    source = Path(view_store.__file__).read_text(encoding="utf-8")
    assert "homeassistant" not in source
