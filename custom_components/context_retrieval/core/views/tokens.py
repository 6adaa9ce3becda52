"""A view rule's text as tokens: widths, brackets and quotes folded, the formal symbols and
words, quoted tags, and each language's connectives found between words and inside unspaced
CJK runs, never inside a tag the home knows (the parser reads the tokens)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..base.lexicon import LexiconSet
from ..base.text import has_cjk, is_cjk, normalize, strip_controls
from .model import MAX_RULE_LENGTH, RuleSyntaxError

# What a connective does: AND/OR join, NOT leaves out what follows, NOT_AFTER what precedes,
# OF ends a modifier ("的").
Kind = Literal["AND", "OR", "NOT", "NOT_AFTER", "OF"]
FORMAL_WORDS = {"AND": "AND", "OR": "OR", "NOT": "NOT"}
_SEPARATORS = frozenset(",;、")


_OPEN = frozenset("(【〔［[{〖")
_CLOSE = frozenset(")】〕］]}〗")
_QUOTES = frozenset('"“”«»„「」『』')


def _preprocess(text: str) -> tuple[str, list[int]]:
    """Width-fold and tidy `text` character by character, remembering where each came from,
    so errors point into what the user typed."""
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            out = " "
        elif ch.isascii() and ch.isprintable():
            out = ch
        else:
            out = unicodedata.normalize("NFKC", strip_controls(ch))
        for c in out:
            if c in _OPEN:
                c = "("
            elif c in _CLOSE:
                c = ")"
            elif c in _QUOTES:
                c = '"'
            elif c.isspace():
                c = " "
            chars.append(c)
            origin.append(i)
    return "".join(chars), origin


TokenKind = Literal["(", ")", "AND", "OR", "NOT", "NOT_AFTER", "OF", "SEP", "TAG"]


@dataclass(frozen=True, slots=True)
class Token:
    kind: TokenKind
    value: str
    start: int  # in the preprocessed text
    quoted: bool = False
    formal: bool = False  # a symbol or a capitalised AND/OR/NOT: the formal layer's


@dataclass(frozen=True, slots=True)
class Connectives:
    """The connective words in effect, beside the symbols `& && | ||`."""

    words: dict[tuple[str, ...], Kind]  # space-separated scripts, as word sequences
    cjk: tuple[tuple[str, Kind], ...]  # found inside unspaced runs; longest first
    max_words: int

    @classmethod
    def from_lexicons(
        cls, lexicons: LexiconSet, languages: Iterable[str | None] = ()
    ) -> Connectives:
        """English's and `languages`' words, and every language's CJK connectives (they
        cannot be mistaken for a Latin word). Other languages' words are left out so that a
        one-letter word of one ("o", "e", "и") stays part of a tag in another."""
        words: dict[tuple[str, ...], Kind] = {("and",): "AND", ("or",): "OR"}
        cjk: dict[str, Kind] = {}
        chosen = {lexicons.get("en").language} | {
            lexicons.get(lang).language for lang in languages if lang
        }
        for lang, lex in sorted(lexicons.lexicons.items()):
            pairs: tuple[tuple[Kind, tuple[str, ...]], ...] = (
                ("AND", lex.rule_and),
                ("OR", lex.rule_or),
                ("NOT", lex.rule_not),
                ("NOT_AFTER", lex.rule_not_after),
                ("OF", lex.rule_of),
            )
            for kind, items in pairs:
                for item in items:
                    if not item or set(item) <= set("&|"):
                        continue
                    if has_cjk(item):
                        cjk.setdefault(item, kind)
                    elif lang in chosen:
                        words.setdefault(tuple(item.split()), kind)
        ordered = tuple(sorted(cjk.items(), key=lambda kv: (-len(kv[0]), kv[0])))
        return cls(words, ordered, max(len(k) for k in words))


def tokenize(
    text: str, connectives: Connectives, known: frozenset[str] = frozenset()
) -> tuple[list[Token], list[int]]:
    """Tokens of a rule and the map from preprocessed to original positions.

    `known` holds the home's tag surfaces (normalised): a run of words or characters that is a
    known tag is never split at a connective inside it ("Rock and Roll", "和室").
    """
    if len(text) > MAX_RULE_LENGTH:
        raise RuleSyntaxError(
            "too_long", MAX_RULE_LENGTH, f"a rule may be at most {MAX_RULE_LENGTH} characters"
        )
    pre, origin = _preprocess(text)
    raw: list[Token] = []
    words: list[tuple[str, int]] = []  # the current run of plain words, flushed at symbols

    longest = max(map(len, known), default=0)

    def flush() -> None:
        raw.extend(_word_tokens(words, pre, connectives, known, longest))
        words.clear()

    i, n = 0, len(pre)
    while i < n:
        ch = pre[i]
        if ch == " ":
            i += 1
        elif ch in "()":
            flush()
            raw.append(Token(ch, ch, i))  # type: ignore[arg-type]
            i += 1
        elif ch in _SEPARATORS:
            flush()
            raw.append(Token("SEP", ch, i))
            i += 1
        elif ch in "&|":
            flush()
            token, i = _operator(pre, i, origin)
            raw.append(token)
        elif ch == '"':
            flush()
            token, i = _quoted(pre, i, origin)
            raw.append(token)
        else:
            j = i
            while j < n and pre[j] not in ' ()&|"' and pre[j] not in _SEPARATORS:
                j += 1
            words.append((pre[i:j], i))
            i = j
    flush()
    return _merge_tags(raw, pre), origin


def _operator(pre: str, i: int, origin: list[int]) -> tuple[Token, int]:
    """The `&`/`&&` or `|`/`||` at `i`, and where the rule goes on after it."""
    ch, j = pre[i], i
    while j < len(pre) and pre[j] == ch:
        j += 1
    if j - i > 2:
        raise RuleSyntaxError("bad_operator", origin[i], f"'{pre[i:j]}' is no operator")
    return Token("AND" if ch == "&" else "OR", pre[i:j], i, formal=True), j


def _quoted(pre: str, i: int, origin: list[int]) -> tuple[Token, int]:
    """The quoted tag opened at `i`, and where the rule goes on after its closing quote."""
    end = pre.find('"', i + 1)
    if end < 0:
        raise RuleSyntaxError("unterminated_quote", origin[i], "a quote is not closed")
    value = " ".join(pre[i + 1 : end].split())
    if not value:
        raise RuleSyntaxError("empty_tag", origin[i], "the quotes hold no tag")
    return Token("TAG", value, i, quoted=True), end + 1


def _word_tokens(
    words: list[tuple[str, int]],
    pre: str,
    connectives: Connectives,
    known: frozenset[str],
    longest_known: int,
) -> list[Token]:
    """Connectives and tag pieces of a run of words; pieces are merged into tags later."""
    out: list[Token] = []
    folded = [normalize(w) for w, _ in words]
    i = 0
    while i < len(words):
        # A known multi-word tag wins over a connective inside it.
        span = _known_span(folded, i, known)
        if span > 1:
            start = words[i][1]
            last_word, last_start = words[i + span - 1]
            out.append(Token("TAG", pre[start : last_start + len(last_word)], start))
            i += span
            continue
        word, start = words[i]
        if word in FORMAL_WORDS:  # written in capitals: the formal layer's operator
            out.append(Token(FORMAL_WORDS[word], word, start, formal=True))  # type: ignore[arg-type]
            i += 1
            continue
        kind, size = _connective_at(folded, i, connectives)
        if kind is not None:
            out.append(Token(kind, " ".join(w for w, _ in words[i : i + size]), start))
            i += size
            continue
        if connectives.cjk and has_cjk(word):
            out.extend(_split_cjk(word, start, connectives, known, longest_known))
        else:
            out.append(Token("TAG", word, start))
        i += 1
    return out


def _known_span(folded: list[str], i: int, known: frozenset[str]) -> int:
    for size in range(min(6, len(folded) - i), 1, -1):
        if " ".join(folded[i : i + size]) in known:
            return size
    return 0


def _connective_at(folded: list[str], i: int, connectives: Connectives) -> tuple[Kind | None, int]:
    for size in range(min(connectives.max_words, len(folded) - i), 0, -1):
        kind = connectives.words.get(tuple(folded[i : i + size]))
        if kind is not None:
            return kind, size
    return None, 0


def _split_cjk(
    word: str, start: int, connectives: Connectives, known: frozenset[str], longest_known: int
) -> list[Token]:
    """Find connectives inside an unspaced run ("灯并且客厅"), never inside a known tag."""
    out: list[Token] = []
    piece_start = 0
    i = 0
    while i < len(word):
        span = 0
        if is_cjk(word[i]):
            for size in range(min(longest_known, len(word) - i), 1, -1):
                if normalize(word[i : i + size]) in known:
                    span = size
                    break
        if span:
            i += span
            continue
        hit = next(((c, kind) for c, kind in connectives.cjk if word.startswith(c, i)), None)
        if hit is None:
            i += 1
            continue
        if i > piece_start:
            out.append(Token("TAG", word[piece_start:i], start + piece_start))
        out.append(Token(hit[1], hit[0], start + i))
        i += len(hit[0])
        piece_start = i
    if piece_start < len(word):
        out.append(Token("TAG", word[piece_start:], start + piece_start))
    return out


def _merge_tags(raw: list[Token], pre: str) -> list[Token]:
    """Adjacent unquoted tag pieces are one stretch of words: `living room`."""
    out: list[Token] = []
    for tok in raw:
        prev = out[-1] if out else None
        if (
            tok.kind == "TAG"
            and prev is not None
            and prev.kind == "TAG"
            and not tok.quoted
            and not prev.quoted
        ):
            end = tok.start + len(tok.value)
            out[-1] = Token("TAG", " ".join(pre[prev.start : end].split()), prev.start)
        else:
            out.append(tok)
    return out


# Redundant brackets are flattened away later; this only keeps recursion bounded.
