"""The words of a command nothing else explained: name fragments ("the little one"), rooms
the home does not have, or noise; and the modifiers said beside a name ("the *left* lamp")
attached to it."""

from __future__ import annotations

from ..index import DeviceIndex
from ..lexicon import Lexicon
from ..models import Mention, Note
from ..text import has_cjk, normalize
from .span_reading import Reading
from .spans import Span, join_tokens


def read_residual(
    runs: list[tuple[list[Span], int, bool]],
    seg: list[Span],
    reading: Reading,
    index: DeviceIndex,
    lex: Lexicon,
) -> set[int]:
    """Words nothing explained: name fragments, unknown rooms, or noise.

    Returns the positions of type words that became part of a name fragment.
    """
    ir = reading.ir
    consumed: set[int] = set()
    type_at = dict(reading.type_spans)
    for run, after, excluded in runs:
        text = join_tokens([s.text for s in run])
        # Part of the home's room names: "卧室" in a home of 主卧室/次卧室, "bedroom" in one
        # with "Master Bedroom" and "Guest Bedroom" means all of them.
        rooms = index.rooms.areas_containing(text, lex)
        if rooms:
            (ir.scope_exclude if excluded else ir.scope_include).update(rooms)
            ir.notes.append(Note.ROOM_PARTIAL_MATCH)
            continue
        if excluded:
            # "close all the curtains except the sheer" with no "sheer" known: what to leave
            # out is not known, so nothing may be done (it closed the sheer too).
            ir.unknown_terms.append(text)
            if Note.EXCLUSION_UNREAD not in ir.notes:
                ir.notes.append(Note.EXCLUSION_UNREAD)
            continue
        if normalize(text) in lex.room_words:
            # "其他房间的灯": "room" said of rooms in general names none.
            continue
        # A fragment directly before a type word is part of a name: "落地灯", "pool lights".
        if after in type_at:
            phrase = join_tokens([text, seg[after].text])
            ir.mentions.append(Mention(text=phrase, partial=True, type_id=type_at[after]))
            ir.phrases.append(phrase)
            ir.unknown_terms.append(text)
            consumed.add(after)
            continue
        if _an_unknown_room(text, seg, seg.index(run[0]) - 1, after):
            ir.unknown_rooms.append(text)
            ir.unknown_terms.append(text)
            continue
        nxt = seg[after] if after < len(seg) else None
        ir.unknown_terms.append(text)
        if nxt is not None and nxt.home("entity"):
            continue
        if len(text) >= (2 if has_cjk(text) else 3):
            ir.phrases.append(text)
    return consumed


def _an_unknown_room(text: str, seg: list[Span], before_idx: int, after: int) -> bool:
    """Whether `text` is said as a room the home does not know: "X的灯" / "X里的灯" (a
    possessive or locative particle, then a type or nothing), or "in the X"."""
    nxt = seg[after] if after < len(seg) else None
    if nxt is not None and nxt.only_filler and has_cjk(text):
        nxt2 = seg[after + 1] if after + 1 < len(seg) else None
        if (
            nxt2 is None
            or nxt2.has("type")
            or nxt2.has("generic")
            or nxt2.has("action")
            or nxt2.has("quant_all")
        ):
            return True
    back = before_idx
    while back > 0 and seg[back].only_filler and not seg[back].has("area_prep"):
        back -= 1
    before = seg[back] if back >= 0 else None
    return (
        before is not None
        and before.has("area_prep")
        and not before.refs
        and not has_cjk(text)
        and (nxt is None or not nxt.refs)
    )


def _passable(x: Span) -> bool:
    """Words that may stand between a name and the type word describing it."""
    if x.refs or x.has("conj") or x.punct is not None:
        return False
    actions = set(x.values("action"))
    return (
        x.only_filler
        or x.is_residual
        or x.numeric
        or x.has("state")
        or x.has("media")
        or (bool(actions) and actions == {"query"})
        # A value and its unit ("2300 Kelvin", "warmweiß") between a name and a type word.
        or (bool(actions) and all(a.startswith("set_") for a in actions))
    )


def attach_modifiers(reading: Reading, seg: list[Span]) -> set[int]:
    """Type words said with a name narrow that name ("the phone battery", "Heat pump CO
    sensor's carbon monoxide") unless a conjunction makes them a target of their own."""
    consumed: set[int] = set()
    ir = reading.ir
    if not reading.mention_at:
        return consumed
    # A type word that is also a name ("lights" ~ "Light", "gas" ~ "Gas") next to another
    # name describes that name: "play corner lights", "monthly gas consumption's gas".
    for mpos, mention in list(reading.mention_at.items()):
        if mention.type_id is None:
            continue
        host = _nearest_mention(mpos, reading, seg, exclude=mpos)
        if host is not None:
            host.modifiers = (*host.modifiers, mention.type_id)
            ir.mentions.remove(mention)
            del reading.mention_at[mpos]
    for pos, type_id in reading.type_spans:
        host = _nearest_mention(pos, reading, seg)
        if host is not None:
            host.modifiers = (*host.modifiers, type_id)
            consumed.add(pos)
    return consumed


def _nearest_mention(
    pos: int, reading: Reading, seg: list[Span], exclude: int | None = None
) -> Mention | None:
    best: tuple[int, Mention] | None = None
    for mpos, mention in reading.mention_at.items():
        if mpos == exclude or mention.partial or (exclude is not None and mention.type_id):
            continue
        lo, hi = sorted((pos, mpos))
        # A room or floor may stand between a name and a type word ("the motion sensor in
        # the office: anyone?"), not between two names.
        crossed = set() if exclude is not None else reading.place_at
        if all(_passable(seg[i]) or i in crossed for i in range(lo + 1, hi)):
            distance = hi - lo
            if best is None or distance < best[0]:
                best = (distance, mention)
    return best[1] if best else None
