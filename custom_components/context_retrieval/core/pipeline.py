"""`retrieve()`: utterance → one `RetrievalResult` per command (seeds 004 + 001).

Stages, in order, each its own module:
text → ir_compiler (or command_parser with an LLM) → scope → keyword ∪ vector recall → scoring
→ capability → gating → references → (injection, done by the caller with `render_context`).

Nothing here raises on user input: problems become entries in `RetrievalResult.meta`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import keyword_search
from .capability import is_capable
from .command_parser import LLMClient, async_parse_commands
from .gating import (
    DEFAULT_EPSILON,
    MAX_OPTIONS,
    build_clarification,
    close_to_top,
    needs_clarification,
    resolve_answer,
)
from .index import DeviceIndex, base_name
from .ir_compiler import analyze, compile_commands
from .lexicon import Lexicon, LexiconSet, Target, default_lexicons
from .models import Candidate, Device, Mention, QueryIR, RetrievalResult
from .references import resolve_references
from .scope import ScopeResult, apply_scope
from .scoring import Weights, fuse
from .state import ConversationState
from .text import has_cjk, tokens
from .vector_search import VectorSearcher

_LOGGER = logging.getLogger(__name__)

EXACT_NAME_SCORE = 1.0
INFLECTED_NAME_SCORE = 0.97
DEVICE_NAME_SCORE = 0.9
SIBLING_NAME_SCORE = 0.9  # "poo poo sensor 2" for "poo poo sensor": same name, other number
NEAR_NAME_SCORE = 0.8  # similar names offered after the tied ones when asking back
REMOVED_LISTED = 20  # entity ids listed in `capability_removed`; the count says the rest


@dataclass(frozen=True, slots=True)
class RetrievalOptions:
    top_k: int = 5
    epsilon: float = DEFAULT_EPSILON
    weights: Weights = Weights()  # noqa: RUF009 - frozen, so a shared default is safe
    hard_capability_confidence: float = 0.8  # seed 004 §3.4
    min_match_score: float = 0.75  # below this a fuzzy name match is not a match
    max_options: int = MAX_OPTIONS
    max_candidates: int = 200  # per recall side
    llm_timeout: float = 5.0


@dataclass(slots=True)
class _Context:
    index: DeviceIndex
    lexicons: LexiconSet
    lex: Lexicon
    options: RetrievalOptions
    vectors: VectorSearcher
    state: ConversationState | None
    context_area: str | None
    hint_areas: set[str] = field(default_factory=set)
    incapable: set[str] = field(default_factory=set)  # this command's capability removals


# ---- public API -------------------------------------------------------------------------------


def build_index(devices: Iterable[Device], lexicons: LexiconSet | None = None,
                language: str | None = None, **kwargs: Any) -> DeviceIndex:
    return DeviceIndex.build(devices, lexicons=lexicons, language=language, **kwargs)


def retrieve(
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
) -> list[RetrievalResult]:
    """Resolve every command in `text` against the home; never raises on user input.

    `devices` may be a prebuilt `DeviceIndex` (reused) or a list of devices (indexed now).
    With an `llm`, the command array comes from the model (seed 001); that needs an event loop,
    so inside a running loop use `async_retrieve`. `context_area` is the area of the voice
    satellite, used for "here" and to settle otherwise ambiguous names.
    """
    if llm is not None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(async_retrieve(
                text, devices, llm, state, top_k, vector_searcher, language,
                context_area=context_area, options=options, lexicons=lexicons))
        results = retrieve(text, devices, None, state, top_k, vector_searcher, language,
                           context_area=context_area, options=options, lexicons=lexicons)
        for result in results:
            result.meta["parse_degraded"] = "llm_needs_async_retrieve"
        return results
    ctx = _make_context(devices, state, top_k, vector_searcher, language, context_area,
                        options, lexicons, text)
    try:
        return _run(text, ctx, language, None, {})
    except Exception as err:
        _LOGGER.exception("retrieval failed; returning an empty result")
        return [RetrievalResult(ir=QueryIR(raw=text or ""), meta={"error": type(err).__name__})]


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
    offload: Callable[[Callable[[], list[RetrievalResult]]],
                      Awaitable[list[RetrievalResult]]] | None = None,
) -> list[RetrievalResult]:
    """`retrieve` with the LLM command-array path; falls back to the rules on any LLM trouble.

    Only the model call is awaited here; `offload`, if given (Home Assistant's executor), runs
    the CPU-bound rest — and any blocking vector searcher — off the event loop."""
    ctx = _make_context(devices, state, top_k, vector_searcher, language, context_area,
                        options, lexicons, text)
    meta: dict[str, Any] = {}
    commands: list[QueryIR] | None = None
    if llm is not None and (text or "").strip() and not (state and state.pending):
        lang = language or ctx.lex.language
        commands, degraded = await async_parse_commands(
            text, llm, ctx.index, ctx.lexicons, lang, llm_timeout=ctx.options.llm_timeout)
        if degraded:
            meta["parse_degraded"] = degraded
            commands = None
        else:
            meta["parser"] = "llm"
    def run() -> list[RetrievalResult]:
        try:
            return _run(text, ctx, language, commands, meta)
        except Exception as err:
            _LOGGER.exception("retrieval failed; returning an empty result")
            return [RetrievalResult(ir=QueryIR(raw=text or ""),
                                    meta={"error": type(err).__name__})]
    return await offload(run) if offload is not None else run()


# ---- the run --------------------------------------------------------------------------------


def _make_context(devices: Sequence[Device] | DeviceIndex, state: ConversationState | None,
                  top_k: int, vector_searcher: VectorSearcher | None, language: str | None,
                  context_area: str | None, options: RetrievalOptions | None,
                  lexicons: LexiconSet | None, text: str) -> _Context:
    lexicons = lexicons or (devices.lexicons if isinstance(devices, DeviceIndex)
                            else default_lexicons())
    index = devices if isinstance(devices, DeviceIndex) else DeviceIndex.build(
        devices, lexicons=lexicons, language=language)
    opts = options or RetrievalOptions()
    if top_k != opts.top_k:
        opts = RetrievalOptions(**{**{f: getattr(opts, f) for f in opts.__slots__},
                                   "top_k": top_k})
    lang = language or lexicons.detect(text or "", fallback=index.language)
    return _Context(index=index, lexicons=lexicons, lex=lexicons.get(lang), options=opts,
                    vectors=vector_searcher or index.vectors, state=state,
                    context_area=context_area if context_area in index.areas else None)


def _run(text: str, ctx: _Context, language: str | None, commands: list[QueryIR] | None,
         meta: dict[str, Any]) -> list[RetrievalResult]:
    analysis = analyze(text, ctx.index, ctx.lexicons, language or ctx.lex.language)
    base_meta: dict[str, Any] = {"language": analysis.language, **meta}
    if analysis.corrections:
        base_meta["spelling_repaired"] = [list(c) for c in analysis.corrections]
    if analysis.truncated:
        base_meta["text_truncated"] = True
    if not analysis.tokens:
        return [RetrievalResult(ir=QueryIR(raw=text or "", language=analysis.language),
                                meta={**base_meta, "empty_input": True})]

    # A reply to the question we asked last turn?
    pending = ctx.state.take_pending() if ctx.state else None
    irs = commands if commands is not None else compile_commands(analysis, ctx.index,
                                                                 ctx.lexicons)
    if pending is not None and not _is_new_request(irs, pending.candidate_ids, ctx):
        named_areas = {a for ir in irs for a in ir.scope_include}
        answer = resolve_answer(analysis, pending, ctx.index, named_areas)
        if answer.is_answer:
            return [_answer_result(answer, pending, ctx, base_meta)]
        if all(ir.action is None or not _names_a_target(ir) for ir in irs):
            # Reply-shaped but not matching any option ("the blue one"): ask again rather than
            # treat it as a new request for everything it might mention.
            return [_reask(pending, ctx, base_meta)]

    results = []
    for i, ir in enumerate(irs):
        # "打开客厅的灯然后把空调调到25度": a room said earlier in the utterance settles an
        # otherwise ambiguous name later in it.
        ctx.hint_areas = {a for prev in irs[:i] for a in prev.scope_include}
        result = _resolve_command(ir, ctx, i)
        result.meta = {**base_meta, **result.meta}
        results.append(result)
    _update_state(ctx, results)
    return results


def _answer_result(answer: Any, pending: Any, ctx: _Context,
                   base_meta: dict[str, Any]) -> RetrievalResult:
    ir = pending.ir
    result = RetrievalResult(ir=ir, meta={**base_meta, "clarification_answer": answer.how})
    if answer.cancelled:
        result.meta["clarification_cancelled"] = True
        return result
    if answer.remaining:
        result.clarification = build_clarification(ctx.index, ctx.lex, answer.remaining,
                                                   ctx.options.max_options)
        result.candidates = [Candidate(entity_id=e, total_score=1.0) for e in answer.remaining]
        if ctx.state:
            ctx.state.set_pending(result.clarification, answer.remaining, ir,
                                  primary=[e for e in pending.primary if e in answer.remaining])
        return result
    result.selected = [Candidate(entity_id=e, keyword_score=1.0, total_score=1.0,
                                 reasons=[f"answer to clarification ({answer.how})"])
                       for e in answer.selected]
    result.candidates = list(result.selected)
    if ctx.state:
        ctx.state.remember(result.selected_ids)
    return result


def _is_new_request(irs: list[QueryIR], candidates: list[str], ctx: _Context) -> bool:
    """"turn off the bedroom fan" after "which desk lamp?": an action with a device or type
    of its own that none of the candidates is, so not an answer even though it names a room
    one of them is in."""
    pool = [c for c in candidates if c in ctx.index]
    for ir in irs:
        if ir.action is None or not (ir.mentions or ir.type_groups):
            continue
        named = {e for m in ir.mentions for e in m.entity_ids}
        fits = bool(named & set(pool)) or any(
            _type_members(group, pool, ir, ctx, use_states=False) for group in ir.type_groups)
        return not fits
    return False


def _names_a_target(ir: QueryIR) -> bool:
    return bool(ir.mentions or ir.type_groups or ir.labels or ir.generic or ir.scope_include
                or ir.floor_include or ir.everywhere)


def _reask(pending: Any, ctx: _Context, base_meta: dict[str, Any]) -> RetrievalResult:
    result = RetrievalResult(ir=pending.ir, clarification=pending.request,
                             meta={**base_meta, "clarification_unresolved": True})
    result.candidates = [Candidate(entity_id=e, total_score=1.0) for e in pending.candidate_ids
                         if e in ctx.index]
    if ctx.state:
        ctx.state.set_pending(pending.request, pending.candidate_ids, pending.ir,
                              primary=pending.primary)
    return result


def _update_state(ctx: _Context, results: list[RetrievalResult]) -> None:
    if ctx.state is None:
        return
    for result in results:
        if result.clarification is not None:
            pool = result.meta.get("clarification_pool") or [o.entity_id for o in
                                                           result.clarification.options]
            ctx.state.set_pending(result.clarification, pool, result.ir,
                                  primary=result.meta.get("clarification_primary"))
            break
    selected = [eid for r in results for eid in r.selected_ids]
    if selected:
        ctx.state.remember(selected)


# ---- one command ------------------------------------------------------------------------------


def _resolve_command(ir: QueryIR, ctx: _Context, command_index: int) -> RetrievalResult:
    index = ctx.index
    meta: dict[str, Any] = {"confidence": ir.confidence}
    result = RetrievalResult(ir=ir, meta=meta)
    ctx.incapable = set()

    include_areas = set(ir.scope_include)
    if ir.here:
        if ctx.context_area:
            include_areas.add(ctx.context_area)
            meta["here_area"] = ctx.context_area
        else:
            # "here" from a device whose room we do not know: acting on the whole home instead
            # would be a guess, so nothing is selected and the caller can say why.
            meta["here_without_area"] = True
            meta["no_match"] = True
            meta.update(ScopeResult(entity_ids=[]).meta())
            return result
    # An exclusion naming rooms *and* a type ("except the kitchen lights") removes only those.
    typed_exclusion = bool(ir.exclude_type_groups and (ir.scope_exclude or ir.floor_exclude))
    scope = apply_scope(
        index,
        include_areas=include_areas,
        exclude_areas=set() if typed_exclusion else set(ir.scope_exclude),
        include_floors=set(ir.floor_include),
        exclude_floors=set() if typed_exclusion else set(ir.floor_exclude),
        unknown_rooms=ir.unknown_rooms,
    )
    meta.update(scope.meta())
    meta["scope_removed"] = len(index) - len(scope.entity_ids)
    pool = list(scope.entity_ids)
    if ir.labels:
        pool = [e for e in pool if set(index.device(e).labels) & ir.labels]
        meta["labels"] = sorted(ir.labels)
    excluded = _excluded_ids(ir, ctx, typed_exclusion)
    if excluded:
        pool = [e for e in pool if e not in excluded]
        meta["excluded"] = len(excluded)
    hard = ir.confidence >= ctx.options.hard_capability_confidence
    meta["capability_filter"] = "hard" if hard else "soft"

    selected: list[Candidate] = []
    considered: list[Candidate] = []
    clarify_pool: list[str] = []
    type_groups = list(ir.type_groups)
    named_any = False

    for mention in ir.mentions:
        if mention.partial:
            outcome = _resolve_partial(mention, ir, ctx, pool, scope)
        else:
            # A type word that is also a name: "the curtains" (plural) or "all the blinds"
            # mean the type; "the blinds in the living room", "窗帘" name the entity.
            as_type = mention.type_id is not None and (
                ir.quantifier in ("all", "any", "except") or mention.inflected)
            if as_type and mention.type_id is not None:
                type_groups.append((mention.type_id, *mention.modifiers))
                continue
            outcome = _resolve_name(mention, ir, ctx, pool, scope, hard)
            # Read as type words instead when the name is not in the named room ("the motion
            # sensor in the meeting room"), or when the whole name is a type word that names
            # several entities there ("305房间的插座" with 插座, 插座2, 插座3).
            as_words = (mention.type_id,) if mention.type_id else mention.types_inside
            if as_words and (outcome is None or (
                    mention.type_id is not None and _kind_of_several(mention, ir, ctx, pool))):
                type_groups.append((*as_words, *mention.modifiers))
                continue
        if outcome is None:
            meta.setdefault("unmatched_mentions", []).append(mention.text)
            continue
        named_any = True
        chosen, pool_for_question, pool_considered = outcome
        considered.extend(pool_considered)
        if chosen:
            selected.extend(chosen)
        elif pool_for_question and not clarify_pool:
            clarify_pool = pool_for_question
            meta["clarification_primary"] = [c.entity_id for c in
                                              close_to_top(pool_considered,
                                                           ctx.options.epsilon)]

    if type_groups:
        chosen_types = _resolve_types(type_groups, ir, ctx, pool, scope)
        selected.extend(chosen_types)
        considered.extend(chosen_types)
    elif not ir.mentions:
        _resolve_without_names(ir, ctx, pool, scope, selected, considered, meta)
        if not selected and meta.get("clarification_pool"):
            clarify_pool = list(meta["clarification_pool"])
    elif not named_any and not selected:
        meta["no_match"] = True

    # De-duplicate, keep order.
    seen: set[str] = set()
    unique: list[Candidate] = []
    for cand in selected:
        if cand.entity_id not in seen:
            seen.add(cand.entity_id)
            unique.append(cand)
    result.selected = unique
    if clarify_pool and not unique:
        result.clarification = build_clarification(index, ctx.lex, clarify_pool,
                                                   ctx.options.max_options, command_index)
        meta["clarification_pool"] = clarify_pool
    ranked = sorted({c.entity_id: c for c in considered + unique}.values(),
                    key=lambda c: (-c.total_score, c.entity_id))
    result.candidates = ranked[: max(ctx.options.top_k, len(unique),
                                    len(clarify_pool))]
    if not unique and result.clarification is None:
        meta.setdefault("no_match", True)
    if ctx.incapable:
        # What the capability check took out, so a person can see why a device was not used.
        meta["capability_removed"] = index.ordered(ctx.incapable)[:REMOVED_LISTED]
        meta["capability_removed_count"] = len(ctx.incapable)
    return result


def _note_incapable(ctx: _Context, considered: Iterable[str], kept: Iterable[str]) -> None:
    ctx.incapable.update(set(considered) - set(kept))


def _kind_of_several(mention: Mention, ir: QueryIR, ctx: _Context, pool: list[str]) -> bool:
    """In a named room, a type word that is also a name ("305房间的插座") means the kind when
    other devices there are named as that kind too ("智能插座"); "客厅的窗帘" stays the one
    called 窗帘 when the other curtain is a 纱帘. Numbered copies ("功率2") do not count."""
    if not (ir.scope_include or ir.floor_include or ir.labels):
        return False
    index = ctx.index
    domains = {index.device(e).domain for e in mention.entity_ids}
    in_scope = set(pool) & set().union(*(index.postings.by_domain.get(d, set())
                                          for d in domains))
    said = mention.text
    kinds = 0
    for eid in in_scope:
        names = index.entries[eid].norm_names
        name = names[0] if names else ""
        if name == said or (base_name(name) != said and _contains_word(index, eid, said)):
            kinds += 1
    return kinds > 1


def _contains_word(index: DeviceIndex, entity_id: str, said: str) -> bool:
    if has_cjk(said):
        return _contains_outside_rooms(index, entity_id, said)
    names = index.entries[entity_id].norm_names
    words, parts = tokens(names[0] if names else ""), tokens(said)
    return any(words[i : i + len(parts)] == parts for i in range(len(words) - len(parts) + 1))


def _excluded_ids(ir: QueryIR, ctx: _Context, typed_exclusion: bool) -> set[str]:
    index = ctx.index
    out: set[str] = set()
    for mention in ir.exclude_mentions:
        out |= set(mention.entity_ids)
    if ir.exclude_labels:
        out |= {e for e, entry in index.entries.items()
                if set(entry.device.labels) & ir.exclude_labels}
    if ir.exclude_type_groups:
        region: Iterable[str] = index.entries.keys()
        if typed_exclusion:
            region = apply_scope(index, include_areas=set(ir.scope_exclude),
                                 include_floors=set(ir.floor_exclude)).entity_ids
        for group in ir.exclude_type_groups:
            out |= set(_type_members(group, list(region), ir, ctx, use_states=False))
    return out


# ---- names ----------------------------------------------------------------------------------

_Outcome = tuple[list[Candidate], list[str], list[Candidate]]  # chosen, ask among, considered


def _name_score(mention: Mention, entity_id: str, ctx: _Context) -> tuple[float, str]:
    entry = ctx.index.entries[entity_id]
    text = mention.text
    if text in entry.norm_names:
        return EXACT_NAME_SCORE, "name" if entry.norm_names[0] == text else "alias"
    if entity_id not in mention.entity_ids:
        return SIBLING_NAME_SCORE, "numbered name"
    if not mention.exact:
        return INFLECTED_NAME_SCORE, "name (inflected)"
    if entry.norm_device_name == text:
        return DEVICE_NAME_SCORE, "device name"
    return INFLECTED_NAME_SCORE, "name"


def _vector_scores(text: str, ids: list[str], ctx: _Context) -> dict[str, float]:
    if not ids:
        return {}
    try:
        vec = ctx.vectors.vectorize(text)
        found = ctx.vectors.search(vec, top_k=len(ids), allowed=set(ids))
    except Exception:
        return {}
    return {c.entity_id: c.vector_score for c in found}


def _resolve_name(mention: Mention, ir: QueryIR, ctx: _Context, pool: list[str],
                  scope: ScopeResult, hard: bool) -> _Outcome | None:
    index = ctx.index
    pool_set = set(pool)
    named = set(mention.entity_ids)
    # "插座" also means "插座2" and "插座3": numbered siblings share the name (unless the
    # name said carries a number of its own).
    for eid in mention.entity_ids:
        names = index.entries[eid].norm_names
        if names and base_name(names[0]) == names[0]:
            named |= index.postings.by_base_name.get(names[0], set())
    ids = index.ordered(named & pool_set)
    if not ids:
        return None
    # Type words and state words said with the name narrow it: "the phone *battery*".
    narrowing = [(m,) for m in mention.modifiers] + list(ir.type_groups)
    for group in narrowing:
        narrowed = _type_members(group, ids, ir, ctx, use_states=False)
        if narrowed:
            ids = narrowed
    if ir.states:
        by_state = _state_filter(ids, ir.states, ctx)
        if by_state:
            ids = by_state
    capable = [e for e in ids if is_capable(index.device(e), ir.action, explicit=True)]
    if capable or hard:
        _note_incapable(ctx, ids, capable)
    if capable:
        ids = capable
    elif hard:
        return None
    kw = {e: _name_score(mention, e, ctx) for e in ids}
    # Every candidate here carries this name; the vector side must not prefer an entity just
    # because its other names are short, so exact matches score as identical vectors.
    vec = {e: (1.0 if kw[e][0] >= EXACT_NAME_SCORE else v)
           for e, v in _vector_scores(mention.text, ids, ctx).items()}
    keyword = [Candidate(entity_id=e, keyword_score=kw[e][0],
                         reasons=[f"{kw[e][1]} matches '{mention.text}'"]) for e in ids]
    vector = [Candidate(entity_id=e, vector_score=vec.get(e, 0.0)) for e in ids]
    ranked = fuse(keyword, vector, ctx.options.weights)
    # Plural when said in a plural form the name itself does not have ("the ceiling lights"
    # for "Ceiling Light"); a name that is plural already ("Recessed Lights") says nothing.
    plural = (mention.inflected and not mention.exact) or ir.quantifier in ("all", "any",
                                                                            "except")
    if len(ranked) == 1 or plural:
        return (close_to_top(ranked, 1.0) if plural else ranked[:1]), [], ranked
    # Several entities answer to this name: a room said earlier in the utterance, or the
    # satellite's room, may settle it.
    if not (ir.scope_include or ir.floor_include):
        for areas, why in ((ctx.hint_areas, "in the room named earlier"),
                           ({ctx.context_area} if ctx.context_area else set(),
                            "in the satellite's area")):
            local = [c for c in ranked if index.device(c.entity_id).area_id in areas]
            if len(local) == 1:
                local[0].reasons.append(why)
                return [local[0]], [], ranked
            if local:
                ranked = local + [c for c in ranked if c not in local]
    if not needs_clarification(ranked, ctx.options.epsilon):
        return ranked[:1], [], ranked
    tied = close_to_top(ranked, ctx.options.epsilon)
    # Other words of the command may still tell the tied ones apart ("rainfall *intensity*").
    if ir.phrases:
        best = _tie_break(tied, ir.phrases, index)
        if best is not None:
            return [best], [], ranked
    # The question lists the tied names first, then similar names the user may have meant.
    domains = {index.device(e).domain for e in mention.entity_ids}
    same_kind = set().union(*(index.postings.by_domain.get(d, set()) for d in domains))
    near = keyword_search.search(index, mention.text,
                                 pool=[e for e in pool
                                       if e in same_kind and e not in mention.entity_ids],
                                 limit=ctx.options.max_options * 2, min_score=NEAR_NAME_SCORE)
    near_ids = [c.entity_id for c in near
                if _contains_outside_rooms(index, c.entity_id, mention.text)]
    ask = [c.entity_id for c in tied] + near_ids
    return [], ask, ranked


def _tie_break(tied: list[Candidate], phrases: list[str], index: DeviceIndex) -> Candidate | None:
    """The one tied candidate the leftover words describe clearly better, if any."""
    from .gating import describe_score

    phrase = " ".join(phrases)
    scored = sorted(((describe_score(index, c.entity_id, phrase), c) for c in tied),
                    key=lambda x: -x[0])
    if len(scored) >= 2 and scored[0][0] >= 0.6 and scored[0][0] - scored[1][0] >= 0.15:
        scored[0][1].reasons.append(f"words '{phrase}' fit it best")
        return scored[0][1]
    return None


def _contains_outside_rooms(index: DeviceIndex, entity_id: str, text: str) -> bool:
    """Whether the name contains `text` once room words are taken out ("阳台灯" is a balcony
    light, not a "台灯"); Latin names are compared word by word elsewhere, so they pass."""
    if not has_cjk(text):
        return True
    names = index.entries[entity_id].norm_names
    name = names[0] if names else ""
    for room in index.cjk_room_words():
        if room in name:
            name = name.replace(room, "|")
    return text in name


def _resolve_partial(mention: Mention, ir: QueryIR, ctx: _Context, pool: list[str],
                     scope: ScopeResult) -> _Outcome | None:
    """A fragment plus a type word ("落地灯", "bedside lamp"): fuzzy names within that type."""
    candidates_pool = pool
    if mention.type_id:
        typed = _type_members((mention.type_id,), pool, ir, ctx, use_states=False)
        if typed:
            candidates_pool = typed
    capable = [e for e in candidates_pool if is_capable(ctx.index.device(e), ir.action)]
    if capable:
        _note_incapable(ctx, candidates_pool, capable)
    candidates_pool = capable or candidates_pool
    limit = ctx.options.max_candidates
    keyword = keyword_search.search(ctx.index, mention.text, pool=candidates_pool, limit=limit)
    if not keyword:
        return None
    vec = _vector_scores(mention.text, [c.entity_id for c in keyword], ctx)
    vector = [Candidate(entity_id=e, vector_score=s) for e, s in vec.items()]
    ranked = fuse(keyword, vector, ctx.options.weights)
    good = [c for c in ranked if c.keyword_score >= ctx.options.min_match_score]
    if not good:
        if (ir.scope_include or ir.floor_include) and mention.type_id and \
                candidates_pool is not pool and not scope.include_fallback:
            # "客厅主灯" where no lamp is called 主灯: ask which of the room's lamps was meant.
            return [], list(candidates_pool), []
        return None
    if ir.quantifier in ("all", "any", "except"):
        return close_to_top(good, 0.1), [], ranked
    if not needs_clarification(good, ctx.options.epsilon):
        return good[:1], [], ranked
    return [], [c.entity_id for c in close_to_top(good, ctx.options.epsilon)], ranked


# ---- types ----------------------------------------------------------------------------------


def _intersect(a: Sequence[Target], b: Sequence[Target]) -> list[Target]:
    out: list[Target] = []
    for d1, c1 in a:
        for d2, c2 in b:
            if d1 == d2 and (c1 is None or c2 is None or c1 == c2):
                target = (d1, c1 or c2)
                if target not in out:
                    out.append(target)
    return out


def _group_tiers(group: Sequence[str], ctx: _Context) -> list[list[Target]]:
    """The tiers of a group of adjacent type words, intersected ("motion" ∩ "sensors")."""
    specs = [ctx.lexicons.types.types[t] for t in group if t in ctx.lexicons.types.types]
    if not specs:
        return []
    tiers: list[list[Target]] = [list(t) for t in specs[0].tiers]
    for spec in specs[1:]:
        combined: list[tuple[int, list[Target]]] = []
        for i, tier_a in enumerate(tiers):
            for j, tier_b in enumerate(spec.tiers):
                inter = _intersect(tier_a, tier_b)
                if inter:
                    combined.append((i + j, inter))
        if combined:
            combined.sort(key=lambda x: x[0])
            tiers = [t for _, t in combined]
    return tiers


def _state_tiers(states: set[str], ctx: _Context) -> list[list[Target]]:
    """Tiers of what the state words allow; several states narrow each other."""
    tiers: list[list[Target]] | None = None
    for state in sorted(states):
        own = [list(t) for t in ctx.lexicons.types.states.get(state, ())]
        if not own:
            continue
        if tiers is None:
            tiers = own
            continue
        combined = [_intersect(a, b) for a in tiers for b in own]
        tiers = [t for t in combined if t] or tiers
    return tiers or []


def _state_filter(ids: list[str], states: set[str], ctx: _Context) -> list[str]:
    """Entities of `ids` a state question can be about, first tier with any; [] if none."""
    tiers = _state_tiers(states, ctx)
    if not tiers:
        return ids
    pool = set(ids)
    for tier in tiers:
        members = _targets_members(ctx.index, tier) & pool
        if members:
            return ctx.index.ordered(members)
    return []


def _targets_members(index: DeviceIndex, targets: Sequence[Target]) -> set[str]:
    """Every entity matching one of the (domain, device_class) targets, from the postings."""
    p = index.postings
    out: set[str] = set()
    for domain, device_class in targets:
        out |= p.by_domain.get(domain, set()) if device_class is None else \
            p.by_class.get((domain, device_class), set())
    return out


def _type_members(group: Sequence[str], ids: list[str], ir: QueryIR, ctx: _Context,
                  use_states: bool = True) -> list[str]:
    """Entities of `ids` that are of this type, taking the first tier that has any."""
    tiers = _group_tiers(group, ctx)
    if not tiers:
        return []
    index = ctx.index
    pool = set(ids)
    specs = ctx.lexicons.types.types
    name_typed: set[str] = set()
    if len(group) == 1 and group[0] in specs and specs[group[0]].name_domains:
        spec = specs[group[0]]
        named = index.postings.by_name_type.get(spec.type_id, set()) & pool
        name_typed = {e for e in named if index.device(e).domain in spec.name_domains}
    state_tiers = _state_tiers(ir.states, ctx) if use_states else []
    tier_options: list[list[Target] | None] = list(state_tiers) or [None]
    for i, tier in enumerate(tiers):
        for state_tier in tier_options:
            targets = _intersect(tier, state_tier) if state_tier is not None else tier
            if not targets:
                continue
            members = _targets_members(index, targets) & pool
            if i == 0 and state_tier is None:
                members |= name_typed
            if members:
                return index.ordered(members)
    if state_tiers:
        # "batteries charging": the state names a class the type word alone does not reach.
        return _state_filter(ids, ir.states, ctx)
    return []


def _resolve_types(groups: list[tuple[str, ...]], ir: QueryIR, ctx: _Context, pool: list[str],
                   scope: ScopeResult) -> list[Candidate]:
    """"the lights", "卧室的窗帘", "motion sensors upstairs": everything of that type in scope."""
    if scope.include_fallback:
        # The room the user named has none of these; turning on the whole house instead would
        # be a guess, so only names may still match (seed 001 fallback is for dirty data).
        return []
    out: list[Candidate] = []
    for group in groups:
        members = _type_members(group, pool, ir, ctx)
        capable = [e for e in members if is_capable(ctx.index.device(e), ir.action,
                                                    explicit=True)]
        _note_incapable(ctx, members, capable)
        for eid in capable:
            out.append(Candidate(entity_id=eid, keyword_score=1.0, total_score=1.0,
                                 reasons=[f"type {'+'.join(group)} in scope"]))
    return out


def _resolve_without_names(ir: QueryIR, ctx: _Context, pool: list[str], scope: ScopeResult,
                           selected: list[Candidate], considered: list[Candidate],
                           meta: dict[str, Any]) -> None:
    """No name and no type word: pronouns, ellipsis, the action's own type, or "everything"."""
    index = ctx.index
    explicit_target = bool(ir.labels or ir.generic or ir.scope_include or ir.floor_include
                           or ir.here)
    # "it" / "them" / nothing at all ("拉到一半就行"): what we talked about last.
    if ir.references or not (explicit_target or ir.phrases or ir.states or ir.everywhere):
        found = resolve_references(ir, ctx.state, index)
        if found:
            meta["reference"] = ir.reference_kind if ir.references else "implicit"
            for eid in found:
                selected.append(Candidate(entity_id=eid, keyword_score=1.0, total_score=1.0,
                                          reasons=["refers to the last turn"]))
            return
        if ir.references:
            meta["reference_unresolved"] = True
            if ctx.state is not None and ctx.state.last_turn():
                # "set it to 50%" when the "it" just talked about cannot be set: say so
                # rather than dim every light. With nothing said before, "skip this" is not
                # a reference and the action's own type applies.
                return
    if ir.implied_type and not ir.generic:
        if ir.phrases:
            # "pause the sonos": a word that names one of them beats all of that type.
            typed = _type_members((ir.implied_type,), pool, ir, ctx)
            named = _best_named(" ".join(ir.phrases), typed, ir, ctx)
            if named:
                selected.extend(named)
                considered.extend(named)
                return
        chosen = _resolve_types([(ir.implied_type,)], ir, ctx, pool, scope)
        if chosen:
            selected.extend(chosen)
            considered.extend(chosen)
            return
    if ir.states and not explicit_target and not ir.everywhere:
        members = _state_filter(pool, ir.states, ctx)
        if ir.generic:
            members = [e for e in members if index.device(e).domain != "person"]
        for eid in members:
            selected.append(Candidate(entity_id=eid, keyword_score=1.0, total_score=1.0,
                                      reasons=[f"state {'/'.join(sorted(ir.states))}"]))
        if members:
            return
    if explicit_target or (ir.everywhere and ir.action not in (None, "query")):
        if scope.include_fallback:
            meta["no_match"] = True
            return
        members = pool
        if ir.states:
            members = _state_filter(members, ir.states, ctx) or members
        if ir.generic:
            members = [e for e in members if index.device(e).domain != "person"]
        for eid in members:
            device = index.device(eid)
            if is_capable(device, ir.action, explicit=False):
                selected.append(Candidate(entity_id=eid, keyword_score=1.0, total_score=1.0,
                                          reasons=["everything in scope that can do this"]))
            else:
                ctx.incapable.add(eid)
        return
    if ir.phrases:
        phrase = " ".join(ir.phrases)
        keyword = keyword_search.search(index, phrase, pool=pool, limit=ctx.options.max_candidates)
        vec_candidates: list[Candidate] = []
        try:
            vec_candidates = ctx.vectors.search(ctx.vectors.vectorize(phrase),
                                                ctx.options.max_candidates, allowed=set(pool))
        except Exception:
            meta["vector_unavailable"] = True
        ranked = fuse(keyword, vec_candidates, ctx.options.weights)
        considered.extend(ranked[: ctx.options.top_k])
        good = [c for c in ranked if c.keyword_score >= ctx.options.min_match_score]
        capable = [c for c in good if is_capable(index.device(c.entity_id), ir.action)]
        _note_incapable(ctx, [c.entity_id for c in good], [c.entity_id for c in capable])
        if capable and not needs_clarification(capable, ctx.options.epsilon):
            selected.append(capable[0])
        elif capable:
            meta["clarification_pool"] = [c.entity_id for c in
                                          close_to_top(capable, ctx.options.epsilon)]


def _best_named(phrase: str, pool: list[str], ir: QueryIR, ctx: _Context) -> list[Candidate]:
    """The entity of `pool` this free phrase clearly names, if any."""
    if not pool:
        return []
    keyword = keyword_search.search(ctx.index, phrase, pool=pool, limit=ctx.options.max_candidates)
    good = [c for c in keyword if c.keyword_score >= ctx.options.min_match_score]
    if not good:
        return []
    ranked = fuse(good, [], ctx.options.weights)
    if needs_clarification(ranked, ctx.options.epsilon):
        return []
    return ranked[:1]


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
