"""Explainable entity search: keyword ∪ semantic recall, weighted, paged, explained.

`search(index, "ceiling light")` returns the entities whose names, aliases or areas match, each
with the text that matched (the matched part between `[[` and `]]`) and the score's parts:

    hybrid   score = 0.55 × keyword + 0.35 × semantic + 0.10 × recency
    keyword  score = keyword
    semantic score = semantic

keyword is the fuzzy name score divided by the best keyword score of this query, times the
word factor (`word_factor`: so the best hit is 1.0 when it shares a word with the query, and
a hit that shares none stays below that even when no hit shares one), semantic the cosine
similarity clipped to [0, 1], recency 1.0 for an entity
changed or used now, falling linearly to 0 over 24 hours. Ties go to the more recent entity,
then to the smaller entity_id. Recall reuses the index's own machinery: `keyword_search.search`
(fuzzy names, n-gram shortlist on big homes) and the index's vector searcher (or any
`VectorSearcher`). When the semantic side fails or is too slow the search falls back to keyword
only and says so in `degraded`.

In `matched`, marker brackets are unambiguous: inside the text, `\\`, `[` and `]` are escaped
with a backslash, so an unescaped `[[`/`]]` is always a marker.
"""

from __future__ import annotations

import math
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rapidfuzz import fuzz

from .base import keyword_search
from .base.index import DeviceIndex
from .base.keyword_search import phrase_score
from .base.models import Candidate
from .base.redact import clean
from .base.text import cjk_runs, cuts_a_word, has_cjk, normalize, tokens
from .base.vector_search import VectorSearcher

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
# A name that holds the query only inside a longer word of its own ("台灯" in 阳台灯, the
# balcony light: 阳台 is a room word) is no match of that word; one that shares no word with
# the query at all (characters in common only) is a weak one.
INSIDE_WORD_FACTOR = 0.4
NO_SHARED_WORD_FACTOR = 0.6
# Latin words of at least this length that differ by a slip still count as the same word.
NEAR_WORD_MIN_LEN = 4
NEAR_WORD_RATIO = 80
# CJK runs up to this long are also looked at stretch by stretch (longer ones: too many).
MAX_CJK_RUN_SPLIT = 12
# An entity outside the room(s) the query names is less likely the one meant.
OTHER_ROOM_FACTOR = 0.8
# What a hit keeps when its names hold none of the query's words: the rest goes by how much
# of the query they hold (see `coverage`).
COVERAGE_FLOOR = 0.8
NAME_LIMIT = 200

MARK_OPEN = "[["
MARK_CLOSE = "]]"


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

    keyword: dict[str, float] = {}
    best_keyword = 0.0
    if strategy in ("hybrid", "keyword"):
        keyword, best_keyword = _keyword_recall(index, norm)

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
                keyword, best_keyword = _keyword_recall(index, norm)

    ids = list(dict.fromkeys([*keyword, *semantic]))
    if len(ids) > MAX_CANDIDATES:
        meta["candidates_capped"] = True
        ids = ids[:MAX_CANDIDATES]
    meta["candidates"] = len(ids)
    if effective != strategy:
        meta["effective_strategy"] = effective

    places = named_rooms(index, norm)
    at = time.time() if now is None else now
    scored: list[tuple[float, float, str, dict[str, float]]] = []
    for eid in ids:
        if eid not in index:
            continue
        k = keyword.get(eid, 0.0) / best_keyword if best_keyword > 0 else 0.0
        # Character n-grams find 阳台灯 close to "台灯" too: the same word test holds there.
        s = min(max(semantic.get(eid, 0.0), 0.0), 1.0) * word_factor(index, eid, norm)
        fit = place_factor(index, eid, places) * (
            COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage(index, eid, norm)
        )
        k, s = k * fit, s * fit
        r = _recency(recency, eid, at)
        k, s, r = round(k, 6), round(s, 6), round(r, 6)
        if effective == "hybrid":
            breakdown = {"keyword": k, "semantic": s, "recency": r}
            score = KEYWORD_WEIGHT * k + SEMANTIC_WEIGHT * s + RECENCY_WEIGHT * r
        elif effective == "keyword":
            breakdown = {"keyword": k, "semantic": 0.0, "recency": 0.0}
            score = k
        else:
            breakdown = {"keyword": 0.0, "semantic": s, "recency": 0.0}
            score = s
        if score + 1e-12 < min_score:
            continue
        scored.append((score, r, eid, breakdown))
    scored.sort(key=lambda t: (-round(t[0], 9), -t[1], t[2]))

    total = len(scored)
    start = (page - 1) * page_size
    window = scored[start : start + page_size]
    hits = [_hit(index, norm, eid, score, breakdown) for score, _, eid, breakdown in window]
    return SearchResult(
        hits, total, page, page_size, start + page_size < total, strategy, degraded, meta
    )


