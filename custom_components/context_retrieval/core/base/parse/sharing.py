"""What the parts of one utterance say for each other: a verb said once ("turn on the porch
light and the hallway light"), "all" said after every target (都), a value said for both, and a
room that closes more than its own command ("open the curtains and turn on the ceiling light in
the living room")."""

from __future__ import annotations

from collections.abc import Collection
from itertools import pairwise

from ..models import Note, QueryIR
from .sentence import command_confidence
from .spans import CLAUSE_PUNCT, Span


def _places(ir: QueryIR) -> tuple[set[str], set[str]]:
    return set(ir.scope_include), set(ir.floor_include)


def inherit_action(ir: QueryIR, source: QueryIR) -> None:
    """A command said without a verb takes its neighbour's, and the kind that verb implies
    unless its own words name one."""
    ir.action = source.action
    ir.implied_type = ir.implied_type or source.implied_type
    ir.notes.append(Note.ACTION_INHERITED)


def _share_backwards(parts: list[QueryIR], conjuncts: list[list[Span]]) -> None:
    """ "把客厅的灯和厨房的灯都关了", "エアコンと加湿器を消して": a verb said after the last
    target is every target's, and so is "all" said after them (都) — not "all" said before
    its own ("the AC and all the fans")."""
    # "把空调和加湿器和电视都关了": 都 after the last target is said of every one before it.
    all_last = parts[-1].quantifier == "all" and _all_said_last(conjuncts[-1])
    for k in range(len(parts) - 2, -1, -1):
        ir, later = parts[k], parts[k + 1]
        if ir.action is None and later.action is not None:
            inherit_action(ir, later)
        if ir.quantifier == "one" and all_last:
            ir.quantifier = "all"


def _all_said_last(part: list[Span]) -> bool:
    targets = [k for k, s in enumerate(part) if s.says_what]
    alls = [k for k, s in enumerate(part) if s.has("quant_all") and not s.refs]
    return bool(targets and alls) and alls[-1] > targets[-1]


def share_between_conjuncts(
    parts: list[QueryIR], conjuncts: list[list[Span]], set_actions: Collection[str]
) -> None:
    """What one target's words say and another's do not: the action, "all" and the value
    carry forward, and a target said without a room gets its neighbour's, preferring the one
    before, as a place to look first (`shared_place`)."""
    for prev, ir in pairwise(parts):
        if ir.action is None and prev.action is not None:
            inherit_action(ir, prev)
        if ir.quantifier == "one" and prev.quantifier in ("all", "any"):
            ir.quantifier = prev.quantifier
        if ir.names_a_place and not ir.says_what:
            # "… and off in the living room": the kind of the target before, there.
            ir.type_groups = list(prev.type_groups)
    _share_backwards(parts, conjuncts)
    # The value said, else the change: "… and the reading light to 50 %" over "dim".
    valued = [p for p in parts if p.value is not None] or [p for p in parts if p.change is not None]
    for ir in parts:
        source = next((p for p in valued if p is not ir), None)
        if source is None or ir.value is not None:
            continue
        # "dim the ceiling light and the reading light to 50 %": a verb that says what it
        # sets keeps it, and takes the value said for both with a bare "set" (a value to
        # reach, not its own step down).
        specific = ir.action in set_actions and source.action in (None, "set")
        # "set the kitchen light and the reading light to 50 %"
        same = ir.change is None and ir.action in (None, "set", source.action)
        if same or (specific and (ir.change is None or source.value is not None)):
            ir.action = ir.action if specific else source.action
            ir.attribute = ir.attribute or source.attribute
            ir.value, ir.unit, ir.change = source.value, source.unit, source.change
            ir.value_error = source.value_error
    for i, ir in enumerate(parts):
        if ir.names_a_place or ir.references or ir.here:
            continue
        neighbours = parts[:i][::-1] + parts[i + 1 :]
        placed = next((p for p in neighbours if any(_places(p))), None)
        if placed is not None:
            ir.scope_include, ir.floor_include = _places(placed)
            ir.notes.append(Note.SHARED_PLACE)
    for ir, part in zip(parts, conjuncts, strict=True):
        # As sure as the whole command: the action was said once for all of its targets.
        ir.confidence = command_confidence(ir, part)


def _place_said_last(seg: list[Span]) -> bool:
    """ "turn on the ceiling light in the living room": the room comes after every word of
    what to act on, where it may close more than its own command ("the kitchen TV" does not)."""
    places = [k for k, s in enumerate(seg) if s.says_where]
    targets = [k for k, s in enumerate(seg) if s.says_what and not s.says_where]
    return bool(places and targets) and places[-1] > targets[-1]


def _joined_by_and(seg: list[Span], later: list[Span], spans: list[Span]) -> bool:
    """Two commands cut at "and" (not at a comma, a full stop or "then")."""
    position = {id(s): k for k, s in enumerate(spans)}
    said = [position[id(s)] for s in seg if id(s) in position]
    then = [position[id(s)] for s in later if id(s) in position]
    if not said or not then:
        return False
    between = spans[max(said) + 1 : min(then)]
    return any(s.has("conj") for s in between) and not any(
        (s.punct is not None and s.punct in CLAUSE_PUNCT) or s.has("split") for s in between
    )


def share_a_closing_place(
    groups: list[tuple[list[Span], list[QueryIR]]], spans: list[Span]
) -> None:
    """ "open the curtains and turn on the ceiling light in the living room": a room said
    last may close both commands joined by "and". The command before it, said without a place
    of its own, looks there first (`shared_place`, as between targets): opening every curtain
    of the home would act on more than was asked."""
    for (seg, parts), (later_seg, later) in pairwise(groups):
        places = _places(later[-1])
        if not any(places) or not _place_said_last(later_seg):
            continue
        if not _joined_by_and(seg, later_seg, spans):
            continue
        for ir in parts:
            if ir.names_a_place or ir.references or ir.here:
                continue
            ir.scope_include, ir.floor_include = set(places[0]), set(places[1])
            ir.notes.append(Note.SHARED_PLACE)
