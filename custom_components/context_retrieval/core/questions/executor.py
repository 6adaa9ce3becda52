"""Running a `QueryPlan` over entity states: read-only, bounded in rows and time.

The executor sees only `StateRow` records (a copy of each entity's state and attributes), so
nothing it does can change the home; the plan is data, so nothing it does can run code. Numbers
are compared and aggregated with their units (°C/°F/K, W/kW, Wh/kWh/MWh); states that are not
numbers ("unavailable") are skipped and counted.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.lexicon import TypeTable
from ..base.text import normalize
from .plan import Filter, QueryPlan
from .rows import StateRow
from .values import (
    Kind,
    StatusKinds,
    StatusRule,
    answers,
    canonical_unit,
    convert,
    load_status_kinds,
    load_statuses,
    meaning,
    number,
    rule_for,
    state_check,
)

MAX_ROWS = 500
DEADLINE_SECONDS = 5.0
_CHECK_EVERY = 256


class QueryTimeout(RuntimeError):
    """The plan ran past its time limit."""


# --- matching --------------------------------------------------------------------------------


@dataclass(slots=True)
class _Context:
    types: TypeTable
    statuses: Mapping[str, tuple[StatusRule, ...]]
    type_targets: dict[str, frozenset[Kind]]
    kinds: StatusKinds = field(default_factory=load_status_kinds)
    # The clause names its subject (a type, an entity, a domain): a status word then also
    # means what it means for that kind ("open" of a lock is "unlocked").
    named: bool = False


# Filters that name what a clause is about, rather than narrowing it.
_NAMING = frozenset({"type", "entity_id", "name", "domain", "device_class"})


def _names_subject(clause: tuple[Filter, ...]) -> bool:
    return any(f.field in _NAMING and f.op in ("eq", "in") for f in clause)


def _statuses_of(clause: tuple[Filter, ...], expect: str | None) -> tuple[str, ...]:
    """The statuses a clause asks about (its status filters, and the plan's `expect`)."""
    found = [str(v) for f in clause if f.field == "status" for v in _values(f)]
    return tuple(dict.fromkeys([*found, *([expect] if expect else [])]))


def _type_targets(
    type_id: str,
    present: frozenset[Kind],
    types: TypeTable,
    statuses: tuple[str, ...] = (),
    judge: Callable[[str, Kind], bool] | None = None,
    kinds: StatusKinds | None = None,
) -> frozenset[Kind]:
    """The (domain, device class) targets a type means in this home: its first tier the home
    has (the tiers are fallbacks: "temperature" is thermostats before temperature sensors).
    Asked with a status, its first tier the home has that answers the status, or what the
    status also means for it ("开着" of a lock), and of that tier the kinds that do; for a
    type whose tiers are all kinds of it (`every_tier`: doors), every tier's kinds that do.
    "Which doors are unlocked?" reads the locks, "which doors are open?" the door contacts,
    door covers and garage doors. Nothing when no tier answers."""
    spec = types.types.get(type_id)
    if spec is None:
        return frozenset()
    domains = {d for d, _ in present}

    def here(tier: Iterable[Kind]) -> list[Kind]:
        return [(d, c) for d, c in tier if (c is None and d in domains) or (d, c) in present]

    if not statuses or judge is None or kinds is None:
        for tier in spec.tiers:
            if here(tier):
                return frozenset(tier)
        return frozenset(spec.tiers[0]) if spec.tiers else frozenset()
    meanings = list(statuses) + [a for s in statuses for a in kinds.also.get(s, ())]
    for tier in spec.tiers:
        chosen = next((m for m in meanings if any(judge(m, k) for k in here(tier))), None)
        if chosen is None:
            continue
        if type_id in kinds.every_tier:
            return frozenset(k for t in spec.tiers for k in t if judge(chosen, k))
        return frozenset(k for k in tier if judge(chosen, k))
    return frozenset()


def _values(f: Filter) -> tuple[Any, ...]:
    return f.value if isinstance(f.value, tuple) else (f.value,)


# Which of a row's texts a text field compares against.
_TEXTS: dict[str, Callable[[StateRow], tuple[str | None, ...]]] = {
    "entity_id": lambda r: (r.entity_id,),
    "domain": lambda r: (r.domain,),
    "area": lambda r: (r.area_id, r.area_name, *r.area_aliases),
    "floor": lambda r: (r.floor_id, r.floor_name, *r.floor_aliases),
    "label": lambda r: r.labels,
    "name": lambda r: (r.name, *r.aliases),
}
# Cheap, selective tests first: a clause stops at its first failing filter.
_COSTS = {
    "entity_id": 0,
    "domain": 0,
    "device_class": 1,
    "type": 1,
    "status": 2,
    "state": 3,
    "attribute": 3,
    "label": 4,
    "area": 5,
    "floor": 5,
    "name": 6,
}


def _cost(f: Filter) -> int:
    return _COSTS.get(f.field, 9)


def _memo(fn: Callable[[str], str]) -> Callable[[str], str]:
    """`fn` remembered for the length of one query (names and rooms repeat across rows)."""
    seen: dict[str, str] = {}

    def cached(text: str) -> str:
        out = seen.get(text)
        if out is None:
            out = seen[text] = fn(text)
        return out

    return cached


class RowIndex:
    """Which rows a clause can possibly match — by entity, domain, type, area or floor — so
    the full tests run on those only (a home of thousands, a question about a few).

    Built from a list of rows and valid for any list with the same entities in the same order
    (the states change, the home does not): Home Assistant keeps one per index build."""

    def __init__(self, rows: list[StateRow], norm: Callable[[str], str] = normalize) -> None:
        self.ids = tuple(r.entity_id for r in rows)
        self.by_id = {e: i for i, e in enumerate(self.ids)}
        self.by_domain: dict[str, list[int]] = {}
        self.kinds = frozenset((r.domain, r.device_class) for r in rows)
        self.by_class: dict[str, list[int]] = {}
        self.by_place: dict[str, dict[str, list[int]]] = {"area": {}, "floor": {}}
        for i, row in enumerate(rows):
            self.by_domain.setdefault(row.domain, []).append(i)
            if row.device_class:
                self.by_class.setdefault(norm(row.device_class), []).append(i)
            for field_name, texts in (
                ("area", (row.area_id, row.area_name, *row.area_aliases)),
                ("floor", (row.floor_id, row.floor_name, *row.floor_aliases)),
            ):
                places = self.by_place[field_name]
                for text in {norm(t) for t in texts if t}:
                    places.setdefault(text, []).append(i)

    def fits(self, rows: list[StateRow]) -> bool:
        """Same entities in the same order, checked at every 32nd row and the last (a full
        check would cost as much as the query it speeds up)."""
        n = len(self.ids)
        return len(rows) == n and all(
            rows[i].entity_id == self.ids[i] for i in (*range(0, n, 32), n - 1) if i >= 0
        )

    def candidates(
        self, clause: tuple[Filter, ...], ctx: _Context, norm: Callable[[str], str]
    ) -> Iterable[int]:
        best: list[int] | None = None
        for f in clause:
            if f.op not in ("eq", "in"):
                continue
            values = [str(v) for v in _values(f) if v is not None]
            pool: list[int] | None = None
            if f.field == "entity_id":
                found = [self.by_id.get(v, self.by_id.get(norm(v))) for v in values]
                # An id found neither as written nor normalised may still equal some row's
                # normalised id: then every row is tested.
                pool = sorted({i for i in found if i is not None}) if None not in found else None
            elif f.field == "domain":
                pool = self._domains({x for v in values for x in (v, norm(v))})
            elif f.field == "type":
                pool = self._domains({d for v in values for d, _ in ctx.type_targets.get(v, ())})
            elif f.field == "device_class" and None not in _values(f):
                pool = sorted({i for v in values for i in self.by_class.get(norm(v), ())})
            elif f.field in self.by_place:
                places = self.by_place[f.field]
                pool = sorted({i for v in values for i in places.get(norm(v), ())})
            if pool is not None and (best is None or len(pool) < len(best)):
                best = pool
        return range(len(self.ids)) if best is None else best

    def _domains(self, domains: set[str]) -> list[int]:
        return sorted(i for d in domains for i in self.by_domain.get(d, ()))


def _meant(status: str, kind: Kind, ctx: _Context) -> str | None:
    """What a status filter tests on this kind of entity: as the status table says, or when
    the clause names its subject, what the word means for that kind."""
    if not ctx.named:
        return status
    return meaning(status, kind, ctx.statuses, ctx.kinds, named=True)


def _status_predicate(f: Filter, ctx: _Context) -> Callable[[StateRow], bool]:
    """Whether a row has the status, with what the status means for each kind of entity
    looked up once per query."""
    wanted = [str(v) for v in _values(f)]
    checks: dict[Kind, Callable[[str], bool]] = {}
    negate = f.op == "ne"

    def test(row: StateRow) -> bool:
        key = (row.domain, row.device_class)
        check = checks.get(key)
        if check is None:
            check = checks[key] = state_check(
                [
                    r
                    for s in wanted
                    if (m := _meant(s, key, ctx)) is not None
                    if (r := rule_for(ctx.statuses.get(m, ()), row.domain, row.device_class))
                    is not None
                ]
            )
        return check(row.state) is not negate

    return test


def _predicate(f: Filter, ctx: _Context, norm: Callable[[str], str]) -> Callable[[StateRow], bool]:
    """The filter as a test on one row, with its values normalised once (what `_matches`
    does for a single row, without repeating the per-filter work for every row)."""
    if f.field == "status":
        return _status_predicate(f, ctx)
    if f.field == "device_class" and f.op in ("eq", "in"):
        classes = frozenset(norm(str(v)) for v in _values(f) if v is not None)
        any_none = None in _values(f)
        return lambda row: (
            any_none if row.device_class is None else norm(row.device_class) in classes
        )
    if f.field == "type" and f.op in ("eq", "in"):
        targets = frozenset().union(
            *(ctx.type_targets.get(str(v), frozenset()) for v in _values(f))
        )
        return lambda row: (
            (row.domain, row.device_class) in targets or (row.domain, None) in targets
        )
    texts = _TEXTS.get(f.field)
    if texts is None:
        return lambda row: _matches(f, row, ctx)
    values = [norm(str(v)) for v in _values(f) if v is not None]
    wanted = frozenset(values)
    if f.op == "contains":
        return lambda row: any(v in norm(c) for c in texts(row) if c for v in values)
    if f.op == "ne":
        return lambda row: not any(norm(c) in wanted for c in texts(row) if c)
    return lambda row: any(norm(c) in wanted for c in texts(row) if c)


def _text_match(f: Filter, candidates: Iterable[str | None]) -> bool:
    """eq/in: any candidate equals a value; contains: a value is inside any candidate;
    ne: no candidate equals it. Compared after normalisation (case, width, script)."""
    texts = [normalize(c) for c in candidates if c]
    values = [normalize(str(v)) for v in _values(f) if v is not None]
    if f.op == "contains":
        return any(v in t for v in values for t in texts)
    hit = any(t in values for t in texts)
    return not hit if f.op == "ne" else hit


def _compare_number(f: Filter, value: float | None, unit: str | None) -> bool:
    if value is None:
        return False
    target = float(f.value)  # type: ignore[arg-type]
    if f.unit is not None:
        converted = convert(value, unit, f.unit)
        if converted is None:
            return False
        value = converted
    return value > target if f.op == "gt" else value < target


def _scalar_match(f: Filter, raw: Any, unit: str | None) -> bool:
    if f.op in ("gt", "lt"):
        return _compare_number(f, number(raw), unit)
    if raw is None:
        return f.op == "ne" or (f.op == "eq" and f.value is None)
    if f.op == "contains":
        return str(f.value).casefold() in str(raw).casefold()
    values = _values(f)
    numeric = number(raw)
    hit = any(
        (numeric is not None and number(v) is not None and number(v) == numeric)
        or str(v).casefold() == str(raw).casefold()
        for v in values
        if v is not None
    )
    return not hit if f.op == "ne" else hit


def _matches(f: Filter, row: StateRow, ctx: _Context) -> bool:
    name = f.field
    if name == "entity_id":
        return _text_match(f, [row.entity_id])
    if name == "domain":
        return _text_match(f, [row.domain])
    if name == "device_class":
        if any(v is None for v in _values(f)) and row.device_class is None:
            return f.op != "ne"
        return _text_match(f, [row.device_class])
    if name == "type":
        return any(
            (row.domain, row.device_class) in ctx.type_targets[str(v)]
            or (row.domain, None) in ctx.type_targets[str(v)]
            for v in _values(f)
        )
    if name == "area":
        return _text_match(f, [row.area_id, row.area_name, *row.area_aliases])
    if name == "floor":
        return _text_match(f, [row.floor_id, row.floor_name, *row.floor_aliases])
    if name == "label":
        if f.op == "ne":
            return not _text_match(Filter("label", "in", f.value), row.labels)
        return _text_match(f, row.labels)
    if name == "name":
        return _text_match(f, [row.name, *row.aliases])
    if name == "state":
        return _scalar_match(f, row.state, row.unit)
    if name == "status":
        return _status_predicate(f, ctx)(row)
    if name == "attribute":
        return _scalar_match(f, row.attributes.get(f.attribute or ""), None)
    return False


# --- execution -------------------------------------------------------------------------------


@dataclass(slots=True)
class QueryResult:
    """What a plan found. `rows` are plain data (the `raw` answer)."""

    rows: list[dict[str, Any]]
    count: int  # every matching entity, also beyond the row limit
    aggregate: str
    value: float | None = None
    unit: str | None = None
    best: dict[str, Any] | None = None  # the min/max entity
    expected: bool | None = None  # for "is it …?": every matching entity has the status
    truncated: bool = False
    skipped: int = 0  # matching entities without a usable number
    # For "is it …?": the matching entities without that status.
    unmet: list[str] = field(default_factory=list)
    # Why an empty result (or a yes/no) is not a sure answer: "nothing_found" (nothing of the
    # kind asked about is there), "not_applicable" (what is there never reports the status).
    uncertain: str | None = None
    # The entities named in the result as the executor saw them (names in every language,
    # room, kind), for the sentence; not part of the raw answer.
    sources: dict[str, StateRow] = field(default_factory=dict, repr=False)
    # Names several entities of the home share (normalised): said with their room.
    shared_names: frozenset[str] = field(default_factory=frozenset, repr=False)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"aggregate": self.aggregate, "count": self.count, "rows": self.rows}
        if self.value is not None:
            data["value"] = round(self.value, 3)
            data["unit"] = self.unit
        if self.best is not None:
            data["best"] = self.best
        if self.expected is not None:
            data["expected"] = self.expected
        if self.truncated:
            data["truncated"] = True
        if self.skipped:
            data["skipped"] = self.skipped
        if self.unmet:
            data["unmet"] = self.unmet
        if self.uncertain is not None:
            data["uncertain"] = self.uncertain
        return data


