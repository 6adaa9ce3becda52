"""Analysis of an utterance: tag every stretch with what it is in this home and this language.

1. normalise and tokenise (`spans.utterance_tokens`);
2. find every stretch that is a name in the home (entity, area, floor, label) or a word of the
   language's lexicon, comparing light stems so "lights" finds "Light";
3. repair typos of words nothing covered (`repair`);
4. keep the best non-overlapping set of stretches, longer first.
"""

from __future__ import annotations

from ..index import DeviceIndex
from ..lexicon import Lexicon, LexiconSet
from ..phrase_table import Ref
from ..text import is_cjk, normalize
from .compounds import split_compounds, split_run_together
from .repair import repair_cjk, repair_in_names, repair_latin
from .spans import (
    CLAUSE_PUNCT,
    EXCLUSION_KINDS,
    MAX_TOKENS,
    Analysis,
    Span,
    covered_positions,
    utterance_tokens,
)
from .windows import find_spans

SEPARABLE_REACH = 12  # words between a separable verb and its particle, at most


def _numbered_siblings(spans: list[Span], toks: list[str], index: DeviceIndex) -> list[Span]:
    """A name said with a number after it that it does not have ("Room 105 Night Light 3",
    where "Room 105 Night Light" is an alias of the room's "Night Light") means the numbered
    sibling in that room ("Night Light 3"), when there is one: the number joins the name."""
    by_start = {s.start: s for s in spans}
    out: list[Span] = []
    skip: set[int] = set()
    for s in spans:
        if s.start in skip:
            continue
        after = by_start.get(s.end)
        entities = [r for r in s.refs if r.kind == "entity"]
        if after is None or not after.numeric or not entities or len(entities) != len(s.refs):
            out.append(s)
            continue
        number = toks[after.start]
        siblings: list[Ref] = []
        for ref in entities:
            entry = index.entries.get(ref.target)
            if entry is None or not entry.norm_names:
                continue
            wanted = f"{entry.norm_names[0]} {number}"
            area = entry.device.area_id
            for other in sorted(index.postings.by_base_name.get(entry.norm_names[0], ())):
                found = index.entries[other]
                if found.norm_names[:1] == (wanted,) and found.device.area_id == area:
                    siblings.append(Ref("entity", other, "name", (*ref.raw, number)))
        if not siblings:
            out.append(s)
            continue
        out.append(
            Span(s.start, after.end, f"{s.text} {number}", refs=siblings, corrected=s.corrected)
        )
        skip.add(after.start)
    return out


def read_separable_verbs(toks: list[str], spans: list[Span], lex: Lexicon) -> None:
    """A verb whose particle stands apart ("schicke … zurück", "setz … fort", "sla … over"):
    when the particle joined to the verb ("zurückschicken"), or the two as one phrase ("sla
    over"), is a word of the language's actions, the verb carries that action and the particle
    is no word of its own ("zurück" alone would be "previous track"). The particle may also
    come first when the verb closes the clause ("das Schaf zurück schicken", spelled apart).
    Done before typo repair, which would otherwise "repair" the verb."""
    if not lex.separable_prefixes:
        return
    for j in range(len(toks) - 1, 0, -1):
        particle = toks[j]
        if particle not in lex.separable_prefixes:
            continue
        # The verb opens the clause the particle closes: look back a few words, not past it
        # nor past "and" ("schalte das Licht ein und das andere aus" has two clauses).
        first = j
        while (
            first > 0
            and j - first < SEPARABLE_REACH
            and toks[first - 1] not in CLAUSE_PUNCT
            and not _joins(toks[first - 1], lex)
        ):
            first -= 1
        for i in range(j - 1, first - 1, -1):  # the nearest verb first
            action = _separable_action(toks[i], particle, lex)
            if action is not None:
                _read_as_one_verb(spans, i, j, toks[i], particle, action)
                return
    for k in range(len(toks) - 1, 0, -1):
        if k + 1 < len(toks) and toks[k + 1] not in CLAUSE_PUNCT:
            continue
        # The verb closes its clause; its particle stands a few words before it. A particle
        # that says an action of its own with this verb ("dicht draaien", "an machen") is read
        # as such already, whatever the joined verb means elsewhere.
        i = k - 1
        while i >= 0 and k - i <= SEPARABLE_REACH and toks[i] not in CLAUSE_PUNCT:
            if toks[i] in lex.separable_prefixes and not _particle_and_verb(toks[i], toks[k], lex):
                action = _separable_action(toks[k], toks[i], lex, spaced=False)
                if action is not None:
                    _read_as_one_verb(spans, k, i, toks[k], toks[i], action)
                    return
            i -= 1


