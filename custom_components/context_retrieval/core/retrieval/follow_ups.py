"""What a command takes from the conversation before it is resolved ("in there", "and the
bedroom", "the same in the kitchen", "a bit more"), and what the conversation keeps of it
afterwards (what "it" means next, the question or confirmation waiting)."""

from __future__ import annotations

from dataclasses import replace

from ..base.models import Mention, Note, QueryIR
from ..base.text import tokens
from .capability import is_capable
from .context import RunContext
from .replies import names_a_target
from .results import RetrievalResult


def _last_turn(ctx: RunContext) -> list[str]:
    """What the last turn was about, of what is still in the home."""
    if ctx.state is None:
        return []
    return [e for e in ctx.state.last_turn() if e in ctx.index]


def _devices_in(ctx: RunContext, rooms: set[str]) -> set[str]:
    return set().union(*(ctx.index.postings.by_area.get(a, set()) for a in rooms))


def place_from_last_turn(ir: QueryIR, ctx: RunContext) -> QueryIR:
    """ "那里的风扇也打开", "in there too": the rooms of what the last turn was about, or the
    rooms its command named. Nothing to go by leaves the command without a place."""
    if ir.scope_include or ir.floor_include or ctx.state is None:
        return ir
    index = ctx.index
    rooms = {a for e in _last_turn(ctx) if (a := index.device(e).area_id) is not None}
    last = ctx.state.last_action()
    floors = ir.floor_include
    if not rooms and last is not None:
        rooms = set(last.scope_include)
        floors = set(last.floor_include)
    if not rooms:
        return replace(ir, floor_include=floors)
    return replace(
        ir,
        scope_include=rooms,
        floor_include=floors,
        notes=[*ir.notes, Note.PLACE_FROM_LAST_TURN],
    )


def same_elsewhere(ir: QueryIR, ctx: RunContext) -> QueryIR:
    """ "dasselbe im dining room", "lo mismo en el salón": "the same" said with a place the
    last turn's devices are not in is the last command again there, not those devices."""
    if not ir.references or not (ir.scope_include or ir.floor_include) or ctx.state is None:
        return ir
    if ir.mentions or ir.type_groups or ir.action is not None:
        return ir
    devices = [ctx.index.device(e) for e in _last_turn(ctx)]
    if devices and not any(
        d.area_id in ir.scope_include or d.floor_id in ir.floor_include for d in devices
    ):
        return replace(ir, references=[], reference_kind="none")
    return ir


def same_name_elsewhere(ir: QueryIR, ctx: RunContext) -> QueryIR:
    """ "turn on the living room one too", "now the kids room one" after a device said by its
    name ("the kitchen ceiling light"): the device of that name in the place said, not every
    light there. Only when the last turn was one device, named, and the place has its name."""
    if ctx.state is None or not ir.names_a_place or ir.says_what or ir.references:
        return ir
    last = ctx.state.last_action()
    index = ctx.index
    devices = _last_turn(ctx)
    if last is None or not last.mentions or last.type_groups or len(devices) != 1:
        return ir
    entry = index.entries[devices[0]]
    name = entry.norm_names[0] if entry.norm_names else ""
    there = _devices_in(ctx, ir.scope_include)
    found = frozenset(e for e in there - {devices[0]} if index.entries[e].norm_names[:1] == (name,))
    if not name or not found:
        return ir
    return replace(ir, mentions=[Mention(text=name, entity_ids=found)])


def sibling_of_last_turn(ir: QueryIR, ctx: RunContext) -> QueryIR:
    """ "turn on the left one" after "turn off the right bedside lamp": words said alone that
    are in the name of exactly one other device of the last turn's room and domain are that
    device (the left bedside lamp), never the last turn's own."""
    if ctx.state is None or not ir.phrases or ir.says_what or ir.names_a_place or ir.references:
        return ir
    index = ctx.index
    last = set(_last_turn(ctx))
    if not last:
        return ir
    domains = {index.device(e).domain for e in last}
    rooms = {a for e in last if (a := index.device(e).area_id) is not None}
    said = set(tokens(" ".join(ir.phrases)))
    nearby = _devices_in(ctx, rooms) - last
    found = [
        e
        for e in nearby
        if index.device(e).domain in domains
        and any(said <= set(tokens(n)) for n in index.entries[e].norm_names)
    ]
    if len(found) != 1:
        return ir
    mention = Mention(text=" ".join(ir.phrases), entity_ids=frozenset(found))
    return replace(ir, mentions=[mention], phrases=[], unknown_terms=[])


