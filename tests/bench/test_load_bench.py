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
    assert "| soak: RSS growth ≤ 10 MB | +4.5 MB | yes |" in text
    assert "| crash: nothing acknowledged is lost | 1 lost | **no** |" in text
    assert "Note: a note" in text
    for line in text.splitlines():
        if line.startswith("|"):
            assert line.endswith("|")


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
