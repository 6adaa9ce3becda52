"""Commands of an utterance: where one ends and the next begins, each read into a `QueryIR`.

An utterance may hold several commands ("turn on the porch light and then close the blinds",
"打开客厅的灯然后把空调调到25度"). It is cut at clause breaks, at "then"/"然后", and at "and"
when a new action follows; a clause that only says what to leave out belongs to its neighbour.

One action said of several targets joined by "and" ("turn on the reading light and the kitchen
ceiling light", "打开阅读灯和厨房的吸顶灯") is one command per target: a room said with one of
them belongs to that one. What the first target's words say and the others' do not (the action,
"all", the value) is shared, and a target said without a room is looked for first in the room
its neighbours name ("客厅的阅读灯和吸顶灯", "the lamp and the fan in the bedroom"), and in the
whole home when that room has none of it.
"""

from __future__ import annotations

from ..index import DeviceIndex
from ..lexicon import Lexicon, LexiconSet
from ..models import Note, QueryIR
from .analysis import analyze
from .reading import read_command
from .sentence import is_question
from .sharing import inherit_action, share_a_closing_place, share_between_conjuncts
from .spans import CLAUSE_PUNCT, Analysis, Span, join_tokens

QUESTION_MARKS = ("?", "？")


def split_commands(spans: list[Span]) -> list[list[Span]]:
    """Cut at clause breaks; "and" cuts only when a new action follows it."""
    segments: list[list[Span]] = [[]]
    for i, s in enumerate(spans):
        if s.punct is not None and s.punct in CLAUSE_PUNCT:
            segments.append([])
            continue
        if s.has("split") and not s.refs:
            segments.append([])
            continue
        if s.has("conj") and not s.refs and _next_is_action(spans, i + 1):
            segments.append([])
            continue
        segments[-1].append(s)
    said = [seg for seg in segments if any(not x.only_filler for x in seg)]
    # An utterance of value words alone ("再高两度", "a bit more") is still one command.
    segments = said or [seg for seg in segments if any(x.numeric or x.has("value") for x in seg)]
    segments = _join_split_halves(segments)
    # A clause that only says what to leave out ("除了109房间，…", "…，407房间的除外") belongs to
    # its neighbour command; a marker ends the exclusion where the clause ended.
    merged: list[list[Span]] = []
    pending_exclusion: list[Span] = []
    for n, seg in enumerate(segments):
        negated = _negated_action(seg)
        if negated:
            seg = _unsaid(seg, negated, bool(merged or n + 1 < len(segments)))
        elif merged and _negates_without_verb(seg):
            # "schalte alle Lichter aus, die Küche nicht": the action is the one before.
            seg = [_marker("exclusion"), *(x for x in seg if x.refs or not x.has("negation"))]
        elif len(segments) == 1 and _negates_without_verb(seg) and _tells(seg):
            # Said alone ("not the living room", "客厅的不要"): no action of the last turn is
            # this one's (it switched on what the user had just said not to).
            seg = [_marker("negation_alone"), *seg]
        if _leaves_out_all(seg):
            # "turn off the lights but not all of them": which to leave is not said.
            seg = [_marker("negated"), *seg]
        first = next((x for x in seg if not x.only_filler), None)
        postfix = any(x.has("exclusion_postfix") and not x.refs for x in seg) or (
            _keeps_beside_another(seg, bool(merged or n + 1 < len(segments)))
        )
        if postfix or (first is not None and first.has("exclusion") and not first.refs):
            clause = (
                ([_marker("exclusion")] if postfix else []) + seg + [_marker("exclusion_suffix")]
            )
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


def _leaves_out_all(seg: list[Span]) -> bool:
    """An exclusion of nothing but "all" ("but not all of them", "但不要全部"): how many,
    never which."""
    for k, x in enumerate(seg):
        if not x.leaves_out:
            continue
        rest = [y for y in seg[k + 1 :] if y.punct is None]
        alls = [y for y in rest if not y.refs and (y.has("quant_all") or y.has("answer_all"))]
        if alls and all(y.only_filler or y in alls or y.has("pronoun_pl") for y in rest):
            return True
    return False


