"""Replies to what we asked last turn: a yes or no to "unlock the front door?", an answer
to "which one?" (`gate.resolve_answer`), or a reply that answers nothing (the question again,
then given up), and when an utterance is a new request instead."""

from __future__ import annotations

from ..base.models import Basis, Candidate, QueryIR, Reason, ReasonCode
from .context import RunContext
from .device_types import type_members
from .gate import MAX_MISSES, AnswerResolution, build_clarification
from .grounding import ground
from .meta import ResultMeta
from .results import RetrievalResult
from .setting import complete_setting
from .state import PendingClarification, PendingConfirmation


def answer_result(
    answer: AnswerResolution,
    pending: PendingClarification,
    ctx: RunContext,
    base_meta: ResultMeta,
) -> RetrievalResult:
    ir = pending.ir
    result = RetrievalResult(
        ir=ir, meta=ResultMeta(clarification_answer=answer.how).fill(base_meta)
    )
    if answer.cancelled:
        result.meta.clarification_cancelled = True
        return result
    if answer.remaining:
        result.clarification = build_clarification(
            ctx.index, ctx.lex, answer.remaining, ctx.options.max_options
        )
        result.candidates = [Candidate(entity_id=e, total_score=1.0) for e in answer.remaining]
        if ctx.state:
            ctx.state.set_pending(
                result.clarification,
                answer.remaining,
                ir,
                primary=[e for e in pending.primary if e in answer.remaining],
            )
        return result
    result.selected = [
        Candidate(
            entity_id=e,
            keyword_score=1.0,
            total_score=1.0,
            reasons=[Reason(ReasonCode.CLARIFIED, answer.how)],
            basis=Basis.ANSWER,
        )
        for e in answer.selected
    ]
    result.candidates = list(result.selected)
    # "set the AC to 22" … "in the master bedroom": the setting asked about, on the one chosen.
    ir, setting = complete_setting(ir, result.selected_ids, ctx)
    result.ir = ir
    if setting is not None:
        result.meta.setting = setting
    result = ground(result, ctx, 0)
    if ctx.state and result.confirmation is not None:
        # "which door?" … "the front door": unlocking it still waits for a yes.
        ctx.state.add_confirming(result.confirmation, ir, setting)
    elif ctx.state:
        ctx.state.remember(result.selected_ids)
    return result


def confirmed(
    confirming: PendingConfirmation, yes: bool, ctx: RunContext, base_meta: ResultMeta
) -> RetrievalResult:
    """The action that waited for a yes, now to be done (`meta.confirmed`), or declined."""
    result = RetrievalResult(ir=confirming.ir, meta=ResultMeta().fill(base_meta))
    if not yes:
        result.meta.confirmation_declined = True
        return result
    ids = [e for e in confirming.request.entity_ids if e in ctx.index]
    result.selected = [
        Candidate(
            entity_id=e,
            keyword_score=1.0,
            total_score=1.0,
            reasons=[Reason(ReasonCode.CONFIRMED)],
            basis=Basis.ANSWER,
        )
        for e in ids
    ]
    result.candidates = list(result.selected)
    result.meta.confirmed = True
    if confirming.setting is not None:
        result.meta.setting = confirming.setting
    if ctx.state is not None:
        ctx.state.remember(ids)
    return result


def is_new_request(irs: list[QueryIR], pending: PendingClarification, ctx: RunContext) -> bool:
    """ "turn off the bedroom fan" after "which desk lamp?": an action with a device or type
    of its own that none of the candidates is, so not an answer even though it names a room
    one of them is in. An action other than the one asked about is a new command too ("turn
    them both off" after "turn on which ceiling light?"): the question's candidates are no
    answer to it."""
    asked = pending.ir.action
    if asked is not None and any(
        ir.action not in (None, "query", asked) and ir.value is None for ir in irs
    ):
        # (An action read from a value alone, "the blue one", may still describe an option.)
        return True
    pool = [c for c in pending.candidate_ids if c in ctx.index]
    for ir in irs:
        if ir.action is None or not (ir.mentions or ir.type_groups):
            continue
        named = {e for m in ir.mentions for e in m.entity_ids}
        fits = bool(named & set(pool)) or any(
            type_members(group, pool, ir, ctx, use_states=False) for group in ir.type_groups
        )
        return not fits
    return False


def names_a_target(ir: QueryIR) -> bool:
    return ir.says_what or ir.names_a_place or ir.there or ir.everywhere


def asks_for_something(ir: QueryIR) -> bool:
    """A command of its own: an action said of something, even something the home does not
    have ("turn on the sauna"); "turn it off" or "the blue one" are not."""
    return ir.action is not None and bool(
        names_a_target(ir) or ir.phrases or ir.unknown_terms or ir.unknown_rooms
    )


def missed(
    pending: PendingClarification, ctx: RunContext, base_meta: ResultMeta
) -> RetrievalResult:
    """A reply that did not answer: the question again, in the reply's language, or after
    `MAX_MISSES` nothing and no question (`meta.clarification_abandoned`)."""
    misses = pending.misses + 1
    result = RetrievalResult(
        ir=pending.ir,
        meta=ResultMeta(clarification_unresolved=True, misses=misses).fill(base_meta),
    )
    result.candidates = [
        Candidate(entity_id=e, total_score=1.0) for e in pending.candidate_ids if e in ctx.index
    ]
    if misses >= MAX_MISSES:
        result.meta.clarification_abandoned = True
        if ctx.state:
            # The user was told to say the whole command again: a place said next is no
            # follow-up of the abandoned one.
            ctx.state.last_command = None
        return result
    listed = [o.entity_id for o in pending.request.options if o.entity_id in ctx.index]
    request = (
        build_clarification(
            ctx.index,
            ctx.lex,
            listed,
            max(len(listed), 1),
            pending.request.command_index,
        )
        if listed
        else pending.request
    )
    result.clarification = request
    if ctx.state:
        ctx.state.set_pending(
            request, pending.candidate_ids, pending.ir, primary=pending.primary, misses=misses
        )
    return result
