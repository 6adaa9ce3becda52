"""Saying the dialogs to the agents: for every dialog and agent, the home is put back to its
seeded states plus the dialog's given ones, then each turn is sent to
`POST /api/conversation/process` (the conversation id of the previous answer, the dialog's
language tag, the agent) and judged on the settled home. The agents take turns dialog by
dialog, so a slow moment of the machine falls on both."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from .home import Seed, prepare, set_exposed, settle
from .judge import Reply, Verdict, judge, reply_from
from .model import LANGUAGES, Dialog, Turn
from .states import Snapshot, changed

HOME_ASSISTANT_AGENT = "conversation.home_assistant"
QUIET_SECONDS = 3.0  # how long the untouched home is watched for entities that move alone
# Said once per agent and language before the run and not judged: the first sentence of a
# language loads its lexicons and templates, a cost paid once per start, not per turn.
WARM_UP = {
    "en": "which lights are on?",
    "zh": "哪些灯开着",
    "de": "Welche Lichter sind an?",
    "fr": "Quelles lumières sont allumées ?",
    "es": "¿Qué luces están encendidas?",
}


@dataclass(frozen=True)
class TurnResult:
    agent: str
    dialog: str
    turn: int  # 1-based
    lang: str
    category: str
    expect: str
    say: str
    reply: str
    response_type: str
    asked: bool
    ok: bool
    ms: float  # the request's round trip
    harmful: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    changes: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # id → before, after
    whole_home: bool = False

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["changes"] = {k: list(v) for k, v in self.changes.items()}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TurnResult:
        """A line of a results file, read back (tables can be made again from it)."""
        fields = dict(data)
        for name in ("harmful", "wrong", "reasons"):
            fields[name] = tuple(fields.get(name, ()))
        fields["changes"] = {k: (v[0], v[1]) for k, v in (fields.get("changes") or {}).items()}
        return cls(**fields)


@dataclass(frozen=True)
class Context:
    api: Any  # devhome's Api
    seed: Seed
    baseline: Snapshot  # the seeded home as Home Assistant started it
    volatile: frozenset[str]  # entities that change with nobody asking


async def observe(api: Any, seed: Seed) -> Context:
    """The seeded home, and which of its entities change by themselves (watched for a while
    with no request)."""
    first = await settle(api, seed.demo_ids)
    await asyncio.sleep(QUIET_SECONDS)
    second = await settle(api, seed.demo_ids)
    return Context(api, seed, first, frozenset(changed(first, second)))


async def warm_up(ctx: Context, agents: Mapping[str, str], languages: Iterable[str]) -> None:
    """A read-only question per agent and language; the home is reset before every dialog."""
    for agent_id in agents.values():
        for lang in languages:
            body = {"text": WARM_UP[lang], "language": LANGUAGES[lang], "agent_id": agent_id}
            await _say(ctx.api, body)


async def _say(api: Any, body: dict[str, Any]) -> tuple[Reply, float]:
    started = time.perf_counter()
    try:
        answer = await api.request("POST", "/api/conversation/process", json_data=body)
    except Exception as err:  # an HTTP error or a timeout is this turn's reply, judged
        elapsed = (time.perf_counter() - started) * 1000
        return Reply(f"[request failed: {err}]"[:500], "request_failed", False, (), None), elapsed
    elapsed = (time.perf_counter() - started) * 1000
    return reply_from(answer if isinstance(answer, dict) else {}), elapsed


def _result(
    agent: str,
    dialog: Dialog,
    index: int,
    turn: Turn,
    reply: Reply,
    ms: float,
    verdict: Verdict,
    changes: Mapping[str, tuple[str, str]],
) -> TurnResult:
    return TurnResult(
        agent=agent,
        dialog=dialog.id,
        turn=index,
        lang=dialog.lang,
        category=turn.category,
        expect=turn.expect,
        say=turn.say,
        reply=reply.speech,
        response_type=reply.response_type,
        asked=reply.asked,
        ok=verdict.ok,
        ms=round(ms, 1),
        harmful=verdict.harmful,
        wrong=verdict.wrong,
        reasons=verdict.reasons,
        changes=changes,
        whole_home=turn.whole_home,
    )


async def run_dialog(ctx: Context, dialog: Dialog, agent: str, agent_id: str) -> list[TurnResult]:
    await set_exposed(ctx.api, dialog.unexposed, False)
    results = []
    try:
        before = await prepare(ctx.api, ctx.seed, ctx.baseline, dialog.given, ctx.volatile)
        conversation_id: str | None = None
        for index, turn in enumerate(dialog.turns, 1):
            body: dict[str, Any] = {
                "text": turn.say,
                "language": dialog.language_tag,
                "agent_id": agent_id,
            }
            if conversation_id:
                body["conversation_id"] = conversation_id
            reply, ms = await _say(ctx.api, body)
            after = await settle(ctx.api, ctx.seed.demo_ids)
            verdict = judge(turn, before, after, reply, ctx.volatile)
            changes = {e: (before[e].describe(), after[e].describe()) for e in verdict.changed}
            results.append(_result(agent, dialog, index, turn, reply, ms, verdict, changes))
            conversation_id = reply.conversation_id or conversation_id
            before = after
    finally:
        await set_exposed(ctx.api, dialog.unexposed, True)
    return results


async def run_all(
    ctx: Context,
    dialogs: Iterable[Dialog],
    agents: Mapping[str, str],
    report: Callable[[Dialog, str, list[TurnResult]], None] | None = None,
) -> list[TurnResult]:
    """Every dialog through every agent (name → agent id), dialog by dialog."""
    results: list[TurnResult] = []
    dialogs = list(dialogs)
    await warm_up(ctx, agents, dict.fromkeys(d.lang for d in dialogs))
    for dialog in dialogs:
        for agent, agent_id in agents.items():
            done = await run_dialog(ctx, dialog, agent, agent_id)
            results.extend(done)
            if report is not None:
                report(dialog, agent, done)
    return results
