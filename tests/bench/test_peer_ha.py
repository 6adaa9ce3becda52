"""Home Assistant's own default agent as the peer, in a Home Assistant of its own (a child
process started as `python -m homeassistant` starts it), on a tiny home."""

from __future__ import annotations

from bench import peer_ha

from .test_peer_hassil import HOME

CASES = [
    {
        "case_id": "area",
        "home_id": "tiny_en",
        "language": "en",
        "turns": [
            {
                "text": "turn on the kitchen lights",
                "gold_entity_ids": ["light.kitchen_ceiling", "light.kitchen_island"],
            }
        ],
    },
    {
        "case_id": "name",
        "home_id": "tiny_en",
        "language": "en",
        "turns": [{"text": "turn off the kettle", "gold_entity_ids": ["switch.kitchen_kettle"]}],
    },
    {
        "case_id": "nothing",
        "home_id": "tiny_en",
        "language": "en",
        "turns": [{"text": "turn on the garage door opener", "gold_entity_ids": []}],
    },
]


def test_the_default_agent_acts_on_what_it_understood() -> None:
    predictions = {p["case_id"]: p for p in peer_ha.predict_home(HOME, CASES)}
    assert predictions["area"]["selected_entity_ids"] == [
        "light.kitchen_ceiling",
        "light.kitchen_island",
    ]
    assert predictions["name"]["selected_entity_ids"] == ["switch.kitchen_kettle"]
    assert predictions["nothing"]["selected_entity_ids"] == []
    assert all(p["clarification"] is None for p in predictions.values())