def action_from_last_turn(ir: QueryIR, ctx: RunContext) -> QueryIR:
    """ "and the bedroom" after "turn on the kitchen lights": an utterance with a target but
    no action does what the last command did."""
    last = ctx.state.last_action() if ctx.state is not None else None
    if last is None or Note.NEGATED in ir.notes:
        return ir
    if Note.NEGATION_ALONE in ir.notes:
        # "not the living room", "客厅的不要" after a command: told what not to do, not to
        # do it there (it took the last action and switched on what was said not to).
        return replace(ir, notes=[*ir.notes, Note.NEGATED])
    notes = [*ir.notes, Note.ACTION_FROM_LAST_TURN]
    implied_type = ir.implied_type or last.implied_type
    if ir.change is not None and last.attribute is not None:
        # "再高两度", "a bit more": the last command's setting, a step from where it is.
        return replace(
            ir, action=last.action, attribute=last.attribute, implied_type=implied_type, notes=notes
        )
    if not names_a_target(ir):
        return ir
    taken = replace(ir, action=last.action, implied_type=implied_type, notes=notes)
    if not ir.says_what:
        # "the same in the bedroom" after "turn on the kitchen fan": the fan there.
        taken = replace(taken, type_groups=_kinds_said(last))
    if ir.value is None and last.value is not None:
        taken = replace(
            taken,
            attribute=last.attribute,
            value=last.value,
            unit=last.unit,
            change=last.change,
        )
    return taken


def others_than_last_turn(ir: QueryIR, ctx: RunContext, before: QueryIR | None) -> QueryIR:
    """ "其他的关掉", "turn off the others" after "打开客厅的灯": the devices of the kinds the
    command before (`before`, in this utterance, else the last turn's) was about that it did
    not select — never those it did (read as "them", the lights just turned on went off)."""
    if Note.OTHERS not in ir.notes or ctx.state is None:
        return ir
    done = _last_turn(ctx)
    if not done:
        return ir
    names = ", ".join(ctx.index.device(e).name for e in done[:3])
    left_out = Mention(text=names, entity_ids=frozenset(done))
    taken = replace(ir, exclude_mentions=[*ir.exclude_mentions, left_out])
    last = before or ctx.state.last_action()
    if ir.says_what or last is None:
        return taken
    return replace(taken, type_groups=_kinds_said(last))


def _kinds_said(ir: QueryIR) -> list[tuple[str, ...]]:
    """The kinds a command was about: its type words, and those of the names it said."""
    named = [(m.type_id,) if m.type_id else m.types_inside for m in ir.mentions]
    return list(dict.fromkeys([*ir.type_groups, *(k for k in named if k)]))


def setting_of_last_turn(ir: QueryIR, ctx: RunContext) -> QueryIR:
    """ "温度调到24", "set the temperature to 24" after "打开主卧的空调": the setting's own word
    ("temperature") is what to set, not which device; when a device of the last turn can
    take that setting, it is meant (asking which of the home's thermostats answered nothing)."""
    if ctx.state is None or (ir.value is None and ir.change is None):
        return ir
    if len(ir.type_groups) != 1 or len(ir.type_groups[0]) != 1:
        return ir
    if ir.mentions or ir.labels or ir.generic or ir.names_a_place:
        return ir
    said = ir.type_groups[0][0]
    actions = [a for a, spec in ctx.lexicons.values.actions.items() if spec.attribute == said]
    if ir.action not in (None, "set", *actions) or len(actions) != 1:
        return ir
    last = [ctx.index.device(e) for e in _last_turn(ctx)]
    if not any(is_capable(device, actions[0], explicit=True) for device in last):
        return ir
    return replace(ir, action=actions[0], attribute=said, type_groups=[], type_words=[])


def update_state(ctx: RunContext, results: list[RetrievalResult]) -> None:
    if ctx.state is None:
        return
    for result in results:
        ctx.state.remember_command(result.ir)
    for result in results:
        if result.clarification is not None:
            pool = result.meta.clarification_pool or [
                o.entity_id for o in result.clarification.options
            ]
            ctx.state.set_pending(
                result.clarification,
                pool,
                result.ir,
                primary=result.meta.clarification_primary,
            )
            break
    for result in results:
        if result.confirmation is not None:
            ctx.state.add_confirming(result.confirmation, result.ir, result.meta.setting)
    # What waits for a yes is not done yet, so it is not what "it" means.
    selected = [eid for r in results if r.confirmation is None for eid in r.selected_ids]
    if selected:
        ctx.state.remember(selected)
