"""Rule-based IR compiler: utterance → one `QueryIR` per command (seed 004 §4.1, seed 001).

How it reads an utterance:
1. normalise and tokenise (every CJK character is a token, so Chinese needs no segmenter);
2. find every stretch that is a name in the home (entity, area, floor, label) or a word of the
   language's lexicon, comparing light stems so "lights" finds "Light";
3. repair typos of words nothing covered (Latin: edit distance against the home's and the
   lexicon's words; CJK: one wrong character against room and device names);
4. keep the best non-overlapping set of stretches (longest first);
5. cut into commands at clause breaks and "then"/"然后"/"and turn …", and read each command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from .index import DeviceIndex, Ref
from .lexicon import Lexicon, LexiconSet
from .models import Mention, QueryIR
from .text import has_cjk, is_cjk, normalize, sounds_alike, tokens

MAX_TOKENS = 400  # longer input is cut; voice commands are a few dozen tokens at most

_TOKEN_RE = re.compile(r"[\w'.%°]+|[,，;；。!！?？、:：]")
_CLAUSE_PUNCT = frozenset(",，;；。!！?？:：")
_LIST_PUNCT = frozenset("、")
_NUMERIC_RE = re.compile(r"^[+-]?\d+(?:[.,]\d+)?(?:%|°[cf]?|度|k|w|kw)?$")

# Which reading of a stretch wins when several kinds of thing share the same words.
_HOME_PRIORITY = {"entity": 6.0, "area": 5.5, "floor": 5.4, "label": 5.0}
_LEX_PRIORITY = {"exclusion": 4.8, "here": 4.7, "action": 4.5, "type": 4.4, "state": 4.3,
                 "pronoun_pl": 4.2, "pronoun_sg": 4.1, "split": 4.6}
CONTROL_ACTIONS_EXCLUDED = frozenset({"query"})
# One-character words that are grammar, never a misheard part of a name.
_PARTICLE_KINDS = frozenset({"filler", "determiner", "area_prep", "target_prep", "conj",
                             "quant_all", "quant_any", "exclusion", "exclusion_suffix",
                             "negation", "pronoun_sg", "pronoun_pl", "split"})


def utterance_tokens(norm: str) -> list[str]:
    """`text.tokens`, plus the clause punctuation that tells commands apart."""
    out: list[str] = []
    for match in _TOKEN_RE.finditer(norm):
        word = match.group(0)
        if word in _CLAUSE_PUNCT or word in _LIST_PUNCT:
            out.append(word)
        else:
            out.extend(tokens(word))
    return out


@dataclass(slots=True)
class Span:
    """A stretch of tokens [start, end) with every reading it has."""

    start: int
    end: int
    text: str
    refs: list[Ref] = field(default_factory=list)
    lex: list[tuple[str, str]] = field(default_factory=list)
    exact: bool = True
    corrected: bool = False
    numeric: bool = False
    punct: str | None = None
    inflected: bool = False  # said in an inflected form ("curtains"), i.e. plural

    @property
    def length(self) -> int:
        return self.end - self.start

    def has(self, kind: str) -> bool:
        return any(k == kind for k, _ in self.lex)

    def values(self, kind: str) -> list[str]:
        return [v for k, v in self.lex if k == kind]

    def home(self, kind: str) -> list[Ref]:
        return [r for r in self.refs if r.kind == kind]

    @property
    def is_residual(self) -> bool:
        return not self.refs and not self.lex and not self.numeric and self.punct is None

    @property
    def only_filler(self) -> bool:
        return not self.refs and bool(self.lex) and all(
            k in ("filler", "determiner", "value", "number", "area_prep", "target_prep",
                  "request", "negation", "percent")
            for k, _ in self.lex)

    def weight(self) -> float:
        if self.is_residual:
            return 0.0
        best = max([_HOME_PRIORITY.get(r.kind, 0.0) if r.source != "area_part" else 4.0
                    for r in self.refs]
                   + [_LEX_PRIORITY.get(k, 1.0) for k, _ in self.lex] + [0.5])
        # Longer stretches explain more of the utterance; the priority only breaks ties.
        return self.length * self.length * 10.0 + best - (0.5 if self.corrected else 0.0)


@dataclass(slots=True)
class Analysis:
    """The chosen reading of a whole utterance."""

    text: str
    norm: str
    language: str
    tokens: list[str]
    spans: list[Span]
    corrections: list[tuple[str, str]] = field(default_factory=list)
    truncated: bool = False


# ---- stretch finding ------------------------------------------------------------------------


def _find_spans(toks: list[str], keys: list[str], index: DeviceIndex, lex: Lexicon,
                extra: list[Lexicon]) -> list[Span]:
    table = index.table(lex)
    spans: list[Span] = []
    n = len(toks)
    max_len = max(table.max_len, lex.max_phrase_len, *(x.max_phrase_len for x in extra))
    for i in range(n):
        tok = toks[i]
        if tok in _CLAUSE_PUNCT or tok in _LIST_PUNCT:
            span = Span(i, i + 1, tok, punct=tok)
            if tok in _LIST_PUNCT:
                span.lex.append(("conj", ""))
            spans.append(span)
            continue
        if _NUMERIC_RE.match(tok):
            spans.append(Span(i, i + 1, tok, numeric=True))
        for length in range(1, min(max_len, n - i) + 1):
            window = toks[i : i + length]
            if any(t in _CLAUSE_PUNCT for t in window):
                break
            key = tuple(keys[i : i + length])
            refs = table.get(key)
            if not refs and length >= 2 and all(len(t) == 1 and is_cjk(t) for t in window):
                refs = [Ref("area", area, "area_part", tuple(window))
                        for area in sorted(index.area_part("".join(window)))]
            raw = tuple(window)
            lex_entries = list(lex.lookup(key, raw))
            latin = not has_cjk("".join(window))
            for other in extra:
                if latin:
                    lex_entries.extend(
                        e for e in other.lookup(tuple(other.key(t) for t in window), raw)
                        if e not in lex_entries)
            if not refs and not lex_entries:
                continue
            exact = not refs or any(r.raw == tuple(window) for r in refs)
            inflected = any(lex.is_plural(toks[j]) for j in range(i, i + length))
            spans.append(Span(i, i + length, _join(window), refs=list(refs), lex=lex_entries,
                              exact=exact, inflected=inflected))
    return spans


def _join(window: list[str]) -> str:
    out = ""
    for tok in window:
        if out and not (is_cjk(tok[0]) or is_cjk(out[-1])):
            out += " "
        out += tok
    return out


def _split_compounds(toks: list[str], index: DeviceIndex, lex: Lexicon) -> list[str]:
    """"schlafzimmerlicht" → "schlafzimmer" "licht" when the word is unknown but both parts
    are words of the home or the language (linking -s-/-n- allowed)."""
    vocab = set(index.token_vocabulary(lex))
    table = index.table(lex)
    out: list[str] = []
    for tok in toks:
        key = lex.key(tok)
        if len(tok) < 7 or has_cjk(tok) or lex.lookup((key,)) or table.get((key,)):
            out.append(tok)
            continue
        split = None
        for cut in range(len(tok) - 3, 2, -1):
            head, tail = tok[:cut], tok[cut:]
            for link in ("", "s", "n", "es", "en"):
                if link and not head.endswith(link):
                    continue
                left = head[: len(head) - len(link)] if link else head
                if lex.key(left) in vocab and lex.key(tail) in vocab:
                    split = [left, tail]
                    break
            if split:
                break
        out.extend(split or [tok])
    return out


def _covered(spans: list[Span], n: int) -> list[bool]:
    covered = [False] * n
    for s in spans:
        if not s.is_residual:
            for i in range(s.start, s.end):
                covered[i] = True
    return covered


def _repair_latin(toks: list[str], keys: list[str], spans: list[Span], index: DeviceIndex,
                  lex: Lexicon) -> list[tuple[int, str]]:
    """Typo repair for words nothing matched: the closest word of the home or the lexicon."""
    covered = _covered(spans, len(toks))
    vocab = index.token_vocabulary(lex)
    vocab_set = set(vocab)
    fixes: list[tuple[int, str]] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        # A word of the question lexicon ("basse", "lowest") is a real word, not a slip.
        if (covered[i] or has_cjk(tok) or _NUMERIC_RE.match(tok) or tok in _CLAUSE_PUNCT
                or tok in lex.question_words):
            i += 1
            continue
        # "bath room" → "bathroom": two unknown words that are one known word.
        if i + 1 < len(toks) and not covered[i + 1]:
            joined = lex.key(tok + toks[i + 1])
            if joined in vocab_set:
                fixes.append((i, joined))
                fixes.append((i + 1, ""))
                i += 2
                continue
        if len(tok) >= 4 and vocab:
            cutoff = 74.0 if len(tok) <= 5 else 80.0
            best = process.extractOne(keys[i], vocab, scorer=fuzz.ratio, score_cutoff=cutoff)
            # A slip changes a letter or two; a word that merely ends like a known one
            # ("poolbeleuchtung" / "beleuchtung") is a different word.
            if best is not None and best[0] != keys[i] and abs(len(best[0]) - len(keys[i])) <= 2:
                fixes.append((i, best[0]))
        i += 1
    return fixes


def _cjk_wildcards(index: DeviceIndex, lex: Lexicon) -> dict[str, list[Ref]]:
    """Room and device names with one character blanked, for one-character slips (书方→书房)."""
    cache: dict[str, dict[str, list[Ref]]] = index.__dict__.setdefault("_cjk_wild", {})
    table = cache.get(lex.language)
    if table is None:
        table = {}
        for keys, refs in index.table(lex).entries.items():
            if not 2 <= len(keys) <= 6 or not all(len(k) == 1 and is_cjk(k) for k in keys):
                continue
            for pos in range(len(keys)):
                pattern = "".join(keys[:pos]) + "?" + "".join(keys[pos + 1 :])
                table.setdefault(pattern, []).extend(
                    r for r in refs if r.kind in ("area", "entity"))
        cache[lex.language] = table
    return table


def _repair_cjk(toks: list[str], spans: list[Span], index: DeviceIndex,
                lex: Lexicon) -> list[Span]:
    covered = _covered(spans, len(toks))
    slip_ok = [True] * len(toks)
    for s in spans:
        if s.refs or s.length > 1 or any(k in _PARTICLE_KINDS for k, _ in s.lex):
            for i in range(s.start, s.end):
                slip_ok[i] = False
    wild = _cjk_wildcards(index, lex)
    out: list[Span] = []
    i = 0
    n = len(toks)
    while i < n:
        if covered[i] or not (len(toks[i]) == 1 and is_cjk(toks[i])):
            i += 1
            continue
        j = i
        while j < n and not covered[j] and len(toks[j]) == 1 and is_cjk(toks[j]):
            j += 1
        if index.areas_containing("".join(toks[i:j]), lex):
            # Not a slip: a part of a room name ("卧室" of "主卧室"), read as such later.
            i = j
            continue
        # The uncovered run toks[i:j] plus one covered neighbour on each side: a slip can turn
        # one character of a name into a word the lexicon happens to know.
        lo, hi = max(0, i - 1), min(n, j + 1)
        best: Span | None = None
        for length in range(min(6, hi - lo), 1, -1):
            for start in range(lo, hi - length + 1):
                end = start + length
                if end <= i or start >= j:
                    continue
                window = toks[start:end]
                if not all(len(t) == 1 and is_cjk(t) for t in window):
                    continue
                hits: dict[tuple[str, str], Ref] = {}
                homophone: dict[tuple[str, str], Ref] = {}
                for pos in range(length):
                    # The slipped character is one nothing explained, or a one-character word
                    # that is not a particle: "客听" is 客厅, but "了卧室" is not "大卧室".
                    if covered[start + pos] and not slip_ok[start + pos]:
                        continue
                    pattern = "".join(window[:pos]) + "?" + "".join(window[pos + 1 :])
                    for ref in wild.get(pattern, []):
                        hits[(ref.kind, ref.target)] = ref
                        if sounds_alike(window[pos], ref.raw[pos]):
                            homophone[(ref.kind, ref.target)] = ref
                # Speech recognition slips are homophones ("书方" for 书房): prefer those, and
                # trust two-character words only when they sound alike and name one thing.
                chosen = homophone or ({} if length == 2 else hits)
                if chosen and len({r.raw for r in chosen.values()}) == 1:
                    best = Span(start, end, "".join(window), refs=list(chosen.values()),
                                exact=True, corrected=True)
                if best:
                    break
            if best:
                break
        if best:
            out.append(best)
        i = j
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


def analyze(text: str, index: DeviceIndex, lexicons: LexiconSet,
            language: str | None = None) -> Analysis:
    """Tag every stretch of `text` with what it is in this home and this language."""
    norm = normalize(text or "")
    lang = language or lexicons.detect(norm, fallback=index.language)
    lex = lexicons.get(lang)
    toks = utterance_tokens(norm)
    truncated = len(toks) > MAX_TOKENS
    toks = toks[:MAX_TOKENS]
    if lex.compound_words:
        toks = _split_compounds(toks, index, lex)
    keys = [lex.key(t) for t in toks]
    # Loan words such as "music" or "TV show" in a Chinese command are read with English.
    extra = [lexicons.get("en")] if lex.script == "cjk" and "en" in lexicons.lexicons else []
    spans = _find_spans(toks, keys, index, lex, extra)
    corrections: list[tuple[str, str]] = []
    fixes = _repair_latin(toks, keys, spans, index, lex)
    if fixes:
        fixed_keys = list(keys)
        for pos, new in fixes:
            fixed_keys[pos] = new
        # Drop emptied tokens (joined into their neighbour) from both sequences.
        kept = [i for i in range(len(toks)) if fixed_keys[i] != ""]
        new_toks = [fixed_keys[i] if any(p == i for p, _ in fixes) else toks[i] for i in kept]
        new_keys = [fixed_keys[i] for i in kept]
        new_spans = _find_spans(new_toks, new_keys, index, lex, extra)
        # Keep a repair only if it made a word known; otherwise the original reading stands.
        before = sum(_covered(spans, len(toks)))
        after = sum(_covered(new_spans, len(new_toks)))
        if after > before - sum(1 for _, new in fixes if new == ""):
            corrections = [(toks[p], new) for p, new in fixes if new]
            changed = {i for i, (a, b) in enumerate(zip(toks, new_toks, strict=False)) if a != b}
            changed |= set(range(min(len(toks), len(new_toks)), max(len(toks), len(new_toks))))
            toks, keys, spans = new_toks, new_keys, new_spans
            for s in spans:
                if any(i in changed for i in range(s.start, s.end)):
                    s.corrected = True
    cjk_fixes = _repair_cjk(toks, spans, index, lex)
    for s in cjk_fixes:
        corrections.append((s.text, (s.refs[0].raw and "".join(s.refs[0].raw)) or s.text))
    spans.extend(cjk_fixes)
    chosen = _choose(spans, len(toks))
    for s in chosen:
        if s.is_residual and not s.text:
            s.text = toks[s.start]
    return Analysis(text=text, norm=norm, language=lex.language, tokens=toks, spans=chosen,
                    corrections=corrections, truncated=truncated)


# ---- commands -------------------------------------------------------------------------------


def _split_commands(spans: list[Span]) -> list[list[Span]]:
    """Cut at clause breaks; "and" cuts only when a new action follows it."""
    segments: list[list[Span]] = [[]]
    for i, s in enumerate(spans):
        if s.punct is not None and s.punct in _CLAUSE_PUNCT:
            segments.append([])
            continue
        if s.has("split") and not s.refs:
            segments.append([])
            continue
        if s.has("conj") and not s.refs and _next_is_action(spans, i + 1):
            segments.append([])
            continue
        segments[-1].append(s)
    segments = [seg for seg in segments if any(not x.only_filler for x in seg)]
    segments = _join_split_halves(segments)
    # A clause that only says what to leave out ("除了109房间，…", "…，407房间的除外") belongs to
    # its neighbour command; a marker ends the exclusion where the clause ended.
    merged: list[list[Span]] = []
    pending_exclusion: list[Span] = []
    for seg in segments:
        first = next((x for x in seg if not x.only_filler), None)
        postfix = any(x.has("exclusion_postfix") and not x.refs for x in seg)
        if postfix or (first is not None and first.has("exclusion") and not first.refs):
            clause = ([_marker("exclusion")] if postfix else []) + seg + \
                [_marker("exclusion_suffix")]
            if merged:
                merged[-1].extend(clause)
            else:
                pending_exclusion.extend(clause)
            continue
        if pending_exclusion:
            seg = pending_exclusion + seg
            pending_exclusion = []
        merged.append(seg)
    if pending_exclusion:
        merged.append(pending_exclusion)
    return merged or [[]]


def _marker(kind: str) -> Span:
    """A span the utterance did not contain, marking where a clause began or ended."""
    return Span(-1, -1, "", lex=[(kind, "")])


def _acts(seg: list[Span]) -> bool:
    return any(not x.refs and (set(x.values("action")) - {"query"} or x.has("particle"))
               for x in seg)


def _targets(seg: list[Span]) -> bool:
    return any(x.refs or x.has("type") or x.has("generic") or x.has("pronoun_sg")
               or x.has("pronoun_pl") or x.has("here") or x.is_residual for x in seg)


def _join_split_halves(segments: list[list[Span]]) -> list[list[Span]]:
    """"Включи, пожалуйста, свет" / "卧室的灯，关掉": a verb and its object split by commas are
    one command."""
    out: list[list[Span]] = []
    for seg in segments:
        if out:
            prev = out[-1]
            verb_then_object = _acts(prev) and not _targets(prev) and _targets(seg) \
                and not _acts(seg)
            object_then_verb = _targets(prev) and not _acts(prev) and _acts(seg) \
                and not _targets(seg)
            if verb_then_object or object_then_verb:
                prev.extend(seg)
                continue
        out.append(list(seg))
    return out


def _next_is_action(spans: list[Span], start: int) -> bool:
    for s in spans[start:]:
        if s.refs:
            return False
        if s.has("action") or s.has("particle_verb"):
            return True
        if s.only_filler:
            continue
        return False
    return False


@dataclass(slots=True)
class _Reading:
    """Mutable state while reading one command."""

    ir: QueryIR
    index: DeviceIndex
    lex: Lexicon
    type_spans: list[tuple[int, str]] = field(default_factory=list)
    excl_type_spans: list[tuple[int, str]] = field(default_factory=list)
    mention_at: dict[int, Mention] = field(default_factory=dict)
    last_place: tuple[str, set[str]] | None = None


def _types_inside(s: Span, lex: Lexicon) -> tuple[str, ...]:
    """Type words a name is made of ("Motion Sensor" → motion, sensor), longest first."""
    words = s.text.split(" ") if " " in s.text else list(s.text)
    keys = [lex.key(w) for w in words]
    found: list[str] = []
    i = 0
    while i < len(keys):
        for length in range(min(lex.max_phrase_len, len(keys) - i), 0, -1):
            types = [v for k, v in lex.lookup(tuple(keys[i : i + length])) if k == "type"]
            if types:
                found.append(types[0])
                i += length
                break
        else:
            i += 1
    return tuple(dict.fromkeys(found))


def _exclude_last_place(reading: _Reading) -> None:
    if reading.last_place is None:
        return
    kind, places = reading.last_place
    ir = reading.ir
    if kind == "area":
        ir.scope_include -= places
        ir.scope_exclude |= places
    else:
        ir.floor_include -= places
        ir.floor_exclude |= places
    reading.last_place = None


def _is_question(seg: list[Span]) -> bool:
    """A command is a question when a question word comes before any control verb.

    Words that can be either ("关了吗": "is it off?" or, after "帮我把…", "turn it off?")
    are read as a request when the command has a request marker ("帮我", "can you").
    """
    request = any(s.has("request") for s in seg if not s.refs)
    for s in seg:
        if s.refs:
            continue
        actions = set(s.values("action"))
        if not actions:
            continue
        if actions == {"query"}:
            return True
        if "query" in actions:
            return not request
        if actions - CONTROL_ACTIONS_EXCLUDED:
            return False
    return False


def _decide_action(seg: list[Span], lex: Lexicon, question: bool) -> tuple[str | None, str | None]:
    """The command's action and the type its wording implies ("light up" → light)."""
    control: list[tuple[str, str]] = []  # (action, phrase)
    for s in seg:
        if s.refs and not s.has("action"):
            continue
        for value in s.values("action"):
            if value != "query":
                control.append((value, s.text))
    if question:
        return "query", next((lex.action_types[p] for _, p in control if p in lex.action_types),
                             None)
    specific = [c for c in control if c[0].startswith("set_")]
    verbs = [c for c in control if not c[0].startswith("set_")]
    action: str | None = None
    phrase = ""
    if specific:
        action, phrase = specific[0]
    elif verbs:
        action, phrase = verbs[0]
    if action is None or action in ("set",):
        particle = _particle_action(seg)
        if particle and (action is None or particle in ("turn_on", "turn_off")):
            action = particle
    if action is None and _has_percentage(seg):
        action = "set"
    if action is None and any("query" in s.values("action") for s in seg if not s.refs):
        action = "query"
    implied = next((lex.action_types[p] for _, p in control if p in lex.action_types), None)
    if implied is None and action is not None:
        implied = lex.action_types.get(phrase) or lex.action_types.get(action)
    return action, implied


