"""Resolving one command: from its reading to the entities it selects, or a question.

Scope first (rooms and floors in or out, labels, exclusions), then, in order: names
(`names`), type words (`device_types`), and for a command with neither, pronouns and
ellipsis (`references`), the action's own type, state words or "everything in scope".
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import partial
from operator import attrgetter
from typing import Any

from ..base.index import DeviceIndex
from ..base.models import Basis, Candidate, Mention, Note, QueryIR, Reason, ReasonCode
from ..base.phrase_table import base_name
from ..base.text import has_cjk, normalize, tokens
from .capability import is_capable
from .commanded import (
    not_commanded_reason,
    note_cannot_do,
    note_nothing_there,
    settle_action,
    withhold,
)
from .context import RunContext
from .device_types import resolve_types, state_filter, targets_members, type_members
from .gate import build_clarification, close_to_top, needs_clarification
from .kind_names import describes_kind, name_reading, named_as_kind
from .names import Outcome, best_named, contains_outside_rooms, resolve_name, resolve_partial
from .recall import recall_both
from .references import resolve_references
from .results import RetrievalResult
from .satellite import prefer_satellite
from .scope import ScopeResult, apply_scope
from .setting import complete_setting

REMOVED_LISTED = 20  # entity ids listed in `capability_removed`; the count says the rest
SWITCHING = frozenset({"turn_on", "turn_off", "toggle"})
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
    ir.scope_include, ir.floor_include = set(), set()
    result = _resolve(ir, ctx, command_index)
    result.meta["shared_place_dropped"] = shared
    return result


def _resolve(ir: QueryIR, ctx: RunContext, command_index: int) -> RetrievalResult:
    """One command through its stages: scope, names, type words (or, with neither, what the
    command implies), then the selection with its question, notes and setting."""
    meta: dict[str, Any] = {"confidence": ir.confidence}
    result = RetrievalResult(ir=ir, meta=meta)
    ctx.incapable = set()
    settle_action(ir, ctx.index)
    scoped = _scoped(ir, ctx, meta)
    if scoped is None:
        return result
    found = _by_names(ir, ctx, scoped, meta)
    found = _by_types(ir, ctx, scoped, found, meta)
    return _finished(result, ctx, found, command_index)


@dataclass(frozen=True, slots=True)
class _Scoped:
    """The entities a command may act on once its rooms, floors, labels and exclusions are
    applied, and how strict the capability check is."""

    scope: ScopeResult
    pool: list[str]
    pool_set: AbstractSet[str]
    excluded: set[str]
    hard: bool


@dataclass(frozen=True, slots=True)
class _Found:
    """What a command's names and type words selected, considered and would ask about."""

    selected: tuple[Candidate, ...] = ()
    considered: tuple[Candidate, ...] = ()
    clarify_pool: tuple[str, ...] = ()
    type_groups: tuple[tuple[str, ...], ...] = ()
    read_as_type: tuple[Mention, ...] = ()  # names read as their type words
    named_any: bool = False


def _scoped(ir: QueryIR, ctx: RunContext, meta: dict[str, Any]) -> _Scoped | None:
    """Scope: the rooms and floors said in or out, "here", labels and exclusions; None when
    "here" is said where no room is known (nothing is selected then)."""
    index = ctx.index
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
    return _Scoped(scope, pool, index.id_set(pool), excluded, hard)


def _by_names(ir: QueryIR, ctx: RunContext, scoped: _Scoped, meta: dict[str, Any]) -> _Found:
    """Names: each name said selects what it names, asks which one, or is read as its type
    words."""
    selected: list[Candidate] = []
    considered: list[Candidate] = []
    clarify_pool: list[str] = []
    type_groups = list(ir.type_groups) or _asked_by_condition(ir, ctx, scoped.pool, scoped.scope)
    read_as_type: list[Mention] = []
    named_any = False
    for mention in ir.mentions:
        as_words = _read_as_type_words(mention, ir, ctx, scoped)
        if as_words is not None:
            type_groups.append(as_words)
            read_as_type.append(mention)
            continue
        outcome = _outcome_of(mention, ir, ctx, scoped, meta)
        if isinstance(outcome, _AsTypeWords):
            type_groups.append(outcome.words)
            read_as_type.append(mention)
            continue
        if isinstance(outcome, _Cannot):
            named_any = True
            continue
        if outcome is None:
            meta.setdefault("unmatched_mentions", []).append(mention.text)
            continue
        named_any = True
        chosen, pool_for_question, pool_considered = outcome
        considered.extend(pool_considered)
        if chosen:
            selected.extend(based(chosen, Basis.NAME))
        elif pool_for_question and not clarify_pool:
            clarify_pool = pool_for_question
            meta["clarification_primary"] = [
                c.entity_id for c in close_to_top(pool_considered, ctx.options.epsilon)
            ]
    return _Found(
        tuple(selected),
        tuple(considered),
        tuple(clarify_pool),
        tuple(type_groups),
        tuple(read_as_type),
        named_any,
    )


