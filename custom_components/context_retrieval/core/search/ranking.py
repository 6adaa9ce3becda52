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

from ..base.index import DeviceIndex
from ..base.keyword_search import phrase_score
from ..base.models import Candidate
from ..base.text import fold_accents, normalize
from ..base.vector_search import VectorSearcher
from .marking import display, escape, mark
from .recall import AREA_FACTOR, SemanticFailure, keyword_recall, semantic_recall
from .words import Fits, QueryWords, read_query

Strategy = Literal["hybrid", "keyword", "semantic"]
STRATEGIES: tuple[str, ...] = ("hybrid", "keyword", "semantic")

KEYWORD_WEIGHT = 0.55
SEMANTIC_WEIGHT = 0.35
RECENCY_WEIGHT = 0.10
RECENCY_WINDOW = 24 * 3600.0

MAX_CANDIDATES = 10_000
MAX_PAGE_SIZE = 50
DEFAULT_PAGE_SIZE = 20
DEFAULT_MIN_SCORE = 0.25
# A query longer than this is cut: no entity name is that long, and fuzzy scoring is O(n·m).
MAX_QUERY_CHARS = 256


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

    norm = normalize(query) if isinstance(query, str) else ""
    if len(norm) > MAX_QUERY_CHARS:
        meta["query_truncated"] = True
        norm = norm[:MAX_QUERY_CHARS].strip()
    if not norm:
        return SearchResult([], 0, page, page_size, False, strategy, [], meta)

    words = read_query(index, norm)
    fits = Fits(index, words)
    searcher = vector_searcher if vector_searcher is not None else index.vectors
    found = _recall(index, norm, strategy, fits, searcher, semantic_timeout, clock)
    ids = list(dict.fromkeys([*found.keyword, *found.semantic]))
    if len(ids) > MAX_CANDIDATES:
        meta["candidates_capped"] = True
        ids = ids[:MAX_CANDIDATES]
    meta["candidates"] = len(ids)
    if found.effective != strategy:
        meta["effective_strategy"] = found.effective

    at = time.time() if now is None else now
    scored = [
        hit
        for eid in ids
        if eid in index and (hit := _scored(eid, found, fits, recency, at))[0] + 1e-12 >= min_score
    ]
    scored.sort(key=lambda t: (-round(t[0], 9), -t[1], t[2]))

    total = len(scored)
    start = (page - 1) * page_size
    window = scored[start : start + page_size]
    hits = [_hit(index, norm, words, eid, score, bd) for score, _, eid, bd in window]
    return SearchResult(
        hits, total, page, page_size, start + page_size < total, strategy, found.degraded, meta
    )


@dataclass(frozen=True, slots=True)
class _Recalled:
    """What recall found: raw keyword scores and the best of them (the scale), cosine scores,
    the strategy that ran and why it is not the one asked for."""

    keyword: dict[str, float]
    best_keyword: float
    semantic: dict[str, float]
    effective: str
    degraded: list[dict[str, str]]


def _recall(
    index: DeviceIndex,
    norm: str,
    strategy: str,
    fits: Fits,
    searcher: VectorSearcher,
    timeout: float,
    clock: Callable[[], float],
) -> _Recalled:
    keyword: dict[str, float] = {}
    best = 0.0
    if strategy in ("hybrid", "keyword"):
        keyword, best = keyword_recall(index, norm, fits)
    if strategy not in ("hybrid", "semantic"):
        return _Recalled(keyword, best, {}, strategy, [])
    try:
        semantic = semantic_recall(searcher, norm, list(keyword), timeout, clock)
    except SemanticFailure as failure:
        if not keyword:
            keyword, best = keyword_recall(index, norm, fits)
        return _Recalled(
            keyword, best, {}, "keyword", [{"code": failure.code, "fallback": "keyword"}]
        )
    return _Recalled(keyword, best, semantic, strategy, [])


def _scored(
    eid: str,
    found: _Recalled,
    fits: Fits,
    recency: Mapping[str, float] | None,
    at: float,
) -> tuple[float, float, str, dict[str, float]]:
    """(score, recency, entity id, the score's parts) of one candidate."""
    best = found.best_keyword
    k = found.keyword.get(eid, 0.0) / best if best > 0 else 0.0
    # Character n-grams find 阳台灯 close to "台灯" too: the same word test holds there.
    s = min(max(found.semantic.get(eid, 0.0), 0.0), 1.0) * fits(eid).factor
    k, s = k * fits(eid).weight, s * fits(eid).weight
    r = round(_recency(recency, eid, at), 6)
    breakdown, score = _combine(found.effective, round(k, 6), round(s, 6), r)
    return score, r, eid, breakdown


def _combine(effective: str, k: float, s: float, r: float) -> tuple[dict[str, float], float]:
    """The score's parts as shown, and the score, for the strategy that ran."""
    if effective == "hybrid":
        score = KEYWORD_WEIGHT * k + SEMANTIC_WEIGHT * s + RECENCY_WEIGHT * r
        return {"keyword": k, "semantic": s, "recency": r}, score
    if effective == "keyword":
        return {"keyword": k, "semantic": 0.0, "recency": 0.0}, k
    return {"keyword": 0.0, "semantic": s, "recency": 0.0}, s


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