def _has_percentage(seg: list[Span]) -> bool:
    """"50%", "50 percent", "百分之50", "50 Prozent": a number said as a percentage."""
    for i, s in enumerate(seg):
        if not s.numeric and not s.has("number"):
            continue
        if s.text.endswith("%"):
            return True
        after = i + 1 < len(seg) and seg[i + 1].has("percent")
        if after or (i > 0 and seg[i - 1].has("percent")):
            return True
    return False


def _particle_action(seg: list[Span]) -> str | None:
    """"turn the lights on", "living room lights off": a verb particle carries the action."""
    has_verb = any(s.has("particle_verb") for s in seg)
    found: str | None = None
    for i, s in enumerate(seg):
        values = s.values("particle")
        if not values:
            continue
        rest = [x for x in seg[i + 1 :] if not x.only_filler and not x.has("here")
                and not x.has("everywhere")]
        trailing = not rest or all(x.home("area") or x.home("floor") or x.numeric for x in rest)
        if has_verb or trailing:
            found = values[0]
    return found


def _read_command(seg: list[Span], lex: Lexicon, lexicons: LexiconSet,
                  index: DeviceIndex, raw: str) -> QueryIR:
    question = _is_question(seg)
    action, implied = _decide_action(seg, lex, question)
    if implied is None and action == "set" and _has_percentage(seg):
        implied = lexicons.types.defaults.get("percent")
    ir = QueryIR(raw=raw, language=lex.language, action=action, implied_type=implied)
    # The word that gave the action ("lock it") is the verb, not also a type ("the lock").
    action_pos = -1 if action in (None, "query") else next(
        (i for i, x in enumerate(seg) if not x.refs and action in x.values("action")), -1)
    reading = _Reading(ir, index, lex)
    # "play <content> on <target>": what follows "play" is a title, not a device.
    content = _media_content(seg)
    in_exclusion = False
    residual_run: list[Span] = []
    # Residual runs: (spans, index of the span after them, said inside an exclusion).
    runs: list[tuple[list[Span], int, bool]] = []

    def flush(next_index: int) -> None:
        if residual_run:
            runs.append((list(residual_run), next_index, in_exclusion))
            residual_run.clear()

    for pos, s in enumerate(seg):
        if pos in content:
            flush(pos)
            continue
        if s.is_residual:
            if has_cjk(s.text) or len(s.text) > 1:
                residual_run.append(s)
            continue
        flush(pos)
        if not s.refs and s.has("exclusion") and not (question and s.has("state")):
            in_exclusion = True
            continue
        if not s.refs and (s.has("exclusion_suffix") or s.has("exclusion_postfix")):
            if not in_exclusion and s.text:
                # "310房间以外的灯": the place just said is what is left out.
                _exclude_last_place(reading)
            in_exclusion = False
            continue
        if s.refs:
            _read_home_span(s, reading, in_exclusion, pos)
            continue
        verb = (s.has("particle_verb") and any(x.has("particle") for x in seg[pos + 1 :])
                and not question) or (pos == action_pos and s.has("type"))
        _read_lexicon_span(s, reading, in_exclusion, question, pos, verb)
    flush(len(seg))

    consumed = _read_residual(runs, seg, reading, index, lex)
    consumed |= _attach_modifiers(reading, seg)
    free_types = [(p, t) for p, t in reading.type_spans if p not in consumed]
    ir.type_groups = _group_types(free_types, seg)
    ir.exclude_type_groups = _group_types(reading.excl_type_spans, seg)
    if ir.type_groups:
        ir.type_hint = ir.type_groups[0][0]
    # "除了卧室的灯都关掉": the type said inside the exclusion also names what to act on.
    if (not ir.type_groups and not ir.mentions and not ir.generic and not ir.labels
            and ir.exclude_type_groups and (ir.scope_exclude or ir.floor_exclude)):
        ir.type_groups = list(ir.exclude_type_groups)
        ir.exclude_type_groups = []
    if ir.scope_exclude or ir.floor_exclude or ir.exclude_mentions or ir.exclude_type_groups \
            or ir.exclude_labels:
        ir.quantifier = "except"
    ir.entity_mentions = [m.text for m in ir.mentions] + ir.phrases
    ir.confidence = _confidence(ir, seg)
    # Seed 004: a reading this unsure is worth handing to a language model if one is set up.
    ir.needs_fallback = ir.confidence < 0.6 or (ir.action is None and not ir.mentions)
    return ir


