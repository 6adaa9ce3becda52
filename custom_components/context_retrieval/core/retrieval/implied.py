"""What a command with neither a name nor a type word is about: "it" and "them" (the last
turn), the action's own kind ("dock" → the vacuum), a complaint about a room, state words,
words close to a name, or everything in scope that can do it."""

from __future__ import annotations

from dataclasses import replace

from ..base.models import Basis, Candidate, Note, QueryIR, Reason, ReasonCode
from .capability import is_capable
from .context import RunContext
from .device_types import resolve_types, state_filter, type_members
from .gate import close_to_top, needs_clarification
from .meta import ResultMeta
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


# What one reading of a command found: the candidates it selects and those it considered.
# A reading that does not apply returns None, and the next one is tried.
_Found = tuple[list[Candidate], list[Candidate]]
_NOTHING: _Found = ([], [])


def resolve_implied(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    selected: list[Candidate],
    considered: list[Candidate],
    meta: ResultMeta,
) -> None:
    """No name and no type word: the first of these readings that applies, in order:
    pronouns and ellipsis, the action's own type, state words, a word of a name in the place
    said, the place alone, everything said, words close to a name."""
    explicit = bool(ir.labels or ir.generic or ir.scope_include or ir.floor_include or ir.here)
    readings = (
        _by_reference,
        _by_action_type,
        _by_state,
        _by_word_in_place,
        _by_place_alone,
        _by_everything,
        _by_words,
    )
    for reading in readings:
        found = reading(ir, ctx, pool, scope, meta, explicit)
        if found is not None:
            selected.extend(found[0])
            considered.extend(found[1])
            return


def _by_reference(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    meta: ResultMeta,
    explicit: bool,
) -> _Found | None:
    """ "it" / "them" / nothing at all ("拉到一半就行"): what we talked about last."""
    if not (ir.references or not (explicit or ir.phrases or ir.states or ir.everywhere)):
        return None
    if Note.OTHERS in ir.notes:
        # "the others" with nothing to tell which: never what was talked about.
        return _NOTHING
    found = resolve_references(ir, ctx.state, ctx.index)
    if found:
        meta.reference = ir.reference_kind if ir.references else "implicit"
        # "turn them all off except the reading light": what was left out, or lies outside
        # the place said, is not among them; when nothing of them is left, nothing is.
        in_pool = ctx.index.id_set(pool)
        found = [e for e in found if e in in_pool]
        if not found:
            return _NOTHING
        chosen = [
            Candidate(
                eid,
                keyword_score=1.0,
                total_score=1.0,
                reasons=[Reason(ReasonCode.LAST_TURN)],
                basis=Basis.REFERENCE,
            )
            for eid in found
        ]
        return chosen, []
    if ir.references:
        meta.reference_unresolved = True
        if ctx.state is not None and (ctx.state.last_turn() or ctx.state.last_action()):
            # "set it to 50%" when the "it" just talked about cannot be set: say so rather
            # than dim every light. With nothing said before, "skip this" is not a
            # reference and the action's own type applies.
            return _NOTHING
    return None


def _by_action_type(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    meta: ResultMeta,
    explicit: bool,
) -> _Found | None:
    """The action's own kind ("dock" → the vacuum); a word naming one of them beats all."""
    if not ir.implied_type or ir.generic:
        return None
    if ir.phrases:
        # "pause the sonos": a word that names one of them beats all of that type.
        typed = type_members((ir.implied_type,), pool, ir, ctx)
        named = best_named(" ".join(ir.phrases), typed, ir, ctx)
        if named:
            return based(named, Basis.WORDS), named
    implied = ir.implied_type
    chosen = prefer_satellite(
        ir,
        ctx,
        pool,
        lambda ids: resolve_types([(implied,)], ir, ctx, ids, scope, Basis.ACTION),
        meta,
    )
    return (chosen, chosen) if chosen else None


