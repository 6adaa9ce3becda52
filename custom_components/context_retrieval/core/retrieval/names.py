"""Names: which of the entities an utterance names it means, and what to ask when it cannot tell.

A name may belong to several entities ("Desk Lamp" in two rooms, "插座" with numbered
siblings). Type and state words said with it narrow it, the room said earlier or the
satellite's room may settle it, other words of the command may tell the tied ones apart;
otherwise the tied ones, and similar names, become the question.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from rapidfuzz.distance import OSA

from ..base import keyword_search
from ..base.index import DeviceIndex
from ..base.models import Candidate, Mention, QueryIR, Reason, ReasonCode
from ..base.phrase_table import base_name
from ..base.text import has_cjk, is_cjk, normalize, tokens
from .capability import capable_members, is_capable
from .context import RunContext
from .device_types import state_filter, type_members
from .gate import close_to_top, describe_score, needs_clarification
from .recall import recall_keyword, vector_scores
from .scope import ScopeResult
from .scoring import fuse, fused, order_by_total

EXACT_NAME_SCORE = 1.0
INFLECTED_NAME_SCORE = 0.97
DEVICE_NAME_SCORE = 0.9
SIBLING_NAME_SCORE = 0.9  # "poo poo sensor 2" for "poo poo sensor": same name, other number
NEAR_NAME_SCORE = 0.8  # similar names offered after the tied ones when asking back

Outcome = tuple[list[Candidate], list[str], list[Candidate]]  # chosen, ask among, considered


def name_score(mention: Mention, entity_id: str, ctx: RunContext) -> tuple[float, str]:
    """How well the name said fits this entity, and which of its names it was ("name",
    "alias", "numbered", "inflected" or "device")."""
    entry = ctx.index.entries[entity_id]
    text = mention.text
    if text in entry.norm_names:
        return EXACT_NAME_SCORE, "name" if entry.norm_names[0] == text else "alias"
    if entity_id not in mention.entity_ids:
        return SIBLING_NAME_SCORE, "numbered"
    if not mention.exact:
        return INFLECTED_NAME_SCORE, "inflected"
    if entry.norm_device_name == text:
        return DEVICE_NAME_SCORE, "device"
    return INFLECTED_NAME_SCORE, "name"


def resolve_name(
    mention: Mention,
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    hard: bool,
    pool_set: AbstractSet[str] | None = None,
) -> Outcome | None:
    """The entities of `pool` a whole name means; None when none of them can do the action
    (with `hard`) or none is in scope. `pool_set`: the same ids as a set, when the caller has
    it already."""
    if pool_set is None:
        pool_set = ctx.index.id_set(pool)
    ids = _named_ids(mention, ctx.index, pool_set)
    if not ids:
        return None
    capable = _capable_of_it(_narrowed(ids, mention, ir, ctx), ir, ctx, hard)
    if capable is None:
        return None
    ranked = _ranked_by_name(capable, mention, ctx)
    # Plural when said in a plural form the name itself does not have ("the ceiling lights"
    # for "Ceiling Light"); a name that is plural already ("Recessed Lights") says nothing.
    plural = (mention.inflected and not mention.exact) or ir.quantifier in ("all", "any", "except")
    if len(ranked) == 1 or plural:
        return (close_to_top(ranked, 1.0) if plural else ranked[:1]), [], ranked
    settled, ranked = _settled_by_place(ranked, ir, ctx)
    if settled is not None:
        return [settled], [], ranked
    if not needs_clarification(ranked, ctx.options.epsilon):
        return ranked[:1], [], ranked
    tied = close_to_top(ranked, ctx.options.epsilon)
    # Other words of the command may still tell the tied ones apart ("rainfall *intensity*").
    if ir.phrases:
        best = tie_break(tied, ir.phrases, ctx.index)
        if best is not None:
            return [best], [], ranked
    # The question lists the tied names first, then similar names the user may have meant;
    # when the tied ones fill it, similar names would be neither heard nor answered.
    if len(tied) >= ctx.options.max_options:
        return [], [c.entity_id for c in tied], ranked
    return [], _asked_about(tied, mention, ctx, pool_set), ranked


def _named_ids(mention: Mention, index: DeviceIndex, pool_set: AbstractSet[str]) -> list[str]:
    """The entities of the pool the name is the name of, in the home's order."""
    named = set(mention.entity_ids)
    # "插座" also means "插座2" and "插座3": numbered siblings share the name (unless the
    # name said carries a number of its own, or is an alias: "room 713 smart plug" is one
    # plug, not every "Smart Plug N" of the home).
    said = mention.text
    own_names = set()
    for eid in mention.entity_ids:
        names = index.entries[eid].norm_names
        if names and (said == names[0] or said not in names[1:]):
            own_names.add(names[0])
    # A name shared by hundreds of entities is looked up once.
    for name in own_names:
        if base_name(name) == name:
            named |= index.postings.by_base_name.get(name, set())
    return index.ordered(named & pool_set)


