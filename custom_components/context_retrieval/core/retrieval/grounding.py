"""Grounding: a command acts only on what the user named, described or referred to.

The stages before this one read generously, so that an assistant's context holds every device
the words may be about. What a command may *act on* is held to more: after a command is
resolved, this stage looks at what selected each entity (`Candidate.basis`) and

- withholds a selection that rests on a guess while the words name something the home does
  not have ("start the dishwasher" is no request for the vacuum, "打开厨房的烤箱" none for the
  kitchen lights, "启动洗碗机吧" none for what the last turn switched): `not_commanded` is
  "not_found" and `meta.not_found` keeps the words;
- asks which one when a request for one thing ("turn on the lamp", "打开空调") found several
  by a type word alone, with no room, floor, label or satellite to narrow it: one means one.

What is withheld stays in `meta.mentioned` for an assistant's context, as `commanded.py`
does for commands that command nothing.
"""

from __future__ import annotations

from ..base.models import Basis, Note, QueryIR
from ..base.text import has_cjk, normalize, tokens
from .commanded import withhold
from .context import RunContext
from .device_types import targets_members
from .gate import build_clarification, option_label
from .meta import NotCommanded
from .results import ConfirmationRequest, RetrievalResult

# What selects entities without any word of the utterance naming them or their kind.
INFERRED = frozenset({Basis.ACTION, Basis.PLACE, Basis.WORDS, Basis.EVERYTHING})
NOT_ACTIONS = (None, "query")
# Actions whose object is the device: a word nobody knows said with them is most likely the
# device ("start the dishwasher"). With a setting or media the unknown words are mostly verbs
# and titles ("Spring zum nächsten Lied", "Diese Drombuschs abspielen").
DEVICE_OBJECT_ACTIONS = frozenset(
    {"turn_on", "turn_off", "toggle", "open", "close", "start", "stop", "activate", "dock"}
)
# Shorter unknown words are particles and elisions ("为", "l'"), not devices.
MIN_UNKNOWN_LATIN = 3
MIN_UNKNOWN_CJK = 2
# Actions that start something new to hear or see: said of no device, they are one's.
PLAYED_ON_ONE = frozenset({"media_search_play"})


def ground(result: RetrievalResult, ctx: RunContext, command_index: int) -> RetrievalResult:
    """The result with what it may act on settled (the same object, updated)."""
    ir = result.ir
    if ir.action in NOT_ACTIONS or not result.selected:
        return result
    bases = {c.basis for c in result.selected}
    if _exclusion_unread(ir) or _unknown_target(ir, result, bases):
        result.meta.not_found = [t for t in ir.unknown_terms if _word_like(t)]
        withhold(result, NotCommanded.NOT_FOUND)
        return result
    if _one_of_several(ir, result, bases, ctx):
        return _ask_which(result, ctx, command_index)
    if ctx.options.confirm_security and not result.meta.confirmed:
        result.confirmation = _confirmation(result, ctx)
    return result


def _exclusion_unread(ir: QueryIR) -> bool:
    """What to leave out was said only in words the home does not know ("all the curtains
    except the sheer"); not when the exclusion named something known as well ("mais laisse
    celui de la master bedroom": "celui" is unknown, the room is not), nor for a lone
    character ("草" of 除草機, where 除 reads "except")."""
    excluded = (
        ir.scope_exclude
        or ir.floor_exclude
        or ir.exclude_mentions
        or ir.exclude_type_groups
        or ir.exclude_labels
    )
    return (
        Note.EXCLUSION_UNREAD in ir.notes
        and not excluded
        and any(_word_like(t) for t in ir.unknown_terms)
    )


def _ask_which(result: RetrievalResult, ctx: RunContext, command_index: int) -> RetrievalResult:
    """ "Which one do you mean: …?" over what the type word found: of those named with the
    word said ("床头灯": 左床头灯 and 右床头灯), when any are; the one so named is meant."""
    pool = _named_with_the_word(result, ctx) or result.selected_ids
    if len(pool) == 1:
        result.selected = [c for c in result.selected if c.entity_id == pool[0]]
        return result
    result.clarification = build_clarification(
        ctx.index, ctx.lex, pool, ctx.options.max_options, command_index
    )
    result.meta.clarification_pool = pool
    result.meta.clarification_primary = pool
    result.meta.one_of_several = len(pool)
    result.selected = []
    return result


