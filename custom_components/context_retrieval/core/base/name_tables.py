"""Per language, every name of the home keyed by that language's word stems (`PhraseTable`:
entities, rooms, floors, labels, room kinds), and the words typos may be repaired to.

Each table is made on first use and then kept up to date name by name (`add`, `drop`,
`drop_labels`); `clear` when every name changes (a new room). Nothing else keeps them."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any, Protocol, cast

from .lexicon import Lexicon, LexiconSet
from .models import Area, Floor
from .phrase_table import PhraseTable, Ref
from .postings import DeviceEntry
from .rooms import RoomWords
from .text import has_cjk, normalize, tokens


class Home(Protocol):
    """What the tables read of the home (the index is one)."""

    lexicons: LexiconSet
    entries: dict[str, DeviceEntry]
    areas: dict[str, Area]
    floors: dict[str, Floor]
    rooms: RoomWords
    generation: int

    def labels(self) -> set[str]: ...

    def changed_since(self, generation: int) -> set[str] | None: ...


def name_surfaces(entry: DeviceEntry) -> list[str]:
    """The entry's names, aliases and device name, normalised, once each."""
    surfaces = list(entry.norm_names)
    if entry.norm_device_name and entry.norm_device_name not in surfaces:
        surfaces.append(entry.norm_device_name)
    return surfaces


def name_phrases(entry: DeviceEntry, lex: Lexicon) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(keys, words as written) of each of the entry's names, as the phrase table holds them."""
    out = []
    for surface in name_surfaces(entry):
        raw = tuple(tokens(surface))
        if raw:
            out.append((tuple(lex.key(t) for t in raw), raw))
    return out


