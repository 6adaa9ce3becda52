"""Finding what a rename replaces: the find text compiled into a `Finder` (literal or a linear
regex), whole words decided as the package's docstring says."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..base.safe_regex import (
    Budget,
    PatternError,
    PatternTooComplex,
    SafePattern,
    Template,
    UnsupportedPattern,
)
from ..base.text import cuts_a_word, has_hidden_characters
from .model import MAX_FIND_LEN, MAX_REPLACE_LEN, RenameError, RenameSpec

# What one preview's regular expression may cost: steps of the linear matcher (about a
# microsecond each) and seconds, whichever runs out first.
REGEX_STEPS = 3_000_000
REGEX_SECONDS = 3.0

# CJK ideographs (incl. extensions and compatibility) and Japanese kana: each one is its own word.
_CJK = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\U00020000-\U0002fa1f\U00030000-\U0003134f"
)
_WORD_NOT_CJK = f"[^\\W{_CJK}]"
_WORD_NOT_CJK_RE = re.compile(_WORD_NOT_CJK)
# Not (non-CJK word char before AND non-CJK word char after) the current position.
_BOUNDARY = f"(?:(?<!{_WORD_NOT_CJK})|(?!{_WORD_NOT_CJK}))"


def _non_cjk_word(ch: str) -> bool:
    return _WORD_NOT_CJK_RE.match(ch) is not None


@dataclass(frozen=True)
class Finder:
    """A compiled find: the literal's `re` pattern, or the regex's linear pattern and its
    parsed replacement."""

    literal: re.Pattern[str] | None = None
    regex: SafePattern | None = None
    template: Template | None = None
    words: tuple[str, ...] = ()  # a whole-word match never cuts through one of these

    def finditer(self, text: str, budget: Budget) -> Iterator[tuple[int, int, str | None]]:
        """(start, end, expanded replacement or None for a literal one) of every match."""
        for start, end, expanded in self._found(text, budget):
            if not (self.words and _splits_a_word(text, start, end, self.words)):
                yield start, end, expanded

    def _found(self, text: str, budget: Budget) -> Iterator[tuple[int, int, str | None]]:
        if self.literal is not None:
            for m in self.literal.finditer(text):
                yield m.start(), m.end(), None
            return
        assert self.regex is not None and self.template is not None
        for found in self.regex.finditer(text, budget):
            yield found.start(), found.end(), found.expand(self.template)


def _splits_a_word(text: str, start: int, end: int, words: Sequence[str]) -> bool:
    """Whether [start, end) cuts through one of `words` or lies inside one without being one
    ("台" in 阳台灯 would rename the balcony; 主卧 in 主卧室 is a room word of its own)."""
    if cuts_a_word(text, start, end, words):
        return True
    if text[start:end] in words:
        return False
    for word in words:
        at = text.find(word, max(0, end - len(word)))
        if 0 <= at <= start and end <= at + len(word):
            return True
    return False


def _check_lengths(spec: RenameSpec) -> None:
    if not spec.find:
        raise RenameError("empty_find")
    if len(spec.find) > MAX_FIND_LEN:
        raise RenameError("find_too_long")
    if len(spec.replace) > MAX_REPLACE_LEN:
        raise RenameError("replace_too_long")
    if has_hidden_characters(spec.replace):
        # A name is read aloud and put into prompts: a rename must not plant line breaks,
        # bidi overrides or zero-width characters in it.
        raise RenameError("hidden_characters")


def compile_spec(spec: RenameSpec, words: Iterable[str] = ()) -> Finder:
    """Validate ``spec`` and compile its find; raises :class:`RenameError`. ``words``: the
    home's words a whole-word match must not cut through (room names written in CJK)."""
    _check_lengths(spec)
    kept = tuple(unicodedata.normalize("NFC", w) for w in words if w) if spec.whole_word else ()
    find = unicodedata.normalize("NFC", spec.find)
    if spec.regex:
        try:
            pattern = SafePattern(
                find,
                ignore_case=not spec.match_case,
                edge_word=_non_cjk_word if spec.whole_word else None,
            )
        except UnsupportedPattern as err:
            raise RenameError("unsafe_regex") from err
        except PatternTooComplex as err:
            raise RenameError("regex_too_complex") from err
        except (PatternError, RecursionError, OverflowError) as err:
            raise RenameError("bad_regex") from err
        try:
            template = pattern.template(spec.replace)
        except PatternError as err:
            raise RenameError("bad_replacement") from err
        return Finder(regex=pattern, template=template, words=kept)
    body = re.escape(find)
    if spec.whole_word:
        body = f"{_BOUNDARY}(?:{body}){_BOUNDARY}"
    return Finder(literal=re.compile(body, 0 if spec.match_case else re.IGNORECASE), words=kept)


def new_budget() -> Budget:
    """The budget of one preview's regular expression."""
    return Budget(REGEX_STEPS, REGEX_SECONDS)
