"""Explainable entity search: keyword ∪ semantic recall, weighted, paged, explained.

`search(index, "ceiling light")` returns the entities whose names, aliases or areas match, each
with the text that matched (the matched part between `[[` and `]]`) and the score's parts:

    hybrid   score = 0.55 × keyword + 0.35 × semantic + 0.10 × recency
    keyword  score = keyword
    semantic score = semantic

keyword is the fuzzy name score (accents folded) divided by the best keyword score of this
query, semantic the cosine similarity clipped to [0, 1]; both are weighed by how the entity's
texts hold the query's words (`words.fit`: a hit that shares no word stays below one that
does, even when no hit shares one). recency is 1.0 for an entity changed or used now,
falling linearly to 0 over 24 hours. Ties go to the more recent entity,
then to the smaller entity_id. Recall reuses the index's own machinery: `keyword_search.search`
(fuzzy names, n-gram shortlist on big homes) and the index's vector searcher (or any
`VectorSearcher`). When the semantic side fails or is too slow the search falls back to keyword
only and says so in `degraded`. How a hit is shown (`matched`) is `marking`'s.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..base import keyword_search
from ..base.index import DeviceIndex
from ..base.keyword_search import phrase_score
from ..base.models import Candidate
from ..base.text import fold_accents, normalize
from ..base.vector_search import VectorSearcher
from .marking import display, escape, mark
from .words import QueryWords, WordFit, fit, read_query

Strategy = Literal["hybrid", "keyword", "semantic"]
STRATEGIES: tuple[str, ...] = ("hybrid", "keyword", "semantic")

KEYWORD_WEIGHT = 0.55
SEMANTIC_WEIGHT = 0.35
RECENCY_WEIGHT = 0.10
RECENCY_WINDOW = 24 * 3600.0

MAX_PER_SIDE = 200
MAX_CANDIDATES = 10_000
MAX_PAGE_SIZE = 50
DEFAULT_PAGE_SIZE = 20
DEFAULT_MIN_SCORE = 0.25
# A query longer than this is cut: no entity name is that long, and fuzzy scoring is O(n·m).
MAX_QUERY_CHARS = 256
# An area matched by the whole query ("kitchen") recalls its entities, a little below names.
AREA_MATCH_THRESHOLD = 0.95
AREA_FACTOR = 0.7
# Keyword recall's own floor (keyword_search's default).
KEYWORD_RECALL_MIN = 0.3


@dataclass(slots=True)
class SearchHit:
    entity_id: str
    name: str
    area: str | None
    matched: str
    matched_field: str  # "name" | "alias" | "device" | "area" | ""
    score: float
    score_breakdown: dict[str, float]

    def as_dict(self) -> dict[str, Any]:
        return {
            "entity_id": self.entity_id,
            "name": self.name,
            "area": self.area,
            "matched": self.matched,
            "matched_field": self.matched_field,
            "score": _finite(self.score),
            "score_breakdown": {k: _finite(v) for k, v in self.score_breakdown.items()},
        }


@dataclass(slots=True)
class SearchResult:
    results: list[SearchHit]
    total: int
    page: int
    page_size: int
    has_more: bool
    strategy: str
    degraded: list[dict[str, str]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "results": [hit.as_dict() for hit in self.results],
            "total": self.total,
            "page": self.page,
            "page_size": self.page_size,
            "has_more": self.has_more,
            "strategy": self.strategy,
            "degraded": [dict(d) for d in self.degraded],
            "meta": _json_safe(self.meta),
        }


def _finite(value: float) -> float:
    return float(value) if math.isfinite(value) else 0.0


def _json_safe(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_json_safe(v) for v in value]
    if isinstance(value, float):
        return _finite(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


class _SemanticFailure(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


# ---- public API ---------------------------------------------------------------------------


def search(
    index: DeviceIndex,
    query: str,
    *,
    strategy: str = "hybrid",
    page: int = 1,
    page_size: int = DEFAULT_PAGE_SIZE,
    min_score: float = DEFAULT_MIN_SCORE,
    recency: Mapping[str, float] | None = None,
    now: float | None = None,
    semantic_timeout: float = 2.0,
    vector_searcher: VectorSearcher | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> SearchResult:
    """Search the home's entities for `query`; see the module docstring for the scoring."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {STRATEGIES}, not {strategy!r}")
    meta: dict[str, Any] = {}
    page, page_size = _paging(page, page_size, meta)
    degraded: list[dict[str, str]] = []

    norm = normalize(query) if isinstance(query, str) else ""
    if len(norm) > MAX_QUERY_CHARS:
        meta["query_truncated"] = True
        norm = norm[:MAX_QUERY_CHARS].strip()
    if not norm:
        return SearchResult([], 0, page, page_size, False, strategy, degraded, meta)

    words = read_query(index, norm)
    fits = _Fits(index, words)
    keyword: dict[str, float] = {}
    best_keyword = 0.0
    if strategy in ("hybrid", "keyword"):
        keyword, best_keyword = _keyword_recall(index, norm, fits)

    semantic: dict[str, float] = {}
    effective = strategy
    if strategy in ("hybrid", "semantic"):
        searcher = vector_searcher if vector_searcher is not None else index.vectors
        try:
            semantic = _semantic_recall(searcher, norm, list(keyword), semantic_timeout, clock)
        except _SemanticFailure as failure:
            degraded.append({"code": failure.code, "fallback": "keyword"})
            effective = "keyword"
            semantic = {}
            if not keyword:
                keyword, best_keyword = _keyword_recall(index, norm, fits)

    ids = list(dict.fromkeys([*keyword, *semantic]))
    if len(ids) > MAX_CANDIDATES:
        meta["candidates_capped"] = True
        ids = ids[:MAX_CANDIDATES]
    meta["candidates"] = len(ids)
    if effective != strategy:
        meta["effective_strategy"] = effective

    at = time.time() if now is None else now
    scored: list[tuple[float, float, str, dict[str, float]]] = []
    for eid in ids:
        if eid not in index:
            continue
        k = keyword.get(eid, 0.0) / best_keyword if best_keyword > 0 else 0.0
        # Character n-grams find 阳台灯 close to "台灯" too: the same word test holds there.
        s = min(max(semantic.get(eid, 0.0), 0.0), 1.0) * fits(eid).factor
        k, s = k * fits(eid).weight, s * fits(eid).weight
        r = round(_recency(recency, eid, at), 6)
        breakdown, score = _combine(effective, round(k, 6), round(s, 6), r)
        if score + 1e-12 < min_score:
            continue
        scored.append((score, r, eid, breakdown))
    scored.sort(key=lambda t: (-round(t[0], 9), -t[1], t[2]))

    total = len(scored)
    start = (page - 1) * page_size
    window = scored[start : start + page_size]
    hits = [_hit(index, norm, words, eid, score, bd) for score, _, eid, bd in window]
    return SearchResult(
        hits, total, page, page_size, start + page_size < total, strategy, degraded, meta
    )