# The question each action that waits for a yes asks (a message of the lexicon).
CONFIRM_MESSAGES = {"unlock": "confirm_unlock", "disarm": "confirm_disarm"}


def _confirmation(result: RetrievalResult, ctx: RunContext) -> ConfirmationRequest | None:
    """The yes/no question before unlocking, opening a garage door or gate or disarming."""
    table = ctx.lexicons.types
    action = result.ir.action
    if not table.confirms(action):  # most turns: nothing to ask of thousands of lights
        return None
    # The devices this action waits on, from the postings: a selection may be thousands of
    # lights, and the home has few locks, garage doors and alarms.
    needing = targets_members(
        ctx.index, [target for target, actions in table.confirm if action in actions]
    )
    waiting = [c.entity_id for c in result.selected if c.entity_id in needing]
    if not waiting:
        return None
    domains = {ctx.index.device(e).domain for e in waiting}
    kind = "unlock" if domains == {"lock"} else "disarm" if action == "disarm" else "open"
    names = ctx.lex.messages.get("list_and", " and ").join(
        option_label(ctx.index, ctx.lex, e)[0] for e in waiting
    )
    question = ctx.lex.message(CONFIRM_MESSAGES.get(kind, "confirm_open"), names=names)
    return ConfirmationRequest(question, tuple(waiting), action or "", ctx.lex.language)


def _unknown_target(ir: QueryIR, result: RetrievalResult, bases: set[Basis | None]) -> bool:
    """Words the home does not know beside a selection nothing named: the unknown words are
    the target ("the dishwasher"), the selection a stand-in for it."""
    unknown = [t for t in ir.unknown_terms if _word_like(t)]
    if not unknown or ir.action not in DEVICE_OBJECT_ACTIONS or ir.value is not None:
        return False
    implicit = result.meta.reference == "implicit"
    inferred = INFERRED | {Basis.REFERENCE} if implicit else INFERRED
    if Note.LABEL_BEGINS_A_NAME in ir.notes:
        inferred = inferred | {Basis.LABEL}
    return bases <= inferred


def _one_of_several(
    ir: QueryIR, result: RetrievalResult, bases: set[Basis | None], ctx: RunContext
) -> bool:
    """A request for one device of a kind, said with nothing that tells which."""
    # A setting with nothing said to set ("再亮一点" after a turn about a thermostat, "把亮度
    # 调到30%" in a new conversation) is for one device of the kind its words imply, not
    # for every light of the home.
    setting = bases == {Basis.ACTION} and (ir.change is not None or ir.value is not None)
    # "play some jazz" starts it on one player, not on every speaker of the home.
    started = bases == {Basis.ACTION} and ir.action in PLAYED_ON_ONE
    if len(result.selected) < 2 or not (bases == {Basis.TYPE} or setting or started):
        return False
    # "it" of a complaint ("it is too hot in the bedroom", "es ist zu warm") is no device
    # referred to: both bedrooms' ACs went on where "its too hot" asked which.
    if ir.several or ir.quantifier != "one" or (ir.references and ir.condition is None):
        return False
    if ir.rooms_by_kind and not ir.floor_include:
        # "把卧室的窗帘关上" with two bedrooms: which bedroom's, when they are in several.
        rooms = {ctx.index.device(c.entity_id).area_id for c in result.selected}
        return len(rooms) > 1
    if ir.mentions:
        return False
    narrowed = (
        ir.scope_include
        or ir.floor_include
        or ir.labels
        or ir.here
        or ir.everywhere
        or ir.states
        or result.meta.satellite_area
    )
    return not narrowed


def _word_like(term: str) -> bool:
    letters = [ch for ch in term if ch.isalnum()]
    if has_cjk(term):
        return len(letters) >= MIN_UNKNOWN_CJK
    return len(letters) >= MIN_UNKNOWN_LATIN


def _named_with_the_word(result: RetrievalResult, ctx: RunContext) -> list[str]:
    """The selected devices whose name holds a type word as said: a word of more than one
    character in CJK ("床头灯"), of more than one word in Latin scripts ("bedside lamp")."""
    said = [
        normalize(w)
        for w in result.ir.type_words
        if (has_cjk(w) and len(normalize(w)) > 1) or len(tokens(normalize(w))) > 1
    ]
    if not said:
        return []
    entries = ctx.index.entries
    return [
        e
        for e in result.selected_ids
        if any(w in name for w in said for name in entries[e].norm_names)
    ]
