"""What a bulk rename works on and gives back: the targets, the request, the planned changes,
and the limits they keep."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

MAX_FIND_LEN = 200
MAX_REPLACE_LEN = 200
MAX_NAME_LEN = 255
MAX_ALIAS_LEN = 255
MAX_TEXT_LEN = 1_000  # longer names and aliases are not searched
MAX_MATCHES = 10_000
Target = Literal["names", "aliases", "both"]
Field = Literal["name", "alias"]


class RenameError(ValueError):
    """A rename request that cannot be carried out; ``reason`` is a stable machine-readable code."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class RenameTarget:
    """An entity's editable names. ``name=None``: no own name, ``original_name`` is shown."""

    entity_id: str
    name: str | None
    aliases: tuple[str, ...] = ()
    original_name: str | None = None
    area: str | None = None  # the room's name, shown beside each row


@dataclass(frozen=True)
class RenameSpec:
    find: str
    replace: str
    target: Target = "names"
    match_case: bool = False
    whole_word: bool = False
    regex: bool = False
    exclude: tuple[str, ...] = ()


@dataclass(frozen=True)
class RenameChange:
    entity_id: str
    field: Field
    index: int | None  # alias position; None for the name
    before: str
    after: str
    matches: int
    area: str | None = None


@dataclass
class RenamePreview:
    changes: list[RenameChange]
    entities: int  # entities with at least one applicable change
    matches: int  # matches in the applicable changes
    truncated: bool
    summary_counts: dict[str, int]
    skipped: list[dict[str, Any]] = field(default_factory=list)
