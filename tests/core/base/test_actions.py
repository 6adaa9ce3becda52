"""core/base/actions.py: the abstract actions and what each domain can do by default."""

from __future__ import annotations

import dataclasses

import pytest

from custom_components.context_retrieval.core import retrieve
from custom_components.context_retrieval.core.base.actions import (
    ACTIONS,
    DOMAIN_ACTIONS,
    READ_ONLY_ACTIONS,
    default_actions,
    device_actions,
)
from tests.core.conftest import make_device


def test_domain_defaults() -> None:
    assert default_actions("light") >= {"turn_on", "turn_off", "set_brightness"}
    assert "open" in default_actions("cover") and "turn_on" not in default_actions("cover")
    # A lock's "open" unlatches the door, so "open" is not one of its defaults.
    assert "open" not in default_actions("lock") and "unlatch" in default_actions("lock")
    assert default_actions("sensor") == frozenset()
    assert default_actions("weird_domain") == frozenset()


def test_declared_actions_win_over_the_domain_defaults() -> None:
    lamp = make_device("light.lamp", "Lamp")
    assert device_actions(lamp) == default_actions("light")
    white_only = dataclasses.replace(lamp, actions=frozenset({"turn_on", "turn_off"}))
    assert device_actions(white_only) == {"turn_on", "turn_off"}
    bare = dataclasses.replace(lamp, actions=frozenset())
    assert device_actions(bare) == default_actions("light")


def test_every_action_a_domain_can_do_is_one_the_engine_knows() -> None:
    known = set(ACTIONS) | {"unlatch", "set_hvac_mode", "set_humidity"}
    for domain, actions in DOMAIN_ACTIONS.items():
        for action in actions:
            satisfied = any(action in explicit for explicit, _strict in ACTIONS.values())
            assert action in known or satisfied, (domain, action)
    assert "query" in READ_ONLY_ACTIONS and "query" not in ACTIONS


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("mets la télé en sourdine", "fr"),
        ("schalte den Fernseher stumm", "de"),
        ("把电视静音", "zh"),
    ],
)
def test_muting_said_with_a_generic_verb_is_a_mute(demo_index, text: str, language: str) -> None:
    """ "Mets … en sourdine": the verb that says most (mute) wins over the generic one (set)."""
    (result,) = retrieve(text, demo_index, language=language)
    assert result.ir.action == "mute"
