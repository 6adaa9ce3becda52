"""Look-ups over a home for computing gold by the dev README's rules ("Gold resolution"): names
and aliases compare after trim + casefold, a type word targets a domain (and device class)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from .phrases import TypeWord


def casefolded(text: str) -> str:
    return text.strip().casefold()


class HomeView:
    """Look-ups over a home dict for computing gold (README "Gold resolution")."""

    def __init__(self, home: dict[str, Any]) -> None:
        self.home = home
        self.language: str = home.get("language") or "en"
        self.entities: list[dict[str, Any]] = list(home.get("entities") or [])
        self.by_id = {e["entity_id"]: e for e in self.entities}
        self.areas = {a["area_id"]: a for a in home.get("areas") or []}
        self.floors = {f["floor_id"]: f for f in home.get("floors") or []}
        self.names: dict[str, list[str]] = defaultdict(list)  # casefolded name/alias → ids
        for e in self.entities:
            for surface in dict.fromkeys(casefolded(s) for s in [e["name"], *e.get("aliases", [])]):
                self.names[surface].append(e["entity_id"])
        self.room_words = {
            casefolded(s) for a in self.areas.values() for s in [a["name"], *a.get("aliases", [])]
        }
        self.room_words |= {
            casefolded(s) for f in self.floors.values() for s in [f["name"], *f.get("aliases", [])]
        }

    def floor_of(self, entity: dict[str, Any]) -> str | None:
        area = self.areas.get(entity.get("area_id") or "")
        return area.get("floor_id") if area else None

    def matches(self, entity: dict[str, Any], tw: TypeWord) -> bool:
        return entity["domain"] == tw.domain and (
            tw.device_class is None or entity.get("device_class") == tw.device_class
        )

    def with_name(self, name: str) -> list[str]:
        return sorted(self.names.get(casefolded(name), []))


@dataclass
class TypeMembers:
    """Where the entities one type word targets are."""

    word: TypeWord
    by_area: dict[str, list[str]]
    by_floor: dict[str, list[str]]
    everywhere: list[str]
    surfaces: set[str]  # casefolded names and aliases of those entities