def _keeps_beside_another(seg: list[Span], beside_another: bool) -> bool:
    """ "把灯都关了，卧室的留着", "…, the kitchen stays on": a clause with no verb of its own
    that keeps what it names, after its word, leaves that out of the command beside it (it
    switched them off by themselves); "on" there is the state kept, not an action."""
    named = any(x.refs or x.has("type") or x.has("generic") for x in seg)
    return beside_another and not _says_a_verb(seg) and named and any(x.leaves_out for x in seg)


def _negated_action(seg: list[Span]) -> set[int]:
    """Positions of the negations and the actions they negate ("别" "关", "don't" "turn
    off", "nicht" … "aus") in a clause that is not a question: each negation takes the first
    action after it, or else the one before it."""
    if any("query" in x.values("action") for x in seg if not x.refs):
        return set()
    acting = [
        k
        for k, x in enumerate(seg)
        if not x.refs
        and not x.has("negation")
        and (set(x.values("action")) - {"query"} or x.has("particle"))
    ]
    out: set[int] = set()
    for k, x in enumerate(seg):
        if x.refs or not x.has("negation"):
            continue
        after = [a for a in acting if a > k and a not in out]
        before = [a for a in acting if a < k and a not in out]
        negated = after[0] if after else (before[-1] if before else None)
        if negated is not None:
            out |= {k, negated}
    return out


def _negates_without_verb(seg: list[Span]) -> bool:
    """A clause of a negation and a target, no verb: "die Küche nicht", "主卧的不要"."""
    return any(not x.refs and x.has("negation") for x in seg) and _targets(seg) and not _acts(seg)


def _tells(seg: list[Span]) -> bool:
    """No question and no state said: "不是客厅", not "开着不", "是不是锁着的", "никого нет"."""
    return not any(not x.refs and ("query" in x.values("action") or x.has("state")) for x in seg)


def _unsaid(seg: list[Span], negated: set[int], beside_another: bool) -> list[Span]:
    """The clause with its negated actions taken out. What a negation is said of is left out
    of what the clause (or, with no action of its own, the command beside it) does: "turn off
    all the lights but don't turn off the kitchen", "把空调都关了，主卧的别关". Said alone with
    nothing else to do ("别关灯") it commands nothing."""
    acts_too = any(
        k not in negated
        and not x.refs
        and (set(x.values("action")) - {"query"} or x.has("particle"))
        for k, x in enumerate(seg)
    )
    out: list[Span] = []
    for k, x in enumerate(seg):
        if k not in negated:
            out.append(x)
        elif x.has("negation") and acts_too and not any(y.has("exclusion") for y in out):
            at = _said_before_the_negation(seg, k)
            kept_before = sum(1 for j in range(at) if j not in negated)
            out.insert(kept_before, _marker("exclusion"))
    if acts_too:
        return out
    if any(x.has("quant_all") and not x.refs for x in out):
        # "客厅的灯不要全开，只开阅读灯" (don't turn them all on, only the reading light):
        # "not all" says how many, never which to leave out of the command beside it.
        return [_marker("negated"), *out]
    return [_marker("exclusion" if beside_another else "negated"), *out]


def _said_before_the_negation(seg: list[Span], k: int) -> int:
    """Where what the negation at `k` is said of begins. After it ("don't turn off the
    kitchen") that is the negation itself; with nothing named after it, the one thing named
    right before it, with its place ("打开鱼缸圣诞树不要关", "…主卧的空调别关": the tree was
    switched on)."""
    if any(s.says_what or s.says_where for s in seg[k + 1 :]):
        return k
    at, things = k, 0
    for j in range(k - 1, -1, -1):
        s = seg[j]
        if s.says_what:
            things += 1
            if things > 1:
                break
            at = j
        elif s.says_where:
            at = j
        elif not s.only_filler or s.values("action"):
            break
    return at


def _marker(kind: str) -> Span:
    """A span the utterance did not contain, marking where a clause began or ended."""
    return Span(-1, -1, "", lex=[(kind, "")])


def _says_a_verb(seg: list[Span]) -> bool:
    """A word of the clause's own (not part of a name) that acts; asking is not acting."""
    return any(set(x.values("action")) - {"query"} for x in seg if not x.refs)


def _acts(seg: list[Span]) -> bool:
    """A verb, or a particle that stands for one ("on", "aus")."""
    return _says_a_verb(seg) or any(not x.refs and x.has("particle") for x in seg)


