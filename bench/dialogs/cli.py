"""`python -m bench.dialogs`: the dialogs of bench/dialogs/data said to a real Home Assistant
with the demo home, through our agent and Home Assistant's own, judged by what happens to the
home turn by turn.

    bash scripts/newest .venv-newest/bin/python -m bench.dialogs            # newest tier, both
    .venv/bin/python -m bench.dialogs --tier oldest --limit 12   # 12 dialogs a language, oldest
    .venv/bin/python -m bench.dialogs --check                              # the data only
    .venv/bin/python -m bench.dialogs --tables-from out/dialogs/newest/results.jsonl

Writes out/dialogs/<tier>/results.jsonl (one line per agent and turn: what was said, the
reply, the changes, the verdict and why, the round trip in ms) and tables.md; prints the
tables; `--write-benchmarks` puts them into BENCHMARKS.md with the machine and the command.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp

from ..load.server import load_devhome
from ..report import command_line, load_average, machine_info, machine_line, write_section
from .home import seed_of
from .loader import ROOT, load_dialogs, shortfalls, turn_counts
from .model import CATEGORIES, LANGUAGES, DataError, Dialog
from .runner import HOME_ASSISTANT_AGENT, TurnResult, observe, run_all
from .server import ServerError, home_assistant
from .tables import format_tables

MODULE = "bench.dialogs"


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=f"python -m {MODULE}",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--tier", choices=("newest", "oldest"), default="newest")
    parser.add_argument("--python", help="the interpreter that runs Home Assistant")
    parser.add_argument("--agent", choices=("ours", "home_assistant", "both"), default="both")
    parser.add_argument("--data", type=Path, action="append", help="a dialogs file (repeatable)")
    parser.add_argument("--lang", action="append", choices=sorted(LANGUAGES))
    parser.add_argument("--category", action="append", choices=CATEGORIES)
    parser.add_argument("--dialog", action="append", help="a dialog id (repeatable)")
    parser.add_argument(
        "--limit",
        type=int,
        help="at most this many dialogs per language, spread over its file (every category)",
    )
    parser.add_argument("--out", type=Path, help="default: out/dialogs/<tier>")
    parser.add_argument(
        "--write-benchmarks",
        nargs="?",
        const=str(ROOT / "BENCHMARKS.md"),
        metavar="FILE",
        help="put the tables into FILE (default BENCHMARKS.md)",
    )
    parser.add_argument("--check", action="store_true", help="check the data, start nothing")
    parser.add_argument("--tables-from", type=Path, metavar="RESULTS", help="tables of a run")
    return parser.parse_args(argv)


def select(dialogs: list[Dialog], args: argparse.Namespace) -> list[Dialog]:
    chosen = [
        d
        for d in dialogs
        if (not args.lang or d.lang in args.lang)
        and (not args.category or d.category in args.category)
        and (not args.dialog or d.id in args.dialog)
    ]
    if args.limit:
        by_lang: dict[str, list[Dialog]] = {}
        for dialog in chosen:
            by_lang.setdefault(dialog.lang, []).append(dialog)
        kept = set()
        for group in by_lang.values():
            step = max(1.0, len(group) / args.limit)
            kept |= {group[int(i * step)].id for i in range(min(args.limit, len(group)))}
        chosen = [d for d in chosen if d.id in kept]
    return chosen


def _print_counts(dialogs: list[Dialog]) -> None:
    languages, categories, kinds = turn_counts(dialogs)
    print(f"{len(dialogs)} dialogs, {sum(languages.values())} turns")
    for title, counts in (("language", languages), ("category", categories), ("kind", kinds)):
        print(f"  by {title}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


def _progress(out: Any) -> Any:
    def report(dialog: Dialog, agent: str, done: list[TurnResult]) -> None:
        for result in done:
            out.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
        out.flush()
        marks = "".join("." if r.ok else ("H" if r.harmful else "x") for r in done)
        print(f"  {dialog.id:<28} {agent:<15} {marks}", flush=True)

    return report


async def _run(home: Any, dialogs: list[Dialog], agents: dict[str, str], out: Any) -> list[Any]:
    devhome = load_devhome()
    seed = seed_of(devhome.build_plan(devhome.load_home()))
    async with aiohttp.ClientSession() as session:
        api = devhome.Api(session, home.url, home.token)
        try:
            ctx = await observe(api, seed)
            if ctx.volatile:
                print("changing by themselves (ignored): " + ", ".join(sorted(ctx.volatile)))
            return await run_all(ctx, dialogs, agents, _progress(out))
        finally:
            await api.close()


def _write_benchmarks(path: str, tables: str, tier: str, version: str, argv: list[str]) -> None:
    info = {**machine_info(), "homeassistant": version}
    body = "\n\n".join([tables, machine_line(info), f"Command: `{command_line(MODULE, argv)}`."])
    marker = f"dialogs-{tier}"
    write_section(path, f"<!-- {marker}:start -->", f"<!-- {marker}:end -->", body)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _arguments(argv)
    if args.tables_from:
        lines = args.tables_from.read_text(encoding="utf-8").splitlines()
        results = [TurnResult.from_json(json.loads(line)) for line in lines if line.strip()]
        count = len({r.dialog for r in results})
        print(format_tables(results, count, "(see the run)", args.tier))
        return 0
    try:
        dialogs = load_dialogs(args.data)
    except DataError as err:
        print(f"bench.dialogs: bad data: {err}", file=sys.stderr)
        return 2
    if args.check:
        _print_counts(dialogs)
        problems = shortfalls(dialogs)
        for problem in problems:
            print(f"  short: {problem}")
        return 1 if problems else 0
    chosen = select(dialogs, args)
    if not chosen:
        print("bench.dialogs: no dialog selected", file=sys.stderr)
        return 2
    _print_counts(chosen)
    out_dir: Path = args.out or ROOT / "out" / "dialogs" / args.tier
    out_dir.mkdir(parents=True, exist_ok=True)
    started, load_before = time.monotonic(), load_average()
    try:
        with home_assistant(args.tier, args.python) as home:
            print(f"Home Assistant {home.version} ready at {home.url}", flush=True)
            agents = {"ours": home.agent_id, "home_assistant": HOME_ASSISTANT_AGENT}
            if args.agent != "both":
                agents = {args.agent: agents[args.agent]}
            with (out_dir / "results.jsonl").open("w", encoding="utf-8") as out:
                results = asyncio.run(_run(home, chosen, agents, out))
            version = str(home.version)
    except ServerError as err:
        print(f"bench.dialogs: {err}", file=sys.stderr)
        return 1
    tables = format_tables(results, len(chosen), version, args.tier)
    tables += (
        f"\nRun time {time.monotonic() - started:.0f} s; load average (1/5/15 min) before "
        f"{load_before}, after {load_average()} (the machine's 2 cores may be shared: the "
        "latencies move with that load).\n"
    )
    (out_dir / "tables.md").write_text(tables, encoding="utf-8")
    print(tables)
    print(f"results: {out_dir / 'results.jsonl'}")
    if args.write_benchmarks:
        _write_benchmarks(args.write_benchmarks, tables, args.tier, version, argv)
    return 0
