"""Type words: "the lights", "motion sensors", "卧室的窗帘" → every entity of that kind in scope.

A type word names tiers of (domain, device class) targets (`types.json`); the first tier with
members in the pool wins. Adjacent type words narrow each other ("motion" ∩ "sensors"), and
state words narrow or widen them ("batteries charging").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from ..base.index import DeviceIndex
from ..base.lexicon import Target
from ..base.models import Basis, Candidate, QueryIR, Reason, ReasonCode
from .capability import capability_check, capable_members
from .context import RunContext
from .scope import ScopeResult


def intersect(a: Sequence[Target], b: Sequence[Target]) -> list[Target]:
    out: list[Target] = []
    for d1, c1 in a:
        for d2, c2 in b:
            if d1 == d2 and (c1 is None or c2 is None or c1 == c2):
                target = (d1, c1 or c2)
                if target not in out:
                    out.append(target)
    return out


def group_tiers(group: Sequence[str], ctx: RunContext) -> list[list[Target]]:
    """The tiers of a group of adjacent type words, intersected ("motion" ∩ "sensors")."""
    specs = [ctx.lexicons.types.types[t] for t in group if t in ctx.lexicons.types.types]
    if not specs:
        return []
    tiers: list[list[Target]] = [list(t) for t in specs[0].tiers]
    for spec in specs[1:]:
        combined: list[tuple[int, list[Target]]] = []
        for i, tier_a in enumerate(tiers):
            for j, tier_b in enumerate(spec.tiers):
                inter = intersect(tier_a, tier_b)
                if inter:
                    combined.append((i + j, inter))
        if combined:
            combined.sort(key=lambda x: x[0])
            tiers = [t for _, t in combined]
    return tiers


def state_tiers(states: set[str], ctx: RunContext) -> list[list[Target]]:
    """Tiers of what the state words allow; several states narrow each other."""
    tiers: list[list[Target]] | None = None
    for state in sorted(states):
        own = [list(t) for t in ctx.lexicons.types.states.get(state, ())]
        if not own:
            continue
        if tiers is None:
            tiers = own
            continue
        combined = [intersect(a, b) for a in tiers for b in own]
        tiers = [t for t in combined if t] or tiers
    return tiers or []


def state_filter(ids: list[str], states: set[str], ctx: RunContext) -> list[str]:
    """Entities of `ids` a state question can be about, first tier with any; [] if none."""
    tiers = state_tiers(states, ctx)
    if not tiers:
        return ids
    pool = ctx.index.id_set(ids)
    for tier in tiers:
        members = targets_members(ctx.index, tier) & pool
        if members:
            return ctx.index.ordered(members)
    return []


def targets_members(index: DeviceIndex, targets: Sequence[Target]) -> set[str]:
    """Every entity matching one of the (domain, device_class) targets, from the postings."""
    p = index.postings
    out: set[str] = set()
    for domain, device_class in targets:
        out |= (
            p.by_domain.get(domain, set())
            if device_class is None
            else p.by_class.get((domain, device_class), set())
        )
    return out


def type_members(
    group: Sequence[str],
    ids: list[str],
    ir: QueryIR,
    ctx: RunContext,
    use_states: bool = True,
    keep: Callable[[str], bool] | None = None,
    acting: bool = False,
) -> list[str]:
    """Entities of `ids` that are of this type, taking the first tier that has any (any that
    `keep` accepts, when given: "lock the door" skips the doors that cannot lock).

    `acting`: the members are to be acted on, and a later tier is the word's wider reading,
    so it never holds a device that guards the home ("关门" is no lock and no garage door)
    nor one whose own class is another ("打开卧室的电视" is not the bedroom's speaker)."""
    tiers = group_tiers(group, ctx)
    if not tiers:
        return []
    index = ctx.index
    pool = index.id_set(ids)

    def kept(members: set[str]) -> set[str]:
        # Filtered here, on the few members, not on the whole pool: it is the hot path.
        return members if keep is None else {e for e in members if keep(e)}

    name_typed = _named_as_type(group, pool, tiers, ctx)
    by_state = state_tiers(ir.states, ctx) if use_states else []
    tier_options: list[list[Target] | None] = list(by_state) or [None]
    for i, tier in enumerate(tiers):
        for state_tier in tier_options:
            targets = intersect(tier, state_tier) if state_tier is not None else tier
            if not targets:
                continue
            members = targets_members(index, targets) & pool
            if i == 0:
                members = _named_kind(group, members, ctx)
            if i == 0 and state_tier is None:
                members |= name_typed
            elif i > 0 and acting:
                members = _wider_members(group, members, targets, ir, ctx)
            members = kept(members)
            if members:
                return index.ordered(members)
    if by_state:
        # "batteries charging": the state names a class the type word alone does not reach,
        # within the domain the type is first of; a state of other domains ("the weather at
        # home", "燈是開著的": open/closed is no state of a light) says nothing about this
        # type, which then stands alone.
        domains = {d for d, _ in tiers[0]}
        by_state_only = [e for e in state_filter(ids, ir.states, ctx) if e in kept({e})]
        if any(index.device(e).domain in domains for e in by_state_only):
            return by_state_only
        return type_members(group, ids, ir, ctx, use_states=False, keep=keep, acting=acting)
    return []


def _named_kind(group: Sequence[str], members: set[str], ctx: RunContext) -> set[str]:
    """Of a kind only names tell apart ("air purifier", "空调"), the members named so."""
    specs = ctx.lexicons.types.types
    spec = specs.get(group[0]) if len(group) == 1 else None
    if spec is None or not (spec.name_only or spec.named_first):
        return members
    anywhere = ctx.index.postings.by_name_type.get(spec.type_id, set())
    named = anywhere & members
    if named or spec.name_only:
        return named
    # The home names its ACs so, but none here: there is no AC here (the kids room's floor
    # heating is no AC); a home that names none so gets any thermostat.
    domains = {d for d, _ in spec.tiers[0]}
    if any(ctx.index.device(e).domain in domains for e in anywhere):
        return set()
    return members


def _wider_members(
    group: Sequence[str], members: set[str], targets: Sequence[Target], ir: QueryIR, ctx: RunContext
) -> set[str]:
    """The members of a later tier that may be acted on (see `_wider_reading_fits`)."""
    placed = bool(ir.scope_include or ir.there)
    fits = {
        e for e in members if _wider_reading_fits(ctx.index, e, targets, ir.action, ctx, placed)
    }
    return _named_so_if_any(group, fits, ctx)


def _named_so_if_any(group: Sequence[str], members: set[str], ctx: RunContext) -> set[str]:
    """A word's wider reading keeps the members named with the word when any is: "lock all
    the doors" reaches the locks, the front door's and the side door's, not the safe's."""
    if len(group) != 1:
        return members
    named = ctx.index.postings.by_name_type.get(group[0], set()) & members
    return named or members


def _wider_reading_fits(
    index: DeviceIndex,
    entity_id: str,
    targets: Sequence[Target],
    action: str | None,
    ctx: RunContext,
    placed: bool = False,
) -> bool:
    """Whether a member of a later tier may be acted on: a security device only by an action
    that names its kind ("lock the doors") or in a room said ("close the door in the
    garage"; opening it still waits for a yes), and a target of any class takes only devices
    without one of their own."""
    device = index.device(entity_id)
    table = ctx.lexicons.types
    # A lock is locked only by its name or the words for locking: closing a door is not that.
    if table.is_security(device.domain, device.device_class) and (
        not placed or device.domain == "lock"
    ):
        own = table.types.get(table.defaults.get(action or "", ""))
        return own is not None and any(
            d == device.domain and c in (None, device.device_class) for d, c in own.tiers[0]
        )
    return device.device_class is None or any(
        d == device.domain and c == device.device_class for d, c in targets
    )


def _named_as_type(
    group: Sequence[str], pool: AbstractSet[str], tiers: list[list[Target]], ctx: RunContext
) -> set[str]:
    """Entities whose own name makes them this type ("Garage Light" on a smart plug).

    A type made of device classes ("curtains", "garage door") is the class first: a blind
    named "Bedroom Curtain" is a curtain only when no device in scope has the curtain class.
    """
    specs = ctx.lexicons.types.types
    if len(group) != 1 or group[0] not in specs or not specs[group[0]].name_domains:
        return set()
    spec = specs[group[0]]
    index = ctx.index
    if all(device_class is not None for _, device_class in tiers[0]) and (
        targets_members(index, tiers[0]) & pool
    ):
        return set()
    named = index.postings.by_name_type.get(spec.type_id, set()) & pool
    # By the domain postings, not entity by entity: "every light" names thousands.
    by_domain = index.postings.by_domain
    return set().union(*(named & by_domain.get(d, set()) for d in spec.name_domains))


def resolve_types(
    groups: list[tuple[str, ...]],
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    scope: ScopeResult,
    basis: Basis = Basis.TYPE,
) -> list[Candidate]:
    """ "the lights", "卧室的窗帘", "motion sensors upstairs": everything of that type in scope."""
    if scope.include_fallback:
        # The room the user named has none of these; turning on the whole house instead would
        # be a guess, so only names may still match (the fallback to the whole home is for
        # devices whose room is recorded wrongly, which only their names can reveal).
        return []
    out: list[Candidate] = []

    capable_of = capability_check(ctx.index, ir.action, explicit=True)

    acting = ir.action not in (None, "query")
    for group in groups:
        members = type_members(group, pool, ir, ctx, acting=acting)
        # Without state words the capable ones are those of the first tier that has any, so
        # when the members (that first tier) hold some, they are these; otherwise a later
        # tier may hold them and the tiers are walked again.
        capable = capable_members(ctx.index, ir.action, members) if not ir.states else []
        if not capable:
            capable = type_members(group, pool, ir, ctx, keep=capable_of, acting=acting)
            ctx.note_incapable(members, capable)
        elif len(capable) < len(members):
            # All of them capable ("all the lights", thousands): nothing to note.
            ctx.note_incapable(members, capable)
        # "All the lights" may be thousands: they share one list of reasons (nothing adds to
        # the reasons of a type's members), and positional arguments (entity_id, entity_kind,
        # keyword, vector, total, breakdown, reasons) build them in two thirds of the time.
        reasons = [Reason(ReasonCode.TYPE, "+".join(group))]
        out.extend(Candidate(eid, "device", 1.0, 0.0, 1.0, {}, reasons, basis) for eid in capable)
    return out
