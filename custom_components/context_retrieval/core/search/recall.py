"""Recall for a search: the candidates worth scoring and their raw keyword or semantic scores.

Keyword recall reuses the index's machinery (`keyword_search`: fuzzy names, an n-gram shortlist
on big homes), adds names written with accents the query leaves out, the entities of a room
the query names scored by the rest of the query, and the members of an area the whole query
names; semantic recall asks the vector searcher, within a time budget.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..base import keyword_search
from ..base.index import DeviceIndex
from ..base.keyword_search import phrase_score
from ..base.text import fold_accents, normalize
from ..base.vector_search import VectorSearcher
from .words import Fits, QueryWords

MAX_PER_SIDE = 200
# An area matched by the whole query ("kitchen") recalls its entities, a little below names.
AREA_MATCH_THRESHOLD = 0.95
AREA_FACTOR = 0.7
# Keyword recall's own floor (keyword_search's default).
KEYWORD_RECALL_MIN = 0.3


class SemanticFailure(Exception):
    """The semantic side failed or was too slow: the search goes on with keywords."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def keyword_recall(index: DeviceIndex, norm: str, fits: Fits) -> tuple[dict[str, float], float]:
    """Fuzzy name scores (keyword_search, and accents folded) plus entities of an area the
    query names, and the best score before the word factor: the scale keyword scores are
    divided by, so a hit that shares no word stays below 1.0 even when no hit shares one."""
    found: dict[str, float] = {}
    best = 0.0
    try:
        raw = {
            c.entity_id: c.keyword_score
            for c in keyword_search.search(
                index, norm, limit=MAX_PER_SIDE, min_score=KEYWORD_RECALL_MIN
            )
        }
    except Exception:  # hostile text must never break a search
        raw = {}
    for eid, score in _accent_recall(index, norm).items():
        raw[eid] = max(raw.get(eid, 0.0), score)
    for eid, score in _room_recall(index, fits.words).items():
        raw[eid] = max(raw.get(eid, 0.0), score)
    for eid, score in raw.items():
        best = max(best, score)
        found[eid] = score * fits(eid).factor
    for area_id, area_score in _area_hits(index, norm):
        members = index.ordered(index.postings.by_area.get(area_id, ()))
        for eid in members:
            score = area_score * AREA_FACTOR
            best = max(best, score)
            if score > found.get(eid, 0.0):
                found[eid] = score
    if len(found) > MAX_PER_SIDE:
        kept = sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_PER_SIDE]
        found = dict(kept)
    return found, best


def _room_recall(index: DeviceIndex, words: QueryWords) -> dict[str, float]:
    """The entities of a room the query names, by how their names match the rest of it: in
    "厨房的灯" (the kitchen's lights) the kitchen's lights are what "灯" names, where a whole
    query scoring would put the kitchen's leak sensor, named 厨房水浸, first."""
    if not words.rest:
        return {}
    scores: dict[str, float] = {}
    for area_id in words.places:
        for eid in index.postings.by_area.get(area_id, ()):
            entry = index.entries.get(eid)
            if entry is None:
                continue
            score = max(
                (phrase_score(words.rest, fold_accents(n)) for n in entry.norm_names),
                default=0.0,
            )
            if score >= KEYWORD_RECALL_MIN:
                scores[eid] = score
    return scores


def _accent_recall(index: DeviceIndex, norm: str) -> dict[str, float]:
    """Names written with accents that the query holds without them ("tele" for "Télé du
    salon"), scored with the accents folded on both sides."""
    folded_words = index.accent_folded_words()
    query = fold_accents(norm)
    ids = {eid for w in query.split() for eid in folded_words.get(w, ())}
    scores: dict[str, float] = {}
    for eid in ids:
        entry = index.entries.get(eid)
        if entry is not None:
            scores[eid] = max(phrase_score(query, fold_accents(n)) for n in entry.norm_names)
    return {eid: s for eid, s in scores.items() if s >= KEYWORD_RECALL_MIN}


def _area_hits(index: DeviceIndex, norm: str) -> list[tuple[str, float]]:
    hits = []
    for area in index.areas.values():
        best = max(
            (
                phrase_score(fold_accents(norm), fold_accents(normalize(s)))
                for s in (area.name, *area.aliases)
            ),
            default=0.0,
        )
        if best >= AREA_MATCH_THRESHOLD:
            hits.append((area.area_id, best))
    return hits


def semantic_recall(
    searcher: VectorSearcher,
    norm: str,
    keyword_ids: list[str],
    timeout: float,
    clock: Callable[[], float],
) -> dict[str, float]:
    """Top MAX_PER_SIDE by cosine, plus the cosine of every keyword candidate."""
    started = clock()
    try:
        vec = searcher.vectorize(norm)
        found = searcher.search(vec, MAX_PER_SIDE)
        scores = {c.entity_id: float(c.vector_score) for c in found[:MAX_PER_SIDE]}
        missing = {e for e in keyword_ids if e not in scores}
        if missing and clock() - started <= timeout:
            for c in searcher.search(vec, len(missing), allowed=missing):
                if c.entity_id in missing:
                    scores[c.entity_id] = float(c.vector_score)
    except Exception as err:  # any failure of a plug-in searcher degrades
        raise SemanticFailure("SEMANTIC_UNAVAILABLE") from err
    if clock() - started > timeout:
        raise SemanticFailure("SEARCH_TIMEOUT")
    return {e: (s if math.isfinite(s) else 0.0) for e, s in scores.items()}
