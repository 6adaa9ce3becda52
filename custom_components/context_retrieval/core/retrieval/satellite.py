"""The satellite's area: "turn off the lights" said to the kitchen satellite.

A command that names no room, floor or "everywhere" and asks for devices by their type
("the lights", "set the brightness to 50 %") means the ones in the area of the voice satellite
it was said to, as Home Assistant reads it — when that area has any. Otherwise, and for "all
the lights", it means the whole home.
"""

from __future__ import annotations

from collections.abc import Callable

from ..base.models import Candidate, QueryIR
from .context import RunContext
from .meta import ResultMeta


def satellite_area(ir: QueryIR, ctx: RunContext) -> str | None:
    """The satellite's area when this command leaves the place to it; None otherwise."""
    if ctx.context_area is None:
        return None
    if ir.scope_include or ir.floor_include or ir.here or ir.everywhere or ir.labels:
        return None
    if ir.quantifier in ("all", "except") or ir.scope_exclude or ir.floor_exclude:
        return None
    return ctx.context_area


def prefer_satellite(
    ir: QueryIR,
    ctx: RunContext,
    pool: list[str],
    select: Callable[[list[str]], list[Candidate]],
    meta: ResultMeta,
) -> list[Candidate]:
    """`select` over the satellite's area first, over the whole `pool` when that finds none."""
    area = satellite_area(ir, ctx)
    if area is not None:
        in_area = ctx.index.postings.by_area.get(area, set())
        local = [e for e in pool if e in in_area]
        if local:
            chosen = select(local)
            if chosen:
                meta.satellite_area = area
                return chosen
    return select(pool)
