"""Reading a pattern: the syntax `re` has, less what cannot run in linear time, into a tree
of nodes the machine compiles (see the package's docstring for what is supported)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_REPEAT = 1_000  # the largest {m,n} bound

# Assertions: where a match may be without reading a character.
BOL, EOL, BOS, EOS, EOS_NL, WORD_B, NOT_WORD_B, EDGE = range(8)

ESCAPES = {"a": "\a", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\"}
_FLAGS = {"i", "m", "s", "u"}


class PatternError(ValueError):
    """The pattern is not a valid regular expression."""


class UnsupportedPattern(PatternError):
    """The pattern uses something that cannot be matched in linear time."""


class PatternTooComplex(PatternError):
    """The pattern would compile into too long a program."""


def is_word(ch: str) -> bool:
    """Python's `\\w` for text: a letter or digit of any script, or `_`."""
    return ch.isalnum() or ch == "_"


_CATEGORIES: dict[str, Callable[[str], bool]] = {
    "d": str.isdecimal,
    "w": is_word,
    "s": str.isspace,
}


@dataclass(frozen=True)
class CharClass:
    """A set of characters: single ones, ranges (inclusive code points) and categories."""

    chars: frozenset[str]
    ranges: tuple[tuple[int, int], ...] = ()
    categories: tuple[tuple[Callable[[str], bool], bool], ...] = ()  # (test, negated)
    negated: bool = False
    fold: bool = False  # ignore case

    def _plain(self, ch: str) -> bool:
        if ch in self.chars:
            return True
        code = ord(ch)
        for lo, hi in self.ranges:
            if lo <= code <= hi:
                return True
        return any(test(ch) != negated for test, negated in self.categories)

    def matches(self, ch: str) -> bool:
        found = self._plain(ch)
        if not found and self.fold:
            found = any(self._plain(v) for v in case_variants(ch))
        return found != self.negated


def case_variants(ch: str) -> set[str]:
    """The single characters `ch` matches when case is ignored (itself included)."""
    out = {ch}
    for variant in (ch.lower(), ch.upper(), ch.casefold()):
        if len(variant) == 1:
            out.add(variant)
    return out


# Nodes: ("lit", str, fold) ("class", CharClass) ("any", dotall) ("assert", kind)
# ("group", index | None, node) ("cat", [nodes]) ("alt", [nodes]) ("rep", node, lo, hi, greedy)
type Node = tuple[Any, ...]


@dataclass
class _Flags:
    ignore_case: bool = False
    multiline: bool = False
    dotall: bool = False


