"""The hassil peer on a tiny in-memory home (real hassil + home-assistant-intents, no HA)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import peer_hassil

HOME: dict[str, Any] = {
    "home_id": "tiny_en",
    "language": "en",
    "floors": [],
    "areas": [
        {"area_id": "kitchen", "name": "Kitchen", "aliases": [], "floor_id": None},
        {"area_id": "bedroom", "name": "Bedroom", "aliases": [], "floor_id": None},
    ],
    "entities": [
        {
            "entity_id": "light.kitchen_ceiling",
            "name": "Ceiling Light",
            "aliases": [],
            "domain": "light",
            "device_class": None,
            "area_id": "kitchen",
            "labels": [],
            "state": "off",
        },
        {
            "entity_id": "light.kitchen_island",
            "name": "Island Light",
            "aliases": [],
            "domain": "light",
            "device_class": None,
            "area_id": "kitchen",
            "labels": [],
            "state": "off",
        },
        {
            "entity_id": "switch.kitchen_kettle",
            "name": "Kettle",
            "aliases": [],
            "domain": "switch",
            "device_class": None,
            "area_id": "kitchen",
            "labels": [],
            "state": "off",
        },
        {
            "entity_id": "light.bedroom_lamp",
            "name": "Bedroom Lamp",
            "aliases": [],
            "domain": "light",
            "device_class": None,
            "area_id": "bedroom",
            "labels": [],
            "state": "on",
        },
    ],
}


@pytest.fixture(scope="module")
def peer() -> peer_hassil.HassilPeer:
    return peer_hassil.HassilPeer()


def test_area_and_domain_resolve_to_the_lights_in_that_area(
    peer: peer_hassil.HassilPeer,
) -> None:
    selected = peer.predict(HOME, "turn on the kitchen lights", "en")
    assert sorted(selected) == ["light.kitchen_ceiling", "light.kitchen_island"]


def test_entity_name_resolves_to_that_entity(peer: peer_hassil.HassilPeer) -> None:
    assert peer.predict(HOME, "turn off the kettle", "en") == ["switch.kitchen_kettle"]


def test_unknown_sentence_predicts_nothing(peer: peer_hassil.HassilPeer) -> None:
    stats = peer_hassil.PeerStats()
    assert peer.predict(HOME, "what is the airspeed of an unladen swallow", "en", stats=stats) == []
    assert stats.outcomes["no_sentence"] == 1


def test_run_writes_one_prediction_per_turn_and_never_raises(tmp_path: Path) -> None:
    homes = tmp_path / "homes"
    homes.mkdir()
    (homes / "tiny_en.json").write_text(json.dumps(HOME), encoding="utf-8")
    cases = [
        {
            "case_id": "a",
            "language": "en",
            "home_id": "tiny_en",
            "turns": [
                {
                    "text": "turn on the kitchen lights",
                    "context_area_id": None,
                    "gold_entity_ids": ["light.kitchen_ceiling", "light.kitchen_island"],
                },
                {
                    "text": "now turn them off",
                    "context_area_id": None,
                    "gold_entity_ids": ["light.kitchen_ceiling", "light.kitchen_island"],
                },
            ],
        },
        {
            "case_id": "b",
            "language": "en",
            "home_id": "no_such_home",
            "turns": [
                {
                    "text": "turn on the kettle",
                    "context_area_id": None,
                    "gold_entity_ids": ["switch.kitchen_kettle"],
                }
            ],
        },
    ]
    case_file = tmp_path / "cases.jsonl"
    case_file.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")

    stats = peer_hassil.PeerStats()
    predictions, scores = peer_hassil.run(homes, [case_file], stats)

    assert [(p["case_id"], p["turn"]) for p in predictions] == [("a", 0), ("a", 1), ("b", 0)]
    assert all(p["clarification"] is None and p["latency_ms"] >= 0 for p in predictions)
    assert [s.hit for s in scores] == [True, False, False]  # no memory for "them"
    assert stats.outcomes["exception"] == 1  # the unknown home, counted instead of raised


def test_chinese_case_languages_map_to_the_intents_package_code() -> None:
    available = ["en", "zh-cn", "zh-hk", "zh-tw"]
    assert peer_hassil.intents_language("zh", available) == "zh-cn"
    assert peer_hassil.intents_language("zh-cn", available) == "zh-cn"
    assert peer_hassil.intents_language("en", available) == "en"
