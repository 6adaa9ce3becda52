"""What a question's words say, beside what the utterance analysis already found: question
words, statuses, comparisons, the device types asked about, the place, and words nothing
explained."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base.lexicon import Lexicon, TypeTable
from ..base.models import Device, QueryIR
from ..base.parse import Analysis
from ..base.parse.values import number_words
from ..base.text import has_cjk, normalize, tokens

AGGREGATES = ("avg", "max", "min")
_NUMBER = re.compile(r"^(\d+(?:[.,]\d+)?)(%|°c|°f|°)?$")


@dataclass(slots=True)
class QuestionWords:
    """What the question-word scan found, with the asker's words and token positions."""

    kinds: dict[str, list[str]] = field(default_factory=dict)
    statuses: dict[str, list[str]] = field(default_factory=dict)
    statuses_at: dict[str, set[int]] = field(default_factory=dict)
    first_kind_at: int | None = None  # where the first question word is
    compare: tuple[str, float, str | None] | None = None  # (op, number, unit)
    covered: set[int] = field(default_factory=set)
    # Negation words no status followed: (their positions, where what they turn must start).
    negations: list[tuple[range, int]] = field(default_factory=list)
    # A comparison said with no number after it ("which are above?"): its op, or None.
    compare_unmet: str | None = None


# What an action leaves behind, when a question asks whether it was done.
ACTION_STATUS = {
    "turn_on": "on",
    "turn_off": "off",
    "open": "open",
    "close": "closed",
    "lock": "locked",
    "unlock": "unlocked",
}


# The status a negated status word asks about ("no está bloqueada", "n'est pas fermée").
OPPOSITE = {
    "locked": "unlocked",
    "unlocked": "locked",
    "open": "closed",
    "closed": "open",
    "on": "off",
    "off": "on",
    "detected": "clear",
    "clear": "detected",
    "home": "away",
    "away": "home",
    "armed": "disarmed",
    "disarmed": "armed",
}


def join_words(parts: list[str]) -> str:
    out = ""
    for part in parts:
        if out and part and not (has_cjk(out[-1]) or has_cjk(part[0])):
            out += " "
        out += part
    return out


def scan_words(analysis: Analysis, lex: Lexicon) -> QuestionWords:
    """Question words, statuses, comparisons and fillers, outside every stretch that names
    something in the home; and the number after a comparison ("below 20 %")."""
    toks = analysis.tokens
    named = {i for s in analysis.spans if s.refs for i in range(s.start, s.end)}
    keys = toks
    longest = max((len(k) for k in lex.question_phrases), default=1)
    found = QuestionWords()
    pending_compare: str | None = None  # "lt" / "gt" until its number comes
    # A negation word (`question_negation`) and where the status it turns must start: right
    # after it, or one word on in a language that writes spaces ("no está bloqueada").
    negation: tuple[range, int] | None = None
    reach = 1 if lex.script == "cjk" else 2
    i = 0
    while i < len(toks):
        if pending_compare is not None:
            end = _read_amount(toks, i, pending_compare, lex, found)
            if end is not None:
                pending_compare = None
                i = end
                continue
        phrase = _phrase_at(i, keys, named, longest, lex)
        if phrase is None:
            i += 1
            continue
        size, entries = phrase
        text = join_words(toks[i : i + size])
        for category, word in entries:
            if category == "kind":
                found.kinds.setdefault(word, []).append(text)
                if found.first_kind_at is None:
                    found.first_kind_at = i
            elif category == "status":
                if negation is not None and i - negation[1] < reach and word in OPPOSITE:
                    word = OPPOSITE[word]
                    # Said back as the language says the status, not the word negated
                    # ("niet vergrendeld" is not "vergrendeld").
                    text = lex.state_words.get(word, text)
                    found.covered.update(negation[0])
                    found.negations.remove(negation)
                    negation = None
                found.statuses.setdefault(word, []).append(text)
                found.statuses_at.setdefault(word, set()).update(range(i, i + size))
            elif category == "negate":
                negation = (range(i, i + size), i + size)
                found.negations.append(negation)
            elif category == "compare":
                pending_compare = word
        if not all(c == "negate" for c, _ in entries):
            # A negation is explained only by the status it turns.
            found.covered.update(range(i, i + size))
        i += size
    found.compare_unmet = pending_compare
    return found


def _phrase_at(
    i: int, keys: list[str], named: set[int], longest: int, lex: Lexicon
) -> tuple[int, list[tuple[str, str]]] | None:
    """The longest question phrase from `i` over words that name nothing, with its readings."""
    for size in range(min(longest, len(keys) - i), 0, -1):
        if any(p in named for p in range(i, i + size)):
            continue
        entries = lex.question_phrases.get(tuple(keys[i : i + size]), [])
        if entries:
            return size, entries
    return None


def _read_amount(
    toks: list[str], i: int, compare: str, lex: Lexicon, found: QuestionWords
) -> int | None:
    """The number a comparison waited for, in digits or in words ("above zero degrees",
    "高于零度"), with its unit said with it or as the next word; where the
    question goes on after it, or None when no number starts at `i`."""
    match = _NUMBER.match(toks[i])
    if match:
        unit, amount, end = match.group(2), float(match.group(1).replace(",", ".")), i + 1
    else:
        value, used = number_words(toks, i, lex)
        if value is None:
            return None
        unit, amount, end = None, value, i + used
    if unit is None and end < len(toks):
        entries = lex.question_phrases.get((toks[end],), [])
        unit = next((v for c, v in entries if c == "unit"), None)
        if unit is not None:
            found.covered.add(end)
    found.compare = (compare, amount, _unit(unit))
    found.covered.update(range(i, end))
    return end


