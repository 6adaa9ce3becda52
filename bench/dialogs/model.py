"""What a dialog of the benchmark is, and how one line of the data files reads into it.

A dialog is a few turns said to one conversation, in one language, from a known state of the
demo home. Each turn declares what must happen: `act` (these entities end in these states, and
nothing else changes), `ask` (a question back, nothing changes), `answer` (the reply states these
facts, nothing changes), `refuse` (no change, a reply that neither claims success nor asks) or
`ask_or_refuse`. The data is written by hand: `parse_dialog` checks its shape and says where it
is wrong, and the loader checks it against the home.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# The language of a dialog → the tag sent to Home Assistant.
LANGUAGES: dict[str, str] = {"en": "en", "zh": "zh-Hans", "de": "de", "fr": "fr", "es": "es"}
KINDS = ("act", "ask", "answer", "refuse", "ask_or_refuse")
CATEGORIES = (
    "plain",
    "asr",
    "multi",
    "followup",
    "pending",
    "question",
    "nonexistent",
    "negation",
    "indirect",
    "security",
)
# A value a turn sets or a dialog gives, by its name in the data: the state attribute that holds
# it, the factor from the attribute to the data's unit, and how far an exact value may be off.
VALUES: dict[str, tuple[str, float, float]] = {
    "brightness": ("brightness", 100 / 255, 1.0),  # percent of 255
    "position": ("current_position", 1.0, 1.0),  # percent open
    "temperature": ("temperature", 1.0, 0.1),  # target degrees
    "humidity": ("humidity", 1.0, 1.0),  # target percent
    "volume": ("volume_level", 100.0, 1.0),  # percent
    "percentage": ("percentage", 1.0, 1.0),  # fan speed percent
}


class DataError(ValueError):
    """A dialog of the data files is malformed; the message says which and where."""


@dataclass(frozen=True)
class Target:
    """One acceptable final value of an entity: a state (any of `states`; None: any state),
    values within ranges, or (`changed`) any change at all (a scene's or script's state is the
    time it last ran)."""

    states: tuple[str, ...] | None = None
    ranges: tuple[tuple[str, float, float], ...] = ()
    changed: bool = False


@dataclass(frozen=True)
class Spec:
    """The acceptable outcomes of one entity: any of its targets."""

    targets: tuple[Target, ...]


@dataclass(frozen=True)
class Given:
    """A state a dialog starts from: the entity's state and values (in the data's units)."""

    state: str | None = None
    values: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Turn:
    say: str
    expect: str  # one of KINDS
    category: str
    after: Mapping[str, Spec] = field(default_factory=dict)  # act: must end so
    may: Mapping[str, Spec] = field(default_factory=dict)  # act: may change, only so
    or_ask: bool = False  # act: asking back (changing nothing) passes too
    min_changed: int = 0  # act: at least this many of after ∪ may must change
    options: tuple[tuple[str, ...], ...] = ()  # ask: each group named in the question
    mentions: tuple[tuple[str, ...], ...] = ()  # each group named in the reply
    not_mentions: tuple[str, ...] = ()  # none of these in the reply
    whole_home: bool = False  # the whole-home command timed on its own
    note: str = ""


@dataclass(frozen=True)
class Dialog:
    id: str
    lang: str  # a key of LANGUAGES
    category: str
    turns: tuple[Turn, ...]
    given: Mapping[str, Given] = field(default_factory=dict)
    unexposed: tuple[str, ...] = ()  # not exposed to Assist during this dialog
    note: str = ""
    source: str = ""  # file:line

    @property
    def language_tag(self) -> str:
        return LANGUAGES[self.lang]


# An `after`/`may` key of the data → the entity ids it stands for (a selector such as
# "light@kitchen" expands to several); raises DataError for an unknown one.
Expand = Callable[[str], list[str]]

_TURN_KEYS = {
    "say",
    "expect",
    "category",
    "after",
    "may",
    "or_ask",
    "min_changed",
    "options",
    "mentions",
    "not_mentions",
    "whole_home",
    "note",
}
_DIALOG_KEYS = {"id", "lang", "category", "given", "unexposed", "turns", "note"}


def _number_range(name: str, raw: Any, where: str) -> tuple[str, float, float]:
    if name not in VALUES:
        raise DataError(f"{where}: unknown value {name!r} (known: {', '.join(VALUES)})")
    tolerance = VALUES[name][2]
    if isinstance(raw, bool):
        raise DataError(f"{where}: {name} must be a number or [low, high]")
    if isinstance(raw, int | float):
        return name, float(raw) - tolerance, float(raw) + tolerance
    if (
        isinstance(raw, list)
        and len(raw) == 2
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in raw)
        and raw[0] <= raw[1]
    ):
        return name, float(raw[0]), float(raw[1])
    raise DataError(f"{where}: {name} must be a number or [low, high], not {raw!r}")


def _target(raw: Any, where: str) -> Target:
    if isinstance(raw, str):
        return Target(states=(raw,))
    if not isinstance(raw, dict):
        raise DataError(f"{where}: a state, an object or a list of them, not {raw!r}")
    if raw.get("changed") is True:
        if len(raw) != 1:
            raise DataError(f"{where}: 'changed' stands alone")
        return Target(changed=True)
    states: tuple[str, ...] | None = None
    if "state" in raw:
        state = raw["state"]
        if isinstance(state, str):
            states = (state,)
        elif isinstance(state, list) and state and all(isinstance(s, str) for s in state):
            states = tuple(state)
        else:
            raise DataError(f"{where}: state must be a string or a list of strings")
    ranges = tuple(
        _number_range(name, value, where) for name, value in raw.items() if name != "state"
    )
    if states is None and not ranges:
        raise DataError(f"{where}: says nothing about the entity")
    return Target(states=states, ranges=ranges)


def parse_spec(raw: Any, where: str) -> Spec:
    alternatives = raw if isinstance(raw, list) else [raw]
    if not alternatives:
        raise DataError(f"{where}: an empty list of outcomes")
    return Spec(tuple(_target(item, where) for item in alternatives))


def _specs(raw: Any, expand: Expand, where: str) -> dict[str, Spec]:
    """Selectors first, then the entity ids named one by one (they win); null drops an entity
    (or a narrower selector's entities) from what a selector listed: its change is then
    harmful. Within each of the two, the nulls come last, whatever the order written."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise DataError(f"{where}: an object of entity → outcome")
    result: dict[str, Spec] = {}
    ordered = sorted(raw.items(), key=lambda item: ("." in item[0], item[1] is None))
    for key, value in ordered:
        ids = expand(key)
        if not ids:
            raise DataError(f"{where}: {key!r} stands for no entity")
        for entity_id in ids:
            if value is None:
                result.pop(entity_id, None)
            else:
                result[entity_id] = parse_spec(value, f"{where} {key}")
    return result


def _groups(raw: Any, where: str) -> tuple[tuple[str, ...], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise DataError(f"{where}: a list of groups of acceptable strings")
    groups = []
    for group in raw:
        items = [group] if isinstance(group, str) else group
        if not isinstance(items, list) or not items or not all(isinstance(s, str) for s in items):
            raise DataError(f"{where}: each group is a string or a list of strings")
        groups.append(tuple(items))
    return tuple(groups)


def _strings(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        raise DataError(f"{where}: a list of strings")
    return tuple(raw)


def parse_turn(raw: Any, default_category: str, expand: Expand, where: str) -> Turn:
    if not isinstance(raw, dict):
        raise DataError(f"{where}: a turn is an object")
    unknown = set(raw) - _TURN_KEYS
    if unknown:
        raise DataError(f"{where}: unknown keys {sorted(unknown)}")
    say, expect = raw.get("say"), raw.get("expect")
    if not isinstance(say, str) or not say.strip():
        raise DataError(f"{where}: 'say' must be a non-empty string")
    if expect not in KINDS:
        raise DataError(f"{where}: 'expect' must be one of {KINDS}, not {expect!r}")
    category = raw.get("category", default_category)
    if category not in CATEGORIES:
        raise DataError(f"{where}: unknown category {category!r}")
    after = _specs(raw.get("after"), expand, f"{where} after")
    may = _specs(raw.get("may"), expand, f"{where} may")
    or_ask = raw.get("or_ask", False)
    min_changed = raw.get("min_changed", 0)
    if not isinstance(or_ask, bool) or not isinstance(min_changed, int):
        raise DataError(f"{where}: or_ask is true/false, min_changed a whole number")
    if expect != "act" and (after or may or or_ask or min_changed):
        raise DataError(f"{where}: after/may/or_ask/min_changed belong to 'act' turns")
    if expect == "act" and not after and not min_changed:
        raise DataError(f"{where}: an 'act' turn requires some change (after or min_changed)")
    options = _groups(raw.get("options"), f"{where} options")
    if options and expect != "ask":
        raise DataError(f"{where}: options belong to 'ask' turns")
    mentions = _groups(raw.get("mentions"), f"{where} mentions")
    if expect == "answer" and not mentions:
        raise DataError(f"{where}: an 'answer' turn names the facts it must mention")
    whole_home = raw.get("whole_home", False)
    note = raw.get("note", "")
    if not isinstance(whole_home, bool) or not isinstance(note, str):
        raise DataError(f"{where}: whole_home is true/false, note a string")
    return Turn(
        say=say,
        expect=expect,
        category=category,
        after=after,
        may=may,
        or_ask=or_ask,
        min_changed=min_changed,
        options=options,
        mentions=mentions,
        not_mentions=_strings(raw.get("not_mentions"), f"{where} not_mentions"),
        whole_home=whole_home,
        note=note,
    )


def parse_given(raw: Any, where: str) -> Given:
    if isinstance(raw, str):
        return Given(state=raw)
    if not isinstance(raw, dict):
        raise DataError(f"{where}: a state or an object of state and values")
    state = raw.get("state")
    if state is not None and not isinstance(state, str):
        raise DataError(f"{where}: state must be a string")
    values = []
    for name, value in raw.items():
        if name == "state":
            continue
        if name not in VALUES or isinstance(value, bool) or not isinstance(value, int | float):
            raise DataError(f"{where}: {name} must be a known value with a number")
        values.append((name, float(value)))
    return Given(state=state, values=tuple(values))


def parse_dialog(raw: Any, expand: Expand, source: str = "") -> Dialog:
    where = source or "dialog"
    if not isinstance(raw, dict):
        raise DataError(f"{where}: a dialog is an object")
    unknown = set(raw) - _DIALOG_KEYS
    if unknown:
        raise DataError(f"{where}: unknown keys {sorted(unknown)}")
    dialog_id, lang, category = raw.get("id"), raw.get("lang"), raw.get("category")
    if not isinstance(dialog_id, str) or not dialog_id:
        raise DataError(f"{where}: 'id' must be a non-empty string")
    where = f"{where} ({dialog_id})"
    if lang not in LANGUAGES:
        raise DataError(f"{where}: 'lang' must be one of {sorted(LANGUAGES)}")
    if category not in CATEGORIES:
        raise DataError(f"{where}: unknown category {category!r}")
    turns_raw = raw.get("turns")
    if not isinstance(turns_raw, list) or not turns_raw:
        raise DataError(f"{where}: 'turns' must be a non-empty list")
    turns = tuple(
        parse_turn(turn, category, expand, f"{where} turn {i + 1}")
        for i, turn in enumerate(turns_raw)
    )
    given_raw = raw.get("given") or {}
    if not isinstance(given_raw, dict):
        raise DataError(f"{where}: 'given' is an object of entity → state")
    given = {}
    for key, value in given_raw.items():
        for entity_id in expand(key):
            given[entity_id] = parse_given(value, f"{where} given {key}")
    unexposed = _strings(raw.get("unexposed"), f"{where} unexposed")
    note = raw.get("note", "")
    if not isinstance(note, str):
        raise DataError(f"{where}: note must be a string")
    return Dialog(
        id=dialog_id,
        lang=lang,
        category=category,
        turns=turns,
        given=given,
        unexposed=unexposed,
        note=note,
        source=source,
    )