def _media_content(seg: list[Span]) -> set[int]:
    content: set[int] = set()
    start = next((i for i, s in enumerate(seg)
                  if "media_search_play" in s.values("action") and not s.refs), None)
    if start is None:
        return content
    i = start + 1
    while i < len(seg):
        s = seg[i]
        if s.has("target_prep") and not s.refs:
            # "on the TV", "in the living room": a target follows the preposition.
            j = i + 1
            while j < len(seg) and seg[j].only_filler and not seg[j].has("target_prep"):
                j += 1
            if j < len(seg) and seg[j].refs:
                break
        content.add(i)
        i += 1
    return content


def _read_home_span(s: Span, reading: _Reading, in_exclusion: bool, pos: int) -> None:
    ir = reading.ir
    entities = frozenset(r.target for r in s.home("entity"))
    areas = {r.target for r in s.home("area")}
    floors = {r.target for r in s.home("floor")}
    labels = {r.target for r in s.home("label")}
    type_ids = s.values("type")
    if entities:
        mention = Mention(text=s.text, entity_ids=entities, exact=s.exact,
                          type_id=type_ids[0] if type_ids else None,
                          inflected=s.inflected, types_inside=_types_inside(s, reading.lex))
        if in_exclusion:
            ir.exclude_mentions.append(mention)
        else:
            ir.mentions.append(mention)
            reading.mention_at[pos] = mention
        return
    if areas:
        (ir.scope_exclude if in_exclusion else ir.scope_include).update(areas)
        reading.last_place = None if in_exclusion else ("area", areas)
    elif floors:
        (ir.floor_exclude if in_exclusion else ir.floor_include).update(floors)
        reading.last_place = None if in_exclusion else ("floor", floors)
    elif labels:
        (ir.exclude_labels if in_exclusion else ir.labels).update(labels)


