"""The replacement of a substitution: literal text and group references, read as `re` reads
them (`\\1`, `\\g<name>`, `\\g<0>`, `\\n`, octal escapes; other ASCII letters escaped are
errors, other escapes stay as written)."""

from __future__ import annotations

from dataclasses import dataclass

from .syntax import ESCAPES, PatternError

TEMPLATE_ESCAPES = {**ESCAPES, "b": "\b"}


@dataclass(frozen=True)
class Template:
    """A replacement: literal text and group numbers, as `re`'s `Match.expand` reads it."""

    pieces: tuple[str | int, ...]

    @classmethod
    def parse(cls, text: str, groups: int, names: dict[str, int]) -> Template:
        pieces: list[str | int] = []
        literal: list[str] = []
        i = 0
        while i < len(text):
            c = text[i]
            if c != "\\":
                literal.append(c)
                i += 1
                continue
            if i + 1 >= len(text):
                raise PatternError("bad escape (end of replacement)")
            nxt = text[i + 1]
            ref: int | None = None
            if nxt == "g":
                close = text.find(">", i)
                if not text.startswith("<", i + 2) or close < 0:
                    raise PatternError("missing group name in \\g<…>")
                name = text[i + 3 : close]
                ref = int(name) if name.isdecimal() and name.isascii() else names.get(name)
                if ref is None or ref > groups:
                    raise PatternError(f"unknown group {name!r}")
                i = close + 1
            elif nxt == "0" or (
                nxt in "1234567" and text[i + 2 : i + 4].isdigit() and _octal(text[i + 1 : i + 4])
            ):
                digits = nxt
                i += 2
                while len(digits) < 3 and i < len(text) and text[i] in "01234567":
                    digits += text[i]
                    i += 1
                literal.append(chr(int(digits, 8)))
                continue
            elif nxt in "123456789":
                digits = nxt
                if text[i + 2 : i + 3].isdigit() and text[i + 2 : i + 3].isascii():
                    digits += text[i + 2]
                ref = int(digits)
                if ref > groups:
                    raise PatternError(f"invalid group reference {ref}")
                i += 1 + len(digits)
            elif nxt in TEMPLATE_ESCAPES:
                literal.append(TEMPLATE_ESCAPES[nxt])
                i += 2
                continue
            elif nxt.isascii() and nxt.isalpha():
                raise PatternError(f"bad escape \\{nxt}")
            else:
                literal.append(c + nxt)  # as `re` does: an unknown escape stays as written
                i += 2
                continue
            if literal:
                pieces.append("".join(literal))
                literal = []
            pieces.append(ref)
        if literal:
            pieces.append("".join(literal))
        return cls(tuple(pieces))


def _octal(digits: str) -> bool:
    return len(digits) == 3 and all(d in "01234567" for d in digits)
