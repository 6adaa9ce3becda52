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
from .matching import (
    MatchContext,
    RowIndex,
    cost,
    filter_values,
    memo,
    names_subject,
    predicate,
    statuses_of,
    type_targets,
)
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

    def context(self, clause: tuple[Filter, ...], statuses: tuple[str, ...]) -> MatchContext:
        """What the clause's filters need: each type's targets for the statuses asked."""
        type_ids = {str(v) for f in clause if f.field == "type" for v in filter_values(f)}
        targets = {
            t: type_targets(t, self.pools.kinds, self.types, statuses, self.judge, self.kinds)
            for t in type_ids
        }
        return MatchContext(self.types, self.statuses, targets, self.kinds, names_subject(clause))

    def match(
        self, where: tuple[tuple[Filter, ...], ...], expect: str | None = None
    ) -> list[StateRow]:
        hits: set[int] = set()
        for clause in where:
            hits |= self._hits(clause, statuses_of(clause, expect))
        return [self.rows[i] for i in sorted(hits)]

    def _hits(self, clause: tuple[Filter, ...], statuses: tuple[str, ...]) -> set[int]:
        """The rows that pass every filter of the clause, its types read for `statuses`."""
        ctx = self.context(clause, statuses)
        tests = [predicate(f, ctx, self.norm) for f in sorted(clause, key=cost)]
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
            asked = statuses_of(clause, expect)
            if not asked:
                continue
            named = names_subject(clause)
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
    norm = memo(normalize)
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
        _judge_expected(result, run, matched, plan.expect)
    if not matched and any(statuses_of(c, plan.expect) for c in plan.where):
        result.uncertain = run.why_none(plan.where, plan.expect)
    measured = _measured(result, matched, plan.measure) if plan.measure is not None else []
    limit = min(plan.limit, MAX_ROWS)
    if plan.aggregate in ("min", "max", "avg", "sum"):
        if measured:
            _aggregate(result, measured, plan)
        ordered = sorted(measured, key=lambda rv: rv[1], reverse=plan.aggregate != "min")
        result.rows = [_row_out(r, plan, v, result.unit) for r, v in ordered[:limit]]
        result.truncated = len(ordered) > limit
        return _with_sources(result, matched)
    by_row = {id(r): v for r, v in measured}
    ordered_rows = sorted(matched, key=_order_key(plan, by_row, norm), reverse=plan.descending)
    result.rows = [_row_out(r, plan, by_row.get(id(r)), result.unit) for r in ordered_rows[:limit]]
    result.truncated = len(ordered_rows) > limit
    return _with_sources(result, matched)


def _judge_expected(result: QueryResult, run: _Run, matched: list[StateRow], expect: str) -> None:
    """Whether every matched entity is as expected ("are all doors locked?"), which are not,
    and that the question does not apply when none of them can be."""
    judged = [r for r in matched if run.means(expect, r, named=True) is not None]
    result.expected = bool(judged) and len(judged) == len(matched)
    result.expected = result.expected and all(run.has(expect, r) for r in judged)
    result.unmet = [r.entity_id for r in matched if not run.has(expect, r)]
    if matched and not judged:
        result.uncertain = "not_applicable"


def _measured(
    result: QueryResult, matched: list[StateRow], measure: str
) -> list[tuple[StateRow, float]]:
    """Each matched entity's reading in the first reading's unit; those without a reading,
    or in a unit that does not convert, are counted as skipped."""
    measured: list[tuple[StateRow, float]] = []
    unit: str | None = None
    for row in matched:
        value, row_unit = _measure(row, measure)
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
    return measured


def _aggregate(
    result: QueryResult, measured: list[tuple[StateRow, float]], plan: QueryPlan
) -> None:
    """The average, total, lowest or highest reading (and the entity that has it)."""
    values = [v for _, v in measured]
    if plan.aggregate in ("avg", "sum"):
        try:
            total = statistics.fmean(values) if plan.aggregate == "avg" else math.fsum(values)
        except OverflowError:  # readings near the float limit: no usable number
            total = math.inf
        result.value = total if math.isfinite(total) else None
        return
    pick = min if plan.aggregate == "min" else max
    row, value = pick(measured, key=lambda rv: rv[1])
    result.value = value
    result.best = _row_out(row, plan, value, result.unit)


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
