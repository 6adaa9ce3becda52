"""The per-home index: built once in O(n), reused by every command and request.

It holds the normalised names of every entity, area, floor and label, the room each entity's
name mentions (used when the registry's room is in doubt), which type words each name contains,
and the vector index.
Tables keyed by a language's token stems are built lazily the first time that language is used.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, KeysView
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace

from .actions import default_actions, device_actions
from .lexicon import Lexicon, LexiconSet, default_lexicons
from .models import Area, Device, Floor
from .name_tables import NameTables, name_phrases
from .phrase_table import (
    AMBIGUOUS,
    PhraseTable,
)
from .postings import DeviceEntry, Postings
from .rooms import RoomWords
from .text import fold_accents, has_cjk, normalize, tokens
from .vector_search import InMemoryVectorSearcher

CHANGES_KEPT = 256  # updates remembered for `changed_since`


@dataclass
class DeviceIndex:
    """Everything retrieval needs about one home, built once."""

    lexicons: LexiconSet
    language: str | None
    entries: dict[str, DeviceEntry] = field(default_factory=dict)
    areas: dict[str, Area] = field(default_factory=dict)
    floors: dict[str, Floor] = field(default_factory=dict)
    vectors: InMemoryVectorSearcher = field(default_factory=InMemoryVectorSearcher)
    postings: Postings = field(default_factory=Postings)
    rooms: RoomWords = field(default_factory=RoomWords)
    names: NameTables = field(init=False, repr=False)
    generation: int = 0
    _position: dict[str, int] = field(default_factory=dict)
    _next_position: int = 0
    _label_counts: Counter[str] = field(default_factory=Counter)
    _type_words: dict[tuple[str, ...], set[str]] = field(default_factory=dict)
    _type_words_len: int = 1
    # (generation, entity id) of the latest updates, so tables made from the home elsewhere
    # (typo repair's) can follow a rename instead of being made again; None marks a change
    # of everything (a new room re-reads every name).
    _changes: list[tuple[int, str | None]] = field(default_factory=list)

    # ---- construction -------------------------------------------------------------------

    def __post_init__(self) -> None:
        self.names = NameTables(self)

    @classmethod
    def build(
        cls,
        devices: Iterable[Device],
        areas: Iterable[Area] = (),
        floors: Iterable[Floor] = (),
        lexicons: LexiconSet | None = None,
        language: str | None = None,
    ) -> DeviceIndex:
        # The home's language gets the words Home Assistant's intent data teaches (cached
        # per language; building runs off the event loop, so this may read files). The
        # index reads with them; the set it was given is left as it is.
        base = lexicons or default_lexicons()
        index = cls(lexicons=base.with_learned(language), language=language)
        device_list = list(devices)
        index.floors = {f.floor_id: f for f in floors}
        index.areas = {a.area_id: a for a in areas}
        # Areas and floors known only through devices still count as rooms of the home.
        for d in device_list:
            if d.area_id and d.area_id not in index.areas:
                index.areas[d.area_id] = Area(
                    d.area_id, d.area_name or d.area_id, d.area_aliases, d.floor_id
                )
            if d.floor_id and d.floor_id not in index.floors:
                index.floors[d.floor_id] = Floor(
                    d.floor_id, d.floor_name or d.floor_id, d.floor_aliases
                )
        index._build_vocabularies()
        for d in device_list:
            entry = index._make_entry(d)
            if d.entity_id in index.entries:
                index._forget(index.entries[d.entity_id])
            index._remember(entry)
        index.vectors = InMemoryVectorSearcher.build(
            (eid, index._vector_text(e)) for eid, e in index.entries.items()
        )
        # The home's own language is the one most queries use: build its table now.
        index.table(index.lexicons.get(language))
        return index

    def _remember(self, entry: DeviceEntry) -> None:
        eid = entry.device.entity_id
        self.entries[eid] = entry
        if eid not in self._position:
            self._position[eid] = self._next_position
            self._next_position += 1
        self.postings.add(entry)
        self._label_counts.update(set(entry.device.labels))

    def _forget(self, entry: DeviceEntry) -> None:
        self.postings.discard(entry)
        self._label_counts.subtract(set(entry.device.labels))
        self._label_counts += Counter()  # drop labels that reached zero

    def name_phrases(
        self, entity_id: str, lex: Lexicon
    ) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """(keys, words as written) of each name of an entity of the home, as the phrase
        table holds them; none for an id it does not hold."""
        entry = self.entries.get(entity_id)
        return [] if entry is None else name_phrases(entry, lex)

    def _build_vocabularies(self) -> None:
        self.rooms = RoomWords.build(self.areas, self.floors, self.lexicons)
        # Type words of every language: a plug named "Garage Light" or "车库灯" is a light.
        self._type_words = defaultdict(set)
        for lex in self.lexicons.lexicons.values():
            for type_id, words in lex.type_words.items():
                for word in words:
                    keys = tuple(tokens(word))
                    if keys:
                        self._type_words[keys].add(type_id)
        self._type_words_len = max((len(k) for k in self._type_words), default=1)

    def _make_entry(self, device: Device) -> DeviceEntry:
        names = [device.name, *device.aliases]
        norm_names = tuple(dict.fromkeys(n for n in (normalize(x) for x in names) if n))
        name_tokens = tokens(norm_names[0]) if norm_names else ()
        rooms = self.rooms.rooms_in(name_tokens)
        floors = self.rooms.floors_in(name_tokens)
        name_room = None if not rooms else (next(iter(rooms)) if len(rooms) == 1 else AMBIGUOUS)
        name_floor = None if not floors else (next(iter(floors)) if len(floors) == 1 else AMBIGUOUS)
        # The registry decides where a device is, as in Home Assistant: a device it files in
        # no area is in no room, whatever its name says. (A room word the home does not know
        # is still tried against names: see `retrieval.scope`.)
        room_conflict = False
        floor_conflict = False
        # Only the entity's own name says what it is: an alias such as "heat lamp" on a bath
        # heater is a nickname, not a claim that the heater is a light.
        name_types: set[str] = set()
        for i in range(len(name_tokens)):
            for length in range(1, min(self._type_words_len, len(name_tokens) - i) + 1):
                name_types |= self._type_words.get(tuple(name_tokens[i : i + length]), set())
        return DeviceEntry(
            device=self._opened_by_name(device, name_types),
            norm_names=norm_names,
            norm_device_name=normalize(device.device_name) if device.device_name else None,
            name_room=name_room,
            name_floor=name_floor,
            room_conflict=room_conflict,
            floor_conflict=floor_conflict,
            name_types=frozenset(name_types),
            labels_norm=frozenset(normalize(label) for label in device.labels),
        )

    def _opened_by_name(self, device: Device, name_types: set[str]) -> Device:
        """A plug its owner named as a valve ("浇花阀门") opens and closes as one: what it
        switches is the valve."""
        specs = self.lexicons.types.types
        opens: set[str] = set()
        for type_id in name_types:
            spec = specs.get(type_id)
            if spec is None or device.domain not in spec.name_domains:
                continue
            for domain, _ in spec.tiers[0]:
                opens |= default_actions(domain) & {"open", "close"}
        if not opens:
            return device
        return replace(device, actions=device_actions(device) | opens)

    @staticmethod
    def _vector_text(entry: DeviceEntry) -> str:
        parts = list(entry.norm_names)
        if entry.norm_device_name:
            parts.append(entry.norm_device_name)
        return " | ".join(parts)

    # ---- language tables ----------------------------------------------------------------

    def table(self, lex: Lexicon) -> PhraseTable:
        """Every name in the home keyed by `lex`'s token stems (`NameTables.table`)."""
        return self.names.table(lex)

    def token_vocabulary(self, lex: Lexicon) -> list[str]:
        """The words typos may be repaired to (`NameTables.token_vocabulary`)."""
        return self.names.token_vocabulary(lex)

    def token_words(self, lex: Lexicon) -> AbstractSet[str]:
        """The same words as a set (`NameTables.token_words`)."""
        return self.names.token_words(lex)

    # ---- queries ------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, entity_id: object) -> bool:
        return entity_id in self.entries

    def device(self, entity_id: str) -> Device:
        return self.entries[entity_id].device

    def id_set(self, entity_ids: list[str]) -> AbstractSet[str]:
        """`entity_ids` (distinct ids of this home, as a scope hands them out) for membership
        tests: the home's own key view when they are all of it, so a command without a place
        does not copy ten thousand ids into a new set."""
        if len(entity_ids) == len(self.entries):
            keys: KeysView[str] = self.entries.keys()
            return keys
        return set(entity_ids)

    def devices(self) -> list[Device]:
        return [e.device for e in self.entries.values()]

    def ordered(self, entity_ids: Iterable[str]) -> list[str]:
        """`entity_ids` in the home's order (the order devices were added)."""
        position = self._position
        if isinstance(entity_ids, (set, frozenset)) and len(entity_ids) * 8 >= len(position):
            # A large share of the home ("every light but one room"): one pass over the home in
            # its order beats sorting thousands of ids. `entries` is kept in that order (a new
            # device is added at the end; a rename keeps its place; a removal drops both).
            return list(filter(entity_ids.__contains__, self.entries))
        return sorted(filter(position.__contains__, entity_ids), key=position.__getitem__)

    def labels(self) -> set[str]:
        return {label for label, count in self._label_counts.items() if count > 0}

    def accent_folded_words(self) -> dict[str, frozenset[str]]:
        """Words of names and aliases written with accents, folded, to the entities holding
        them ("tele" → the entities named "Télé …"): people often type without accents."""

        def build() -> dict[str, frozenset[str]]:
            found: defaultdict[str, set[str]] = defaultdict(set)
            for entity_id, entry in self.entries.items():
                for name in entry.norm_names:
                    for word in () if name.isascii() else tokens(name):
                        folded = fold_accents(word)
                        if folded != word:
                            found[folded].add(entity_id)
            return {w: frozenset(ids) for w, ids in found.items()}

        return self.names.derived("accent_folded", "", build)

    def detect_language(self, text: str, fallback: str | None = None) -> str:
        """The language of an utterance, its words that only name things of the home left
        out: "Allume le reading light" is French though "reading light" is English, since
        the home's owner named the lamp in English."""

        def build() -> frozenset[str]:
            names = (n for e in self.entries.values() for n in e.norm_names)
            areas = (normalize(n) for a in self.areas.values() for n in (a.name, *a.aliases))
            return frozenset(t for n in (*names, *areas) for t in tokens(n))

        words = self.names.derived("name_words", "", build)
        whole = self.lexicons.detect(text, fallback=fallback)
        said = tokens(normalize(text))
        rest = [t for t in said if has_cjk(t) or t not in words]
        if not rest or len(rest) == len(said):
            return whole
        # Read again without the names only when the names alone made it that language: the
        # other words are none of its own ("allume le" is not English; "the left one" is).
        known = self.lexicons.get(whole).detect_words
        if any(t in known for t in rest):
            return whole
        return self.lexicons.detect(" ".join(rest), fallback=fallback)

    def area_name(self, area_id: str | None) -> str | None:
        if area_id is None:
            return None
        area = self.areas.get(area_id)
        return area.name if area else area_id

    # ---- incremental updates ------------------------------------------------------------

    def upsert(self, device: Device) -> None:
        """Add or replace one device without rebuilding the rest of the index."""
        old = self.entries.get(device.entity_id)
        if old is not None:
            self.names.drop(old)
            self._forget(old)
        new_area = device.area_id and device.area_id not in self.areas
        new_floor = device.floor_id and device.floor_id not in self.floors
        if new_area or new_floor:
            if new_area and device.area_id:
                self.areas[device.area_id] = Area(
                    device.area_id,
                    device.area_name or device.area_id,
                    device.area_aliases,
                    device.floor_id,
                )
            if new_floor and device.floor_id:
                self.floors[device.floor_id] = Floor(
                    device.floor_id, device.floor_name or device.floor_id, device.floor_aliases
                )
            # A new room changes every name's room extraction: the only case worth a full pass.
            self._build_vocabularies()
            self.names.clear()
            for eid, existing in list(self.entries.items()):
                if eid == device.entity_id:
                    continue
                self._forget(existing)
                self._remember(self._make_entry(existing.device))
        entry = self._make_entry(device)
        self._remember(entry)
        self.vectors.upsert(device.entity_id, self._vector_text(entry))
        self.names.add(entry)
        if old is not None:
            self._drop_orphan_labels(set(old.device.labels) - set(device.labels))
        self.generation += 1
        self._note_change(None if new_area or new_floor else device.entity_id)

    def remove(self, entity_id: str) -> None:
        entry = self.entries.pop(entity_id, None)
        if entry is None:
            return
        self.names.drop(entry)
        self._forget(entry)
        self._position.pop(entity_id, None)
        self._drop_orphan_labels(set(entry.device.labels))
        self.vectors.remove(entity_id)
        self.generation += 1
        self._note_change(entity_id)

    def _note_change(self, entity_id: str | None) -> None:
        self._changes.append((self.generation, entity_id))
        if len(self._changes) > CHANGES_KEPT:
            del self._changes[: len(self._changes) - CHANGES_KEPT]

    def changed_since(self, generation: int) -> set[str] | None:
        """Entity ids added, changed or removed after `generation`; None when that is not
        known (too many updates ago, or one that re-read every name)."""
        if generation == self.generation:
            return set()
        if not self._changes or self._changes[0][0] > generation + 1:
            return None
        changed: set[str] = set()
        for at, entity_id in self._changes:
            if at <= generation:
                continue
            if entity_id is None:
                return None
            changed.add(entity_id)
        return changed

    def _drop_orphan_labels(self, labels: set[str]) -> None:
        """Labels no device carries any more stop being words of the home."""
        self.names.drop_labels(labels - self.labels())
