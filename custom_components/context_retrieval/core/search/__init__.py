"""Explainable entity search: what the settings search box and the search service run.

`ranking` scores and pages what `recall` finds, `words` tells which words of the query an
entity shares, `marking` shows the part of a name that matched.
"""

from .marking import MARK_CLOSE, MARK_OPEN, NAME_LIMIT, mark
from .ranking import (
    DEFAULT_MIN_SCORE,
    DEFAULT_PAGE_SIZE,
    KEYWORD_WEIGHT,
    MAX_CANDIDATES,
    MAX_PAGE_SIZE,
    MAX_QUERY_CHARS,
    RECENCY_WEIGHT,
    SEMANTIC_WEIGHT,
    STRATEGIES,
    SearchHit,
    SearchResult,
    explain,
    search,
)
from .recall import MAX_PER_SIDE

__all__ = [
    "DEFAULT_MIN_SCORE",
    "DEFAULT_PAGE_SIZE",
    "KEYWORD_WEIGHT",
    "MARK_CLOSE",
    "MARK_OPEN",
    "MAX_CANDIDATES",
    "MAX_PAGE_SIZE",
    "MAX_PER_SIDE",
    "MAX_QUERY_CHARS",
    "NAME_LIMIT",
    "RECENCY_WEIGHT",
    "SEMANTIC_WEIGHT",
    "STRATEGIES",
    "SearchHit",
    "SearchResult",
    "explain",
    "mark",
    "search",
]
