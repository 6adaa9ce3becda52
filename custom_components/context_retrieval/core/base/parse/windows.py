"""Every window of an utterance's words, and what it names in this home or means in this
language: the spans the reading of a command chooses from.

A window grows from each word only while some name, room part or phrase still begins with it,
so a long utterance in a large home tries a few windows per word, not every length.
"""

from __future__ import annotations

from ..index import DeviceIndex
from ..lexicon import Lexicon
from ..phrase_table import PhraseTable, Ref
from ..text import has_cjk, is_cjk
from .spans import CLAUSE_PUNCT, LIST_PUNCT, NUMERIC_RE, Span, join_tokens


def _plausible_refs(
    refs: list[Ref], raw: tuple[str, ...], key: tuple[str, ...], table: PhraseTable, lex: Lexicon
) -> list[Ref]:
    """Refs that share only the stem with what was said are inflections of it ("в спальне" of
    "Спальня") unless what was said is a word in its own right: a phrase of the language as
    written ("luce" is a light, not an inflection of the person "Luca"), or a changed word
    that is, as said, the whole name of something else in the home ("Luca a casa" does not
    name the light "Luce A")."""
    if any(r.raw == raw for r in refs):
        return refs
    if any(raw in forms for forms in lex.raw_forms.get(key, {}).values()):
        return []
    kept: list[Ref] = []
    for ref in refs:
        named_elsewhere = False
        only_words = True  # every changed word is a word of the language, the rest grammar
        for pos, (said, named) in enumerate(zip(raw, ref.raw, strict=False)):
            if said == named:
                only_words = only_words and _is_grammar(lex, key[pos])
                continue
            only_words = only_words and _is_word_as_written(lex, key[pos], said)
            whole = table.get((key[pos],))
            if any(r.raw == (said,) and r.target != ref.target for r in whole):
                named_elsewhere = True
        # "as luzes a 50%" is the type word and an article, not the light called "Luz A".
        if not named_elsewhere and not (only_words and len(raw) > 1):
            kept.append(ref)
    return kept


_GRAMMAR_KINDS = frozenset(
    {"filler", "determiner", "area_prep", "target_prep", "conj", "request", "percent"}
)


def _is_grammar(lex: Lexicon, key: str) -> bool:
    entries = lex.phrases.get((key,), [])
    return bool(entries) and all(kind in _GRAMMAR_KINDS for kind, _ in entries)


def _is_word_as_written(lex: Lexicon, key: str, said: str) -> bool:
    return any((said,) in forms for forms in lex.raw_forms.get((key,), {}).values())


def _begins_a_phrase(
    key: tuple[str, ...],
    window: list[str],
    window_cjk: bool,
    table: PhraseTable,
    lex: Lexicon,
    extra: list[Lexicon],
) -> bool:
    """Whether a name of the home or a phrase of the language is, or begins with, these words
    (another language's phrases count only for words outside CJK script, as when read)."""
    if table.begins(key) or key in lex.phrase_prefixes:
        return True
    if window_cjk:
        return False
    return any(tuple(other.key(t) for t in window) in other.phrase_prefixes for other in extra)


def _reach(toks: list[str]) -> tuple[list[int], list[int]]:
    """For each position, where its clause ends and how many single CJK characters run
    from it."""
    n = len(toks)
    clause_end = [n] * (n + 1)
    cjk_run = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        clause_end[j] = j if toks[j] in CLAUSE_PUNCT else clause_end[j + 1]
        cjk_run[j] = cjk_run[j + 1] + 1 if len(toks[j]) == 1 and is_cjk(toks[j]) else 0
    return clause_end, cjk_run


def _window_span(
    i: int,
    window: list[str],
    key: tuple[str, ...],
    window_cjk: bool,
    in_cjk_run: bool,
    index: DeviceIndex,
    table: PhraseTable,
    lex: Lexicon,
    extra: list[Lexicon],
) -> Span | None:
    """What the window of words from `i` names or means; None when nothing."""
    length = len(window)
    refs = table.get(key)
    if not refs and length >= 2 and in_cjk_run:
        refs = [
            Ref("area", area, "area_part", tuple(window))
            for area in sorted(index.rooms.part("".join(window)))
        ]
    raw = tuple(window)
    if refs:
        refs = _plausible_refs(refs, raw, key, table, lex)
    lex_entries = list(lex.lookup(key, raw))
    if not window_cjk:
        for other in extra:
            lex_entries.extend(
                e
                for e in other.lookup(tuple(other.key(t) for t in window), raw)
                if e not in lex_entries
            )
    if not refs and not lex_entries:
        return None
    refs = prefer_exact_surface(refs, raw)
    return Span(
        i,
        i + length,
        join_tokens(window),
        refs=list(refs),
        lex=lex_entries,
        exact=not refs or any(r.raw == raw for r in refs),
        inflected=any(lex.is_plural(tok) for tok in window),
    )


def find_spans(
    toks: list[str], keys: list[str], index: DeviceIndex, lex: Lexicon, extra: list[Lexicon]
) -> list[Span]:
    """Every span of `toks` that names something of the home or means something in `lex` (or,
    for Latin words in a CJK utterance, in `extra`), punctuation and numbers included."""
    table = index.table(lex)
    spans: list[Span] = []
    n = len(toks)
    max_len = max(table.max_len, lex.max_phrase_len, *(x.max_phrase_len for x in extra))
    # Facts about each token, found once: every start tries every window length, and a
    # Chinese sentence is a token per character.
    tok_cjk = [has_cjk(t) for t in toks]
    # How far a window from each position may reach: up to the next clause mark, and, for a
    # part of a room name, over single CJK characters only.
    clause_end, cjk_run = _reach(toks)
    for i in range(n):
        tok = toks[i]
        if tok in CLAUSE_PUNCT or tok in LIST_PUNCT:
            span = Span(i, i + 1, tok, punct=tok)
            if tok in LIST_PUNCT:
                span.lex.append(("conj", ""))
            spans.append(span)
            continue
        if NUMERIC_RE.match(tok):
            spans.append(Span(i, i + 1, tok, numeric=True))
        window_cjk = False
        for length in range(1, min(max_len, clause_end[i] - i) + 1):
            window = toks[i : i + length]
            window_cjk = window_cjk or tok_cjk[i + length - 1]
            key = tuple(keys[i : i + length])
            if not _begins_a_phrase(key, window, window_cjk, table, lex, extra) and not (
                length <= cjk_run[i] and "".join(window) in index.rooms.part_prefixes
            ):
                break  # nothing longer from here is a name, a room part or a phrase
            found = _window_span(
                i, window, key, window_cjk, length <= cjk_run[i], index, table, lex, extra
            )
            if found is not None:
                spans.append(found)
    return spans


def prefer_exact_surface(refs: list[Ref], raw: tuple[str, ...]) -> list[Ref]:
    """Of the rooms (or floors, or entities) a stretch names through its stem, keep the ones
    it names as written when there are any: in a home with areas "Кухня" and "Кухне", "в
    Кухня" is the first; the stem matches both."""
    exact_kinds = {r.kind for r in refs if r.raw == raw}
    if not exact_kinds:
        return refs
    return [r for r in refs if r.kind not in exact_kinds or r.raw == raw]