def _read_lexicon_span(s: Span, reading: _Reading, in_exclusion: bool, question: bool,
                       pos: int, verb_reading: bool = False) -> None:
    ir = reading.ir
    kinds = {k for k, _ in s.lex}
    if verb_reading:
        return
    if "type" in kinds and not ("state" in kinds and question):
        target = reading.excl_type_spans if in_exclusion else reading.type_spans
        target.append((pos, s.values("type")[0]))
        return
    if in_exclusion:
        return
    if "state" in kinds and (question or not kinds & {"everywhere", "action"}):
        ir.states.update(s.values("state"))
        return
    if "floor_rel" in kinds:
        floors = reading.index.relative_floors(s.values("floor_rel")[0])
        if floors:
            ir.floor_include.update(floors)
        else:
            ir.unknown_terms.append(s.text)
    elif "here" in kinds:
        ir.here = True
    elif "pronoun_pl" in kinds:
        ir.references.append(s.text)
        ir.reference_kind = "plural"
    elif "pronoun_sg" in kinds:
        ir.references.append(s.text)
        if ir.reference_kind != "plural":
            ir.reference_kind = "singular"
    elif "everywhere" in kinds:
        ir.everywhere = True
        if ir.quantifier == "one":
            ir.quantifier = "all"
    elif "quant_all" in kinds:
        ir.quantifier = "all"
        if "generic" in kinds:
            ir.generic = True
    elif "quant_any" in kinds:
        if ir.quantifier == "one":
            ir.quantifier = "any"
        if "generic" in kinds:
            ir.generic = True
    elif "generic" in kinds:
        ir.generic = True


