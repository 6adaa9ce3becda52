"""Typo repair for words nothing in the home or the lexicon explains.

Latin scripts: a word one or two letters away from a word of the home or the lexicon ("bedrom",
"lihgts"), two words that are one ("bath room"), and in compounding languages a word that is
two known words ("schlafzimmerlicht"). CJK: one wrong character in a room or device name,
preferring characters that sound alike, as speech recognition slips are homophones (书方→书房).
"""

from __future__ import annotations

from rapidfuzz import fuzz, process

from ..index import DeviceIndex, Ref
from ..lexicon import Lexicon
from ..text import has_cjk, is_cjk, sounds_alike
from .spans import CLAUSE_PUNCT, NUMERIC_RE, PARTICLE_KINDS, Span, covered_positions


def split_compounds(toks: list[str], index: DeviceIndex, lex: Lexicon) -> list[str]:
    """ "schlafzimmerlicht" → "schlafzimmer" "licht" when the word is unknown but both parts
    are words of the home or the language (linking -s-/-n- allowed)."""
    vocab = set(index.token_vocabulary(lex))
    table = index.table(lex)
    out: list[str] = []
    for tok in toks:
        key = lex.key(tok)
        if len(tok) < 7 or has_cjk(tok) or lex.lookup((key,)) or table.get((key,)):
            out.append(tok)
            continue
        split = None
        for cut in range(len(tok) - 3, 2, -1):
            head, tail = tok[:cut], tok[cut:]
            for link in ("", "s", "n", "es", "en"):
                if link and not head.endswith(link):
                    continue
                left = head[: len(head) - len(link)] if link else head
                if lex.key(left) in vocab and lex.key(tail) in vocab:
                    split = [left, tail]
                    break
            if split:
                break
        out.extend(split or [tok])
    return out


def repair_latin(
    toks: list[str], keys: list[str], spans: list[Span], index: DeviceIndex, lex: Lexicon
) -> list[tuple[int, str]]:
    """Typo repair for words nothing matched: the closest word of the home or the lexicon."""
    covered = covered_positions(spans, len(toks))
    vocab = index.token_vocabulary(lex)
    vocab_set = set(vocab)
    fixes: list[tuple[int, str]] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        # A word of the question lexicon ("basse", "lowest") is a real word, not a slip.
        if (
            covered[i]
            or has_cjk(tok)
            or NUMERIC_RE.match(tok)
            or tok in CLAUSE_PUNCT
            or tok in lex.question_words
        ):
            i += 1
            continue
        # "bath room" → "bathroom": two unknown words that are one known word.
        if i + 1 < len(toks) and not covered[i + 1]:
            joined = lex.key(tok + toks[i + 1])
            if joined in vocab_set:
                fixes.append((i, joined))
                fixes.append((i + 1, ""))
                i += 2
                continue
        if len(tok) >= 4 and vocab:
            cutoff = 74.0 if len(tok) <= 5 else 80.0
            best = process.extractOne(keys[i], vocab, scorer=fuzz.ratio, score_cutoff=cutoff)
            # A slip changes a letter or two; a word that merely ends like a known one
            # ("poolbeleuchtung" / "beleuchtung") is a different word.
            if best is not None and best[0] != keys[i] and abs(len(best[0]) - len(keys[i])) <= 2:
                fixes.append((i, best[0]))
        i += 1
    return fixes


def _cjk_wildcards(index: DeviceIndex, lex: Lexicon) -> dict[str, list[Ref]]:
    """Room and device names with one character blanked, for one-character slips (书方→书房)."""
    cache: dict[str, dict[str, list[Ref]]] = index.__dict__.setdefault("_cjk_wild", {})
    table = cache.get(lex.language)
    if table is None:
        table = {}
        for keys, refs in index.table(lex).entries.items():
            if not 2 <= len(keys) <= 6 or not all(len(k) == 1 and is_cjk(k) for k in keys):
                continue
            for pos in range(len(keys)):
                pattern = "".join(keys[:pos]) + "?" + "".join(keys[pos + 1 :])
                table.setdefault(pattern, []).extend(
                    r for r in refs if r.kind in ("area", "entity")
                )
        cache[lex.language] = table
    return table


def repair_cjk(toks: list[str], spans: list[Span], index: DeviceIndex, lex: Lexicon) -> list[Span]:
    covered = covered_positions(spans, len(toks))
    slip_ok = [True] * len(toks)
    for s in spans:
        if s.refs or s.length > 1 or any(k in PARTICLE_KINDS for k, _ in s.lex):
            for i in range(s.start, s.end):
                slip_ok[i] = False
    wild = _cjk_wildcards(index, lex)
    out: list[Span] = []
    i = 0
    n = len(toks)
    while i < n:
        if covered[i] or not (len(toks[i]) == 1 and is_cjk(toks[i])):
            i += 1
            continue
        j = i
        while j < n and not covered[j] and len(toks[j]) == 1 and is_cjk(toks[j]):
            j += 1
        if index.areas_containing("".join(toks[i:j]), lex):
            # Not a slip: a part of a room name ("卧室" of "主卧室"), read as such later.
            i = j
            continue
        # The uncovered run toks[i:j] plus one covered neighbour on each side: a slip can turn
        # one character of a name into a word the lexicon happens to know.
        lo, hi = max(0, i - 1), min(n, j + 1)
        best: Span | None = None
        for length in range(min(6, hi - lo), 1, -1):
            for start in range(lo, hi - length + 1):
                end = start + length
                if end <= i or start >= j:
                    continue
                window = toks[start:end]
                if not all(len(t) == 1 and is_cjk(t) for t in window):
                    continue
                hits: dict[tuple[str, str], Ref] = {}
                homophone: dict[tuple[str, str], Ref] = {}
                for pos in range(length):
                    # The slipped character is one nothing explained, or a one-character word
                    # that is not a particle: "客听" is 客厅, but "了卧室" is not "大卧室".
                    if covered[start + pos] and not slip_ok[start + pos]:
                        continue
                    pattern = "".join(window[:pos]) + "?" + "".join(window[pos + 1 :])
                    for ref in wild.get(pattern, []):
                        hits[(ref.kind, ref.target)] = ref
                        if sounds_alike(window[pos], ref.raw[pos]):
                            homophone[(ref.kind, ref.target)] = ref
                # Speech recognition slips are homophones ("书方" for 书房): prefer those, and
                # trust two-character words only when they sound alike and name one thing.
                chosen = homophone or ({} if length == 2 else hits)
                if chosen and len({r.raw for r in chosen.values()}) == 1:
                    best = Span(
                        start,
                        end,
                        "".join(window),
                        refs=list(chosen.values()),
                        exact=True,
                        corrected=True,
                    )
                if best:
                    break
            if best:
                break
        if best:
            out.append(best)
        i = j
    return out
