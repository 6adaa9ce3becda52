"""Speed of natural questions ("which lights are on upstairs?") on synthetic homes.

    .venv/bin/python -m bench.queries [--sizes 1000,5000] [--runs N] [--write BENCHMARKS.md]

For each size and language the home comes from `bench.synthetic.make_home`, with sensor
readings made plausible (seeded: one-decimal temperatures, humidities and power, whole-number
batteries, 1 % of entities unavailable) and a unit per sensor device class (°C, %, W, kWh, …)
in the state rows. A pool of questions of every shape (list, count, reading, average / highest
/ lowest / total, "is X locked?", "what is on in …", thresholds, low batteries) is built from
the home's own area and floor names, in English or Chinese. Then, each run timed separately
with `time.perf_counter` (after one untimed pass that warms the caches a running Home
Assistant has warm); p50 / p95 / max:

- compile + execute = `compile_question` + `execute` + `answer`: a question seen for the first
  time (every timed question starts by refreshing the state rows with `RowCache` after 1 % of
  the states changed, as the integration does);
- cached = what a cache hit costs: `policy.cached_choice` (the integration's lookup; a stored
  question is found by its first step, `PlanStore.exact` on a real SQLite file, every pool
  question saved with its plan, + `validate_plan` of the stored plan) + `execute` + `answer`;
- similar = `PlanStore.similar` (a reworded pool question) with 1,000 plans stored in the
  language (the pool plus questions from the same templates over every area and floor).

"confident" is the share of pool questions the compiler was sure about (informative only).
Targets: cached p95 ≤ 10 ms and compile + execute p95 ≤ 30 ms at 5,000 entities. `main`
returns non-zero only on errors, never on a missed target.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from custom_components.context_retrieval.core import (
    DeviceIndex,
    LexiconSet,
    default_lexicons,
    home_from_dict,
)
from custom_components.context_retrieval.core.questions.answer import answer
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import RowIndex, execute
from custom_components.context_retrieval.core.questions.plan import (
    PlanError,
    QueryPlan,
    validate_plan,
)
from custom_components.context_retrieval.core.questions.policy import cached_choice
from custom_components.context_retrieval.core.questions.rows import RowCache, StateRow
from custom_components.context_retrieval.core.questions.store import PlanStore

from .report import load_average, percentile, write_table
from .synthetic import make_home

STORED_PLANS = 1000
UNAVAILABLE_SHARE = 0.01

# What a sensor of each device class reports in.
UNITS = {
    "temperature": "°C",
    "humidity": "%",
    "battery": "%",
    "power": "W",
    "energy": "kWh",
    "carbon_dioxide": "ppm",
    "pm25": "µg/m³",
    "illuminance": "lx",
}

# Plausible readings per device class: (low, high, decimals).
READINGS: dict[str, tuple[float, float, int]] = {
    "temperature": (17.0, 27.5, 1),
    "humidity": (30.0, 70.0, 1),
    "battery": (5, 100, 0),
    "power": (0.0, 2000.0, 1),
    "energy": (0.0, 20.0, 2),
    "carbon_dioxide": (400, 1400, 0),
    "pm25": (2, 80, 0),
    "illuminance": (0, 800, 0),
}

# Question templates. Placeholders: {floor} {floor_b} a floor; {area_*} an area that has the
# thing asked about (light, temp, hum, curtain, tv, lock, co2, any); {lock} a lock's own name.
# English areas are said with "the" unless numbered ("in the Lobby", "in Room 204").
TEMPLATES: dict[str, tuple[str, ...]] = {
    "en": (
        "Which lights are on in {area_light}?",
        "Which lights are on on {floor}?",
        "How many lights are on?",
        "Which lights are on?",
        "How many windows are open on {floor}?",
        "Are any windows open?",
        "What's the temperature in {area_temp}?",
        "What's the humidity in {area_hum}?",
        "What's the average humidity?",
        "What's the average temperature on {floor_b}?",
        "What's the highest temperature?",
        "Where is it coldest on {floor}?",
        "What's the lowest humidity reading?",
        "Which devices have a low battery?",
        "Is the {lock} locked?",
        "Is the door lock in {area_lock} locked?",
        "What's on in {area_any}?",
        "Which curtains are open in {area_curtain}?",
        "How many blinds are closed on {floor_b}?",
        "Which doors are open?",
        "Are any doors unlocked?",
        "How many locks are there?",
        "Which media players are playing?",
        "Is anything playing right now?",
        "How many TVs are on on {floor_b}?",
        "Which temperature sensors read above 25 degrees?",
        "What's the total power consumption?",
        "Which plugs are switched on?",
        "How many motion sensors are there?",
        "Is the TV in {area_tv} on?",
        "Which fans are running?",
        "Are any lights on in {area_light}?",
        "What devices are unavailable right now?",
        "How many lights does {area_light} have?",
        "Which switches are on on {floor}?",
        "Is there a water leak anywhere?",
        "What's the CO2 level in {area_co2}?",
        "Which blinds are open?",
    ),
    "zh": (
        "{area_light}哪些灯开着？",
        "{floor}有哪些灯亮着？",
        "家里一共开着几盏灯？",
        "哪些灯开着？",
        "{floor}有几扇窗户开着？",
        "有没有窗户开着？",
        "{area_temp}温度多少？",
        "{area_hum}湿度是多少？",
        "平均湿度是多少？",
        "{floor_b}平均温度多少？",
        "最高温度是多少？",
        "{floor}哪里最冷？",
        "哪里湿度最低？",
        "哪些设备电量低？",
        "{lock}锁好了吗？",
        "{area_lock}的门锁锁了吗？",
        "{area_any}有什么开着？",
        "{area_curtain}哪些窗帘是拉开的？",
        "{floor_b}有几个百叶窗是关着的？",
        "哪些门开着？",
        "有没有哪把锁没锁上？",
        "家里一共有几把锁？",
        "现在有哪些播放器在播放？",
        "有没有设备在播放？",
        "{floor_b}有几台电视开着？",
        "哪些温度传感器超过25度？",
        "全屋总功率是多少？",
        "哪些插座是通着电的？",
        "一共有几个人体传感器？",
        "{area_tv}的电视开着吗？",
        "哪些风扇在转？",
        "{area_light}有灯开着吗？",
        "哪些设备现在不可用？",
        "{area_light}有几盏灯？",
        "{floor}有哪些开关开着？",
        "哪里检测到漏水了？",
        "{area_co2}的二氧化碳浓度是多少？",
        "哪些百叶窗是打开的？",
    ),
}

# Area placeholders → what the area must hold: (domain, device_class or None for any).
AREA_NEEDS: dict[str, tuple[str, str | None] | None] = {
    "area_light": ("light", None),
    "area_temp": ("sensor", "temperature"),
    "area_hum": ("sensor", "humidity"),
    "area_curtain": ("cover", "curtain"),
    "area_tv": ("media_player", "tv"),
    "area_lock": ("lock", None),
    "area_co2": ("sensor", "carbon_dioxide"),
    "area_any": None,
}

# Rewordings for the similarity lookups and for the filler questions of the store.
PREFIXES = {
    "en": ("hey, ", "please tell me: ", "quick question: ", "can you check: "),
    "zh": ("请问，", "帮我看看，", "麻烦问一下，", "我想知道，"),
}


def bench_home(size: int, language: str, seed: int) -> dict[str, Any]:
    """`make_home` with plausible sensor readings and a few unavailable entities."""
    home = make_home(size, language, seed)
    rng = random.Random(f"queries:{size}:{language}:{seed}")
    for entity in home["entities"]:
        if entity["domain"] == "sensor":
            low, high, decimals = READINGS.get(entity.get("device_class") or "", (0, 100, 0))
            value = round(rng.uniform(low, high), decimals)
            entity["state"] = str(int(value)) if decimals == 0 else f"{value:.{decimals}f}"
        if rng.random() < UNAVAILABLE_SHARE:
            entity["state"] = "unavailable"
    return home


def state_rows(home: dict[str, Any]) -> tuple[Any, list[StateRow]]:
    """The parsed home and one state row per entity, with units on sensors."""
    parsed = home_from_dict(home)
    rows = []
    for device in parsed.devices:
        unit = UNITS.get(device.device_class or "") if device.domain == "sensor" else None
        rows.append(
            StateRow.from_device(device, attributes={"unit_of_measurement": unit} if unit else None)
        )
    return parsed, rows


def _slots(home: dict[str, Any], language: str, rng: random.Random) -> dict[str, list[str]]:
    """Every value each placeholder may take in this home, in a seeded order."""
    holds: dict[str, set[tuple[str, str | None]]] = {}
    for e in home["entities"]:
        if e.get("area_id"):
            holds.setdefault(e["area_id"], set()).update(
                {(e["domain"], None), (e["domain"], e.get("device_class"))}
            )

    def said(area: dict[str, Any]) -> str:
        name = str(area["name"])
        if language == "zh" or name.split()[0] == "Room":
            return name
        return f"the {name}"

    slots: dict[str, list[str]] = {}
    for key, need in AREA_NEEDS.items():
        slots[key] = [
            said(a)
            for a in home["areas"]
            if a["area_id"] in holds and (need is None or need in holds[a["area_id"]])
        ]
    floors = [str(f["name"]) for f in home["floors"]]
    slots["floor"] = floors
    slots["floor_b"] = floors[::-1]
    names: dict[str, int] = {}
    for e in home["entities"]:
        if e["domain"] == "lock":
            names[e["name"]] = names.get(e["name"], 0) + 1
    slots["lock"] = sorted(n for n, count in names.items() if count == 1)
    for values in slots.values():
        rng.shuffle(values)
    return slots


def _fill(template: str, slots: dict[str, list[str]], k: int) -> str | None:
    """The template with the `k`-th value of each of its placeholders; None if one has none."""
    values = {}
    for key, options in slots.items():
        if "{" + key + "}" in template:
            if not options:
                return None
            values[key] = options[k % len(options)]
    return template.format(**values)


def questions_for(home: dict[str, Any], language: str, seed: int = 0) -> list[str]:
    """The pool: every template once, and templates with an area twice (two areas)."""
    slots = _slots(home, language, random.Random(seed))
    pool: list[str] = []
    for template in TEMPLATES[language]:
        for k in range(2 if "{area_" in template else 1):
            question = _fill(template, slots, k)
            if question is not None and question not in pool:
                pool.append(question)
    return pool


def filler_questions(
    home: dict[str, Any], language: str, pool: list[str], n: int, seed: int = 0
) -> list[str]:
    """`n` more questions for the store: templates over further areas and floors, then
    reworded with a prefix, none equal to a pool question."""
    slots = _slots(home, language, random.Random(seed))
    seen = set(pool)
    out: list[str] = []
    k = 0
    prefixes = ("", *PREFIXES[language])
    limit = max((len(v) for v in slots.values()), default=1) * len(prefixes) + 1
    while len(out) < n and k < limit:
        prefix = prefixes[(k // max(1, len(slots["area_any"]))) % len(prefixes)]
        for template in TEMPLATES[language]:
            question = _fill(template, slots, k)
            if question is None:
                continue
            question = prefix + question
            if question not in seen:
                seen.add(question)
                out.append(question)
                if len(out) == n:
                    break
        k += 1
    return out


def _timed(fn: Callable[[str], object], question: str) -> float:
    started = time.perf_counter()
    fn(question)
    return (time.perf_counter() - started) * 1000


def measure(
    size: int,
    language: str,
    runs: int,
    seed: int,
    lexicons: LexiconSet | None = None,
    stored: int = STORED_PLANS,
) -> dict[str, Any]:
    lexicons = lexicons or default_lexicons()
    raw = bench_home(size, language, seed)
    home, rows = state_rows(raw)
    index = DeviceIndex.build(home.devices, home.areas, home.floors, lexicons, language=language)
    lex = lexicons.get(language)
    types = lexicons.types
    type_ids = frozenset(types.types)
    pool = questions_for(raw, language, seed)
    # Kept per index build in Home Assistant, like the index itself: not part of a question.
    row_index = RowIndex(rows)
    # The live states as Home Assistant holds them: one object per entity, replaced on every
    # change. Each timed question first refreshes the rows (`RowCache`, as the integration
    # does) after 1 % of the states changed.
    states = {r.entity_id: _State(r.state, r.attributes) for r in rows}
    row_cache = RowCache()
    churn = random.Random(seed)
    ids = list(states)

    def live_rows() -> list[StateRow]:
        changed = churn.sample(ids, max(1, len(ids) // 100))
        for entity_id in changed:
            old = states[entity_id]
            states[entity_id] = _State(old.state, old.attributes)
        # The integration knows what changed from `state_changed` events.
        return row_cache.rows(index, home.devices, states.get, changed)

    live_rows()  # the first question after a start builds every row

    def compile_execute(question: str) -> str | None:
        current = live_rows()
        compiled = compile_question(question, index, lexicons, language)
        if compiled.plan is None:
            return None
        return answer(
            compiled.plan, execute(compiled.plan, current, types, row_index=row_index), lex
        )

    # One untimed pass: warms the lexicon and regex caches, and gives the plans to store.
    # A plan `validate_plan` rejects could never be reused from the cache: it is not stored
    # (and counted as uncacheable).
    plans: dict[str, QueryPlan] = {}
    confident = planned = 0
    uncacheable: list[str] = []
    for question in pool:
        compiled = compile_question(question, index, lexicons, language)
        confident += compiled.confident
        if compiled.plan is None:
            continue
        planned += 1
        answer(compiled.plan, execute(compiled.plan, rows, types, row_index=row_index), lex)
        try:
            validate_plan(compiled.plan.as_dict(), type_ids)
        except PlanError:
            uncacheable.append(question)
        else:
            plans[question] = compiled.plan
    if not plans:
        raise RuntimeError(f"no question of the {language} pool has a cacheable plan")

    compiled_ms = [_timed(compile_execute, pool[i % len(pool)]) for i in range(runs)]

    cached_ms: list[float] = []
    similar_ms: list[float] = []
    hits = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = PlanStore(Path(tmp) / "plans.db")
        store.open()
        try:
            fallback = next(iter(plans.values()))
            for question, plan in plans.items():
                store.save(question, language, plan.as_dict(), "deterministic")
            for question in filler_questions(raw, language, pool, stored - len(plans), seed):
                compiled = compile_question(question, index, lexicons, language)
                plan = compiled.plan or fallback
                try:
                    validate_plan(plan.as_dict(), type_ids)
                except PlanError:
                    plan = fallback
                store.save(question, language, plan.as_dict(), "deterministic")
            n_stored = int(store.stats()["count"])
            cached_pool = list(plans)

            def cached(question: str) -> str:
                # The integration's lookup; a pool question is stored word for word, so the
                # first step (the exact question) finds it.
                choice = cached_choice(store, question, language, (), type_ids)
                if choice is None or choice.source != "exact":
                    raise RuntimeError(f"cache miss for a stored question: {question!r}")
                return answer(
                    choice.plan, execute(choice.plan, live_rows(), types, row_index=row_index), lex
                )

            for question in cached_pool:  # warm SQLite's page cache and the statement cache
                cached(question)
            cached_ms = [_timed(cached, cached_pool[i % len(cached_pool)]) for i in range(runs)]

            prefixes = PREFIXES[language]
            for i in range(runs):
                question = prefixes[i % len(prefixes)] + pool[i % len(pool)]
                started = time.perf_counter()
                found = store.similar(question, language)
                similar_ms.append((time.perf_counter() - started) * 1000)
                hits += bool(found)
        finally:
            store.close()
    return {
        "size": size,
        "language": language,
        "questions": len(pool),
        "confident": 100.0 * confident / len(pool),
        "planned": planned,
        "uncacheable": uncacheable,
        "stored": n_stored,
        "similar_hits": 100.0 * hits / max(1, runs),
        **_stats("compile", compiled_ms),
        **_stats("cached", cached_ms),
        **_stats("similar", similar_ms),
    }


class _State:
    """A stand-in for Home Assistant's `State`: what `RowCache` reads."""

    __slots__ = ("attributes", "last_changed", "state")

    def __init__(self, state: str, attributes: Any) -> None:
        self.state = state
        self.attributes = attributes
        self.last_changed = None


