"""Which devices a question is about, when its status word decides it.

"Which doors are unlocked?" asks the locks and "did someone leave the front door open?" the
front door's contact sensor, though "front door" names the lock: the devices that answer a
status are the ones asked (`status_kinds.json`). A name said in part ("前门" of 前门门锁 and
前门门磁) or in the asker's language for a name the home writes in another ("Haustür" for
"front door", from the lexicon's `question_names`) is found by the words it shares, and
again the status word picks among what it finds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any
from weakref import ref

from ..base.index import DeviceIndex
from ..base.lexicon import TypeTable
from ..base.models import Device, QueryIR
from ..base.parse import Analysis
from ..base.text import normalize
from .reading import QuestionWords, contains_word, names_of
from .values import Kind, StatusKinds, StatusRule, answers, meaning

# A name said in part that fits more entities than this is a kind, not a name.
MAX_PART_MATCHES = 4
_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True, slots=True)
class PartName:
    """Words of the question that name entities in part: where they are, what they are."""

    text: str
    positions: frozenset[int]
    entity_ids: tuple[str, ...]


def kind_of(device: Device) -> Kind:
    return (device.domain, device.device_class)


def asks_all(analysis: Analysis) -> bool:
    """ "are all the doors locked?", "门都锁好了吗": every one, not any one."""
    return any(s.has("quant_all") for s in analysis.spans)


def commanded(analysis: Analysis, words: QuestionWords, stripped: str) -> bool:
    """An utterance with no question word and no question mark that carries an action
    ("everything off except the kitchen") is an order, whatever its other words say."""
    if words.kinds or stripped.endswith(("?", "？")):
        return False
    return any(
        v != "query" for s in analysis.spans for k, v in s.lex if k in ("action", "particle") and v
    )


def _bare(text: str) -> str:
    """Letters and digits only: "porte d'entrée" and "porte", "d'", "entrée" compare equal,
    and so do "Haustür" and the "haus" "tür" a compound splitter makes of it."""
    return _NOT_WORD.sub("", normalize(text))


@cache
def _glossary(items: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for home_words, said in items:
        for word in said:
            if key := _bare(word):
                out.setdefault(key, []).append(normalize(home_words))
    return {k: tuple(v) for k, v in out.items()}


def glossary(source: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """The language's words for names homes often write in another language: bare form of
    the asker's word → the name's words (`question_names` in the lexicon)."""
    raw = source.get("question_names") or {}
    if not isinstance(raw, Mapping):
        return {}
    items = tuple(
        (str(k), tuple(str(w) for w in v))
        for k, v in sorted(raw.items())
        if isinstance(v, list | tuple)
    )
    return _glossary(items)


def _names(index: DeviceIndex, device: Device) -> tuple[str, ...]:
    """The device's names as the index keeps them normalised (name, aliases, device name)."""
    entry = index.entries.get(device.entity_id)
    if entry is None:
        return tuple(names_of(device))
    return (*entry.norm_names, *((entry.norm_device_name,) if entry.norm_device_name else ()))


# Per index build: each entity's names joined, so a containment test is one substring search
# per entity (a home of thousands is scanned in well under a millisecond). Keyed by the
# index's identity (a new build is a new index), held weakly.
_BLOBS: dict[int, tuple[ref[DeviceIndex], list[tuple[Device, str]]]] = {}


def _blobs(index: DeviceIndex) -> list[tuple[Device, str]]:
    kept = _BLOBS.get(id(index))
    if kept is not None and kept[0]() is index:
        return kept[1]
    for key in [k for k, (r, _) in _BLOBS.items() if r() is None]:
        del _BLOBS[key]
    found = [(d, "\n".join(_names(index, d))) for d in index.devices()]
    _BLOBS[id(index)] = (ref(index), found)
    return found


def _holding(words: str, index: DeviceIndex) -> tuple[str, ...]:
    """The entities one of whose names holds `words` (whole words, or characters in CJK);
    those with a name that starts with them, when there are any ("前门" is 前门门锁 and
    前门门磁, not a long name that mentions a front door somewhere)."""
    if not words:
        return ()
    holding = [
        d
        for d, blob in _blobs(index)
        if words in blob and any(contains_word(n, words) for n in _names(index, d))
    ]
    leading = [d for d in holding if any(n.startswith(words) for n in _names(index, d))]
    return tuple(d.entity_id for d in leading or holding)


def _ranges(tokens: Sequence[str], longest: int = 4) -> Iterable[tuple[int, int, str]]:
    bare = [_bare(t) for t in tokens]
    for i in range(len(tokens)):
        for j in range(i + 1, min(len(tokens), i + longest) + 1):
            yield i, j, "".join(bare[i:j])


def part_names(
    analysis: Analysis, ir: QueryIR, index: DeviceIndex, words_for: Mapping[str, tuple[str, ...]]
) -> list[PartName]:
    """Names said in part (a mention the parser found no entity for) or in the asker's
    words for a name written in another language; only those that find a few entities."""
    found: list[PartName] = []
    wanted = {_bare(m.text): m.text for m in ir.mentions if not m.entity_ids and _bare(m.text)}
    taken: set[int] = set()
    for i, j, bare in sorted(_ranges(analysis.tokens), key=lambda r: r[0] - r[1]):
        if not bare or taken & set(range(i, j)):
            continue
        if bare in wanted:
            ids = _holding(normalize(wanted[bare]), index)
        elif bare in words_for:
            ids = tuple(dict.fromkeys(e for w in words_for[bare] for e in _holding(w, index)))
        else:
            continue
        if 0 < len(ids) <= MAX_PART_MATCHES:
            text = " ".join(analysis.tokens[i:j])
            found.append(PartName(text, frozenset(range(i, j)), ids))
            taken.update(range(i, j))
    return found


