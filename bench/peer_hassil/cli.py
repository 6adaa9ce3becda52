"""Peer benchmark: Home Assistant's own default-agent matcher on our entity-retrieval suite.

The peer is hassil + the home-assistant-intents sentence data (whatever versions are installed),
driven the way `homeassistant/components/conversation/default_agent.py` drives it:

- slot lists per home: `name` from entity names and aliases (with `domain` / `device_class` as
  match context), `area` from area names and aliases, `floor` from floor names and aliases
  (a floor alias outputs the floor name);
- the `name` list is pre-filtered with hassil's trie on the lower-cased text, as HA does;
- `recognize_best(..., best_metadata_key="hass_custom_sentence", best_slot_name="name")`,
  with `intent_context={"area": ...}` when the turn has a satellite area;
- the matched slots are resolved to entity ids the way `helpers/intent.py::async_match_targets`
  does (see `resolve_target`).

Deliberate simplifications (the benchmark homes do not carry the data, or it is not about
*which* entities are meant): no `required_states` (e.g. "pause" only hitting playing players),
no `supported_features`, no area temperature sensor lookup for HassClimateGetTemperature, and
no third "unmatched entities" recognition pass (HA only uses it to word an error message).

hassil has no conversation memory, so every turn of a multi-turn case is run on its own and
hassil never asks back: `clarification` is always null.

Run from the repository root:

    .venv/bin/python -m bench.peer_hassil --homes DIR --cases FILE [--cases FILE2 ...] \\
        --out PRED.jsonl
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from bench import report, suite

from .hassil_api import package_version
from .peer import PeerStats, run


def main(argv: Sequence[str] | None = None) -> int:
    """CLI: run the peer, print the per-language table, write predictions."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.peer_hassil",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument("--homes", required=True, help="directory of <home_id>.json files")
    parser.add_argument("--cases", required=True, action="append", help="cases .jsonl (repeatable)")
    parser.add_argument("--out", required=True, help="predictions .jsonl to write")
    parser.add_argument(
        "--write", default=None, help="put the table into this file between <!-- peer:start/end -->"
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    stats = PeerStats()
    try:
        predictions, scores = run(args.homes, args.cases, stats)
    except ImportError as err:
        print(
            f"peer_hassil: hassil / home-assistant-intents not importable ({err}); "
            "install requirements_test.txt",
            file=sys.stderr,
        )
        return 2
    suite.write_predictions(args.out, predictions)
    elapsed = time.perf_counter() - started

    api_version = package_version("hassil"), package_version("home-assistant-intents")
    table = suite.format_table(
        suite.by_language(scores),
        title=f"peer: hassil {api_version[0]} + home-assistant-intents {api_version[1]}",
    )
    print(table)
    if args.write:
        report.write_table(
            args.write, "peer", table, "bench.peer_hassil", list(argv or sys.argv[1:]), elapsed
        )
    print()
    outcomes = ", ".join(f"{k}: {v}" for k, v in sorted(stats.outcomes.items()))
    print(f"turns: {len(predictions)} ({outcomes})")
    print(f"exceptions: {stats.outcomes['exception']}")
    for line in stats.exceptions[:10]:
        print(f"  {line}")
    print(f"wrote {args.out}; total run time {elapsed:.1f} s")
    return 0
