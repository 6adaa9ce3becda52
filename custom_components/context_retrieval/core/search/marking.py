"""How a search hit is shown: its name cleaned as in the YAML context, and the part that
matched the query between `[[` and `]]`.

Marker brackets are unambiguous: inside the text, `\\`, `[` and `]` are escaped with a
backslash, so an unescaped `[[`/`]]` is always a marker. Accents count for nothing here, as
in the search ("tele" marks "télé").
"""

from __future__ import annotations

import unicodedata

from rapidfuzz import fuzz

from ..base.redact import clean
from ..base.text import fold_accents, has_cjk, tokens

NAME_LIMIT = 200
MARK_OPEN = "[["
MARK_CLOSE = "]]"


def display(text: str | None) -> str:
    """A name as shown: cleaned as in the YAML context (controls stripped, whitespace
    collapsed, secrets redacted), at most `NAME_LIMIT` characters."""
    return clean(text or "", NAME_LIMIT)


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _folded(text: str) -> tuple[str, list[int]]:
    """`text` folded char by char like `normalize`, with each folded char's source index."""
    out: list[str] = []
    source: list[int] = []
    for i, ch in enumerate(text):
        folded = fold_accents(unicodedata.normalize("NFKC", ch).casefold())
        for f in folded:
            out.append(f)
            source.append(i)
    return "".join(out), source


def _spans(folded: str, query: str, skip: frozenset[str]) -> list[tuple[int, int]]:
    """Spans of `folded` that match `query`: whole query, else its words (but those in
    `skip`: "de" alone matches nothing), else the best fuzzy window."""
    if not query or not folded:
        return []
    at = folded.find(query)
    if at >= 0:
        return [(at, at + len(query))]
    spans: list[tuple[int, int]] = []
    for word in tokens(query):
        if (len(word) < 2 and not has_cjk(word)) or word in skip:
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


def mark(text: str, norm_query: str, skip: frozenset[str] = frozenset()) -> str:
    """`text` escaped, with the parts matching `norm_query` between `[[` and `]]`; words in
    `skip` (accent-folded function words) are not marked on their own."""
    folded, source = _folded(text)
    spans = _spans(folded, fold_accents(norm_query), skip)
    if not spans:
        return escape(text)
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
        out.append(escape(ch))
    if inside:
        out.append(MARK_CLOSE)
    return "".join(out)