def _by_state(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    meta: ResultMeta,
    explicit: bool,
) -> _Found | None:
    """State words alone ("what is open?"): what is in that state."""
    if not ir.states or explicit or ir.everywhere:
        return None
    members = state_filter(pool, ir.states, ctx)
    if ir.generic:
        members = [e for e in members if ctx.index.device(e).domain != "person"]
    said = "/".join(sorted(ir.states))
    chosen = [
        Candidate(
            eid,
            keyword_score=1.0,
            total_score=1.0,
            reasons=[Reason(ReasonCode.STATE, said)],
            basis=Basis.STATE,
        )
        for eid in members
    ]
    return (chosen, []) if chosen else None


def _by_word_in_place(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    meta: ResultMeta,
    explicit: bool,
) -> _Found | None:
    """ "turn on the cabinet one in the kitchen": a word of a name there beats its lights."""
    if not (ir.phrases and (ir.scope_include or ir.floor_include) and ir.action in SWITCHING):
        return None
    named = best_named(" ".join(ir.phrases), pool, ir, ctx)
    capable = [c for c in named if is_capable(ctx.index.device(c.entity_id), ir.action)]
    return (based(capable, Basis.WORDS), capable) if capable else None


def _by_place_alone(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    meta: ResultMeta,
    explicit: bool,
) -> _Found | None:
    """ "apaga la cocina", "turn off the bedroom": the lights there, as Home Assistant's own
    sentences read a switching command that names only a place."""
    place_only = bool(ir.scope_include or ir.floor_include or ir.here) and not (
        ir.generic or ir.labels or ir.states
    )
    place_type = ctx.lexicons.types.defaults.get("place_only")
    if not (place_only and ir.action in SWITCHING and place_type and not scope.include_fallback):
        return None
    chosen = resolve_types([(place_type,)], ir, ctx, pool, scope, Basis.PLACE)
    meta.place_only = place_type
    return chosen, chosen


def _by_everything(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    meta: ResultMeta,
    explicit: bool,
) -> _Found | None:
    """A place, label or "everything" said with nothing else: whatever there can do it ("turn
    everything off": the comfort devices, not the fish tank's plug)."""
    if not (explicit or (ir.everywhere and ir.action not in (None, "query"))):
        return None
    if scope.include_fallback:
        meta.no_match = True
        return _NOTHING
    index = ctx.index
    members = pool
    if ir.states:
        members = state_filter(members, ir.states, ctx) or members
    if ir.generic:
        members = [e for e in members if index.device(e).domain != "person"]
    limited = ir.everything and not ir.labels and ir.action in SWITCHING
    reach = ctx.lexicons.types.everything
    basis = Basis.LABEL if ir.labels else Basis.EVERYTHING
    chosen: list[Candidate] = []
    skipped: list[str] = []
    for eid in members:
        device = index.device(eid)
        if limited and device.domain not in reach:
            if is_capable(device, ir.action, explicit=False):
                skipped.append(eid)
            else:
                ctx.incapable.add(eid)
        elif is_capable(device, ir.action, explicit=False):
            chosen.append(
                Candidate(
                    eid,
                    keyword_score=1.0,
                    total_score=1.0,
                    reasons=[Reason(ReasonCode.ALL_CAPABLE)],
                    basis=basis,
                )
            )
        else:
            ctx.incapable.add(eid)
    if skipped:
        meta.everything_skipped = index.ordered(set(skipped))[:REMOVED_LISTED]
    return chosen, []


def _by_words(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    meta: ResultMeta,
    explicit: bool,
) -> _Found | None:
    """Words close to a name: the best, or a question when several are as close."""
    if not ir.phrases:
        return None
    index = ctx.index
    ranked = recall_both(" ".join(ir.phrases), pool, ctx, meta)
    considered = ranked[: ctx.options.top_k]
    good = [c for c in ranked if c.keyword_score >= ctx.options.min_match_score]
    capable = [c for c in good if is_capable(index.device(c.entity_id), ir.action)]
    ctx.note_incapable([c.entity_id for c in good], [c.entity_id for c in capable])
    if capable and not needs_clarification(capable, ctx.options.epsilon):
        return [replace(capable[0], basis=Basis.WORDS)], considered
    if capable:
        meta.clarification_pool = [c.entity_id for c in close_to_top(capable, ctx.options.epsilon)]
    return [], considered
