"""Compound and run-together words: "schlafzimmerlicht" is "schlafzimmer" "licht", "bath
room" said as "bathroom" or the other way round, each part a word of the home or the language
(a part may be a slip of one, repaired as `repair` repairs a word)."""

from __future__ import annotations

from collections.abc import Iterator

from ..index import DeviceIndex
from ..lexicon import Lexicon
from ..phrase_table import PhraseTable
from ..text import has_cjk
from .repair import MIN_SLIPPED_PART, is_content_word, slip_repair
from .vocabulary import surfaces

_LINKS = ("", "s", "n", "es", "en")  # linking letters between the parts of a compound
_MIN_PART = 3


def split_compounds(
    toks: list[str],
    index: DeviceIndex,
    lex: Lexicon,
    repaired: list[tuple[str, str]] | None = None,
) -> list[str]:
    """ "schlafzimmerlicht" → "schlafzimmer" "licht", "slaapkamerkleurtemperatuur" →
    "slaapkamer" "kleurtemperatuur": a word nothing knows whole is cut into parts that are
    each a word of the home or the language (linking -s-/-n-/-en- allowed), longest first
    part first, at most three parts.

    When no such cut exists and the word is no slip of a whole word, one part may be a slip
    of a word ("wohnzimmrtemperatur" → "wohnzimmer" "temperatur"): the other part must be
    known as said, both are at least five letters, and the slipped one is repaired as
    `repair_latin` repairs a word, into a word of the home. Each such repair is added to
    `repaired` as (word said, parts)."""
    cutter = _CompoundCutter(index, lex)
    out: list[str] = []
    for tok in toks:
        key = lex.key(tok)
        if len(tok) < 7 or has_cjk(tok) or lex.lookup((key,)) or cutter.table.get((key,)):
            out.append(tok)
            continue
        parts = cutter.split(tok, 3)
        # A slip of a whole word of the home ("Schlafzimmerlamqe", a lamp's name) is repaired
        # whole later; only a word that is no such slip is cut around one.
        if parts is None and key not in cutter.vocab and cutter.slip_of(tok) is None:
            parts = cutter.split_with_slip(tok)
            if parts is not None and repaired is not None:
                repaired.append((tok, " ".join(parts)))
        if parts is not None and _kind_only_describes(parts, lex, cutter.table):
            parts = None
        out.extend(parts or [tok])
    return out


class _CompoundCutter:
    """How one home and language cut a compound word (`split_compounds`)."""

    def __init__(self, index: DeviceIndex, lex: Lexicon) -> None:
        self.index, self.lex = index, lex
        self.vocab = index.token_words(lex)
        self.table = index.table(lex)

    def known(self, part: str) -> bool:
        key = self.lex.key(part)
        return key in self.vocab or bool(self.table.get((key,))) or is_content_word(self.lex, key)

    def slip_of(self, part: str) -> str | None:
        if len(part) < MIN_SLIPPED_PART:
            return None
        return slip_repair(part, self.lex.key(part), self.index, self.lex)

    def home_slip_of(self, part: str) -> str | None:
        # A compound cut around a slip only into a word of the home, which is what typos
        # hit: "eingeschaltet" is no "einige" + "schaltet".
        fixed = self.slip_of(part)
        lex = self.lex
        if fixed is None or not surfaces(self.index, lex).get(lex.key(fixed), ("", False))[1]:
            return None
        return fixed

    @staticmethod
    def cuts(word: str) -> Iterator[tuple[str, str]]:
        """(first part without its linking letters, the rest), longest first part first."""
        for cut in range(len(word) - _MIN_PART, _MIN_PART - 1, -1):
            head, tail = word[:cut], word[cut:]
            for link in _LINKS:
                if link and not head.endswith(link):
                    continue
                left = head[: len(head) - len(link)] if link else head
                if len(left) >= _MIN_PART:
                    yield left, tail

    def split(self, word: str, parts_left: int) -> list[str] | None:
        for left, tail in self.cuts(word):
            if not self.known(left):
                continue
            if self.known(tail):
                return [left, tail]
            if parts_left > 2 and len(tail) >= 2 * _MIN_PART:
                rest = self.split(tail, parts_left - 1)
                if rest:
                    return [left, *rest]
        return None

    def split_with_slip(self, word: str) -> list[str] | None:
        for left, tail in self.cuts(word):
            if min(len(left), len(tail)) < MIN_SLIPPED_PART:
                continue
            left_known, tail_known = self.known(left), self.known(tail)
            if tail_known and not left_known:
                fixed = self.home_slip_of(left)
                if fixed is not None:
                    return [fixed, tail]
            elif left_known and not tail_known:
                fixed = self.home_slip_of(tail)
                if fixed is not None:
                    return [left, fixed]
        return None


_MIN_RUN_PART = 3


def split_run_together(
    toks: list[str],
    index: DeviceIndex,
    lex: Lexicon,
    repaired: list[tuple[str, str]] | None = None,
) -> list[str]:
    """ "livingroom", "ceilinglight": a word nothing knows that is two words of one name of
    the home written together is those two words (speech-to-text and typing both do it)."""
    table = index.table(lex)
    out: list[str] = []
    for tok in toks:
        if has_cjk(tok) or len(tok) < 2 * _MIN_RUN_PART or table.get((lex.key(tok),)):
            out.append(tok)
            continue
        if lex.phrases.get((lex.key(tok),)):
            out.append(tok)
            continue
        parts = next(
            (
                (tok[:i], tok[i:])
                for i in range(_MIN_RUN_PART, len(tok) - _MIN_RUN_PART + 1)
                if table.get((lex.key(tok[:i]), lex.key(tok[i:])))
            ),
            None,
        )
        if parts is None:
            out.append(tok)
            continue
        out.extend(parts)
        if repaired is not None:
            repaired.append((tok, " ".join(parts)))
    return out


def _kind_only_describes(parts: list[str], lex: Lexicon, table: PhraseTable) -> bool:
    """Whether a device kind is only the first part of a compound whose last part, which says
    what the whole is, is no device: a "Fernsehsendung" is a show, not a television, and
    left whole it adds no device type to the command."""

    def type_word(part: str) -> bool:
        return any(kind == "type" for kind, _ in lex.lookup((lex.key(part),)))

    # The last part is a device when it is a type word or a name of the home.
    head = parts[-1]
    if type_word(head) or table.get((lex.key(head),)):
        return False
    return any(type_word(part) for part in parts[:-1])
