"""The tables every language shares: what type and state words mean in Home Assistant terms
(`types.json`) and what values mean (`values.json`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..text import normalize

Target = tuple[str, str | None]  # (domain, device_class or None for any)


@dataclass(frozen=True, slots=True)
class TypeSpec:
    """What a type word means: tiers of (domain, device_class) targets."""

    type_id: str
    tiers: tuple[tuple[Target, ...], ...]
    name_domains: frozenset[str] = frozenset()
    # A kind within its domain that only names tell apart: "air purifier" is a fan whose name
    # says so (`name_only`: no other fan is one); "空调" is a thermostat named as an air
    # conditioner when any is (`named_first`: floor heating is not), else any thermostat.
    name_only: bool = False
    named_first: bool = False

    @property
    def domains(self) -> frozenset[str]:
        return frozenset(d for tier in self.tiers for d, _ in tier)


@dataclass(frozen=True, slots=True)
class ConditionRule:
    """What a complaint about a room asks for ("too dark": the lights on): the first of
    `types` with devices there that can do `action`."""

    types: tuple[str, ...]
    action: str
    change: str | None = None
    # When those devices are on already: the step to take instead ("a degree cooler").
    then_action: str | None = None
    then_change: str | None = None


@dataclass(frozen=True, slots=True)
class TypeTable:
    types: dict[str, TypeSpec]
    states: dict[str, tuple[tuple[Target, ...], ...]]  # state → tiers of targets
    defaults: dict[str, str] = field(default_factory=dict)
    # Types whose word said alone asks for their reading ("kitchen temperature").
    asked_alone: frozenset[str] = frozenset()
    # Devices that guard the home, and per target the actions done only once the user agrees.
    security: tuple[Target, ...] = ()
    confirm: tuple[tuple[Target, frozenset[str]], ...] = ()
    # The domains switching "everything" reaches.
    everything: frozenset[str] = frozenset()
    conditions: dict[str, ConditionRule] = field(default_factory=dict)

    def is_security(self, domain: str, device_class: str | None) -> bool:
        return any(_matches(t, domain, device_class) for t in self.security)

    def confirms(self, action: str | None) -> bool:
        """Whether `action` waits for a yes on any device at all."""
        return action is not None and any(action in actions for _, actions in self.confirm)


def _matches(target: Target, domain: str, device_class: str | None) -> bool:
    return target[0] == domain and (target[1] is None or target[1] == device_class)


@dataclass(frozen=True, slots=True)
class ActionValue:
    """What a set action sets: the attribute, the unit a bare number is in, and the range
    Home Assistant accepts (by unit when the unit decides it)."""

    attribute: str
    unit: str | None = None
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ValueTable:
    """The language-independent meaning of values (`values.json`)."""

    actions: dict[str, ActionValue] = field(default_factory=dict)
    percent_by_domain: dict[str, str] = field(default_factory=dict)
    degrees_action: str | None = None
    kelvin_action: str | None = None
    levels: dict[str, float] = field(default_factory=dict)
    color_temps: dict[str, float] = field(default_factory=dict)
    attribute_types: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Unit spellings every language shares ("k", "kelvin", "°c") → unit.
    unit_symbols: dict[str, str] = field(default_factory=dict)


def load_types(path: Path) -> TypeTable:
    data = json.loads(path.read_text(encoding="utf-8"))
    types: dict[str, TypeSpec] = {}
    for type_id, spec in data.get("types", {}).items():
        if type_id.startswith("_"):
            continue
        tiers = tuple(tuple((str(d), c) for d, c in tier) for tier in spec["tiers"])
        types[type_id] = TypeSpec(
            type_id=type_id,
            tiers=tiers,
            name_domains=frozenset(spec.get("name_domains", [])),
            name_only=bool(spec.get("name_only", False)),
            named_first=bool(spec.get("named_first", False)),
        )
    states = {
        state: tuple(tuple((str(d), c) for d, c in tier) for tier in tiers)
        for state, tiers in data.get("states", {}).items()
        if not state.startswith("_")
    }
    defaults = {k: str(v) for k, v in data.get("defaults", {}).items() if not k.startswith("_")}
    asked_alone = frozenset(str(t) for t in data.get("asked_alone", {}).get("types", []))
    security = data.get("security", {})
    return TypeTable(
        types=types,
        states=states,
        defaults=defaults,
        asked_alone=asked_alone,
        security=tuple(_target(t) for t in security.get("targets", [])),
        everything=frozenset(str(d) for d in data.get("everything", {}).get("domains", [])),
        conditions={
            str(name): ConditionRule(
                tuple(str(t) for t in rule["types"]),
                str(rule["action"]),
                rule.get("change"),
                (rule.get("then") or {}).get("action"),
                (rule.get("then") or {}).get("change"),
            )
            for name, rule in data.get("conditions", {}).items()
            if not str(name).startswith("_")
        },
        confirm=tuple(
            (_target(rule["target"]), frozenset(str(a) for a in rule["actions"]))
            for rule in security.get("confirm", [])
        ),
    )


def _target(raw: list[str | None]) -> Target:
    domain, device_class = raw
    return (str(domain), None if device_class is None else str(device_class))


def load_values(path: Path) -> ValueTable:
    data = json.loads(path.read_text(encoding="utf-8"))
    actions: dict[str, ActionValue] = {}
    for action, spec in data.get("actions", {}).items():
        if action.startswith("_"):
            continue
        ranges: dict[str, tuple[float, float]] = {}
        if "range" in spec:
            low, high = spec["range"]
            ranges[str(spec.get("unit") or "")] = (float(low), float(high))
        for unit, (low, high) in spec.get("ranges", {}).items():
            ranges[str(unit)] = (float(low), float(high))
        actions[action] = ActionValue(str(spec["attribute"]), spec.get("unit"), ranges)

    def numbers(section: str) -> dict[str, float]:
        return {k: float(v) for k, v in data.get(section, {}).items() if not k.startswith("_")}

    return ValueTable(
        actions=actions,
        percent_by_domain={
            k: str(v) for k, v in data.get("percent_by_domain", {}).items() if not k.startswith("_")
        },
        degrees_action=data.get("degrees_action"),
        kelvin_action=data.get("kelvin_action"),
        levels=numbers("levels"),
        color_temps=numbers("color_temps"),
        attribute_types={
            k: tuple(v) for k, v in data.get("attribute_types", {}).items() if not k.startswith("_")
        },
        unit_symbols={
            normalize(word): str(unit)
            for unit, words in data.get("unit_symbols", {}).items()
            if not unit.startswith("_")
            for word in words
        },
    )