def _read_as_type_words(
    mention: Mention, ir: QueryIR, ctx: RunContext, scoped: _Scoped
) -> tuple[str, ...] | None:
    """The type words a name stands for before it is resolved as a name, or None: a type
    word that is also a name said of several ("the curtains", "all the blinds"), or a name
    that describes a kind said so ("the motion sensors")."""
    if mention.partial:
        return None
    pool, pool_set = scoped.pool, scoped.pool_set
    # A type word that is also a name: "the curtains" (plural) or "all the blinds" mean the
    # type; "the blinds in the living room", "窗帘" name the entity.
    as_type = mention.type_id is not None and (
        ir.quantifier in ("all", "any", "except")
        # Said as a plural; but a command for "the curtains" in a room where a curtain is
        # called "curtains" is for that one.
        or (
            mention.inflected
            and not (
                mention.exact
                and ir.action not in (None, "query")
                and (ir.scope_include or ir.floor_include)
                and mention.entity_ids & pool_set
            )
        )
        or _class_beats_name(mention, ir, ctx, pool)
        or _only_copies_here(mention, ir, ctx, pool_set)
    )
    if as_type and mention.type_id is not None:
        return (mention.type_id, *mention.modifiers)
    if describes_kind(mention) and (
        ir.quantifier in ("all", "any", "except") or (mention.inflected and not mention.exact)
    ):
        # "the motion sensors", "all 人体传感器": a name that describes a kind, said of
        # several, is that kind, as a single type word is. A name that is plural as written
        # ("Window Blinds") said as written is still the one named.
        return (*mention.types_inside, *mention.modifiers)
    return None


@dataclass(frozen=True, slots=True)
class _AsTypeWords:
    """A name read as its type words after all."""

    words: tuple[str, ...]


class _Cannot:
    """The device a name names is there and cannot do what is asked: that is the answer."""


_CANNOT = _Cannot()


def _outcome_of(
    mention: Mention, ir: QueryIR, ctx: RunContext, scoped: _Scoped, meta: dict[str, Any]
) -> Outcome | _AsTypeWords | _Cannot | None:
    """What a name resolves to: `resolve_name`'s outcome (chosen, pool for a question,
    considered), None when it names nothing here, its type words, or `_CANNOT`."""
    pool, pool_set = scoped.pool, scoped.pool_set
    if mention.partial:
        return resolve_partial(mention, ir, ctx, pool, scoped.scope)
    outcome = resolve_name(mention, ir, ctx, pool, scoped.scope, scoped.hard, pool_set)
    # Read as type words instead when the name is not in the named room ("the motion sensor
    # in the meeting room"), or when the whole name is a type word that names several
    # entities there ("305房间的插座" with 插座, 插座2, 插座3) — but not when the named device
    # is there and cannot do it ("set the front door to 50 %").
    as_words = (mention.type_id,) if mention.type_id else mention.types_inside
    if outcome is None and _named_but_incapable(mention, ctx, pool):
        # "set the reading light to red" with a reading light that only dims: the device
        # named cannot, which is the answer; the colour lights elsewhere that its name's type
        # word would find were not asked for.
        meta.setdefault("named_incapable", []).extend(
            ctx.index.ordered(set(mention.entity_ids) & set(pool))
        )
        return _CANNOT
    named_here = {e for e in mention.entity_ids if e in pool_set}
    cannot = outcome is None and bool(named_here) and named_here <= ctx.incapable
    if (
        as_words
        and not cannot
        and (
            outcome is None
            or (
                (mention.type_id is not None or describes_kind(mention))
                and _kind_of_several(mention, ir, ctx, pool)
            )
        )
    ):
        return _AsTypeWords((*as_words, *mention.modifiers))
    return outcome