def _stats(name: str, values: list[float]) -> dict[str, float]:
    return {
        f"{name}_p50": percentile(values, 0.5),
        f"{name}_p95": percentile(values, 0.95),
        f"{name}_max": max(values, default=0.0),
    }


def _triple(r: dict[str, Any], name: str) -> str:
    return f"{r[name + '_p50']:.2f} / {r[name + '_p95']:.2f} / {r[name + '_max']:.2f} ms"


def _uncacheable_note(rows: list[dict[str, Any]]) -> str:
    seen = dict.fromkeys(q for r in rows for q in r["uncacheable"])
    return f": {'; '.join(repr(q) for q in seen)}" if seen else ""


def format_rows(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| entities | language | questions | confident | compile + execute p50 / p95 / max | "
        "cached p50 / p95 / max | uncacheable | similar p50 / p95 / max | stored plans |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['size']:,} | {r['language']} | {r['questions']} | {r['confident']:.0f} % | "
            f"{_triple(r, 'compile')} | {_triple(r, 'cached')} | {len(r['uncacheable'])} | "
            f"{_triple(r, 'similar')} | {r['stored']:,} |"
        )
    return "\n".join(lines)


TARGET_SIZE = 5000
CACHED_TARGET_MS = 10.0
COMPILE_TARGET_MS = 30.0


