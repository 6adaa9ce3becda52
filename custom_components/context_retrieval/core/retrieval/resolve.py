"""Resolving one command: from its reading to the entities it selects, or a question.

Its stages, in order, each taking and returning the values of `stages`: scope (`_scoped`:
rooms and floors in or out, labels, exclusions), names (`_by_names`: each name read as the
entity it names or as its type words, `name_readings`), type words (`_by_types`:
`device_types`; for a command with neither, what it implies: `implied`), and the selection
with its question, notes and setting (`_finished`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import partial
from operator import attrgetter

from ..base.models import Basis, Candidate, Mention, Note, QueryIR
from .commanded import (
    RUN_BY_NAME,
    not_commanded_reason,
    note_cannot_do,
    note_nothing_there,
    settle_action,
    withhold,
)
from .context import RunContext
from .device_types import resolve_types, type_members
from .gate import build_clarification, close_to_top
from .implied import asked_by_condition, resolve_implied
from .kind_names import name_reading
from .meta import CapabilityFilter, ResultMeta
from .name_readings import (
    AsTypeWords,
    Cannot,
    like_the_name_said,
    name_alternatives,
    read_as_type_words,
    read_name,
)
from .results import RetrievalResult
from .satellite import prefer_satellite
from .scope import ScopeResult, apply_scope
from .setting import complete_setting
from .stages import REMOVED_LISTED, Found, Scoped, based

_entity_id = attrgetter("entity_id")


def resolve_command(ir: QueryIR, ctx: RunContext, command_index: int) -> RetrievalResult:
    """What one command selects, or the question to ask; never raises on user input.

    A room this command only shares with its neighbour ("the reading light and the kitchen
    ceiling light": `shared_place`) is where to look first; when nothing there fits, the
    target is looked for in the whole home."""
    if Note.SHARED_PLACE not in ir.notes:
        return _resolve(ir, ctx, command_index)
    shared = sorted(ir.scope_include | ir.floor_include)
    there = set(
        apply_scope(
            ctx.index, include_areas=set(ir.scope_include), include_floors=set(ir.floor_include)
        ).entity_ids
    )
    # A name none of whose entities is there is meant elsewhere (not read as its type words
    # there, as a name said with its own room would be).
    result = None
    if all(there & m.entity_ids for m in ir.mentions if m.entity_ids):
        result = _resolve(ir, ctx, command_index)
        if result.selected or result.clarification is not None:
            return result
    result = _resolve(replace(ir, scope_include=set(), floor_include=set()), ctx, command_index)
    result.meta.shared_place_dropped = shared
    return result


def _resolve(ir: QueryIR, ctx: RunContext, command_index: int) -> RetrievalResult:
    """One command through its stages: scope, names, type words (or, with neither, what the
    command implies), then the selection with its question, notes and setting."""
    meta = ResultMeta(confidence=ir.confidence)
    ir = settle_action(ir, ctx.index)
    result = RetrievalResult(ir=ir, meta=meta)
    ctx.incapable = set()
    scoped = _scoped(ir, ctx, meta)
    if scoped is None:
        return result
    found = _by_names(ir, ctx, scoped, meta)
    found = _by_types(ir, ctx, scoped, found, meta)
    return _finished(result, ctx, found, command_index)


def _scoped(ir: QueryIR, ctx: RunContext, meta: ResultMeta) -> Scoped | None:
    """Scope: the rooms and floors said in or out, "here", labels and exclusions; None when
    "here" is said where no room is known (nothing is selected then)."""
    index = ctx.index
    include_areas = set(ir.scope_include)
    if ir.here:
        if ctx.context_area:
            include_areas.add(ctx.context_area)
            meta.here_area = ctx.context_area
        else:
            # "here" from a device whose room we do not know: acting on the whole home instead
            # would be a guess, so nothing is selected and the caller can say why.
            meta.here_without_area = True
            meta.no_match = True
            _note_scope(meta, ScopeResult(entity_ids=[]))
            return None
    # An exclusion naming rooms *and* a type ("except the kitchen lights") removes only those.
    # … or rooms and a name ("主卧别开空调": the master bedroom's AC, not its fan).
    typed_exclusion = bool(
        (ir.exclude_type_groups or ir.exclude_mentions) and (ir.scope_exclude or ir.floor_exclude)
    )
    scope = apply_scope(
        index,
        include_areas=include_areas,
        exclude_areas=set() if typed_exclusion else set(ir.scope_exclude),
        include_floors=set(ir.floor_include),
        exclude_floors=set() if typed_exclusion else set(ir.floor_exclude),
        unknown_rooms=ir.unknown_rooms,
    )
    _note_scope(meta, scope)
    meta.scope_removed = len(index) - len(scope.entity_ids)
    pool = list(scope.entity_ids)
    if ir.labels:
        pool = [e for e in pool if set(index.device(e).labels) & ir.labels]
        meta.labels = sorted(ir.labels)
    excluded = _excluded_ids(ir, ctx, typed_exclusion)
    if excluded:
        pool = [e for e in pool if e not in excluded]
        meta.excluded = len(excluded)
    hard = ir.confidence >= ctx.options.hard_capability_confidence
    meta.capability_filter = CapabilityFilter.HARD if hard else CapabilityFilter.SOFT
    return Scoped(scope, pool, index.id_set(pool), excluded, hard)


def _note_scope(meta: ResultMeta, scope: ScopeResult) -> None:
    meta.scope_include_fallback = int(scope.include_fallback)
    meta.room_name_used = scope.room_name_used
    meta.room_name_ambiguous = scope.room_name_ambiguous
    meta.room_unknown_terms = list(scope.room_unknown_terms)


def _by_names(ir: QueryIR, ctx: RunContext, scoped: Scoped, meta: ResultMeta) -> Found:
    """Names: each name said selects what it names, asks which one, or is read as its type
    words."""
    selected: list[Candidate] = []
    considered: list[Candidate] = []
    clarify_pool: list[str] = []
    type_groups = list(ir.type_groups) or asked_by_condition(ir, ctx, scoped.pool, scoped.scope)
    read_as_type: list[Mention] = []
    named_any = False
    for mention in ir.mentions:
        as_words = read_as_type_words(mention, ir, ctx, scoped)
        if as_words is not None:
            type_groups.append(as_words)
            read_as_type.append(mention)
            continue
        outcome = read_name(mention, ir, ctx, scoped, meta)
        if isinstance(outcome, AsTypeWords):
            type_groups.append(outcome.words)
            read_as_type.append(mention)
            continue
        if isinstance(outcome, Cannot):
            named_any = True
            continue
        if outcome is None:
            meta.unmatched_mentions = [*(meta.unmatched_mentions or ()), mention.text]
            continue
        named_any = True
        chosen, pool_for_question, pool_considered = outcome
        considered.extend(pool_considered)
        if chosen:
            selected.extend(based(chosen, Basis.NAME))
        elif pool_for_question and not clarify_pool:
            clarify_pool = pool_for_question
            meta.clarification_primary = [
                c.entity_id for c in close_to_top(pool_considered, ctx.options.epsilon)
            ]
    return Found(
        tuple(selected),
        tuple(considered),
        tuple(clarify_pool),
        tuple(type_groups),
        tuple(read_as_type),
        named_any,
    )


def _by_types(
    ir: QueryIR, ctx: RunContext, scoped: Scoped, found: Found, meta: ResultMeta
) -> Found:
    """Type words (said, or names read as them); for a command with neither names nor type
    words, what it implies (`resolve_implied`); then a name's other reading."""
    selected = list(found.selected)
    considered = list(found.considered)
    clarify_pool = list(found.clarify_pool)
    pool, scope = scoped.pool, scoped.scope
    if found.type_groups:
        groups = list(found.type_groups)
        chosen_types = prefer_satellite(
            ir, ctx, pool, lambda ids: resolve_types(groups, ir, ctx, ids, scope), meta
        )
        chosen_types = like_the_name_said(chosen_types, list(found.read_as_type), ir, ctx)
        selected.extend(chosen_types)
        considered.extend(chosen_types)
    elif not ir.mentions:
        resolve_implied(ir, ctx, pool, scope, selected, considered, meta)
        if not selected and meta.clarification_pool:
            clarify_pool = list(meta.clarification_pool)
    elif not found.named_any and not selected:
        meta.no_match = True
    if ir.name_alternatives:
        name_alternatives(ir, ctx, scoped.excluded, scoped.hard, selected, considered, meta)
    if found.read_as_type:
        # What the words name exactly stays beside the type read from them ("卷帘" read as
        # the blind class, with a roller shade its owner called 卷帘), for an assistant's list.
        also = name_reading(list(found.read_as_type), scoped.pool_set, (meta.name_reading or ()))
        if also:
            meta.name_reading = also
    return replace(
        found,
        selected=tuple(selected),
        considered=tuple(considered),
        clarify_pool=tuple(clarify_pool),
    )


def _finished(
    result: RetrievalResult, ctx: RunContext, found: Found, command_index: int
) -> RetrievalResult:
    """The selection without repeats, the question when nothing was chosen, what the
    capability check removed, the setting, and whether the command commands anything."""
    index, meta, ir = ctx.index, result.meta, result.ir
    unique = _unique(list(found.selected))
    if Note.RUN_BY_NAME in ir.notes:
        # A scene or script run by its name runs nothing else: "关闭所有灯光除了走廊" read the
        # script "关闭所有灯" as every light but the hallway's and switched them on.
        unique = [c for c in unique if index.device(c.entity_id).domain in RUN_BY_NAME]
    clarify_pool = list(found.clarify_pool)
    if ir.count is not None and len(unique) > ir.count:
        # "turn on one of the living room lights": which one(s) is the user's to say; all
        # four went on.
        clarify_pool, unique = [c.entity_id for c in unique], []
    result.selected = unique
    if clarify_pool and not unique:
        result.clarification = build_clarification(
            index, ctx.lex, clarify_pool, ctx.options.max_options, command_index
        )
        meta.clarification_pool = clarify_pool
    keep = max(ctx.options.top_k, len(unique), len(clarify_pool))
    result.rank_later(partial(_ranked, list(found.considered), unique, keep))
    if not unique and result.clarification is None:
        meta.no_match = True
    if ctx.incapable:
        # What the capability check took out, so a person can see why a device was not used.
        meta.capability_removed = index.ordered(ctx.incapable)[:REMOVED_LISTED]
        meta.capability_removed_count = len(ctx.incapable)
    ir, setting = complete_setting(ir, result.selected_ids, ctx)
    result.ir = ir
    if setting is not None:
        meta.setting = setting
    reason = not_commanded_reason(ir)
    if reason is not None:
        withhold(result, reason)
    else:
        note_cannot_do(result, index.ordered(ctx.incapable))
        note_nothing_there(result)
    return result


def _unique(selected: list[Candidate]) -> list[Candidate]:
    """`selected` without repeats, in order (thousands when a type is selected: the ids are
    compared in C first, and usually there is nothing to drop)."""
    ids = list(map(_entity_id, selected))
    if len(set(ids)) == len(ids):
        return selected
    seen: set[str] = set()
    unique: list[Candidate] = []
    for cand in selected:
        if cand.entity_id not in seen:
            seen.add(cand.entity_id)
            unique.append(cand)
    return unique


def _ranked(considered: list[Candidate], selected: list[Candidate], keep: int) -> list[Candidate]:
    """Everything considered, the selected version of each, by score, ties by entity id: two
    stable sorts build no key tuples, which counts when a type selects thousands."""
    merged = dict(zip(map(_entity_id, considered), considered, strict=True))
    merged.update(zip(map(_entity_id, selected), selected, strict=True))  # the later one wins
    ranked = sorted(merged.values(), key=_entity_id)
    ranked.sort(key=attrgetter("total_score"), reverse=True)  # stable: ties keep id order
    return ranked[:keep]


def _excluded_ids(ir: QueryIR, ctx: RunContext, typed_exclusion: bool) -> set[str]:
    index = ctx.index
    out: set[str] = set()
    named_region: set[str] | None = None
    if typed_exclusion and ir.exclude_mentions:
        named_region = set(
            apply_scope(
                index, include_areas=set(ir.scope_exclude), include_floors=set(ir.floor_exclude)
            ).entity_ids
        )
    for mention in ir.exclude_mentions:
        named = set(mention.entity_ids)
        out |= named if named_region is None else named & named_region
    if ir.exclude_labels:
        out |= {
            e for e, entry in index.entries.items() if set(entry.device.labels) & ir.exclude_labels
        }
    if ir.exclude_type_groups:
        region: Iterable[str] = index.entries.keys()
        if typed_exclusion:
            region = apply_scope(
                index, include_areas=set(ir.scope_exclude), include_floors=set(ir.floor_exclude)
            ).entity_ids
        for group in ir.exclude_type_groups:
            out |= set(type_members(group, list(region), ir, ctx, use_states=False))
    return out