def _group_types(type_spans: list[tuple[int, str]], seg: list[Span]) -> list[tuple[str, ...]]:
    """Adjacent type words narrow each other ("motion sensors"); "and"/"和" separates them."""
    groups: list[list[str]] = []
    last_pos = -10
    for pos, type_id in type_spans:
        between = seg[last_pos + 1 : pos] if last_pos >= 0 else []
        joined = groups and all(x.only_filler and not x.has("conj") for x in between) and \
            pos - last_pos <= 3
        if joined:
            if type_id not in groups[-1]:
                groups[-1].append(type_id)
        else:
            groups.append([type_id])
        last_pos = pos
    return [tuple(g) for g in groups]


def _read_residual(runs: list[tuple[list[Span], int, bool]], seg: list[Span],
                   reading: _Reading, index: DeviceIndex, lex: Lexicon) -> set[int]:
    """Words nothing explained: name fragments, unknown rooms, or noise.

    Returns the positions of type words that became part of a name fragment.
    """
    ir = reading.ir
    consumed: set[int] = set()
    type_at = dict(reading.type_spans)
    for run, after, excluded in runs:
        text = _join([s.text for s in run])
        # Part of the home's room names: "卧室" in a home of 主卧室/次卧室, "bedroom" in one
        # with "Master Bedroom" and "Guest Bedroom" means all of them.
        rooms = index.areas_containing(text, lex)
        if rooms:
            (ir.scope_exclude if excluded else ir.scope_include).update(rooms)
            ir.notes.append("room_partial_match")
            continue
        if excluded:
            ir.unknown_terms.append(text)
            continue
        before_idx = seg.index(run[0]) - 1
        before = seg[before_idx] if before_idx >= 0 else None
        # A fragment directly before a type word is part of a name: "落地灯", "pool lights".
        if after in type_at:
            phrase = _join([text, seg[after].text])
            ir.mentions.append(Mention(text=phrase, partial=True, type_id=type_at[after]))
            ir.phrases.append(phrase)
            ir.unknown_terms.append(text)
            consumed.add(after)
            continue
        nxt = seg[after] if after < len(seg) else None
        # "X的灯" / "X里的灯": a possessive or locative particle and then a type or nothing.
        if nxt is not None and nxt.only_filler and has_cjk(text):
            nxt2 = seg[after + 1] if after + 1 < len(seg) else None
            if nxt2 is None or nxt2.has("type") or nxt2.has("generic") or nxt2.has("action") \
                    or nxt2.has("quant_all"):
                ir.unknown_rooms.append(text)
                ir.unknown_terms.append(text)
                continue
        back = before_idx
        while back > 0 and seg[back].only_filler and not seg[back].has("area_prep"):
            back -= 1
        before = seg[back] if back >= 0 else None
        if before is not None and before.has("area_prep") and not before.refs \
                and not has_cjk(text) and (nxt is None or not nxt.refs):
            ir.unknown_rooms.append(text)
            ir.unknown_terms.append(text)
            continue
        ir.unknown_terms.append(text)
        if nxt is not None and nxt.home("entity"):
            continue
        if len(text) >= (2 if has_cjk(text) else 3):
            ir.phrases.append(text)
    return consumed


