"""Reading a stretch of words the way a person means it.

"lights in the kitchen or the dining room" is lights ∧ (kitchen ∨ dining room), not
(lights ∧ kitchen) ∨ "the dining room"; "厨房或餐厅的灯" is 灯 ∧ (厨房 ∨ 餐厅). Three habits of
speech make that so, and each is a rule here, whatever the language (its words are data):

- **Words side by side narrow each other** ("kitchen lights", "lights upstairs", "餐厅的灯"): a
  phrase is the AND of its words; several device-type words make one compound type ("motion
  sensors", "temperature sensors").
- **A list of one kind of thing is a choice.** Joined by "and", "or" or a comma, two phrases
  that both say where (a room, a floor) or both say what (a type) list alternatives: nothing is
  in two rooms at once, so "the kitchen and the dining room" means either. Phrases that say
  different things ("christmas and the porch") narrow each other as before.
- **Shared words distribute.** A phrase of a list that leaves out what another phrase of it
  says, and says nothing the other does not, shares the other's words: in "lights in the
  kitchen or the dining room" the dining room borrows "lights"; in "厨房或餐厅的灯" 厨房 borrows
  灯. A bracketed group is the writer's own grouping and neither lends nor borrows.

Exclusion ("except", "without", "not", "除了 … 以外", "厨房以外", "außer", "sauf", "excepto")
leaves out what it governs: after a phrase it governs the rest of the stretch ("lights except
the kitchen or the bedroom"); at the start it governs up to its closing word ("以外"), a
modifier's end ("不在厨房的灯": the kitchen, not the lights) or a comma.

What a word is (a room, a type, a label, nothing in this home) comes from a `Lens`; the plain
lens knows nothing, so every stretch is one tag and AND binds tighter than OR, as the formal
syntax says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from .model import GroupNode, RuleNode, RuleSyntaxError, TagNode, rule_to_json, tags_of

ItemKind = Literal["WORDS", "UNIT", "AND", "OR", "NOT", "NOT_AFTER", "OF", "SEP"]

# Dimensions whose values exclude each other: an entity is in one room, of one type.
_LISTABLE = frozenset({"where", "kind"})
_CONTENT = frozenset({"WORDS", "UNIT"})
_JOINERS = frozenset({"AND", "OR", "SEP"})
# What closes an exclusion after a phrase ("楼上不在主卧的灯"), and one at the start.
_INFIX_END = frozenset({"NOT_AFTER", "OF"})
_PREFIX_END = frozenset({"NOT_AFTER", "OF", "SEP"})


@dataclass(frozen=True, slots=True)
class Item:
    """A token of a stretch: words, a bracketed group (`node`), or a connective."""

    kind: ItemKind
    value: str
    position: int  # in the text as the user typed it
    quoted: bool = False
    node: RuleNode | None = None


class Lens(Protocol):
    """What the home makes of words."""

    def atoms(self, text: str) -> list[str]:
        """The tags a stretch of words names, in order (fillers dropped)."""

    def dimension(self, tag: str) -> str | None:
        """ "where", "kind", "label", or None for a tag nothing in the home goes by."""

    def compound(self, tags: list[str]) -> str:
        """One tag for several type words said together ("motion" + "sensors")."""

    def apart(self, places: list[str]) -> bool:
        """Whether places said side by side share no entity ("upstairs downstairs")."""

    def head(self, tag: str) -> str | None:
        """The noun closing a compound type tag ("sensors" of "humidity sensors"), if any."""

    def measures(self, tag: str) -> bool:
        """Whether a type word names what a sensor reads ("temperature", "humidity"): said
        in a list beside "… sensors", it shares their noun."""


class _PlainLens:
    def atoms(self, text: str) -> list[str]:
        return [text]

    def dimension(self, tag: str) -> str | None:
        return None

    def compound(self, tags: list[str]) -> str:  # pragma: no cover - no kinds without a home
        return " ".join(tags)

    def apart(self, places: list[str]) -> bool:
        return False

    def head(self, tag: str) -> str | None:
        return None

    def measures(self, tag: str) -> bool:
        return False


PLAIN: Lens = _PlainLens()


def read(items: list[Item], lens: Lens, end: int) -> RuleNode:
    """The rule a stretch means. `end` is where the stretch ends in the text (for errors)."""
    for index, item in enumerate(items):
        if item.kind in ("NOT", "NOT_AFTER"):
            return _exclusion(items, index, lens, end)
    marks = [i for i, item in enumerate(items) if item.kind == "OF"]
    if len(marks) == 1 and _modifies(items[: marks[0]], lens):
        # "主卧或次卧的窗帘和空调": everything before "的" qualifies everything after it.
        left, right = items[: marks[0]], items[marks[0] + 1 :]
        try:
            head = _phrases(right, lens, end)
        except _NothingNamed:  # "书房的所有设备": the head names nothing more
            return _phrases(left, lens, end)
        return GroupNode("AND", (_phrases(left, lens, end), head))
    return _phrases(items, lens, end)


def _modifies(items: list[Item], lens: Lens) -> bool:
    """Words that can qualify a noun: places and labels, no device type — also in brackets
    ("(客厅或餐厅)的灯和空调" is the lights and ACs of either room, not every AC)."""
    if not _has_content(items):
        return False
    atoms = [a for i in items if i.kind == "WORDS" for a in lens.atoms(i.value)]
    atoms += [t for i in items if i.kind == "UNIT" and i.node is not None for t in tags_of(i.node)]
    return bool(atoms) and all(lens.dimension(a) != "kind" for a in atoms)


class _NothingNamed(RuleSyntaxError):
    """A stretch of words that names nothing ("everything"): fine beside an exclusion."""


def _has_content(items: list[Item]) -> bool:
    return any(i.kind in _CONTENT for i in items)


def _exclusion(items: list[Item], k: int, lens: Lens, end: int) -> RuleNode:
    word = items[k]
    if word.kind == "NOT_AFTER":
        # "厨房和餐厅以外的灯": what precedes it, back to a comma.
        start = max((i + 1 for i in range(k) if items[i].kind == "SEP"), default=0)
        excluded, positive = items[start:k], items[:start] + items[k + 1 :]
    elif _has_content(items[:k]):
        # "lights except the kitchen or the bedroom": the rest of the stretch, or up to a
        # closing word or a modifier's end ("楼上不在主卧的灯").
        stop = next((i for i in range(k + 1, len(items)) if items[i].kind in _INFIX_END), None)
        stop = len(items) if stop is None else stop
        excluded, positive = items[k + 1 : stop], items[:k] + items[stop + 1 :]
    else:
        # "除了厨房以外的灯", "不在厨房的灯", "except the kitchen, all lights".
        stop = next((i for i in range(k + 1, len(items)) if items[i].kind in _PREFIX_END), None)
        stop = len(items) if stop is None else stop
        excluded, positive = items[k + 1 : stop], items[stop + 1 :]
    if not _has_content(excluded):
        raise RuleSyntaxError(
            "expected_tag",
            end if word.kind == "NOT" else word.position,
            f"expected what '{word.value}' leaves out",
        )
    left_out = GroupNode("NOT", (read(excluded, lens, end),))
    kept = _trim(positive)
    if not _has_content(kept):
        return left_out
    try:
        return GroupNode("AND", (read(kept, lens, end), left_out))
    except _NothingNamed:  # "everything except the lights": only words that name nothing
        return left_out


def _trim(items: list[Item]) -> list[Item]:
    """Joiners left dangling where an exclusion was cut out ("lights and | except …")."""
    lo, hi = 0, len(items)
    while lo < hi and items[lo].kind in (*_JOINERS, "OF"):
        lo += 1
    while hi > lo and items[hi - 1].kind in (*_JOINERS, "OF"):
        hi -= 1
    return items[lo:hi]


@dataclass(slots=True)
class _Phrase:
    """Words side by side: tags with their dimension, and bracketed groups."""

    tags: list[tuple[str, str | None]]
    units: list[RuleNode]

    def dims(self) -> set[str]:
        out = {d if d is not None else f"?{t}" for t, d in self.tags}
        # A bracketed group is its writer's: it makes its phrase unlike any other.
        out.update(f"({i})" for i in range(len(self.units)))
        return out


def _phrases(items: list[Item], lens: Lens, end: int) -> RuleNode:
    phrases: list[_Phrase] = []
    joiners: list[str] = []
    current = _Phrase([], [])
    pending: Item | None = None  # the joiner since the last phrase
    for item in items:
        if item.kind in _JOINERS:
            if pending is not None and pending.kind != "SEP" and item.kind != "SEP":
                raise RuleSyntaxError(
                    "expected_tag", item.position, f"expected a tag before '{item.value}'"
                )
            if current.tags or current.units:
                phrases.append(current)
                current = _Phrase([], [])
            elif not phrases:
                if item.kind == "SEP":
                    continue
                raise RuleSyntaxError(
                    "expected_tag", item.position, f"expected a tag or '(' before '{item.value}'"
                )
            if pending is None or pending.kind == "SEP":
                pending = item
            continue
        if item.kind == "OF":
            continue
        if pending is not None and (current.tags or current.units or phrases):
            if not (current.tags or current.units) and phrases:
                joiners.append(pending.kind)
            pending = None
        if item.kind == "UNIT" and item.node is not None:
            current.units.append(item.node)
        elif item.kind == "WORDS":
            atoms = [item.value] if item.quoted else lens.atoms(item.value)
            current.tags.extend((a, lens.dimension(a)) for a in atoms)
    if pending is not None and pending.kind != "SEP" and not (current.tags or current.units):
        raise RuleSyntaxError("expected_tag", end, f"expected a tag after '{pending.value}'")
    if current.tags or current.units:
        phrases.append(current)
    if not phrases:
        raise _NothingNamed("expected_tag", end, "expected a tag")
    joiners = joiners[: len(phrases) - 1]
    return _combine(phrases, _lists(joiners), lens)


def alternatives(nodes: list[RuleNode], bare: list[bool], lens: Lens) -> RuleNode:
    """Alternatives joined by a formal OR, sharing words as a spoken list does. An operand
    that is a tag or an AND of tags, with no brackets, is a phrase; any other is kept whole."""
    phrases: list[_Phrase] = []
    for node, plain in zip(nodes, bare, strict=True):
        parts = _children(node)
        if plain and all(isinstance(p, TagNode) for p in parts):
            tags = [p.tag for p in parts if isinstance(p, TagNode)]
            phrases.append(_Phrase([(t, lens.dimension(t)) for t in tags], []))
        else:
            phrases.append(_Phrase([], [node]))
    return _factor([_conjunction(p, lens) for p in _distribute(phrases)])


def _lists(joiners: list[str]) -> list[str]:
    """A comma joins as the word that closes its list does ("A, B or C"), else as "and"."""
    out = list(joiners)
    following = "AND"
    for i in range(len(out) - 1, -1, -1):
        if out[i] == "SEP":
            out[i] = following
        else:
            following = out[i]
    return out


def _combine(phrases: list[_Phrase], joiners: list[str], lens: Lens) -> RuleNode:
    # "and" between phrases that narrow each other merges them; between alternatives of one
    # kind (two rooms, two types) it lists them, as "or" does.
    groups: list[_Phrase] = [phrases[0]]
    for joiner, phrase in zip(joiners, phrases[1:], strict=True):
        last = groups[-1]
        if joiner == "AND" and not (last.dims() & phrase.dims() & _LISTABLE):
            groups[-1] = _Phrase(last.tags + phrase.tags, last.units + phrase.units)
        else:
            groups.append(phrase)
    return _factor([_conjunction(p, lens) for p in _distribute(_share_nouns(groups, lens))])


def _share_nouns(groups: list[_Phrase], lens: Lens) -> list[_Phrase]:
    """ "temperature and humidity sensors": a reading said alone in a list beside a compound
    type ("humidity sensors") shares its noun, as "temperature sensors"."""
    kinds = [[t for t, d in g.tags if d == "kind"] for g in groups]
    out: list[_Phrase] = []
    for i, group in enumerate(groups):
        alone = kinds[i]
        if len(alone) == 1 and lens.measures(alone[0]):
            for j in (i + 1, i - 1):
                if not 0 <= j < len(groups) or not kinds[j]:
                    continue
                noun = kinds[j][-1] if len(kinds[j]) > 1 else lens.head(kinds[j][0])
                if noun is not None:
                    group = _Phrase([*group.tags, (noun, "kind")], group.units)
                    break
        out.append(group)
    return out


def _factor(alternatives: list[RuleNode]) -> RuleNode:
    """What every alternative shares, said once: (lights ∧ kitchen) ∨ (lights ∧ dining room)
    is lights ∧ (kitchen ∨ dining room), as the person said it."""
    if len(alternatives) == 1:
        return alternatives[0]
    parts = [_children(a) for a in alternatives]
    common = [p for p in parts[0] if all(any(_key(p) == _key(q) for q in o) for o in parts[1:])]
    if not common:
        return GroupNode("OR", tuple(alternatives))
    shared = {_key(c) for c in common}
    rests = [[p for p in ps if _key(p) not in shared] for ps in parts]
    if any(not rest for rest in rests):  # x ∨ (x ∧ y) is x
        return common[0] if len(common) == 1 else GroupNode("AND", tuple(common))
    either = GroupNode(
        "OR", tuple(r[0] if len(r) == 1 else GroupNode("AND", tuple(r)) for r in rests)
    )
    return GroupNode("AND", (*common, either))


def _children(node: RuleNode) -> list[RuleNode]:
    return list(node.children) if isinstance(node, GroupNode) and node.op == "AND" else [node]


def _distribute(groups: list[_Phrase]) -> list[_Phrase]:
    """Each alternative borrows what a neighbour says and it leaves out, when it says nothing
    the neighbour does not (the nearest such neighbour; the later one on a tie)."""
    dims = [g.dims() for g in groups]
    out: list[_Phrase] = []
    for i, group in enumerate(groups):
        tags = list(group.tags)
        if group.tags and not group.units:
            order = sorted(range(len(groups)), key=lambda j: (abs(j - i), -j))
            for j in order:
                if j == i or not dims[i] < dims[j] or groups[j].units:
                    continue
                missing = dims[j] - dims[i]
                tags += [(t, d) for t, d in groups[j].tags if d in missing]
                break
        out.append(_Phrase(tags, group.units))
    return out


def _conjunction(phrase: _Phrase, lens: Lens) -> RuleNode:
    kinds = [t for t, d in phrase.tags if d == "kind"]
    places = [t for t, d in phrase.tags if d == "where"]
    parts: list[RuleNode] = []
    apart = len(places) > 1 and lens.apart(places)
    for tag, dim in phrase.tags:
        if dim == "where" and apart:
            # "楼上楼下的灯": places side by side that share nothing are both meant.
            if tag == places[0]:
                parts.append(GroupNode("OR", tuple(TagNode(p) for p in places)))
            continue
        if dim == "kind":
            if tag == kinds[0]:
                parts.append(TagNode(lens.compound(kinds) if len(kinds) > 1 else tag))
            continue
        parts.append(TagNode(tag))
    parts += phrase.units
    unique = list({_key(p): p for p in parts}.values())
    return unique[0] if len(unique) == 1 else GroupNode("AND", tuple(unique))


def _key(node: RuleNode) -> str:
    return rule_to_json(node)
