"""`retrieve()`: utterance → one `RetrievalResult` per command.

This module only orders the stages; each is its own module:
parse (`base.parse`, or `command_parser` with a model) → `resolve` (scope, recall, names, types,
capability, references) → `gate` (ask back when unsure) → `state` (what "it" means next turn).
Rendering the YAML context (`render`) is the caller's, once it knows what it will act on.

Nothing here raises on user input: problems become entries in `RetrievalResult.meta`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from ..base.index import DeviceIndex
from ..base.lexicon import LexiconSet, default_lexicons
from ..base.llm_json import LLMClient
from ..base.models import Basis, Candidate, Device, Note, QueryIR, Reason, ReasonCode
from ..base.parse import analyze, compile_commands
from ..base.vector_search import VectorSearcher
from .command_parser import async_parse_commands
from .context import RetrievalOptions, RunContext
from .device_types import type_members
from .gate import MAX_MISSES, AnswerResolution, build_clarification, resolve_answer
from .grounding import ground
from .resolve import resolve_command
from .results import RetrievalResult
from .setting import complete_setting
from .state import ConversationState, PendingClarification, PendingConfirmation

_LOGGER = logging.getLogger(__name__)


# ---- public API -------------------------------------------------------------------------------


def build_index(
    devices: Iterable[Device],
    lexicons: LexiconSet | None = None,
    language: str | None = None,
    **kwargs: Any,
) -> DeviceIndex:
    return DeviceIndex.build(devices, lexicons=lexicons, language=language, **kwargs)


def retrieve(
    text: str,
    devices: Sequence[Device] | DeviceIndex,
    state: ConversationState | None = None,
    top_k: int = 5,
    vector_searcher: VectorSearcher | None = None,
    language: str | None = None,
    *,
    context_area: str | None = None,
    options: RetrievalOptions | None = None,
    lexicons: LexiconSet | None = None,
) -> list[RetrievalResult]:
    """Resolve every command in `text` against the home with the rules; never raises on user
    input.

    `devices` may be a prebuilt `DeviceIndex` (reused) or a list of devices (indexed now).
    `context_area` is the area of the voice satellite, used for "here" and to settle otherwise
    ambiguous names. To let a language model split the commands, use `async_retrieve`.
    """
    ctx = _make_context(
        devices, state, top_k, vector_searcher, language, context_area, options, lexicons, text
    )
    return _run_safely(text, ctx, language, None, {})


async def async_retrieve(
    text: str,
    devices: Sequence[Device] | DeviceIndex,
    llm: LLMClient | None = None,
    state: ConversationState | None = None,
    top_k: int = 5,
    vector_searcher: VectorSearcher | None = None,
    language: str | None = None,
    *,
    context_area: str | None = None,
    options: RetrievalOptions | None = None,
    lexicons: LexiconSet | None = None,
    offload: Callable[[Callable[[], list[RetrievalResult]]], Awaitable[list[RetrievalResult]]]
    | None = None,
) -> list[RetrievalResult]:
    """`retrieve` with the commands read by `llm` when one is given; any trouble with the
    model falls back to the rules and is recorded as `meta.parse_degraded`.

    Only the model call is awaited here; `offload`, if given (Home Assistant's executor), runs
    the CPU-bound rest — and any blocking vector searcher — off the event loop."""
    ctx = _make_context(
        devices, state, top_k, vector_searcher, language, context_area, options, lexicons, text
    )
    meta: dict[str, Any] = {}
    commands: list[QueryIR] | None = None
    # An answer to our own question ("the bedroom one") is read by the rules, which know it.
    if llm is not None and (text or "").strip() and not (state and state.pending):
        lang = language or ctx.lex.language
        commands, degraded = await async_parse_commands(
            text, llm, ctx.index, ctx.lexicons, lang, llm_timeout=ctx.options.llm_timeout
        )
        if degraded:
            meta["parse_degraded"] = degraded
            commands = None
        else:
            meta["parser"] = "llm"

    def run() -> list[RetrievalResult]:
        return _run_safely(text, ctx, language, commands, meta)

    return await offload(run) if offload is not None else run()


# ---- the run --------------------------------------------------------------------------------


def _make_context(
    devices: Sequence[Device] | DeviceIndex,
    state: ConversationState | None,
    top_k: int,
    vector_searcher: VectorSearcher | None,
    language: str | None,
    context_area: str | None,
    options: RetrievalOptions | None,
    lexicons: LexiconSet | None,
    text: str,
) -> RunContext:
    lexicons = lexicons or (
        devices.lexicons if isinstance(devices, DeviceIndex) else default_lexicons()
    )
    index = (
        devices
        if isinstance(devices, DeviceIndex)
        else DeviceIndex.build(devices, lexicons=lexicons, language=language)
    )
    opts = options or RetrievalOptions()
    if top_k != opts.top_k:
        opts = RetrievalOptions(**{**{f: getattr(opts, f) for f in opts.__slots__}, "top_k": top_k})
    lang = language or index.detect_language(text or "", fallback=index.language)
    return RunContext(
        index=index,
        lexicons=lexicons,
        lex=lexicons.get(lang),
        options=opts,
        vectors=vector_searcher or index.vectors,
        state=state,
        context_area=context_area if context_area in index.areas else None,
    )


def _run_safely(
    text: str,
    ctx: RunContext,
    language: str | None,
    commands: list[QueryIR] | None,
    meta: dict[str, Any],
) -> list[RetrievalResult]:
    """`_run`, with an unexpected failure turned into an empty, explained result."""
    try:
        return _run(text, ctx, language, commands, meta)
    except Exception as err:
        _LOGGER.exception("retrieval failed; returning an empty result")
        return [RetrievalResult(ir=QueryIR(raw=text or ""), meta={"error": type(err).__name__})]


def _run(
    text: str,
    ctx: RunContext,
    language: str | None,
    commands: list[QueryIR] | None,
    meta: dict[str, Any],
) -> list[RetrievalResult]:
    analysis = analyze(text, ctx.index, ctx.lexicons, language or ctx.lex.language)
    base_meta: dict[str, Any] = {"language": analysis.language, **meta}
    if analysis.corrections:
        base_meta["spelling_repaired"] = [list(c) for c in analysis.corrections]
    if analysis.truncated:
        base_meta["text_truncated"] = True
    if not analysis.tokens:
        return [
            RetrievalResult(
                ir=QueryIR(raw=text or "", language=analysis.language),
                meta={**base_meta, "empty_input": True},
            )
        ]

    # "Unlock the front door?" asked last turn: a yes does it, a no or anything else not.
    confirming = ctx.state.take_confirming() if ctx.state else ()
    if confirming:
        said = ctx.lexicons.get(analysis.language).yes_or_no(text)
        if said is not None:
            return [_confirmed(c, said, ctx, base_meta) for c in confirming]
        base_meta["confirmation_dropped"] = True

    # A reply to the question we asked last turn?
    pending = ctx.state.take_pending() if ctx.state else None
    irs = commands if commands is not None else compile_commands(analysis, ctx.index, ctx.lexicons)
    if pending is not None and not _is_new_request(irs, pending, ctx):
        named_areas = {a for ir in irs for a in ir.scope_include}
        answer = resolve_answer(analysis, pending, ctx.index, named_areas)
        if answer.is_answer:
            return [_answer_result(answer, pending, ctx, base_meta)]
        if not any(_asks_for_something(ir) for ir in irs):
            # Reply-shaped but not matching any option ("the blue one", "turn it off"): ask
            # again rather than treat it as a new request for everything it might mention —
            # but not forever.
            return [_missed(pending, ctx, base_meta)]
        # "turn on the sauna": a request of its own; the question is dropped.
        base_meta["clarification_dropped"] = True

    results = []
    for ir in irs:
        if ir.there:
            _place_from_last_turn(ir, ctx)
        _same_elsewhere(ir, ctx)
        if ir.action is None:
            _action_from_last_turn(ir, ctx)
    for i, ir in enumerate(irs):
        # "打开客厅的灯然后把空调调到25度": a room said earlier in the utterance settles an
        # otherwise ambiguous name later in it.
        ctx.hint_areas = {a for prev in irs[:i] for a in prev.scope_include}
        result = ground(resolve_command(ir, ctx, i), ctx, i)
        result.meta = {**base_meta, **result.meta}
        results.append(result)
        if i + 1 < len(irs):
            # "turn on the kitchen lights and dim them to 50 %", "… avec la luminosité à
            # 50 %": what a command selected is what the next one's "them", or its missing
            # target, refers to; without a conversation, within this utterance only.
            if ctx.state is None:
                ctx.state = ConversationState()
            ctx.state.remember(result.selected_ids)
    _update_state(ctx, results)
    return results


def _answer_result(
    answer: AnswerResolution,
    pending: PendingClarification,
    ctx: RunContext,
    base_meta: dict[str, Any],
) -> RetrievalResult:
    ir = pending.ir
    result = RetrievalResult(ir=ir, meta={**base_meta, "clarification_answer": answer.how})
    if answer.cancelled:
        result.meta["clarification_cancelled"] = True
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
    setting = complete_setting(ir, result.selected_ids, ctx)
    if setting is not None:
        result.meta["setting"] = setting
    result = ground(result, ctx, 0)
    if ctx.state and result.confirmation is not None:
        # "which door?" … "the front door": unlocking it still waits for a yes.
        ctx.state.add_confirming(result.confirmation, ir, setting)
    elif ctx.state:
        ctx.state.remember(result.selected_ids)
    return result


def _confirmed(
    confirming: PendingConfirmation, yes: bool, ctx: RunContext, base_meta: dict[str, Any]
) -> RetrievalResult:
    """The action that waited for a yes, now to be done (`meta.confirmed`), or declined."""
    result = RetrievalResult(ir=confirming.ir, meta=dict(base_meta))
    if not yes:
        result.meta["confirmation_declined"] = True
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
    result.meta["confirmed"] = True
    if confirming.setting is not None:
        result.meta["setting"] = confirming.setting
    if ctx.state is not None:
        ctx.state.remember(ids)
    return result


def _is_new_request(irs: list[QueryIR], pending: PendingClarification, ctx: RunContext) -> bool:
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


def _place_from_last_turn(ir: QueryIR, ctx: RunContext) -> None:
    """ "那里的风扇也打开", "in there too": the rooms of what the last turn was about, or the
    rooms its command named. Nothing to go by leaves the command without a place."""
    if ir.scope_include or ir.floor_include or ctx.state is None:
        return
    index = ctx.index
    rooms = {
        area
        for e in ctx.state.last_turn()
        if e in index and (area := index.device(e).area_id) is not None
    }
    last = ctx.state.last_action()
    if not rooms and last is not None:
        rooms = set(last.scope_include)
        ir.floor_include = set(last.floor_include)
    if rooms:
        ir.scope_include = rooms
        ir.notes.append(Note.PLACE_FROM_LAST_TURN)


def _same_elsewhere(ir: QueryIR, ctx: RunContext) -> None:
    """ "dasselbe im dining room", "lo mismo en el salón": "the same" said with a place the
    last turn's devices are not in is the last command again there, not those devices."""
    if not ir.references or not (ir.scope_include or ir.floor_include) or ctx.state is None:
        return
    if ir.mentions or ir.type_groups or ir.action is not None:
        return
    index = ctx.index
    last = [e for e in ctx.state.last_turn() if e in index]
    devices = [index.device(e) for e in last]
    if devices and not any(
        d.area_id in ir.scope_include or d.floor_id in ir.floor_include for d in devices
    ):
        ir.references = []
        ir.reference_kind = "none"


def _names_a_target(ir: QueryIR) -> bool:
    return bool(
        ir.there
        or ir.mentions
        or ir.type_groups
        or ir.labels
        or ir.generic
        or ir.scope_include
        or ir.floor_include
        or ir.everywhere
    )


def _asks_for_something(ir: QueryIR) -> bool:
    """A command of its own: an action said of something, even something the home does not
    have ("turn on the sauna"); "turn it off" or "the blue one" are not."""
    return ir.action is not None and bool(
        _names_a_target(ir) or ir.phrases or ir.unknown_terms or ir.unknown_rooms
    )


def _missed(
    pending: PendingClarification, ctx: RunContext, base_meta: dict[str, Any]
) -> RetrievalResult:
    """A reply that did not answer: the question again, in the reply's language, or after
    `MAX_MISSES` nothing and no question (`meta.clarification_abandoned`)."""
    misses = pending.misses + 1
    result = RetrievalResult(
        ir=pending.ir, meta={**base_meta, "clarification_unresolved": True, "misses": misses}
    )
    result.candidates = [
        Candidate(entity_id=e, total_score=1.0) for e in pending.candidate_ids if e in ctx.index
    ]
    if misses >= MAX_MISSES:
        result.meta["clarification_abandoned"] = True
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


def _action_from_last_turn(ir: QueryIR, ctx: RunContext) -> None:
    """ "and the bedroom" after "turn on the kitchen lights": an utterance with a target but
    no action does what the last command did."""
    last = ctx.state.last_action() if ctx.state is not None else None
    if last is None or Note.NEGATED in ir.notes:
        return
    if ir.change is not None and last.attribute is not None:
        # "再高两度", "a bit more": the last command's setting, a step from where it is.
        ir.action = last.action
        ir.attribute = last.attribute
        ir.implied_type = ir.implied_type or last.implied_type
        ir.notes.append(Note.ACTION_FROM_LAST_TURN)
        return
    if not _names_a_target(ir):
        return
    ir.action = last.action
    ir.implied_type = ir.implied_type or last.implied_type
    if not (ir.mentions or ir.type_groups or ir.generic or ir.labels):
        # "the same in the bedroom" after "turn on the kitchen fan": the fan there.
        named = [(m.type_id,) if m.type_id else m.types_inside for m in last.mentions]
        kinds = [*last.type_groups, *(k for k in named if k)]
        ir.type_groups = list(dict.fromkeys(kinds))
    if ir.value is None and last.value is not None:
        ir.attribute, ir.value, ir.unit, ir.change = (
            last.attribute,
            last.value,
            last.unit,
            last.change,
        )
    ir.notes.append(Note.ACTION_FROM_LAST_TURN)


def _update_state(ctx: RunContext, results: list[RetrievalResult]) -> None:
    if ctx.state is None:
        return
    for result in results:
        ctx.state.remember_command(result.ir)
    for result in results:
        if result.clarification is not None:
            pool = result.meta.get("clarification_pool") or [
                o.entity_id for o in result.clarification.options
            ]
            ctx.state.set_pending(
                result.clarification,
                pool,
                result.ir,
                primary=result.meta.get("clarification_primary"),
            )
            break
    for result in results:
        if result.confirmation is not None:
            ctx.state.add_confirming(result.confirmation, result.ir, result.meta.get("setting"))
    # What waits for a yes is not done yet, so it is not what "it" means.
    selected = [eid for r in results if r.confirmation is None for eid in r.selected_ids]
    if selected:
        ctx.state.remember(selected)


def selected_devices(results: Iterable[RetrievalResult], index: DeviceIndex) -> list[Device]:
    """The devices every command selected, once each, in order."""
    out: list[Device] = []
    seen: set[str] = set()
    for result in results:
        for eid in result.selected_ids:
            if eid not in seen and eid in index:
                seen.add(eid)
                out.append(index.device(eid))
    return out


__all__ = [
    "RetrievalOptions",
    "async_retrieve",
    "build_index",
    "retrieve",
    "selected_devices",
]