def _by_types(
    ir: QueryIR, ctx: RunContext, scoped: _Scoped, found: _Found, meta: dict[str, Any]
) -> _Found:
    """Type words (said, or names read as them); for a command with neither names nor type
    words, what it implies (`_resolve_without_names`); then a name's other reading."""
    selected = list(found.selected)
    considered = list(found.considered)
    clarify_pool = list(found.clarify_pool)
    pool, scope = scoped.pool, scoped.scope
    if found.type_groups:
        groups = list(found.type_groups)
        chosen_types = prefer_satellite(
            ir, ctx, pool, lambda ids: resolve_types(groups, ir, ctx, ids, scope), meta
        )
        chosen_types = _like_the_name_said(chosen_types, list(found.read_as_type), ir, ctx)
        selected.extend(chosen_types)
        considered.extend(chosen_types)
    elif not ir.mentions:
        _resolve_without_names(ir, ctx, pool, scope, selected, considered, meta)
        if not selected and meta.get("clarification_pool"):
            clarify_pool = list(meta["clarification_pool"])
    elif not found.named_any and not selected:
        meta["no_match"] = True
    if ir.name_alternatives:
        _name_alternatives(ir, ctx, scoped.excluded, scoped.hard, selected, considered, meta)
    if found.read_as_type:
        # What the words name exactly stays beside the type read from them ("卷帘" read as
        # the blind class, with a roller shade its owner called 卷帘), for an assistant's list.
        also = name_reading(list(found.read_as_type), scoped.pool_set, meta.get("name_reading", ()))
        if also:
            meta["name_reading"] = also
    return replace(
        found,
        selected=tuple(selected),
        considered=tuple(considered),
        clarify_pool=tuple(clarify_pool),
    )


def _finished(
    result: RetrievalResult, ctx: RunContext, found: _Found, command_index: int
) -> RetrievalResult:
    """The selection without repeats, the question when nothing was chosen, what the
    capability check removed, the setting, and whether the command commands anything."""
    index, meta, ir = ctx.index, result.meta, result.ir
    unique = _unique(list(found.selected))
    clarify_pool = list(found.clarify_pool)
    result.selected = unique
    if clarify_pool and not unique:
        result.clarification = build_clarification(
            index, ctx.lex, clarify_pool, ctx.options.max_options, command_index
        )
        meta["clarification_pool"] = clarify_pool
    keep = max(ctx.options.top_k, len(unique), len(clarify_pool))
    result.rank_later(partial(_ranked, list(found.considered), unique, keep))
    if not unique and result.clarification is None:
        meta.setdefault("no_match", True)
    if ctx.incapable:
        # What the capability check took out, so a person can see why a device was not used.
        meta["capability_removed"] = index.ordered(ctx.incapable)[:REMOVED_LISTED]
        meta["capability_removed_count"] = len(ctx.incapable)
    setting = complete_setting(ir, result.selected_ids, ctx)
    if setting is not None:
        meta["setting"] = setting
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