def _passable(x: Span) -> bool:
    """Words that may stand between a name and the type word describing it."""
    if x.refs or x.has("conj") or x.punct is not None:
        return False
    return x.only_filler or x.is_residual or x.has("state") or x.has("media") or (
        bool(x.values("action")) and set(x.values("action")) == {"query"})


def _attach_modifiers(reading: _Reading, seg: list[Span]) -> set[int]:
    """Type words said with a name narrow that name ("the phone battery", "Heat pump CO
    sensor's carbon monoxide") unless a conjunction makes them a target of their own."""
    consumed: set[int] = set()
    ir = reading.ir
    if not reading.mention_at:
        return consumed
    # A type word that is also a name ("lights" ~ "Light", "gas" ~ "Gas") next to another
    # name describes that name: "play corner lights", "monthly gas consumption's gas".
    for mpos, mention in list(reading.mention_at.items()):
        if mention.type_id is None:
            continue
        host = _nearest_mention(mpos, reading, seg, exclude=mpos)
        if host is not None:
            host.modifiers = (*host.modifiers, mention.type_id)
            ir.mentions.remove(mention)
            del reading.mention_at[mpos]
    for pos, type_id in reading.type_spans:
        host = _nearest_mention(pos, reading, seg)
        if host is not None:
            host.modifiers = (*host.modifiers, type_id)
            consumed.add(pos)
    return consumed