def _joins(word: str, lex: Lexicon) -> bool:
    return any(kind == "conj" for kind, _ in lex.lookup((lex.key(word),)))


def _particle_and_verb(particle: str, verb: str, lex: Lexicon) -> bool:
    kinds = {kind for kind, _ in lex.lookup((lex.key(particle),))}
    return "particle" in kinds and any(
        kind == "particle_verb" for kind, _ in lex.lookup((lex.key(verb),))
    )


def _separable_action(verb: str, particle: str, lex: Lexicon, spaced: bool = True) -> str | None:
    """The action the verb says with its particle, if the language has that verb."""
    if len(verb) < 2 or verb in lex.separable_prefixes or not verb.isalpha():
        return None
    keys: list[tuple[str, ...]] = [(lex.key(form),) for form in _joined_forms(particle, verb)]
    if spaced:
        keys.append((lex.key(verb), lex.key(particle)))
    for key in keys:
        for kind, value in lex.lookup(key):
            if kind == "action":
                return value
    return None


def _read_as_one_verb(
    spans: list[Span], verb_at: int, particle_at: int, verb: str, particle: str, action: str
) -> None:
    spans[:] = [s for s in spans if s.end - s.start > 1 or s.start not in (verb_at, particle_at)]
    spans.append(Span(verb_at, verb_at + 1, verb, lex=[("action", action)]))
    spans.append(Span(particle_at, particle_at + 1, particle, lex=[("filler", "")]))


def _joined_forms(particle: str, verb: str) -> list[str]:
    """The particle before the verb: as said, and as an infinitive ("schicke" → "schicken",
    "zet" → "zetten")."""
    stems = [verb, verb[:-1]] if verb.endswith(("e", "t")) else [verb]
    forms = [particle + verb]
    for stem in stems:
        forms += [particle + stem + "en", particle + stem + "n", particle + stem + stem[-1:] + "en"]
    # A long vowel written once in the stem, twice in the infinitive: "sla" → "slaan".
    forms.append(particle + verb + verb[-1:] + "n")
    return forms


def floors_beat_relative_floor_words(spans: list[Span]) -> None:
    """A floor of the home beats a relative-floor word with the same words: in a home with a
    floor called "Obergeschoss", "im Obergeschoss" is that floor, not every upper floor."""
    floor_spans = [s for s in spans if s.home("floor")]
    if not floor_spans:
        return
    for s in spans:
        if s.refs or not s.has("floor_rel"):
            continue
        inside = [f for f in floor_spans if s.start <= f.start and f.end <= s.end]
        if inside:
            s.lex = [(k, v) for k, v in s.lex if k != "floor_rel"]
            s.refs = [r for f in inside for r in f.home("floor")]


def names_beat_fillers(spans: list[Span]) -> list[Span]:
    """A stretch read only as words to skip never swallows a name of the home said whole
    inside it: Home Assistant's Korean sentences skip "표시등이" (the indicator light, with
    its particle), yet in a home with a sensor called "표시등" that is its name."""
    names = [s for s in spans if s.exact and s.home("entity") + s.home("area")]
    return [
        s
        for s in spans
        if not (
            s.only_filler
            and any(n.start >= s.start and n.end <= s.end and n is not s for n in names)
        )
    ]


# Words that turn a command around: what they stand next to is excluded or negated.
_FLIPPERS = frozenset({*EXCLUSION_KINDS, "negation"})


def flippers_inside_unknown_words(chosen: list[Span]) -> list[Span]:
    """In a script written without spaces, one character that excludes or negates ("除",
    "别", "外") right after a character nothing explains ends a word the lexicon does not
    know ("解除" release, "特别" especially, "户外" outdoors): it excludes nothing."""
    out = list(chosen)
    for i in range(1, len(out)):
        s, before = out[i], out[i - 1]
        if (
            s.length == 1
            and not s.refs
            and s.lex
            and all(kind in _FLIPPERS for kind, _ in s.lex)
            and is_cjk(s.text)
            and before.is_residual
            and is_cjk(before.text)
        ):
            out[i] = Span(s.start, s.end, s.text)
    return out


