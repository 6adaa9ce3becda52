"""The pieces a compiled question is made of: its commands merged into one reading, the
status it asks, the filters of its place and of a state, the low-battery plan, and the slots
that say when a stored plan may answer it again."""

from __future__ import annotations

from collections.abc import Mapping

from ..base.index import DeviceIndex
from ..base.lexicon import Lexicon, TypeTable
from ..base.models import QueryIR
from ..base.parse import Analysis
from ..base.text import normalize
from .plan import Filter, QueryPlan
from .reading import (
    ACTION_STATUS,
    OPPOSITE,
    QuestionWords,
    covers,
    in_scope,
)
from .subjects import state_kinds
from .values import StatusKinds, StatusRule

LOW_BATTERY_PERCENT = 20.0


def merged(irs: list[QueryIR], text: str) -> QueryIR:
    """A question is one request even where the command splitter saw several."""
    if not irs:
        return QueryIR(raw=text)
    ir = irs[0]
    for other in irs[1:]:
        ir.mentions += other.mentions
        ir.scope_include |= other.scope_include
        ir.scope_exclude |= other.scope_exclude
        ir.floor_include |= other.floor_include
        ir.floor_exclude |= other.floor_exclude
        ir.labels |= other.labels
        ir.exclude_labels |= other.exclude_labels
        ir.states |= other.states
        ir.unknown_rooms += other.unknown_rooms
        ir.action = ir.action or other.action
    return ir


def asked_status(words: QuestionWords, analysis: Analysis, lex: Lexicon) -> str | None:
    """The status asked about: a status word, else the state an action asked about leaves
    ("did I lock the back door?")."""
    status = next(iter(words.statuses), None)
    if status is None and words.first_kind_at is not None:
        found = next(
            (
                (ACTION_STATUS[v], s.start)
                for s in analysis.spans
                if s.start > words.first_kind_at
                for v in s.values("action")
                if v in ACTION_STATUS
            ),
            None,
        )
        if found is not None:
            status, at = found
            # "did anyone forget to lock a door?", "忘了锁": the action not done.
            turned = next((n for n in words.negations if 0 <= at - n[1] <= 1), None)
            if turned is not None and status in OPPOSITE:
                status = OPPOSITE[status]
                words.covered.update(turned[0])
            words.statuses[status] = [lex.state_words.get(status, status)]
    return status


def one_thing(index: DeviceIndex, ir: QueryIR, type_ids: list[str], types: TypeTable) -> bool:
    """Whether the question's subject is a single entity here ("is the bedroom window
    open?"): then yes/no is about it; otherwise it asks whether any is."""
    targets = {
        t
        for tid in type_ids
        if tid in types.types and types.types[tid].tiers
        for t in types.types[tid].tiers[0]
    }
    if not targets:
        return False
    found = [
        d
        for d in index.devices()
        if in_scope(d, ir)
        and ((d.domain, d.device_class) in targets or (d.domain, None) in targets)
    ]
    return len(found) == 1


def detects(type_id: str, types: TypeTable) -> bool:
    """The type is a kind of detector: its devices are binary sensors only."""
    spec = types.types.get(type_id)
    first = spec.tiers[0] if spec and spec.tiers else ()
    return bool(first) and all(d == "binary_sensor" for d, _ in first)


def all_binary(type_ids: list[str], ir: QueryIR, types: TypeTable) -> bool:
    """The subject only has detectors (binary sensors): asking about it asks if it detects."""
    targets = [t for tid in type_ids if tid in types.types for t in types.types[tid].tiers[0]]
    targets += [t for s in ir.states if s in types.states for t in types.states[s][0]]
    return bool(targets) and all(d == "binary_sensor" for d, _ in targets)


