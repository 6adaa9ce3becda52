"""bench/tokens.py on a tiny home, through the same code path as the benchmark."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant

from bench.synthetic import make_cases, make_home
from bench.tokens import (
    TokenCounter,
    async_measure_home,
    prompt_ids,
    render,
    run_home,
)


def _name_case(home: dict[str, Any]) -> dict[str, Any]:
    """A case naming one entity whose name no other entity shares."""
    for case in make_cases(home, 200, seed=1):
        turns = case["turns"]
        if (
            len(turns) == 1
            and turns[0]["gold_kind"] == "name"
            and len(turns[0]["gold_entity_ids"]) == 1
        ):
            return case
    raise AssertionError("the generator made no simple name case")


def test_prompt_ids_reads_our_yaml() -> None:
    yaml = (
        '# header\ndevices:\n  - id: "light.a"\n    name: "A"\n'
        '  - id: "switch.b_\\"x"\n    name: "- id: \\"light.c\\""\n'
    )
    assert prompt_ids(yaml) == ["light.a", 'switch.b_"x']


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_tiny_home(
    hass: HomeAssistant, enable_custom_integrations: None, language: str
) -> None:
    home = make_home(60, language, seed=0)
    case = _name_case(home)
    run = await async_measure_home(hass, home, [case], TokenCounter(use_bpe=False), assist_every=1)
    assert run.entities == 60
    assert not run.problems, run.examples
    assert run.same_tools
    assert run.assist_entries == run.exposed_non_script
    [turn] = run.turns
    assert turn.gold_in_prompt, (turn.text, turn.gold, turn.listed)
    assert turn.gold_in_engine
    assert 0 < turn.ours_est < turn.assist_est
    assert turn.assist_bpe is None and turn.ours_bpe is None
    text = render([run], [], TokenCounter(use_bpe=False), 1)
    assert "| 60 |" in text and "100.0% (1/1)" in text


def test_tiny_home_in_a_home_assistant_of_its_own() -> None:
    """The benchmark's own path: a child process that starts Home Assistant the way
    `python -m homeassistant` does (no test package), and the run coming back from it."""
    home = make_home(40, "en", seed=0)
    run = run_home(
        home, [_name_case(home)], TokenCounter(use_bpe=False), "synthetic", assist_every=1
    )
    assert run.entities == 40
    assert not run.problems, run.examples
    assert run.same_tools
    [turn] = run.turns
    assert turn.gold_in_prompt, (turn.text, turn.gold, turn.listed)
    assert 0 < turn.ours_est < turn.assist_est


def test_whole_floors_and_rooms_in_our_yaml_stand_for_their_exposed_devices() -> None:
    from bench.tokens.measure import place_resolver

    home = {
        "floors": [{"floor_id": "f1", "name": "Ground Floor"}],
        "areas": [
            {"area_id": "k", "name": "Kitchen", "floor_id": "f1"},
            {"area_id": "b", "name": "Bedroom", "floor_id": None},
        ],
        "entities": [
            {"entity_id": "light.k1", "area_id": "k"},
            {"entity_id": "light.k2", "area_id": "k"},
            {"entity_id": "switch.k3", "area_id": "k"},
            {"entity_id": "light.hidden", "area_id": "k"},
            {"entity_id": "light.b1", "area_id": "b"},
            {"entity_id": "light.none", "area_id": None},
        ],
    }
    exposed = {"light.k1", "light.k2", "switch.k3", "light.b1", "light.none"}
    places = place_resolver(home, exposed, {})
    yaml = (
        '# header\nall_of_domain_in:\n  "light": {floors: ["ground floor"], areas: ["Bedroom"]}\n'
        'devices:\n  - id: "switch.k3"\n'
    )
    assert prompt_ids(yaml, places) == ["light.k1", "light.k2", "light.b1", "switch.k3"]
    assert prompt_ids(yaml) == ["switch.k3"]  # without the home, only the ids


def _turn(gold: list[str], alt: list[str] | None, listed: list[str]) -> Any:
    from bench.tokens.measure import TurnRecord

    return TurnRecord(
        group="dev", home_id="h", entities=500, language="en", case_id="c", turn=0,
        text="t", kind="domain", clarify=False, gold=gold, alt_gold=alt, assist_est=1000,
        ours_est=100, assist_bpe=None, ours_bpe=None, listed=listed, assist_ms=None,
        ours_ms=1.0, retrieval_ms=1.0, omitted=False, nothing=False,
    )  # fmt: skip


def test_grown_dev_homes_report_gold_and_the_alternative_reading_apart() -> None:
    from bench.tokens.measure import HomeRun
    from bench.tokens.tables import padded_table, padded_targets

    run = HomeRun(group="dev", home_id="h", entities=500, language="en")
    run.turns = [_turn(["light.a"], None, ["light.a"]) for _ in range(49)]
    # The satellite's-area reading: not the strict gold, but the README's alternative one.
    run.turns.append(_turn(["light.b"], ["light.c"], ["light.c"]))
    table = padded_table([run])
    assert "| 98.0% (49/50) | 100.0% (50/50) |" in table
    targets = padded_targets([run])
    assert "| gold in our prompt ≥ 98% at 500 entities | 98.0% | yes |" in targets
    assert "| gold or alt gold in our prompt ≥ 98% at 500 entities | 100.0% | yes |" in targets
    run.turns.append(_turn(["light.b"], ["light.c"], ["light.d"]))
    assert "| gold or alt gold in our prompt ≥ 98% at 500 entities | 98.0% | yes |" in (
        padded_targets([run])
    )
    run.turns.append(_turn(["light.b"], None, []))
    assert "| gold in our prompt ≥ 98% at 500 entities | 94.2% | no |" in padded_targets([run])


def test_every_miss_lists_each_turn_whose_gold_is_not_in_our_prompt_with_its_cause() -> None:
    from bench.tokens.tables import every_miss

    hit = _turn(["light.a"], None, ["light.a"])
    nothing = _turn(["light.b"], None, [])
    other = _turn(["light.c", "light.d"], None, ["light.c", "light.x"])
    other.engine = ["light.x", "light.c"]
    lines = every_miss([hit, nothing, other, _turn([], None, [])]).splitlines()
    assert lines == [
        '- [en 500] domain, nothing listed: "t" (`c` turn 0) — missing 1 of 1 gold (light.b); '
        "listed 0; engine 0 ()",
        '- [en 500] domain, other entities listed: "t" (`c` turn 0) — missing 1 of 2 gold '
        "(light.d); listed 2; engine 2 (light.c, light.x)",
    ]
