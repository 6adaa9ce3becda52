"""The synthetic home and case generator: deterministic, well-formed, and its gold is right."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.synthetic import make_cases, make_home
from custom_components.context_retrieval.core import home_from_dict

ROOT = Path(__file__).resolve().parents[2]


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@pytest.fixture(scope="module", params=["en", "zh"])
def home(request: pytest.FixtureRequest) -> dict[str, Any]:
    return make_home(1000, request.param, seed=7)


@pytest.fixture(scope="module")
def cases(home: dict[str, Any]) -> list[dict[str, Any]]:
    return make_cases(home, 300, seed=3)


# ---- determinism ------------------------------------------------------------------------------


def test_same_seed_same_home_and_cases() -> None:
    a, b = make_home(400, "zh", seed=5), make_home(400, "zh", seed=5)
    assert a == b
    assert make_cases(a, 60, seed=2) == make_cases(b, 60, seed=2)
    assert make_home(400, "zh", seed=6) != a
    assert make_cases(a, 60, seed=3) != make_cases(a, 60, seed=2)


def test_independent_of_hash_seed() -> None:
    """Nothing may depend on set or dict-of-str ordering, which changes per process."""
    code = (
        "import hashlib, json; from bench.synthetic import make_home, make_cases; "
        "h = make_home(300, 'en', seed=1); c = make_cases(h, 80, seed=1); "
        "print(hashlib.sha256(json.dumps([h, c], sort_keys=True).encode()).hexdigest())"
    )
    digests = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        digests.add(out)
    assert len(digests) == 1


# ---- shape of the home -------------------------------------------------------------------------


@pytest.mark.parametrize("size", [7, 50, 100, 1000, 2500])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_entity_count_and_references(size: int, language: str) -> None:
    data = make_home(size, language, seed=0)
    entities = data["entities"]
    assert len(entities) == size
    ids = [e["entity_id"] for e in entities]
    assert len(set(ids)) == size
    assert all(i.split(".", 1)[0] == e["domain"] for i, e in zip(ids, entities, strict=True))
    floor_ids = {f["floor_id"] for f in data["floors"]}
    area_ids = [a["area_id"] for a in data["areas"]]
    assert len(set(area_ids)) == len(area_ids)
    assert len({a["name"].casefold() for a in data["areas"]}) == len(area_ids)
    assert all(a["floor_id"] is None or a["floor_id"] in floor_ids for a in data["areas"])
    assert all(e["area_id"] is None or e["area_id"] in set(area_ids) for e in entities)
    home = home_from_dict(data)
    assert home.warnings == []
    assert len(home.devices) == size


def test_areas_scale_with_size() -> None:
    small = make_home(100, "en")
    large = make_home(10_000, "en")
    assert 8 <= len(small["areas"]) <= 12
    assert 180 <= len(large["areas"]) <= 200
    assert len(small["floors"]) >= 2
    assert len(large["floors"]) >= 5
    names = {a["name"] for a in large["areas"]}
    assert "Room 204" in names
    assert "二楼会议室" in {a["name"] for a in make_home(10_000, "zh")["areas"]}


def test_realistic_mix(home: dict[str, Any]) -> None:
    entities = home["entities"]
    n = len(entities)
    domains = Counter(e["domain"] for e in entities)
    for domain in (
        "light",
        "switch",
        "fan",
        "climate",
        "cover",
        "media_player",
        "lock",
        "sensor",
        "binary_sensor",
        "scene",
        "script",
    ):
        assert domains[domain] > 0, domain
    assert {e["device_class"] for e in entities if e["domain"] == "cover"} >= {"blind", "curtain"}
    assert 0.05 <= sum(bool(e["aliases"]) for e in entities) / n <= 0.2
    assert 0.05 <= sum(bool(e["labels"]) for e in entities) / n <= 0.2
    assert 0.2 <= sum("device_name" in e for e in entities) / n <= 0.4
    assert 0 < sum(e["area_id"] is None for e in entities) < 0.1 * n
    ceiling = "吸顶灯" if home["language"] == "zh" else "Ceiling Light"
    assert sum(e["name"] == ceiling for e in entities) >= 10
    assert all(f["aliases"] for f in home["floors"])
    assert any(a["aliases"] for a in home["areas"])


# ---- gold, recomputed here -------------------------------------------------------------------


def _cf(text: str) -> str:
    return text.strip().casefold()


def _turns(cases: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [t for c in cases for t in c["turns"] if t["gold_kind"] == kind]


def test_case_format(cases: list[dict[str, Any]], home: dict[str, Any]) -> None:
    assert len(cases) == 300
    assert len({c["case_id"] for c in cases}) == 300
    ids = {e["entity_id"] for e in home["entities"]}
    for case in cases:
        assert case["home_id"] == home["home_id"]
        assert case["language"] == home["language"]
        for turn in case["turns"]:
            assert turn["text"].strip()
            assert "{" not in turn["text"] and "!" not in turn["text"]
            assert turn["gold_entity_ids"] and set(turn["gold_entity_ids"]) <= ids
            assert set(turn.get("alt_gold_entity_ids", [])) <= ids
    kinds = Counter(c["source"]["kind"] for c in cases)
    expected = {"name", "area_type", "floor_type", "except", "followup", "clarify", "name_area"}
    if home["language"] == "en":
        expected.add("typo")
    else:
        assert "typo" not in kinds
    assert set(kinds) == expected


def test_gold_of_names(cases: list[dict[str, Any]], home: dict[str, Any]) -> None:
    """(a): exactly the entity whose name or alias is the one said."""
    turns = _turns(cases, "name")
    assert len(turns) > 20
    for turn in turns:
        name = _cf(turn["gold_spec"]["name"])
        owners = [
            e["entity_id"]
            for e in home["entities"]
            if name in {_cf(x) for x in [e["name"], *e["aliases"]]}
        ]
        assert sorted(owners) == turn["gold_entity_ids"]
        assert name in turn["text"].casefold()
        assert not turn["expect_clarification"]


def test_gold_of_area_and_type(cases: list[dict[str, Any]], home: dict[str, Any]) -> None:
    """(b): every entity of the domain (and device class) in the area, and the area is said."""
    turns = [t for t in _turns(cases, "area_domain") + _turns(cases, "area_device_class")]
    assert len(turns) > 10
    areas = {a["area_id"]: a for a in home["areas"]}
    for turn in turns:
        spec = turn["gold_spec"]
        expected = sorted(
            e["entity_id"]
            for e in home["entities"]
            if e["area_id"] == spec["area"]
            and e["domain"] == spec["domain"]
            and (spec["device_class"] is None or e["device_class"] == spec["device_class"])
        )
        assert expected == turn["gold_entity_ids"]
        area = areas[spec["area"]]
        said = turn["text"].casefold()
        assert any(_cf(s) in said for s in [area["name"], *area["aliases"]])


def test_gold_of_floor_and_except(cases: list[dict[str, Any]], home: dict[str, Any]) -> None:
    floor_of = {a["area_id"]: a["floor_id"] for a in home["areas"]}

    def of_type(e: dict[str, Any], spec: dict[str, Any]) -> bool:
        return e["domain"] == spec["domain"] and (
            spec["device_class"] is None or e["device_class"] == spec["device_class"]
        )

    for turn in _turns(cases, "floor_domain") + _turns(cases, "floor_device_class"):
        spec = turn["gold_spec"]
        assert turn["gold_entity_ids"] == sorted(
            e["entity_id"]
            for e in home["entities"]
            if of_type(e, spec) and e["area_id"] and floor_of[e["area_id"]] == spec["floor"]
        )
    for turn in _turns(cases, "except"):
        spec = turn["gold_spec"]
        assert turn["gold_entity_ids"] == sorted(
            e["entity_id"]
            for e in home["entities"]
            if of_type(e, spec) and e["area_id"] != spec["exclude_area"]
        )


def test_clarify_followup_and_typo(cases: list[dict[str, Any]], home: dict[str, Any]) -> None:
    for turn in _turns(cases, "clarify"):
        name = _cf(turn["gold_spec"]["name"])
        owners = [
            e["entity_id"]
            for e in home["entities"]
            if name in {_cf(x) for x in [e["name"], *e["aliases"]]}
        ]
        assert turn["expect_clarification"]
        assert len(owners) >= 2 and sorted(owners) == turn["gold_entity_ids"]
    for case in cases:
        if case["source"]["kind"] == "followup":
            first, second = case["turns"]
            assert len(first["gold_entity_ids"]) == 1
            assert second["gold_entity_ids"] == first["gold_entity_ids"]
    for turn in _turns(cases, "typo"):
        name, typo = turn["gold_spec"]["name"].lower(), turn["gold_spec"]["typo"]
        assert typo != name and typo in turn["text"]
        assert _edit_distance(name, typo) == 1


def _edit_distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
