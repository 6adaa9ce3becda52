"""How a name said is read: as the entity it names, or as its type words ("the curtains",
"all the blinds", "the motion sensor in the meeting room"), and a name's other reading when
the room holds none of its type."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from ..base.index import DeviceIndex
from ..base.models import Basis, Candidate, Mention, QueryIR
from ..base.phrase_table import base_name
from ..base.text import has_cjk, normalize, tokens
from .capability import capable_ids
from .context import RunContext
from .device_types import targets_members
from .kind_names import describes_kind, named_as_kind
from .meta import ResultMeta
from .names import Outcome, contains_outside_rooms, resolve_name, resolve_partial
from .scope import apply_scope
from .stages import Scoped, based


def read_as_type_words(
    mention: Mention, ir: QueryIR, ctx: RunContext, scoped: Scoped
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
        (_said_of_several(mention, ir, pool_set) and not _narrower_kind(mention, ctx))
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
class AsTypeWords:
    """A name read as its type words after all."""

    words: tuple[str, ...]


class Cannot:
    """The device a name names is there and cannot do what is asked: that is the answer."""


CANNOT = Cannot()


def read_name(
    mention: Mention, ir: QueryIR, ctx: RunContext, scoped: Scoped, meta: ResultMeta
) -> Outcome | AsTypeWords | Cannot | None:
    """What a name resolves to: `resolve_name`'s outcome (chosen, pool for a question,
    considered), None when it names nothing here, its type words, or `CANNOT`."""
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
        meta.named_incapable = [
            *(meta.named_incapable or ()),
            *ctx.index.ordered(set(mention.entity_ids) & set(pool)),
        ]
        return CANNOT
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
        return AsTypeWords((*as_words, *mention.modifiers))
    return outcome


def like_the_name_said(
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


def name_alternatives(
    ir: QueryIR,
    ctx: RunContext,
    excluded: set[str],
    hard: bool,
    selected: list[Candidate],
    considered: list[Candidate],
    meta: ResultMeta,
) -> None:
    """ "kitchen lights" was read as the kitchen's lights; the entities the words name are kept
    in `meta` as the other reading, and used when the room has none of that type."""
    named = sorted({e for m in ir.name_alternatives for e in m.entity_ids})
    meta.name_reading = ctx.index.ordered(named)
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
        meta.name_reading_used = True


def _said_of_several(mention: Mention, ir: QueryIR, pool_set: AbstractSet[str]) -> bool:
    """ "all the blinds", or said as a plural; but a command for "the curtains" in a room
    where a curtain is called "curtains" is for that one."""
    return ir.quantifier in ("all", "any", "except") or (
        mention.inflected
        and not (
            mention.exact
            and ir.action not in (None, "query")
            and (ir.scope_include or ir.floor_include)
            and mention.entity_ids & pool_set
        )
    )


def _narrower_kind(mention: Mention, ctx: RunContext) -> bool:
    """ "吸顶灯", "台灯": a type word holding a shorter word of its own type ("灯") and more,
    so a narrower kind than the type. "所有吸顶灯" are the devices so named, never every light
    of the home (the general word alone, "all the curtains", is the type)."""
    keys = ctx.lex.keys(mention.text)
    wanted = ("type", mention.type_id)
    return any(
        wanted in ctx.lex.lookup(keys[start:end])
        for start in range(len(keys))
        for end in range(start + 1, len(keys) + 1)
        if end - start < len(keys)
    )


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
    pool_set = index.id_set(pool)
    members = targets_members(index, first) & pool_set
    able = capable_ids(index, ir.action, explicit=True)
    if able is not None:
        members &= able
    return bool(members) and not (set(mention.entity_ids) & pool_set) <= members


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
