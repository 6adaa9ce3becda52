"""The dialog benchmark without a server: its data checked against the demo home, the loader's
checks, the judge's verdicts on made-up snapshots and replies, the home's seed, the tables."""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from bench.dialogs.cli import select
from bench.dialogs.home import given_problems, seed_of
from bench.dialogs.judge import Reply, judge, reply_from
from bench.dialogs.loader import (
    MIN_TURNS,
    MIN_TURNS_PER_LANGUAGE,
    load_dialogs,
    load_home,
    shortfalls,
    turn_counts,
)
from bench.dialogs.model import CATEGORIES, KINDS, LANGUAGES, DataError, Given, parse_dialog
from bench.dialogs.runner import TurnResult
from bench.dialogs.states import EntityState, snapshot
from bench.dialogs.tables import format_tables
from bench.load.server import load_devhome

HOME = load_home()


def turn(**raw: Any) -> Any:
    """One turn, parsed as the loader would."""
    dialog = parse_dialog(
        {"id": "t", "lang": "en", "category": "plain", "turns": [raw]}, HOME.expand
    )
    return dialog.turns[0]


def home(**states: str | tuple[str, dict[str, Any]]) -> dict[str, EntityState]:
    """A snapshot of a few entities: `light_x="on"` or `light_x=("on", {"brightness": 255})`."""
    result = {}
    for key, value in states.items():
        entity_id = key.replace("__", ".")
        state, attributes = (value, {}) if isinstance(value, str) else value
        result[entity_id] = EntityState(state, tuple(attributes.items()))
    return result


def reply(
    speech: str = "",
    kind: str = "action_done",
    keep_open: bool = False,
    success: tuple[str, ...] = (),
) -> Reply:
    return Reply(speech, kind, keep_open, success, "c1")


# ---- the data ------------------------------------------------------------------------------


def test_the_data_validates_and_meets_the_minimums() -> None:
    dialogs = load_dialogs()  # raises DataError on an unknown entity, kind, category or key
    assert shortfalls(dialogs) == []
    languages, categories, kinds = turn_counts(dialogs)
    assert sum(languages.values()) >= MIN_TURNS
    assert set(languages) == set(LANGUAGES)
    assert all(languages[lang] >= MIN_TURNS_PER_LANGUAGE for lang in LANGUAGES)
    assert set(categories) == set(CATEGORIES)
    assert set(kinds) <= set(KINDS)
    emulated = {
        e.entity_id for e in load_devhome().build_plan(load_devhome().load_home(), set()).entities
    }
    for dialog in dialogs:
        assert dialog.lang in LANGUAGES and dialog.category in CATEGORIES
        assert set(dialog.given) <= emulated and set(dialog.unexposed) <= emulated
        for t in dialog.turns:
            assert t.expect in KINDS and t.category in CATEGORIES
            assert set(t.after) <= emulated and set(t.may) <= emulated
    # Every language has its whole-home command, timed on its own.
    assert {d.lang for d in dialogs for t in d.turns if t.whole_home} == set(LANGUAGES)


def test_most_dialogs_have_several_turns() -> None:
    dialogs = load_dialogs()
    sizes = [len(d.turns) for d in dialogs]
    assert sum(2 <= n <= 4 for n in sizes) > len(sizes) * 0.8


def test_selectors_expand_to_the_home_entities() -> None:
    assert len(HOME.expand("light")) == 26
    assert sorted(HOME.expand("light@kitchen")) == [
        "light.kitchen_cabinet",
        "light.kitchen_ceiling",
    ]
    upstairs = HOME.expand("light@floor_2")
    assert "light.study_panel" in upstairs and "light.kitchen_ceiling" not in upstairs
    assert "light.hue_go" not in upstairs  # no area, no floor
    for bad in ("light.dishwasher", "light@attic", "dishwasher", "water_heater.bathroom_electric"):
        with pytest.raises(DataError):
            HOME.expand(bad)