def state_targets(
    states: set[str],
    types: TypeTable,
    status: str | None,
    table: Mapping[str, tuple[StatusRule, ...]],
    status_kinds: StatusKinds,
) -> list[tuple[Filter, ...]]:
    """The devices a state word is about ("漏水" → moisture sensors), one clause each, of
    those the status asked fits ("what is open?" is not about locks); a state whose devices
    another one narrows down ("detected" vs "wet") is dropped."""
    targets = {
        s: frozenset(state_kinds(types.states[s][0], status, table, status_kinds))
        for s in states
        if types.states.get(s)
    }
    kept = [
        s
        for s in sorted(targets)
        if not any(
            o != s and covers(targets[o], targets[s]) and not covers(targets[s], targets[o])
            for o in targets
        )
    ]
    clauses: list[tuple[Filter, ...]] = []
    for state in kept:
        for domain, device_class in sorted(targets[state], key=lambda t: (t[0], t[1] or "")):
            clause = [Filter("domain", "eq", domain)]
            if device_class:
                clause.append(Filter("device_class", "eq", device_class))
            clauses.append(tuple(clause))
    return clauses or [()]


def scope_filters(ir: QueryIR) -> list[Filter]:
    out: list[Filter] = []
    if ir.scope_include:
        out.append(Filter("area", "in", tuple(sorted(ir.scope_include))))
    if ir.floor_include:
        out.append(Filter("floor", "in", tuple(sorted(ir.floor_include))))
    if ir.labels:
        out.append(Filter("label", "in", tuple(sorted(ir.labels))))
    out += [Filter("area", "ne", a) for a in sorted(ir.scope_exclude)]
    out += [Filter("floor", "ne", f) for f in sorted(ir.floor_exclude)]
    out += [Filter("label", "ne", label) for label in sorted(ir.exclude_labels)]
    return out


def low_battery(
    scope: list[Filter], count_asked: bool, about: dict[str, str], lex: Lexicon
) -> QueryPlan:
    """Battery sensors under 20 %, or battery binary sensors that report low ("on")."""
    sensors = (
        *scope,
        Filter("domain", "eq", "sensor"),
        Filter("device_class", "eq", "battery"),
        Filter("state", "lt", LOW_BATTERY_PERCENT, unit="%"),
    )
    binary = (
        *scope,
        Filter("domain", "eq", "binary_sensor"),
        Filter("device_class", "eq", "battery"),
        Filter("state", "eq", "on"),
    )
    style = "count" if count_asked else "list"
    return QueryPlan(
        where=(sensors, binary),
        aggregate="count" if count_asked else "list",
        measure="state",
        order_by="measure",
        about={
            **about,
            "style": style,
            "subject": lex.message("q_things"),
            "status": lex.message("q_low_battery"),
        },
    )


def slots_of(
    ir: QueryIR,
    type_ids: list[str],
    status: str | None,
    aggregate: str | None,
    count_asked: bool,
    yes_no: bool,
    mention_ids: list[str],
    compare: tuple[str, float, str | None] | None,
    residual: list[str],
) -> tuple[str, ...]:
    """Everything the question names. Two questions with the same slots ask the same thing of
    the same entities, so a cached plan of one may answer the other; differing slots never
    share a plan however alike the wording ("upstairs" vs "downstairs")."""
    slots = {f"area:{a}" for a in ir.scope_include} | {f"-area:{a}" for a in ir.scope_exclude}
    slots |= {f"floor:{f}" for f in ir.floor_include} | {f"-floor:{f}" for f in ir.floor_exclude}
    slots |= {f"label:{x}" for x in ir.labels} | {f"-label:{x}" for x in ir.exclude_labels}
    slots |= {f"type:{t}" for t in type_ids} | {f"entity:{e}" for e in mention_ids}
    slots |= {f"state:{s}" for s in ir.states}
    if status:
        slots.add(f"status:{status}")
    if aggregate:
        slots.add(f"agg:{aggregate}")
    if count_asked:
        slots.add("count")
    if yes_no:
        slots.add("yes_no")
    if compare:
        slots.add(f"compare:{compare[0]}:{compare[1]:g}:{compare[2] or ''}")
    slots |= {f"word:{normalize(w)}" for w in residual}
    return tuple(sorted(slots))
