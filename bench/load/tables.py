"""The report of a load run: burst, soak and crash tables with their targets."""

from __future__ import annotations

from typing import Any

from .calls import CALL_TIMEOUT
from .clients import WS_CONNECTIONS
from .stress import BURST_CALLS, BURST_ROUNDS

RSS_TARGET_MB = 10.0


def _ms(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def _yes(ok: bool) -> str:
    return "yes" if ok else "**no**"


def format_tables(result: dict[str, Any]) -> str:
    """The markdown of the load section from the measured figures."""
    title = "Load, soak and crash"
    if result.get("renames") or result.get("wal") or result.get("baseline"):
        title = "Load, soak against Home Assistant alone, crashes, renames and a damaged log"
    lines = [f"## {title} (`bench/load.py`)", ""]
    burst: list[dict[str, Any]] = result.get("burst", [])
    if burst:
        lines += [
            f"Burst: {BURST_CALLS} calls fired at once, {BURST_ROUNDS} rounds; half REST, "
            f"half websocket over {WS_CONNECTIONS} connections; retrieve / search / "
            "natural_query in Chinese and English. Latency from send to answer; "
            f"timeout {CALL_TIMEOUT:.0f} s.",
            "",
            "| round | transport | answered / total | backpressured | errors | HTTP 5xx "
            "| timeouts | p50 ms | p95 ms | max ms |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for row in burst:
            lines.append(
                f"| {row['round']} | {row['transport']} | {row['answered']} / {row['total']} | "
                f"{row['backpressure']} | {row['errors']} | {row['http5xx']} | "
                f"{row['timeouts']} | {_ms(row['p50'])} | {_ms(row['p95'])} | "
                f"{_ms(row['max'])} |"
            )
        lines.append("")
    soak = result.get("soak")
    if soak:
        lines += [
            f"Soak: {soak['minutes']:g} min of registry churn ({soak['churn']} websocket "
            "config operations: entity rename and back, area rename and back, entity "
            "area move and back, label create + add + remove + delete) interleaved with "
            f"{soak['calls']} retrieve / natural_query / search calls (REST and websocket); "
            f"RSS of the Home Assistant process ({soak['rss_source']}) after the warm-up "
            f"({soak['warmup']}) and at the end.",
            "",
            "| calls | call p50 / p95 / max ms | churn ops | RSS start MB | RSS end MB "
            "| RSS max MB | growth MB | growth since the first 100 calls MB | errors "
            "| integration ERROR log records |",
            "|---|---|---|---|---|---|---|---|---|---|",
            f"| {soak['calls']} | {_ms(soak['p50'])} / {_ms(soak['p95'])} / "
            f"{_ms(soak['max'])} | {soak['churn']} | {soak['rss_start']:.1f} | "
            f"{soak['rss_end']:.1f} | {soak['rss_max']:.1f} | {soak['growth']:+.1f} | "
            f"{soak.get('growth_early', soak['growth']):+.1f} | "
            f"{soak['errors']} | {soak['log_errors']} |",
            "",
        ]
        if soak.get("trend"):
            lines += [
                "RSS over the soak (min: MB): "
                + ", ".join(f"{m:g}: {r:.1f}" for m, r in soak["trend"])
                + ".",
                "",
            ]
        if soak.get("error_samples"):
            lines += ["Errors seen: " + "; ".join(f"`{s}`" for s in soak["error_samples"]), ""]
    baseline = result.get("baseline")
    if baseline:
        lines += _baseline(baseline, soak)
    crash = result.get("crash")
    if crash:
        lines += [
            f"Crash: views published and distinct questions asked in a tight loop for "
            f"{crash['seconds']:.0f} s, then `kill -9` of Home Assistant and a restart on "
            "the same config folder (restart took "
            f"{crash['restart_seconds']:.0f} s).",
            "",
            "| kind | committed before the kill | found after restart | lost | integrity_check |",
            "|---|---|---|---|---|",
        ]
        for kind in ("views", "plans"):
            row = crash[kind]
            lines.append(
                f"| {kind} | {row['committed']} | {row['found']} | {row['lost']} | "
                f"{row['integrity']} |"
            )
        lines.append("")
    renames: list[dict[str, Any]] = result.get("renames", [])
    if renames:
        lines += _renames(renames)
    wal = result.get("wal")
    if wal:
        lines += _wal(wal)
    targets = []
    if burst:
        burst = [r for r in burst if r["transport"] != "all"]  # "all" repeats the two others
        total = sum(r["total"] for r in burst)
        answered = sum(r["answered"] for r in burst)
        hung = sum(r["timeouts"] for r in burst)
        fivexx = sum(r["http5xx"] for r in burst)
        targets += [
            (
                "burst: every call answered (result or backpressure)",
                f"{answered} / {total}",
                answered == total,
            ),
            (
                "burst: no call hangs (30 s) or returns HTTP 5xx",
                f"{hung} timeouts, {fivexx} HTTP 5xx",
                hung == 0 and fivexx == 0,
            ),
        ]
    if soak:
        growth = soak["growth"] - (baseline["growth"] if baseline else 0.0)
        targets += [
            (
                f"soak: RSS growth of the integration ≤ {RSS_TARGET_MB:g} MB"
                + (" (Home Assistant's own growth taken out)" if baseline else ""),
                f"{growth:+.1f} MB",
                growth <= RSS_TARGET_MB,
            ),
            (
                "soak: no errors",
                f"{soak['errors']} + {soak['log_errors']} log records",
                soak["errors"] == 0 and soak["log_errors"] == 0,
            ),
        ]
    if crash:
        lost = crash["views"]["lost"] + crash["plans"]["lost"]
        intact = all(crash[k]["integrity"] == "ok" for k in ("views", "plans"))
        targets += [
            ("crash: nothing acknowledged is lost", f"{lost} lost", lost == 0),
            (
                "crash: databases pass integrity_check",
                ", ".join(f"{k} {crash[k]['integrity']}" for k in ("views", "plans")),
                intact,
            ),
        ]
    if renames:
        lost = sum(r["lost"] for r in renames)
        right = all(r.get("rollback_right", True) for r in renames)
        targets += [
            (
                f"crash: no acknowledged rename lost over {len(renames)} kill -9 runs",
                f"{lost} lost of {sum(r['acknowledged'] for r in renames)}",
                lost == 0,
            ),
            ("crash: rolling back the newest rename writes no unknown name", _yes(right), right),
        ]
    if wal:
        raised = wal["issue"] == "view_store_recovered_log"
        targets.append(
            ("a damaged write-ahead log raises the repair issue", str(wal["issue"]), raised)
        )
    if targets:
        lines += ["| target | measured | met |", "|---|---|---|"]
        lines += [f"| {name} | {measured} | {_yes(met)} |" for name, measured, met in targets]
        lines.append("")
    if result.get("notes"):
        lines += [f"Note: {note}" for note in result["notes"]]
    return "\n".join(lines).rstrip() + "\n"


def _baseline(baseline: dict[str, Any], soak: dict[str, Any] | None) -> list[str]:
    lines = [
        f"Home Assistant alone: the same {baseline['minutes']:g} min of registry churn "
        f"({baseline['churn']} operations) and as many calls ({baseline['calls']}), each one of "
        "Home Assistant's own (`GET /api/config`, websocket `get_config`), with the "
        "integration's entry disabled; RSS after the same warm-up.",
        "",
        "| soak | RSS start MB | RSS end MB | growth MB |",
        "|---|---|---|---|",
        f"| Home Assistant alone | {baseline['rss_start']:.1f} | {baseline['rss_end']:.1f} | "
        f"{baseline['growth']:+.1f} |",
    ]
    if soak:
        lines += [
            f"| with the integration's calls | {soak['rss_start']:.1f} | {soak['rss_end']:.1f} "
            f"| {soak['growth']:+.1f} |",
            f"| the integration's own (difference) | | | "
            f"{soak['growth'] - baseline['growth']:+.1f} |",
        ]
    if baseline.get("trend"):
        lines += [
            "",
            "RSS of Home Assistant alone (min: MB): "
            + ", ".join(f"{m:g}: {r:.1f}" for m, r in baseline["trend"])
            + ".",
        ]
    return [*lines, ""]


def _renames(runs: list[dict[str, Any]]) -> list[str]:
    lines = [
        "Renames through a crash: 20 exposed lights renamed forward in a tight loop "
        "(`rename_execute`, REST and websocket), `kill -9` 6 s after the start (Home "
        "Assistant saves its entity registry 10 s after a change), a restart on the same "
        "folder; then the newest acknowledged rename is rolled back.",
        "",
        "| run | renames acknowledged | entities | lost | rollback of the newest | restart s |",
        "|---|---|---|---|---|---|",
    ]
    for r in runs:
        rollback = r.get("rollback", "none")
        if "rollback_right" in r:
            rollback += ", right" if r["rollback_right"] else ", **wrong**"
        lines.append(
            f"| {r['run']} | {r['acknowledged']} | {r['entities']} | {r['lost']} | "
            f"{rollback} | {r['restart_seconds']:.0f} |"
        )
    return [*lines, ""]


def _wal(wal: dict[str, Any]) -> list[str]:
    return [
        "Damaged write-ahead log: view rules published in a tight loop, `kill -9`, one byte "
        f"flipped in frame {wal['damaged_frame']} of the view database's log, a restart.",
        "",
        "| views acknowledged | kept | repair issue | integrity_check |",
        "|---|---|---|---|",
        f"| {wal['published']} | {wal['kept']} | {wal['issue']} | {wal['integrity']} |",
        "",
    ]
