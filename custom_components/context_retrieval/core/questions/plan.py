"""Query plans: a question about the home compiles to data, never code.

A plan says which entities to look at (`where`: OR of AND-clauses of filters), what to return
(`select`ed attributes), how to aggregate (`list`, `count`, `min`, `max`, `avg`, `sum`) and in
what order. `validate_plan` turns untrusted JSON (from the LLM, a service call or the cache)
into a `QueryPlan` or raises `PlanError`: unknown fields, unknown operators, wrong value types
and oversized plans are all rejected, so whatever runs is one of a small set of read-only
operations over entity states.

    {"version": 1,
     "where": [[{"field": "type", "op": "in", "value": ["window"]},
                {"field": "status", "op": "eq", "value": "open"},
                {"field": "floor", "op": "in", "value": ["floor_2"]}]],
     "aggregate": "list", "limit": 50,
     "about": {"subject": "windows", "status": "open"}}
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

PLAN_VERSION = 1
MAX_CLAUSES = 8
MAX_FILTERS = 16  # per clause
MAX_VALUES = 50  # in an `in` list
MAX_SELECT = 16
MAX_LIMIT = 500
MAX_TEXT = 200

FIELDS = frozenset(
    {
        "entity_id",
        "domain",
        "device_class",
        "type",
        "area",
        "floor",
        "label",
        "name",
        "state",
        "status",
        "attribute",
    }
)
OPS = frozenset({"eq", "ne", "in", "gt", "lt", "contains"})
AGGREGATES = ("list", "count", "min", "max", "avg", "sum")
ORDERS = frozenset({"name", "area", "state", "entity_id", "measure", "last_changed"})
STATUSES = frozenset(
    {
        "on",
        "off",
        "open",
        "closed",
        "locked",
        "unlocked",
        "playing",
        "paused",
        "unavailable",
        "home",
        "away",
        "detected",
        "clear",
        "charging",
        "armed",
        "disarmed",
        "triggered",
    }
)
# Which operators make sense on which field.
_FIELD_OPS: dict[str, frozenset[str]] = {
    "entity_id": frozenset({"eq", "ne", "in", "contains"}),
    "domain": frozenset({"eq", "ne", "in"}),
    "device_class": frozenset({"eq", "ne", "in"}),
    "type": frozenset({"eq", "in"}),
    "area": frozenset({"eq", "ne", "in"}),
    "floor": frozenset({"eq", "ne", "in"}),
    "label": frozenset({"eq", "ne", "in", "contains"}),
    "name": frozenset({"eq", "ne", "in", "contains"}),
    "state": OPS,
    "status": frozenset({"eq", "ne", "in"}),
    "attribute": OPS,
}
_TOP_KEYS = frozenset(
    {
        "version",
        "where",
        "select",
        "aggregate",
        "measure",
        "order_by",
        "descending",
        "limit",
        "expect",
        "about",
    }
)
_FILTER_KEYS = frozenset({"field", "op", "value", "attribute", "unit"})
_ABOUT_KEYS = frozenset({"subject", "status", "measure", "place", "style"})
# How the answer is worded (`about.style`, set by the question compiler; see `answer`).
STYLES = frozenset(
    {"list", "count", "value", "min", "max", "avg", "sum", "yes_no", "yes_no_any", "yes_no_all"}
)

Scalar = str | float | int | bool | None
Aggregate = Literal["list", "count", "min", "max", "avg", "sum"]


class PlanError(ValueError):
    """A plan that may not run; `path` says where ("where[0][1].op")."""

    def __init__(self, reason: str, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.reason = reason
        self.path = path
        self.message = message


@dataclass(frozen=True, slots=True)
class Filter:
    field: str
    op: str
    value: Scalar | tuple[Scalar, ...]
    attribute: str | None = None  # for field == "attribute"
    unit: str | None = None  # the unit of a number compared with gt/lt ("°C", "%")

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "field": self.field,
            "op": self.op,
            "value": list(self.value) if isinstance(self.value, tuple) else self.value,
        }
        if self.attribute is not None:
            data["attribute"] = self.attribute
        if self.unit is not None:
            data["unit"] = self.unit
        return data


@dataclass(frozen=True, slots=True)
class QueryPlan:
    where: tuple[tuple[Filter, ...], ...]
    select: tuple[str, ...] = ()
    aggregate: Aggregate = "list"
    measure: str | None = None  # "state" or "attribute:<name>" for min/max/avg/sum
    order_by: str | None = None
    descending: bool = False
    limit: int = 50
    expect: str | None = None  # a status: the question is "is it …?"
    about: dict[str, str] = field(default_factory=dict)  # the asker's words, for the answer

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "version": PLAN_VERSION,
            "where": [[f.as_dict() for f in clause] for clause in self.where],
            "aggregate": self.aggregate,
            "limit": self.limit,
        }
        if self.select:
            data["select"] = list(self.select)
        if self.measure is not None:
            data["measure"] = self.measure
        if self.order_by is not None:
            data["order_by"] = self.order_by
            data["descending"] = self.descending
        if self.expect is not None:
            data["expect"] = self.expect
        if self.about:
            data["about"] = dict(self.about)
        return data


def validate_plan(data: Any, type_ids: frozenset[str] | None = None) -> QueryPlan:
    """Check untrusted plan data and build the plan. `type_ids`, when given, are the device
    types a `type` filter may name. Each field is checked in turn; the first fault raises
    a `PlanError` that names it."""
    data = _plan_object(data)
    where = _where(data, type_ids)
    select_raw = data.get("select", [])
    if (
        not isinstance(select_raw, list)
        or len(select_raw) > MAX_SELECT
        or not all(_is_name(s) for s in select_raw)
    ):
        raise PlanError(
            "bad_select", "select", f"select must be a list of at most {MAX_SELECT} attribute names"
        )
    aggregate = data.get("aggregate", "list")
    if aggregate not in AGGREGATES:
        raise PlanError("bad_aggregate", "aggregate", f"unknown aggregate {_shown(aggregate)}")
    measure = _measure(data.get("measure"), aggregate)
    order_by = data.get("order_by")
    if order_by is not None and (not isinstance(order_by, str) or order_by not in ORDERS):
        raise PlanError("bad_order", "order_by", f"unknown order {_shown(order_by)}")
    descending = data.get("descending", False)
    if not isinstance(descending, bool):
        raise PlanError("bad_order", "descending", "descending must be true or false")
    limit = data.get("limit", 50)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise PlanError("bad_limit", "limit", f"limit must be 1–{MAX_LIMIT}")
    expect = data.get("expect")
    if expect is not None and (not isinstance(expect, str) or expect not in STATUSES):
        raise PlanError("bad_status", "expect", f"unknown status {_shown(expect)}")
    return QueryPlan(
        where=where,
        select=tuple(select_raw),
        aggregate=aggregate,
        measure=measure,
        order_by=order_by,
        descending=descending,
        limit=limit,
        expect=expect,
        about=_about(data.get("about", {})),
    )


def _plan_object(data: Any) -> Mapping[str, Any]:
    """The plan as an object of known keys and the current version (parsed when text)."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as err:
            raise PlanError("not_json", "", "the plan is not JSON") from err
    if not isinstance(data, Mapping):
        raise PlanError("not_object", "", "a plan must be an object")
    _no_unknown(data, _TOP_KEYS, "")
    version = data.get("version", PLAN_VERSION)
    if isinstance(version, bool) or version != PLAN_VERSION:
        raise PlanError("bad_version", "version", f"unknown plan version {_shown(version)}")
    return data