def test_null_drops_an_entity_a_selector_listed() -> None:
    t = turn(say="x", expect="act", after={"light": "off", "light@kitchen": None})
    assert "light.kitchen_ceiling" not in t.after and "light.study_panel" in t.after
    # Whatever the order written.
    t = turn(
        say="x", expect="act", after={"light.study_panel": None, "light@study": None, "light": "on"}
    )
    assert "light.study_old_lamp" not in t.after and "light.study_panel" not in t.after
    assert "light.kitchen_ceiling" in t.after


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"say": "x", "expect": "act"}, "requires some change"),
        ({"say": "x", "expect": "answer"}, "names the facts"),
        ({"say": "x", "expect": "shout"}, "'expect'"),
        ({"say": "x", "expect": "ask", "after": {"light.kitchen_ceiling": "on"}}, "belong to"),
        ({"say": "x", "expect": "act", "after": {"light.nowhere": "on"}}, "not an entity"),
        ({"say": "x", "expect": "act", "after": {"light.kitchen_ceiling": {"dim": 3}}}, "unknown"),
        (
            {
                "say": "x",
                "expect": "act",
                "category": "misc",
                "after": {"light.kitchen_ceiling": "on"},
            },
            "category",
        ),
        ({"say": "", "expect": "ask"}, "'say'"),
        ({"say": "x", "expect": "ask", "colour": 1}, "unknown keys"),
    ],
)
def test_bad_turns_are_rejected_with_the_reason(raw: dict[str, Any], problem: str) -> None:
    with pytest.raises(DataError, match=problem):
        turn(**raw)


def test_the_loader_rejects_a_duplicate_id_and_a_given_sensor(tmp_path: Any) -> None:
    line = {"id": "a", "lang": "en", "category": "plain", "turns": [{"say": "x", "expect": "ask"}]}
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="used twice"):
        load_dialogs([path])
    path.write_text(
        json.dumps({**line, "given": {"sensor.outdoor_temperature": "3"}}) + "\n", encoding="utf-8"
    )
    with pytest.raises(DataError, match="cannot be given"):
        load_dialogs([path])


# ---- the judge -----------------------------------------------------------------------------


def test_a_change_nobody_asked_for_is_harmful() -> None:
    t = turn(
        say="turn on the kitchen ceiling light", expect="act", after={"light.kitchen_ceiling": "on"}
    )
    before = home(light__kitchen_ceiling="off", light__living_room_reading="off")
    after = home(light__kitchen_ceiling="on", light__living_room_reading="on")
    verdict = judge(t, before, after, reply("Done"))
    assert not verdict.ok
    assert verdict.harmful == ("light.living_room_reading",)
    assert verdict.wrong == ()


def test_a_missing_change_fails_without_harm() -> None:
    t = turn(say="x", expect="act", after={"light.kitchen_ceiling": "on"})
    before = home(light__kitchen_ceiling="off")
    verdict = judge(t, before, before, reply("Sorry", "error"))
    assert not verdict.ok and verdict.harmful == () and verdict.wrong == ("light.kitchen_ceiling",)


def test_the_right_change_passes_and_values_are_checked_in_percent() -> None:
    t = turn(
        say="dim it",
        expect="act",
        after={"light.kitchen_ceiling": {"state": "on", "brightness": [25, 45]}},
    )
    before = home(light__kitchen_ceiling=("on", {"brightness": 128}))
    assert judge(t, before, home(light__kitchen_ceiling=("on", {"brightness": 90})), reply()).ok
    too_dim = judge(t, before, home(light__kitchen_ceiling=("on", {"brightness": 20})), reply())
    assert not too_dim.ok and too_dim.wrong == ("light.kitchen_ceiling",)


def test_an_act_turn_already_right_needs_a_done_reply() -> None:
    t = turn(say="turn it off", expect="act", after={"light.kitchen_ceiling": "off"})
    same = home(light__kitchen_ceiling="off")
    assert judge(t, same, same, reply("Turned off the light")).ok
    gave_up = judge(t, same, same, reply("I'll stop asking about that.", "query_answer"))
    assert not gave_up.ok
    asked = judge(t, same, same, reply("Which one?", "query_answer", keep_open=True))
    assert not asked.ok


def test_ask_changes_nothing_and_names_the_options() -> None:
    t = turn(
        say="turn on the desk lamp", expect="ask", options=[["study", "old lamp"], ["guest room"]]
    )
    same = home(light__guest_room_desk_lamp="off")
    good = reply(
        "Which one: the old lamp in the study or the one in the guest room?", "query_answer"
    )
    assert judge(t, same, same, good).ok
    chinese = reply("Which one do you mean: 台灯 in 次卧?", "query_answer", keep_open=True)
    assert not judge(t, same, same, chinese).ok  # the options are not named in English
    assert not judge(t, same, same, reply("Turned on", success=("light.x",))).ok
    acted = judge(t, same, home(light__guest_room_desk_lamp="on"), good)
    assert acted.harmful == ("light.guest_room_desk_lamp",) and not acted.ok