# ---- recall --------------------------------------------------------------------------------


def _keyword_recall(index: DeviceIndex, norm: str) -> tuple[dict[str, float], float]:
    """Fuzzy name scores (keyword_search) plus entities of an area the query names, and the
    best score before the word factor: the scale keyword scores are divided by, so a hit
    that shares no word stays below 1.0 even when no hit shares one ("tele" in a French
    home without the accent)."""
    found: dict[str, float] = {}
    best = 0.0
    try:
        for cand in keyword_search.search(
            index, norm, limit=MAX_PER_SIDE, min_score=KEYWORD_RECALL_MIN
        ):
            best = max(best, cand.keyword_score)
            found[cand.entity_id] = cand.keyword_score * word_factor(index, cand.entity_id, norm)
    except Exception:  # hostile text must never break a search
        found, best = {}, 0.0
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


def word_factor(index: DeviceIndex, entity_id: str, norm: str) -> float:
    """1.0 when one of the entity's names holds a word of the query as a whole word,
    `INSIDE_WORD_FACTOR` when a Chinese (CJK) run of the query is found only inside a longer
    word of the name, else `NO_SHARED_WORD_FACTOR`."""
    texts = _texts(index, entity_id)
    inside = False
    for piece in _cjk_pieces(norm, index.cjk_room_words()):
        for text in texts:
            found = _cjk_occurrence(text, piece, index.cjk_room_words())
            if found == "whole":
                return 1.0
            inside = inside or found == "inside"
    if inside:
        return INSIDE_WORD_FACTOR
    said = [t for t in tokens(norm) if not has_cjk(t)]
    if said and any(_same_word(w, t) for text in texts for t in tokens(text) for w in said):
        return 1.0
    return NO_SHARED_WORD_FACTOR


def coverage(index: DeviceIndex, entity_id: str, norm: str) -> float:
    """How much of what the query says the entity's names and room hold as whole words: the
    share of the query's word characters (Latin words, or CJK stretches of two characters or
    more found whole) covered. "书房的台灯" is covered far more by the study's 老台灯 (书房,
    台灯) than by another room's 台灯."""
    texts = _texts(index, entity_id)
    words = index.cjk_room_words()
    total = covered = 0
    for run in cjk_runs(norm):
        total += len(run)
        hit = [False] * len(run)
        for piece in _cjk_pieces(run, words):
            at = run.find(piece)
            if len(piece) >= 2 and any(_cjk_occurrence(t, piece, words) == "whole" for t in texts):
                for i in range(at, at + len(piece)):
                    hit[i] = True
        covered += sum(hit)
    own = {t for text in texts for t in tokens(text)}
    for word in (t for t in tokens(norm) if not has_cjk(t)):
        total += len(word)
        if any(_same_word(word, t) for t in own):
            covered += len(word)
    return covered / total if total else 1.0


def _texts(index: DeviceIndex, entity_id: str) -> list[str]:
    """The entity's names, device name and its room's names, normalised."""
    entry = index.entries[entity_id]
    texts = [*entry.norm_names, *([entry.norm_device_name] if entry.norm_device_name else [])]
    area = index.areas.get(index.device(entity_id).area_id or "")
    if area is not None:  # "kitchen" names the kitchen's devices by their room
        texts += [normalize(a) for a in (area.name, *area.aliases)]
    return texts


def _cjk_pieces(norm: str, words: Sequence[str]) -> list[str]:
    """The query's CJK runs, and in a run of several words ("书房的台灯") its stretches of two
    characters or more, longest first: Chinese writes the words of a phrase together. A
    stretch that cuts through one of the home's words as said is none ("台灯" in "阳台灯")."""
    pieces: list[str] = []
    for run in cjk_runs(norm):
        pieces.append(run)
        if len(run) <= MAX_CJK_RUN_SPLIT:
            pieces += [
                run[i : i + n]
                for n in range(len(run) - 1, 1, -1)
                for i in range(len(run) - n + 1)
                if not cuts_a_word(run, i, i + n, words)
            ]
    return list(dict.fromkeys(pieces))


def place_factor(index: DeviceIndex, entity_id: str, places: set[str]) -> float:
    """`OTHER_ROOM_FACTOR` for an entity outside every room the query names ("书房的台灯" is
    the study's lamp, not the guest room's), else 1.0."""
    if not places:
        return 1.0
    return 1.0 if index.device(entity_id).area_id in places else OTHER_ROOM_FACTOR


