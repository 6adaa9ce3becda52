"""The pure parts of the load benchmark (no Home Assistant is started; nothing is timed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench import load
from bench.report import write_section


def test_percentile_and_summary() -> None:
    calls = [load.Call("rest", "retrieve", "ok", float(ms)) for ms in range(1, 101)]
    calls += [
        load.Call("websocket", "search", "backpressure", 5.0),
        load.Call("rest", "search", "timeout", 30000.0),
        load.Call("rest", "retrieve", "http5xx", 7.0),
        load.Call("websocket", "natural_query", "error", 3.0),
    ]
    summary = load.summarize(calls)
    assert summary["total"] == 104
    assert summary["answered"] == 101  # results and backpressure
    assert (
        summary["ok"],
        summary["backpressure"],
        summary["timeouts"],
        summary["http5xx"],
        summary["errors"],
    ) == (100, 1, 1, 1, 1)
    assert summary["max"] == 30000.0
    assert summary["p50"] <= summary["p95"] <= summary["max"]
    only = load.summarize([load.Call("rest", "retrieve", "ok", float(ms)) for ms in range(1, 101)])
    assert (only["p50"], only["p95"], only["max"]) == (50.0, 95.0, 100.0)
    assert load.summarize([])["p95"] == 0.0


@pytest.mark.parametrize(
    "value",
    [
        {
            "error": {
                "code": "home_assistant_error",
                "message": "Too many calls (SEARCH_BACKPRESSURE), retry in 200 ms",
            }
        },
        {"service_response": {"error": {"code": "SEARCH_BACKPRESSURE", "retry_after_ms": 200}}},
        [{"nested": ["x", {"deep": "SEARCH_BACKPRESSURE"}]}],
        "SEARCH_BACKPRESSURE: retry_after_ms=200",
        b'{"code": "SEARCH_BACKPRESSURE"}',
        RuntimeError("call_service: SEARCH_BACKPRESSURE"),
    ],
)
def test_backpressure_found_anywhere(value: object) -> None:
    assert load.has_backpressure(value)


@pytest.mark.parametrize(
    "value",
    [
        None,
        {"success": True, "result": {"response": {"commands": []}}},
        "search backpressure",
        {"error": {"code": "not_loaded"}},
        200,
    ],
)
def test_no_backpressure(value: object) -> None:
    assert not load.has_backpressure(value)


def test_classify_rest_and_websocket() -> None:
    assert load.classify_rest(200, '{"service_response": {}}') == ("ok", "")
    assert load.classify_rest(429, '{"code": "SEARCH_BACKPRESSURE"}')[0] == "backpressure"
    assert load.classify_rest(400, '{"message": "bad"}')[0] == "error"
    # A 5xx is a failure even when the body names the backpressure.
    assert load.classify_rest(500, "SEARCH_BACKPRESSURE")[0] == "http5xx"
    assert load.classify_rest(502, "Bad gateway")[0] == "http5xx"
    assert load.classify_ws({"id": 1, "success": True, "result": {}}) == ("ok", "")
    assert (
        load.classify_ws(
            {
                "id": 1,
                "success": False,
                "error": {"code": "home_assistant_error", "message": "SEARCH_BACKPRESSURE"},
            }
        )[0]
        == "backpressure"
    )
    assert (
        load.classify_ws(
            {"id": 1, "success": False, "error": {"code": "not_found", "message": "x"}}
        )[0]
        == "error"
    )


def test_parse_vmrss() -> None:
    status = "Name:\tpython3\nVmPeak:\t  900000 kB\nVmRSS:\t  262144 kB\nThreads:\t42\n"
    assert load.parse_vmrss(status) == 256.0
    assert load.parse_vmrss("VmRSS: 2 mB\n") == 2.0
    with pytest.raises(ValueError):
        load.parse_vmrss("Name: x\n")


def test_rss_of_this_process() -> None:
    assert load.rss_mb(os.getpid()) > 1.0
    text = Path(f"/proc/{os.getpid()}/status").read_text()
    assert load.parse_vmrss(text) > 1.0


def test_mixed_calls_cover_every_service_and_both_languages() -> None:
    calls = load.mixed_calls(200)
    assert len(calls) == 200
    services = {s for s, _ in calls}
    assert services == {"retrieve", "search", "natural_query"}
    texts = [next(iter(d.values())) for _, d in calls]
    assert any(t.isascii() for t in texts) and any(not t.isascii() for t in texts)


def test_crash_questions_are_distinct() -> None:
    questions = load.crash_questions(load.load_devhome().load_home())
    assert len(questions) == len(set(questions)) >= 80


def _result() -> dict[str, object]:
    row = {
        "total": 100,
        "answered": 100,
        "ok": 60,
        "backpressure": 40,
        "errors": 0,
        "http5xx": 0,
        "timeouts": 0,
        "p50": 12.3,
        "p95": 456.7,
        "max": 1234.5,
    }
    return {
        "burst": [
            {"round": 1, "transport": "rest", **row},
            {"round": 1, "transport": "websocket", **row},
        ],
        "soak": {
            "minutes": 10.0,
            "calls": 3000,
            "churn": 2500,
            "p50": 5.0,
            "p95": 20.0,
            "max": 80.0,
            "rss_start": 300.0,
            "rss_end": 304.5,
            "rss_max": 306.0,
            "growth": 4.5,
            "growth_early": 9.0,
            "trend": [(0.0, 300.0), (5.0, 302.0), (10.0, 304.5)],
            "errors": 0,
            "log_errors": 0,
            "error_samples": [],
            "warmup": "first 100 calls",
            "rss_source": "psutil",
        },
        "crash": {
            "seconds": 12.0,
            "restart_seconds": 40.0,
            "views": {"committed": 30, "found": 30, "lost": 0, "integrity": "ok"},
            "plans": {"committed": 50, "found": 49, "lost": 1, "integrity": "ok"},
        },
        "notes": ["a note"],
    }


def test_format_tables() -> None:
    text = load.format_tables(_result())
    assert "| 1 | rest | 100 / 100 | 40 | 0 | 0 | 0 | 12.3 | 457 | 1,234 |" in text
    assert (
        "| 3000 | 5.0 / 20.0 / 80.0 | 2500 | 300.0 | 304.5 | 306.0 | +4.5 | +9.0 | 0 | 0 |" in text
    )
    assert "RSS over the soak (min: MB): 0: 300.0, 5: 302.0, 10: 304.5." in text
    assert "| views | 30 | 30 | 0 | ok |" in text
    assert "| plans | 50 | 49 | 1 | ok |" in text
    assert "| burst: every call answered (result or backpressure) | 200 / 200 | yes |" in text
    assert "| soak: RSS growth of the integration ≤ 10 MB | +4.5 MB | yes |" in text
    assert "| crash: nothing acknowledged is lost | 1 lost | **no** |" in text
    assert "Note: a note" in text
    for line in text.splitlines():
        if line.startswith("|"):
            assert line.endswith("|")


def test_format_tables_with_the_baseline_renames_and_the_damaged_log() -> None:
    result = _result()
    result["baseline"] = {**result["soak"], "rss_end": 303.0, "growth": 3.0, "trend": []}  # type: ignore[dict-item]
    result["renames"] = [
        {
            "run": 1,
            "acknowledged": 250,
            "entities": 20,
            "lost": 0,
            "restart_seconds": 41.0,
            "rollback": "done",
            "rollback_right": True,
        },
        {
            "run": 2,
            "acknowledged": 240,
            "entities": 20,
            "lost": 2,
            "restart_seconds": 40.0,
            "rollback": "refused",
            "rollback_right": False,
        },
    ]
    result["wal"] = {
        "published": 60,
        "damaged_frame": 80,
        "kept": 31,
        "issue": "view_store_recovered_log",
        "integrity": "ok",
    }
    text = load.format_tables(result)
    assert "| Home Assistant alone | 300.0 | 303.0 | +3.0 |" in text
    assert "| the integration's own (difference) | | | +1.5 |" in text
    assert (
        "| soak: RSS growth of the integration ≤ 10 MB (Home Assistant's own growth taken out)"
        " | +1.5 MB | yes |"
    ) in text
    assert "| 1 | 250 | 20 | 0 | done, right | 41 |" in text
    assert "| 2 | 240 | 20 | 2 | refused, **wrong** | 40 |" in text
    assert (
        "| crash: no acknowledged rename lost over 2 kill -9 runs | 2 lost of 490 | **no** |"
        in text
    )
    assert "| 60 | 31 | view_store_recovered_log | ok |" in text
    assert (
        "| a damaged write-ahead log raises the repair issue | view_store_recovered_log | yes |"
        in text
    )


def test_damage_wal_flips_a_current_frame(tmp_path: Path) -> None:
    import shutil
    import sqlite3

    from bench.load.durability import damage_wal
    from custom_components.context_retrieval.core.base.sqlite_wal import wal_damage

    live = tmp_path / "live.db"
    conn = sqlite3.connect(live, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x TEXT)")
    for i in range(50):
        conn.execute("INSERT INTO t VALUES (?)", ("x" * 100 + str(i),))
    copy = tmp_path / "copy.db"
    shutil.copy(live, copy)
    shutil.copy(tmp_path / "live.db-wal", tmp_path / "copy.db-wal")
    conn.close()
    assert damage_wal(copy) is not None
    assert wal_damage(copy) is not None
    assert damage_wal(tmp_path / "none.db") is None


def test_format_tables_partial() -> None:
    text = load.format_tables({"burst": [], "soak": None, "notes": []})
    assert "soak" not in text.lower().split("\n", 1)[1]


def test_section_goes_between_the_markers(tmp_path: Path) -> None:
    out = tmp_path / "B.md"
    out.write_text("# B\n\n<!-- load:start -->\nOLD-CONTENT\n<!-- load:end -->\n\nafter\n")
    write_section(out, "<!-- load:start -->", "<!-- load:end -->", load.format_tables(_result()))
    text = out.read_text()
    assert "OLD-CONTENT" not in text and "after" in text
    assert text.count("<!-- load:start -->") == 1


def test_rename_targets_are_renamable_lights_of_the_demo_home() -> None:
    from bench.load.durability import RENAME_TARGETS, rename_targets

    home = load.load_devhome().load_home()
    lights = {e["entity_id"] for e in home["entities"] if e["entity_id"].startswith("light.")}
    renamable = set(sorted(lights)[1:]) | {"switch.x"}
    chosen = rename_targets(home, renamable)
    assert len(chosen) == RENAME_TARGETS and set(chosen) <= renamable & lights