def _where(
    data: Mapping[str, Any], type_ids: frozenset[str] | None
) -> tuple[tuple[Filter, ...], ...]:
    where_raw = data.get("where")
    if not isinstance(where_raw, list) or not where_raw:
        raise PlanError("bad_where", "where", "where must be a non-empty list of clauses")
    if len(where_raw) > MAX_CLAUSES:
        raise PlanError("too_big", "where", f"at most {MAX_CLAUSES} clauses")
    return tuple(_clause(c, f"where[{i}]", type_ids) for i, c in enumerate(where_raw))


def _measure(measure: Any, aggregate: str) -> str | None:
    """'state' or 'attribute:<name>'; an aggregate of numbers measures the state by default."""
    if measure is not None and not (
        measure == "state"
        or (
            isinstance(measure, str)
            and measure.startswith("attribute:")
            and _is_name(measure.split(":", 1)[1])
        )
    ):
        raise PlanError("bad_measure", "measure", "measure must be 'state' or 'attribute:<name>'")
    if aggregate in ("min", "max", "avg", "sum") and measure is None:
        return "state"
    return cast("str | None", measure)


def _about(about_raw: Any) -> dict[str, str]:
    """The words the answer is said with: short texts of known keys, a known style."""
    if not isinstance(about_raw, Mapping):
        raise PlanError("bad_about", "about", "about must be an object")
    _no_unknown(about_raw, _ABOUT_KEYS, "about")
    about = {}
    for key, value in about_raw.items():
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise PlanError("bad_about", f"about.{key}", "must be short text")
        if key == "style" and value not in STYLES:
            raise PlanError("bad_about", "about.style", f"unknown style {_shown(value)}")
        about[str(key)] = value
    return about


