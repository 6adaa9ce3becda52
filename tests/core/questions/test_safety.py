"""Questions about safety (issue 19): locks, doors, windows, garage doors in the demo home read
the devices that answer them, and never answer "none" or "no" from a plan that cannot tell.

The demo home (demo/home.json) has three locks (lock.front_door "前门门锁" / "front door",
lock.garage_side_door, lock.study_safe), door and window contact sensors (the front door's
"前门门磁" / "front door sensor"), and a garage door cover. Every safety device is put in its
safe state, then one at a time in the unsafe one; each question of the bank must find it.
"""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.context_retrieval.core import DeviceIndex, LexiconSet, load_home
from custom_components.context_retrieval.core.questions.answer import answer
from custom_components.context_retrieval.core.questions.compiler import compile_question
from custom_components.context_retrieval.core.questions.executor import QueryResult, execute
from custom_components.context_retrieval.core.questions.matching import type_targets
from custom_components.context_retrieval.core.questions.plan import Filter, QueryPlan
from custom_components.context_retrieval.core.questions.rows import StateRow
from custom_components.context_retrieval.core.questions.values import (
    answers,
    load_status_kinds,
    load_statuses,
    meaning,
)
from tests.core.conftest import DEMO_HOME
from tests.core.questions.conftest import q, row

SAFE = {"lock": "locked", "binary_sensor": "off", "cover": "closed"}
GUARDED = {"door", "window", "garage_door", "opening", "garage", "gate", None}


def demo_rows(unsafe: dict[str, str] | None = None) -> list[StateRow]:
    """The demo home's states, every lock locked and every door and window closed, but for
    `unsafe`."""
    out = []
    for device in load_home(DEMO_HOME).devices:
        state = device.state
        if device.domain in SAFE and (device.domain == "lock" or device.device_class in GUARDED):
            state = SAFE[device.domain]
        state = (unsafe or {}).get(device.entity_id, state)
        out.append(StateRow.from_device(device, state=state))
    return out


def ask(
    text: str, index: DeviceIndex, lexicons: LexiconSet, rows: list[StateRow]
) -> tuple[QueryPlan, QueryResult, str]:
    compiled = compile_question(text, index, lexicons)
    assert compiled.is_question and compiled.confident, (text, compiled.as_dict())
    assert compiled.plan is not None
    result = execute(compiled.plan, rows, lexicons.types)
    return compiled.plan, result, answer(compiled.plan, result, lexicons.get(compiled.language))


# The questions each unsafe state must be found by, in five languages.
BANK = {
    "unlocked": [
        "which doors are unlocked?",
        "are any doors unlocked?",
        "are all the doors locked?",
        "which locks are unlocked?",
        "is any lock unlocked?",
        "哪些门没锁",
        "哪些锁开着",
        "有没有门没锁",
        "门都锁好了吗",
        "锁都锁上了吗",
        "welche Türen sind nicht abgeschlossen?",
        "sind alle Türen abgeschlossen?",
        "quelles portes sont déverrouillées ?",
        "toutes les portes sont-elles verrouillées ?",
        "¿están todas las puertas cerradas con llave?",
    ],
    "door_open": [
        "which doors are open?",
        "are any doors open?",
        "are all the doors closed?",
        "哪些门开着",
        "有没有门没关",
        "门都关好了吗",
        "welche Türen sind offen?",
        "quelles portes sont ouvertes ?",
        "¿qué puertas están abiertas?",
    ],
    "window_open": [
        "which windows are open?",
        "are all windows closed?",
        "哪些窗户开着",
        "有没有窗户没关",
        "窗户都关好了吗",
        "welche Fenster sind offen?",
        "quelles fenêtres sont ouvertes ?",
    ],
}
UNSAFE = {
    "unlocked": [("lock.garage_side_door", "unlocked"), ("lock.front_door", "unlocked")],
    "door_open": [
        ("binary_sensor.front_door_contact", "on"),
        ("binary_sensor.balcony_door", "on"),
        ("cover.garage_door", "open"),
    ],
    "window_open": [
        ("binary_sensor.living_room_window", "on"),
        ("binary_sensor.master_bedroom_window", "on"),
    ],
}
CASES = [
    (kind, e, s, text) for kind, texts in BANK.items() for e, s in UNSAFE[kind] for text in texts
]


@pytest.mark.parametrize(("kind", "entity_id", "state", "text"), CASES)
def test_a_safety_question_never_says_none_when_a_device_is_unsafe(
    demo_index: DeviceIndex,
    lexicons: LexiconSet,
    kind: str,
    entity_id: str,
    state: str,
    text: str,
) -> None:
    plan, result, said = ask(text, demo_index, lexicons, demo_rows({entity_id: state}))
    assert result.uncertain is None, said
    if plan.about.get("style") == "yes_no_all":
        assert result.expected is False and result.unmet == [entity_id], said
    else:
        assert entity_id in {r["entity_id"] for r in result.rows}, said
        assert result.count >= 1


