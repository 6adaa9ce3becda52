"""The stretches of an utterance: tokens, and every reading each stretch of tokens has.

An utterance is normalised and cut into tokens (every CJK character is a token, so Chinese needs
no segmenter). A `Span` is a stretch of tokens with what it may be: a name in the home (entity,
area, floor, label), a word of the language's lexicon, a number or clause punctuation. The
`Analysis` of an utterance is the best non-overlapping set of spans covering it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..phrase_table import Ref
from ..text import is_cjk, tokens

MAX_TOKENS = 400  # longer input is cut; voice commands are a few dozen tokens at most

# A minus right before a digit belongs to the number ("-20 %"); elsewhere it separates words.
_TOKEN_RE = re.compile(r"(?<![\w-])[-−]\d+(?:[.,]\d+)?[\w%°]*|[\w'.%°]+|[,，;；。!！?？、:：]")
CLAUSE_PUNCT = frozenset(",，;；。!！?？:：.")
FULL_STOP = "."
LIST_PUNCT = frozenset("、")
NUMERIC_RE = re.compile(r"^[+-]?\d+(?:[.,]\d+)?(?:%|°[cf]?|度|k|w|kw)?$")

# Which reading of a stretch wins when several kinds of thing share the same words.
_HOME_PRIORITY = {"entity": 6.0, "area": 5.5, "floor": 5.4, "label": 5.0}
_LEX_PRIORITY = {
    "exclusion": 4.8,
    "here": 4.7,
    "there": 4.7,
    "condition": 4.6,
    "action": 4.5,
    "type": 4.4,
    "state": 4.3,
    "pronoun_pl": 4.2,
    "pronoun_sg": 4.1,
    "split": 4.6,
}
# Refs that stand for rooms by a part or a kind of their names, weaker than a name itself.
_GENERIC_SOURCES = frozenset({"area_part", "area_kind"})
# One-character words that are grammar, never a misheard part of a name.
PARTICLE_KINDS = frozenset(
    {
        "filler",
        "determiner",
        "area_prep",
        "target_prep",
        "conj",
        "quant_all",
        "quant_any",
        "exclusion",
        "exclusion_suffix",
        "negation",
        "pronoun_sg",
        "pronoun_pl",
        "split",
    }
)


# The words that leave something out: before it ("except"), after it ("除了…以外"'s 以外), or
# after the whole command (Japanese "以外").
EXCLUSION_KINDS = ("exclusion", "exclusion_suffix", "exclusion_postfix")


# A comma between digits is no clause break: "2,700" groups thousands, "21,5" (as most of
# Europe writes it) is a decimal comma.
_THOUSANDS_RE = re.compile(r"(?<![\d,.])(\d{1,3}),(\d{3})(?![\d,])")
_DECIMAL_COMMA_RE = re.compile(r"(?<=\d),(?=\d)")


def utterance_tokens(norm: str) -> list[str]:
    """`text.tokens`, plus the clause punctuation that tells commands apart."""
    norm = _DECIMAL_COMMA_RE.sub(".", _THOUSANDS_RE.sub(r"\1\2", norm))
    out: list[str] = []
    for match in _TOKEN_RE.finditer(norm):
        word = match.group(0)
        if word in CLAUSE_PUNCT or word in LIST_PUNCT:
            out.append(word)
        elif word[0] in "-−":
            out.append("-" + word[1:])
        else:
            out.extend(tokens(word))
            if _ends_a_sentence(norm, match):
                out.append(FULL_STOP)
    return out


def _ends_a_sentence(norm: str, match: re.Match[str]) -> bool:
    """ "turn off the tv. turn on the light": a full stop after a word and before a space (or
    the end) ends a sentence, as "。" does; one inside a word or a number ("21.5") does not."""
    word, end = match.group(0), match.end()
    return len(word) > 1 and word.endswith(FULL_STOP) and (end == len(norm) or norm[end].isspace())


@dataclass(slots=True)
class Span:
    """A stretch of tokens [start, end) with every reading it has."""

    start: int
    end: int
    text: str
    refs: list[Ref] = field(default_factory=list)
    lex: list[tuple[str, str]] = field(default_factory=list)
    exact: bool = True
    corrected: bool = False
    numeric: bool = False
    punct: str | None = None
    inflected: bool = False  # said in an inflected form ("curtains"), i.e. plural

    @property
    def length(self) -> int:
        return self.end - self.start

    def has(self, kind: str) -> bool:
        # A plain loop: asked some hundred times per utterance, where a generator costs more
        # than the look itself.
        for k, _ in self.lex:  # noqa: SIM110
            if k == kind:
                return True
        return False

    @property
    def leaves_out(self) -> bool:
        """A word of exclusion said as such (not a name that holds one)."""
        return not self.refs and any(self.has(k) for k in EXCLUSION_KINDS)

    @property
    def says_what(self) -> bool:
        """A stretch that says what to act on: a name, a type word or a label (a room alone
        is where, not what)."""
        return bool(
            self.home("entity")
            or self.home("label")
            or (self.has("type") and not self.home("area"))
        )

    @property
    def says_where(self) -> bool:
        """A stretch that names a room or a floor of the home."""
        return bool(self.home("area") or self.home("floor"))

    def values(self, kind: str) -> list[str]:
        return [v for k, v in self.lex if k == kind]

    def home(self, kind: str) -> list[Ref]:
        return [r for r in self.refs if r.kind == kind]

    @property
    def is_residual(self) -> bool:
        return not self.refs and not self.lex and not self.numeric and self.punct is None

    @property
    def only_filler(self) -> bool:
        return (
            not self.refs
            and bool(self.lex)
            and all(
                k
                in (
                    "filler",
                    "determiner",
                    "value",
                    "number",
                    "area_prep",
                    "target_prep",
                    "request",
                    "negation",
                    "percent",
                )
                for k, _ in self.lex
            )
        )

    def weight(self) -> float:
        if self.is_residual:
            return 0.0
        best = max(
            [
                _HOME_PRIORITY.get(r.kind, 0.0) if r.source not in _GENERIC_SOURCES else 4.0
                for r in self.refs
            ]
            + [_LEX_PRIORITY.get(k, 1.0) for k, _ in self.lex]
            + [0.5]
        )
        # Longer stretches explain more of the utterance; the priority only breaks ties.
        return self.length * self.length * 10.0 + best - (0.5 if self.corrected else 0.0)


@dataclass(slots=True)
class Analysis:
    """The chosen reading of a whole utterance."""

    text: str
    norm: str
    language: str
    tokens: list[str]
    spans: list[Span]
    corrections: list[tuple[str, str]] = field(default_factory=list)
    truncated: bool = False


def join_tokens(window: list[str]) -> str:
    out = ""
    for tok in window:
        if out and not (is_cjk(tok[0]) or is_cjk(out[-1])):
            out += " "
        out += tok
    return out


def covered_positions(spans: list[Span], n: int) -> list[bool]:
    covered = [False] * n
    for s in spans:
        if not s.is_residual:
            for i in range(s.start, s.end):
                covered[i] = True
    return covered
