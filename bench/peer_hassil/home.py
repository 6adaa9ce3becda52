"""A benchmark home as hassil's slot lists: entity names and aliases (with domain and device class
as match context), areas, floors; and the intents' language for the home's."""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .hassil_api import HassilApi


def intents_language(language: str, available: Sequence[str]) -> str | None:
    """Map a case language ("en", "zh", "zh-cn", ...) to an intents package language code.

    Uses Home Assistant's own `language.matches` when importable, else a small fallback:
    exact (case-insensitive) match, then `zh` -> `zh-cn`, then the primary subtag.
    """
    try:
        language_util = importlib.import_module("homeassistant.util.language")
        matches = language_util.matches(language, list(available))
        if matches:
            return str(matches[0])
    except Exception:  # HA not installed or API changed: use the fallback below.
        pass
    lowered = {code.lower(): code for code in available}
    tag = language.replace("_", "-").lower()
    if tag in lowered:
        return lowered[tag]
    primary = tag.split("-")[0]
    if primary == "zh" and "zh-cn" in lowered:
        return lowered["zh-cn"]
    return lowered.get(primary)


def _clean(values: Iterable[str | None]) -> list[str]:
    return [v.strip() for v in values if v and v.strip()]


def name_tuples(home: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(text in, value out, context) per entity alias and name, like `_get_entity_name_tuples`.

    The context carries `domain` and, when set, `device_class` (HA's DEFAULT_EXPOSED_ATTRIBUTES);
    hassil checks it against the sentences' requires_context / excludes_context.
    """
    tuples: list[tuple[str, str, dict[str, Any]]] = []
    for entity in home.get("entities", []):
        context: dict[str, Any] = {"domain": entity["domain"]}
        if entity.get("device_class"):
            context["device_class"] = entity["device_class"]
        for alias in _clean(entity.get("aliases") or []):
            tuples.append((alias, alias, context))
        if entity.get("name"):
            tuples.append((entity["name"], entity["name"], context))
    return tuples


def area_tuples(home: dict[str, Any]) -> list[tuple[str, str]]:
    """Area names and aliases; an alias outputs itself (resolved later by find_areas)."""
    tuples: list[tuple[str, str]] = []
    for area in home.get("areas", []):
        tuples.append((area["name"], area["name"]))
        tuples.extend((alias, alias) for alias in _clean(area.get("aliases") or []))
    return tuples


def floor_tuples(home: dict[str, Any]) -> list[tuple[str, str]]:
    """Floor names and aliases; an alias outputs the floor's name."""
    tuples: list[tuple[str, str]] = []
    for floor in home.get("floors", []):
        tuples.append((floor["name"], floor["name"]))
        tuples.extend((alias, floor["name"]) for alias in _clean(floor.get("aliases") or []))
    return tuples


@dataclass
class PeerHome:
    """One home prepared for hassil: slot lists (built once, as HA caches them) and a name trie."""

    home: dict[str, Any]
    slot_lists: dict[str, Any]
    name_trie: Any | None

    @classmethod
    def build(cls, api: HassilApi, home: dict[str, Any]) -> PeerHome:
        """Build the `area`, `name`, `floor` slot lists and the lower-cased name trie."""
        names = name_tuples(home)
        name_list = api.text_slot_list("name", list(names))
        trie = None
        if api.trie_cls is not None:
            trie = api.trie_cls()
            for (text_in, *_), value in zip(names, name_list.values, strict=True):
                trie.insert(text_in.strip().lower(), value)
        slot_lists = {
            "area": api.text_slot_list("area", list(area_tuples(home))),
            "name": name_list,
            "floor": api.text_slot_list("floor", list(floor_tuples(home))),
        }
        return cls(home=home, slot_lists=slot_lists, name_trie=trie)

    def slot_lists_for(self, api: HassilApi, text: str) -> dict[str, Any]:
        """Slot lists for one utterance: `name` narrowed to names found in the text (HA trie)."""
        if self.name_trie is None:
            return self.slot_lists
        found = [hit[2] for hit in self.name_trie.find(text.strip().lower())]
        return {**self.slot_lists, "name": api.filtered_name_list(found)}

    def area_name(self, area_id: str | None) -> str | None:
        """Name of the area with this id (the satellite's area), if any."""
        for area in self.home.get("areas", []):
            if area["area_id"] == area_id:
                return str(area["name"])
        return None
