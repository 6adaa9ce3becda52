"""The report of a run: success, harmful turns and devices harmed per agent, overall, by
category, by language and by expected outcome; latency; the whole-home command; the issue's
targets for our agent. Markdown, for the terminal and BENCHMARKS.md."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..report import percentile
from .model import CATEGORIES, KINDS, LANGUAGES
from .runner import TurnResult

AGENT_TITLES = {"ours": "ours (context_retrieval)", "home_assistant": "Home Assistant's agent"}
# The targets for our agent.
TARGET_SUCCESS = 0.95
TARGET_GROUP_SUCCESS = 0.90
TARGET_P95_MS = 500.0
TARGET_WHOLE_HOME_MS = 1000.0


@dataclass(frozen=True)
class Tally:
    turns: int
    ok: int
    harmful_turns: int
    harmed: int  # devices changed that nobody asked for, over all turns
    wrong_turns: int

    @property
    def rate(self) -> float:
        return self.ok / self.turns if self.turns else 0.0


def tally(results: Iterable[TurnResult]) -> Tally:
    items = list(results)
    return Tally(
        turns=len(items),
        ok=sum(r.ok for r in items),
        harmful_turns=sum(bool(r.harmful) for r in items),
        harmed=sum(len(r.harmful) for r in items),
        wrong_turns=sum(bool(r.wrong) for r in items),
    )


def _agents(results: Sequence[TurnResult]) -> list[str]:
    return list(dict.fromkeys(r.agent for r in results))


def _cell(t: Tally) -> str:
    return f"{t.rate:.2f} ({t.ok}/{t.turns})" if t.turns else "–"


def _harm(t: Tally) -> str:
    return f"{t.harmful_turns} ({t.harmed})" if t.turns else "–"


def _ms(value: float) -> str:
    return f"{value:,.0f}"


def _overall(results: Sequence[TurnResult], agents: list[str]) -> list[str]:
    lines = [
        "| agent | turns | success | harmful turns (devices) | wrong value turns "
        "| p50 ms | p95 ms | max ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for agent in agents:
        mine = [r for r in results if r.agent == agent]
        t = tally(mine)
        ms = [r.ms for r in mine]
        lines.append(
            f"| {AGENT_TITLES.get(agent, agent)} | {t.turns} | {_cell(t)} | {_harm(t)} | "
            f"{t.wrong_turns} | {_ms(percentile(ms, 0.5))} | {_ms(percentile(ms, 0.95))} | "
            f"{_ms(max(ms, default=0))} |"
        )
    return lines


def _grouped(
    results: Sequence[TurnResult],
    agents: list[str],
    title: str,
    keys: Iterable[str],
    key_of: Callable[[TurnResult], str],
) -> list[str]:
    header = f"| {title} | turns |" + "".join(
        f" {AGENT_TITLES.get(a, a)}: success | harmful (devices) |" for a in agents
    )
    lines = [header, "|---|---|" + "---|---|" * len(agents)]
    for key in keys:
        group = [r for r in results if key_of(r) == key]
        if not group:
            continue
        turns = len([r for r in group if r.agent == agents[0]])
        row = f"| {key} | {turns} |"
        for agent in agents:
            t = tally(r for r in group if r.agent == agent)
            row += f" {_cell(t)} | {_harm(t)} |"
        lines.append(row)
    return lines


def _whole_home(results: Sequence[TurnResult], agents: list[str]) -> list[str]:
    rows = [r for r in results if r.whole_home]
    if not rows:
        return []
    lines = [
        "Whole-home commands (every light of the demo home):",
        "",
        "| said | " + " | ".join(f"{AGENT_TITLES.get(a, a)}: ms, verdict" for a in agents) + " |",
        "|---|" + "---|" * len(agents),
    ]
    for said in dict.fromkeys(r.say for r in rows):
        cells = []
        for agent in agents:
            mine = [r for r in rows if r.say == said and r.agent == agent]
            cells.append(
                ", ".join(f"{_ms(r.ms)} {'ok' if r.ok else 'failed'}" for r in mine) or "–"
            )
        lines.append(f"| {said} | " + " | ".join(cells) + " |")
    return lines


def _targets(results: Sequence[TurnResult]) -> list[str]:
    ours = [r for r in results if r.agent == "ours"]
    if not ours:
        return []
    t = tally(ours)
    worst = [
        (name, tally(r for r in ours if key(r) == name))
        for key, names in (
            (lambda r: r.category, CATEGORIES),
            (lambda r: r.lang, tuple(LANGUAGES)),
        )
        for name in names
    ]
    worst = [(name, x) for name, x in worst if x.turns]
    low_name, low = min(worst, key=lambda item: item[1].rate)
    p95 = percentile([r.ms for r in ours], 0.95)
    whole = [r.ms for r in ours if r.whole_home]
    checks = [
        ("no harmful turn", f"{t.harmful_turns} ({t.harmed} devices)", t.harmful_turns == 0),
        (f"success ≥ {TARGET_SUCCESS:.2f}", f"{t.rate:.2f}", t.rate >= TARGET_SUCCESS),
        (
            f"every category and language ≥ {TARGET_GROUP_SUCCESS:.2f}",
            f"lowest {low_name} {low.rate:.2f}",
            low.rate >= TARGET_GROUP_SUCCESS,
        ),
        (f"p95 ≤ {TARGET_P95_MS:.0f} ms", f"{_ms(p95)} ms", p95 <= TARGET_P95_MS),
    ]
    if whole:
        checks.append(
            (
                f"whole-home command ≤ {TARGET_WHOLE_HOME_MS:.0f} ms",
                f"{_ms(max(whole))} ms",
                max(whole) <= TARGET_WHOLE_HOME_MS,
            )
        )
    lines = ["| target (ours) | measured | met |", "|---|---|---|"]
    lines += [f"| {name} | {value} | {'yes' if met else '**no**'} |" for name, value, met in checks]
    return lines


def format_tables(results: Sequence[TurnResult], dialogs: int, version: str, tier: str) -> str:
    agents = _agents(results)
    turns = len([r for r in results if r.agent == agents[0]]) if agents else 0
    lines = [
        f"## Dialogs, end to end (`bench/dialogs`, {tier} tier)",
        "",
        f"{dialogs} dialogs, {turns} turns said to a real Home Assistant {version} with the "
        "demo home, through `POST /api/conversation/process`. Every demo entity's state and "
        "settable attributes are read before and after each turn: a change the turn did not "
        "call for is harmful (devices: how many were changed so). Success: the turn's "
        "expected outcome (act with the exact states, ask back, answer with the facts, "
        "refuse) and no harm. Latency: the request's round trip (after one unjudged question "
        "per agent and language, which loads that language).",
        "",
        *_overall(results, agents),
        "",
        *_grouped(results, agents, "category", CATEGORIES, lambda r: r.category),
        "",
        *_grouped(results, agents, "language", LANGUAGES, lambda r: r.lang),
        "",
        *_grouped(results, agents, "expected", KINDS, lambda r: r.expect),
        "",
    ]
    for block in (_whole_home(results, agents), _targets(results)):
        if block:
            lines += [*block, ""]
    return "\n".join(lines).rstrip() + "\n"