def _row_out(
    row: StateRow, plan: QueryPlan, value: float | None = None, unit: str | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "entity_id": row.entity_id,
        "name": row.name,
        "area": row.area_name,
        "state": row.state,
    }
    if row.unit:
        out["unit"] = row.unit
    if value is not None:
        out["value"] = round(value, 3)
        if unit:
            out["unit"] = unit
    if plan.select:
        out["attributes"] = {k: _plain(row.attributes.get(k)) for k in plan.select}
    return out


def _plain(value: Any) -> Any:
    """Attribute values as JSON-safe data."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value[:50]]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in list(value.items())[:50]}
    return str(value)


def _measure(row: StateRow, measure: str) -> tuple[float | None, str | None]:
    if measure == "state":
        return number(row.state), row.unit
    return number(row.attributes.get(measure.split(":", 1)[1])), None


class _Run:
    """One execution: the rows, their index and the status tables, and the clock."""

    def __init__(
        self,
        types: TypeTable,
        statuses: Mapping[str, tuple[StatusRule, ...]],
        kinds: StatusKinds,
        pools: RowIndex,
        rows: list[StateRow],
        norm: Callable[[str], str],
        started: float,
    ) -> None:
        self.types, self.statuses, self.kinds = types, statuses, kinds
        self.pools, self.rows, self.norm, self.started = pools, rows, norm, started
        self.deadline = DEADLINE_SECONDS
        self.clock: Callable[[], float] = time.monotonic

    def judge(self, status: str, kind: Kind) -> bool:
        return answers(status, kind, self.statuses, self.kinds)

    def context(self, clause: tuple[Filter, ...], statuses: tuple[str, ...]) -> _Context:
        """What the clause's filters need: each type's targets for the statuses asked."""
        type_ids = {str(v) for f in clause if f.field == "type" for v in _values(f)}
        targets = {
            t: _type_targets(t, self.pools.kinds, self.types, statuses, self.judge, self.kinds)
            for t in type_ids
        }
        return _Context(self.types, self.statuses, targets, self.kinds, _names_subject(clause))

    def match(
        self, where: tuple[tuple[Filter, ...], ...], expect: str | None = None
    ) -> list[StateRow]:
        hits: set[int] = set()
        for clause in where:
            hits |= self._hits(clause, _statuses_of(clause, expect))
        return [self.rows[i] for i in sorted(hits)]

    def _hits(self, clause: tuple[Filter, ...], statuses: tuple[str, ...]) -> set[int]:
        """The rows that pass every filter of the clause, its types read for `statuses`."""
        ctx = self.context(clause, statuses)
        tests = [_predicate(f, ctx, self.norm) for f in sorted(clause, key=_cost)]
        candidates = list(self.pools.candidates(clause, ctx, self.norm))
        hits: set[int] = set()
        for start in range(0, len(candidates), _CHECK_EVERY):
            if self.clock() - self.started > self.deadline:
                raise QueryTimeout(f"the query ran longer than {self.deadline:g} s")
            chunk = candidates[start : start + _CHECK_EVERY]
            if len(tests) == 1:
                test = tests[0]
                hits.update(i for i in chunk if test(self.rows[i]))
            else:
                hits.update(i for i in chunk if all(t(self.rows[i]) for t in tests))
        return hits

    def means(self, status: str, row: StateRow, named: bool) -> str | None:
        return meaning(status, (row.domain, row.device_class), self.statuses, self.kinds, named)

    def has(self, status: str, row: StateRow) -> bool:
        """Whether the row has the status, as the question (which names it) means it."""
        found = self.means(status, row, named=True)
        rule = rule_for(self.statuses.get(found or "", ()), row.domain, row.device_class)
        return rule is not None and state_check([rule])(row.state)

    def why_none(self, where: tuple[tuple[Filter, ...], ...], expect: str | None) -> str | None:
        """Nothing matched a question about a status: whether that is an answer ("no door is
        unlocked") or a guess. None: devices that report the status are there and none has
        it. "not_applicable": what is there never reports it (door contacts are never
        locked); "nothing_found": nothing of what was asked about is there."""
        found_any = False
        for clause in where:
            asked = _statuses_of(clause, expect)
            if not asked:
                continue
            named = _names_subject(clause)
            bare = tuple(f for f in clause if f.field != "status")
            for statuses in (asked, ()):
                rows = [self.rows[i] for i in self._hits(bare, statuses)]
                found_any = found_any or bool(rows)
                if any(self.means(s, r, named) for r in rows for s in asked):
                    return None
        return "not_applicable" if found_any else "nothing_found"


def execute(
    plan: QueryPlan,
    rows: Iterable[StateRow],
    types: TypeTable,
    *,
    statuses: Mapping[str, tuple[StatusRule, ...]] | None = None,
    row_index: RowIndex | None = None,
    deadline_seconds: float = DEADLINE_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> QueryResult:
    """Run `plan` over `rows`. Raises `QueryTimeout` past the deadline. `row_index`, if it
    fits these rows, spares building one."""
    started = clock()
    all_rows = list(rows)
    norm = _memo(normalize)
    pools = (
        row_index
        if row_index is not None and row_index.fits(all_rows)
        else RowIndex(all_rows, norm)
    )
    run = _Run(
        types, statuses or load_statuses(), load_status_kinds(), pools, all_rows, norm, started
    )
    run.deadline, run.clock = deadline_seconds, clock
    matched = run.match(plan.where, plan.expect)

    result = QueryResult(rows=[], count=len(matched), aggregate=plan.aggregate)
    named = Counter(norm(r.name) for r in all_rows)
    result.shared_names = frozenset(n for n, count in named.items() if count > 1)
    if plan.expect is not None:
        judged = [r for r in matched if run.means(plan.expect, r, named=True) is not None]
        result.expected = bool(judged) and len(judged) == len(matched)
        result.expected = result.expected and all(run.has(plan.expect, r) for r in judged)
        result.unmet = [r.entity_id for r in matched if not run.has(plan.expect, r)]
        if matched and not judged:
            result.uncertain = "not_applicable"
    if not matched and any(_statuses_of(c, plan.expect) for c in plan.where):
        result.uncertain = run.why_none(plan.where, plan.expect)

    measured: list[tuple[StateRow, float]] = []
    unit: str | None = None
    if plan.measure is not None:
        for row in matched:
            value, row_unit = _measure(row, plan.measure)
            if value is None:
                result.skipped += 1
                continue
            if not measured:
                unit = row_unit
            converted = convert(value, row_unit, unit)
            if converted is None or not math.isfinite(converted):
                result.skipped += 1  # a unit that does not convert to the first one
                continue
            measured.append((row, converted))
        result.unit = canonical_unit(unit) if unit else None

    if plan.aggregate in ("min", "max", "avg", "sum"):
        if measured:
            values = [v for _, v in measured]
            if plan.aggregate in ("avg", "sum"):
                try:
                    total = (
                        statistics.fmean(values) if plan.aggregate == "avg" else math.fsum(values)
                    )
                except OverflowError:  # readings near the float limit: no usable number
                    total = math.inf
                result.value = total if math.isfinite(total) else None
            else:
                pick = min if plan.aggregate == "min" else max
                row, value = pick(measured, key=lambda rv: rv[1])
                result.value = value
                result.best = _row_out(row, plan, value, result.unit)
        ordered = sorted(measured, key=lambda rv: rv[1], reverse=plan.aggregate != "min")
        limit = min(plan.limit, MAX_ROWS)
        result.rows = [_row_out(r, plan, v, result.unit) for r, v in ordered[:limit]]
        result.truncated = len(ordered) > limit
        return _with_sources(result, matched)

    by_row = {id(r): v for r, v in measured}
    key = _order_key(plan, by_row, norm)
    ordered_rows = sorted(matched, key=key, reverse=plan.descending)
    limit = min(plan.limit, MAX_ROWS)
    result.rows = [_row_out(r, plan, by_row.get(id(r)), result.unit) for r in ordered_rows[:limit]]
    result.truncated = len(ordered_rows) > limit
    return _with_sources(result, matched)


def _with_sources(result: QueryResult, matched: list[StateRow]) -> QueryResult:
    """Keep the state rows of the entities the result names (for the sentence)."""
    named = {str(r["entity_id"]) for r in result.rows} | set(result.unmet)
    if result.best is not None:
        named.add(str(result.best["entity_id"]))
    result.sources = {r.entity_id: r for r in matched if r.entity_id in named}
    return result


def _order_key(
    plan: QueryPlan, values: Mapping[int, float], normalize: Callable[[str], str] = normalize
) -> Callable[[StateRow], Any]:
    by = plan.order_by or "area"
    if by == "measure":
        return lambda r: (values.get(id(r), math.inf), r.entity_id)
    if by == "name":
        return lambda r: (normalize(r.name), r.entity_id)
    if by == "state":
        return lambda r: (number(r.state) is None, number(r.state) or 0.0, r.state, r.entity_id)
    if by == "entity_id":
        return lambda r: r.entity_id
    if by == "last_changed":
        return lambda r: (r.last_changed or "", r.entity_id)
    # Entities without an area last ("\uffff" would normalise to "" and sort first).
    return lambda r: (not r.area_name, normalize(r.area_name or ""), normalize(r.name), r.entity_id)