class NameTables:
    """The phrase tables and typo vocabularies of one home, by language."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._tables: dict[str, PhraseTable] = {}
        self._token_words: dict[str, set[str]] = {}
        self._token_vocab: dict[str, list[str]] = {}
        # Tables other layers make from the home (typo repair's vocabularies, the words of
        # names by language detection), by (name, language), with the generation made at.
        self._derived: dict[tuple[str, str], tuple[int, Any]] = {}

    def table(self, lex: Lexicon) -> PhraseTable:
        """Every name in the home keyed by `lex`'s token stems (made on first use)."""
        table = self._tables.get(lex.language)
        if table is None:
            table = self._made(lex)
            self._tables[lex.language] = table
        return table

    def _made(self, lex: Lexicon) -> PhraseTable:
        home = self.home
        table = PhraseTable()
        for entry in home.entries.values():
            _add_entry_refs(table, lex, entry)
        for area in home.areas.values():
            for i, surface in enumerate((area.name, *area.aliases)):
                source = "area" if i == 0 else "area_alias"
                _add_ref(table, lex, normalize(surface), "area", area.area_id, source)
        for floor in home.floors.values():
            for i, surface in enumerate((floor.name, *floor.aliases)):
                source = "floor" if i == 0 else "floor_alias"
                _add_ref(table, lex, normalize(surface), "floor", floor.floor_id, source)
        for label in home.labels():
            _add_ref(table, lex, normalize(label), "label", label, "label")
        self._add_room_kinds(table, lex)
        return table

    def _add_room_kinds(self, table: PhraseTable, lex: Lexicon) -> None:
        """A room-kind word said alone names every room of that kind, unless a room or floor
        has exactly that name ("bedroom" with "Master Bedroom" and "Guest Bedroom")."""
        named = {
            keys
            for keys, refs in table.entries.items()
            if any(r.kind in ("area", "floor") for r in refs)
        }
        for kind, words in lex.room_kinds.items():
            areas = sorted(a for a, kinds in self.home.rooms.kinds.items() if kind in kinds)
            for word in words if areas else ():
                raw = tuple(tokens(word))
                keys = tuple(lex.key(t) for t in raw)
                if keys and keys not in named:
                    for area_id in areas:
                        table.add(keys, Ref("area", area_id, "area_kind", raw))

    def token_vocabulary(self, lex: Lexicon) -> list[str]:
        """Distinct words of the home's names and the language's phrases, for typo repair."""
        vocab = self._token_vocab.get(lex.language)
        if vocab is None:
            words = self._token_words.get(lex.language)
            if words is None:
                words = set()
                for keys, refs in self.table(lex).entries.items():
                    # Room-kind words are the language's, not names a slip could be of.
                    if all(r.source == "area_kind" for r in refs):
                        continue
                    words.update(k for k in keys if len(k) >= 3 and not has_cjk(k))
                for keys, readings in lex.phrases.items():
                    # A slip is never "repaired" into a colour, a value, a state word or a
                    # word of requests not for the home ("read" → "red", "pool" → "cool",
                    # "spring" → "sing"), nor into a word of a longer phrase.
                    if len(keys) > 1 or all(
                        kind in ("value", "number", "state", "filler", "not_home")
                        or value == "set_color"
                        for kind, value in readings
                    ):
                        continue
                    words.update(k for k in keys if len(k) >= 3 and not has_cjk(k))
                self._token_words[lex.language] = words
            vocab = sorted(words)
            self._token_vocab[lex.language] = vocab
        return vocab

    def derived[T](
        self,
        name: str,
        language: str,
        build: Callable[[], T],
        update: Callable[[T, set[str]], bool] | None = None,
    ) -> T:
        """A table another layer makes from the home, kept here while the home stays as it
        is. After a change it follows the changed entities with `update` (which says False
        when it cannot), or is made again: a rename brings new words a slip may be of."""
        key = (name, language)
        generation = self.home.generation
        hit = self._derived.get(key)
        if hit is not None and hit[0] != generation and update is not None:
            changed = self.home.changed_since(hit[0])
            if changed is not None and update(hit[1], changed):
                hit = (generation, hit[1])
                self._derived[key] = hit
        if hit is None or hit[0] != generation:
            hit = (generation, build())
            self._derived[key] = hit
        return cast("T", hit[1])

    def token_words(self, lex: Lexicon) -> AbstractSet[str]:
        """`token_vocabulary` as a set, kept rather than made again on every utterance."""
        self.token_vocabulary(lex)
        return self._token_words[lex.language]

    def add(self, entry: DeviceEntry) -> None:
        """A new or renamed entity's names (and labels) join every table made so far."""
        for lang, table in self._tables.items():
            lex = self.home.lexicons.get(lang)
            _add_entry_refs(table, lex, entry)
            for label in entry.device.labels:
                _add_ref(table, lex, normalize(label), "label", label, "label")
            self._learn_words(lang, entry, lex)

    def drop(self, entry: DeviceEntry) -> None:
        """An entity's names leave every table."""
        eid = entry.device.entity_id
        for lang, table in self._tables.items():
            lex = self.home.lexicons.get(lang)
            for keys, _ in name_phrases(entry, lex):
                table.discard(keys, eid)

    def drop_labels(self, orphans: set[str]) -> None:
        """Labels no device carries any more stop being words of the home."""
        for lang, table in self._tables.items():
            lex = self.home.lexicons.get(lang)
            for label in orphans:
                table.discard(tuple(lex.key(t) for t in tokens(normalize(label))), label)

    def clear(self) -> None:
        """Every name changes (a new room re-reads them all): make the tables again on use."""
        self._tables.clear()
        self._token_words.clear()
        self._token_vocab.clear()

    def _learn_words(self, language: str, entry: DeviceEntry, lex: Lexicon) -> None:
        """New words of a changed name join the typo vocabulary; old ones may stay (harmless)."""
        words = self._token_words.get(language)
        if words is None:
            return
        added = {lex.key(t) for surface in name_surfaces(entry) for t in tokens(surface)}
        added = {w for w in added if len(w) >= 3 and not has_cjk(w)} - words
        if added:
            words |= added
            self._token_vocab.pop(language, None)


def _add_ref(
    table: PhraseTable, lex: Lexicon, norm_surface: str, kind: str, target: str, source: str
) -> None:
    raw = tuple(tokens(norm_surface))
    if raw:
        table.add(tuple(lex.key(t) for t in raw), Ref(kind, target, source, raw))


def _add_entry_refs(table: PhraseTable, lex: Lexicon, entry: DeviceEntry) -> None:
    eid = entry.device.entity_id
    for i, norm in enumerate(entry.norm_names):
        _add_ref(table, lex, norm, "entity", eid, "name" if i == 0 else "alias")
    if entry.norm_device_name and entry.norm_device_name not in entry.norm_names:
        _add_ref(table, lex, entry.norm_device_name, "entity", eid, "device")
