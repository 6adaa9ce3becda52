"""How a name of the home is said back to the user: in the language they speak.

A home's names and aliases are written in whatever languages its owner uses ("吸顶灯" with the
alias "ceiling light"). An answer in English names the ceiling light by its English alias and
its room by the room's English alias; a Chinese answer keeps "吸顶灯". The language of a name
is told by its script and, among names of the same script, by the lexicons' own detection:
data, never a list of languages in code. Names are cleaned as every name that reaches output.
"""

from __future__ import annotations

from collections.abc import Sequence

from .lexicon import Lexicon, LexiconSet
from .redact import clean
from .text import script_of

NAME_CHARS = 60


def said_name(
    names: Sequence[str],
    lex: Lexicon,
    lexicons: LexiconSet | None = None,
    limit: int = NAME_CHARS,
) -> str:
    """Of a thing's `names` (its own name first, then its aliases), the one to say in `lex`'s
    language: its own name when it is written in that language's script, else the first
    alias that is, preferring one the lexicons detect as that language; else its own name."""
    written = [n for n in names if n and n.strip()]
    if not written:
        return ""
    same_script = [n for n in written if script_of(n) == lex.script]
    if not same_script:
        return clean(written[0], limit)
    if same_script[0] == written[0] or lexicons is None or len(same_script) == 1:
        return clean(same_script[0], limit)
    for name in same_script:
        if lexicons.detect(name, fallback=None) == lex.language:
            return clean(name, limit)
    return clean(same_script[0], limit)
