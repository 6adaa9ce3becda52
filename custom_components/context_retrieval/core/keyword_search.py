"""Keyword recall: fuzzy matching of a phrase against names, aliases and device names.

rapidfuzz works on characters, so it needs no word segmentation and handles Chinese
("落地灯" inside "客厅落地灯") as well as English typos and word order.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
from rapidfuzz import fuzz

from .models import Candidate
from .text import char_ngrams, normalize

if TYPE_CHECKING:
    from .index import DeviceEntry, DeviceIndex

# Device names describe the hardware ("Aqara Hub"), so they count a little less than names.
DEVICE_NAME_FACTOR = 0.9
# Below this many entities every name is scored directly; above it a gram shortlist comes first.
DIRECT_SCORING_LIMIT = 300
SHORTLIST = 300


class NameGrams:
    """Character n-gram postings over every name: the keyword side's inverted index.

    A query is scored only against the names that share the most n-grams with it (the way a
    trigram index works in a database), so a 10,000-entity home costs about what 400 do.
    """

    def __init__(self) -> None:
        self._postings: dict[str, array[int]] = {}
        self._owner: list[str | None] = []  # row → entity id (None once removed)
        self._rows: dict[str, list[int]] = {}

    def add(self, entity_id: str, names: Iterable[str]) -> None:
        self.remove(entity_id)
        rows = self._rows.setdefault(entity_id, [])
        for name in names:
            row = len(self._owner)
            self._owner.append(entity_id)
            rows.append(row)
            for gram in set(char_ngrams(name)):
                self._postings.setdefault(gram, array("i")).append(row)

    def remove(self, entity_id: str) -> None:
        # Rows are tombstoned, not unlinked: postings stay append-only and cheap to update.
        for row in self._rows.pop(entity_id, []):
            self._owner[row] = None

    def shortlist(self, phrase: str, limit: int = SHORTLIST,
                  pool: set[str] | None = None) -> list[str]:
        """Entity ids (of `pool`, if given) whose names share the most n-grams with `phrase`."""
        lists = [self._postings[g] for g in set(char_ngrams(phrase)) if g in self._postings]
        if not lists or not self._owner:
            return []
        rows = np.concatenate([np.frombuffer(p, dtype=np.int32) for p in lists])
        counts = np.bincount(rows, minlength=len(self._owner))
        # With a pool, look deeper: the best rows overall may belong to other entities.
        k = min(limit * (8 if pool is not None else 2), int(np.count_nonzero(counts)))
        if k <= 0:
            return []
        top = np.argpartition(-counts, k - 1)[:k]
        top = top[np.argsort(-counts[top], kind="stable")]
        out: list[str] = []
        seen: set[str] = set()
        for row in top.tolist():
            owner = self._owner[row]
            if owner is not None and owner not in seen and (pool is None or owner in pool):
                seen.add(owner)
                out.append(owner)
                if len(out) >= limit:
                    break
        return out


def phrase_score(phrase: str, name: str) -> float:
    """How well `phrase` (what the user said) matches `name`, in [0, 1]."""
    if not phrase or not name:
        return 0.0
    if phrase == name:
        return 1.0
    full = fuzz.ratio(phrase, name) / 100.0
    # The user often says part of a long name; reward containment, but less than equality.
    partial = fuzz.partial_ratio(phrase, name) / 100.0
    coverage = min(len(phrase), len(name)) / max(len(phrase), len(name))
    partial_score = partial * (0.75 + 0.2 * coverage)
    tokens = fuzz.token_set_ratio(phrase, name) / 100.0 * 0.95
    return max(full, partial_score, tokens)


def score_entry(phrase: str, entry: DeviceEntry) -> tuple[float, str]:
    """Best score of `phrase` over the entry's names; second value says which name matched."""
    best, why = 0.0, ""
    for i, name in enumerate(entry.norm_names):
        s = phrase_score(phrase, name)
        if s > best:
            best, why = s, ("name" if i == 0 else "alias") + f" '{name}'"
    if entry.norm_device_name:
        s = phrase_score(phrase, entry.norm_device_name) * DEVICE_NAME_FACTOR
        if s > best:
            best, why = s, f"device '{entry.norm_device_name}'"
    return best, why


def search(
    index: DeviceIndex, phrase: str, pool: Iterable[str] | None = None, limit: int = 200,
    min_score: float = 0.3,
) -> list[Candidate]:
    """Entities of `pool` (default: all) ranked by how well their names match `phrase`."""
    norm = normalize(phrase)
    if not norm:
        return []
    pool_set = None if pool is None else {e for e in pool if e in index}
    ids: Iterable[str]
    if pool_set is not None and len(pool_set) <= DIRECT_SCORING_LIMIT:
        ids = pool_set
    elif pool_set is None and len(index) <= DIRECT_SCORING_LIMIT:
        ids = index.entries.keys()
    else:
        ids = index.names.shortlist(norm, max(SHORTLIST, limit), pool_set)
    out: list[Candidate] = []
    for eid in ids:
        score, why = score_entry(norm, index.entries[eid])
        if score >= min_score:
            out.append(Candidate(entity_id=eid, keyword_score=score,
                                 breakdown={"keyword": round(score, 4)},
                                 reasons=[f"keyword '{norm}' ~ {why} ({score:.2f})"]))
    out.sort(key=lambda c: (-c.keyword_score, c.entity_id))
    return out[:limit]
