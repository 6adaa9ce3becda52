"""The home as a view rule sees it: every entity's tags (labels, area, floor, domain, device
class, device types) as inverted postings, the names each goes by, and what a tag resolves to.
Rules are evaluated against it (`evaluate`); `executor` previews them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz, process

from ..base.lexicon import Lexicon, LexiconSet
from ..base.models import Area, Device, Floor
from ..base.text import is_cjk, normalize, tokens
from .model import NAMESPACES, GroupNode, RuleNode, TagNode


def _keys(surface: str) -> set[str]:
    """A name as normalised, and as its words rejoined: "Rez-de-chaussée" is also said
    "rez de chaussée", "Chambre d'enfant" is read as "chambre d' enfant"."""
    norm = normalize(surface)
    words = list(tokens(norm))
    return {norm, join_words(words)} if words else {norm}


def join_words(parts: list[str]) -> str:
    """Tokens back as text: spaces only between two words of a spaced script."""
    out = parts[0]
    for part in parts[1:]:
        out += part if is_cjk(out[-1]) or is_cjk(part[0]) else f" {part}"
    return out


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a tag stands for in this home: `kind` and the matched ids ("area", ("kitchen",))."""

    kind: str
    targets: tuple[str, ...]
    members: frozenset[str]

    def describe(self) -> str:
        return f"{self.kind}:{','.join(self.targets)}"


def _identifier(value: str) -> str:
    """A normalised word back as a Home Assistant identifier: "binary-sensor" → binary_sensor."""
    return value.replace(" ", "_").replace("-", "_")


