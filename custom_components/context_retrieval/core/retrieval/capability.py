"""Capability: can this entity do what the command asks?

A command that names a device or its type is read generously ("turn off the blinds" closes
them); a generic one ("turn off everything upstairs") is held to the strict meaning of the
action, so covers do not close and locks do not lock by accident. With a confident reading the
check is a hard filter, below that only a soft signal (see `RetrievalOptions`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..base.actions import ACTIONS, READ_ONLY_ACTIONS, device_actions
from ..base.index import DeviceIndex
from ..base.models import Device


def is_capable(device: Device, action: str | None, explicit: bool = True) -> bool:
    """Whether `device` can carry out `action`.

    `explicit` is True when the user named the device or its type; generic requests ("turn off
    everything") are held to the strict meaning of the action.
    """
    if action is None or action in READ_ONLY_ACTIONS or action not in ACTIONS:
        return True
    explicit_caps, strict_caps = ACTIONS[action]
    caps = explicit_caps if explicit else strict_caps
    return not caps.isdisjoint(device_actions(device))


def capable_ids(index: DeviceIndex, action: str | None, explicit: bool = True) -> set[str] | None:
    """The entities `is_capable` of `action`, from the index's postings (the postings' own set:
    read it, never change it); None when every entity is (no action, or one that only reads)."""
    if action is None or action in READ_ONLY_ACTIONS or action not in ACTIONS:
        return None
    explicit_caps, strict_caps = ACTIONS[action]
    caps = explicit_caps if explicit else strict_caps
    devices = (entry.device for entry in index.entries.values())
    return index.postings.capable(caps, devices)


def capability_check(
    index: DeviceIndex, action: str | None, explicit: bool = True
) -> Callable[[str], bool]:
    """`is_capable` by entity id, answered from the index's postings: it runs over every member
    of a type ("all the lights" in a home of thousands)."""
    able = capable_ids(index, action, explicit)
    return (lambda _entity_id: True) if able is None else able.__contains__


def capable_members(index: DeviceIndex, action: str | None, members: list[str]) -> list[str]:
    """The members able to do `action` (named or typed, so read generously), in order. "All
    the lights" are usually all able, which one set comparison tells without going through
    thousands of them one by one; then `members` itself comes back."""
    able = capable_ids(index, action, explicit=True)
    if able is None or able.issuperset(members):
        return members
    return [e for e in members if e in able]
