"""Knowing when not to act: whether a command commands anything at all.

What a result selects is what the assistant would act on. Some utterances name devices of the
home without commanding them:

- a bare target with no action ("kitchen", "the ceiling lights"): `no_action`;
- an action the target cannot do ("open the thermostat", "park the bedroom lamp"):
  `cannot_do`;
- a value Home Assistant would refuse ("brightness to 150 %", "blinds to -20 %"):
  `value_out_of_range`;
- a set command whose words say no value ("set the lamp banana potato tomato"):
  `value_missing`;
- a clause that says not to do something, said alone ("别关灯", "don't turn off the
  light"): `negated`;
- a target said that nothing in scope is (`nothing_there`), or "it"/"them" with nothing to
  refer to (`reference_unresolved`): selected nothing, said so;
- a command for later ("turn off the lights in 5 minutes"): `delayed`, a timer's work;
- a request about the home that is no command for it ("write a poem about my kitchen
  lights", "who invented the light bulb"; the language's `not_home` words): `not_about_the_home`.

Such a command selects nothing; the devices it named are kept in `meta.mentioned` so an
assistant's context can still list them, marked as mentioned, not commanded, and
`meta.not_commanded` says why. A scene or a script named alone, or "set" to one, is run,
as Home Assistant's own sentences read it.
"""

from __future__ import annotations

from dataclasses import replace

from ..base.index import DeviceIndex
from ..base.models import Note, QueryIR
from .meta import NotCommanded
from .results import RetrievalResult

RUN_BY_NAME = frozenset({"scene", "script"})
# Actions said of a device of the home (not of media to find, a timer or a list).
SAID_OF_A_DEVICE = frozenset(
    {
        "turn_on",
        "turn_off",
        "toggle",
        "open",
        "close",
        "lock",
        "unlock",
        "start",
        "stop",
        "dock",
        "activate",
        "set",
        "set_brightness",
        "set_color",
        "set_color_temp",
        "set_temperature",
        "set_position",
        "set_fan_speed",
        "set_humidity",
    }
)


MENTIONED_LISTED = 20  # entity ids kept in `mentioned`


def settle_action(ir: QueryIR, index: DeviceIndex) -> QueryIR:
    """ "Partymodus", "set the relax scene": a scene or script named alone, or set, is run."""
    if ir.action not in (None, "set", "turn_on") or not ir.mentions or ir.value is not None:
        return ir
    named = {e for m in ir.mentions for e in m.entity_ids if e in index}
    if not named or not all(index.device(e).domain in RUN_BY_NAME for e in named):
        return ir
    notes = [n for n in ir.notes if n is not Note.VALUE_MISSING]
    return replace(ir, action="activate", notes=[*notes, Note.RUN_BY_NAME])


def not_commanded_reason(ir: QueryIR) -> NotCommanded | None:
    """Why the command, as read, commands nothing; None when it may act."""
    if Note.NOT_ABOUT_THE_HOME in ir.notes:
        return NotCommanded.NOT_ABOUT_THE_HOME
    if Note.NEGATED in ir.notes:
        return NotCommanded.NEGATED
    if Note.DELAYED in ir.notes:
        return NotCommanded.DELAYED
    if ir.action is None and Note.BARE_TARGET in ir.notes:
        # Only the target was said. (With any other word, that word may be a verb the
        # language data lacks: then the target is still what the user meant.)
        return NotCommanded.NO_ACTION
    if ir.value_error == "out_of_range":
        return NotCommanded.VALUE_OUT_OF_RANGE
    if Note.VALUE_MISSING in ir.notes:
        return NotCommanded.VALUE_MISSING
    return None


def note_cannot_do(result: RetrievalResult, incapable: list[str]) -> None:
    """Nothing selected because what was named cannot do the action: say so, keep them."""
    if result.selected or result.clarification is not None or not incapable:
        return
    result.meta.not_commanded = NotCommanded.CANNOT_DO
    result.meta.mentioned = incapable[:MENTIONED_LISTED]


def note_nothing_there(result: RetrievalResult) -> None:
    """A command that said what to act on and found nothing ("打开卧室的电视" with no TV in
    the bedroom, "turn them both off" with nothing said before): why, so the answer can say
    it is not there rather than pass the words on to be read again."""
    ir = result.ir
    if result.selected or result.clarification is not None or result.meta.not_commanded is not None:
        return
    if ir.action in (None, "query"):
        return
    if result.meta.reference_unresolved:
        result.meta.not_commanded = NotCommanded.REFERENCE_UNRESOLVED
    elif ir.type_groups or ir.mentions:
        result.meta.not_commanded = NotCommanded.NOTHING_THERE
    elif ir.action in SAID_OF_A_DEVICE and (ir.phrases or ir.unknown_terms):
        # "turn on the christmas tree" with no such device exposed: said here, not handed
        # to an agent whose fuzzy matching may pick something else.
        result.meta.not_commanded = NotCommanded.NOT_FOUND
        result.meta.not_found = list(dict.fromkeys(ir.phrases or ir.unknown_terms))


def withhold(result: RetrievalResult, reason: NotCommanded) -> None:
    """Select nothing, keeping what the command named as mentioned."""
    mentioned = list(dict.fromkeys([c.entity_id for c in result.selected]))[:MENTIONED_LISTED]
    result.meta.not_commanded = reason
    result.meta.mentioned = mentioned
    result.selected = []
    result.clarification = None
    result.meta.clarification_pool = None