def _choose(spans: list[Span], n: int) -> list[Span]:
    """Best non-overlapping cover (weighted interval scheduling); gaps become residual spans."""
    by_start: dict[int, list[Span]] = {}
    for s in spans:
        by_start.setdefault(s.start, []).append(s)
    best = [0.0] * (n + 1)
    choice: list[Span | None] = [None] * (n + 1)
    for i in range(n - 1, -1, -1):
        best[i] = best[i + 1]
        choice[i] = None
        for s in by_start.get(i, []):
            w = s.weight() + best[s.end]
            if w > best[i]:
                best[i] = w
                choice[i] = s
    out: list[Span] = []
    i = 0
    while i < n:
        picked = choice[i]
        if picked is None:
            out.append(Span(i, i + 1, ""))
            i += 1
        else:
            out.append(picked)
            i = picked.end
    return out


def _repaired(
    toks: list[str],
    keys: list[str],
    spans: list[Span],
    fixes: list[tuple[int, str]],
    in_names: bool,
    index: DeviceIndex,
    lex: Lexicon,
    extra: list[Lexicon],
) -> tuple[list[str], list[str], list[Span]] | None:
    """The tokens, keys and spans read again with `fixes` made; None when the repairs made
    no word known (the original reading stands)."""
    # Repairs are words as written; "" drops a token joined into its neighbour.
    fixed = dict(fixes)
    kept = [i for i in range(len(toks)) if fixed.get(i) != ""]
    new_toks = [fixed.get(i, toks[i]) for i in kept]
    new_keys = [lex.key(fixed[i]) if i in fixed else keys[i] for i in kept]
    new_spans = find_spans(new_toks, new_keys, index, lex, extra)
    read_separable_verbs(new_toks, new_spans, lex)
    before = sum(covered_positions(spans, len(toks)))
    after = sum(covered_positions(new_spans, len(new_toks)))
    # A repair inside a name may only turn a grammar word into a part of the name, so it
    # covers no more words than before but reads a longer name.
    joined = sum(1 for _, new in fixes if new == "")
    if not (after > before - joined or (in_names and after >= before - joined)):
        return None
    changed = {i for i, (a, b) in enumerate(zip(toks, new_toks, strict=False)) if a != b}
    changed |= set(range(min(len(toks), len(new_toks)), max(len(toks), len(new_toks))))
    for s in new_spans:
        if any(i in changed for i in range(s.start, s.end)):
            s.corrected = True
    return new_toks, new_keys, new_spans


def analyze(
    text: str, index: DeviceIndex, lexicons: LexiconSet, language: str | None = None
) -> Analysis:
    """Tag every stretch of `text` with what it is in this home and this language."""
    norm = normalize(text or "")
    lang = language or lexicons.detect(norm, fallback=index.language)
    lex = lexicons.get(lang)
    toks = utterance_tokens(norm)
    truncated = len(toks) > MAX_TOKENS
    toks = toks[:MAX_TOKENS]
    corrections: list[tuple[str, str]] = []
    if lex.compound_words:
        toks = split_compounds(toks, index, lex, corrections)
    elif lex.script == "latin":
        toks = split_run_together(toks, index, lex, corrections)
    keys = [lex.key(t) for t in toks]
    # Loan words such as "music" or "TV show" in a Chinese command are read with English.
    extra = [lexicons.get("en")] if lex.script == "cjk" and "en" in lexicons.lexicons else []
    spans = find_spans(toks, keys, index, lex, extra)
    read_separable_verbs(toks, spans, lex)
    in_names = repair_in_names(toks, keys, spans, index, lex)
    fixed_at = {pos for pos, _ in in_names}
    fixes = in_names + [
        (pos, new)
        for pos, new in repair_latin(toks, keys, spans, index, lex)
        if pos not in fixed_at
    ]
    if fixes:
        repaired = _repaired(toks, keys, spans, fixes, bool(in_names), index, lex, extra)
        if repaired is not None:
            corrections += [(toks[p], new) for p, new in fixes if new]
            toks, keys, spans = repaired
    cjk_fixes = repair_cjk(toks, spans, index, lex)
    for s in cjk_fixes:
        corrections.append((s.text, (s.refs[0].raw and "".join(s.refs[0].raw)) or s.text))
    spans.extend(cjk_fixes)
    floors_beat_relative_floor_words(spans)
    spans = names_beat_fillers(spans)
    chosen = _choose(spans, len(toks))
    chosen = _numbered_siblings(chosen, toks, index)
    for s in chosen:
        if s.is_residual and not s.text:
            s.text = toks[s.start]
    chosen = flippers_inside_unknown_words(chosen)
    return Analysis(
        text=text,
        norm=norm,
        language=lex.language,
        tokens=toks,
        spans=chosen,
        corrections=corrections,
        truncated=truncated,
    )
