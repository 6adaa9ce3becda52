"""Questions about the home, judged by what the asker would hear: correct answers per language
and false "none" answers to safety questions.

    .venv/bin/python -m bench.questions_eval [--set tests/data/questions_eval] [--verbose]
        [--write BENCHMARKS.md]

A case (one line of `<language>.jsonl`) names a home (`demo` or a file of `tests/data/homes/`),
optional state changes (`states`: entity id → state) and the question. Its `expect` holds a
small expression over the home's records, written by hand beside the question, from which the
expected answer is computed here — never from the engine's output:

- an expression is an object of conditions that must all hold (`domain`, `device_class`,
  `state`, `area`, `floor`, `entity_id`: the record's value is one of the list; `label`: one
  label in common; `below` / `above`: the state as a number; `not`: an expression that must
  not hold), or a list of such objects of which one must hold;
- `list`: the entities listed are exactly those the `match` expression picks (and the count);
- `count`: the count is the number it picks;
- `value`: the readings given are of exactly the entities it picks;
- `aggregate`: `op` (avg/sum/min/max) over the numeric states it picks (min/max: the entity);
- `yes_no`: of the entities `ask` picks, any (`mode: any`) or all (`mode: all`) satisfy
  `status`; the answer must be that yes or no;
- `refuse`: a command said as if a question: no plan may be made or stored for it.

A case marked `safety` asks whether something is unsafe (a door unlocked or open, a window
open, a leak, smoke); when the expected answer is yes, an answer of "none"/"no" is a false
safety answer and is counted apart. An answer is correct only when the compiler is confident
(an unsure reading is not run by the integration).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.queries.questions import rows_with_units
from custom_components.context_retrieval.core import (
    DeviceIndex,
    Home,
    LexiconSet,
    default_lexicons,
    load_home,
)
from custom_components.context_retrieval.core.base.models import Device
from custom_components.context_retrieval.core.questions.answer import answer
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import QueryResult, execute
from custom_components.context_retrieval.core.questions.rows import StateRow

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SET = ROOT / "tests" / "data" / "questions_eval"
HOMES = {"demo": ROOT / "demo" / "home.json"}
HOMES_DIR = ROOT / "tests" / "data" / "homes"
SECTION = "## Questions: evaluation set (bench.questions_eval)"
TARGET = 0.95

_LISTS = ("domain", "device_class", "state", "area", "floor", "entity_id")


@dataclass
class Outcome:
    id: str
    question: str
    kind: str
    correct: bool
    safety: bool
    false_none: bool
    detail: str
    said: str = ""


# --- the expected answer, from the home's records ----------------------------------------------


def _number(state: str | None) -> float | None:
    try:
        value = float(state or "")
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def holds(expr: Any, device: Device, floor_of: dict[str, str | None]) -> bool:
    """Whether the record satisfies the case's expression."""
    if isinstance(expr, list):
        return any(holds(e, device, floor_of) for e in expr)
    values = {
        "domain": device.domain,
        "device_class": device.device_class,
        "state": device.state,
        "area": device.area_id,
        "floor": device.floor_id or floor_of.get(device.area_id or ""),
        "entity_id": device.entity_id,
    }
    for key, want in expr.items():
        if key in _LISTS:
            if values[key] not in want:
                return False
        elif key == "label":
            if not set(device.labels) & set(want):
                return False
        elif key in ("below", "above"):
            number = _number(device.state)
            if number is None or not (number < want if key == "below" else number > want):
                return False
        elif key == "not":
            if holds(want, device, floor_of):
                return False
        else:
            raise ValueError(f"unknown condition {key!r}")
    return True


def picked(home: Home, expr: Any) -> set[str]:
    floor_of = {a.area_id: a.floor_id for a in home.areas}
    return {d.entity_id for d in home.devices if holds(expr, d, floor_of)}


# --- what the engine says ----------------------------------------------------------------------


def rows_of(home: Home) -> list[StateRow]:
    return rows_with_units(home.devices)


