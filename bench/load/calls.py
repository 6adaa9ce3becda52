"""What one call is and how its answer counts (pure, unit-tested): the texts asked, REST and
websocket answers classified, back-pressure recognised, latencies summarised, the process' RSS."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..report import percentile

DOMAIN = "context_retrieval"
BACKPRESSURE = "SEARCH_BACKPRESSURE"
CALL_TIMEOUT = 30.0
# Texts of the demo home (demo/home.json), Chinese and English.
RETRIEVE_TEXTS = [
    "打开客厅的阅读灯",
    "turn off the kitchen ceiling light",
    "关掉除了卧室以外的所有灯",
    "turn on the garage light",
    "打开台灯",
    "把主卧的窗帘关上",
    "turn on the desk lamp in the kids room",
    "关掉阳台彩灯",
]
SEARCH_QUERIES = [
    "阅读灯",
    "kitchen light",
    "温度",
    "front door lock",
    "圣诞装饰",
    "bedside lamp",
    "湿度",
    "balcony",
]
QUESTIONS = [
    "哪些灯开着？",
    "Which lights are on?",
    "客厅有几个灯开着？",
    "How many lights are on in the kitchen?",
    "主卧的温度是多少？",
    "Which lights are off?",
    "哪些灯关着？",
    "How many lights are there?",
]


def has_backpressure(value: Any) -> bool:
    """Whether `SEARCH_BACKPRESSURE` appears anywhere in a response, error or message."""
    if value is None:
        return False
    if isinstance(value, str):
        return BACKPRESSURE in value
    if isinstance(value, bytes):
        return BACKPRESSURE.encode() in value
    if isinstance(value, BaseException):
        return has_backpressure(str(value)) or has_backpressure(repr(value))
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = str(value)
    return BACKPRESSURE in text


def parse_vmrss(status_text: str) -> float:
    """MB of resident memory from the text of /proc/<pid>/status (`VmRSS:  123456 kB`)."""
    for line in status_text.splitlines():
        if line.startswith("VmRSS:"):
            parts = line.split()
            value = float(parts[1])
            unit = parts[2].lower() if len(parts) > 2 else "kb"
            factor = {"kb": 1 / 1024, "mb": 1.0, "gb": 1024.0, "b": 1 / 1024 / 1024}.get(
                unit, 1 / 1024
            )
            return value * factor
    raise ValueError("no VmRSS line")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB: psutil when installed, /proc otherwise."""
    try:
        import psutil
    except ImportError:
        return parse_vmrss(Path(f"/proc/{pid}/status").read_text(encoding="utf-8"))
    return float(psutil.Process(pid).memory_info().rss) / 1024 / 1024


@dataclass
class Call:
    """One call's outcome: ok | backpressure | error | http5xx | timeout."""

    transport: str
    service: str
    outcome: str
    ms: float
    detail: str = ""

    @property
    def answered(self) -> bool:
        return self.outcome in ("ok", "backpressure")


def classify_rest(status: int, text: str) -> tuple[str, str]:
    """Outcome of a REST answer: 5xx is a failure even when it names the backpressure."""
    if status >= 500:
        return "http5xx", f"HTTP {status}: {text[:200]}"
    if has_backpressure(text):
        return "backpressure", ""
    if 200 <= status < 300:
        return "ok", ""
    return "error", f"HTTP {status}: {text[:200]}"


def classify_ws(message: dict[str, Any]) -> tuple[str, str]:
    if has_backpressure(message):
        return "backpressure", ""
    if message.get("success"):
        return "ok", ""
    return "error", json.dumps(message.get("error"), ensure_ascii=False)[:200]


def summarize(calls: list[Call]) -> dict[str, Any]:
    """Counts and latency (ms) over a list of calls."""
    ms = [c.ms for c in calls]
    return {
        "total": len(calls),
        "answered": sum(c.answered for c in calls),
        "ok": sum(c.outcome == "ok" for c in calls),
        "backpressure": sum(c.outcome == "backpressure" for c in calls),
        "errors": sum(c.outcome == "error" for c in calls),
        "http5xx": sum(c.outcome == "http5xx" for c in calls),
        "timeouts": sum(c.outcome == "timeout" for c in calls),
        "p50": percentile(ms, 0.50),
        "p95": percentile(ms, 0.95),
        "max": max(ms) if ms else 0.0,
    }