def format_targets(rows: list[dict[str, Any]]) -> str:
    big = [r for r in rows if r["size"] >= TARGET_SIZE]
    if not big:
        return f"(no {TARGET_SIZE:,}-entity run: targets not checked)"
    cached = max(r["cached_p95"] for r in big)
    compiled = max(r["compile_p95"] for r in big)
    return "\n".join(
        [
            f"- cached p95 ≤ {CACHED_TARGET_MS:g} ms at {TARGET_SIZE:,} entities: {cached:.2f} ms "
            f"— {'met' if cached <= CACHED_TARGET_MS else 'NOT met'}",
            f"- compile + execute p95 ≤ {COMPILE_TARGET_MS:g} ms at {TARGET_SIZE:,} entities: "
            f"{compiled:.2f} ms — {'met' if compiled <= COMPILE_TARGET_MS else 'NOT met'}",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1000,5000")
    parser.add_argument("--languages", default="en,zh")
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--stored",
        type=int,
        default=STORED_PLANS,
        help="plans in the store for the similarity lookups",
    )
    parser.add_argument("--write", metavar="FILE", help="update the queries section of FILE")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    started = time.perf_counter()
    load_before = load_average()
    lexicons = default_lexicons()
    rows = []
    for size in (int(s) for s in args.sizes.split(",") if s.strip()):
        for language in (x.strip() for x in args.languages.split(",") if x.strip()):
            print(f"measuring {size:,} entities, {language} …", file=sys.stderr, flush=True)
            rows.append(measure(size, language, args.runs, args.seed, lexicons, args.stored))
    table = "\n".join(
        [
            "## Natural questions: compile, cache hit, similar lookup",
            "",
            format_rows(rows),
            "",
            "Synthetic homes (`bench/synthetic/`) with plausible sensor readings and units; "
            f"{min((r['questions'] for r in rows), default=0)}+ questions per language from the "
            "home's own areas and floors (lists, counts, readings, average / highest / lowest / "
            'total, "is X locked?", what is on, thresholds, low batteries), '
            f"{args.runs} runs each, each timed on its own. Compile + execute = `compile_question` "
            "+ `execute` + `answer`; cached = `policy.cached_choice` (its exact step: "
            "`PlanStore.exact` on SQLite + `validate_plan`) + `execute` + `answer`; similar = "
            "`PlanStore.similar` over the stored plans of the "
            "language. Confident = share of the questions the compiler was sure about "
            "(informative). Uncacheable = questions whose compiled plan `validate_plan` rejects, "
            "so a stored copy could never be reused (left out of the store and of the cached "
            f"timings){_uncacheable_note(rows)}. Each timed question first refreshes the state "
            "rows as the integration does (`RowCache` told which entities changed, as Home "
            "Assistant's state_changed events tell it; 1 % of the states change between "
            "questions). Load average "
            f"(1/5/15 min) before: {load_before}, after: {load_average()} (other work on the "
            "machine shows up in p95 and max).",
            "",
            format_targets(rows),
        ]
    )
    print(table)
    if args.write:
        write_table(
            args.write, "queries", table, "bench.queries", argv, time.perf_counter() - started
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
