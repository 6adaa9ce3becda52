"""Keyword recall: fuzzy matching of a phrase against names, aliases and device names.

rapidfuzz works on characters, so it needs no word segmentation and handles Chinese
("落地灯" inside "客厅落地灯") as well as English typos and word order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from .models import Candidate, Reason, ReasonCode
from .text import has_cjk, normalize

if TYPE_CHECKING:
    from .index import DeviceIndex
    from .postings import DeviceEntry

# Device names describe the hardware ("Aqara Hub"), so they count a little less than names.
DEVICE_NAME_FACTOR = 0.9
# Below this many entities every name is scored directly; above it the index's character
# n-gram matrix shortlists the names sharing most grams with the phrase (like a trigram index).
DIRECT_SCORING_LIMIT = 300
SHORTLIST = 300


def phrase_score(phrase: str, name: str) -> float:
    """How well `phrase` (what the user said) matches `name`, in [0, 1]."""
    if not phrase or not name:
        return 0.0
    if phrase == name:
        return 1.0
    full = fuzz.ratio(phrase, name) / 100.0
    # The user often says part of a long name; reward containment, but less than equality.
    # A very short Latin string inside a word is not a mention ("ac" in "back").
    shorter = min(len(phrase), len(name))
    partial = (
        fuzz.partial_ratio(phrase, name) / 100.0
        if (shorter >= 4 or has_cjk(phrase) or has_cjk(name))
        else 0.0
    )
    coverage = min(len(phrase), len(name)) / max(len(phrase), len(name))
    partial_score = partial * (0.75 + 0.2 * coverage)
    tokens = fuzz.token_set_ratio(phrase, name) / 100.0 * 0.95
    return max(full, partial_score, tokens)


def score_entry(phrase: str, entry: DeviceEntry) -> tuple[float, str, str]:
    """Best score of `phrase` over the entry's names, which kind of name matched ("name",
    "alias" or "device") and that name."""
    best, kind, matched = 0.0, "", ""
    for i, name in enumerate(entry.norm_names):
        s = phrase_score(phrase, name)
        if s > best:
            best, kind, matched = s, ("name" if i == 0 else "alias"), name
    if entry.norm_device_name:
        s = phrase_score(phrase, entry.norm_device_name) * DEVICE_NAME_FACTOR
        if s > best:
            best, kind, matched = s, "device", entry.norm_device_name
    return best, kind, matched


def search(
    index: DeviceIndex,
    phrase: str,
    pool: Iterable[str] | None = None,
    limit: int = 200,
    min_score: float = 0.3,
) -> list[Candidate]:
    """Entities of `pool` (default: all) ranked by how well their names match `phrase`."""
    norm = normalize(phrase)
    if not norm:
        return []
    # The ids of this home only, in C: a pool may be thousands.
    pool_set = None if pool is None else index.entries.keys() & pool
    ids: Iterable[str]
    if pool_set is not None and len(pool_set) <= DIRECT_SCORING_LIMIT:
        ids = pool_set
    elif pool_set is None and len(index) <= DIRECT_SCORING_LIMIT:
        ids = index.entries.keys()
    else:
        grams = index.vectors.vectorize(norm)
        ids = index.vectors.shortlist(grams, min(max(limit * 3, 60), SHORTLIST), pool_set)
    # A C-speed first pass (WRatio over every name) keeps the precise scoring to a few dozen:
    # four times what is asked for, at most 60 unless more are asked for.
    owners: list[str] = []
    choices: list[str] = []
    for eid in ids:
        entry = index.entries[eid]
        for name in entry.norm_names:
            owners.append(eid)
            choices.append(name)
        if entry.norm_device_name:
            owners.append(eid)
            choices.append(entry.norm_device_name)
    prefilter = process.extract(
        norm,
        choices,
        scorer=fuzz.WRatio,
        limit=max(limit, min(4 * limit, 60)),
        score_cutoff=min_score * 100 * 0.7,
    )
    shortlisted = list(dict.fromkeys(owners[i] for _, _, i in prefilter))
    out: list[Candidate] = []
    for eid in shortlisted:
        score, kind, matched = score_entry(norm, index.entries[eid])
        if score >= min_score:
            out.append(
                Candidate(
                    entity_id=eid,
                    keyword_score=score,
                    breakdown={"keyword": round(score, 4)},
                    reasons=[Reason(ReasonCode.KEYWORD, norm, matched, kind, score)],
                )
            )
    out.sort(key=lambda c: (-c.keyword_score, c.entity_id))
    return out[:limit]