def _unit(raw: str | None) -> str | None:
    if raw is None:
        return None
    return {"°c": "°C", "°": "°C", "°f": "°F", "%": "%"}.get(raw, raw)


def covers(
    narrow: frozenset[tuple[str, str | None]], wide: frozenset[tuple[str, str | None]]
) -> bool:
    """Every target of `narrow` is one of `wide` (a None device class is any class)."""
    return all((d, c) in wide or (d, None) in wide for d, c in narrow)


def specific_types(type_ids: list[str], types: TypeTable) -> list[str]:
    """Drop a type when a narrower one was named too: "motion sensor" is motion, not every
    sensor."""
    targets = {
        t: frozenset(types.types[t].tiers[0])
        for t in type_ids
        if t in types.types and types.types[t].tiers
    }
    keep = []
    for t in type_ids:
        if t not in targets:
            continue
        narrower = [
            o
            for o in targets
            if o != t and covers(targets[o], targets[t]) and not covers(targets[t], targets[o])
        ]
        if not narrower:
            keep.append(t)
    return keep


def type_tokens(lex: Lexicon) -> set[str]:
    return {t for words in lex.type_words.values() for w in words for t in tokens(w)}


def type_of_words(text: str, lex: Lexicon, types: TypeTable) -> list[str]:
    """The type a phrase made only of type words names ("motion sensors" → motion), or
    nothing when any word is not a type word."""
    found: list[str] = []
    for token in tokens(normalize(text)):
        ids = [t for t, words in lex.type_words.items() if token in words]
        if not ids:
            return []
        found.extend(i for i in ids if i not in found)
    return composite_types(specific_types(found, types), types)


def composite_types(type_ids: list[str], types: TypeTable) -> list[str]:
    """ "temperature sensors": a measured quantity with a generic device word is the type
    for both together (`temperature_sensor`) when the type table has one."""
    out = list(type_ids)
    for generic in type_ids:
        for t in type_ids:
            both = f"{t}_{generic}"
            if t != generic and both in types.types:
                out = [x for x in out if x not in (t, generic)] + [both]
    return list(dict.fromkeys(out))


def type_spans(analysis: Analysis, skip: set[int]) -> list[tuple[str, str, int]]:
    """(type id, the asker's words, position) of every type word not inside another reading
    (a status word such as "有人", a home name)."""
    out = []
    for s in analysis.spans:
        if s.refs or any(p in skip for p in range(s.start, s.end)):
            continue
        for type_id in s.values("type"):
            out.append((type_id, s.text, s.start))
    return out


def place_words(analysis: Analysis, ir: QueryIR, lex: Lexicon, skip: set[int] | None = None) -> str:
    """The asker's words for the place ("upstairs", " in the living room", "客厅"); a word
    at `skip` is not its preposition ("which lights are on upstairs": "on" is the status)."""
    skip = skip or set()
    cjk = lex.script == "cjk"
    parts: list[str] = []
    spans = analysis.spans
    wanted = ir.scope_include | ir.floor_include | ir.labels
    for i, s in enumerate(spans):
        if not any(r.target in wanted for r in s.refs if r.kind in ("area", "floor", "label")):
            continue
        words = [s.text]
        # "in the kitchen": the preposition, and the article between, stay with the place.
        j = i - 1
        between: list[str] = []
        while (
            not cjk
            and j >= 0
            and not spans[j].refs
            and spans[j].has("determiner")
            and not spans[j].has("area_prep")
        ):
            between.insert(0, spans[j].text)
            j -= 1
        if (
            not cjk
            and j >= 0
            and spans[j].has("area_prep")
            and not spans[j].refs
            and not any(p in skip for p in range(spans[j].start, spans[j].end))
        ):
            words[:0] = [spans[j].text, *between]
        parts.append(join_words(words))
    if not parts:
        return ""
    return "".join(parts) if cjk else " " + " ".join(parts)


def residual_runs(analysis: Analysis, covered: set[int]) -> list[str]:
    """Stretches nothing explained: not a home name, not a lexicon word, not a question word."""
    runs: list[list[str]] = []
    current: list[str] = []
    for s in analysis.spans:
        unexplained = (
            s.is_residual
            and not all(p in covered for p in range(s.start, s.end))
            and s.punct is None
            and s.text.strip("?？!！.。,，、")
        )
        if unexplained:
            current.append(s.text)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return [join_words(r) for r in runs]


def names_of(device: Device) -> list[str]:
    return [normalize(n) for n in (device.name, *device.aliases, device.device_name or "") if n]


def contains_word(haystack: str, needle: str) -> bool:
    if has_cjk(needle):
        return needle in haystack
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", haystack) is not None


def in_scope(d: Device, ir: QueryIR) -> bool:
    if ir.scope_include and d.area_id not in ir.scope_include:
        return False
    if ir.floor_include and d.floor_id not in ir.floor_include:
        return False
    if ir.labels and not set(d.labels) & ir.labels:
        return False
    return d.area_id not in ir.scope_exclude and d.floor_id not in ir.floor_exclude
