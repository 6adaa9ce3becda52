"""Persistence of view rules: the published rules and their last few revisions.

A single SQLite file (in Home Assistant's config directory) with two tables: `view_rules` holds
the published version of each rule, `view_rule_revisions` the last few published versions of it
(for rollback). Stdlib `sqlite3` only; nothing here knows about Home Assistant. What every store
guarantees (one lock, one transaction per write, a damaged file moved aside, a newer schema
opened read-only) is `base.sqlite_file.SQLiteStore`'s; here a failed update never replaces the
published rule. `open()` creates or migrates the schema (0 → 2, 1 → 2).

Names are trimmed, 1–100 characters, and unique regardless of case. The index
`idx_view_rules_name_nocase` enforces that for ASCII (SQLite's NOCASE); lookups also compare
`str.casefold()` so "Свет" and "свет" are one rule too.
"""

from __future__ import annotations

import builtins
import json
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from ..base.sqlite_file import NewerSchema, SQLiteStore, UnusableFile
from .schema import (
    MAX_NAME_LENGTH,
    REVISION_ORDER,
    REVISION_SELECT,
    RULE_SELECT,
    SCHEMA_V2,
    SCHEMA_VERSION,
    check_layout,
    unique_name,
)

DEFAULT_KEEP_REVISIONS = 5
COMPILE_SOURCES = ("deterministic", "llm")


def _check_rule(
    rule_nl: object,
    rule_json: object,
    compile_source: object,
    parse_version: object,
    rewrite_note: object,
) -> None:
    """Raise ValueError saying which of a rule's fields is not what the store keeps."""
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


class NewerSchemaError(ViewStoreError, NewerSchema):
    """The file was written by a newer version of the integration; it is kept read-only."""


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


class ViewRuleStore(SQLiteStore):
    """The view rule repository. Call `open()` first; every method may block (disk I/O)."""

    label: ClassVar[str] = "view rule"
    what: ClassVar[str] = "view rules"
    schema_version: ClassVar[int] = SCHEMA_VERSION
    error: ClassVar[type[Exception]] = ViewStoreError
    newer_schema_error: ClassVar[type[NewerSchema]] = NewerSchemaError

    def __init__(
        self,
        path: Path,
        clock: Callable[[], datetime] | None = None,
        keep_revisions: int = DEFAULT_KEEP_REVISIONS,
    ) -> None:
        if keep_revisions < 1:
            raise ValueError("keep_revisions must be at least 1")
        super().__init__(path, clock)
        self.keep_revisions = keep_revisions

    # ------------------------------------------------------------------ reads

    def get(self, name: str) -> ViewRule | None:
        """The published rule with this name (case-insensitive), or None."""
        key = clean_name(name)
        with self._lock, self._reading() as conn:
            return self._find(conn, key)

    def list(self) -> builtins.list[ViewRule]:
        """Every published rule, by name (case-insensitive)."""
        with self._lock, self._reading() as conn:
            rows = conn.execute(f"{RULE_SELECT} ORDER BY name COLLATE NOCASE, name").fetchall()
        return [_rule(row) for row in rows]

    def revisions(self, name: str) -> builtins.list[ViewRuleRevision]:
        """The kept revisions of a rule, newest first; `RuleNotFound` if there is no such rule."""
        key = clean_name(name)
        with self._lock, self._reading() as conn:
            rule = self._find(conn, key)
            if rule is None:
                raise RuleNotFound(key)
            return self._revisions(conn, rule.id)

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
        _check_rule(rule_nl, rule_json, compile_source, parse_version, rewrite_note)
        fields = (rule_nl, rule_json, parse_version, compile_source, rewrite_note)
        with self._lock, self._writing() as conn:
            existing = self._find(conn, key)
            if existing is None:
                rule_id = uuid.uuid4().hex
                now = self._now()
                conn.execute(
                    "INSERT INTO view_rules (id, name, rule_nl, rule_json, parse_version, "
                    "compile_source, rewrite_note, last_error, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
                    (rule_id, key, *fields, now, now),
                )
            else:
                rule_id = existing.id
                now = self._revision_time(conn, rule_id)
                conn.execute(
                    "UPDATE view_rules SET name = ?, rule_nl = ?, rule_json = ?, "
                    "parse_version = ?, compile_source = ?, rewrite_note = ?, last_error = NULL, "
                    "updated_at = ? WHERE id = ?",
                    (key, *fields, now, rule_id),
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
        row = conn.execute(f"{RULE_SELECT} WHERE name = ? COLLATE NOCASE", (key,)).fetchone()
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
        row = conn.execute(f"{RULE_SELECT} WHERE id = ?", (rule_id,)).fetchone()
        if row is None:  # pragma: no cover - only if the row vanished inside our transaction
            raise ViewStoreError(f"view rule {rule_id} disappeared")
        return _rule(row)

    def _revisions(self, conn: sqlite3.Connection, rule_id: str) -> builtins.list[ViewRuleRevision]:
        rows = conn.execute(
            f"{REVISION_SELECT} WHERE view_rule_id = ? {REVISION_ORDER}", (rule_id,)
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
            f"SELECT id FROM view_rule_revisions WHERE view_rule_id = ? {REVISION_ORDER} "
            "LIMIT ?)",
            (rule_id, rule_id, self.keep_revisions),
        )

    def _revision_time(self, conn: sqlite3.Connection, rule_id: str) -> str:
        """Now, but never before the rule's newest revision (a clock set back keeps the order)."""
        now = self._now()
        row = conn.execute(
            "SELECT MAX(created_at) FROM view_rule_revisions WHERE view_rule_id = ?", (rule_id,)
        ).fetchone()
        newest = row[0] if row else None
        return newest if isinstance(newest, str) and newest > now else now

    # ------------------------------------------------------------------ internals: schema

    def _check_layout(self, conn: sqlite3.Connection, version: int) -> None:
        check_layout(conn, version)

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
        """v1 → v2: names unique regardless of case, one revision per rule.

        The table is rebuilt (not altered) so the file ends up with exactly the v2 DDL.
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
            unique = unique_name(str(name), taken)
            conn.execute(
                "INSERT INTO view_rules (id, name, rule_nl, rule_json, parse_version, "
                "compile_source, rewrite_note, last_error, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)",
                (rule_id, unique, nl, rule_json, parse_version, source, created, updated),
            )
            self._insert_revision(
                conn, rule_id, nl, rule_json, parse_version, source, None, updated
            )
