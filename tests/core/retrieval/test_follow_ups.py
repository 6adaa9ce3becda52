"""core/retrieval/follow_ups.py: what a command takes from the conversation before it."""

from __future__ import annotations

from custom_components.context_retrieval.core import Area, ConversationState, DeviceIndex, retrieve
from tests.core.conftest import make_device


def test_the_same_where_the_last_devices_are_is_those_devices_elsewhere_the_last_command() -> None:
    """After turning on the stove lamp, "dasselbe in der Küche" is that lamp (not every lamp
    of the kitchen), and "dasselbe im Schlafzimmer" the last command there."""
    kitchen, bedroom = Area("kueche", "Küche"), Area("schlafzimmer", "Schlafzimmer")
    devices = [
        make_device("light.herd", "Herdlampe", kitchen),
        make_device("light.decke", "Deckenlampe", kitchen),
        make_device("light.schlaf", "Deckenlampe", bedroom),
    ]
    index = DeviceIndex.build(devices, [kitchen, bedroom], language="de")
    for second, expected in [
        ("dasselbe in der Küche", ["light.herd"]),
        ("dasselbe im Schlafzimmer", ["light.schlaf"]),
    ]:
        state = ConversationState()
        retrieve("schalte die Herdlampe ein", index, state=state, language="de")
        results = retrieve(second, index, state=state, language="de")
        assert [(r.ir.action, r.selected_ids) for r in results] == [("turn_on", expected)]