def named_rooms(index: DeviceIndex, norm: str) -> set[str]:
    """The areas the query names: a CJK name of two characters or more inside it, a Latin
    name as whole words."""
    said = tokens(norm)
    found: set[str] = set()
    for area in index.areas.values():
        for name in (area.name, *area.aliases):
            text = normalize(name)
            if has_cjk(text):
                hit = len(text) >= 2 and text in norm
            else:
                words = tokens(text)
                hit = bool(words) and any(
                    said[i : i + len(words)] == words for i in range(len(said) - len(words) + 1)
                )
            if hit:
                found.add(area.area_id)
                break
    return found


def _cjk_occurrence(text: str, run: str, words: Sequence[str]) -> str:
    """ "whole" when `run` occurs in `text` without cutting through a known word (a room word
    that begins before it or ends after it), "inside" when every occurrence does, "" when
    it does not occur."""
    start = text.find(run)
    seen = False
    while start >= 0:
        seen = True
        if not cuts_a_word(text, start, start + len(run), words):
            return "whole"
        start = text.find(run, start + 1)
    return "inside" if seen else ""


def _same_word(said: str, word: str) -> bool:
    if said == word:
        return True
    if min(len(said), len(word)) < NEAR_WORD_MIN_LEN:
        return False
    return fuzz.ratio(said, word) >= NEAR_WORD_RATIO


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


# ---- explanation ---------------------------------------------------------------------------


def _display(text: str | None) -> str:
    """A name as shown: cleaned as in the YAML context (controls stripped, whitespace
    collapsed, secrets redacted), at most `NAME_LIMIT` characters."""
    return clean(text or "", NAME_LIMIT)


def _hit(
    index: DeviceIndex, norm: str, eid: str, score: float, breakdown: dict[str, float]
) -> SearchHit:
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
    best_field, best_text, best = "", "", 0.0
    for kind, raw in surfaces:
        shown = _display(raw)
        if not shown:
            continue
        s = phrase_score(norm, normalize(shown))
        if kind == "area":
            s *= AREA_FACTOR
        if s > best:
            best_field, best_text, best = kind, shown, s
    if not best_text:
        best_field, best_text = "name", _display(device.name)
        matched = _escape(best_text)
    else:
        matched = mark(best_text, norm)
    return SearchHit(
        entity_id=eid,
        name=_display(device.name),
        area=_display(area) if area else None,
        matched=matched,
        matched_field=best_field,
        score=score,
        score_breakdown=breakdown,
    )


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _folded(text: str) -> tuple[str, list[int]]:
    """`text` folded char by char like `normalize`, with each folded char's source index."""
    out: list[str] = []
    source: list[int] = []
    for i, ch in enumerate(text):
        folded = unicodedata.normalize("NFKC", ch).casefold()
        for f in folded:
            out.append(f)
            source.append(i)
    return "".join(out), source


def _spans(folded: str, query: str) -> list[tuple[int, int]]:
    """Spans of `folded` that match `query`: whole query, else its words, else the best
    fuzzy window."""
    if not query or not folded:
        return []
    at = folded.find(query)
    if at >= 0:
        return [(at, at + len(query))]
    spans: list[tuple[int, int]] = []
    for word in tokens(query):
        if len(word) < 2 and not has_cjk(word):
            continue
        start = folded.find(word)
        while start >= 0:
            spans.append((start, start + len(word)))
            start = folded.find(word, start + len(word))
    if spans:
        return spans
    if len(query) <= len(folded):
        align = fuzz.partial_ratio_alignment(query, folded)
        if align is not None and align.score >= 60 and align.dest_end > align.dest_start:
            return [(align.dest_start, align.dest_end)]
    return []


def mark(text: str, norm_query: str) -> str:
    """`text` escaped, with the parts matching `norm_query` between `[[` and `]]`."""
    folded, source = _folded(text)
    spans = _spans(folded, norm_query)
    if not spans:
        return _escape(text)
    marked = [False] * len(text)
    for start, end in spans:
        for j in range(start, min(end, len(source))):
            marked[source[j]] = True
    out: list[str] = []
    inside = False
    for i, ch in enumerate(text):
        if marked[i] and not inside:
            out.append(MARK_OPEN)
            inside = True
        elif not marked[i] and inside:
            out.append(MARK_CLOSE)
            inside = False
        out.append(_escape(ch))
    if inside:
        out.append(MARK_CLOSE)
    return "".join(out)


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
