"""Which rows a plan's filters match: each filter as a predicate over `StateRow`s, and the
`RowIndex` that narrows the rows a clause can match before any predicate runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.lexicon import TypeTable
from ..base.text import normalize
from .plan import Filter
from .rows import StateRow
from .values import (
    Kind,
    StatusKinds,
    StatusRule,
    convert,
    load_status_kinds,
    meaning,
    number,
    rule_for,
    state_check,
)


@dataclass(slots=True)
class MatchContext:
    types: TypeTable
    statuses: Mapping[str, tuple[StatusRule, ...]]
    type_targets: dict[str, frozenset[Kind]]
    kinds: StatusKinds = field(default_factory=load_status_kinds)
    # The clause names its subject (a type, an entity, a domain): a status word then also
    # means what it means for that kind ("open" of a lock is "unlocked").
    named: bool = False


# Filters that name what a clause is about, rather than narrowing it.
_NAMING = frozenset({"type", "entity_id", "name", "domain", "device_class"})


def names_subject(clause: tuple[Filter, ...]) -> bool:
    return any(f.field in _NAMING and f.op in ("eq", "in") for f in clause)


def statuses_of(clause: tuple[Filter, ...], expect: str | None) -> tuple[str, ...]:
    """The statuses a clause asks about (its status filters, and the plan's `expect`)."""
    found = [str(v) for f in clause if f.field == "status" for v in filter_values(f)]
    return tuple(dict.fromkeys([*found, *([expect] if expect else [])]))


def type_targets(
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


def filter_values(f: Filter) -> tuple[Any, ...]:
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


def cost(f: Filter) -> int:
    return _COSTS.get(f.field, 9)


def memo(fn: Callable[[str], str]) -> Callable[[str], str]:
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
        self, clause: tuple[Filter, ...], ctx: MatchContext, norm: Callable[[str], str]
    ) -> Iterable[int]:
        best: list[int] | None = None
        for f in clause:
            if f.op not in ("eq", "in"):
                continue
            values = [str(v) for v in filter_values(f) if v is not None]
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
            elif f.field == "device_class" and None not in filter_values(f):
                pool = sorted({i for v in values for i in self.by_class.get(norm(v), ())})
            elif f.field in self.by_place:
                places = self.by_place[f.field]
                pool = sorted({i for v in values for i in places.get(norm(v), ())})
            if pool is not None and (best is None or len(pool) < len(best)):
                best = pool
        return range(len(self.ids)) if best is None else best

    def _domains(self, domains: set[str]) -> list[int]:
        return sorted(i for d in domains for i in self.by_domain.get(d, ()))


def _meant(status: str, kind: Kind, ctx: MatchContext) -> str | None:
    """What a status filter tests on this kind of entity: as the status table says, or when
    the clause names its subject, what the word means for that kind."""
    if not ctx.named:
        return status
    return meaning(status, kind, ctx.statuses, ctx.kinds, named=True)


def _status_predicate(f: Filter, ctx: MatchContext) -> Callable[[StateRow], bool]:
    """Whether a row has the status, with what the status means for each kind of entity
    looked up once per query."""
    wanted = [str(v) for v in filter_values(f)]
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


def predicate(
    f: Filter, ctx: MatchContext, norm: Callable[[str], str]
) -> Callable[[StateRow], bool]:
    """The filter as a test on one row, with its values normalised once (what `_matches`
    does for a single row, without repeating the per-filter work for every row)."""
    if f.field == "status":
        return _status_predicate(f, ctx)
    if f.field == "device_class" and f.op in ("eq", "in"):
        classes = frozenset(norm(str(v)) for v in filter_values(f) if v is not None)
        any_none = None in filter_values(f)
        return lambda row: (
            any_none if row.device_class is None else norm(row.device_class) in classes
        )
    if f.field == "type" and f.op in ("eq", "in"):
        targets = frozenset().union(
            *(ctx.type_targets.get(str(v), frozenset()) for v in filter_values(f))
        )
        return lambda row: (
            (row.domain, row.device_class) in targets or (row.domain, None) in targets
        )
    texts = _TEXTS.get(f.field)
    if texts is None:
        return lambda row: _matches(f, row, ctx)
    values = [norm(str(v)) for v in filter_values(f) if v is not None]
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
    values = [normalize(str(v)) for v in filter_values(f) if v is not None]
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
    values = filter_values(f)
    numeric = number(raw)
    hit = any(
        (numeric is not None and number(v) is not None and number(v) == numeric)
        or str(v).casefold() == str(raw).casefold()
        for v in values
        if v is not None
    )
    return not hit if f.op == "ne" else hit


def _matches(f: Filter, row: StateRow, ctx: MatchContext) -> bool:
    name = f.field
    if name == "entity_id":
        return _text_match(f, [row.entity_id])
    if name == "domain":
        return _text_match(f, [row.domain])
    if name == "device_class":
        if any(v is None for v in filter_values(f)) and row.device_class is None:
            return f.op != "ne"
        return _text_match(f, [row.device_class])
    if name == "type":
        return any(
            (row.domain, row.device_class) in ctx.type_targets[str(v)]
            or (row.domain, None) in ctx.type_targets[str(v)]
            for v in filter_values(f)
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
