"""Fixtures and helpers shared by the tests of this package."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from custom_components.context_retrieval.core import Area, Floor, LexiconSet
from custom_components.context_retrieval.core.views.canonical import canonicalize
from custom_components.context_retrieval.core.views.model import (
    rule_to_json,
)
from custom_components.context_retrieval.core.views.parser import (
    Connectives,
    parse_rule,
)
from custom_components.context_retrieval.core.views.universe import TagUniverse
from tests.core.conftest import make_device


@pytest.fixture(scope="module")
def conn(lexicons: LexiconSet) -> Connectives:
    return Connectives.from_lexicons(lexicons, ("en", "zh"))


def canon(text: str, conn: Connectives, known: frozenset[str] = frozenset()) -> str:
    return rule_to_json(canonicalize(parse_rule(text, conn, known)))


def tag(t: str) -> dict[str, str]:
    return {"kind": "tag", "tag": t}


def group(op: str, *children: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "group", "op": op, "children": list(children)}


@pytest.fixture(scope="module")
def universe(lexicons: LexiconSet) -> TagUniverse:
    down = Floor("ground", "Ground Floor", ("downstairs",))
    up = Floor("first", "First Floor", ("upstairs",))
    living = Area("living_room", "Living Room", ("lounge",), "ground")
    porch = Area("porch", "Porch", (), "ground")
    kitchen = Area("kitchen", "Kitchen", (), "ground")
    bedroom = Area("bedroom", "Bedroom", (), "first")
    devices = [
        make_device(
            "light.tree", "Tree Lights", living, down, labels=("Christmas",), device_id="dev_tree"
        ),
        make_device(
            "switch.tree_star",
            "Tree Star",
            living,
            down,
            labels=("Christmas",),
            device_id="dev_tree",
        ),
        make_device(
            "light.porch_garland",
            "Garland",
            porch,
            down,
            labels=("Christmas",),
            device_id="dev_garland",
        ),
        make_device(
            "light.bedroom_stars",
            "Star Projector",
            bedroom,
            up,
            labels=("Christmas",),
            device_id="dev_stars",
        ),
        make_device("light.kitchen", "Kitchen Ceiling", kitchen, down, device_id="dev_k"),
        make_device("light.living", "Living Ceiling", living, down),
        make_device("binary_sensor.porch_door", "Porch Door", porch, down, device_class="door"),
        make_device(
            "sensor.kitchen_temp",
            "Kitchen Temperature",
            kitchen,
            down,
            device_class="temperature",
            labels=("kitchen",),
        ),
    ]
    return TagUniverse.build(
        devices,
        [living, porch, kitchen, bedroom],
        [down, up],
        lexicons,
        labels={"christmas": "Christmas", "kitchen": "kitchen", "unused": "Spare"},
    )


class FakeLLM:
    def __init__(self, answer: str | Exception = "", delay: float = 0.0) -> None:
        self.answer = answer
        self.delay = delay
        self.calls: list[tuple[str, str]] = []

    async def complete(self, system_prompt: str, user_text: str) -> str:
        self.calls.append((system_prompt, user_text))
        if self.delay:
            await asyncio.sleep(self.delay)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


GOOD = json.dumps(
    {
        "rule": group("AND", tag("christmas"), tag("porch")),
        "rewrite_note": "Christmas things on the porch",
    }
)