def _asked_by_condition(
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


def _like_the_name_said(
    chosen: list[Candidate], read_as_type: list[Mention], ir: QueryIR, ctx: RunContext
) -> list[Candidate]:
    """ "打开书房的台灯", "the desk lamp in the study": a name said of one device in a room
    that has none by that name was read as its type there; of that room's devices of the
    type, the ones named like it (老台灯, "brass lamp") are meant, not the panel light."""
    if not read_as_type or ir.several or not (ir.scope_include or ir.floor_include):
        return chosen
    in_scope = {c.entity_id for c in chosen}
    if any(m.entity_ids & in_scope for m in read_as_type):
        # A device there has that name: the word is its kind there.
        return chosen
    entries = ctx.index.entries
    said = [normalize(m.text) for m in read_as_type]
    # One word said ("light" of "the first floor light") is the kind itself, not a name.
    cjk = [text for text in said if has_cjk(text) and len(text) > 1]
    words = {
        w for text in said if not has_cjk(text) and len(tokens(text)) > 1 for w in tokens(text)
    }

    def like(entity_id: str) -> bool:
        for name in entries[entity_id].norm_names:
            if any(text in name for text in cjk) or words & set(tokens(name)):
                return True
        return False

    narrowed = [c for c in chosen if like(c.entity_id)]
    return narrowed or chosen


def _name_alternatives(
    ir: QueryIR,
    ctx: RunContext,
    excluded: set[str],
    hard: bool,
    selected: list[Candidate],
    considered: list[Candidate],
    meta: dict[str, Any],
) -> None:
    """ "kitchen lights" was read as the kitchen's lights; the entities the words name are kept
    in `meta` as the other reading, and used when the room has none of that type."""
    named = sorted({e for m in ir.name_alternatives for e in m.entity_ids})
    meta["name_reading"] = ctx.index.ordered(named)
    if selected:
        return
    scope = apply_scope(
        ctx.index, exclude_areas=set(ir.scope_exclude), exclude_floors=set(ir.floor_exclude)
    )
    pool = [e for e in scope.entity_ids if e not in excluded]
    for mention in ir.name_alternatives:
        outcome = resolve_name(mention, ir, ctx, pool, scope, hard)
        if outcome is not None:
            chosen, _, ranked = outcome
            selected.extend(based(chosen, Basis.NAME))
            considered.extend(ranked)
    if selected:
        meta["name_reading_used"] = True


def _only_copies_here(
    mention: Mention, ir: QueryIR, ctx: RunContext, pool_set: AbstractSet[str]
) -> bool:
    """ "卧室空调" where the bedroom has "空调 4" and "空调 6" but nothing called just 空调:
    the room was said with a type word, so it means that type there."""
    if not (ir.scope_include or ir.floor_include):
        return False
    entries = ctx.index.entries
    # Compared by stems: "по датчику движения в кабинете" names the "Датчик движения" there.
    said = _stems(ctx, mention.text)
    return not any(
        e in pool_set and any(_stems(ctx, name) == said for name in entries[e].norm_names)
        for e in mention.entity_ids
    )


def _stems(ctx: RunContext, text: str) -> tuple[str, ...]:
    return tuple(ctx.lex.key(word) for word in tokens(text))


def _class_beats_name(mention: Mention, ir: QueryIR, ctx: RunContext, pool: list[str]) -> bool:
    """A device-class word that is also a name ("close the garage door" in a home with a cover
    called "Garage Door") means the class in a command, as Home Assistant reads it, when
    devices in scope have that class and the named ones in scope are not all among them
    ("客厅的窗帘" stays the curtain called 窗帘 when it has the curtain class itself). A
    question about one of them ("is the garage door open?") asks about the one named."""
    spec = ctx.lexicons.types.types.get(mention.type_id or "")
    if spec is None or not spec.tiers or ir.action in (None, "query"):
        return False
    first = spec.tiers[0]
    if not all(device_class is not None for _, device_class in first):
        return False
    index = ctx.index
    members = {
        e
        for e in targets_members(index, first) & set(pool)
        if is_capable(index.device(e), ir.action, explicit=True)
    }
    return bool(members) and not (set(mention.entity_ids) & set(pool)) <= members


def _named_but_incapable(mention: Mention, ctx: RunContext, pool: list[str]) -> bool:
    """A name that is not itself a type word, whose entities in scope the capability check
    removed every one of."""
    if mention.type_id is not None:
        return False
    in_scope = set(mention.entity_ids) & set(pool)
    return bool(in_scope) and in_scope <= ctx.incapable


def _kind_of_several(mention: Mention, ir: QueryIR, ctx: RunContext, pool: list[str]) -> bool:
    """In a named room, a type word that is also a name ("305房间的插座") means the kind when
    other devices there are named as that kind too ("智能插座"); "客厅的窗帘" stays the one
    called 窗帘 when the other curtain is a 纱帘. Numbered copies ("功率2") do not count.
    Only where words do not mark the plural: "the valve in the kitchen", singular, is the one
    called "Valve" even beside a "Hot Water Valve"; "the valves" would be said otherwise."""
    if not (ir.scope_include or ir.floor_include or ir.labels):
        return False
    if not has_cjk(mention.text):
        return False
    index = ctx.index
    domains = {index.device(e).domain for e in mention.entity_ids}
    in_scope = set(pool) & set().union(*(index.postings.by_domain.get(d, set()) for d in domains))
    said = mention.text
    # A name that describes the kind ("人体传感器") has company in any device of that kind whose
    # own name says its type words ("人体感应").
    by_words = (
        named_as_kind(mention.types_inside, in_scope, ir, ctx) if describes_kind(mention) else ()
    )
    kinds = 0
    for eid in in_scope:
        names = index.entries[eid].norm_names
        name = names[0] if names else ""
        if name == said or (
            base_name(name) != said and (eid in by_words or _contains_word(index, eid, said))
        ):
            kinds += 1
    return kinds > 1


def _contains_word(index: DeviceIndex, entity_id: str, said: str) -> bool:
    if has_cjk(said):
        return contains_outside_rooms(index, entity_id, said)
    names = index.entries[entity_id].norm_names
    words, parts = tokens(names[0] if names else ""), tokens(said)
    return any(words[i : i + len(parts)] == parts for i in range(len(words) - len(parts) + 1))


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


def _resolve_without_names(
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


def based(candidates: list[Candidate], basis: Basis) -> list[Candidate]:
    """The candidates marked with what selected them (copies: the recall may share its
    candidates between commands)."""
    return [replace(c, basis=basis) for c in candidates]
