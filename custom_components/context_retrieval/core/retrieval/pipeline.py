"""`retrieve()`: utterance → one `RetrievalResult` per command.

This module only orders the stages; each is its own module:
parse (`base.parse`, or `command_parser` with a model) → `replies` (an answer to what we asked
last turn) → `follow_ups` (what a command takes from the conversation) → `resolve` (scope,
names, types, capability, references; `gate` asks back when unsure) → `grounding` (acts only
on what was said) → `follow_ups.update_state` (what "it" means next turn).
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
from ..base.models import Device, QueryIR
from ..base.parse import Analysis, analyze, compile_commands
from ..base.vector_search import VectorSearcher
from .command_parser import async_parse_commands
from .context import RetrievalOptions, RunContext
from .follow_ups import (
    action_from_last_turn,
    others_than_last_turn,
    place_from_last_turn,
    same_elsewhere,
    same_name_elsewhere,
    setting_of_last_turn,
    sibling_of_last_turn,
    update_state,
)
from .gate import resolve_answer
from .grounding import ground
from .meta import ResultMeta
from .replies import answer_result, asks_for_something, confirmed, is_new_request, missed
from .resolve import resolve_command
from .results import RetrievalResult
from .state import ConversationState

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
    return _run_safely(text, ctx, language, None, ResultMeta())


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
    meta = ResultMeta()
    commands: list[QueryIR] | None = None
    # An answer to our own question ("the bedroom one") is read by the rules, which know it.
    if llm is not None and (text or "").strip() and not (state and state.pending):
        lang = language or ctx.lex.language
        commands, degraded = await async_parse_commands(
            text, llm, ctx.index, ctx.lexicons, lang, llm_timeout=ctx.options.llm_timeout
        )
        if degraded:
            meta.parse_degraded = degraded
            commands = None
        else:
            meta.parser = "llm"

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
    meta: ResultMeta,
) -> list[RetrievalResult]:
    """`_run`, with an unexpected failure turned into an empty, explained result."""
    try:
        return _run(text, ctx, language, commands, meta)
    except Exception as err:
        _LOGGER.exception("retrieval failed; returning an empty result")
        return [
            RetrievalResult(ir=QueryIR(raw=text or ""), meta=ResultMeta(error=type(err).__name__))
        ]


def _run(
    text: str,
    ctx: RunContext,
    language: str | None,
    commands: list[QueryIR] | None,
    meta: ResultMeta,
) -> list[RetrievalResult]:
    """The stages of one utterance: read it, take a reply to what we asked, take what each
    command leaves to the conversation, resolve and ground each command, keep what the
    conversation needs next."""
    analysis = analyze(text, ctx.index, ctx.lexicons, language or ctx.lex.language)
    base_meta = _reading_notes(analysis, meta)
    if not analysis.tokens:
        return [
            RetrievalResult(
                ir=QueryIR(raw=text or "", language=analysis.language),
                meta=ResultMeta(empty_input=True).fill(base_meta),
            )
        ]
    replied, irs = _replied(text, analysis, commands, ctx, base_meta)
    if replied is not None:
        return replied
    results = _resolved([_followed(ir, ctx) for ir in irs], ctx, base_meta)
    update_state(ctx, results)
    return results


def _followed(ir: QueryIR, ctx: RunContext) -> QueryIR:
    """The command with what it takes from the last turn: its place, its action."""
    if ir.there:
        ir = place_from_last_turn(ir, ctx)
    ir = same_elsewhere(ir, ctx)
    ir = same_name_elsewhere(ir, ctx)
    ir = sibling_of_last_turn(ir, ctx)
    # "温度高一点" after "打开主卧的空调": the setting of the last turn's device, before the
    # last action ("turn on") is taken for a command that says none.
    ir = setting_of_last_turn(ir, ctx)
    if ir.action is None:
        ir = action_from_last_turn(ir, ctx)
    return ir


def _reading_notes(analysis: Analysis, meta: ResultMeta) -> ResultMeta:
    """What every command's result says of how the utterance was read."""
    return ResultMeta(
        language=analysis.language,
        parser=meta.parser,
        parse_degraded=meta.parse_degraded,
        spelling_repaired=[list(c) for c in analysis.corrections] or None,
        text_truncated=True if analysis.truncated else None,
    )


def _replied(
    text: str,
    analysis: Analysis,
    commands: list[QueryIR] | None,
    ctx: RunContext,
    base_meta: ResultMeta,
) -> tuple[list[RetrievalResult] | None, list[QueryIR]]:
    """The results of a reply to what we asked last turn (a yes or no, an answer, a reply
    that answers nothing), else None; and the utterance's commands."""
    # "Unlock the front door?" asked last turn: a yes does it, a no or anything else not.
    confirming = ctx.state.take_confirming() if ctx.state else ()
    if confirming:
        said = ctx.lexicons.get(analysis.language).yes_or_no(text)
        if said is not None:
            return [confirmed(c, said, ctx, base_meta) for c in confirming], []
        base_meta.confirmation_dropped = True

    # A reply to the question we asked last turn?
    pending = ctx.state.take_pending() if ctx.state else None
    irs = commands if commands is not None else compile_commands(analysis, ctx.index, ctx.lexicons)
    if pending is not None and not is_new_request(irs, pending, ctx):
        named_areas = {a for ir in irs for a in ir.scope_include}
        answer = resolve_answer(analysis, pending, ctx.index, named_areas)
        if answer.is_answer:
            return [answer_result(answer, pending, ctx, base_meta)], irs
        if not any(asks_for_something(ir) for ir in irs):
            # Reply-shaped but not matching any option ("the blue one", "turn it off"): ask
            # again rather than treat it as a new request for everything it might mention —
            # but not forever.
            return [missed(pending, ctx, base_meta)], irs
        # "turn on the sauna": a request of its own; the question is dropped.
        base_meta.clarification_dropped = True
    return None, irs


def _resolved(irs: list[QueryIR], ctx: RunContext, base_meta: ResultMeta) -> list[RetrievalResult]:
    """Each command resolved and grounded, in order."""
    results: list[RetrievalResult] = []
    for i, ir in enumerate(irs):
        # "打开客厅的灯然后把空调调到25度": a room said earlier in the utterance settles an
        # otherwise ambiguous name later in it.
        ctx.hint_areas = {a for prev in results for a in prev.ir.scope_include}
        # "打开厨房灯，其他的都关掉": "the others" are told apart from what the command before
        # it selected, in this utterance or the last turn.
        before = results[-1].ir if results else None
        ir = others_than_last_turn(ir, ctx, before)
        result = ground(resolve_command(ir, ctx, i), ctx, i)
        result.meta.fill(base_meta)
        results.append(result)
        if i + 1 < len(irs):
            # "turn on the kitchen lights and dim them to 50 %", "… avec la luminosité à
            # 50 %": what a command selected is what the next one's "them", or its missing
            # target, refers to; without a conversation, within this utterance only.
            if ctx.state is None:
                ctx.state = ConversationState()
            ctx.state.remember(result.selected_ids)
    return results


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