@pytest.mark.parametrize("text", sorted({t for texts in BANK.values() for t in texts}))
def test_when_everything_is_safe_the_answer_is_a_sure_no(
    demo_index: DeviceIndex, lexicons: LexiconSet, text: str
) -> None:
    plan, result, said = ask(text, demo_index, lexicons, demo_rows())
    assert result.uncertain is None, said
    if plan.about.get("style") == "yes_no_all":
        assert result.expected is True and result.count >= 2, said
    else:
        assert result.count == 0, said


# --- the issue's examples, in words ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("which doors are unlocked?", "Just one: garage side door (unlocked)."),
        ("哪些门没锁", "只有车库侧门没锁。"),
        ("哪些锁开着", "只有车库侧门开着。"),
        ("are all the doors locked?", "No, not all doors are locked: garage side door (unlocked)."),
        ("门都锁好了吗", "没有，不是所有门都锁好了：车库侧门未上锁。"),
        ("有没有门没锁", "是的，有 1 个门没锁：车库侧门。"),
        ("are any locks unlocked?", "Yes, one: garage side door (unlocked)."),
        ("is the front door locked?", "Yes, front door: locked."),
        ("前门锁上了吗", "是的，前门门锁锁上了。"),
        ("ist die Haustür abgeschlossen?", "Ja, front door: abgeschlossen."),
        ("la porte d'entrée est-elle verrouillée ?", "Oui, front door: verrouillée."),
        ("did someone leave the front door open?", "No, front door sensor: closed."),
        ("前门开着吗", "没有，前门门磁现在关着。"),
    ],
)
def test_the_issue_examples(
    demo_index: DeviceIndex, lexicons: LexiconSet, text: str, expected: str
) -> None:
    rows = demo_rows({"lock.garage_side_door": "unlocked"})
    assert ask(text, demo_index, lexicons, rows)[2] == expected


@pytest.mark.parametrize(
    ("text", "status", "entity_id"),
    [
        # One name, two devices: the state word decides which answers.
        ("is the front door locked?", "locked", "lock.front_door"),
        ("is the front door open?", "open", "binary_sensor.front_door_contact"),
        ("did someone leave the front door open?", "open", "binary_sensor.front_door_contact"),
        ("前门锁上了吗", "locked", "lock.front_door"),
        ("前门开着吗", "on", "binary_sensor.front_door_contact"),
        ("ist die Haustür abgeschlossen?", "locked", "lock.front_door"),
        ("ist die Haustür offen?", "open", "binary_sensor.front_door_contact"),
        ("¿está cerrada con llave la puerta principal?", "locked", "lock.front_door"),
    ],
)
def test_the_state_word_decides_which_device_a_name_means(
    demo_index: DeviceIndex, lexicons: LexiconSet, text: str, status: str, entity_id: str
) -> None:
    compiled = compile_question(text, demo_index, lexicons)
    assert compiled.confident, compiled.as_dict()
    assert compiled.plan is not None
    assert compiled.plan.expect == status
    named = [f.value for c in compiled.plan.where for f in c if f.field == "entity_id"]
    assert named == [(entity_id,)], compiled.plan.as_dict()


def test_a_front_door_left_open_is_said_so(demo_index: DeviceIndex, lexicons: LexiconSet) -> None:
    rows = demo_rows({"binary_sensor.front_door_contact": "on"})
    said = ask("did someone leave the front door open?", demo_index, lexicons, rows)[2]
    assert said == "Yes, front door sensor: open."
    assert ask("前门开着吗", demo_index, lexicons, rows)[2] == "是的，前门门磁开着。"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # Several doors: "is the door locked?" is yes only when each one is.
        ("is the door locked?", "No, not all door are locked: garage side door (unlocked)."),
        (
            "are the windows closed?",
            "No, not all windows are closed: master bedroom window (open).",
        ),
        ("窗户关了吗", "没有，不是所有窗户都关了：主卧窗户开着。"),
        # An unsafe state asked of several is yes when any one is.
        ("is the window open?", "Yes, one: master bedroom window (open)."),
    ],
)
def test_a_yes_no_about_several_devices_does_not_hide_the_unsafe_one(
    demo_index: DeviceIndex, lexicons: LexiconSet, text: str, said: str
) -> None:
    rows = demo_rows(
        {"lock.garage_side_door": "unlocked", "binary_sensor.master_bedroom_window": "on"}
    )
    assert ask(text, demo_index, lexicons, rows)[2] == said


def test_every_one_safe_is_a_yes(demo_index: DeviceIndex, lexicons: LexiconSet) -> None:
    said = ask("is the door locked?", demo_index, lexicons, demo_rows())[2]
    assert said == "Yes, all 3 door are locked."
    assert ask("门锁了吗", demo_index, lexicons, demo_rows())[2] == "是的，全部 3 个门都锁了。"


# --- saying so instead of "none" -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "why", "said"),
    [
        ("which gates are open?", "nothing_found", "I can't find any gates to check."),
        ("哪些窗户锁着", "not_applicable", "我没法确认窗户是否锁着：它们不报告这个状态。"),
        (
            "which windows are locked?",
            "not_applicable",
            "I can't tell whether windows are locked: they don't report that.",
        ),
    ],
)
def test_an_uncertain_plan_says_so(
    demo_index: DeviceIndex, lexicons: LexiconSet, text: str, why: str, said: str
) -> None:
    _, result, text_said = ask(text, demo_index, lexicons, demo_rows())
    assert result.count == 0 and result.uncertain == why
    assert text_said == said