def _combine(effective: str, k: float, s: float, r: float) -> tuple[dict[str, float], float]:
    """The score's parts as shown, and the score, for the strategy that ran."""
    if effective == "hybrid":
        score = KEYWORD_WEIGHT * k + SEMANTIC_WEIGHT * s + RECENCY_WEIGHT * r
        return {"keyword": k, "semantic": s, "recency": r}, score
    if effective == "keyword":
        return {"keyword": k, "semantic": 0.0, "recency": 0.0}, k
    return {"keyword": 0.0, "semantic": s, "recency": 0.0}, s


class _Fits:
    """Each candidate's `WordFit`, worked out once per search."""

    def __init__(self, index: DeviceIndex, words: QueryWords) -> None:
        self.index = index
        self.words = words
        self._known: dict[str, WordFit] = {}

    def __call__(self, entity_id: str) -> WordFit:
        known = self._known.get(entity_id)
        if known is None:
            known = self._known[entity_id] = fit(self.index, entity_id, self.words)
        return known


# ---- recall --------------------------------------------------------------------------------


def _keyword_recall(index: DeviceIndex, norm: str, fits: _Fits) -> tuple[dict[str, float], float]:
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
            (phrase_score(norm, normalize(s)) for s in (area.name, *area.aliases)), default=0.0
        )
        if best >= AREA_MATCH_THRESHOLD:
            hits.append((area.area_id, best))
    return hits


