"""Which of an entity's names (or an area's) to say in a reply: the one in the listener's
language. A home named in Chinese with English aliases answers an English question with
"ceiling light in the living room", not "客厅的吸顶灯".

A name's language is told from data, never per language in code: its script against the
lexicon's, then whether the lexicon knows its words.
"""

from __future__ import annotations

from collections.abc import Sequence

from .lexicon import Lexicon
from .text import normalize, script_of, tokens


def _fit(text: str, lex: Lexicon) -> int:
    """2: the language's script and a word it knows; 1: its script only; 0: another."""
    norm = normalize(text)
    script = script_of(norm)
    if script == "none":  # digits and signs read in any language
        return 1
    if script != lex.script:
        return 0
    return 2 if any(t in lex.detect_words for t in tokens(norm)) else 1


def spoken_name(name: str, aliases: Sequence[str], lex: Lexicon) -> str:
    """The name to say to someone speaking `lex`'s language: the name itself when it is
    written in the language's script ("主卧" stays "主卧" though "主卧室" is a word the
    lexicon knows), else the alias that fits the language best (its script and a word it
    knows; the first of equals), else the name."""
    if not name or _fit(name, lex):
        return name
    best, best_fit = name, 0
    for alias in aliases:
        fit = _fit(alias, lex) if alias else 0
        if fit > best_fit:
            best, best_fit = alias, fit
            if fit == 2:
                break
    return best
