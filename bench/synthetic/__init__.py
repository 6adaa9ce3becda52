"""Synthetic homes and benchmark cases of any size, seeded and deterministic.

    home = make_home(10_000, language="zh", seed=0)    # the benchmark JSON home format
    cases = make_cases(home, 300, seed=1)              # the benchmark case format

    .venv/bin/python -m bench.synthetic --entities 2000 --language en --home H.json --cases C.jsonl

Homes follow `../shared/benchmark/dev/README.md` ("Home format"): a house for small sizes
(living room, kitchen, bedrooms … on two or three floors), a building for large ones (a lobby,
a gym, and per floor a hallway, a kitchenette, a meeting room and numbered rooms, "Room 204" /
"204房间"). Names repeat from room to room the way they do in real homes ("Ceiling Light" /
"吸顶灯" in every room), some names mention their room ("Kitchen Pendant"), and about 10 % of
entities have an alias, 10 % a label, 30 % a device name; a few have no area.

Case gold is computed from the home data with the README's rules ("Gold resolution"): names
and aliases compare after trim + casefold; area/floor + type → every entity of that domain
(and device class) there. Nothing here knows how the engine works.
"""

from __future__ import annotations

from .cases import case_kind, make_cases
from .homes import make_home
from .rooms import area_count

__all__ = ["area_count", "case_kind", "make_cases", "make_home"]
