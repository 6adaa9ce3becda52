"""core/questions/store.py: the learning cache of questions → query plans."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from custom_components.context_retrieval.core.base.vector_search import HashingVectorizer
from custom_components.context_retrieval.core.questions import store_search
from custom_components.context_retrieval.core.questions.store import (
    NewerSchemaError,
    PlanNotFound,
    PlanStore,
    PlanStoreError,
)
from custom_components.context_retrieval.core.questions.store_schema import (
    FTS_TABLE,
    SCHEMA_V1,
    SCHEMA_VERSION,
    StoredPlan,
    normalize_question,
)

LIGHTS_ON = {"kind": "query", "domain": "light", "state": "on"}
TEMPERATURE = {"kind": "query", "area": "客厅", "attribute": "temperature"}
HOSTILE = [
    '"',
    "*",
    "NEAR(",
    "OR",
    ")",
    "",
    "   ",
    "？",
    '"灯',
    "lights*",
    'a" OR "b',
    "^x:y",
    "NEAR(lights on, 2)",
    "AND NOT",
    "-",
    "(",
    "lights) OR (",
    "'",
]


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
    return tmp_path / "context_retrieval_plans.db"


@pytest.fixture
def store(db_path: Path, clock: Clock):
    s = PlanStore(db_path, clock=clock)
    s.open()
    yield s
    s.close()


@pytest.fixture(params=[True, False], ids=["fts", "scan"])
def any_store(request: pytest.FixtureRequest, db_path: Path, clock: Clock):
    """The store with FTS5 and with the token-overlap fallback."""
    s = PlanStore(db_path, clock=clock, use_fts=request.param)
    assert s.open().fts is request.param
    yield s
    s.close()


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(path))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def seed(s: PlanStore) -> dict[str, StoredPlan]:
    return {
        "lights": s.save("哪些灯开着？", "zh", LIGHTS_ON, "llm"),
        "temp": s.save("客厅温度多少", "zh", TEMPERATURE, "deterministic"),
        "en": s.save("Which lights are on?", "en", LIGHTS_ON, "llm"),
        "en_temp": s.save("What is the temperature in the kitchen", "en", TEMPERATURE, "manual"),
    }


# ---------------------------------------------------------------- schema


def test_new_file_gets_the_schema(db_path: Path, clock: Clock) -> None:
    s = PlanStore(db_path, clock=clock)
    report = s.open()
    s.close()
    assert report.schema_version == SCHEMA_VERSION == 1
    assert report.migrated_from == 0 and not report.read_only and not report.recovered
    assert report.journal_mode == "wal" and report.fts is True and report.plans == 0
    with raw(db_path) as conn:
        sql = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"))
        versions = conn.execute("SELECT version, applied_at FROM schema_version").fetchall()
    assert {
        "schema_version",
        "query_plans",
        "query_plan_vectors",
        "idx_query_plans_usage_count",
        FTS_TABLE,
    } <= set(sql)
    assert "UNIQUE (language, normalized)" in sql["query_plans"]
    assert "CHECK (source IN ('deterministic', 'llm', 'manual'))" in sql["query_plans"]
    assert "ON DELETE CASCADE" in sql["query_plan_vectors"]
    assert "fts5" in sql[FTS_TABLE]
    assert versions == [(1, "2025-01-01T12:00:00.000000+00:00")]


def test_reopening_does_not_migrate_again(db_path: Path, clock: Clock) -> None:
    with PlanStore(db_path, clock=clock) as s:
        s.save("lights on", "en", LIGHTS_ON, "llm")
    again = PlanStore(db_path, clock=clock)
    report = again.open()
    assert report.migrated_from is None and report.plans == 1
    again.close()
    with raw(db_path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (1,)


def test_the_source_check_constraint_holds(store: PlanStore, db_path: Path) -> None:
    store.save("lights on", "en", LIGHTS_ON, "llm")
    with raw(db_path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE query_plans SET source = 'guess'")


def test_store_must_be_open(db_path: Path) -> None:
    s = PlanStore(db_path)
    with pytest.raises(PlanStoreError, match="not open"):
        s.get("x")
    with pytest.raises(PlanStoreError, match="not open"):
        s.save("lights on", "en", LIGHTS_ON, "llm")
    s.open()
    with pytest.raises(PlanStoreError, match="already open"):
        s.open()
    s.close()
    s.close()  # closing twice is harmless


# ---------------------------------------------------------------- normalisation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("哪些灯开着？", "哪些灯开着"),
        ("  哪些灯开着 ! ", "哪些灯开着"),
        ("哪些灯开着。", "哪些灯开着"),
        ("Which   Lights are ON?!", "which lights are on"),
        ("¿Qué luces están encendidas?", "qué luces están encendidas"),
        ("ＷＨＩＣＨ ｌｉｇｈｔｓ？", "which lights"),
        ("“客厅温度”", "客厅温度"),
        ("set it to 25%", "set it to 25%"),
        ("...", ""),
        ("", ""),
    ],
)
def test_normalize_question(text: str, expected: str) -> None:
    assert normalize_question(text) == expected


# ---------------------------------------------------------------- save / get


def test_round_trip(store: PlanStore, clock: Clock) -> None:
    saved = store.save("  哪些灯开着？ ", "ZH", LIGHTS_ON, "llm", slots={"area": None, "n": 2})
    assert len(saved.id) == 32 and int(saved.id, 16) >= 0
    assert saved.question == "哪些灯开着？"
    assert saved.normalized == "哪些灯开着"
    assert saved.language == "zh"
    assert saved.plan == LIGHTS_ON and saved.slots == {"area": None, "n": 2}
    assert saved.source == "llm" and saved.is_valid is True
    assert saved.usage_count == 0 and saved.last_result is None and saved.last_error is None
    assert saved.created_at == saved.updated_at == "2025-01-01T12:00:00.000000+00:00"
    assert store.get(saved.id) == saved
    assert store.get("no-such-id") is None
    as_dict = saved.as_dict()
    assert json.loads(json.dumps(as_dict)) == as_dict
    assert as_dict["plan"] == LIGHTS_ON and as_dict["is_valid"] is True
    # The returned dicts are copies: changing them does not change the store.
    saved.plan["state"] = "off"
    fetched = store.get(saved.id)
    assert fetched is not None and fetched.plan == LIGHTS_ON


def test_nested_unicode_plan_round_trips(store: PlanStore) -> None:
    plan = {"steps": [{"filter": {"area": "客厅", "tags": ["灯", "ライト"]}}, 1.5, None, True]}
    saved = store.save("客厅的灯", "zh", plan, "manual")
    fetched = store.get(saved.id)
    assert fetched is not None and fetched.plan == plan and fetched.source == "manual"


@pytest.mark.parametrize(
    "plan", [["a"], "plan", None, 3, {"x": {1, 2}}, {"x": float("nan")}, {"x": object()}]
)
def test_plans_must_be_json_objects(store: PlanStore, plan: object) -> None:
    with pytest.raises(ValueError):
        store.save("lights on", "en", plan, "llm")  # type: ignore[arg-type]
    assert store.stats()["count"] == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"source": "guess"}, "source"),
        ({"question": "？！。"}, "question"),
        ({"question": ""}, "question"),
        ({"language": " "}, "language"),
        ({"slots": ["area"]}, "slots"),
        ({"slots": {"when": datetime(2025, 1, 1)}}, "slots"),
    ],
)
def test_save_rejects_bad_arguments(store: PlanStore, kwargs: dict, message: str) -> None:
    args: dict[str, Any] = {
        "question": "lights on",
        "language": "en",
        "plan": LIGHTS_ON,
        "source": "llm",
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        store.save(**args)
    assert store.list() == []


def test_upsert_keeps_id_usage_and_wording(store: PlanStore, clock: Clock) -> None:
    first = store.save("哪些灯开着？", "zh", LIGHTS_ON, "llm", slots={"a": 1})
    store.record_use(first.id, {"count": 3})
    store.record_use(first.id, {"count": 4})
    store.invalidate(first.id, "entity gone")
    clock.advance(60)
    new_plan = {"kind": "query", "domain": "light", "state": "on", "v": 2}
    second = store.save("哪些灯开着", "zh", new_plan, "manual", slots={"b": 2})
    assert second.id == first.id
    assert second.usage_count == 2
    assert second.question == "哪些灯开着？"  # the first wording is kept
    assert second.plan == new_plan and second.slots == {"b": 2} and second.source == "manual"
    assert second.is_valid and second.last_error is None
    assert second.created_at == first.created_at
    assert second.updated_at == "2025-01-01T12:01:00.000000+00:00"
    assert second.last_result is not None and second.last_result["count"] == 4
    assert store.stats()["count"] == 1
    # The same question in another language is another entry.
    other = store.save("哪些灯开着", "ja", new_plan, "llm")
    assert other.id != first.id and store.stats()["count"] == 2


# ---------------------------------------------------------------- exact


def test_exact_matches_the_normalised_question_in_its_language(store: PlanStore) -> None:
    plans = seed(store)
    for question in ("哪些灯开着", "哪些灯开着？", " 哪些灯开着! ", "哪些灯开着…"):
        hit = store.exact(question, "zh")
        assert hit is not None and hit.id == plans["lights"].id, question
    hit = store.exact("WHICH LIGHTS ARE ON", "EN")
    assert hit is not None and hit.id == plans["en"].id
    assert store.exact("哪些灯开着", "en") is None
    assert store.exact("哪些灯", "zh") is None
    assert store.exact("？", "zh") is None


def test_exact_returns_only_valid_plans(store: PlanStore) -> None:
    plans = seed(store)
    store.invalidate(plans["lights"].id, "area removed")
    assert store.exact("哪些灯开着", "zh") is None
    restored = store.update(plans["lights"].id, is_valid=True)
    assert restored.is_valid and restored.last_error is None
    hit = store.exact("哪些灯开着", "zh")
    assert hit is not None and hit.id == plans["lights"].id


# ---------------------------------------------------------------- similar


def test_similar_scores_and_thresholds(store: PlanStore) -> None:
    plans = seed(store)
    hits = store.similar("哪些灯开着")
    assert [p.id for p, _ in hits] == [plans["lights"].id]
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    # The punctuation-only difference is the same question: score 1 even at threshold 1.0.
    exact_hits = store.similar("哪些灯开着？", threshold=1.0)
    assert [p.id for p, _ in exact_hits] == [plans["lights"].id]
    # An unrelated question scores far below the default threshold.
    loose = dict((p.id, score) for p, score in store.similar("哪些灯开着", threshold=0.0))
    assert loose[plans["temp"].id] < 0.3
    assert plans["en"].id not in loose  # nothing in common: never similar
    assert store.similar("客厅温度多少")[0][0].id == plans["temp"].id


def test_similar_is_sorted_and_limited(store: PlanStore) -> None:
    lights = store.save("哪些灯开着", "zh", LIGHTS_ON, "llm")
    off = store.save("哪些灯关着", "zh", {"state": "off"}, "llm")
    store.save("客厅温度多少", "zh", TEMPERATURE, "llm")
    hits = store.similar("哪些灯关了", threshold=0.3)
    assert [p.id for p, _ in hits] == [off.id, lights.id]
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True) and 0.3 <= scores[-1] < scores[0] < 1.0
    assert [p.id for p, _ in store.similar("哪些灯关了", threshold=0.3, limit=1)] == [off.id]
    assert store.similar("哪些灯关了", threshold=0.3, limit=0) == []
    assert store.similar("哪些灯关了", threshold=0.99) == []


def test_similar_ties_go_to_the_more_used_plan(store: PlanStore) -> None:
    en = store.save("lights on", "en", LIGHTS_ON, "llm")
    de = store.save("lights on", "de", LIGHTS_ON, "llm")
    store.record_use(de.id, {})
    assert [p.id for p, _ in store.similar("lights on")] == [de.id, en.id]
    store.record_use(en.id, {})
    store.record_use(en.id, {})
    assert [p.id for p, _ in store.similar("lights on")] == [en.id, de.id]


def test_similar_filters_by_language(store: PlanStore) -> None:
    plans = seed(store)
    assert [p.id for p, _ in store.similar("which lights are on", language="en")] == [
        plans["en"].id
    ]
    assert store.similar("which lights are on", language="zh") == []
    assert store.similar("which lights are on", language="fr") == []
    assert store.similar("", language="en") == []
    assert store.similar("？？", language="en") == []


def test_completing_offers_the_questions_that_go_on_from_what_is_typed(store: PlanStore) -> None:
    """Every whole word typed is one of the question's words and the last one begins one;
    the most used come first, only valid plans, at most `limit` of them."""
    unlocked = store.save("which doors are unlocked?", "en", LIGHTS_ON, "llm")
    opened = store.save("which doors are open?", "en", LIGHTS_ON, "llm")
    store.save("which lights are on?", "en", LIGHTS_ON, "llm")
    store.save("which windows are open?", "en", LIGHTS_ON, "llm")
    store.save("哪些门没锁", "zh", LIGHTS_ON, "llm")
    store.record_use(opened.id, {})
    assert [p.id for p, _ in store.completing("which door", "en")] == [opened.id, unlocked.id]
    assert [p.id for p, _ in store.completing("which door", "en", limit=1)] == [opened.id]
    assert store.completing("which door", "en", limit=0) == []
    assert [p.id for p, _ in store.completing("doors are unl", "en")] == [unlocked.id]
    assert store.completing("which door", "zh") == []
    scores = [score for _, score in store.completing("which door", "en")]
    assert all(0.0 < score < 1.0 for score in scores)
    store.invalidate(opened.id, "stale")
    assert [p.id for p, _ in store.completing("which door", "en")] == [unlocked.id]


def test_completing_offers_five_by_default(store: PlanStore) -> None:
    for i in range(7):
        store.save(f"which doors are open in room {i}?", "en", LIGHTS_ON, "llm")
    assert len(store.completing("which doors are op", "en")) == 5
    assert len(store.completing("which doors are op", "en", limit=6)) == 6


def test_similar_uses_the_given_vectorizer(db_path: Path) -> None:
    s = PlanStore(db_path, vectorizer=HashingVectorizer(dim=64))
    s.open()
    saved = s.save("lights on", "en", LIGHTS_ON, "llm")
    assert [p.id for p, _ in s.similar("lights on!")] == [saved.id]
    s.close()
    with raw(db_path) as conn:
        assert conn.execute("SELECT dim, length(vector) FROM query_plan_vectors").fetchone() == (
            64,
            256,
        )


# ---------------------------------------------------------------- full text


def test_full_text_english_and_chinese(any_store: PlanStore) -> None:
    plans = seed(any_store)
    any_store.save("turn on the kitchen lights", "en", {"x": 1}, "llm")
    assert [p.id for p in any_store.full_text("temperature")] == [plans["en_temp"].id]
    hits = [p.id for p in any_store.full_text("lights", language="en")]
    assert plans["en"].id in hits and len(hits) == 2
    assert [p.id for p in any_store.full_text("温度")] == [plans["temp"].id]
    assert [p.id for p in any_store.full_text("灯开")] == [plans["lights"].id]
    assert [p.id for p in any_store.full_text("客厅的温度是多少？")] == [plans["temp"].id]
    assert any_store.full_text("温度", language="en") == []
    assert any_store.full_text("garage door") == []
    assert len(any_store.full_text("the", limit=1)) == 1
    assert any_store.full_text("lights", limit=0) == []


def test_full_text_ranks_the_closer_question_first(any_store: PlanStore) -> None:
    any_store.save("is the kitchen light on", "en", {"x": 1}, "llm")
    closer = any_store.save("is the kitchen window open", "en", {"x": 2}, "llm")
    assert any_store.full_text("kitchen window open")[0].id == closer.id


@pytest.mark.parametrize("query", HOSTILE)
def test_full_text_never_raises_on_hostile_queries(any_store: PlanStore, query: str) -> None:
    plans = seed(any_store)
    hits = any_store.full_text(query)
    assert all(isinstance(p, StoredPlan) and p.is_valid for p in hits)
    if query == '"灯':
        assert [p.id for p in hits] == [plans["lights"].id]
    if query in ("lights*", "NEAR(lights on, 2)", "lights) OR ("):
        assert plans["en"].id in {p.id for p in hits}
    if query in ('"', "*", "NEAR(", ")", "", "   ", "？", "-", "(", "'"):
        assert hits == []


def test_full_text_treats_operators_as_words(any_store: PlanStore) -> None:
    plain = any_store.save("lights on", "en", LIGHTS_ON, "llm")
    with_or = any_store.save("heating or cooling", "en", {"x": 1}, "llm")
    assert [p.id for p in any_store.full_text("OR")] == [with_or.id]
    assert [p.id for p in any_store.full_text("near")] == []
    assert [p.id for p in any_store.full_text('on"')] == [plain.id]


def test_fallback_file_has_no_fts_table(db_path: Path) -> None:
    with PlanStore(db_path, use_fts=False) as s:
        s.save("lights on", "en", LIGHTS_ON, "llm")
        assert s.stats()["fts"] is False
        assert [p.question for p in s.full_text("lights")] == ["lights on"]
    with raw(db_path) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert FTS_TABLE not in names


def test_fts_is_built_for_a_file_written_without_it(db_path: Path) -> None:
    with PlanStore(db_path, use_fts=False) as s:
        s.save("lights on", "en", LIGHTS_ON, "llm")
        s.save("客厅温度多少", "zh", TEMPERATURE, "llm")
    with PlanStore(db_path) as s:
        assert s.stats()["fts"] is True
        assert [p.question for p in s.full_text("温度")] == ["客厅温度多少"]
        assert [p.question for p in s.full_text("lights")] == ["lights on"]
    with raw(db_path) as conn:
        assert sorted(conn.execute(f"SELECT text FROM {FTS_TABLE}")) == [
            ("lights on",),
            ("客 厅 温 度 多 少",),
        ]


def test_fts_catches_up_with_writes_made_without_it(db_path: Path) -> None:
    with PlanStore(db_path) as s:
        gone = s.save("lights on", "en", LIGHTS_ON, "llm")
    with PlanStore(db_path, use_fts=False) as s:
        assert s.delete(gone.id)
        s.save("garage door open", "en", {"x": 1}, "llm")
    with PlanStore(db_path) as s:
        assert s.full_text("lights") == []
        assert [p.question for p in s.full_text("garage")] == ["garage door open"]
    with raw(db_path) as conn:
        assert conn.execute(f"SELECT text FROM {FTS_TABLE}").fetchall() == [("garage door open",)]


def test_without_fts5_in_sqlite_the_scan_is_used(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_search, "fts5_available", lambda: False)
    s = PlanStore(db_path)
    report = s.open()
    assert report.fts is False and s.stats()["fts"] is False
    saved = s.save("客厅温度多少", "zh", TEMPERATURE, "llm")
    assert [p.id for p in s.full_text("温度")] == [saved.id]
    s.close()


def test_fts_stays_in_step_with_writes(store: PlanStore, db_path: Path) -> None:
    plans = seed(store)
    store.save("哪些灯开着!", "zh", {"v": 2}, "llm")  # an upsert: still one FTS row
    store.delete(plans["temp"].id)
    with raw(db_path) as conn:
        rows = sorted(conn.execute(f"SELECT plan_id, text FROM {FTS_TABLE}"))
    assert rows == sorted(
        [
            (plans["lights"].id, "哪 些 灯 开 着"),
            (plans["en"].id, "which lights are on"),
            (plans["en_temp"].id, "what is the temperature in the kitchen"),
        ]
    )
    assert store.full_text("温度") == []


# ---------------------------------------------------------------- invalidation


def test_invalidate_hides_a_plan_from_every_lookup(any_store: PlanStore) -> None:
    plans = seed(any_store)
    lights = plans["lights"].id
    bad = any_store.invalidate(lights, "light.kitchen no longer exists")
    assert not bad.is_valid and bad.last_error == "light.kitchen no longer exists"
    assert bad.updated_at == plans["lights"].updated_at
    assert any_store.exact("哪些灯开着", "zh") is None
    assert any_store.similar("哪些灯开着") == []
    assert any_store.full_text("灯") == []
    hidden = any_store.similar("哪些灯开着", include_invalid=True)
    assert [(p.id, p.is_valid) for p, _ in hidden] == [(lights, False)]
    fetched = any_store.get(lights)
    assert fetched is not None and not fetched.is_valid
    assert any_store.stats() == {"count": 4, "valid": 3, "invalid": 1, "fts": any_store.use_fts}
    with pytest.raises(PlanNotFound):
        any_store.invalidate("missing", "x")


# ---------------------------------------------------------------- usage


def test_record_use(store: PlanStore, clock: Clock) -> None:
    saved = store.save("lights on", "en", LIGHTS_ON, "llm")
    clock.advance(5)
    used = store.record_use(saved.id, {"answer": "3 lights", "entities": ["light.a"]})
    assert used.usage_count == 1
    assert used.last_result == {
        "answer": "3 lights",
        "entities": ["light.a"],
        "executed_at": "2025-01-01T12:00:05.000000+00:00",
    }
    assert used.updated_at == saved.updated_at
    clock.advance(5)
    again = store.record_use(saved.id, {"answer": "none"})
    assert again.usage_count == 2
    assert again.last_result == {
        "answer": "none",
        "executed_at": "2025-01-01T12:00:10.000000+00:00",
    }
    with pytest.raises(PlanNotFound) as caught:
        store.record_use("missing", {})
    assert caught.value.plan_id == "missing"
    with pytest.raises(ValueError):
        store.record_use(saved.id, ["not", "a", "dict"])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        store.record_use(saved.id, {"bad": {1, 2}})
    fetched = store.get(saved.id)
    assert fetched is not None and fetched.usage_count == 2


# ---------------------------------------------------------------- update / delete / list / stats


def test_update(store: PlanStore, clock: Clock) -> None:
    saved = store.save("lights on", "en", LIGHTS_ON, "llm")
    store.invalidate(saved.id, "broken")
    clock.advance(1)
    replaced = store.update(saved.id, plan={"fixed": True})
    assert replaced.plan == {"fixed": True}
    assert replaced.source == "manual"  # a correction: a newer compiler never replaces it
    assert not replaced.is_valid and replaced.last_error == "broken"  # validity untouched
    assert replaced.updated_at == "2025-01-01T12:00:01.000000+00:00"
    deterministic = store.save("lights off", "en", LIGHTS_ON, "deterministic")
    assert store.update(deterministic.id, is_valid=True).source == "deterministic"
    valid = store.update(saved.id, is_valid=True)
    assert valid.is_valid and valid.last_error is None and valid.plan == {"fixed": True}
    assert store.exact("lights on", "en") == valid
    invalid = store.update(saved.id, is_valid=False)
    assert not invalid.is_valid and store.exact("lights on", "en") is None
    with pytest.raises(PlanNotFound):
        store.update("missing", plan={})
    with pytest.raises(ValueError):
        store.update(saved.id, plan=["x"])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        store.update(saved.id, is_valid="yes")  # type: ignore[arg-type]


def test_delete(store: PlanStore, db_path: Path) -> None:
    plans = seed(store)
    assert store.delete(plans["lights"].id) is True
    assert store.delete(plans["lights"].id) is False
    assert store.get(plans["lights"].id) is None
    assert store.exact("哪些灯开着", "zh") is None
    assert store.similar("哪些灯开着", include_invalid=True) == []
    with raw(db_path) as conn:
        vectors = {r[0] for r in conn.execute("SELECT plan_id FROM query_plan_vectors")}
    assert vectors == {plans["temp"].id, plans["en"].id, plans["en_temp"].id}
    # The other plans still come back from the moved index rows.
    assert store.similar("what is the temperature in the kitchen")[0][0].id == plans["en_temp"].id
    assert store.similar("客厅温度多少")[0][0].id == plans["temp"].id


def test_list_order_paging_and_language(store: PlanStore, clock: Clock) -> None:
    plans = {}
    for name in ("a b", "c d", "e f", "g h"):
        clock.advance()
        plans[name] = store.save(name, "en" if name != "g h" else "de", {"n": name}, "llm")
    store.record_use(plans["c d"].id, {})
    store.record_use(plans["c d"].id, {})
    store.record_use(plans["e f"].id, {})
    # usage desc, then updated_at desc
    assert [p.normalized for p in store.list()] == ["c d", "e f", "g h", "a b"]
    assert [p.normalized for p in store.list(limit=2)] == ["c d", "e f"]
    assert [p.normalized for p in store.list(limit=2, offset=2)] == ["g h", "a b"]
    assert [p.normalized for p in store.list(language="en")] == ["c d", "e f", "a b"]
    assert [p.normalized for p in store.list(language="DE")] == ["g h"]
    assert store.list(limit=0) == []
    assert store.list(offset=10) == []


def test_stats(store: PlanStore) -> None:
    assert store.stats() == {"count": 0, "valid": 0, "invalid": 0, "fts": True}
    plans = seed(store)
    store.invalidate(plans["en"].id, "x")
    store.invalidate(plans["temp"].id, "y")
    assert store.stats() == {"count": 4, "valid": 2, "invalid": 2, "fts": True}


# ---------------------------------------------------------------- persistence


def test_reopen_keeps_plans_and_vectors(db_path: Path, clock: Clock) -> None:
    with PlanStore(db_path, clock=clock) as s:
        plans = seed(s)
        s.record_use(plans["lights"].id, {"n": 1})
        s.invalidate(plans["en"].id, "gone")
    vectorizer = HashingVectorizer()
    with raw(db_path) as conn:
        dim, blob = conn.execute(
            "SELECT dim, vector FROM query_plan_vectors WHERE plan_id = ?", (plans["temp"].id,)
        ).fetchone()
    assert dim == vectorizer.dim
    np.testing.assert_array_equal(
        np.frombuffer(blob, dtype="<f4"), vectorizer.vectorize("客厅温度多少")
    )

    again = PlanStore(db_path, clock=clock)
    report = again.open()
    assert report.plans == 4 and report.vectors_rebuilt == 0
    assert [p.id for p, _ in again.similar("哪些灯开着")] == [plans["lights"].id]
    assert again.similar("which lights are on") == []  # still invalid after reopening
    lights = again.get(plans["lights"].id)
    assert lights is not None and lights.usage_count == 1 and lights.last_result is not None
    assert [p.id for p in again.full_text("温度")] == [plans["temp"].id]
    again.close()


def test_missing_or_foreign_vectors_are_rebuilt(db_path: Path) -> None:
    with PlanStore(db_path) as s:
        plans = seed(s)
    with raw(db_path) as conn:
        conn.execute("DELETE FROM query_plan_vectors WHERE plan_id = ?", (plans["temp"].id,))
        conn.execute(
            "UPDATE query_plan_vectors SET vector = x'00' WHERE plan_id = ?", (plans["en"].id,)
        )
    s = PlanStore(db_path)
    assert s.open().vectors_rebuilt == 2
    assert s.similar("客厅温度多少")[0][0].id == plans["temp"].id
    assert s.similar("which lights are on")[0][0].id == plans["en"].id
    s.close()
    with raw(db_path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM query_plan_vectors").fetchone() == (4,)
    # Another dimension: every stored vector is replaced.
    small = PlanStore(db_path, vectorizer=HashingVectorizer(dim=32))
    assert small.open().vectors_rebuilt == 4
    assert small.similar("客厅温度多少")[0][0].id == plans["temp"].id
    small.close()


def test_a_failed_write_changes_nothing(store: PlanStore, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = store.save("lights on", "en", LIGHTS_ON, "llm")

    def boom(_: str) -> str:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store_search, "fts_text", boom)
    with pytest.raises(RuntimeError):
        store.save("garage door", "en", {"x": 1}, "llm")
    with pytest.raises(RuntimeError):
        store.save("lights on", "en", {"changed": True}, "manual")
    assert store.stats()["count"] == 1
    assert store.get(kept.id) == kept
    assert store.similar("garage door", threshold=0.1) == []


def test_threads_share_one_store(store: PlanStore) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(20):
                saved = store.save(f"question {n} {i}", "en", {"n": n, "i": i}, "llm")
                store.record_use(saved.id, {"i": i})
                store.similar(f"question {n} {i}")
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.stats()["count"] == 80
    assert all(p.usage_count == 1 for p in store.list(limit=100))


# ---------------------------------------------------------------- corrupt and unreadable files


def write_random(path: Path) -> None:
    path.write_bytes(random.Random(0).randbytes(8192))


def write_foreign(path: Path) -> None:
    with raw(path) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")


def write_missing_table(path: Path) -> None:
    with raw(path) as conn:
        for statement in SCHEMA_V1:
            conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (1, 'x')")
        conn.execute("DROP TABLE query_plan_vectors")


@pytest.mark.parametrize(
    "spoil",
    [write_random, write_foreign, write_missing_table],
    ids=["random-bytes", "foreign-schema", "missing-table"],
)
def test_unusable_file_is_moved_aside_and_replaced(
    db_path: Path, clock: Clock, spoil: object
) -> None:
    spoil(db_path)  # type: ignore[operator]
    original = db_path.read_bytes()
    s = PlanStore(db_path, clock=clock)
    report = s.open()
    assert report.recovered and report.error
    assert report.moved_to == db_path.with_name(db_path.name + ".corrupt-20250101T120000Z")
    assert report.moved_to.read_bytes() == original
    assert report.schema_version == 1 and report.migrated_from == 0
    assert report.journal_mode == "wal"
    assert s.list() == []
    saved = s.save("哪些灯开着", "zh", LIGHTS_ON, "llm")
    assert s.exact("哪些灯开着？", "zh") == saved
    s.close()
    again = PlanStore(db_path, clock=clock)
    assert not again.open().recovered
    assert again.get(saved.id) == saved
    again.close()


def test_side_files_move_with_a_corrupt_file(db_path: Path, clock: Clock) -> None:
    write_random(db_path)
    for suffix in ("-wal", "-shm"):
        db_path.with_name(db_path.name + suffix).write_bytes(suffix.encode() * 10)
    s = PlanStore(db_path, clock=clock)
    report = s.open()
    assert report.recovered and report.moved_to is not None
    # The -wal (data) keeps its bytes; SQLite may rewrite the -shm (an index of the -wal).
    assert report.moved_to.with_name(report.moved_to.name + "-wal").read_bytes() == b"-wal" * 10
    assert report.moved_to.with_name(report.moved_to.name + "-shm").exists()
    fresh_wal = db_path.with_name(db_path.name + "-wal")
    assert not fresh_wal.exists() or not fresh_wal.read_bytes().startswith(b"-wal")
    assert s.stats()["count"] == 0
    s.close()


def test_an_earlier_casualty_is_not_overwritten(db_path: Path, clock: Clock) -> None:
    write_random(db_path)
    previous = db_path.with_name(db_path.name + ".corrupt-20250101T120000Z")
    previous.write_bytes(b"earlier")
    s = PlanStore(db_path, clock=clock)
    report = s.open()
    assert report.moved_to == db_path.with_name(db_path.name + ".corrupt-20250101T120000Z-2")
    assert previous.read_bytes() == b"earlier"
    s.close()


# ---------------------------------------------------------------- a newer schema


def test_newer_schema_is_read_but_never_written(db_path: Path, clock: Clock) -> None:
    with PlanStore(db_path, clock=clock) as s:
        plans = seed(s)
    with raw(db_path) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("ALTER TABLE query_plans ADD COLUMN tags TEXT")
        conn.execute("CREATE TABLE query_plan_feedback (id TEXT PRIMARY KEY)")
        conn.execute("INSERT INTO schema_version VALUES (2, 'later')")
    before = digest(db_path)

    newer = PlanStore(db_path, clock=clock)
    report = newer.open()
    assert report.read_only and newer.read_only
    assert report.schema_version == 2 and not report.recovered and report.migrated_from is None
    assert report.fts is True and report.plans == 4  # the FTS table is in step: it is used
    assert newer.get(plans["lights"].id) == plans["lights"]
    assert newer.exact("哪些灯开着", "zh") == plans["lights"]
    assert newer.similar("客厅温度多少")[0][0].id == plans["temp"].id
    assert [p.id for p in newer.full_text("温度")] == [plans["temp"].id]
    assert len(newer.list()) == 4
    lights = plans["lights"].id
    writes = [
        lambda: newer.save("new question", "en", {}, "llm"),
        lambda: newer.save("哪些灯开着", "zh", {}, "llm"),
        lambda: newer.record_use(lights, {}),
        lambda: newer.invalidate(lights, "x"),
        lambda: newer.update(lights, is_valid=False),
        lambda: newer.delete(lights),
    ]
    for write in writes:
        with pytest.raises(NewerSchemaError) as caught:
            write()
        assert caught.value.found == 2 and caught.value.supported == SCHEMA_VERSION
        assert isinstance(caught.value, PlanStoreError)
    assert newer.stats()["count"] == 4
    newer.close()
    assert digest(db_path) == before
    assert not list(db_path.parent.glob("*.corrupt-*"))


def test_a_newer_file_whose_full_text_table_lags_is_searched_without_it(
    db_path: Path, clock: Clock
) -> None:
    """Read-only, the FTS table cannot be rebuilt: one missing a plan is not used, and the
    token-overlap scan still finds every plan."""
    with PlanStore(db_path, clock=clock) as s:
        plans = seed(s)
    with raw(db_path) as conn:
        conn.execute(f"DELETE FROM {FTS_TABLE} WHERE plan_id = ?", (plans["temp"].id,))
        conn.execute("INSERT INTO schema_version VALUES (2, 'later')")
    newer = PlanStore(db_path, clock=clock)
    report = newer.open()
    assert report.read_only and report.fts is False
    assert [p.id for p in newer.full_text("温度")] == [plans["temp"].id]
    newer.close()


# ---------------------------------------------------------------- hand-edited rows


def test_malformed_json_in_a_row_is_tolerated(db_path: Path, clock: Clock) -> None:
    with PlanStore(db_path, clock=clock) as s:
        plans = seed(s)
    with raw(db_path) as conn:
        conn.execute(
            "UPDATE query_plans SET plan_json = '{not json', last_result = 'nope' WHERE id = ?",
            (plans["lights"].id,),
        )
        conn.execute("UPDATE query_plans SET slots = '[1, 2]' WHERE id = ?", (plans["temp"].id,))
        conn.execute(
            "UPDATE query_plans SET plan_json = '[\"a list\"]' WHERE id = ?", (plans["en"].id,)
        )

    s = PlanStore(db_path, clock=clock)
    report = s.open()
    assert not report.recovered and report.plans == 4
    broken = s.get(plans["lights"].id)
    assert broken is not None
    assert broken.plan == {} and broken.is_valid is False and broken.last_result is None
    temp = s.get(plans["temp"].id)
    assert temp is not None and temp.slots == {} and temp.plan == TEMPERATURE
    assert temp.is_valid is False
    en = s.get(plans["en"].id)
    assert en is not None and en.plan == {} and not en.is_valid
    listed = {p.id: p for p in s.list()}
    assert len(listed) == 4 and listed[plans["lights"].id].plan == {}
    assert json.loads(json.dumps([p.as_dict() for p in listed.values()]))
    # Broken rows are never offered for reuse.
    assert s.exact("哪些灯开着", "zh") is None
    assert s.similar("哪些灯开着") == []
    assert s.full_text("温度") == []
    assert [p.id for p in s.full_text("temperature")] == [plans["en_temp"].id]
    # Saving the question again heals the row.
    healed = s.save("哪些灯开着", "zh", LIGHTS_ON, "llm")
    assert healed.id == plans["lights"].id and healed.is_valid and healed.plan == LIGHTS_ON
    assert [p.id for p, _ in s.similar("哪些灯开着")] == [healed.id]
    s.close()