def test_a_device_that_cannot_have_the_status_is_not_a_no(lexicons: LexiconSet) -> None:
    rows = [row("light.kitchen", "on", "Kitchen Light")]
    plan = q(Filter("entity_id", "eq", "light.kitchen"), expect="locked", about={"style": "yes_no"})
    result = execute(plan, rows, lexicons.types)
    assert result.uncertain == "not_applicable" and not result.expected
    said = answer(plan, result, lexicons.get("en"))
    assert said == "I can't tell whether Kitchen Light is locked: it doesn't report that."
    assert answer(plan, result, lexicons.get("zh")) == (
        "我没法确认Kitchen Light是否已上锁：它不报告这个状态。"
    )


def test_nothing_unlocked_among_locks_is_a_sure_none(lexicons: LexiconSet) -> None:
    """Locks that are all locked answer "no door is unlocked" for sure; door contacts alone
    cannot answer it; an empty home has nothing to check."""
    unlocked = q(Filter("type", "in", ("door",)), Filter("status", "eq", "unlocked"))
    locks = [row("lock.a", "locked"), row("binary_sensor.d", "off", device_class="door")]
    assert execute(unlocked, locks, lexicons.types).uncertain is None
    contacts = [row("binary_sensor.d", "off", device_class="door")]
    assert execute(unlocked, contacts, lexicons.types).uncertain == "not_applicable"
    assert execute(unlocked, [row("light.x")], lexicons.types).uncertain == "nothing_found"


# --- which devices answer which status -------------------------------------------------------

DOOR_HOME = frozenset(
    {
        ("binary_sensor", "door"),
        ("cover", "door"),
        ("lock", None),
        ("cover", "garage"),
        ("binary_sensor", "lock"),
        ("light", None),
    }
)


def targets(type_id: str, status: str, lexicons: LexiconSet, present: Any = DOOR_HOME) -> set[Any]:
    table, kinds = load_statuses(), load_status_kinds()
    return set(
        type_targets(
            type_id,
            present,
            lexicons.types,
            (status,),
            lambda s, k: answers(s, k, table, kinds),
            kinds,
        )
    )


def test_a_door_that_is_locked_is_a_lock(lexicons: LexiconSet) -> None:
    assert targets("door", "unlocked", lexicons) == {("lock", None)}
    assert targets("door", "locked", lexicons) == {("lock", None)}
    # An open door is a contact sensor or a cover, a garage door among them, never a lock.
    opened = {("binary_sensor", "door"), ("cover", "door"), ("cover", "garage")}
    assert targets("door", "open", lexicons) >= opened
    assert ("lock", None) not in targets("door", "open", lexicons)
    # "开着" of a lock is "unlocked": locks and lock sensors both answer it.
    assert targets("lock", "on", lexicons) == {("lock", None), ("binary_sensor", "lock")}
    # A window is never locked: nothing answers.
    assert targets("window", "locked", lexicons) == set()
    # Without a status the type table's first tier the home has, as before.
    table, kinds = load_statuses(), load_status_kinds()
    plain = type_targets("door", DOOR_HOME, lexicons.types)
    assert plain == {("cover", "door"), ("binary_sensor", "door")}
    # A type whose tiers are fallbacks keeps the first that answers ("blinds" are not every
    # cover).
    covers = frozenset({("cover", "blind"), ("cover", "curtain")})
    assert targets("blind", "open", lexicons, covers) == {("cover", "blind")}
    assert kinds.every_tier and "blind" not in kinds.every_tier and table


@pytest.mark.parametrize(
    ("status", "kind", "named", "expected"),
    [
        ("on", ("lock", None), True, "unlocked"),
        ("on", ("lock", None), False, None),  # "what is on?" never lists locks
        ("open", ("lock", None), True, "unlocked"),
        ("closed", ("lock", None), True, "locked"),
        ("off", ("lock", None), True, "locked"),
        ("on", ("binary_sensor", "door"), True, "on"),
        ("open", ("binary_sensor", "door"), True, "open"),
        ("open", ("binary_sensor", None), True, "on"),
        ("locked", ("binary_sensor", "door"), True, None),
        ("locked", ("light", None), True, None),
        ("unlocked", ("binary_sensor", "lock"), True, "unlocked"),
    ],
)
def test_what_a_status_word_means_for_a_device(
    status: str, kind: tuple[str, str | None], named: bool, expected: str | None
) -> None:
    assert meaning(status, kind, load_statuses(), load_status_kinds(), named) == expected


def test_a_lock_sensor_reports_unlocked_when_on(lexicons: LexiconSet) -> None:
    rows = [row("binary_sensor.l", "on", device_class="lock"), row("lock.x", "locked")]
    unlocked = q(Filter("type", "in", ("lock",)), Filter("status", "eq", "unlocked"))
    assert [r["entity_id"] for r in execute(unlocked, rows, lexicons.types).rows] == [
        "binary_sensor.l"
    ]