def _nearest_mention(pos: int, reading: _Reading, seg: list[Span],
                     exclude: int | None = None) -> Mention | None:
    best: tuple[int, Mention] | None = None
    for mpos, mention in reading.mention_at.items():
        if mpos == exclude or mention.partial or (exclude is not None and mention.type_id):
            continue
        lo, hi = sorted((pos, mpos))
        if all(_passable(x) for x in seg[lo + 1 : hi]):
            distance = hi - lo
            if best is None or distance < best[0]:
                best = (distance, mention)
    return best[1] if best else None


def _confidence(ir: QueryIR, seg: list[Span]) -> float:
    target = bool(ir.mentions or ir.type_groups or ir.labels or ir.references or ir.generic
                  or ir.scope_include or ir.floor_include or ir.implied_type or ir.states)
    residual = any(s.is_residual for s in seg)
    score = 0.4 + (0.3 if ir.action else 0.0) + (0.2 if target else 0.0)
    score += 0.0 if residual else 0.1
    if ir.unknown_rooms:
        score -= 0.2
    return round(max(0.0, min(1.0, score)), 2)


def compile_commands(analysis: Analysis, index: DeviceIndex, lexicons: LexiconSet) -> list[QueryIR]:
    """Every command of the analysed utterance, in order (seed 001: several per utterance)."""
    lex = lexicons.get(analysis.language)
    commands: list[QueryIR] = []
    for seg in _split_commands(analysis.spans):
        raw = _join([s.text for s in seg if s.text]) if seg else analysis.norm
        ir = _read_command(seg, lex, lexicons, index, raw)
        has_target = bool(ir.mentions or ir.type_groups or ir.labels or ir.generic or
                          ir.scope_include or ir.floor_include or ir.references or ir.phrases or
                          ir.here or ir.scope_exclude or ir.floor_exclude or ir.states)
        if commands and ir.action is None and has_target:
            # "turn on the porch light, and the hallway light": the action carries over.
            ir.action = commands[-1].action
            ir.implied_type = ir.implied_type or commands[-1].implied_type
            ir.notes.append("action_inherited")
        elif commands and not has_target and ir.action is None:
            continue
        commands.append(ir)
    if not commands:
        commands.append(QueryIR(raw=analysis.norm, language=lex.language, confidence=0.0))
    for ir in commands:
        if analysis.corrections:
            ir.notes.append("spelling_repaired")
    return commands


def compile_utterance(text: str, index: DeviceIndex, lexicons: LexiconSet,
                      language: str | None = None) -> tuple[Analysis, list[QueryIR]]:
    analysis = analyze(text, index, lexicons, language)
    return analysis, compile_commands(analysis, index, lexicons)
