"""What the home makes of a rule's words: the `Lens` the reader (`reading`) asks.

A stretch of words ("lights in the kitchen", "餐厅的灯") is cut into the fewest tags the home
knows — labels, rooms, floors, device types, domains, device classes — skipping the words a
rule says without naming anything (articles, prepositions, "all", "labelled", "的"). Words
nothing in the home goes by stay together as one unresolved tag, so the preview can show it
and publishing refuses it. A tag's dimension says what it tells: where (a room or floor),
what kind of device, or which label.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base.lexicon import Lexicon
from ..base.text import normalize, tokens
from .model import NAMESPACES
from .universe import TagUniverse, join_words

# Kinds of lexicon words that say nothing a rule can select by.
_SKIPPABLE = frozenset(
    {"filler", "determiner", "area_prep", "target_prep", "generic", "quant_all", "everywhere"}
)
_DIMENSIONS = {
    "label": "label",
    "area": "where",
    "floor": "where",
    "type": "kind",
    "domain": "kind",
    "device_class": "kind",
}
_NAMES = frozenset({"label", "area", "floor"})
_PREFIXES = frozenset({*NAMESPACES, "device class", "state"})
_LONGEST_PIECE = 8  # tokens: the longest name a piece is tried as
_Best = tuple[tuple[int, int], list[tuple[str, str]]]  # pieces: (text, name|state|unknown)


@dataclass(frozen=True, slots=True)
class HomeLens:
    """The reader's view of one home, in the language the rule is read in."""

    universe: TagUniverse
    lexicon: Lexicon

    def atoms(self, text: str) -> list[str]:
        toks = list(tokens(normalize(text)))
        if not toks:
            return []
        prefix = text.partition(":")[0].strip().lower() if ":" in text else ""
        if len(toks) > 60 or prefix in _PREFIXES or self.universe.resolve(text) is not None:
            return [text]  # a namespaced tag ("area:kitchen", "state:on") is one tag
        # best[i]: (unresolved tokens, pieces) and the pieces covering toks[:i]; a piece is
        # (text, resolved).
        best: list[_Best | None] = [None] * (len(toks) + 1)
        best[0] = ((0, 0), [])
        for i in range(len(toks)):
            here = best[i]
            if here is None:
                continue
            (missing, count), pieces = here
            for j in range(i + 1, min(len(toks), i + _LONGEST_PIECE) + 1):
                piece = join_words(toks[i:j])
                found = self.universe.resolve(piece)
                if found is None and (stem := self.universe.by_stem(self.lexicon, piece)):
                    found, piece = self.universe.resolve(stem), stem
                state = self._state(piece) if found is None else None
                if state is not None:
                    # A state ("lights that are on", "开着的灯") is no tag: a view groups what
                    # devices are, not what they are doing now. Kept, so it is refused.
                    _offer(best, j, ((missing, count + 1), [*pieces, (state, "state")]))
                # The home's own names win over a word the language would skip ("Evening"),
                # and so does a state closing the stretch ("on" of "that are on").
                skip = found is None or found.kind not in _NAMES
                if self._skippable(piece) and skip and not (state and j == len(toks)):
                    _offer(best, j, ((missing, count), pieces))
                if found is not None:
                    _offer(best, j, ((missing, count + 1), [*pieces, (piece, "name")]))
            _offer(best, i + 1, ((missing + 1, count + 1), [*pieces, (toks[i], "unknown")]))
        final = best[len(toks)]
        assert final is not None
        out: list[str] = []
        unresolved: list[str] = []
        for piece, kind in final[1]:
            if kind == "unknown":
                unresolved.append(piece)
                continue
            if unresolved:
                out.append(join_words(unresolved))
                unresolved = []
            out.append(piece)
        if unresolved:
            out.append(join_words(unresolved))
        return out

    def _state(self, piece: str) -> str | None:
        """`state:<state>` when the words say a state ("on", "open", "开着"), else None."""
        lex = self.lexicon
        for state, said in lex.state_words.items():
            if normalize(said) == piece:
                return f"state:{state}"
        if any(kind == "state" for kind, _ in lex.lookup(lex.keys(piece))):
            return f"state:{piece}"
        return None

    def _skippable(self, piece: str) -> bool:
        lex = self.lexicon
        if piece in lex.rule_fillers:
            return True
        return any(kind in _SKIPPABLE for kind, _ in lex.lookup(lex.keys(piece)))

    def dimension(self, tag: str) -> str | None:
        found = self.universe.resolve(tag)
        return None if found is None else _DIMENSIONS.get(found.kind)

    def compound(self, tags: list[str]) -> str:
        return join_words(tags)

    def apart(self, places: list[str]) -> bool:
        sets = [found.members for p in places if (found := self.universe.resolve(p))]
        if len(sets) != len(places) or not all(sets):
            return False
        return all(a.isdisjoint(b) for i, a in enumerate(sets) for b in sets[i + 1 :])

    def head(self, tag: str) -> str | None:
        words = list(tokens(normalize(tag)))
        for start in range(1, len(words)):
            noun = join_words(words[start:])
            found = self.universe.resolve(noun)
            if found is not None and found.kind == "type":
                return noun
        return None

    def measures(self, tag: str) -> bool:
        found = self.universe.resolve(tag)
        readings = self.universe.lexicons.types.asked_alone
        return found is not None and found.kind == "type" and set(found.targets) <= readings


def _offer(best: list[_Best | None], j: int, candidate: _Best) -> None:
    current = best[j]
    if current is None or candidate[0] < current[0]:
        best[j] = candidate
