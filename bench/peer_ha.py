"""Peer benchmark: Home Assistant's own default agent, in a real Home Assistant, on our suite.

`bench.peer_hassil` re-implements how the default agent matched sentences up to 2025 (hassil and
a trie over the names); from 2026.x the agent pre-matches names with gazetteer-matcher and
resolves entity names from the registry, which that re-implementation does not follow. This
benchmark asks the real thing instead, on any release:

- each home runs in a child process with a Home Assistant of its own (`bench.hass_core`),
  its registries filled as `bench.tokens` fills them (entities with their own names, areas,
  floors, labels, aliases, exposed to Assist); the entity domains' integrations are set up so
  that intents can call their services (the states have no entity objects behind them, so a
  call changes nothing, and every turn starts from the same states);
- every turn is `conversation.async_converse(text, agent_id="conversation.home_assistant")`
  on its own (the default agent keeps no memory between turns), with a voice satellite in the
  turn's `context_area_id` as `device_id`;
- the prediction is the intent response's matched states (what the agent acted on), for a
  question also the unmatched ones (what it was about, whether or not in the asked state); an error
  response predicts nothing. It never asks back. Latency includes carrying the intent out.

    .venv/bin/python -m bench.peer_ha --homes DIR --cases FILE [--cases FILE2 …] --out PRED.jsonl
    bash scripts/newest .venv-newest-ha/bin/python -m bench.peer_ha …     (Home Assistant 2026.11)
"""

from __future__ import annotations

import argparse
import asyncio
import enum
import functools
import importlib.metadata
import json
import operator
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import report, suite

MARKER = "peer_ha"
AGENT = "conversation.home_assistant"


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


