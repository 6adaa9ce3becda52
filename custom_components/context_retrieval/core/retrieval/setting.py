"""The setting a command carries, completed once its devices are known.

The compiler reads the value ("50 %", "2700 K", "red") and, where the words tell, the
attribute it sets. "Set the kitchen fan to 50 %" names a device but no attribute: the device's
domain says it (a fan's speed). The result's `meta.setting` then holds, language-neutral,
what the conversation agent hands to Home Assistant's intents (HassLightSet,
HassSetPosition, HassFanSetSpeed …).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..base.models import QueryIR
from ..base.parse.values import takes_a_value
from .context import RunContext


def complete_setting(
    ir: QueryIR, selected: list[str], ctx: RunContext
) -> tuple[QueryIR, dict[str, Any] | None]:
    """The command with the attribute its words left out taken from the selected devices'
    domain, and its setting as `meta.setting` (None when it carries none)."""
    if ir.value is None and ir.change is None and ir.attribute is None:
        return ir, None
    if (
        ir.attribute is None
        and selected
        and (ir.value is not None or ir.change is not None)
        and takes_a_value(ir.action, ir.unit, ctx.lexicons)
    ):
        ir = _from_domain(ir, selected, ctx)
    setting: dict[str, Any] = {"attribute": ir.attribute, "value": ir.value, "unit": ir.unit}
    if ir.change:
        setting["change"] = ir.change
    if ir.value_error:
        setting["error"] = ir.value_error
    return ir, setting


def _from_domain(ir: QueryIR, selected: list[str], ctx: RunContext) -> QueryIR:
    """A bare number or "higher" said of devices whose domain has one setting for it: a
    light's brightness, a thermostat's temperature ("把客厅空调温度设成24", "调高一点")."""
    table = ctx.lexicons.values
    actions = {
        table.percent_by_domain.get(ctx.index.device(e).domain) for e in selected if e in ctx.index
    }
    if len(actions) != 1 or None in actions:
        return ir
    action = actions.pop()
    if not takes_a_value(ir.action, ir.unit, ctx.lexicons, becomes=action):
        return ir  # "关闭窗帘到50%" closes a cover to a position; a light said off stays off
    spec = table.actions.get(action or "")
    if spec is None:
        return ir
    unit = ir.unit or spec.unit
    bounds = spec.ranges.get(unit or "")
    out_of_range = (
        bounds is not None
        and isinstance(ir.value, float)
        and not bounds[0] <= ir.value <= bounds[1]
    )
    return replace(
        ir,
        action=action,
        attribute=spec.attribute,
        unit=unit,
        value_error="out_of_range" if out_of_range else ir.value_error,
    )