def said_yes(result: QueryResult, style: str) -> bool | None:
    """The answer's yes or no: None when it says neither (it cannot tell)."""
    if result.uncertain is not None and result.uncertain != "nothing_found":
        return None
    if style in ("yes_no", "yes_no_all"):
        return bool(result.expected)
    return result.count > 0


def judge(case: dict[str, Any], home: Home, index: DeviceIndex, lexicons: LexiconSet) -> Outcome:
    expect = case["expect"]
    kind = expect["kind"]
    compiled = compile_question(case["question"], index, lexicons, case.get("language"))
    safety = bool(case.get("safety"))

    def out(ok: bool, detail: str, false_none: bool = False, said: str = "") -> Outcome:
        return Outcome(case["id"], case["question"], kind, ok, safety, false_none, detail, said)

    if kind == "refuse":
        made = compiled.plan is not None and compiled.confident
        return out(compiled.command and not made, f"command={compiled.command} plan={made}")
    if compiled.plan is None:
        return out(False, f"no plan ({compiled.reason})")
    result = execute(compiled.plan, rows_of(home), lexicons.types)
    said = answer(compiled.plan, result, lexicons.get(compiled.language))
    style = compiled.plan.about.get("style") or compiled.plan.aggregate
    listed = {str(r["entity_id"]) for r in result.rows}
    states = {d.entity_id: d.state for d in home.devices}
    false_none = False
    if kind in ("list", "count", "value"):
        want = picked(home, expect["match"])
        if kind == "list":
            ok = listed == want and result.count == len(want)
        elif kind == "count":
            ok = result.count == len(want)
        else:
            ok = listed == want
        false_none = bool(want) and result.count == 0
        detail = f"got {sorted(listed)} ({result.count}) want {sorted(want)}"
    elif kind == "aggregate":
        numbers = {
            e: n for e in picked(home, expect["match"]) if (n := _number(states[e])) is not None
        }
        op = expect["op"]
        if op in ("avg", "sum"):
            want_value = (
                statistics.fmean(numbers.values()) if op == "avg" else math.fsum(numbers.values())
            )
            ok = result.value is not None and abs(result.value - want_value) <= 0.05
            detail = f"got {result.value} want {want_value:.2f}"
        else:
            want_id = (max if op == "max" else min)(numbers, key=lambda e: numbers[e])
            got = result.best["entity_id"] if result.best else None
            ok, detail = got == want_id, f"got {got} want {want_id}"
    elif kind == "yes_no":
        asked = picked(home, expect["ask"])
        meeting = asked & picked(home, expect["status"])
        want_yes = bool(meeting) if expect.get("mode", "any") == "any" else meeting == asked
        yes = said_yes(result, style)
        ok = yes is want_yes
        false_none = want_yes and yes is False
        detail = f"said {yes} want {want_yes} ({style}; rows {sorted(listed)})"
    else:
        return out(False, f"unknown kind {kind}")
    if ok and not compiled.confident:
        return out(False, f"right but not confident ({compiled.reason}: {compiled.unexplained})")
    return out(ok, detail, safety and false_none, said)


# --- running -----------------------------------------------------------------------------------


def _home(name: str) -> Home:
    return load_home(HOMES.get(name) or HOMES_DIR / f"{name}.json")


def with_states(home: Home, states: dict[str, str]) -> Home:
    unknown = set(states) - {d.entity_id for d in home.devices}
    if unknown:
        raise ValueError(f"states for entities the home lacks: {sorted(unknown)}")
    devices = [replace(d, state=states.get(d.entity_id, d.state)) for d in home.devices]
    return replace(home, devices=devices)


