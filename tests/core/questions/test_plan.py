"""core/questions/plan.py: valid shapes round-trip, malformed ones are refused with a reason."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from custom_components.context_retrieval.core.questions.plan import (
    AGGREGATES,
    FIELDS,
    MAX_CLAUSES,
    MAX_FILTERS,
    MAX_LIMIT,
    MAX_SELECT,
    MAX_TEXT,
    MAX_VALUES,
    OPS,
    ORDERS,
    STATUSES,
    Filter,
    PlanError,
    QueryPlan,
    validate_plan,
)

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TYPE_IDS = frozenset({"light", "window", "temperature", "battery"})


def filt(
    field: Any = "domain", op: Any = "eq", value: Any = "light", **extra: Any
) -> dict[str, Any]:
    return {"field": field, "op": op, "value": value, **extra}


def plan(*filters: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"version": 1, "where": [list(filters) or [filt()]], **top}


def rejected(data: Any, type_ids: frozenset[str] | None = None) -> PlanError:
    with pytest.raises(PlanError) as info:
        validate_plan(data, type_ids)
    return info.value


def round_trips(data: Any, type_ids: frozenset[str] | None = None) -> QueryPlan:
    first = validate_plan(data, type_ids)
    again = validate_plan(first.as_dict(), type_ids)
    assert again == first
    assert again.as_dict() == first.as_dict()
    assert validate_plan(json.dumps(first.as_dict()), type_ids) == first
    return first


# --- valid plans -----------------------------------------------------------------------------


def test_the_documented_example_validates_and_round_trips() -> None:
    data = {
        "version": 1,
        "where": [
            [
                {"field": "type", "op": "in", "value": ["window"]},
                {"field": "status", "op": "eq", "value": "open"},
                {"field": "floor", "op": "in", "value": ["floor_2"]},
            ]
        ],
        "aggregate": "list",
        "limit": 50,
        "about": {"subject": "windows", "status": "open"},
    }
    result = round_trips(data, TYPE_IDS)
    assert result.where[0][0] == Filter("type", "in", ("window",))
    assert result.where[0][1] == Filter("status", "eq", "open")
    assert result.about == {"subject": "windows", "status": "open"}
    assert result.as_dict() == data


@pytest.mark.parametrize("aggregate", AGGREGATES)
def test_every_aggregate_round_trips(aggregate: str) -> None:
    result = round_trips(plan(aggregate=aggregate))
    assert result.aggregate == aggregate
    # Numeric aggregates read the state unless told otherwise.
    if aggregate in ("min", "max", "avg", "sum"):
        assert result.measure == "state"
    else:
        assert result.measure is None


@pytest.mark.parametrize("aggregate", ["min", "max", "avg", "sum", "list", "count"])
def test_attribute_measure_is_kept(aggregate: str) -> None:
    result = round_trips(plan(aggregate=aggregate, measure="attribute:current_temperature"))
    assert result.measure == "attribute:current_temperature"


VALID_FILTERS: list[dict[str, Any]] = [
    filt("entity_id", "eq", "light.kitchen"),
    filt("entity_id", "ne", "light.kitchen"),
    filt("entity_id", "in", ["light.a", "light.b"]),
    filt("entity_id", "contains", "kitchen"),
    filt("domain", "eq", "light"),
    filt("domain", "ne", "switch"),
    filt("domain", "in", ["light", "switch"]),
    filt("device_class", "eq", "window"),
    filt("device_class", "eq", None),
    filt("device_class", "in", ["door", "window"]),
    filt("device_class", "ne", "motion"),
    filt("type", "eq", "light"),
    filt("type", "in", ["light", "window"]),
    filt("area", "eq", "kitchen"),
    filt("area", "ne", "garage"),
    filt("area", "in", ["kitchen", "Living Room"]),
    filt("floor", "eq", "up"),
    filt("floor", "ne", "down"),
    filt("floor", "in", ["up", "楼上"]),
    filt("label", "eq", "christmas"),
    filt("label", "ne", "christmas"),
    filt("label", "in", ["christmas", "outdoor"]),
    filt("label", "contains", "xmas"),
    filt("name", "eq", "Desk Lamp"),
    filt("name", "ne", "Desk Lamp"),
    filt("name", "in", ["Desk Lamp", "台灯"]),
    filt("name", "contains", "lamp"),
    filt("state", "eq", "on"),
    filt("state", "eq", 21),
    filt("state", "eq", 21.5),
    filt("state", "eq", True),
    filt("state", "eq", None),
    filt("state", "ne", "unavailable"),
    filt("state", "in", ["on", 1, 2.5, False, None]),
    filt("state", "gt", 20),
    filt("state", "lt", 20.5, unit="°C"),
    filt("state", "gt", -5, unit="°F"),
    filt("state", "contains", "heat"),
    filt("status", "eq", "open"),
    filt("status", "ne", "locked"),
    filt("status", "in", sorted(STATUSES)),
    filt("attribute", "eq", "heat", attribute="hvac_action"),
    filt("attribute", "ne", "heat", attribute="hvac_action"),
    filt("attribute", "in", ["heat", "cool"], attribute="hvac_action"),
    filt("attribute", "gt", 50, attribute="brightness"),
    filt("attribute", "lt", 0.5, attribute="volume_level", unit="%"),
    filt("attribute", "contains", "Beatles", attribute="media_artist"),
]


@pytest.mark.parametrize(
    "raw", VALID_FILTERS, ids=[f"{f['field']}-{f['op']}-{i}" for i, f in enumerate(VALID_FILTERS)]
)
def test_every_valid_field_and_op_round_trips(raw: dict[str, Any]) -> None:
    result = round_trips(plan(raw), TYPE_IDS)
    only = result.where[0][0]
    assert only.field == raw["field"] and only.op == raw["op"]
    assert only.as_dict() == raw
    if raw["op"] == "in":
        assert isinstance(only.value, tuple)


def test_every_field_and_op_is_covered_by_the_valid_examples() -> None:
    assert {f["field"] for f in VALID_FILTERS} == FIELDS
    assert {f["op"] for f in VALID_FILTERS} == OPS


@pytest.mark.parametrize("order", sorted(ORDERS))
@pytest.mark.parametrize("descending", [False, True])
def test_every_order_round_trips(order: str, descending: bool) -> None:
    result = round_trips(plan(order_by=order, descending=descending))
    assert (result.order_by, result.descending) == (order, descending)


@pytest.mark.parametrize("status", sorted(STATUSES))
def test_every_expected_status_round_trips(status: str) -> None:
    assert round_trips(plan(expect=status)).expect == status


def test_a_full_plan_round_trips() -> None:
    data = {
        "version": 1,
        "where": [
            [
                filt("domain", "eq", "sensor"),
                filt("device_class", "eq", "battery"),
                filt("state", "lt", 20, unit="%"),
            ],
            [
                filt("domain", "eq", "binary_sensor"),
                filt("device_class", "eq", "battery"),
                filt("state", "eq", "on"),
            ],
        ],
        "select": ["battery_level", "friendly_name"],
        "aggregate": "list",
        "measure": "state",
        "order_by": "measure",
        "descending": True,
        "limit": MAX_LIMIT,
        "expect": "on",
        "about": {
            "subject": "devices",
            "status": "with a low battery",
            "place": " upstairs",
            "measure": "battery",
            "style": "list",
        },
    }
    result = round_trips(data)
    assert result.as_dict() == data
    assert len(result.where) == 2
    assert result.select == ("battery_level", "friendly_name")


def test_defaults_are_filled_in() -> None:
    result = validate_plan({"where": [[filt()]]})
    assert (
        result.aggregate,
        result.limit,
        result.select,
        result.order_by,
        result.descending,
        result.expect,
        result.about,
        result.measure,
    ) == ("list", 50, (), None, False, None, {}, None)


def test_limits_at_the_bounds_are_accepted() -> None:
    assert round_trips(plan(limit=1)).limit == 1
    assert round_trips(plan(limit=MAX_LIMIT)).limit == MAX_LIMIT
    big = {
        "version": 1,
        "where": [
            [
                filt("entity_id", "in", [f"light.l{i}" for i in range(MAX_VALUES)])
                for _ in range(MAX_FILTERS)
            ]
            for _ in range(MAX_CLAUSES)
        ],
        "select": [f"a{i}" for i in range(MAX_SELECT)],
    }
    result = round_trips(big)
    assert len(result.where) == MAX_CLAUSES and len(result.where[0]) == MAX_FILTERS
    assert round_trips(plan(filt("name", "eq", "x" * MAX_TEXT))).where[0][0].value == "x" * MAX_TEXT


def test_an_empty_clause_is_allowed_and_kept() -> None:
    # An empty AND-clause matches everything; the plan still says so explicitly.
    result = round_trips({"where": [[]]})
    assert result.where == ((),)


@pytest.mark.parametrize(
    "style", ["list", "count", "value", "min", "max", "avg", "sum", "yes_no", "yes_no_any"]
)
def test_every_answer_style_the_compiler_writes_round_trips(style: str) -> None:
    """The compiler stores the answer style in `about`; a stored plan must validate again."""
    result = round_trips(plan(about={"style": style, "subject": "lights"}))
    assert result.about["style"] == style


def test_unicode_text_survives_json() -> None:
    data = plan(
        filt("name", "in", ["客厅灯", "Ｌａｍｐ", "😀", "line\nbreak", "{0}"]),
        about={"subject": "灯", "place": "楼上"},
    )
    result = round_trips(data)
    assert json.loads(json.dumps(result.as_dict(), ensure_ascii=False)) == result.as_dict()
    assert "客厅灯" in json.dumps(result.as_dict(), ensure_ascii=False)


# --- rejections ------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [None, 1, 1.5, True, [], [1, 2], ("where",), b"{}"])
def test_non_objects_are_rejected(data: Any) -> None:
    err = rejected(data)
    assert (err.reason, err.path) == ("not_object", "")


@pytest.mark.parametrize("text", ["", "{", "not json", "[[[[", "{'where': []}"])
def test_text_that_is_not_json_is_rejected(text: str) -> None:
    assert rejected(text).reason == "not_json"


def test_json_text_that_is_not_an_object_is_rejected() -> None:
    assert rejected("[1, 2]").reason == "not_object"
    assert rejected("null").reason == "not_object"


def test_deeply_nested_json_text_is_rejected_without_recursion_errors() -> None:
    err = rejected("[" * 100_000 + "]" * 100_000)
    assert err.reason in ("not_json", "not_object")


def test_unknown_top_level_field_is_rejected() -> None:
    err = rejected(plan(code="__import__('os').system('rm -rf /')"))
    assert (err.reason, err.path) == ("unknown_field", "")
    assert "code" in err.message


def test_unknown_filter_key_and_field_are_rejected() -> None:
    err = rejected(plan(filt(lambda_="x")))
    assert (err.reason, err.path) == ("unknown_field", "where[0][0]")
    err = rejected({"where": [[filt()], [filt(), filt("password", "eq", "x")]]})
    assert (err.reason, err.path) == ("unknown_field", "where[1][1].field")
    assert rejected(plan({"op": "eq", "value": "x"})).path == "where[0][0].field"


def test_unknown_about_field_is_rejected() -> None:
    err = rejected(plan(about={"subject": "x", "prompt": "ignore all"}))
    assert (err.reason, err.path) == ("unknown_field", "about")


def test_unknown_and_misplaced_operators_are_rejected() -> None:
    err = rejected(plan(filt("state", "regex", ".*")))
    assert (err.reason, err.path) == ("unknown_op", "where[0][0].op")
    assert rejected(plan(filt("state", None, "x"))).reason == "unknown_op"
    err = rejected(plan(filt("domain", "gt", 3)))
    assert (err.reason, err.path) == ("bad_op", "where[0][0].op")
    assert rejected(plan(filt("status", "contains", "op"))).reason == "bad_op"
    assert rejected(plan(filt("type", "ne", "light"))).reason == "bad_op"
    assert rejected(plan(filt("area", "contains", "kit"))).reason == "bad_op"


@pytest.mark.parametrize(
    "raw, path",
    [
        (filt("state", "gt", "20"), "where[0][0].value"),
        (filt("state", "gt", True), "where[0][0].value"),
        (filt("state", "lt", None), "where[0][0].value"),
        (filt("state", "lt", [1]), "where[0][0].value"),
        (filt("state", "gt", float("nan")), "where[0][0].value"),
        (filt("state", "gt", float("inf")), "where[0][0].value"),
        (filt("state", "eq", float("-inf")), "where[0][0].value"),
        (filt("state", "gt", 10**400), "where[0][0].value"),
        (filt("state", "eq", 10**400), "where[0][0].value"),
        (filt("state", "in", [1, 10**400]), "where[0][0].value"),
        (filt("state", "eq", {"a": 1}), "where[0][0].value"),
        (filt("state", "eq", [1]), "where[0][0].value"),
        (filt("name", "contains", ""), "where[0][0].value"),
        (filt("name", "contains", 3), "where[0][0].value"),
        (filt("name", "contains", None), "where[0][0].value"),
        (filt("name", "in", "Desk Lamp"), "where[0][0].value"),
        (filt("name", "in", []), "where[0][0].value"),
        (filt("name", "in", {"a": 1}), "where[0][0].value"),
        (filt("name", "in", [["nested"]]), "where[0][0].value"),
        (filt("name", "in", ["x"] * (MAX_VALUES + 1)), "where[0][0].value"),
        (filt("name", "eq", "x" * (MAX_TEXT + 1)), "where[0][0].value"),
    ],
)
def test_wrong_value_types_are_rejected(raw: dict[str, Any], path: str) -> None:
    err = rejected(plan(raw))
    assert (err.reason, err.path) == ("bad_value", path)


def test_in_with_a_string_is_not_read_as_a_list_of_characters() -> None:
    err = rejected(plan(filt("domain", "in", "light")))
    assert err.reason == "bad_value"
    assert "list" in err.message


@pytest.mark.parametrize(
    "raw, path",
    [
        (filt("attribute", "eq", 1), "where[0][0].attribute"),
        (filt("attribute", "eq", 1, attribute=""), "where[0][0].attribute"),
        (filt("attribute", "eq", 1, attribute=5), "where[0][0].attribute"),
        (filt("attribute", "eq", 1, attribute="a" * (MAX_TEXT + 1)), "where[0][0].attribute"),
        (filt("state", "eq", 1, attribute="brightness"), "where[0][0].attribute"),
        (filt("state", "gt", 1, unit=5), "where[0][0].unit"),
        (filt("state", "gt", 1, unit="x" * 17), "where[0][0].unit"),
        ("not a filter", "where[0][0]"),
        (["field", "domain"], "where[0][0]"),
    ],
)
def test_malformed_filters_are_rejected(raw: Any, path: str) -> None:
    err = rejected(plan(raw))
    assert (err.reason, err.path) == ("bad_filter", path)


def test_unknown_status_is_rejected() -> None:
    err = rejected(plan(filt("status", "eq", "exploded")))
    assert (err.reason, err.path) == ("bad_status", "where[0][0].value")
    assert rejected(plan(filt("status", "in", ["open", "ajar"]))).reason == "bad_status"
    assert rejected(plan(filt("status", "eq", None))).reason == "bad_status"
    err = rejected(plan(expect="ajar"))
    assert (err.reason, err.path) == ("bad_status", "expect")


def test_unknown_type_id_is_rejected_only_when_types_are_known() -> None:
    data = plan(filt("type", "in", ["light", "teleporter"]))
    err = rejected(data, TYPE_IDS)
    assert (err.reason, err.path) == ("bad_type", "where[0][0].value")
    assert "teleporter" in err.message
    assert rejected(plan(filt("type", "eq", "teleporter")), TYPE_IDS).reason == "bad_type"
    assert validate_plan(data).where[0][0].value == ("light", "teleporter")


@pytest.mark.parametrize(
    "where",
    [None, [], {}, "x", [[filt()]] * (MAX_CLAUSES + 1), [filt()], [[filt()] * (MAX_FILTERS + 1)]],
)
def test_bad_or_oversized_where_is_rejected(where: Any) -> None:
    err = rejected({"where": where})
    assert err.reason in ("bad_where", "too_big")
    if where and isinstance(where, list) and len(where) > MAX_CLAUSES:
        assert (err.reason, err.path) == ("too_big", "where")
    if where == [filt()]:
        assert (err.reason, err.path) == ("bad_where", "where[0]")
    if where == [[filt()] * (MAX_FILTERS + 1)]:
        assert (err.reason, err.path) == ("too_big", "where[0]")


def test_missing_where_is_rejected() -> None:
    assert rejected({"aggregate": "count"}).reason == "bad_where"


@pytest.mark.parametrize(
    "select",
    [
        "name",
        [1],
        [""],
        ["a" * (MAX_TEXT + 1)],
        [None],
        [f"a{i}" for i in range(MAX_SELECT + 1)],
        {"a": 1},
    ],
)
def test_bad_select_is_rejected(select: Any) -> None:
    err = rejected(plan(select=select))
    assert (err.reason, err.path) == ("bad_select", "select")


@pytest.mark.parametrize("limit", [0, -1, MAX_LIMIT + 1, 10**9, 1.5, "10", None, True, False, [10]])
def test_limit_out_of_range_or_not_an_int_is_rejected(limit: Any) -> None:
    err = rejected(plan(limit=limit))
    assert (err.reason, err.path) == ("bad_limit", "limit")


@pytest.mark.parametrize("aggregate", ["median", "", None, 1, ["count"], {"a": 1}, "COUNT"])
def test_unknown_aggregate_is_rejected(aggregate: Any) -> None:
    err = rejected(plan(aggregate=aggregate))
    assert (err.reason, err.path) == ("bad_aggregate", "aggregate")


@pytest.mark.parametrize(
    "measure",
    [
        "",
        "states",
        "attribute:",
        "attribute",
        "attr:x",
        1,
        ["state"],
        "attribute:" + "a" * (MAX_TEXT + 1),
        True,
    ],
)
def test_bad_measure_is_rejected(measure: Any) -> None:
    err = rejected(plan(aggregate="avg", measure=measure))
    assert (err.reason, err.path) == ("bad_measure", "measure")


@pytest.mark.parametrize("order_by", ["random()", "", 1, ["name"], {"name": 1}])
def test_unknown_order_is_rejected(order_by: Any) -> None:
    err = rejected(plan(order_by=order_by))
    assert (err.reason, err.path) == ("bad_order", "order_by")


@pytest.mark.parametrize("descending", ["yes", 1, 0, None])
def test_descending_must_be_a_boolean(descending: Any) -> None:
    err = rejected(plan(order_by="name", descending=descending))
    assert (err.reason, err.path) == ("bad_order", "descending")


@pytest.mark.parametrize("expect", [1, ["open"], {"open": 1}, True, ""])
def test_expect_of_the_wrong_type_is_rejected(expect: Any) -> None:
    err = rejected(plan(expect=expect))
    assert (err.reason, err.path) == ("bad_status", "expect")


@pytest.mark.parametrize("version", [0, 2, "1", None, True, [1]])
def test_unknown_version_is_rejected(version: Any) -> None:
    err = rejected(plan(version=version))
    assert (err.reason, err.path) == ("bad_version", "version")


@pytest.mark.parametrize(
    "about, path",
    [
        ("windows", "about"),
        (["subject"], "about"),
        ({"subject": 5}, "about.subject"),
        ({"place": None}, "about.place"),
        ({"status": "x" * (MAX_TEXT + 1)}, "about.status"),
        ({"style": "sonnet"}, "about.style"),
        ({"style": 1}, "about.style"),
    ],
)
def test_bad_about_is_rejected(about: Any, path: str) -> None:
    err = rejected(plan(about=about))
    assert (err.reason, err.path) == ("bad_about", path)


@pytest.mark.parametrize("key", ["field", "op"])
@pytest.mark.parametrize("junk", [[], {}, ["eq"], {"eq": 1}, 1, None, True])
def test_unhashable_or_odd_field_and_op_are_plan_errors(key: str, junk: Any) -> None:
    raw = filt("state", "eq", "on")
    raw[key] = junk
    err = rejected(plan(raw))
    assert err.path == f"where[0][0].{key}"
    assert err.reason in ("unknown_field", "unknown_op")


def test_deeply_nested_junk_is_rejected_quickly() -> None:
    junk: Any = "x"
    for _ in range(100_000):
        junk = [junk]
    for data in (
        plan(filt("name", "in", junk)),
        plan(filt("name", "eq", junk)),
        {"where": junk},
        plan(select=junk),
        plan(about={"subject": junk}),
        {"where": [[junk]]},
        plan(filt(junk, "eq", "x")),
        plan(filt("state", junk)),
        plan(aggregate=junk),
        plan(order_by=junk),
        plan(version=junk),
        plan(expect=junk),
        plan(measure=junk),
        plan(limit=junk),
        plan(descending=junk),
        plan(about=junk),
        plan(about={"style": junk}),
    ):
        err = rejected(data)  # not a RecursionError from echoing the junk back
        assert len(str(err)) < 200


def test_huge_strings_are_rejected_without_being_echoed_in_full() -> None:
    huge = "A" * 1_000_000
    for data in (
        plan(filt("name", "eq", huge)),
        plan(filt("name", "in", [huge])),
        plan(filt("attribute", "eq", 1, attribute=huge)),
        plan(select=[huge]),
        plan(about={"subject": huge}),
        plan(filt("state", "gt", 1, unit=huge)),
    ):
        err = rejected(data)
        assert len(str(err)) < 1000
    # Unknown words are named in the message, shortened.
    for data in (
        plan(filt(huge, "eq", "x")),
        plan(filt("state", huge, "x")),
        plan(aggregate=huge),
        plan(order_by=huge),
        plan(expect=huge),
        plan(version=huge),
        {**plan(), huge: 1},
        plan(filt("status", "eq", huge)),
        plan(about={"style": huge[:MAX_TEXT]}),
        plan(limit=huge),
    ):
        err = rejected(data, TYPE_IDS)
        assert len(str(err)) < 200
        assert "AAAA" in str(err) or err.reason in ("bad_limit", "bad_value")
    assert rejected(plan(filt("type", "eq", huge[:MAX_TEXT])), TYPE_IDS).reason == "bad_type"
    assert len(str(rejected(plan(filt("type", "eq", huge[:MAX_TEXT])), TYPE_IDS))) < 200
    err = rejected(plan(version=10**5000))  # more digits than Python will print
    assert err.reason == "bad_version"


def test_plan_error_is_a_value_error_with_a_readable_message() -> None:
    err = rejected(plan(filt("state", "regex", "x")))
    assert isinstance(err, ValueError)
    assert str(err).startswith("where[0][0].op: ")
    assert "regex" in str(err)


# --- property: nothing but PlanError ---------------------------------------------------------

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**500), max_value=10**500),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=30),
    st.sampled_from(
        [
            "eq",
            "ne",
            "in",
            "gt",
            "lt",
            "contains",
            "state",
            "status",
            "attribute",
            "type",
            "name",
            "area",
            "open",
            "list",
            "count",
            "avg",
            "attribute:x",
            "measure",
            "°C",
            "light",
            "version",
            "where",
            "field",
            "op",
            "value",
        ]
    ),
)
JSON_LIKE = st.recursive(
    JSON_SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(
            st.one_of(
                st.text(max_size=10),
                st.sampled_from(
                    ["field", "op", "value", "attribute", "unit", "where", "aggregate", "about"]
                ),
            ),
            children,
            max_size=5,
        ),
    ),
    max_leaves=40,
)
FILTER_LIKE = st.fixed_dictionaries(
    {
        "field": st.one_of(st.sampled_from(sorted(FIELDS)), JSON_LIKE),
        "op": st.one_of(st.sampled_from(sorted(OPS)), JSON_LIKE),
    },
    optional={"value": JSON_LIKE, "attribute": JSON_LIKE, "unit": JSON_LIKE},
)
PLAN_LIKE = st.fixed_dictionaries(
    {
        "where": st.one_of(
            st.lists(st.lists(st.one_of(FILTER_LIKE, JSON_LIKE), max_size=4), max_size=3), JSON_LIKE
        )
    },
    optional={
        k: JSON_LIKE
        for k in (
            "version",
            "select",
            "aggregate",
            "measure",
            "order_by",
            "descending",
            "limit",
            "expect",
            "about",
        )
    },
)


@SETTINGS
@given(st.one_of(JSON_LIKE, PLAN_LIKE))
def test_arbitrary_json_like_data_only_ever_raises_plan_error(data: Any) -> None:
    try:
        result = validate_plan(data, TYPE_IDS)
    except PlanError as err:
        assert err.reason and isinstance(err.path, str)
        return
    # Whatever passes is a plan that round-trips through its own JSON.
    assert validate_plan(json.dumps(result.as_dict(), ensure_ascii=False), TYPE_IDS) == result


@SETTINGS
@given(st.one_of(JSON_LIKE, PLAN_LIKE))
def test_arbitrary_json_text_only_ever_raises_plan_error(data: Any) -> None:
    try:
        text = json.dumps(data)
    except (ValueError, TypeError):
        return
    try:
        result = validate_plan(text)
    except PlanError:
        return
    assert validate_plan(result.as_dict()) == result
