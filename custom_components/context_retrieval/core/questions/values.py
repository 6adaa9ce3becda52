"""What a state means: statuses that read the same across domains ("open" is an open cover,
door, window or valve; `statuses.json`), and numbers with their units (°C/°F/K, W/kW,
Wh/kWh/MWh, %)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..base.lexicon import LEXICON_DIR
from .rows import StateRow

_STATUS_FILE = LEXICON_DIR / "statuses.json"
_KINDS_FILE = LEXICON_DIR / "status_kinds.json"
Kind = tuple[str, str | None]  # (domain, device class)


@dataclass(frozen=True, slots=True)
class StatusRule:
    domains: frozenset[str] | None
    device_classes: frozenset[str] | None
    states: frozenset[str] | None
    not_states: frozenset[str] | None


@cache
def load_statuses(path: Path = _STATUS_FILE) -> dict[str, tuple[StatusRule, ...]]:
    """The status table (`statuses.json`): shared by every language."""
    data = json.loads(path.read_text(encoding="utf-8"))
    table: dict[str, tuple[StatusRule, ...]] = {}
    for status, rules in data.items():
        if status.startswith("_"):
            continue
        table[status] = tuple(
            StatusRule(
                domains=frozenset(r["domains"]) if "domains" in r else None,
                device_classes=frozenset(r["device_classes"]) if "device_classes" in r else None,
                states=frozenset(r["states"]) if "states" in r else None,
                not_states=frozenset(r["not_states"]) if "not_states" in r else None,
            )
            for r in rules
        )
    return table


def has_status(
    row: StateRow, status: str, table: Mapping[str, tuple[StatusRule, ...]] | None = None
) -> bool:
    rule = rule_for((table or load_statuses()).get(status, ()), row.domain, row.device_class)
    return rule is not None and state_check([rule])(row.state)


def state_check(rules: list[StatusRule]) -> Callable[[str], bool]:
    """Whether a state has the status, under the rules that fit one kind of entity."""

    def one(rule: StatusRule) -> Callable[[str], bool]:
        if rule.states is not None:
            return rule.states.__contains__
        if rule.not_states is not None:
            excluded = rule.not_states
            return lambda state: state not in excluded
        return lambda state: False

    tests = [one(r) for r in rules]
    if not tests:
        return lambda state: False
    if len(tests) == 1:
        return tests[0]
    return lambda state: any(t(state) for t in tests)


def rule_for(
    rules: tuple[StatusRule, ...], domain: str, device_class: str | None
) -> StatusRule | None:
    """The first rule that fits this kind of entity (as `has_status` picks it)."""
    for rule in rules:
        if rule.domains is not None and domain not in rule.domains:
            continue
        if rule.device_classes is not None and device_class not in rule.device_classes:
            continue
        return rule
    return None


@dataclass(frozen=True, slots=True)
class StatusKinds:
    """Which devices answer a status (`status_kinds.json`): `answered_by` limits a status to
    some kinds (only locks are locked; a lock is never an open door), `also` says what a
    status word means for a device it does not fit ("open" of a lock is "unlocked")."""

    answered_by: Mapping[str, frozenset[Kind]]
    also: Mapping[str, tuple[str, ...]]
    every_tier: frozenset[str] = frozenset()  # types whose every tier is asked (doors)
    every_one: frozenset[str] = frozenset()  # safe states: "is the door locked?" asks all


@cache
def load_status_kinds(path: Path = _KINDS_FILE) -> StatusKinds:
    data = json.loads(path.read_text(encoding="utf-8"))
    return StatusKinds(
        answered_by={
            status: frozenset((str(d), c) for d, c in kinds)
            for status, kinds in data.get("answered_by", {}).items()
        },
        also={status: tuple(others) for status, others in data.get("also", {}).items()},
        every_tier=frozenset(data.get("every_tier", ())),
        every_one=frozenset(data.get("every_one", ())),
    )


def answers(
    status: str,
    kind: Kind,
    table: Mapping[str, tuple[StatusRule, ...]],
    kinds: StatusKinds,
) -> bool:
    """Whether a device of this kind can have the status at all: a rule fits it (one that
    lists no state says it never has it) and, where the status is limited, it is of a kind
    that answers it."""
    domain, device_class = kind
    only = kinds.answered_by.get(status)
    if only is not None and kind not in only and (domain, None) not in only:
        return False
    rule = rule_for(table.get(status, ()), domain, device_class)
    return rule is not None and rule.states != frozenset()


def meaning(
    status: str,
    kind: Kind,
    table: Mapping[str, tuple[StatusRule, ...]],
    kinds: StatusKinds,
    named: bool,
) -> str | None:
    """The status a word means for a device of this kind, or None when the device cannot
    have it ("is the light locked?"). When the question names the device or its kind, a
    word that does not fit it means the first of its `also` that does ("open" of a lock is
    "unlocked")."""
    for candidate in (status, *(kinds.also.get(status, ()) if named else ())):
        if answers(candidate, kind, table, kinds):
            return candidate
    return None


# --- numbers and units -----------------------------------------------------------------------

_UNIT_ALIASES = {
    "°c": "°C",
    "c": "°C",
    "℃": "°C",
    "celsius": "°C",
    "°f": "°F",
    "f": "°F",
    "℉": "°F",
    "k": "K",
    "w": "W",
    "kw": "kW",
    "wh": "Wh",
    "kwh": "kWh",
    "mwh": "MWh",
    "%": "%",
}
# unit → (dimension, factor to the base unit); temperatures are handled apart (offsets).
_SCALE = {
    "W": ("power", 1.0),
    "kW": ("power", 1000.0),
    "Wh": ("energy", 1.0),
    "kWh": ("energy", 1000.0),
    "MWh": ("energy", 1_000_000.0),
    "%": ("percent", 1.0),
}
_TEMPERATURE = frozenset({"°C", "°F", "K"})


def canonical_unit(unit: str | None) -> str | None:
    if not unit:
        return None
    return _UNIT_ALIASES.get(unit.strip().lower(), unit.strip())


def number(value: Any) -> float | None:
    """A finite number from a state or attribute, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            return float(value) if math.isfinite(value) else None
        except OverflowError:  # an int too big for a float
            return None
    if isinstance(value, str):
        try:
            parsed = float(value.strip().replace(",", "."))
        except ValueError:
            return None
        return parsed if math.isfinite(parsed) else None
    return None


def convert(value: float, from_unit: str | None, to_unit: str | None) -> float | None:
    """`value` in `from_unit` expressed in `to_unit`; None when they do not convert."""
    a, b = canonical_unit(from_unit), canonical_unit(to_unit)
    if a == b or a is None or b is None:
        return value if a == b or b is None or a is None else None
    if a in _TEMPERATURE and b in _TEMPERATURE:
        celsius = value if a == "°C" else (value - 32) * 5 / 9 if a == "°F" else value - 273.15
        return celsius if b == "°C" else celsius * 9 / 5 + 32 if b == "°F" else celsius + 273.15
    if a in _SCALE and b in _SCALE and _SCALE[a][0] == _SCALE[b][0]:
        return value * _SCALE[a][1] / _SCALE[b][1]
    return None
