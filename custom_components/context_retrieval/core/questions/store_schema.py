"""The question cache's file: its tables, how to tell them apart, rows as `StoredPlan`s, and
the forms a question is stored in (normalised text, words for full-text search).

The full-text table (FTS5) is optional: it is created when the SQLite build has FTS5, and is
not part of the versioned layout, so a file written with it opens on a build without it and
vice versa (it is rebuilt when out of step).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from ..base.sqlite_file import SCHEMA_VERSION_DDL, UnusableFile, columns, tables
from ..base.text import normalize, tokens

PLAN_SOURCES = ("deterministic", "llm", "manual")

SCHEMA_VERSION = 1
FTS_TABLE = "query_plan_fts"

SCHEMA_V1: tuple[str, ...] = (
    SCHEMA_VERSION_DDL,
    """CREATE TABLE IF NOT EXISTS query_plans (
  id TEXT PRIMARY KEY,
  question TEXT NOT NULL,
  normalized TEXT NOT NULL,
  language TEXT NOT NULL,
  slots TEXT NOT NULL DEFAULT '{}',
  plan_json TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('deterministic', 'llm', 'manual')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  usage_count INTEGER NOT NULL DEFAULT 0,
  is_valid INTEGER NOT NULL DEFAULT 1,
  last_result TEXT,
  last_error TEXT,
  UNIQUE (language, normalized)
)""",
    "CREATE INDEX IF NOT EXISTS idx_query_plans_usage_count ON query_plans(usage_count)",
    """CREATE TABLE IF NOT EXISTS query_plan_vectors (
  plan_id TEXT PRIMARY KEY REFERENCES query_plans(id) ON DELETE CASCADE,
  dim INTEGER NOT NULL,
  vector BLOB NOT NULL
)""",
)

# Optional: created when the SQLite build has FTS5. Not part of the versioned layout, so a file
# written with it opens on a build without it and vice versa (it is rebuilt when out of step).
# `text` holds the question's word tokens separated by spaces, each CJK character on its own.
FTS_DDL = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5("
    "plan_id UNINDEXED, text, tokenize = 'unicode61')"
)
_FTS_SHADOW_SUFFIXES = ("", "_data", "_idx", "_content", "_docsize", "_config")

MIGRATIONS: dict[int, tuple[str, ...]] = {0: SCHEMA_V1}  # from version → statements

PLAN_COLUMNS = (
    "id",
    "question",
    "normalized",
    "language",
    "slots",
    "plan_json",
    "source",
    "created_at",
    "updated_at",
    "usage_count",
    "is_valid",
    "last_result",
    "last_error",
)
VECTOR_COLUMNS = ("plan_id", "dim", "vector")
PLAN_SELECT = f"SELECT {', '.join(PLAN_COLUMNS)} FROM query_plans"
PLAN_SELECT_P = f"SELECT {', '.join('p.' + c for c in PLAN_COLUMNS)} FROM query_plans p"
LIST_ORDER = "ORDER BY usage_count DESC, updated_at DESC, id"


# Characters stripped from both ends of a question: sentence punctuation and quotes (after
# NFKC the full-width ？！，；：～ are already their ASCII forms).
_EDGE_PUNCTUATION = "?!.,;:~…。、，．？！；：～·¿¡\"'“”‘’«»「」『』"


def normalize_question(text: str) -> str:
    """The form a question is matched by: `text.normalize`, no punctuation at either end, one
    space between words. "哪些灯开着？" and " 哪些灯开着 " are the same question."""
    if not isinstance(text, str):
        return ""
    folded = normalize(text)
    stripped = folded.strip(_EDGE_PUNCTUATION + " ")
    return " ".join(stripped.split())


def search_tokens(normalized: str) -> tuple[str, ...]:
    """Word tokens (every CJK character one token) that carry a letter or digit."""
    return tuple(t for t in tokens(normalized) if any(ch.isalnum() for ch in t))


def fts_text(normalized: str) -> str:
    return " ".join(search_tokens(normalized))


def fts_query(question_tokens: Iterable[str]) -> str:
    """An FTS5 query matching any of the tokens. Each token is a double-quoted string (quotes
    doubled), so nothing the user typed can act as FTS syntax (OR, NEAR(, *, ^, column:)."""
    unique = dict.fromkeys(question_tokens)
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in unique)


@dataclass(frozen=True, slots=True)
class StoredPlan:
    """One cached question and its plan: a row of `query_plans`, JSON decoded."""

    id: str
    question: str
    normalized: str
    language: str
    slots: dict[str, Any]
    plan: dict[str, Any]
    source: str
    created_at: str
    updated_at: str
    usage_count: int
    is_valid: bool
    last_result: dict[str, Any] | None
    last_error: str | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@cache
def fts5_available() -> bool:
    """Whether this Python's SQLite library was built with FTS5."""
    try:
        conn = sqlite3.connect(":memory:")
    except sqlite3.Error:  # pragma: no cover
        return False
    try:
        conn.execute("CREATE VIRTUAL TABLE probe USING fts5(text)")
        return True
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def fts_tables() -> frozenset[str]:
    return frozenset(FTS_TABLE + suffix for suffix in _FTS_SHADOW_SUFFIXES)


def fts_in_step(conn: sqlite3.Connection) -> bool:
    """Read-only use of an existing FTS table: only if it is readable and has every row."""
    if FTS_TABLE not in tables(conn) or not fts5_available():
        return False
    try:
        present = {str(r[0]) for r in conn.execute(f"SELECT plan_id FROM {FTS_TABLE}")}
        ids = {str(r[0]) for r in conn.execute("SELECT id FROM query_plans")}
    except sqlite3.Error:
        return False
    return present == ids


def check_layout(conn: sqlite3.Connection, version: int) -> None:
    """The file's tables are what `version` says they are, else `UnusableFile`."""
    if version == 0:
        return
    if version == 1:
        found = tables(conn) - fts_tables()
        expected = {"schema_version", "query_plans", "query_plan_vectors"}
        if (
            found != expected
            or columns(conn, "query_plans") != set(PLAN_COLUMNS)
            or columns(conn, "query_plan_vectors") != set(VECTOR_COLUMNS)
        ):
            raise UnusableFile("schema version 1 without the version 1 tables")
        return
    raise UnusableFile(f"unknown schema version {version}")  # pragma: no cover


def dump_json(value: Any, what: str) -> str:
    """Strict JSON (no NaN/Infinity); `ValueError` for anything that does not serialise."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as err:
        raise ValueError(f"{what} is not JSON-serialisable: {err}") from err


def load_object(raw: Any) -> dict[str, Any] | None:
    """The JSON object in `raw`, or None when it is missing, malformed or not an object."""
    if not isinstance(raw, str):
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def as_int(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default


def decode_row(row: sqlite3.Row | tuple[Any, ...]) -> StoredPlan:
    """A row of `query_plans` as a `StoredPlan`; a malformed plan or slots makes it invalid."""
    (
        plan_id,
        question,
        normalized,
        language,
        slots_raw,
        plan_raw,
        source,
        created_at,
        updated_at,
        usage_count,
        is_valid,
        last_result_raw,
        last_error,
    ) = row
    plan = load_object(plan_raw)
    slots = load_object(slots_raw)
    valid = bool(as_int(is_valid, 0)) and plan is not None and slots is not None
    return StoredPlan(
        id=str(plan_id),
        question=str(question),
        normalized=str(normalized),
        language=str(language),
        slots=slots if slots is not None else {},
        plan=plan if plan is not None else {},
        source=str(source),
        created_at=str(created_at),
        updated_at=str(updated_at),
        usage_count=as_int(usage_count),
        is_valid=valid,
        last_result=load_object(last_result_raw),
        last_error=None if last_error is None else str(last_error),
    )


def clean_language(language: str) -> str:
    if not isinstance(language, str) or not language.strip():
        raise ValueError("language must be a non-empty string")
    return language.strip().lower()


def clean_question(question: str) -> str:
    if not isinstance(question, str):
        raise ValueError("question must be a string")
    normalized = normalize_question(question)
    if not normalized:
        raise ValueError("question must contain more than punctuation and spaces")
    return normalized


def clean_plan(plan: Any) -> str:
    if not isinstance(plan, dict):
        raise ValueError("plan must be a dict (a JSON object)")
    return dump_json(plan, "plan")
