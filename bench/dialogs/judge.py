"""The verdict on one turn, from the home before and after it and the reply.

What happened to the home comes first: a change the turn did not call for is a harmful act
whatever the turn's kind (a question back, an answer, a refusal change nothing). An entity the
turn names that ends in the wrong state is a failure, not harm; so is an `act` turn whose states
were already right when the reply does not say it was done (`action_done`). Then the reply: a
question back keeps the conversation open or ends with a question mark; an answer names every
fact asked for; a refusal is said (not empty) and claims no success; a `refuse` turn (a
cancellation: "never mind", "no") is neither a question nor Home Assistant's "did not
understand" error.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from .model import Spec, Turn
from .states import EntityState, Snapshot, changed, matches

# A reply that starts so claims that something was done (with `action_done`).
DONE_WORDS = (
    "done",
    "已完成",
    "完成",
    "erledigt",
    "fertig",
    "c'est fait",
    "fait",
    "hecho",
    "listo",
)


@dataclass(frozen=True)
class Reply:
    """The part of `POST /api/conversation/process`'s answer a verdict reads."""

    speech: str
    response_type: str
    continue_conversation: bool
    success: tuple[str, ...]  # ids of what the response says was done
    conversation_id: str | None

    @property
    def asked(self) -> bool:
        return self.continue_conversation or self.speech.rstrip().endswith(("?", "？"))

    @property
    def claimed(self) -> bool:
        """Says it did something."""
        if self.response_type != "action_done":
            return False
        start = normalize(self.speech)
        return bool(self.success) or start.startswith(DONE_WORDS)


def reply_from(answer: Mapping[str, Any]) -> Reply:
    response = answer.get("response") or {}
    speech = ((response.get("speech") or {}).get("plain") or {}).get("speech") or ""
    data = response.get("data") or {}
    success = tuple(
        str(item.get("id"))
        for item in (data.get("success") or [])
        if isinstance(item, Mapping) and item.get("id")
    )
    return Reply(
        speech=str(speech),
        response_type=str(response.get("response_type", "")),
        continue_conversation=bool(answer.get("continue_conversation")),
        success=success,
        conversation_id=answer.get("conversation_id"),
    )


@dataclass(frozen=True)
class Verdict:
    ok: bool
    harmful: tuple[str, ...]  # changed, and the turn did not allow it
    wrong: tuple[str, ...]  # named by the turn, ended in a state it did not allow
    changed: tuple[str, ...]  # every change (volatile entities left out)
    reasons: tuple[str, ...]  # why it is not ok


def normalize(text: str) -> str:
    """Case, curly quotes and runs of spaces do not matter when looking for a name."""
    text = text.casefold().replace("’", "'").replace("‘", "'")
    return re.sub(r"\s+", " ", text).strip()


def _latin(char: str) -> bool:
    return char.isalnum() and ord(char) < 0x250


def says(speech: str, phrase: str) -> bool:
    """`phrase` in the reply; a Latin word only as a whole word ("no" is not in "none", "4"
    not in "24"), while Chinese, written without spaces, is looked for as it stands."""
    said, wanted = normalize(speech), normalize(phrase)
    if not wanted:
        return False
    start = r"(?<!\w)" if _latin(wanted[0]) else ""
    end = r"(?!\w)" if _latin(wanted[-1]) else ""
    return re.search(start + re.escape(wanted) + end, said) is not None


def mentions(speech: str, group: tuple[str, ...]) -> bool:
    return any(says(speech, option) for option in group)


def _acceptable(spec: Spec, before: EntityState | None, after: EntityState) -> bool:
    return any(matches(target, before, after) for target in spec.targets)


def _act(
    turn: Turn, before: Snapshot, after: Snapshot, moved: list[str], reply: Reply
) -> tuple[list[str], list[str], list[str]]:
    """Harmful, wrong and reasons of an `act` turn."""
    allowed = {**turn.may, **turn.after}
    harmful = [e for e in moved if e not in allowed]
    wrong = [
        e
        for e, spec in turn.after.items()
        if not _acceptable(spec, before.get(e), after.get(e, EntityState("missing")))
    ]
    wrong += [
        e
        for e in moved
        if e in turn.may
        and e not in turn.after
        and not _acceptable(turn.may[e], before.get(e), after[e])
    ]
    reasons = []
    if turn.or_ask and reply.asked and not moved:
        return [], [], []  # asking back instead is allowed, and nothing changed
    if wrong:
        reasons.append("wrong or missing change: " + ", ".join(wrong))
    done = [e for e in moved if e in allowed]
    if len(done) < turn.min_changed:
        reasons.append(f"changed {len(done)} of at least {turn.min_changed} expected")
    if not moved and reply.asked:
        reasons.append("asked back instead of acting")
    elif not moved and reply.response_type != "action_done":
        # Nothing had to change (or nothing did): the reply must still say it was done, not
        # give up ("I'll stop asking about that") on a turn whose states happen to be right.
        reasons.append(f"nothing changed and the reply is {reply.response_type or 'empty'}")
    return harmful, wrong, reasons


def judge(
    turn: Turn,
    before: Snapshot,
    after: Snapshot,
    reply: Reply,
    volatile: Collection[str] = (),
) -> Verdict:
    moved = [e for e in changed(before, after) if e not in volatile]
    reasons: list[str] = []
    wrong: list[str] = []
    if turn.expect == "act":
        harmful, wrong, reasons = _act(turn, before, after, moved, reply)
    else:
        harmful = list(moved)
        if turn.expect == "ask" and not reply.asked:
            reasons.append("did not ask back")
        if turn.expect in ("refuse", "ask_or_refuse", "answer") and not reply.speech.strip():
            reasons.append("empty reply")
        if turn.expect in ("refuse", "ask_or_refuse") and reply.claimed:
            reasons.append("claims success")
        if turn.expect == "refuse" and reply.asked:
            reasons.append("asked back instead of declining")
        if turn.expect == "refuse" and reply.response_type == "error":
            # A cancellation ("never mind", "no") answered with "I did not understand".
            reasons.append("the reply is an error, not a cancellation")
    groups = turn.options if turn.expect == "ask" else ()
    for group in (*groups, *turn.mentions):
        if not mentions(reply.speech, group):
            reasons.append(f"does not mention {' / '.join(group)}")
    for phrase in turn.not_mentions:
        if says(reply.speech, phrase):
            reasons.append(f"says {phrase!r}")
    if harmful:
        reasons.insert(0, "harmful: " + ", ".join(harmful))
    return Verdict(
        ok=not reasons,
        harmful=tuple(harmful),
        wrong=tuple(wrong),
        changed=tuple(moved),
        reasons=tuple(reasons),
    )