def _targets(seg: list[Span]) -> bool:
    return any(
        x.refs
        or x.has("type")
        or x.has("generic")
        or x.has("pronoun_sg")
        or x.has("pronoun_pl")
        or x.has("here")
        or x.has("there")
        or x.is_residual
        for x in seg
    )


def _join_split_halves(segments: list[list[Span]]) -> list[list[Span]]:
    """ "Включи, пожалуйста, свет" / "卧室的灯，关掉": a verb and its object split by commas are
    one command."""
    out: list[list[Span]] = []
    for seg in segments:
        if out:
            prev = out[-1]
            verb_then_object = (
                _acts(prev) and not _targets(prev) and _targets(seg) and not _acts(seg)
            )
            object_then_verb = (
                _targets(prev) and not _acts(prev) and _acts(seg) and not _targets(seg)
            )
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


def _a_part_of_its_own(part: list[Span]) -> bool:
    """What follows "and" is a target of its own, or a place with an action of its own ("…
    and off in the living room", "… und im Wohnzimmer aus")."""
    if any(s.says_what for s in part):
        return True
    placed = any(s.home("area") or s.home("floor") for s in part)
    return placed and _acts([s for s in part if not s.refs])


def split_conjuncts(seg: list[Span], lex: Lexicon) -> list[list[Span]]:
    """ "turn on A and the kitchen B": one part per target joined by "and". A command that
    leaves something out ("all … except A and B"), asks ("are A and B on?") or plays a title
    ("play rock and roll") stays whole."""
    if is_question(seg, lex) or any(
        s.leaves_out or (not s.refs and "media_search_play" in s.values("action")) for s in seg
    ):
        return [seg]
    cuts = [i for i, s in enumerate(seg) if s.has("conj") and not s.refs]
    parts: list[list[Span]] = []
    start = 0
    for n, cut in enumerate(cuts):
        end = cuts[n + 1] if n + 1 < len(cuts) else len(seg)
        if any(s.says_what for s in seg[start:cut]) and _a_part_of_its_own(seg[cut + 1 : end]):
            parts.append(seg[start:cut])
            start = cut + 1
    parts.append(seg[start:])
    return parts


def compile_commands(analysis: Analysis, index: DeviceIndex, lexicons: LexiconSet) -> list[QueryIR]:
    """Every command of the analysed utterance, in order; at least one."""
    lex = lexicons.get(analysis.language)
    groups: list[tuple[list[Span], list[QueryIR]]] = []
    for seg in split_commands(analysis.spans):
        conjuncts = split_conjuncts(seg, lex)
        parts = [
            read_command(
                part,
                lex,
                lexicons,
                index,
                join_tokens([s.text for s in part if s.text]) if part else analysis.norm,
            )
            for part in conjuncts
        ]
        if len(parts) > 1:
            share_between_conjuncts(parts, conjuncts, lexicons.values.actions)
        groups.append((seg, parts))
    share_a_closing_place(groups, analysis.spans)
    read = [ir for _, parts in groups for ir in parts]
    commands: list[QueryIR] = []
    for ir in read:
        has_target = bool(
            ir.says_what
            or ir.names_a_place
            or ir.references
            or ir.phrases
            or ir.here
            or ir.scope_exclude
            or ir.floor_exclude
            or ir.states
        )
        if commands and ir.action is None and has_target:
            # "turn on the porch light, and the hallway light": the action carries over.
            inherit_action(ir, commands[-1])
        elif commands and not has_target and ir.action is None:
            continue
        commands.append(ir)
    if not commands:
        commands.append(QueryIR(raw=analysis.norm, language=lex.language, confidence=0.0))
    for ir in commands:
        if analysis.corrections:
            ir.notes.append(Note.SPELLING_REPAIRED)
    if commands[-1].action is None and analysis.norm.rstrip().endswith(QUESTION_MARKS):
        # "kitchen lights?": said as a question, it asks.
        commands[-1].action = "query"
    return commands


def compile_utterance(
    text: str, index: DeviceIndex, lexicons: LexiconSet, language: str | None = None
) -> tuple[Analysis, list[QueryIR]]:
    analysis = analyze(text, index, lexicons, language)
    return analysis, compile_commands(analysis, index, lexicons)