async def async_predict_home(
    hass: Any, home: dict[str, Any], cases: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One prediction per turn of `cases`, from Home Assistant's default agent over `home`."""
    from homeassistant.components import conversation
    from homeassistant.core import Context
    from homeassistant.setup import async_setup_component

    from .tokens.home import async_build_home, async_settle, async_setup_integration, ha_language

    assert await async_setup_component(hass, "homeassistant", {})
    for domain in sorted({e["entity_id"].split(".", 1)[0] for e in home["entities"]}):
        # The entity domain's services, for the intents to call (failures only cost that).
        try:
            await async_setup_component(hass, domain, {})
        except Exception as err:  # any domain that cannot load is only reported
            print(f"peer_ha: {domain} not set up: {err!r}", file=sys.stderr)
    # Devices need a config entry: this integration's (it is not the agent asked here).
    owner = await async_setup_integration(hass)
    areas = sorted(
        {t["context_area_id"] for c in cases for t in c["turns"] if t.get("context_area_id")}
    )
    built = await async_build_home(hass, home, owner.entry_id, areas)
    _support_everything(hass)
    await async_settle(hass, owner)
    language = ha_language(home.get("language", "en"))
    await conversation.async_converse(hass, "warm up", None, Context(), language, agent_id=AGENT)
    predictions = []
    for case in cases:
        for index, turn in suite.iter_turns(case):
            device_id = built.satellites.get(turn.get("context_area_id") or "")
            started = time.perf_counter()
            result = await conversation.async_converse(
                hass, turn["text"], None, Context(), language, agent_id=AGENT, device_id=device_id
            )
            latency_ms = (time.perf_counter() - started) * 1000.0
            response = result.response
            selected: list[str] = []
            if response.response_type.value != "error":
                back = {new: old for old, new in built.renamed.items()}
                # A question ("is the door open?") is about its matched and unmatched states
                # alike (those in the asked state and the others); an action about the matched.
                states = list(response.matched_states)
                if response.response_type.value == "query_answer":
                    states += response.unmatched_states
                selected = sorted(dict.fromkeys(back.get(s.entity_id, s.entity_id) for s in states))
            predictions.append(
                {
                    "case_id": case["case_id"],
                    "turn": index,
                    "selected_entity_ids": selected,
                    "clarification": None,
                    "latency_ms": round(latency_ms, 3),
                }
            )
    return predictions


def _support_everything(hass: Any) -> None:
    """Every entity declares every feature of its domain (and lights every colour mode): the
    homes do not say which an entity has, and the intents skip entities that lack the one
    they need (like `bench.peer_hassil`, which does not check features)."""
    for state in hass.states.async_all():
        module = sys.modules.get(f"homeassistant.components.{state.domain}")
        flags = [
            value
            for key, value in vars(module or {}).items()
            if key.endswith("EntityFeature")
            and isinstance(value, type)
            and issubclass(value, enum.IntFlag)
        ]
        attributes = dict(state.attributes)
        if flags:
            attributes["supported_features"] = functools.reduce(
                operator.or_, (int(member) for member in flags[0]), 0
            )
        if state.domain == "light":
            attributes.setdefault("supported_color_modes", ["color_temp", "hs"])
            attributes.setdefault("color_mode", "hs")
        hass.states.async_set(state.entity_id, state.state, attributes)


async def async_child(job: dict[str, Any]) -> list[dict[str, Any]]:
    from .hass_core import async_home_assistant

    async with async_home_assistant(("conversation", "intent")) as hass:
        return await async_predict_home(hass, job["home"], job["cases"])


def predict_home(home: dict[str, Any], cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`async_predict_home` in a child process with its own Home Assistant."""
    with tempfile.TemporaryDirectory(prefix="bench-peer-ha-") as tmp:
        job, out = Path(tmp) / "job.json", Path(tmp) / "out.json"
        job.write_text(json.dumps({"home": home, "cases": cases}), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "bench.peer_ha", "--child", str(job), str(out)],
            cwd=report.ROOT,
            check=False,
        )
        if done.returncode != 0 or not out.exists():
            raise RuntimeError(
                f"the child process for home {home.get('home_id')} failed "
                f"(exit code {done.returncode})"
            )
        predictions: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
        return predictions


def run(
    homes_dir: str | Path, case_files: Sequence[str | Path]
) -> tuple[list[dict[str, Any]], list[suite.TurnScore]]:
    homes = suite.load_homes(homes_dir)
    cases = [case for path in case_files for case in suite.load_cases(path)]
    by_home: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        by_home.setdefault(case["home_id"], []).append(case)
    predictions: list[dict[str, Any]] = []
    for home_id, home_cases in sorted(by_home.items()):
        if home_id not in homes:
            print(f"peer_ha: unknown home {home_id!r}; its turns predict nothing", file=sys.stderr)
            continue
        started = time.perf_counter()
        predictions += predict_home(homes[home_id], home_cases)
        print(
            f"peer_ha: {home_id}: {sum(len(c['turns']) for c in home_cases)} turns, "
            f"{time.perf_counter() - started:.1f} s",
            file=sys.stderr,
        )
    return predictions, suite.score(cases, predictions)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--child"] and len(args_list) == 3:  # predict_home's child
        job = json.loads(Path(args_list[1]).read_text(encoding="utf-8"))
        Path(args_list[2]).write_text(json.dumps(asyncio.run(async_child(job))), encoding="utf-8")
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--homes", required=True, help="directory of <home_id>.json files")
    parser.add_argument("--cases", required=True, action="append", help="cases .jsonl (repeatable)")
    parser.add_argument("--out", required=True, help="predictions .jsonl to write")
    parser.add_argument(
        "--write",
        default=None,
        help="put the table into this file between <!-- SECTION:start/end -->",
    )
    parser.add_argument(
        "--section", default=MARKER, help=f"the section's name in that file (default {MARKER})"
    )
    args = parser.parse_args(args_list)
    started = time.perf_counter()
    predictions, scores = run(args.homes, args.cases)
    suite.write_predictions(args.out, predictions)
    elapsed = time.perf_counter() - started
    table = suite.format_table(
        suite.by_language(scores),
        title=(
            f"Home Assistant {_version('homeassistant')}'s default agent (hassil "
            f"{_version('hassil')} + home-assistant-intents "
            f"{_version('home-assistant-intents')}), in a real Home Assistant"
        ),
    )
    print(table)
    if args.write:
        report.write_table(args.write, args.section, table, "bench.peer_ha", args_list, elapsed)
    print(f"wrote {args.out}; total run time {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
