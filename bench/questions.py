"""Accuracy of the deterministic question compiler on question sets with gold answers.

    .venv/bin/python -m bench.questions [--set tests/data/questions_heldout] [--verbose]

A question set is a directory of `<language>.jsonl` files; each line has `question`, an
`expect` (see tests/data/questions_heldout/README.md) and optionally `home`, the file name
(without `.json`) of a home in `--homes` (default: the benchmark dev homes; without `home`,
the demo home). Gold answers are computed here from the home file, independently of the
compiler: the question is compiled, executed over the home's states and the result compared
with the gold per kind:

- list: the listed entities equal the gold set; count: the count equals its size;
- value: the listed entities equal the named sensor(s);
- aggregate: avg/sum equal the gold number (±0.05), max/min name the gold extreme entity;
- yes_no: the plan asks about the named entity and the answer (yes/no) matches.

A question counts as correct only when the compiler is also confident (a guess that happens
to be right would still be forwarded to the LLM).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from custom_components.context_retrieval.core import (
    DeviceIndex,
    Home,
    LexiconSet,
    default_lexicons,
    load_home,
)
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import execute
from custom_components.context_retrieval.core.questions.rows import StateRow

ROOT = Path(__file__).resolve().parents[1]
DEMO_HOME = ROOT / "demo" / "home.json"
DEV_HOMES = ROOT.parent / "shared" / "benchmark" / "dev" / "homes"

# What a sensor of each device class reports in; the home files carry bare numbers.
UNITS = {
    "temperature": "°C",
    "humidity": "%",
    "battery": "%",
    "power": "W",
    "energy": "kWh",
    "pm25": "µg/m³",
    "illuminance": "lx",
}


# Numeric thresholds in `where` (both spellings occur): the sign of (state − limit) required.
_THRESHOLDS = {"below": -1, "state_lt": -1, "above": 1, "state_gt": 1}


@dataclass
class Outcome:
    id: str
    question: str
    kind: str
    correct: bool
    detail: str


def home_rows(home: Home) -> list[StateRow]:
    rows = []
    for device in home.devices:
        unit = UNITS.get(device.device_class or "") if device.domain == "sensor" else None
        rows.append(
            StateRow.from_device(device, attributes={"unit_of_measurement": unit} if unit else None)
        )
    return rows


def _number(state: str) -> float | None:
    try:
        return float(state)
    except (TypeError, ValueError):
        return None


def gold_set(home: Home, where: dict[str, Any]) -> set[str]:
    """Entities matching every key of `where` (each key: the value is one of the list)."""
    floor_of = {a.area_id: a.floor_id for a in home.areas}
    found = set()
    for d in home.devices:
        values = {
            "domain": d.domain,
            "device_class": d.device_class,
            "state": d.state,
            "area": d.area_id,
            "floor": d.floor_id or floor_of.get(d.area_id or ""),
            "entity_id": d.entity_id,
        }
        ok = all(
            values.get(k) in v for k, v in where.items() if k not in _THRESHOLDS and k != "label"
        )
        if "label" in where:
            ok = ok and bool(set(d.labels) & set(where["label"]))
        number = _number(d.state or "")
        for key, sign in _THRESHOLDS.items():
            if key in where:
                ok = ok and number is not None and (number - where[key]) * sign > 0
        if ok:
            found.add(d.entity_id)
    return found


def judge(
    expect: dict[str, Any],
    home: Home,
    index: DeviceIndex,
    lexicons: LexiconSet,
    question: str,
    language: str,
) -> tuple[bool, str]:
    compiled = compile_question(question, index, lexicons, language)
    if compiled.plan is None:
        return False, f"no plan ({compiled.reason})"
    rows = home_rows(home)
    result = execute(compiled.plan, rows, lexicons.types)
    listed = {r["entity_id"] for r in result.rows}
    kind = expect["kind"]
    states = {d.entity_id: d.state for d in home.devices}
    if kind in ("list", "count"):
        want = gold_set(home, expect["where"])
        ok = (result.count == len(want)) if kind == "count" else (listed == want)
        detail = f"got {sorted(listed)} ({result.count}) want {sorted(want)}"
    elif kind == "value":
        want = set(expect.get("entity_ids") or [expect["entity_id"]])
        ok, detail = listed == want, f"got {sorted(listed)} want {sorted(want)}"
    elif kind == "aggregate":
        members = gold_set(home, expect["where"])
        numbers = {e: n for e in members if (n := _number(states[e] or "")) is not None}
        op = expect["op"]
        if op in ("avg", "sum"):
            want_value = (
                statistics.fmean(numbers.values()) if op == "avg" else sum(numbers.values())
            )
            ok = result.value is not None and abs(result.value - want_value) <= 0.05
            detail = f"got {result.value} want {want_value:.2f}"
        else:
            pick = max if op == "max" else min
            want_id = pick(numbers, key=lambda e: numbers[e])
            got = result.best["entity_id"] if result.best else None
            ok, detail = got == want_id, f"got {got} want {want_id}"
    elif kind == "yes_no":
        # What the plan asks about: its entities before any status is required of them.
        unasked = replace(
            compiled.plan,
            expect=None,
            where=tuple(
                tuple(f for f in clause if f.field != "status") for clause in compiled.plan.where
            ),
        )
        asked = {r["entity_id"] for r in execute(unasked, rows, lexicons.types).rows}
        yes = result.expected if result.expected is not None else bool(result.rows)
        ok = expect["entity_id"] in asked and yes is expect["answer"]
        detail = f"asked {sorted(asked)} answered {yes} want {expect['answer']}"
    else:
        return False, f"unknown kind {kind}"
    if ok and not compiled.confident:
        return False, f"right but not confident ({compiled.reason}: {compiled.unexplained})"
    return ok, detail


def evaluate(
    set_dir: Path, homes_dir: Path = DEV_HOMES, lexicons: LexiconSet | None = None
) -> dict[str, list[Outcome]]:
    lexicons = lexicons or default_lexicons()
    loaded: dict[str, tuple[Home, DeviceIndex]] = {}
    out: dict[str, list[Outcome]] = {}
    for path in sorted(set_dir.glob("*.jsonl")):
        language = path.stem
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            home_path = homes_dir / f"{case['home']}.json" if case.get("home") else DEMO_HOME
            if str(home_path) not in loaded:
                home = load_home(home_path)
                loaded[str(home_path)] = (
                    home,
                    DeviceIndex.build(
                        home.devices, home.areas, home.floors, language=home.language
                    ),
                )
            home, index = loaded[str(home_path)]
            ok, detail = judge(case["expect"], home, index, lexicons, case["question"], language)
            out.setdefault(language, []).append(
                Outcome(case["id"], case["question"], case["expect"]["kind"], ok, detail)
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--set", type=Path, action="append", help="question set directory (repeatable)"
    )
    parser.add_argument("--homes", type=Path, default=DEV_HOMES)
    parser.add_argument("--verbose", action="store_true", help="print every miss")
    args = parser.parse_args(argv)
    sets = args.set or [ROOT / "tests/data/questions", ROOT / "tests/data/questions_heldout"]
    lexicons = default_lexicons()
    for set_dir in sets:
        results = evaluate(set_dir, args.homes, lexicons)
        print(f"# {set_dir}")
        for language, outcomes in results.items():
            right = sum(o.correct for o in outcomes)
            per_kind: Counter[str] = Counter()
            kind_right: Counter[str] = Counter()
            for o in outcomes:
                per_kind[o.kind] += 1
                kind_right[o.kind] += o.correct
            kinds = ", ".join(f"{k} {kind_right[k]}/{n}" for k, n in sorted(per_kind.items()))
            print(f"{language}: {right}/{len(outcomes)} = {right / len(outcomes):.3f} ({kinds})")
            if args.verbose:
                for o in outcomes:
                    if not o.correct:
                        print(f"  ✗ {o.id} {o.question!r}: {o.detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
