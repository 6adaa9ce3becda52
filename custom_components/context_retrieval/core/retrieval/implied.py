"""What a command with neither a name nor a type word is about: "it" and "them" (the last
turn), the action's own kind ("dock" → the vacuum), a complaint about a room, state words,
words close to a name, or everything in scope that can do it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..base.models import Basis, Candidate, QueryIR, Reason, ReasonCode
from .capability import is_capable
from .context import RunContext
from .device_types import resolve_types, state_filter, type_members
from .gate import close_to_top, needs_clarification
from .names import best_named
from .recall import recall_both
from .references import resolve_references
from .satellite import prefer_satellite
from .scope import ScopeResult
from .stages import REMOVED_LISTED, based

SWITCHING = frozenset({"turn_on", "turn_off", "toggle"})


def asked_by_condition(
    ir: QueryIR, ctx: RunContext, pool: list[str], scope: ScopeResult
) -> list[tuple[str, ...]]:
    """ "太热了", "it's too dark in the study": the first kind of the condition's rule that
    the place has devices of, able to do what it asks; none when nothing there can."""
    rule = ctx.lexicons.types.conditions.get(ir.condition or "")
    if rule is None or ir.mentions:
        return []
    for type_id in rule.types:
        if resolve_types([(type_id,)], ir, ctx, pool, scope):
            return [(type_id,)]
    return []


def resolve_implied(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    selected: list[Candidate],
    considered: list[Candidate],
    meta: dict[str, Any],
) -> None:
    """No name and no type word: pronouns, ellipsis, the action's own type, or "everything"."""
    index = ctx.index
    explicit_target = bool(
        ir.labels or ir.generic or ir.scope_include or ir.floor_include or ir.here
    )
    # "it" / "them" / nothing at all ("拉到一半就行"): what we talked about last.
    if ir.references or not (explicit_target or ir.phrases or ir.states or ir.everywhere):
        found = resolve_references(ir, ctx.state, index)
        if found:
            meta["reference"] = ir.reference_kind if ir.references else "implicit"
            for eid in found:
                selected.append(
                    Candidate(
                        entity_id=eid,
                        keyword_score=1.0,
                        total_score=1.0,
                        reasons=[Reason(ReasonCode.LAST_TURN)],
                        basis=Basis.REFERENCE,
                    )
                )
            return
        if ir.references:
            meta["reference_unresolved"] = True
            if ctx.state is not None and (ctx.state.last_turn() or ctx.state.last_action()):
                # "set it to 50%" when the "it" just talked about cannot be set: say so
                # rather than dim every light. With nothing said before, "skip this" is not
                # a reference and the action's own type applies.
                return
    if ir.implied_type and not ir.generic:
        if ir.phrases:
            # "pause the sonos": a word that names one of them beats all of that type.
            typed = type_members((ir.implied_type,), pool, ir, ctx)
            named = best_named(" ".join(ir.phrases), typed, ir, ctx)
            if named:
                selected.extend(based(named, Basis.WORDS))
                considered.extend(named)
                return
        implied = ir.implied_type
        chosen = prefer_satellite(
            ir,
            ctx,
            pool,
            lambda ids: resolve_types([(implied,)], ir, ctx, ids, scope, Basis.ACTION),
            meta,
        )
        if chosen:
            selected.extend(chosen)
            considered.extend(chosen)
            return
    if ir.states and not explicit_target and not ir.everywhere:
        members = state_filter(pool, ir.states, ctx)
        if ir.generic:
            members = [e for e in members if index.device(e).domain != "person"]
        for eid in members:
            selected.append(
                Candidate(
                    entity_id=eid,
                    keyword_score=1.0,
                    total_score=1.0,
                    reasons=[Reason(ReasonCode.STATE, "/".join(sorted(ir.states)))],
                    basis=Basis.STATE,
                )
            )
        if members:
            return
    if ir.phrases and (ir.scope_include or ir.floor_include) and ir.action in SWITCHING:
        # "turn on the cabinet one in the kitchen": a word of a name there beats its lights.
        named = best_named(" ".join(ir.phrases), pool, ir, ctx)
        capable = [c for c in named if is_capable(index.device(c.entity_id), ir.action)]
        if capable:
            selected.extend(based(capable, Basis.WORDS))
            considered.extend(capable)
            return
    place_only = bool(ir.scope_include or ir.floor_include or ir.here) and not (
        ir.generic or ir.labels or ir.states
    )
    place_type = ctx.lexicons.types.defaults.get("place_only")
    if place_only and ir.action in SWITCHING and place_type and not scope.include_fallback:
        # "apaga la cocina", "turn off the bedroom": the lights there, as Home Assistant's own
        # sentences read a switching command that names only a place.
        chosen = resolve_types([(place_type,)], ir, ctx, pool, scope, Basis.PLACE)
        meta["place_only"] = place_type
        selected.extend(chosen)
        considered.extend(chosen)
        return
    if explicit_target or (ir.everywhere and ir.action not in (None, "query")):
        if scope.include_fallback:
            meta["no_match"] = True
            return
        members = pool
        if ir.states:
            members = state_filter(members, ir.states, ctx) or members
        if ir.generic:
            members = [e for e in members if index.device(e).domain != "person"]
        # "turn everything off": the comfort devices, not the fish tank's plug.
        limited = ir.everything and not ir.labels and ir.action in SWITCHING
        reach = ctx.lexicons.types.everything
        skipped: list[str] = []
        for eid in members:
            device = index.device(eid)
            if limited and device.domain not in reach:
                if is_capable(device, ir.action, explicit=False):
                    skipped.append(eid)
                else:
                    ctx.incapable.add(eid)
            elif is_capable(device, ir.action, explicit=False):
                selected.append(
                    Candidate(
                        entity_id=eid,
                        keyword_score=1.0,
                        total_score=1.0,
                        reasons=[Reason(ReasonCode.ALL_CAPABLE)],
                        basis=Basis.LABEL if ir.labels else Basis.EVERYTHING,
                    )
                )
            else:
                ctx.incapable.add(eid)
        if skipped:
            meta["everything_skipped"] = index.ordered(set(skipped))[:REMOVED_LISTED]
        return
    if ir.phrases:
        ranked = recall_both(" ".join(ir.phrases), pool, ctx, meta)
        considered.extend(ranked[: ctx.options.top_k])
        good = [c for c in ranked if c.keyword_score >= ctx.options.min_match_score]
        capable = [c for c in good if is_capable(index.device(c.entity_id), ir.action)]
        ctx.note_incapable([c.entity_id for c in good], [c.entity_id for c in capable])
        if capable and not needs_clarification(capable, ctx.options.epsilon):
            selected.append(replace(capable[0], basis=Basis.WORDS))
        elif capable:
            meta["clarification_pool"] = [
                c.entity_id for c in close_to_top(capable, ctx.options.epsilon)
            ]