def load_cases(set_dir: Path) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(set_dir.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                case = json.loads(line)
                case.setdefault("language", path.stem)
                case.setdefault("id", f"{path.stem}-{number}")
                out.setdefault(path.stem, []).append(case)
    return out


def evaluate(set_dir: Path, lexicons: LexiconSet | None = None) -> dict[str, list[Outcome]]:
    lexicons = lexicons or default_lexicons()
    bases: dict[str, Home] = {}
    built: dict[tuple[str, str], tuple[Home, DeviceIndex]] = {}
    out: dict[str, list[Outcome]] = {}
    for language, cases in load_cases(set_dir).items():
        for case in cases:
            name = case.get("home", "demo")
            states = case.get("states") or {}
            key = (name, json.dumps(states, sort_keys=True))
            if key not in built:
                if name not in bases:
                    bases[name] = _home(name)
                home = with_states(bases[name], states)
                # The index reads names and places, not states: one per home would do, but a
                # build per state set keeps each case on its own records.
                index = DeviceIndex.build(
                    home.devices, home.areas, home.floors, language=home.language
                )
                built[key] = (home, index)
            home, index = built[key]
            out.setdefault(language, []).append(judge(case, home, index, lexicons))
    return out


def summary(results: dict[str, list[Outcome]]) -> list[dict[str, Any]]:
    table = []
    for language, outcomes in sorted(results.items()):
        right = sum(o.correct for o in outcomes)
        safety = [o for o in outcomes if o.safety]
        table.append(
            {
                "language": language,
                "cases": len(outcomes),
                "correct": right,
                "rate": right / len(outcomes),
                "safety": len(safety),
                "safety_correct": sum(o.correct for o in safety),
                "false_none": sum(o.false_none for o in outcomes),
            }
        )
    return table


def _markdown(table: list[dict[str, Any]], command: str, seconds: float) -> str:
    try:
        from homeassistant import const as ha_const

        ha_version = str(ha_const.__version__)
    except ImportError:  # the engine alone: no Home Assistant in the environment
        ha_version = "not installed (engine only)"
    total = sum(r["cases"] for r in table)
    lines = [
        SECTION,
        "",
        f"Machine: {platform.machine()}, {platform.system()} {platform.release()}, Python "
        f"{platform.python_version()}; Home Assistant {ha_version}; "
        f"{datetime.now(UTC):%Y-%m-%d}.",
        f"Command: `{command}` ({total} questions, {seconds:.1f} s).",
        "",
        "Hand-written questions over the demo home and the test homes (tests/data/homes), "
        "some with states changed so that a door is unlocked, a window open or a leak "
        "reported; each case's expected rows or answer come from an expression over the "
        "home's records written in the case, never from the engine. A safety question whose "
        "answer is yes and that is answered with none/no counts as a false 'none'.",
        "",
        "| language | questions | correct | rate | safety questions | safety correct "
        "| false 'none' |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in table:
        lines.append(
            f"| {r['language']} | {r['cases']} | {r['correct']} | {r['rate']:.3f} "
            f"| {r['safety']} | {r['safety_correct']} | {r['false_none']} |"
        )
    return "\n".join(lines) + "\n"


def write_section(path: Path, text: str) -> None:
    """Replace this benchmark's section in `path` (up to the next `## `), or append it."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    start = old.find(SECTION)
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        end = old.find("\n## ", start + len(SECTION))
        new = old[:start] + text + (old[end + 1 :] if end >= 0 else "")
    path.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="question set directory")
    parser.add_argument("--verbose", action="store_true", help="print every miss")
    parser.add_argument("--write", type=Path, help="add or replace the section in this file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    results = evaluate(args.set)
    seconds = time.perf_counter() - started
    table = summary(results)
    for r in table:
        print(
            f"{r['language']}: {r['correct']}/{r['cases']} = {r['rate']:.3f}; safety "
            f"{r['safety_correct']}/{r['safety']}, false 'none' {r['false_none']}"
        )
    per_kind: Counter[str] = Counter()
    for outcomes in results.values():
        for o in outcomes:
            per_kind[o.kind] += 1
    print("kinds:", ", ".join(f"{k} {n}" for k, n in sorted(per_kind.items())))
    if args.verbose:
        for outcomes in results.values():
            for o in outcomes:
                if not o.correct:
                    print(f"  ✗ {o.id} {o.question!r}: {o.detail} | {o.said}")
    if args.write:
        command = "python -m bench.questions_eval --write " + str(args.write)
        write_section(args.write, _markdown(table, command, seconds))
    ok = all(r["rate"] >= TARGET and r["false_none"] == 0 for r in table)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
