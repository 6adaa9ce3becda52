"""Phrase tables: what a sequence of token keys names in one home (entities, rooms, floors,
labels), and the helpers that read a name's room words and numbered copies."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from .text import has_cjk

AMBIGUOUS = "\x00ambiguous"


_TRAILING_NUMBER = re.compile(r"[\s#-]*(?:no\.?\s*)?\d+$")


def base_name(norm_name: str) -> str:
    """A normalised name without its trailing number: "motion sensor 2" → "motion sensor"."""
    return _TRAILING_NUMBER.sub("", norm_name) or norm_name


@dataclass(frozen=True, slots=True)
class Ref:
    """One way to refer to something in the home."""

    kind: str  # "entity" | "area" | "floor" | "label"
    target: str  # entity_id, area_id, floor_id or label name
    source: str  # "name" | "alias" | "device" | "area" | "floor" | "label"
    raw: tuple[str, ...]  # the surface's normalised tokens, to tell exact from inflected hits


class PhraseTable:
    """Token-sequence → values, for longest-match lookups over an utterance."""

    def __init__(self) -> None:
        self.entries: dict[tuple[str, ...], list[Ref]] = defaultdict(list)
        self._seen: set[tuple[tuple[str, ...], Ref]] = set()
        self.max_len = 1
        # How many keys of the table begin with each sequence (a key begins with itself):
        # a reader stops lengthening a stretch of words that no key begins with.
        self._prefixes: Counter[tuple[str, ...]] = Counter()

    def add(self, keys: tuple[str, ...], ref: Ref) -> None:
        if not keys or (keys, ref) in self._seen:
            return
        # A set beside the lists: "Ceiling Light" may name hundreds of entities.
        self._seen.add((keys, ref))
        bucket = self.entries[keys]
        if not bucket:
            self._prefixes.update(keys[:end] for end in range(1, len(keys) + 1))
        bucket.append(ref)
        if len(keys) > self.max_len:
            self.max_len = len(keys)

    def discard(self, keys: tuple[str, ...], target: str) -> None:
        bucket = self.entries.get(keys)
        if not bucket:
            return
        for ref in bucket:
            if ref.target == target:
                self._seen.discard((keys, ref))
        bucket[:] = [r for r in bucket if r.target != target]
        if not bucket:
            del self.entries[keys]
            for end in range(1, len(keys) + 1):
                begun = keys[:end]
                self._prefixes[begun] -= 1
                if not self._prefixes[begun]:
                    del self._prefixes[begun]

    def get(self, keys: tuple[str, ...]) -> list[Ref]:
        return self.entries.get(keys, [])

    def begins(self, keys: tuple[str, ...]) -> bool:
        """Whether some key of the table is `keys` or begins with it."""
        return keys in self._prefixes


def find_room_terms(
    name_tokens: tuple[str, ...] | list[str], vocab: dict[tuple[str, ...], str], max_len: int
) -> set[str]:
    """Rooms mentioned in a name: longest match first, non-overlapping ("主卧室" is not also
    "卧室")."""
    found: set[str] = set()
    i = 0
    n = len(name_tokens)
    while i < n:
        for length in range(min(max_len, n - i), 0, -1):
            target = vocab.get(tuple(name_tokens[i : i + length]))
            if target is not None:
                found.add(target)
                i += length
                break
        else:
            i += 1
    return found


def is_room_vocab_term(name: str) -> bool:
    """One-character Chinese room words ("厅") occur in too many names to say anything."""
    return not (has_cjk(name) and len(name) < 2)
