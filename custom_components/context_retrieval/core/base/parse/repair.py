"""Typo repair for words nothing in the home or the lexicon explains.

Latin scripts: a word one or two letters away from a word of the home or the lexicon ("bedrom",
"lihgts"), two words that are one ("bath room"), and in compounding languages a word that is
two known words ("schlafzimmerlicht"). CJK: one wrong character in a room or device name,
preferring characters that sound alike, as speech recognition slips are homophones (书方→书房).
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from ..index import DeviceIndex
from ..lexicon import Lexicon
from ..phrase_table import Ref
from ..text import has_cjk, is_cjk, sounds_alike
from .spans import CLAUSE_PUNCT, NUMERIC_RE, PARTICLE_KINDS, Span, covered_positions
from .vocabulary import (
    BLANK,
    MAX_PATTERN_WORDS,
    NamePatterns,
    cjk_wildcards,
    name_patterns,
    per_home,
    surfaces,
)

_SLIPS_REMEMBERED = 4096
MIN_SLIPPED_PART = 5  # a slip in a shorter part of a compound is too likely another word


def is_content_word(lex: Lexicon, key: str) -> bool:
    """A word of the language that can be a part of a compound: not grammar ("der", "van")."""
    return any(kind not in PARTICLE_KINDS for kind, _ in lex.phrases.get((key,), []))


def _max_slips(word: str) -> int:
    """Letters a slip may change: one in a short word, two in a long one."""
    return 1 if len(word) <= 8 else 2


def repair_latin(
    toks: list[str], keys: list[str], spans: list[Span], index: DeviceIndex, lex: Lexicon
) -> list[tuple[int, str]]:
    """Typo repair for words nothing matched: the closest word of the home or the lexicon,
    within a slip or two; a word of the home wins a tie ("quato" is the room "Quarto", not
    "quanto"), and a tie between two words of the home is left alone rather than guessed."""
    covered = covered_positions(spans, len(toks))
    vocab_set = index.token_words(lex)
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
                fixes.append((i, surfaces(index, lex).get(joined, (joined, False))[0]))
                fixes.append((i + 1, ""))
                i += 2
                continue
        # A word of the home said right is no slip, even where it matched nothing yet: in
        # "the frst floor" the floor is found once "frst" is repaired, not as "flood".
        if len(tok) >= 4 and vocab_set and keys[i] not in vocab_set:
            best = slip_repair(tok, keys[i], index, lex)
            if best is not None:
                fixes.append((i, best))
        i += 1
    return fixes


def slip_repair(tok: str, key: str, index: DeviceIndex, lex: Lexicon) -> str | None:
    """`_closest` over the home's and the language's words, remembered until the home
    changes: a long word is asked about whole before it is cut, and again when repaired."""
    seen: dict[tuple[str, str], str | None] = per_home(index, "_slips", lex, dict)
    if (tok, key) not in seen:
        if len(seen) >= _SLIPS_REMEMBERED:
            seen.clear()
        seen[(tok, key)] = _closest(tok, key, index.token_vocabulary(lex), surfaces(index, lex))
    return seen[(tok, key)]


def _closest(
    tok: str, key: str, vocab: list[str], surfaces: dict[str, tuple[str, bool]]
) -> str | None:
    """The word `tok` is a slip of. Compared as written and by key: "salo" is "Salon" with a
    letter lost, though its key ("sal") has lost one more."""
    limit = _max_slips(key)
    written = [surfaces.get(word, (word, False))[0] for word in vocab]
    distances: dict[str, int] = {}
    for query, choices in ((key, vocab), (tok, written)):
        for _, dist, idx in process.extract(
            query, choices, scorer=OSA.distance, score_cutoff=limit, limit=None
        ):
            word = vocab[idx]
            distances[word] = min(dist, distances.get(word, dist))
    # A word of the language is only a slip away when it starts the same: "пуст" (empty) is
    # no slip of "опусти" (lower). Names are what typos hit most, so they are matched as a whole.
    found = [
        (word, dist)
        for word, dist in distances.items()
        if word != key and (surfaces.get(word, (word, False))[1] or _language_slip(key, word))
    ]
    if not found:
        return None
    nearest = min(dist for _, dist in found)
    best = [w for w, dist in found if dist == nearest]
    home = [w for w in best if surfaces.get(w, (w, False))[1]]
    if len(home) > 1:
        return None
    word = home[0] if home else max(best, key=lambda w: (fuzz.ratio(key, w), w))
    return surfaces.get(word, (word, False))[0]


def _language_slip(said: str, word: str) -> bool:
    """Whether `said` may be a slip of `word`, a word of the language: it starts the same,
    and a short word only lost, gained or swapped a letter. A short word with one letter
    changed is most likely another word ("oven" is no slip of "open": "start the oven" must
    not read as "start the open")."""
    if word[:1] != said[:1]:
        return False
    if len(word) > _SHORT_WORD or len(word) != len(said):
        return True
    return sorted(word) == sorted(said)


_SHORT_WORD = 5
_CJK_REACH = 2


def _slip(said: str, word: str, grammar: bool) -> bool:
    """Whether `said` is `word` with a slip. A word of the language ("a", "com") only counts
    as `word` that lost a letter ("o" for "do"): swapping a letter of a real word is too
    likely to be a different word on purpose ("a" is not "b")."""
    if said == word:
        return False
    if grammar:
        return len(word) == len(said) + 1 and OSA.distance(said, word) == 1
    return OSA.distance(said, word) <= _max_slips(word)


def repair_in_names(
    toks: list[str], keys: list[str], spans: list[Span], index: DeviceIndex, lex: Lexicon
) -> list[tuple[int, str]]:
    """A slip inside a name of several words: "Luz d Quarto", "Rés do Chã", "porta oa
    garagem". A word no name covers (unknown, or grammar such as "o") is repaired when the
    repaired word and its neighbours, as said, are a whole name of the home; the longest
    such name wins, and two different repairs of the same length are left alone."""
    named = {pos for s in spans if s.refs for pos in range(s.start, s.end)}
    candidates = [
        i
        for i, tok in enumerate(toks)
        if not (i in named or has_cjk(tok) or NUMERIC_RE.match(tok) or tok in CLAUSE_PUNCT)
    ]
    if not candidates:
        return []
    patterns = name_patterns(index, lex)
    if not patterns.by_pattern:
        return []
    max_len = min(index.table(lex).max_len, MAX_PATTERN_WORDS)
    fixes: list[tuple[int, str]] = []
    for i in candidates:
        word = _best_repair(i, toks, keys, patterns, max_len, index, lex)
        if word is not None:
            fixes.append((i, surfaces(index, lex).get(word, (word, True))[0]))
    return fixes


def _best_repair(
    i: int,
    toks: list[str],
    keys: list[str],
    patterns: NamePatterns,
    max_len: int,
    index: DeviceIndex,
    lex: Lexicon,
) -> str | None:
    """The one word of a name the word at `i` is a slip of, in the longest name it completes;
    None when none, or when two names of that length disagree."""
    # A name never runs over a clause's punctuation, nor over a word no name holds: the
    # windows stay in i's clause and among the words of names around it.
    lo, hi = _among_name_words(keys, i, *_clause_around(toks, i), patterns.words)
    for length in range(min(max_len, hi - lo), 1, -1):
        words = {
            word
            for start in range(max(lo, i - length + 1), min(i, hi - length) + 1)
            for word in _repairs_at(i, start, length, toks, keys, patterns, index, lex)
        }
        if words:
            return next(iter(words)) if len(words) == 1 else None
    return None


def _repairs_at(
    i: int,
    start: int,
    length: int,
    toks: list[str],
    keys: list[str],
    patterns: NamePatterns,
    index: DeviceIndex,
    lex: Lexicon,
) -> Iterator[str]:
    """The words that, put at `i`, make the window of `length` from `start` a whole name,
    each one a slip the word said may be."""
    window = keys[start : start + length]
    pattern = (*window[: i - start], BLANK, *window[i - start + 1 :])
    grammar = bool(lex.phrases.get((keys[i],)))
    for word in patterns.by_pattern.get(pattern, ()):
        written = surfaces(index, lex).get(word, (word, True))[0]
        if _slip(keys[i], word, grammar) or _anchored_slip(toks[i], written, grammar):
            yield word


def _among_name_words(
    keys: list[str], i: int, lo: int, hi: int, words: AbstractSet[str]
) -> tuple[int, int]:
    """The stretch of `lo`..`hi` around position `i` whose other words are all words of names."""
    start = i
    while start > lo and keys[start - 1] in words:
        start -= 1
    end = i + 1
    while end < hi and keys[end] in words:
        end += 1
    return start, end


def _clause_around(toks: list[str], i: int) -> tuple[int, int]:
    """The positions [lo, hi) of the clause holding token i: up to the punctuation around."""
    lo = i
    while lo > 0 and toks[lo - 1] not in CLAUSE_PUNCT:
        lo -= 1
    hi = i + 1
    while hi < len(toks) and toks[hi] not in CLAUSE_PUNCT:
        hi += 1
    return lo, hi


def _anchored_slip(said: str, written: str, grammar: bool) -> bool:
    """A slip of two letters in a longer word whose neighbours said the rest of a name as it
    is ("fairy lites" for "fairy lights"): the name around it vouches for the repair."""
    if grammar or min(len(said), len(written)) < MIN_SLIPPED_PART or said == written:
        return False
    return OSA.distance(said, written) <= _ANCHORED_SLIPS


_ANCHORED_SLIPS = 2


def repair_cjk(toks: list[str], spans: list[Span], index: DeviceIndex, lex: Lexicon) -> list[Span]:
    """Names of the home said with one character slipped ("书方" for 书房): a span for each
    run of characters nothing explained that, with a neighbour or two, reads as one name."""
    covered = covered_positions(spans, len(toks))
    slip_ok = _may_slip(toks, spans)
    wild: dict[str, list[Ref]] | None = None  # made when a run of characters needs it
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
        if index.rooms.areas_containing("".join(toks[i:j]), lex):
            # Not a slip: a part of a room name ("卧室" of "主卧室"), read as such later.
            i = j
            continue
        if wild is None:
            wild = cjk_wildcards(index, lex)
        best = _slipped_name(toks, i, j, covered, slip_ok, wild)
        if best:
            out.append(best)
        # A name found past this run ("囱台串": 台 is a word of its own) is not looked for
        # again from its later characters (it was repaired twice).
        i = max(j, best.end) if best else j
    return out


def _may_slip(toks: list[str], spans: list[Span]) -> list[bool]:
    """Where a character may be a slip: not inside a name, a longer word, a particle or a
    type word (the kind of device said: "落地灯" is a lamp, never the fan "落地扇")."""
    slip_ok = [True] * len(toks)
    for s in spans:
        if s.refs or s.length > 1 or any(k in PARTICLE_KINDS or k == "type" for k, _ in s.lex):
            for i in range(s.start, s.end):
                slip_ok[i] = False
    return slip_ok


def _slipped_name(
    toks: list[str],
    i: int,
    j: int,
    covered: list[bool],
    slip_ok: list[bool],
    wild: dict[str, list[Ref]],
) -> Span | None:
    """The longest window over the uncovered run toks[i:j] that names one thing with one
    character slipped, else None."""
    # The run plus two covered neighbours on each side: a slip can turn one character of a
    # name into a word the lexicon happens to know, and a name of four characters has the
    # slip anywhere ("窗台穿灯" is 窗台串灯, "充电装" 充电桩).
    n = len(toks)
    lo, hi = max(0, i - _CJK_REACH), min(n, j + _CJK_REACH)
    for length in range(min(6, hi - lo), 1, -1):
        for start in range(lo, hi - length + 1):
            end = start + length
            if end <= i or start >= j:
                continue
            window = toks[start:end]
            if not all(len(t) == 1 and is_cjk(t) for t in window):
                continue
            chosen = _named_with_a_slip(window, start, covered, slip_ok, wild)
            if chosen and len({r.raw for r in chosen}) == 1:
                return Span(start, end, "".join(window), refs=chosen, exact=True, corrected=True)
    return None


def _named_with_a_slip(
    window: list[str],
    start: int,
    covered: list[bool],
    slip_ok: list[bool],
    wild: dict[str, list[Ref]],
) -> list[Ref]:
    """What `window` names with any one of its characters slipped."""
    hits: dict[tuple[str, str], Ref] = {}
    homophone: dict[tuple[str, str], Ref] = {}
    for pos in range(len(window)):
        # The slipped character is one nothing explained, or a one-character word that is
        # not a particle: "客听" is 客厅, but "了卧室" is not "大卧室".
        if covered[start + pos] and not slip_ok[start + pos]:
            continue
        pattern = "".join(window[:pos]) + "?" + "".join(window[pos + 1 :])
        for ref in wild.get(pattern, []):
            hits[(ref.kind, ref.target)] = ref
            if sounds_alike(window[pos], ref.raw[pos]):
                homophone[(ref.kind, ref.target)] = ref
    # Speech recognition slips are homophones ("书方" for 书房): prefer those, and trust
    # two-character words only when they sound alike and name one thing.
    chosen = homophone or ({} if len(window) == 2 else hits)
    return list(chosen.values())