def _narrowed(ids: list[str], mention: Mention, ir: QueryIR, ctx: RunContext) -> list[str]:
    """Type words and state words said with the name narrow it: "the phone *battery*"."""
    narrowing = [(m,) for m in mention.modifiers] + list(ir.type_groups)
    for group in narrowing:
        narrowed = type_members(group, ids, ir, ctx, use_states=False)
        if narrowed:
            ids = narrowed
    if ir.states:
        by_state = state_filter(ids, ir.states, ctx)
        if by_state:
            ids = by_state
    return ids


def _capable_of_it(ids: list[str], ir: QueryIR, ctx: RunContext, hard: bool) -> list[str] | None:
    """Those able to do the action; all of them when none is and the check is soft, None when
    none is and it is hard."""
    capable = capable_members(ctx.index, ir.action, ids)
    if capable or hard:
        ctx.note_incapable(ids, capable)
    if capable:
        return capable
    return None if hard else ids


def _ranked_by_name(ids: list[str], mention: Mention, ctx: RunContext) -> list[Candidate]:
    """The entities by how well the name said fits them, then by their vectors."""
    kw = {e: name_score(mention, e, ctx) for e in ids}
    # Every candidate here carries this name; the vector side must not prefer an entity just
    # because its other names are short, so exact matches score as identical vectors. Their
    # texts all hold the name said, so one of them tells whether the vector side scores them
    # at all (it may be down); the others are not scored one by one.
    exact = [e for e in ids if kw[e][0] >= EXACT_NAME_SCORE]
    vec = vector_scores(
        mention.text, [e for e in ids if kw[e][0] < EXACT_NAME_SCORE] + exact[:1], ctx
    )
    exact_vector = 1.0 if exact and exact[0] in vec else 0.0
    weights = ctx.options.weights
    return order_by_total(
        [
            fused(
                e,
                kw[e][0],
                exact_vector if kw[e][0] >= EXACT_NAME_SCORE else vec.get(e, 0.0),
                [Reason(ReasonCode.NAME, mention.text, field=kw[e][1])],
                weights,
            )
            for e in ids
        ]
    )


def _settled_by_place(
    ranked: list[Candidate], ir: QueryIR, ctx: RunContext
) -> tuple[Candidate | None, list[Candidate]]:
    """Several entities answer to the name: a room said earlier in the utterance, or the
    satellite's room, may settle it (the one there), or narrow the ranking to those there."""
    if ir.scope_include or ir.floor_include:
        return None, ranked
    for areas, why in (
        (ctx.hint_areas, Reason(ReasonCode.ROOM_NAMED)),
        ({ctx.context_area} if ctx.context_area else set(), Reason(ReasonCode.SATELLITE_ROOM)),
    ):
        if not areas:
            continue
        local = [c for c in ranked if ctx.index.device(c.entity_id).area_id in areas]
        if len(local) == 1:
            local[0].reasons.append(why)
            return local[0], ranked
        if local:
            # "把卧室的窗帘关上，再打开空调": which of the bedrooms' ACs, not every AC.
            ranked = local
    return None, ranked


def _asked_about(
    tied: list[Candidate], mention: Mention, ctx: RunContext, pool_set: AbstractSet[str]
) -> list[str]:
    """What the question offers: the tied ones, then names that hold theirs in another
    language of the home, then similar names of the same kind."""
    index = ctx.index
    domains = {index.device(e).domain for e in mention.entity_ids}
    same_kind = set().union(*(index.postings.by_domain.get(d, set()) for d in domains))
    near = keyword_search.search(
        index,
        mention.text,
        pool=(same_kind & pool_set) - set(mention.entity_ids),
        limit=ctx.options.max_options * 2,
        min_score=NEAR_NAME_SCORE,
    )
    near_ids = [
        c.entity_id for c in near if contains_outside_rooms(index, c.entity_id, mention.text)
    ]
    # A name in another language of the home may hold theirs: "desk lamp" is 台灯, and the
    # study's 老台灯 ("old lamp") is a desk lamp too, whichever language asks.
    theirs = _cjk_names_of(index, {c.entity_id for c in tied})
    kin = (
        [
            e
            for e in index.ordered(
                (same_kind & pool_set & _named_with_a_character_of(index, theirs))
                - set(mention.entity_ids)
            )
            if e not in near_ids and _holds_a_name_of(index, e, theirs)
        ]
        if theirs
        else []
    )
    return [c.entity_id for c in tied] + kin + near_ids


def _cjk_names_of(index: DeviceIndex, entity_ids: set[str]) -> set[str]:
    """The CJK names (of two characters or more) of `entity_ids`: what a kin name may hold."""
    return {n for e in entity_ids for n in index.entries[e].norm_names if has_cjk(n) and len(n) > 1}


