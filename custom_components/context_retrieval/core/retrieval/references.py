"""Reference resolution: "it", "them", "它", "那个" and commands with no target at all.

"打开客厅灯" → "调亮它" → "关掉" all act on the same lamp. Only what the last
turn selected, still fresh, and able to do the new action counts.
"""

from __future__ import annotations

from ..base.index import DeviceIndex
from ..base.models import QueryIR
from .capability import is_capable
from .state import ConversationState


def resolve_references(
    ir: QueryIR, state: ConversationState | None, index: DeviceIndex
) -> list[str]:
    """Entity ids the command refers back to; empty when nothing fits."""
    if state is None:
        return []
    last = [e for e in state.last_turn() if e in index]
    if not last:
        last = [e for e in state.recent_entity_ids if e in index][:1]
    if not last:
        return []
    # "it" after a group keeps the group: the group was what the user talked about.
    capable = [e for e in last if is_capable(index.device(e), ir.action, explicit=True)]
    return capable
