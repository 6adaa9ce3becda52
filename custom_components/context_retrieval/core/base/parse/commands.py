"""Commands of an utterance: where one ends and the next begins, each read into a `QueryIR`.

An utterance may hold several commands ("turn on the porch light and then close the blinds",
"打开客厅的灯然后把空调调到25度"). It is cut at clause breaks, at "then"/"然后", and at "and"
when a new action follows; a clause that only says what to leave out belongs to its neighbour.
"""

from __future__ import annotations

from ..index import DeviceIndex
from ..lexicon import LexiconSet
from ..models import QueryIR
from .analysis import analyze
from .reading import read_command
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


def _marker(kind: str) -> Span:
    """A span the utterance did not contain, marking where a clause began or ended."""
    return Span(-1, -1, "", lex=[(kind, "")])


def _acts(seg: list[Span]) -> bool:
    return any(
        not x.refs and (set(x.values("action")) - {"query"} or x.has("particle")) for x in seg
    )


def _targets(seg: list[Span]) -> bool:
    return any(
        x.refs
        or x.has("type")
        or x.has("generic")
        or x.has("pronoun_sg")
        or x.has("pronoun_pl")
        or x.has("here")
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


def compile_commands(analysis: Analysis, index: DeviceIndex, lexicons: LexiconSet) -> list[QueryIR]:
    """Every command of the analysed utterance, in order; at least one."""
    lex = lexicons.get(analysis.language)
    commands: list[QueryIR] = []
    for seg in split_commands(analysis.spans):
        raw = join_tokens([s.text for s in seg if s.text]) if seg else analysis.norm
        ir = read_command(seg, lex, lexicons, index, raw)
        has_target = bool(
            ir.mentions
            or ir.type_groups
            or ir.labels
            or ir.generic
            or ir.scope_include
            or ir.floor_include
            or ir.references
            or ir.phrases
            or ir.here
            or ir.scope_exclude
            or ir.floor_exclude
            or ir.states
        )
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
    if commands[-1].action is None and analysis.norm.rstrip().endswith(QUESTION_MARKS):
        # "kitchen lights?": said as a question, it asks.
        commands[-1].action = "query"
    return commands


def compile_utterance(
    text: str, index: DeviceIndex, lexicons: LexiconSet, language: str | None = None
) -> tuple[Analysis, list[QueryIR]]:
    analysis = analyze(text, index, lexicons, language)
    return analysis, compile_commands(analysis, index, lexicons)
