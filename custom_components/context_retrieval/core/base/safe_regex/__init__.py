"""Regular expressions whose running time is linear in the text, with a budget.

Python's `re` backtracks: `(a+)+$` takes exponential time and `.*.*.*.*#` polynomial time on
the wrong text, inside one C call that holds the interpreter (and so the event loop) until it
is done, whatever thread it runs in. Patterns that people type (bulk rename) run here instead:
the pattern is parsed and compiled into a program for a Pike VM, which simulates every
backtracking path at once and visits each (text position, instruction) pair at most once.
Time is O(text length × program length); every step is counted against a `Budget` (steps and
a deadline), so a search either finishes or raises `BudgetExceeded`. Pure Python, so a worker
thread running it hands the interpreter back every few milliseconds.

Matches are leftmost-first with Python's priorities (greedy, lazy, alternation order), so a
supported pattern finds the same match and groups as `re` does.

Supported: literals and escapes (`\\n`, `\\x41`, `\\u00e9`, `\\N{…}`, `\\.`), `.`, classes
(`[a-z]`, `[^…]`, `\\d \\w \\s \\D \\W \\S`), anchors `^ $ \\A \\Z \\b \\B`, groups `(…)`,
`(?:…)`, `(?P<name>…)`, comments `(?#…)`, alternation, `* + ? {m} {m,} {,n} {m,n}` greedy or
lazy, and the flags `i`, `m`, `s` (`(?i)` at the start, or scoped `(?i:…)`). Back-references,
look-arounds, conditionals, atomic groups and possessive quantifiers cannot be matched in
linear time: they raise `UnsupportedPattern`.
"""

from .machine import MAX_PROGRAM, Budget, BudgetExceeded, Match, SafePattern
from .syntax import MAX_REPEAT, PatternError, PatternTooComplex, UnsupportedPattern, is_word
from .template import Template

__all__ = [
    "MAX_PROGRAM",
    "MAX_REPEAT",
    "Budget",
    "BudgetExceeded",
    "Match",
    "PatternError",
    "PatternTooComplex",
    "SafePattern",
    "Template",
    "UnsupportedPattern",
    "is_word",
]