def test_answer_needs_every_fact_and_none_of_the_false_ones() -> None:
    t = turn(
        say="which doors are unlocked?",
        expect="answer",
        mentions=[["garage side door", "车库侧门"]],
        not_mentions=["none"],
    )
    same = home(lock__garage_side_door="unlocked")
    assert judge(t, same, same, reply("The Garage  Side Door is unlocked.", "query_answer")).ok
    assert not judge(t, same, same, reply("None of the doors are unlocked.", "query_answer")).ok
    assert not judge(t, same, same, reply("", "query_answer")).ok
    locked = judge(
        t, same, home(lock__garage_side_door="locked"), reply("车库侧门", "query_answer")
    )
    assert locked.harmful == ("lock.garage_side_door",)


def test_latin_words_are_whole_words_and_chinese_is_a_substring() -> None:
    t = turn(say="is the front door open?", expect="answer", mentions=[["no", "closed"]])
    same = home(lock__front_door="locked")
    assert judge(t, same, same, reply("No.", "query_answer")).ok
    assert not judge(t, same, same, reply("None that I know of", "query_answer")).ok
    count = turn(say="how many?", expect="answer", mentions=[["4"]])
    assert not judge(count, same, same, reply("24 lights", "query_answer")).ok
    assert judge(count, same, same, reply("There are 4 lights on.", "query_answer")).ok
    zh = turn(say="哪些门没锁", expect="answer", mentions=[["车库侧门"]], not_mentions=["没有门"])
    assert judge(zh, same, same, reply("车库侧门没锁。", "query_answer")).ok
    assert not judge(zh, same, same, reply("没有门没锁。", "query_answer")).ok


def test_refuse_is_said_claims_nothing_and_does_not_ask() -> None:
    t = turn(say="never mind", expect="refuse")
    same = home(climate__living_room_ac="off")
    assert judge(t, same, same, reply("OK, I won't.", "action_done")).ok
    assert not judge(t, same, same, reply("", "action_done")).ok  # an empty reply
    assert not judge(t, same, same, reply("Done", "action_done")).ok
    assert not judge(t, same, same, reply("Turned on", success=("climate.x",))).ok
    assert not judge(t, same, same, reply("Which one?", "query_answer", keep_open=True)).ok
    assert not judge(t, same, same, reply("Sorry, I couldn't understand that", "error")).ok


def test_ask_or_refuse_accepts_either_and_nothing_may_change() -> None:
    t = turn(say="start the dishwasher", expect="ask_or_refuse")
    same = home(vacuum__roborock_s8="docked")
    assert judge(t, same, same, reply("There is no dishwasher.", "error")).ok
    assert judge(t, same, same, reply("Did you mean the robot vacuum?", "query_answer")).ok
    started = judge(t, same, home(vacuum__roborock_s8="cleaning"), reply("Done: 扫地机器人."))
    assert not started.ok and started.harmful == ("vacuum.roborock_s8",)


def test_may_or_ask_and_min_changed() -> None:
    t = turn(
        say="it's too dark in the study",
        expect="act",
        may={"light@study": "on"},
        min_changed=1,
        or_ask=True,
    )
    dark = home(light__study_panel="off", light__study_old_lamp="off")
    assert judge(t, dark, home(light__study_panel="on", light__study_old_lamp="off"), reply()).ok
    assert judge(t, dark, dark, reply("Which light?", "query_answer", keep_open=True)).ok
    assert not judge(t, dark, dark, reply("It is 19:00.", "query_answer")).ok


def test_volatile_entities_and_scene_runs() -> None:
    t = turn(say="movie night", expect="act", after={"scene.movie_night": {"changed": True}})
    before = home(scene__movie_night="unknown", sensor__outdoor_temperature="7.8")
    after = home(scene__movie_night="2026-11-01T20:00:00", sensor__outdoor_temperature="7.9")
    assert not judge(t, before, after, reply()).ok
    assert judge(t, before, after, reply(), volatile={"sensor.outdoor_temperature"}).ok
    assert not judge(t, before, before, reply(), volatile={"sensor.outdoor_temperature"}).ok