def _no_unknown(data: Mapping[str, Any], allowed: frozenset[str], path: str) -> None:
    unknown = sorted(
        k if isinstance(k, str) and len(k) <= 40 else _shown(k) for k in data if k not in allowed
    )
    if unknown:
        raise PlanError("unknown_field", path, f"unknown field(s): {', '.join(unknown)}")


def _shown(value: Any) -> str:
    """Untrusted input for an error message: short, and never a deep or huge repr."""
    if value is None or isinstance(value, bool | int | float | str):
        try:
            text = repr(value)
        except ValueError:  # an int with more digits than Python will print
            return "<a huge number>"
        return text if len(text) <= 40 else text[:39] + "…"
    return f"<{type(value).__name__}>"


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT


def _clause(raw: Any, path: str, type_ids: frozenset[str] | None) -> tuple[Filter, ...]:
    if not isinstance(raw, list):
        raise PlanError("bad_where", path, "a clause must be a list of filters")
    if len(raw) > MAX_FILTERS:
        raise PlanError("too_big", path, f"at most {MAX_FILTERS} filters per clause")
    return tuple(_filter(f, f"{path}[{i}]", type_ids) for i, f in enumerate(raw))


def _filter(raw: Any, path: str, type_ids: frozenset[str] | None) -> Filter:
    if not isinstance(raw, Mapping):
        raise PlanError("bad_filter", path, "a filter must be an object")
    _no_unknown(raw, _FILTER_KEYS, path)
    name = raw.get("field")
    if not isinstance(name, str) or name not in FIELDS:
        raise PlanError("unknown_field", f"{path}.field", f"unknown field {_shown(name)}")
    op = raw.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise PlanError("unknown_op", f"{path}.op", f"unknown operator {_shown(op)}")
    if op not in _FIELD_OPS[name]:
        raise PlanError("bad_op", f"{path}.op", f"{op} does not apply to {name}")
    attribute = raw.get("attribute")
    if name == "attribute":
        if not _is_name(attribute):
            raise PlanError("bad_filter", f"{path}.attribute", "which attribute?")
    elif attribute is not None:
        raise PlanError("bad_filter", f"{path}.attribute", "only attribute filters name one")
    unit = raw.get("unit")
    if unit is not None and (not isinstance(unit, str) or len(unit) > 16):
        raise PlanError("bad_filter", f"{path}.unit", "unit must be short text")
    value = _value(raw.get("value"), op, f"{path}.value")
    if name == "status":
        for v in value if isinstance(value, tuple) else (value,):
            if v not in STATUSES:
                raise PlanError("bad_status", f"{path}.value", f"unknown status {_shown(v)}")
    if name == "type" and type_ids is not None:
        for v in value if isinstance(value, tuple) else (value,):
            if v not in type_ids:
                raise PlanError("bad_type", f"{path}.value", f"unknown device type {_shown(v)}")
    return Filter(field=name, op=op, value=value, attribute=attribute, unit=unit)


def _value(raw: Any, op: str, path: str) -> Scalar | tuple[Scalar, ...]:
    if op in ("gt", "lt"):
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not _finite(raw):
            raise PlanError("bad_value", path, f"{op} needs a number")
        return raw
    if op == "in":
        if not isinstance(raw, list) or not raw or len(raw) > MAX_VALUES:
            raise PlanError("bad_value", path, f"in needs a list of 1–{MAX_VALUES} values")
        return tuple(_scalar(v, path) for v in raw)
    if op == "contains" and not (isinstance(raw, str) and raw):
        raise PlanError("bad_value", path, "contains needs text")
    return _scalar(raw, path)


def _finite(number: int | float) -> bool:
    """A number a float can hold: not NaN/inf, and not an int too big to convert."""
    try:
        return math.isfinite(number)
    except OverflowError:
        return False


def _scalar(raw: Any, path: str) -> Scalar:
    if raw is None or isinstance(raw, bool):
        return raw
    if isinstance(raw, int | float):
        if not _finite(raw):
            raise PlanError("bad_value", path, "numbers must be finite")
        return raw
    if isinstance(raw, str):
        if len(raw) > MAX_TEXT:
            raise PlanError("bad_value", path, f"text longer than {MAX_TEXT} characters")
        return raw
    raise PlanError("bad_value", path, "values must be text, numbers, true/false or null")