class Parser:
    def __init__(self, pattern: str, ignore_case: bool) -> None:
        self.p = pattern
        self.i = 0
        self.groups = 0
        self.names: dict[str, int] = {}
        self.flags = _Flags(ignore_case=ignore_case)

    def fail(self, message: str) -> PatternError:
        return PatternError(f"{message} at position {self.i}")

    def peek(self) -> str:
        return self.p[self.i] if self.i < len(self.p) else ""

    def parse(self) -> Node:
        self._global_flags()
        node = self._alternation()
        if self.i < len(self.p):
            raise self.fail("unbalanced parenthesis")
        return node

    def _global_flags(self) -> None:
        while self.p.startswith("(?", self.i):
            end = self.i + 2
            while end < len(self.p) and self.p[end].isalpha():
                end += 1
            if end == self.i + 2 or end >= len(self.p) or self.p[end] != ")":
                return
            self._apply_flags(self.p[self.i + 2 : end], self.flags, True)
            self.i = end + 1

    def _apply_flags(self, letters: str, flags: _Flags, value: bool) -> None:
        for letter in letters:
            if letter not in _FLAGS:
                raise UnsupportedPattern(f"flag {letter!r} is not supported")
            if letter == "i":
                flags.ignore_case = value
            elif letter == "m":
                flags.multiline = value
            elif letter == "s":
                flags.dotall = value

    def _alternation(self) -> Node:
        branches = [self._sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self._sequence())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def _sequence(self) -> Node:
        items: list[Node] = []
        while self.i < len(self.p) and self.p[self.i] not in "|)":
            atom = self._atom()
            if atom is None:
                continue
            items.append(self._quantified(atom))
        return items[0] if len(items) == 1 else ("cat", items)

    def _quantified(self, atom: Node) -> Node:
        bounds = self._bounds()
        if bounds is None:
            return atom
        if atom[0] == "assert":
            raise self.fail("nothing to repeat")
        lo, hi = bounds
        greedy = True
        if self.peek() == "?":
            greedy = False
            self.i += 1
        elif self.peek() == "+":
            raise UnsupportedPattern("possessive quantifiers are not supported")
        if self._bounds(peek_only=True) is not None:
            raise self.fail("multiple repeat")
        return ("rep", atom, lo, hi, greedy)

    def _bounds(self, peek_only: bool = False) -> tuple[int, int | None] | None:
        c = self.peek()
        if c in ("*", "+", "?"):
            if not peek_only:
                self.i += 1
            return {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
        if c != "{":
            return None
        close = self.p.find("}", self.i)
        body = self.p[self.i + 1 : close] if close > 0 else ""
        lo_text, comma, hi_text = body.partition(",")
        if close < 0 or not (_digits(lo_text) or (comma and not lo_text)):
            return None  # a literal "{"
        if hi_text and not _digits(hi_text):
            return None
        lo = int(lo_text) if lo_text else 0
        hi: int | None = int(hi_text) if hi_text else (None if comma else lo)
        if not peek_only:
            if max(lo, hi or 0) > MAX_REPEAT:
                raise PatternTooComplex(f"a repeat bound above {MAX_REPEAT}")
            if hi is not None and hi < lo:
                raise self.fail("min repeat greater than max repeat")
            self.i = close + 1
        return lo, hi

    def _atom(self) -> Node | None:
        c = self.p[self.i]
        self.i += 1
        flags = self.flags
        if c == "(":
            return self._group()
        if c == "[":
            return ("class", self._class())
        if c == ".":
            return ("any", flags.dotall)
        if c == "^":
            return ("assert", BOL if flags.multiline else BOS)
        if c == "$":
            return ("assert", EOL if flags.multiline else EOS_NL)
        if c in "*+?" or (c == "{" and self._bounds_at(self.i - 1)):
            self.i -= 1
            raise self.fail("nothing to repeat")
        if c == "\\":
            return self._escape()
        return ("lit", c, flags.ignore_case)

    def _bounds_at(self, position: int) -> bool:
        saved = self.i
        self.i = position
        try:
            return self._bounds(peek_only=True) is not None
        finally:
            self.i = saved

    def _group(self) -> Node | None:
        p = self.p
        index: int | None = None
        saved = _Flags(**vars(self.flags))
        if p.startswith("?", self.i):
            self.i += 1
            c = self.peek()
            if c == ":":
                self.i += 1
            elif c == "#":
                close = p.find(")", self.i)
                if close < 0:
                    raise self.fail("missing ), unterminated comment")
                self.i = close + 1
                return None
            elif p.startswith("P<", self.i):
                close = p.find(">", self.i)
                name = p[self.i + 2 : close] if close > 0 else ""
                if not name.isidentifier():
                    raise self.fail(f"bad character in group name {name!r}")
                if name in self.names:
                    raise self.fail(f"redefinition of group name {name!r}")
                self.i = close + 1
                self.groups += 1
                index = self.groups
                self.names[name] = index
            elif c in "=!<>(" or p.startswith("P=", self.i):
                raise UnsupportedPattern(
                    "look-arounds, back-references, conditionals and atomic groups are "
                    "not supported"
                )
            else:
                self._scoped_flags()
        else:
            self.groups += 1
            index = self.groups
        node = self._alternation()
        if self.peek() != ")":
            raise self.fail("missing ), unterminated subpattern")
        self.i += 1
        self.flags = saved
        return ("group", index, node)

    def _scoped_flags(self) -> None:
        """`(?i:…)`, `(?-i:…)`, `(?i-s:…)`: flags for the group only."""
        end = self.i
        while end < len(self.p) and (self.p[end].isalpha() or self.p[end] == "-"):
            end += 1
        if end >= len(self.p) or self.p[end] != ":":
            raise self.fail("unknown extension or global flags not at the start")
        on, _, off = self.p[self.i : end].partition("-")
        self._apply_flags(on, self.flags, True)
        self._apply_flags(off, self.flags, False)
        self.i = end + 1

    def _escape(self) -> Node:
        if self.i >= len(self.p):
            raise self.fail("bad escape (end of pattern)")
        c = self.p[self.i]
        self.i += 1
        if c in "123456789":
            raise UnsupportedPattern("back-references are not supported")
        assertion = {"A": BOS, "Z": EOS, "b": WORD_B, "B": NOT_WORD_B}.get(c)
        if assertion is not None:
            return ("assert", assertion)
        if c.lower() in _CATEGORIES:
            fold = self.flags.ignore_case
            test = _CATEGORIES[c.lower()]
            return ("class", CharClass(frozenset(), categories=((test, c.isupper()),), fold=fold))
        return ("lit", self._escaped_char(c), self.flags.ignore_case)

    def _escaped_char(self, c: str) -> str:
        """The character an escape (other than a class or an assertion) stands for."""
        if c in ESCAPES:
            return ESCAPES[c]
        if c in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[c]
            digits = self.p[self.i : self.i + width]
            if len(digits) != width or not all(d in "0123456789abcdefABCDEF" for d in digits):
                raise self.fail(f"incomplete escape \\{c}{digits}")
            self.i += width
            code = int(digits, 16)
            if code > 0x10FFFF:
                raise self.fail(f"bad escape \\{c}{digits}")
            return chr(code)
        if c == "N":
            close = self.p.find("}", self.i)
            if not self.p.startswith("{", self.i) or close < 0:
                raise self.fail("missing {")
            try:
                char = unicodedata.lookup(self.p[self.i + 1 : close])
            except KeyError as err:
                raise self.fail("undefined character name") from err
            self.i = close + 1
            return char
        if c == "0":
            digits = c
            while len(digits) < 3 and self.peek() in tuple("01234567"):
                digits += self.p[self.i]
                self.i += 1
            return chr(int(digits, 8))
        if c.isascii() and c.isalnum():
            raise self.fail(f"bad escape \\{c}")
        return c

    def _class(self) -> CharClass:
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        chars: set[str] = set()
        ranges: list[tuple[int, int]] = []
        categories: list[tuple[Callable[[str], bool], bool]] = []
        first = True
        while True:
            if self.i >= len(self.p):
                raise self.fail("unterminated character set")
            c = self.p[self.i]
            if c == "]" and not first:
                self.i += 1
                break
            first = False
            self.i += 1
            if c == "\\":
                item = self._class_escape()
                if not isinstance(item, str):
                    categories.append(item)
                    continue
                c = item
            if self.peek() == "-" and self.p[self.i + 1 : self.i + 2] not in ("]", ""):
                self.i += 1
                end = self.p[self.i]
                self.i += 1
                if end == "\\":
                    escaped = self._class_escape()
                    if not isinstance(escaped, str):
                        raise self.fail("bad character range")
                    end = escaped
                if ord(end) < ord(c):
                    raise self.fail(f"bad character range {c}-{end}")
                ranges.append((ord(c), ord(end)))
            else:
                chars.add(c)
        return CharClass(
            frozenset(chars),
            tuple(ranges),
            tuple(categories),
            negated=negated,
            fold=self.flags.ignore_case,
        )

    def _class_escape(self) -> str | tuple[Callable[[str], bool], bool]:
        if self.i >= len(self.p):
            raise self.fail("unterminated character set")
        c = self.p[self.i]
        self.i += 1
        if c.lower() in _CATEGORIES:
            return (_CATEGORIES[c.lower()], c.isupper())
        if c == "b":
            return "\b"
        if c in "123456789":
            raise UnsupportedPattern("back-references are not supported")
        return self._escaped_char(c)


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()