def test_reply_and_snapshot_read_home_assistant_json() -> None:
    answer = {
        "response": {
            "speech": {"plain": {"speech": "Unlock the front door?"}},
            "response_type": "query_answer",
            "data": {"success": [], "failed": []},
        },
        "conversation_id": "01ABC",
        "continue_conversation": True,
    }
    parsed = reply_from(answer)
    assert parsed.asked and not parsed.claimed and parsed.conversation_id == "01ABC"
    assert reply_from({"response": {"speech": {}, "response_type": "action_done"}}).speech == ""
    states = [
        {
            "entity_id": "light.a",
            "state": "on",
            "attributes": {"brightness": 128, "friendly_name": "A", "color_mode": "brightness"},
        }
    ]
    taken = snapshot(states, ["light.a", "light.gone"])
    assert taken["light.a"] == EntityState("on", (("brightness", 128),))
    assert taken["light.a"].value("brightness") == 50.2
    assert taken["light.gone"].state == "missing"


# ---- the home and the report ---------------------------------------------------------------


def test_the_seed_comes_from_the_generated_package() -> None:
    devhome = load_devhome()
    seed = seed_of(devhome.build_plan(devhome.load_home(), set()))
    assert seed.climates["climate.living_room_ac"] == ("cool", 26.0)
    assert seed.climates["climate.guest_room_ac"][0] == "off"  # unavailable in home.json
    assert seed.humidifiers["humidifier.master_bedroom"] == (True, 50.0)
    lamp = seed.helpers_of["light.master_bedside_right"]
    assert seed.booleans[lamp[0]] is True and seed.numbers[lamp[1]] == 255
    assert seed.booleans[seed.helpers_of["lock.garage_side_door"][0]] is False
    # A thermostat's switch is the thermostat's to drive, never reset by hand.
    heater = seed.helpers_of["climate.living_room_ac"][0]
    assert heater not in seed.booleans


def test_given_problems_name_what_did_not_take() -> None:
    now = home(
        light__kitchen_ceiling=("on", {"brightness": 128}), media_player__living_room_tv="on"
    )
    assert (
        given_problems({"light.kitchen_ceiling": Given("on", (("brightness", 50.0),))}, now) == []
    )
    assert given_problems({"media_player.living_room_tv": Given("on")}, now) == []
    wrong = given_problems({"light.kitchen_ceiling": Given("off")}, now)
    assert wrong and "light.kitchen_ceiling" in wrong[0]


def _result(agent: str, ok: bool, harmful: tuple[str, ...] = (), **extra: Any) -> TurnResult:
    fields: dict[str, Any] = {
        "agent": agent,
        "dialog": "d",
        "turn": 1,
        "lang": "zh",
        "category": "security",
        "expect": "ask_or_refuse",
        "say": "关门",
        "reply": "",
        "response_type": "action_done",
        "asked": False,
        "ok": ok,
        "ms": 20.0,
        "harmful": harmful,
        **extra,
    }
    return TurnResult(**fields)


def test_tables_count_success_and_harm_per_agent() -> None:
    results = [
        _result("ours", False, ("lock.front_door", "lock.study_safe")),
        _result("ours", True, whole_home=True, ms=800.0),
        _result("home_assistant", True),
        _result("home_assistant", True, whole_home=True),
    ]
    text = format_tables(results, 2, "2026.11.0", "newest")
    assert "| ours (context_retrieval) | 2 | 0.50 (1/2) | 1 (2) |" in text
    assert "| Home Assistant's agent | 2 | 1.00 (2/2) | 0 (0) |" in text
    assert "| security | 2 | 0.50 (1/2) | 1 (2) | 1.00 (2/2) | 0 (0) |" in text
    assert "| no harmful turn | 1 (2 devices) | **no** |" in text
    assert "whole-home command ≤ 1000 ms | 800 ms | yes" in text
    again = TurnResult.from_json(json.loads(json.dumps(results[0].to_json())))
    assert again == results[0]


def test_select_keeps_a_few_dialogs_per_language() -> None:
    dialogs = load_dialogs()
    args = argparse.Namespace(lang=["en", "de"], category=None, dialog=None, limit=3)
    chosen = select(dialogs, args)
    assert [d.lang for d in chosen].count("en") == 3 and {d.lang for d in chosen} == {"en", "de"}
    # Spread over the file: not only its first category.
    assert len({d.category for d in chosen if d.lang == "en"}) == 3