@dataclass(slots=True)
class TagUniverse:
    """Every entity's tags (labels, area, floor, domain, device class) as inverted postings,
    plus the names, ids and aliases they go by. Rules are evaluated against this."""

    lexicons: LexiconSet
    devices: dict[str, Device] = field(default_factory=dict)
    label_names: dict[str, str] = field(default_factory=dict)  # normalised name → name
    label_ids: dict[str, str] = field(default_factory=dict)  # label id → name
    by_label: dict[str, frozenset[str]] = field(default_factory=dict)
    by_area: dict[str, frozenset[str]] = field(default_factory=dict)
    by_floor: dict[str, frozenset[str]] = field(default_factory=dict)
    by_domain: dict[str, frozenset[str]] = field(default_factory=dict)
    by_class: dict[str, frozenset[str]] = field(default_factory=dict)
    by_domain_class: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    area_surfaces: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    floor_surfaces: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    area_names: dict[str, str] = field(default_factory=dict)
    room_kind_surfaces: dict[str, frozenset[str]] = field(default_factory=dict)
    floor_names: dict[str, str] = field(default_factory=dict)
    _cache: dict[str, Resolution | None] = field(default_factory=dict)
    _known: frozenset[str] | None = None
    _stems: dict[str, dict[tuple[str, ...], str]] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)  # names and aliases as written, for hints
    rank: dict[str, int] = field(default_factory=dict)  # entity → place in area/name order
    ordered: list[str] = field(default_factory=list)  # entities in that order
    device_of: dict[str, str] = field(default_factory=dict)  # entity → device id

    @classmethod
    def build(
        cls,
        devices: Iterable[Device],
        areas: Iterable[Area],
        floors: Iterable[Floor],
        lexicons: LexiconSet,
        labels: Mapping[str, str] | None = None,
    ) -> TagUniverse:
        """`labels` maps label id → name (labels with no entity yet still resolve)."""
        u = cls(lexicons=lexicons)
        areas = list(areas)
        u._add_labels(labels or {})
        u._add_places(areas, floors)
        u._add_room_kinds(areas)
        u._add_devices(devices)
        u._rank()
        return u

    def _add_labels(self, labels: Mapping[str, str]) -> None:
        for label_id, name in labels.items():
            self.label_ids[label_id] = name
            for key in _keys(name):
                self.label_names.setdefault(key, name)
            self.names.add(name)

    def _add_places(self, areas: list[Area], floors: Iterable[Floor]) -> None:
        for area in areas:
            self.area_names[area.area_id] = area.name
            self.names.update((area.name, *area.aliases))
            for surface in (area.area_id, area.name, *area.aliases):
                for key in _keys(surface):
                    self.area_surfaces[key].add(area.area_id)
        for floor in floors:
            self.floor_names[floor.floor_id] = floor.name
            self.names.update((floor.name, *floor.aliases))
            for surface in (floor.floor_id, floor.name, *floor.aliases):
                for key in _keys(surface):
                    self.floor_surfaces[key].add(floor.floor_id)

    def _add_devices(self, devices: Iterable[Device]) -> None:
        """The devices, their labels' names, and a posting per tag."""
        postings: dict[str, dict[Any, set[str]]] = {
            key: defaultdict(set)
            for key in ("label", "area", "floor", "domain", "class", "domain_class")
        }
        for device in devices:
            eid = device.entity_id
            self.devices[eid] = device
            for label in device.labels:
                for key in _keys(label):
                    self.label_names.setdefault(key, label)
                self.names.add(label)
                postings["label"][normalize(label)].add(eid)
            if device.area_id:
                postings["area"][device.area_id].add(eid)
            if device.floor_id:
                postings["floor"][device.floor_id].add(eid)
            postings["domain"][device.domain].add(eid)
            if device.device_id:
                self.device_of[eid] = device.device_id
            if device.device_class:
                postings["class"][device.device_class].add(eid)
                postings["domain_class"][(device.domain, device.device_class)].add(eid)
        # Frozen once, so a resolved tag hands out its posting without copying it.
        self.by_label = {k: frozenset(v) for k, v in postings["label"].items()}
        self.by_area = {k: frozenset(v) for k, v in postings["area"].items()}
        self.by_floor = {k: frozenset(v) for k, v in postings["floor"].items()}
        self.by_domain = {k: frozenset(v) for k, v in postings["domain"].items()}
        self.by_class = {k: frozenset(v) for k, v in postings["class"].items()}
        self.by_domain_class = {k: frozenset(v) for k, v in postings["domain_class"].items()}

    def _rank(self) -> None:
        # Samples are listed by area then name; ranking once here keeps previews of huge
        # views cheap (a heap over integers, not over normalised names).
        ordered = sorted(
            self.devices.values(),
            key=lambda d: (normalize(d.area_name or "\uffff"), normalize(d.name), d.entity_id),
        )
        self.ordered = [d.entity_id for d in ordered]
        self.rank = {eid: i for i, eid in enumerate(self.ordered)}

    def _add_room_kinds(self, areas: list[Area]) -> None:
        """A room-kind word said alone ("bedroom", "卧室", "Schlafzimmer") names every room of
        that kind, unless a room or floor goes by exactly that word: "bedroom" with a "Master
        Bedroom" and a "Second Bedroom" is both."""
        words_of: dict[str, tuple[str, ...]] = defaultdict(tuple)
        for lex in self.lexicons.lexicons.values():
            for kind, words in lex.room_kinds.items():
                words_of[kind] += words
        for words in words_of.values():
            keys = [tuple(tokens(w)) for w in words if w]
            rooms = {
                area.area_id
                for area in areas
                for surface in (area.name, *area.aliases)
                if _holds_any(tuple(tokens(normalize(surface))), keys)
            }
            for word in words if rooms else ():
                if word and word not in self.area_surfaces and word not in self.floor_surfaces:
                    self.room_kind_surfaces[word] = frozenset(rooms)

    def by_stem(self, lexicon: Lexicon, text: str) -> str | None:
        """The label, room or floor name `text` says in another inflection ("ersten Stock"
        for "erster Stock"), by the language's word stems; None when none or several."""
        table = self._stems.get(lexicon.language)
        if table is None:
            table = {}
            surfaces = (*self.label_names, *self.area_surfaces, *self.floor_surfaces)
            for surface in surfaces:
                key = lexicon.keys(surface)
                table[key] = surface if table.get(key, surface) == surface else ""
            self._stems[lexicon.language] = table
        return table.get(lexicon.keys(text)) or None

    def known_surfaces(self) -> frozenset[str]:
        """Every normalised name a bare tag can have; the tokenizer keeps these whole."""
        if self._known is None:
            surfaces = set(self.label_names) | set(self.area_surfaces) | set(self.floor_surfaces)
            surfaces |= set(self.room_kind_surfaces)
            for lex in self.lexicons.lexicons.values():
                for words in lex.type_words.values():
                    surfaces.update(words)
            self._known = frozenset(s for s in surfaces if s)
        return self._known

    def resolve(self, tag: str) -> Resolution | None:
        """What a tag matches, or None when nothing in the home goes by it."""
        norm = normalize(tag)
        if norm in self._cache:
            return self._cache[norm]
        result = self._resolve(norm)
        if len(self._cache) < 10_000:
            self._cache[norm] = result
        return result

    def _resolve(self, norm: str) -> Resolution | None:
        namespace, value = None, norm
        if ":" in norm:
            prefix, _, rest = norm.partition(":")
            prefix = prefix.strip().replace("-", "_")  # `normalize` wrote "_" as "-"
            if prefix in NAMESPACES and rest.strip():
                namespace, value = prefix, rest.strip()
        resolvers: dict[str, Callable[[str], Resolution | None]] = {
            "label": self._by_label,
            "area": self._by_area,
            "floor": self._by_floor,
            "type": self._by_type,
            "domain": self._by_domain,
            "device_class": self._by_device_class,
        }
        for kind in (namespace,) if namespace else resolvers:
            found = resolvers[kind](value)
            if found is not None:
                return found
        return None

    def _by_label(self, value: str) -> Resolution | None:
        name = self.label_names.get(value) or self.label_ids.get(value)
        if name is None:
            return None
        return Resolution("label", (name,), self.by_label.get(normalize(name), frozenset()))

    def _by_area(self, value: str) -> Resolution | None:
        ids = self.area_surfaces.get(value) or self.room_kind_surfaces.get(value)
        if not ids:
            return None
        members = frozenset().union(*(self.by_area.get(a, ()) for a in ids))
        return Resolution("area", tuple(sorted(ids)), members)

    def _by_floor(self, value: str) -> Resolution | None:
        ids = self.floor_surfaces.get(value)
        if not ids:
            return None
        members = frozenset().union(*(self.by_floor.get(f, ()) for f in ids))
        return Resolution("floor", tuple(sorted(ids)), members)

    def _by_domain(self, value: str) -> Resolution | None:
        members = self.by_domain.get(_identifier(value))
        return Resolution("domain", (value,), members) if members else None

    def _by_device_class(self, value: str) -> Resolution | None:
        members = self.by_class.get(_identifier(value))
        return Resolution("device_class", (value,), members) if members else None

    def _by_type(self, value: str) -> Resolution | None:
        """A device-type word of any language ("灯", "lights", "Rollläden"): its first tier
        of (domain, device class) targets that exists in this home."""
        type_ids = self._type_ids(value)
        if not type_ids:
            return self._compound_type(value)
        members: set[str] = set()
        for type_id in type_ids:
            spec = self.lexicons.types.types.get(type_id)
            if spec is None:
                continue
            for tier in spec.tiers:
                found = set().union(
                    *(
                        self.by_domain.get(domain, ())
                        if device_class is None
                        else self.by_domain_class.get((domain, device_class), ())
                        for domain, device_class in tier
                    )
                )
                if found:
                    members |= found
                    break
        return Resolution("type", tuple(type_ids), frozenset(members))

    def _type_ids(self, value: str) -> list[str]:
        type_ids: list[str] = []
        if _identifier(value) in self.lexicons.types.types:
            type_ids.append(_identifier(value))
        for lex in self.lexicons.lexicons.values():
            for kind, type_id in lex.lookup(lex.keys(value)):
                if kind == "type" and type_id not in type_ids:
                    type_ids.append(type_id)
        return type_ids

    def _every_tier(self, type_ids: list[str]) -> set[str]:
        """Everything any tier of the types reaches: a word narrowing another ("motion" in
        "motion sensors") means all it can mean, not just its first choice."""
        out: set[str] = set()
        for type_id in type_ids:
            spec = self.lexicons.types.types.get(type_id)
            for tier in spec.tiers if spec else ():
                for domain, device_class in tier:
                    out |= (
                        self.by_domain.get(domain, frozenset())
                        if device_class is None
                        else self.by_domain_class.get((domain, device_class), frozenset())
                    )
        return out

    def _compound_type(self, value: str) -> Resolution | None:
        """Several type words said together ("temperature sensors", "Bewegungs sensoren"):
        what every one of them can be."""
        toks = list(tokens(value))
        if len(toks) < 2 or len(toks) > 12:
            return None
        words: list[list[str]] = []
        i = 0
        while i < len(toks):
            for j in range(len(toks), i, -1):
                piece = join_words(toks[i:j])
                ids = self._type_ids(piece)
                if ids:
                    words.append(ids)
                    i = j
                    break
            else:
                return None
        if len(words) < 2:
            return None
        members = frozenset(set.intersection(*(self._every_tier(ids) for ids in words)))
        return Resolution("type", ("+".join(ids[0] for ids in words),), members)

    def evaluate(self, rule: RuleNode) -> tuple[frozenset[str], list[str]]:
        """The entity ids a rule matches, and the tags that resolved to nothing."""
        unresolved: list[str] = []
        hits = self._eval(rule, unresolved)
        return hits, list(dict.fromkeys(unresolved))

    def _eval(self, node: RuleNode, unresolved: list[str]) -> frozenset[str]:
        if isinstance(node, TagNode):
            found = self.resolve(node.tag)
            if found is None:
                unresolved.append(node.tag)
                return frozenset()
            return found.members
        if node.op == "NOT":
            return frozenset(self.devices) - self._eval(node.children[0], unresolved)
        if node.op == "OR":
            return frozenset().union(*(self._eval(c, unresolved) for c in node.children))
        # AND: what every kept child matches, less what every left-out child matches (no
        # complement of the whole home is built for "lights AND NOT kitchen").
        kept = [self._eval(c, unresolved) for c in node.children if not _is_not(c)]
        left_out = [
            self._eval(c.children[0], unresolved)
            for c in node.children
            if isinstance(c, GroupNode) and _is_not(c)
        ]
        kept.sort(key=len)
        base = kept[0].intersection(*kept[1:]) if kept else frozenset(self.devices)
        return base.difference(*left_out)

    def suggest(self, tag: str, limit: int = 3) -> list[str]:
        """Known tags close to an unresolved one, for "did you mean …" (names and aliases of
        labels, areas and floors)."""
        norm = normalize(tag)
        if not norm or not self.names:
            return []
        matches = process.extract(
            norm,
            sorted(self.names),
            scorer=fuzz.WRatio,
            limit=limit,
            processor=normalize,
            score_cutoff=80,
        )
        return [str(m[0]) for m in matches]

    def dictionary(self, limit: int = 200) -> dict[str, list[str]]:
        """The home's tag vocabulary for the LLM compiler."""
        return {
            "labels": sorted(set(self.label_names.values()))[:limit],
            "areas": sorted(self.area_names.values())[:limit],
            "floors": sorted(self.floor_names.values())[:limit],
            "domains": sorted(self.by_domain)[:limit],
            "device_classes": sorted(self.by_class)[:limit],
        }


def _holds_any(words: tuple[str, ...], phrases: list[tuple[str, ...]]) -> bool:
    """Whether `words` hold one of `phrases`, or (a compound language's) a word ending in a
    one-word phrase of four letters or more: "Elternschlafzimmer" holds "schlafzimmer"."""
    for phrase in phrases:
        size = len(phrase)
        if any(words[i : i + size] == phrase for i in range(len(words) - size + 1)):
            return True
        ending = phrase[0] if size == 1 and len(phrase[0]) >= 4 else ""
        if (
            ending
            and not is_cjk(ending[0])
            and any(len(w) > len(ending) and w.endswith(ending) for w in words)
        ):
            return True
    return False


def _is_not(node: RuleNode) -> bool:
    return isinstance(node, GroupNode) and node.op == "NOT"
