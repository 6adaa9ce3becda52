"""The report: one row per size and language, and the targets."""

from __future__ import annotations

from typing import Any


def _triple(r: dict[str, Any], name: str) -> str:
    return f"{r[name + '_p50']:.2f} / {r[name + '_p95']:.2f} / {r[name + '_max']:.2f} ms"


def uncacheable_note(rows: list[dict[str, Any]]) -> str:
    seen = dict.fromkeys(q for r in rows for q in r["uncacheable"])
    return f": {'; '.join(repr(q) for q in seen)}" if seen else ""


def format_rows(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| entities | language | questions | confident | compile + execute p50 / p95 / max | "
        "cached p50 / p95 / max | uncacheable | similar p50 / p95 / max | stored plans |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['size']:,} | {r['language']} | {r['questions']} | {r['confident']:.0f} % | "
            f"{_triple(r, 'compile')} | {_triple(r, 'cached')} | {len(r['uncacheable'])} | "
            f"{_triple(r, 'similar')} | {r['stored']:,} |"
        )
    return "\n".join(lines)


TARGET_SIZE = 5000
CACHED_TARGET_MS = 10.0
COMPILE_TARGET_MS = 30.0


def format_targets(rows: list[dict[str, Any]]) -> str:
    big = [r for r in rows if r["size"] >= TARGET_SIZE]
    if not big:
        return f"(no {TARGET_SIZE:,}-entity run: targets not checked)"
    cached = max(r["cached_p95"] for r in big)
    compiled = max(r["compile_p95"] for r in big)
    return "\n".join(
        [
            f"- cached p95 ≤ {CACHED_TARGET_MS:g} ms at {TARGET_SIZE:,} entities: {cached:.2f} ms "
            f"— {'met' if cached <= CACHED_TARGET_MS else 'NOT met'}",
            f"- compile + execute p95 ≤ {COMPILE_TARGET_MS:g} ms at {TARGET_SIZE:,} entities: "
            f"{compiled:.2f} ms — {'met' if compiled <= COMPILE_TARGET_MS else 'NOT met'}",
        ]
    )
