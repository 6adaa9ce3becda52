"""Previewing a rule: what it matches in the home now (`universe.TagUniverse.evaluate`), with
samples the user can check before publishing, and the tags nothing goes by."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from .model import RuleNode, tags_of
from .universe import TagUniverse

SAMPLE_SIZE = 10


@dataclass(slots=True)
class Preview:
    """What a rule matches now, with samples the user can check before publishing it."""

    entity_ids: frozenset[str]
    entity_hits: int
    device_hits: int
    sample_items: list[dict[str, Any]]
    unresolved_tags: list[str]
    suggestions: dict[str, list[str]]
    resolved: dict[str, str]

    @property
    def total_hits(self) -> int:
        return self.entity_hits + self.device_hits

    def as_dict(self) -> dict[str, Any]:
        return {
            "total_hits": self.total_hits,
            "entity_hits": self.entity_hits,
            "device_hits": self.device_hits,
            "sample_items": self.sample_items,
            "unresolved_tags": self.unresolved_tags,
            "suggestions": self.suggestions,
            "resolved": self.resolved,
        }


def preview(rule: RuleNode, universe: TagUniverse, samples: int = SAMPLE_SIZE) -> Preview:
    """Evaluate a rule: entity and device hit counts and up to `samples` matching entities,
    ordered by area then name so the sample reads like the home."""
    hits, unresolved = universe.evaluate(rule)
    devices = set(map(universe.device_of.get, hits))
    devices.discard(None)

    if len(hits) * 20 > len(universe.ordered):
        # A big share of the home: the first matches in home order come quickly.
        first: list[str] = []
        for eid in universe.ordered:
            if eid in hits:
                first.append(eid)
                if len(first) == samples:
                    break
    else:
        first = heapq.nsmallest(samples, hits, key=universe.rank.__getitem__)
    sample_items = [
        {
            "kind": "entity",
            "id": eid,
            "name": universe.devices[eid].name,
            "area": universe.devices[eid].area_name,
        }
        for eid in first
    ]
    resolved: dict[str, str] = {}
    for tag in dict.fromkeys(tags_of(rule)):
        found = universe.resolve(tag)
        if found is not None:
            resolved[tag] = found.describe()
    suggestions = {tag: s for tag in unresolved if (s := universe.suggest(tag))}
    return Preview(hits, len(hits), len(devices), sample_items, unresolved, suggestions, resolved)


def unresolved_tags(rule: RuleNode, universe: TagUniverse) -> list[str]:
    """The rule's tags that nothing in the home goes by (no set algebra needed)."""
    return list(dict.fromkeys(t for t in tags_of(rule) if universe.resolve(t) is None))