def _semantic_recall(
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
        raise _SemanticFailure("SEMANTIC_UNAVAILABLE") from err
    if clock() - started > timeout:
        raise _SemanticFailure("SEARCH_TIMEOUT")
    return {e: (s if math.isfinite(s) else 0.0) for e, s in scores.items()}


def _recency(recency: Mapping[str, float] | None, eid: str, now: float) -> float:
    if not recency:
        return 0.0
    when = recency.get(eid)
    if when is None:
        return 0.0
    try:
        age = float(now) - float(when)
    except (TypeError, ValueError):
        return 0.0
    if not math.isfinite(age):
        return 0.0
    if age <= 0:
        return 1.0
    return max(0.0, 1.0 - age / RECENCY_WINDOW)


def _paging(page: int, page_size: int, meta: dict[str, Any]) -> tuple[int, int]:
    try:
        page = int(page)
    except (TypeError, ValueError):
        page = 1
    if page < 1:
        meta["page_clamped"] = True
        page = 1
    try:
        size = int(page_size)
    except (TypeError, ValueError):
        size = DEFAULT_PAGE_SIZE
    if size > MAX_PAGE_SIZE:
        meta["page_size_capped"] = {"requested": size, "used": MAX_PAGE_SIZE}
        size = MAX_PAGE_SIZE
    elif size < 1:
        meta["page_size_clamped"] = {"requested": size, "used": 1}
        size = 1
    return page, size


def _hit(
    index: DeviceIndex,
    norm: str,
    words: QueryWords,
    eid: str,
    score: float,
    breakdown: dict[str, float],
) -> SearchHit:
    """The hit as shown: the name, alias, device name or room that matches the query best,
    with the matching part marked."""
    device = index.device(eid)
    area = index.area_name(device.area_id)
    surfaces: list[tuple[str, str]] = [("name", device.name)]
    surfaces += [("alias", a) for a in device.aliases]
    entry = index.entries[eid]
    if entry.norm_device_name and getattr(device, "device_name", None):
        surfaces.append(("device", str(device.device_name)))
    if device.area_id and device.area_id in index.areas:
        a = index.areas[device.area_id]
        surfaces += [("area", s) for s in (a.name, *a.aliases)]
    query = fold_accents(norm)
    best_field, best_text, best = "", "", 0.0
    for kind, raw in surfaces:
        shown = display(raw)
        if not shown:
            continue
        s = phrase_score(query, fold_accents(normalize(shown)))
        if kind == "area":
            s *= AREA_FACTOR
        if s > best:
            best_field, best_text, best = kind, shown, s
    if not best_text:
        best_field, best_text = "name", display(device.name)
        matched = escape(best_text)
    else:
        matched = mark(best_text, norm, words.function_words)
    return SearchHit(
        entity_id=eid,
        name=display(device.name),
        area=display(area) if area else None,
        matched=matched,
        matched_field=best_field,
        score=score,
        score_breakdown=breakdown,
    )


def explain(
    candidates: Sequence[Candidate],
    recency: Mapping[str, float] | None = None,
    now: float | None = None,
) -> dict[str, dict[str, float]]:
    """The search breakdown for `retrieve`'s candidates: keyword normalised over these
    candidates, semantic clipped to [0, 1], recency as in `search`, and their 0.55 / 0.35 /
    0.10 sum, so one scale explains both services."""
    at = time.time() if now is None else now
    top = max((_finite(c.keyword_score) for c in candidates), default=0.0)
    out: dict[str, dict[str, float]] = {}
    for c in candidates:
        k = _finite(c.keyword_score) / top if top > 0 else 0.0
        s = min(1.0, max(0.0, _finite(c.vector_score)))
        r = _recency(recency, c.entity_id, at)
        out[c.entity_id] = {
            "keyword": round(k, 4),
            "semantic": round(s, 4),
            "recency": round(r, 4),
            "score": round(KEYWORD_WEIGHT * k + SEMANTIC_WEIGHT * s + RECENCY_WEIGHT * r, 4),
        }
    return out
