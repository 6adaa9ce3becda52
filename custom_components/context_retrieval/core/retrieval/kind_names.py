"""Words that are both a name and a type: which devices already call themselves that kind, and
which devices the words still name exactly when they are read as the type.

"人体传感器" said in a room that also has a "人体感应" names a kind both belong to, as
"motion sensor" and "motion detector" would; "卷帘" read as the blind class still names the
roller shade its owner called 卷帘, so an assistant reading the whole request can pick it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet

from ..base.models import Mention, QueryIR
from .context import RunContext
from .device_types import type_members

NAME_READING_LISTED = 20  # entity ids the words name exactly, kept beside their type reading


def describes_kind(mention: Mention) -> bool:
    """Whether a name is made of several type words and nothing else ("人体传感器": motion +
    sensor), so it describes a kind. A single type word ("卷帘") is a word its owner chose
    among the kind's words: only names that contain it ("智能插座" for 插座) share it."""
    return mention.only_type_words and len(mention.types_inside) > 1


def named_as_kind(
    group: Sequence[str], in_scope: Iterable[str], ir: QueryIR, ctx: RunContext
) -> set[str]:
    """The devices of `in_scope` that are of the kind `group` names and whose own name says
    one of its type words (a motion sensor called "人体感应", one called "走廊传感器")."""
    members = type_members(group, list(in_scope), ir, ctx, use_states=False)
    words = set(group)
    entries = ctx.index.entries
    return {e for e in members if words & entries[e].name_types}


def name_reading(
    mentions: Iterable[Mention], pool: AbstractSet[str], already: Sequence[str] = ()
) -> list[str]:
    """The entities in scope that mentions read as type words name exactly, after `already`
    (the other reading's own list), at most NAME_READING_LISTED of them."""
    out = list(already)
    seen = set(out)
    for mention in mentions:
        if not mention.exact:
            continue
        for entity_id in sorted(mention.entity_ids):
            if entity_id in pool and entity_id not in seen:
                seen.add(entity_id)
                out.append(entity_id)
    return out[:NAME_READING_LISTED]
