"""core/questions/matching.py: which rows a plan's filters match.

The rules pinned here, each as a caller would state it: what names a clause's subject, which
statuses a clause asks about, which kinds of device a type means in a home (its first tier
the home has; asked with a status, the first tier that answers it), which rows a `RowIndex`
narrows a clause to, and what each filter (text, status, device class, type, state, attribute)
matches, with its exact boundaries.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from custom_components.context_retrieval.core.base.lexicon import TypeTable
from custom_components.context_retrieval.core.base.lexicon.tables import TypeSpec
from custom_components.context_retrieval.core.base.text import normalize
from custom_components.context_retrieval.core.questions.matching import (
    MatchContext,
    RowIndex,
    filter_values,
    memo,
    names_subject,
    predicate,
    statuses_of,
    type_targets,
)
from custom_components.context_retrieval.core.questions.plan import Filter, Scalar
from custom_components.context_retrieval.core.questions.rows import StateRow
from custom_components.context_retrieval.core.questions.values import (
    Kind,
    StatusKinds,
    load_statuses,
)
from tests.core.questions.conftest import BEDROOM, DOWN, KITCHEN, LIVING, UP, row

ROWS = [
    row("light.kitchen", "on", "Kitchen Light", area=KITCHEN, floor=DOWN, labels=("evening",)),
    row("light.bedroom", "off", "Bed Lamp", area=BEDROOM, floor=UP, aliases=("reading lamp",)),
    row("light.garden", "on", "Garden Light"),
    row("binary_sensor.window", "on", "Window", device_class="window", area=KITCHEN, floor=DOWN),
    row("binary_sensor.motion", "off", "Motion", device_class="Motion", area=LIVING, floor=DOWN),
    row("lock.front", "unlocked", "Front Door", area=LIVING, floor=DOWN),
    row("lock.back", "locked", "Back Door", area=KITCHEN, floor=DOWN),
    row("sensor.outside", "68", "Outside", device_class="temperature", unit="°F"),
    row(
        "sensor.inside",
        "21.5",
        "Inside",
        device_class="temperature",
        area=LIVING,
        floor=DOWN,
        unit="°C",
    ),
    row("media_player.tv", "playing", "TV", area=LIVING, attributes={"volume_level": 0.5}),
]


def _ids(rows: list[StateRow]) -> list[str]:
    return [r.entity_id for r in rows]


def _ctx(targets: dict[str, frozenset[Kind]] | None = None, named: bool = False) -> MatchContext:
    return MatchContext(TypeTable({}, {}), load_statuses(), targets or {}, named=named)


def matched(f: Filter, ctx: MatchContext | None = None) -> set[str]:
    test = predicate(f, ctx or _ctx(), normalize)
    return {r.entity_id for r in ROWS if test(r)}


# --- what a clause is about -------------------------------------------------------------


@pytest.mark.parametrize(
    ("filters", "names"),
    [
        ((Filter("type", "eq", "light"),), True),
        ((Filter("entity_id", "in", ("light.a",)),), True),
        ((Filter("name", "eq", "Lamp"),), True),
        ((Filter("domain", "eq", "light"),), True),
        ((Filter("device_class", "in", ("window",)),), True),
        ((Filter("name", "contains", "Lamp"),), False),  # a part of a name names nothing
        ((Filter("domain", "ne", "light"),), False),  # "everything but lights"
        ((Filter("area", "eq", "kitchen"), Filter("status", "eq", "on")), False),
        ((Filter("area", "eq", "kitchen"), Filter("type", "eq", "light")), True),
        ((), False),
    ],
)
def test_a_clause_names_its_subject_by_type_id_name_domain_or_class(
    filters: tuple[Filter, ...], names: bool
) -> None:
    assert names_subject(filters) is names


@pytest.mark.parametrize(
    ("filters", "expect", "statuses"),
    [
        ((Filter("status", "in", ("on", "open")),), "on", ("on", "open")),
        ((Filter("status", "eq", "open"),), "locked", ("open", "locked")),
        ((Filter("status", "eq", "open"),), None, ("open",)),
        ((Filter("state", "eq", "open"), Filter("area", "eq", "on")), "locked", ("locked",)),
        ((), None, ()),
    ],
)
def test_the_statuses_a_clause_asks_about_are_its_status_filters_then_the_expected_one(
    filters: tuple[Filter, ...], expect: str | None, statuses: tuple[str, ...]
) -> None:
    assert statuses_of(filters, expect) == statuses


def test_a_filter_value_is_one_value_or_a_tuple_of_them() -> None:
    assert filter_values(Filter("area", "eq", "kitchen")) == ("kitchen",)
    assert filter_values(Filter("area", "in", ("kitchen", "hall"))) == ("kitchen", "hall")
    assert filter_values(Filter("state", "eq", None)) == (None,)


def test_memo_computes_each_text_once_and_returns_what_the_function_does() -> None:
    calls: list[str] = []

    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    cached = memo(upper)
    assert [cached("a"), cached("b"), cached("a")] == ["A", "B", "A"]
    assert calls == ["a", "b"]


# --- what a type means in this home -----------------------------------------------------

TEMPERATURE = TypeSpec(
    "temperature", ((("climate", None),), (("sensor", "temperature"),), (("weather", None),))
)
DOOR_TIERS = (
    (("binary_sensor", "door"),),
    (("cover", "door"), ("cover", "garage")),
    (("lock", None),),
)
TYPES = TypeTable(
    {
        "temperature": TEMPERATURE,
        "door": TypeSpec("door", DOOR_TIERS),
        "entry": TypeSpec("entry", DOOR_TIERS),
        "empty": TypeSpec("empty", ()),
        "mixed": TypeSpec("mixed", ((("cover", "door"), ("lock", None)),)),
    },
    {},
)
KINDS = StatusKinds(answered_by={}, also={"open": ("unlocked",)}, every_tier=frozenset({"door"}))
ANSWERS: dict[str, set[Kind]] = {
    "open": {("binary_sensor", "door"), ("cover", "door"), ("cover", "garage")},
    "unlocked": {("lock", None)},
    "locked": {("lock", None)},
}


def judge(status: str, kind: Kind) -> bool:
    return kind in ANSWERS.get(status, set())


@pytest.mark.parametrize(
    ("present", "tier"),
    [
        ({("climate", None)}, 0),
        ({("climate", "heat_pump")}, 0),  # a domain-wide target fits any class of it
        ({("sensor", "temperature")}, 1),
        # A sensor of another class is no temperature sensor: the weather tier is next.
        ({("sensor", "humidity"), ("weather", None)}, 2),
        ({("sensor", "temperature"), ("climate", None)}, 0),  # the first tier wins
        ({("light", None)}, 0),  # none here: the first tier, as the type means it
        (set(), 0),
    ],
)
def test_a_type_means_its_first_tier_the_home_has(present: set[Kind], tier: int) -> None:
    assert type_targets("temperature", frozenset(present), TYPES) == frozenset(
        TEMPERATURE.tiers[tier]
    )


def test_an_unknown_type_or_one_without_tiers_means_nothing() -> None:
    present = frozenset({("light", None)})
    assert type_targets("unheard_of", present, TYPES) == frozenset()
    assert type_targets("empty", present, TYPES) == frozenset()
    assert type_targets("empty", present, TYPES, ("open",), judge, KINDS) == frozenset()


ALL_DOORS = frozenset({("binary_sensor", "door"), ("cover", "garage"), ("lock", None)})


@pytest.mark.parametrize(
    ("type_id", "present", "statuses", "targets"),
    [
        # A kind of the same thing in every tier: every tier's kinds that answer.
        ("door", ALL_DOORS, ("open",), ANSWERS["open"]),
        ("door", ALL_DOORS, ("locked",), {("lock", None)}),
        # Tiers as fallbacks: only the first tier the home has that answers.
        ("entry", ALL_DOORS, ("open",), {("binary_sensor", "door")}),
        (
            "entry",
            ALL_DOORS - {("binary_sensor", "door")},
            ("open",),
            ANSWERS["open"] - {("binary_sensor", "door")},
        ),
        # "Open" of a lock is "unlocked", when nothing else answers "open".
        ("entry", frozenset({("lock", None)}), ("open",), {("lock", None)}),
        # Within a tier, the first status said that some kind answers.
        ("mixed", ALL_DOORS | {("cover", "door")}, ("unlocked", "open"), {("lock", None)}),
        ("mixed", ALL_DOORS | {("cover", "door")}, ("open", "unlocked"), {("cover", "door")}),
        # No tier answers: nothing, not the first tier.
        ("entry", frozenset({("lock", None)}), ("closed",), set()),
        ("temperature", frozenset({("climate", None)}), ("open",), set()),
    ],
)
def test_a_type_asked_with_a_status_means_the_kinds_that_answer_it(
    type_id: str,
    present: frozenset[Kind],
    statuses: tuple[str, ...],
    targets: set[Kind],
) -> None:
    assert type_targets(type_id, present, TYPES, statuses, judge, KINDS) == targets


def test_without_a_judge_or_status_kinds_a_status_changes_nothing() -> None:
    present = frozenset({("lock", None), ("cover", "door")})
    first_here = frozenset(DOOR_TIERS[1])
    assert type_targets("entry", present, TYPES, ("unlocked",), None, KINDS) == first_here
    assert type_targets("entry", present, TYPES, ("unlocked",), judge, None) == first_here
    assert type_targets("entry", present, TYPES, (), judge, KINDS) == first_here
    assert type_targets("entry", present, TYPES, ("unlocked",), judge, KINDS) == {("lock", None)}


# --- the index ----------------------------------------------------------------------------


def _numbered(n: int, changed: int | None = None) -> list[StateRow]:
    return [row(f"light.l{i}" if i != changed else "light.other") for i in range(n)]


@pytest.mark.parametrize("changed", [0, 32, 39])
def test_an_index_no_longer_fits_when_a_checked_row_changed(changed: int) -> None:
    index = RowIndex(_numbered(40))
    assert index.fits(_numbered(40))
    assert not index.fits(_numbered(40, changed))


def test_an_index_fits_only_rows_of_the_same_count() -> None:
    assert RowIndex([]).fits([])
    assert not RowIndex([]).fits(_numbered(1))
    assert not RowIndex(_numbered(3)).fits(_numbered(2))
    assert not RowIndex(_numbered(2)).fits(_numbered(3))
    assert RowIndex(_numbered(1)).fits(_numbered(1))
    assert not RowIndex(_numbered(1)).fits(_numbered(1, 0))


EVERY = list(range(len(ROWS)))


def _pool(*filters: Filter, targets: dict[str, frozenset[Kind]] | None = None) -> list[str]:
    index = RowIndex(ROWS)
    return [ROWS[i].entity_id for i in index.candidates(filters, _ctx(targets), normalize)]


@pytest.mark.parametrize(
    ("f", "pool"),
    [
        (Filter("entity_id", "eq", "lock.back"), ["lock.back"]),
        (Filter("entity_id", "eq", " Lock.Back "), ["lock.back"]),  # found once normalised
        (Filter("entity_id", "in", ("lock.back", "light.kitchen")), ["light.kitchen", "lock.back"]),
        (Filter("domain", "eq", "LOCK"), ["lock.front", "lock.back"]),
        (Filter("domain", "in", ("lock", None)), ["lock.front", "lock.back"]),
        (
            Filter("device_class", "eq", "motion"),  # indexed normalised
            ["binary_sensor.motion"],
        ),
        (Filter("area", "eq", "Kitchen"), ["light.kitchen", "binary_sensor.window", "lock.back"]),
        (Filter("area", "eq", "cookhouse"), ["light.kitchen", "binary_sensor.window", "lock.back"]),
        (Filter("area", "eq", "bedroom"), ["light.bedroom"]),
        (Filter("floor", "eq", "first floor"), ["light.bedroom"]),
        (Filter("floor", "in", ("up", "nowhere")), ["light.bedroom"]),
        (Filter("area", "eq", "attic"), []),
    ],
)
def test_an_index_narrows_a_clause_to_the_rows_it_can_match(f: Filter, pool: list[str]) -> None:
    assert _pool(f) == pool


def test_a_type_narrows_to_the_domains_it_means_here() -> None:
    targets = {"lamp": frozenset({("light", None)}), "lockish": frozenset({("lock", "x")})}
    assert _pool(Filter("type", "eq", "lamp"), targets=targets) == [
        "light.kitchen",
        "light.bedroom",
        "light.garden",
    ]
    assert _pool(Filter("type", "in", ("lamp", "lockish")), targets=targets) == [
        "light.kitchen",
        "light.bedroom",
        "light.garden",
        "lock.front",
        "lock.back",
    ]


@pytest.mark.parametrize(
    "f",
    [
        Filter("entity_id", "eq", "light.nowhere"),  # may equal a row's normalised id
        Filter("entity_id", "in", ("lock.back", "light.nowhere")),
        Filter("device_class", "in", ("window", None)),  # rows without a class match
        Filter("domain", "ne", "light"),
        Filter("area", "ne", "kitchen"),
        Filter("name", "contains", "lamp"),
        Filter("name", "eq", "Bed Lamp"),
        Filter("state", "eq", "on"),
    ],
)
def test_what_an_index_cannot_narrow_leaves_every_row(f: Filter) -> None:
    assert _pool(f) == _ids(ROWS)


@pytest.mark.parametrize("first", [True, False])
def test_several_filters_narrow_to_the_smallest_pool(first: bool) -> None:
    small, large = Filter("area", "eq", "bedroom"), Filter("domain", "eq", "light")
    clause = (small, large) if first else (large, small)
    assert _pool(*clause) == ["light.bedroom"]


# --- what each filter matches -------------------------------------------------------------


@pytest.mark.parametrize(
    ("f", "hits"),
    [
        (Filter("entity_id", "eq", "LOCK.BACK"), {"lock.back"}),
        (Filter("entity_id", "contains", "window"), {"binary_sensor.window"}),
        (Filter("domain", "in", ("lock", None)), {"lock.front", "lock.back"}),
        (Filter("area", "eq", "cookhouse"), {"light.kitchen", "binary_sensor.window", "lock.back"}),
        (Filter("floor", "eq", "Upstairs"), {"light.bedroom"}),
        (Filter("label", "eq", "Evening"), {"light.kitchen"}),
        (Filter("label", "contains", "even"), {"light.kitchen"}),
        (Filter("name", "eq", "reading lamp"), {"light.bedroom"}),  # an alias is a name
        (Filter("name", "contains", "door"), {"lock.front", "lock.back"}),
        (Filter("name", "contains", "zzz"), set()),
    ],
)
def test_a_text_filter_matches_any_of_the_rows_texts_normalised(f: Filter, hits: set[str]) -> None:
    assert matched(f) == hits


def test_ne_on_a_text_matches_rows_with_no_such_text_including_rows_with_none() -> None:
    everything = set(_ids(ROWS))
    kitchen = {"light.kitchen", "binary_sensor.window", "lock.back"}
    assert matched(Filter("area", "ne", "kitchen")) == everything - kitchen
    assert matched(Filter("area", "ne", "cookhouse")) == everything - kitchen
    assert matched(Filter("label", "ne", "evening")) == everything - {"light.kitchen"}
    assert matched(Filter("name", "ne", "Reading Lamp")) == everything - {"light.bedroom"}


@pytest.mark.parametrize(
    ("f", "hits"),
    [
        (Filter("device_class", "eq", "WINDOW"), {"binary_sensor.window"}),
        (Filter("device_class", "eq", "motion"), {"binary_sensor.motion"}),
        (
            Filter("device_class", "in", ("window", None)),
            {
                "binary_sensor.window",
                "light.kitchen",
                "light.bedroom",
                "light.garden",
                "lock.front",
                "lock.back",
                "media_player.tv",
            },
        ),
        (
            Filter("device_class", "eq", None),
            {
                "light.kitchen",
                "light.bedroom",
                "light.garden",
                "lock.front",
                "lock.back",
                "media_player.tv",
            },
        ),
        (
            Filter("device_class", "ne", "window"),
            set(_ids(ROWS)) - {"binary_sensor.window"},
        ),
        (
            Filter("device_class", "ne", None),
            {"binary_sensor.window", "binary_sensor.motion", "sensor.outside", "sensor.inside"},
        ),
    ],
)
def test_a_device_class_filter_and_rows_without_a_class(f: Filter, hits: set[str]) -> None:
    assert matched(f) == hits


def test_a_type_matches_its_targets_a_domain_wide_target_any_class() -> None:
    targets = {
        "lamp": frozenset({("light", None)}),
        "thermometer": frozenset({("sensor", "temperature")}),
        "contact": frozenset({("binary_sensor", "window"), ("lock", "x")}),
    }
    ctx = _ctx(targets)
    assert matched(Filter("type", "eq", "lamp"), ctx) == {
        "light.kitchen",
        "light.bedroom",
        "light.garden",
    }
    assert matched(Filter("type", "eq", "contact"), ctx) == {"binary_sensor.window"}
    assert matched(Filter("type", "in", ("thermometer", "contact")), ctx) == {
        "binary_sensor.window",
        "sensor.outside",
        "sensor.inside",
    }


def test_a_status_filter_reads_the_status_table_for_each_kind() -> None:
    assert matched(Filter("status", "eq", "on")) == {
        "light.kitchen",
        "light.garden",
        "binary_sensor.window",
        "media_player.tv",
    }
    assert matched(Filter("status", "eq", "locked")) == {"lock.back"}
    # A status a kind cannot have is never had, and "not …" is then true.
    assert "light.kitchen" not in matched(Filter("status", "eq", "locked"))
    assert matched(Filter("status", "ne", "locked")) == set(_ids(ROWS)) - {"lock.back"}
    assert matched(Filter("status", "in", ("locked", "playing"))) == {
        "lock.back",
        "media_player.tv",
    }


def test_a_status_word_means_what_it_means_for_a_named_kind() -> None:
    # "Is the front door open?" names a lock: open is unlocked. Not named: a lock is not open.
    assert "lock.front" in matched(Filter("status", "eq", "open"), _ctx(named=True))
    assert "lock.front" not in matched(Filter("status", "eq", "open"), _ctx(named=False))
    # Named, a light cannot be locked at all.
    assert matched(Filter("status", "eq", "locked"), _ctx(named=True)) == {"lock.back"}


@pytest.mark.parametrize(
    ("f", "hits"),
    [
        # 68 °F is 20 °C: compared in the unit asked; equal is neither above nor below.
        (Filter("state", "gt", 19.9, unit="°C"), {"sensor.outside", "sensor.inside"}),
        (Filter("state", "gt", 20.0, unit="°C"), {"sensor.inside"}),
        (Filter("state", "lt", 20.0, unit="°C"), set()),
        (Filter("state", "lt", 20.1, unit="°C"), {"sensor.outside"}),
        (Filter("state", "gt", 21.5, unit="°C"), set()),
        (Filter("state", "lt", 21.6, unit="°C"), {"sensor.outside", "sensor.inside"}),
        (Filter("state", "lt", 70, unit="°F"), {"sensor.outside"}),
        # Without a unit the numbers are compared as they are.
        (Filter("state", "gt", 22), {"sensor.outside"}),
        (Filter("state", "lt", 68), {"sensor.inside"}),
        # A unit the state cannot be converted to matches nothing.
        (Filter("state", "gt", 0, unit="%"), set()),
    ],
)
def test_a_number_is_compared_strictly_in_the_unit_asked(f: Filter, hits: set[str]) -> None:
    assert matched(f) == hits


@pytest.mark.parametrize(
    ("f", "hits"),
    [
        (Filter("state", "eq", "PLAYING"), {"media_player.tv"}),
        (Filter("state", "eq", 68), {"sensor.outside"}),
        (Filter("state", "eq", "68.0"), {"sensor.outside"}),  # equal as numbers
        (Filter("state", "in", ("locked", "unlocked")), {"lock.front", "lock.back"}),
        (Filter("state", "in", (None, "locked")), {"lock.back"}),
        (Filter("state", "contains", "LOCK"), {"lock.front", "lock.back"}),
        (
            Filter("state", "ne", "on"),
            set(_ids(ROWS)) - {"light.kitchen", "light.garden", "binary_sensor.window"},
        ),
        (Filter("attribute", "eq", 0.5, attribute="volume_level"), {"media_player.tv"}),
        (Filter("attribute", "gt", 0.4, attribute="volume_level"), {"media_player.tv"}),
        (Filter("attribute", "gt", 0.5, attribute="volume_level"), set()),
        (Filter("attribute", "contains", "0.5", attribute="volume_level"), {"media_player.tv"}),
    ],
)
def test_a_state_or_attribute_matches_as_text_or_number(f: Filter, hits: set[str]) -> None:
    assert matched(f) == hits


def test_a_missing_attribute_is_none() -> None:
    everything = set(_ids(ROWS))
    # Missing: "is not 0.5" and "is nothing" are true; any value or comparison is false.
    assert matched(Filter("attribute", "ne", 0.5, attribute="volume_level")) == everything - {
        "media_player.tv"
    }
    assert matched(Filter("attribute", "eq", None, attribute="volume_level")) == everything - {
        "media_player.tv"
    }
    assert matched(Filter("attribute", "eq", "x", attribute="brightness")) == set()
    assert matched(Filter("attribute", "lt", 100, attribute="brightness")) == set()
    assert matched(Filter("attribute", "contains", "", attribute="brightness")) == set()
    # No attribute named: nothing is read.
    assert matched(Filter("attribute", "eq", 0.5)) == set()


def test_a_field_nothing_reads_matches_nothing() -> None:
    assert matched(Filter("colour", "eq", "red")) == set()


def _by(hits: Callable[[StateRow], bool]) -> set[str]:
    return {r.entity_id for r in ROWS if hits(r)}


def test_a_text_filter_ignores_none_values() -> None:
    values: tuple[Scalar, ...] = (None, "kitchen")
    f = Filter("area", "in", values)
    assert _by(predicate(f, _ctx(), normalize)) == {
        "light.kitchen",
        "binary_sensor.window",
        "lock.back",
    }


def test_a_type_the_context_has_no_targets_for_matches_nothing() -> None:
    assert matched(Filter("type", "eq", "lamp")) == set()
    assert matched(Filter("type", "in", ("lamp", "thermometer"))) == set()