def _named_with_a_character_of(index: DeviceIndex, theirs: set[str]) -> set[str]:
    """The entities whose name holds the first CJK character of one of `theirs`: the only
    ones whose name can hold one of them (a kind may have thousands of members)."""
    by_word = index.postings.by_name_word
    firsts = {next(ch for ch in name if is_cjk(ch)) for name in theirs}
    return set().union(*(by_word.get(ch, set()) for ch in firsts))


def _holds_a_name_of(index: DeviceIndex, entity_id: str, theirs: set[str]) -> bool:
    """Whether a CJK name of the entity holds one of the CJK names `theirs` (room words
    aside)."""
    names = index.entries[entity_id].norm_names
    if not names:
        return False
    # Room words are only taken out of a name that holds the word at all (most do not).
    held = [t for t in theirs if t in names[0]]
    if not held:
        return False
    own = [n for n in names if has_cjk(n)]
    return any(t != n and contains_outside_rooms(index, entity_id, t) for t in held for n in own)


def tie_break(tied: list[Candidate], phrases: list[str], index: DeviceIndex) -> Candidate | None:
    """The one tied candidate the leftover words describe clearly better, if any."""
    phrase = " ".join(phrases)
    scored = sorted(
        ((describe_score(index, c.entity_id, phrase), c) for c in tied), key=lambda x: -x[0]
    )
    if len(scored) >= 2 and scored[0][0] >= 0.6 and scored[0][0] - scored[1][0] >= 0.15:
        scored[0][1].reasons.append(Reason(ReasonCode.WORDS_FIT, phrase))
        return scored[0][1]
    return None


def contains_outside_rooms(index: DeviceIndex, entity_id: str, text: str) -> bool:
    """Whether the name contains `text` once room words are taken out ("阳台灯" is a balcony
    light, not a "台灯"); Latin names are compared word by word elsewhere, so they pass."""
    if not has_cjk(text):
        return True
    names = index.entries[entity_id].norm_names
    name = names[0] if names else ""
    for room in index.rooms.cjk_words:
        if room in name:
            name = name.replace(room, "|")
    return text in name


def resolve_partial(
    mention: Mention, ir: QueryIR, ctx: RunContext, pool: list[str], scope: ScopeResult
) -> Outcome | None:
    """A fragment plus a type word ("落地灯", "bedside lamp"): fuzzy names within that type."""
    index = ctx.index

    def can(entity_id: str) -> bool:
        return is_capable(index.device(entity_id), ir.action)

    candidates_pool = pool
    if mention.type_id:
        # "锁上前门": of the doors, the one that locks, not the first tier's door sensors.
        typed = type_members((mention.type_id,), pool, ir, ctx, use_states=False, keep=can)
        typed = typed or type_members((mention.type_id,), pool, ir, ctx, use_states=False)
        if typed:
            candidates_pool = typed
    capable = [e for e in candidates_pool if can(e)]
    ctx.note_incapable(candidates_pool, capable)
    if not capable:
        # What the words name cannot do it: acting on it anyway would be a guess.
        return None
    candidates_pool = capable
    ranked = recall_keyword(mention.text, candidates_pool, ctx)
    if not ranked:
        return None
    good = [
        c
        for c in ranked
        if c.keyword_score >= ctx.options.min_match_score and _telling_word_matches(mention, c, ctx)
    ]
    if not good:
        if (
            (ir.scope_include or ir.floor_include)
            and mention.type_id
            and candidates_pool is not pool
            and not scope.include_fallback
        ):
            # "客厅主灯" where no lamp is called 主灯: ask which of the room's lamps was meant.
            return [], list(candidates_pool), []
        return None
    if ir.quantifier in ("all", "any", "except"):
        return close_to_top(good, 0.1), [], ranked
    if not needs_clarification(good, ctx.options.epsilon):
        return good[:1], [], ranked
    return [], [c.entity_id for c in close_to_top(good, ctx.options.epsilon)], ranked


def best_named(phrase: str, pool: list[str], ir: QueryIR, ctx: RunContext) -> list[Candidate]:
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


def _telling_word_matches(mention: Mention, candidate: Candidate, ctx: RunContext) -> bool:
    """A fragment matches a name by the words that tell it apart, not by its type word:
    "porch light" is no "mirror light" (CJK fragments are matched inside names instead)."""
    if has_cjk(mention.text):
        return True
    lex = ctx.lex
    said = [
        lex.key(w)
        for w in tokens(normalize(mention.text))
        if not any(kind == "type" for kind, _ in lex.phrases.get((lex.key(w),), []))
    ]
    if not said:
        return True
    names = ctx.index.entries[candidate.entity_id].norm_names
    words = {lex.key(w) for name in names for w in tokens(name)}
    return any(
        w in words or (len(w) >= SLIP_MIN and any(OSA.distance(w, n) <= 1 for n in words))
        for w in said
    )


SLIP_MIN = 4