def for_status(
    groups: Sequence[tuple[str, Sequence[str]]],
    status: str,
    index: DeviceIndex,
    table: Mapping[str, tuple[StatusRule, ...]],
    kinds: StatusKinds,
) -> list[str]:
    """The entities each name means for this status. Among what a name found, those that
    answer the status itself win ("front door" + "locked" is the lock, + "open" the
    contact sensor); a found entity that does not answer it gives way to a neighbour that
    does and shares its name (the same room, a name that holds the words said: "front door
    sensor"); else it stays (what the word also means for it, or an honest "cannot tell")."""
    out: list[str] = []
    for text, ids in groups:
        present = [e for e in ids if e in index]
        direct = [e for e in present if answers(status, kind_of(index.device(e)), table, kinds)]
        if len(direct) == len(present):
            out += present
            continue
        out += direct
        for entity_id in present:
            if entity_id in direct:
                continue
            near = _neighbours(index.device(entity_id), text, status, index, table, kinds)
            if near:
                out += near
            elif not direct:
                out.append(entity_id)
    return list(dict.fromkeys(out))


def _neighbours(
    device: Device,
    said: str,
    status: str,
    index: DeviceIndex,
    table: Mapping[str, tuple[StatusRule, ...]],
    kinds: StatusKinds,
) -> list[str]:
    """Entities in the same room that answer the status and whose names hold the words said
    (or the device's own name)."""
    words = [w for w in (normalize(said), *_names(index, device)) if w]
    return [
        d.entity_id
        for d, blob in _blobs(index)
        if any(w in blob for w in words)
        and d.entity_id != device.entity_id
        and (d.area_id == device.area_id or not (d.area_id and device.area_id))
        and answers(status, kind_of(d), table, kinds)
        and any(contains_word(n, w) for n in _names(index, d) for w in words)
    ]


def fit(
    status: str,
    kinds_of: Iterable[Kind],
    table: Mapping[str, tuple[StatusRule, ...]],
    kinds: StatusKinds,
) -> int:
    """How well devices of these kinds answer the status: 2 when one has it as such, 1 when
    one has what the word also means ("开着" of a lock), 0 when none can have it."""
    listed = list(kinds_of)
    if any(answers(status, k, table, kinds) for k in listed):
        return 2
    return 1 if any(meaning(status, k, table, kinds, named=True) for k in listed) else 0


def answering_types(
    type_ids: list[str],
    mention_ids: list[str],
    status: str,
    index: DeviceIndex,
    types: TypeTable,
    table: Mapping[str, tuple[StatusRule, ...]],
    kinds: StatusKinds,
) -> list[str]:
    """The types the question is about, given its status: those that answer it as well as
    the best of what it names ("someone" in "did someone leave the front door open?" is not
    what is open, the front door is). All of them when none can have it (then the answer
    says it cannot tell)."""
    ranks = {
        t: fit(status, [k for tier in types.types[t].tiers for k in tier], table, kinds)
        for t in type_ids
        if t in types.types
    }
    named = fit(status, [kind_of(index.device(e)) for e in mention_ids if e in index], table, kinds)
    best = max([named, *ranks.values()])
    if best == 0:
        return type_ids
    return [t for t in type_ids if ranks.get(t, 0) == best]


def decide(
    ir: QueryIR,
    parts: Sequence[PartName],
    mention_ids: list[str],
    type_ids: list[str],
    status: str | None,
    index: DeviceIndex,
    types: TypeTable,
    table: Mapping[str, tuple[StatusRule, ...]],
    kinds: StatusKinds,
) -> tuple[list[str], list[str]]:
    """The entities and types the question is about. With a status, the status word decides
    what a name means ("front door" + "open": the contact sensor) and drops a type that cannot
    have it ("did someone leave … open?"); the names said in part join the names."""
    if status is None or status not in table:
        return sorted({*mention_ids, *(e for part in parts for e in part.entity_ids)}), type_ids
    groups = [(m.text, [e for e in m.entity_ids if e in mention_ids]) for m in ir.mentions]
    groups += [(part.text, list(part.entity_ids)) for part in parts]
    named = sorted(set(for_status(groups, status, index, table, kinds)))
    return named, answering_types(type_ids, named, status, index, types, table, kinds)


def state_kinds(
    targets: Iterable[Kind],
    status: str | None,
    table: Mapping[str, tuple[StatusRule, ...]],
    kinds: StatusKinds,
) -> list[Kind]:
    """Of the devices a state word is about, those that answer the status asked, when any
    does ("what is open?" reads contact sensors and covers, not locks)."""
    listed = list(targets)
    if status is None:
        return listed
    fitting = [k for k in listed if answers(status, k, table, kinds)]
    return fitting or listed
