"""The view rule file's schema: the tables of each version and how to tell them apart."""

from __future__ import annotations

import sqlite3

from ..base.sqlite_file import SCHEMA_VERSION_DDL, UnusableFile, columns, tables

MAX_NAME_LENGTH = 100

SCHEMA_VERSION = 2

# Version 1: what the first release shipped. One table, names unique case-sensitively, no
# rewrite note, no error column, no revision history.
SCHEMA_V1: tuple[str, ...] = (
    SCHEMA_VERSION_DDL,
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

# Version 2: names unique regardless of case, a rewrite note and the last error per rule, and
# the revision history.
SCHEMA_V2: tuple[str, ...] = (
    SCHEMA_VERSION_DDL,
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
RULE_SELECT = f"SELECT {', '.join(_RULE_COLUMNS)} FROM view_rules"
REVISION_SELECT = f"SELECT {', '.join(_REVISION_COLUMNS)} FROM view_rule_revisions"
# Newest first. rowid breaks ties between revisions written within the same microsecond.
REVISION_ORDER = "ORDER BY created_at DESC, rowid DESC"


def check_layout(conn: sqlite3.Connection, version: int) -> None:
    """The file's tables are what `version` says they are, else `UnusableFile`."""
    found = tables(conn)
    if version == 0:
        return
    if version == 1:
        expected = {"schema_version", "view_rules"}
        if found != expected or columns(conn, "view_rules") != _V1_RULE_COLUMNS:
            raise UnusableFile("schema version 1 without the version 1 tables")
        return
    if version == 2:
        expected = {"schema_version", "view_rules", "view_rule_revisions"}
        if (
            found != expected
            or columns(conn, "view_rules") != set(_RULE_COLUMNS)
            or columns(conn, "view_rule_revisions") != set(_REVISION_COLUMNS)
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


def unique_name(raw: str, taken: set[str]) -> str:
    base = raw.strip()[:MAX_NAME_LENGTH] or "view rule"
    candidate = base
    counter = 1
    while candidate.casefold() in taken:
        counter += 1
        suffix = f" ({counter})"
        candidate = base[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
    taken.add(candidate.casefold())
    return candidate
