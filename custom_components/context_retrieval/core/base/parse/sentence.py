"""What kind of sentence a command is: a question or a request, which action its verbs say,
whether it names only a target, lacks a value it promises, or asks without a verb; and how sure
the reading is."""

from __future__ import annotations

from ..actions import ACTION_RANK, GENERIC_RANK, MEDIA_VARIANTS
from ..lexicon import Lexicon, LexiconSet
from ..models import QueryIR
from ..text import tokens
from .spans import Span

# Actions that ask rather than act: a question word, not a control verb.
CONTROL_ACTIONS_EXCLUDED = frozenset({"query"})


def is_question(seg: list[Span], lex: Lexicon) -> bool:
    """A command is a question when a question word comes before any control verb.

    Words that can be either ("关了吗": "is it off?" or, after "帮我把…", "turn it off?")
    are read as a request when the command has a request marker ("帮我", "can you").
    """
    # Thanks said after the question ("天窗是打开的吗，谢谢") does not move its end.
    last = next((s for s in reversed(seg) if s.text and not _trailing(s)), None)
    closed_by_particle = last is not None and not last.refs and last.text in lex.question_particles
    if any(s.has("condition") and not s.refs for s in seg) and not any(
        s.punct in ("?", "？") for s in seg
    ):
        # "Im Schlafzimmer ist es viel zu warm": a complaint, not a question about a state;
        # "is it too dark in the office", "书房是不是太暗了" ask (spoken, with no "?").
        return closed_by_particle or _asked_with_a_question_word(seg)
    request = any(s.has("request") for s in seg if not s.refs)
    if closed_by_particle:
        # "天窗是打开的吗": a question particle closing the sentence makes it a question,
        # whatever verb came before ("打开" is also "turn on").
        return not request
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


def _asked_with_a_question_word(seg: list[Span]) -> bool:
    """Opened by a word that asks ("is it …", "ist es …", "est-ce qu'il …"), or holding one
    that can only ask ("是不是"): in the middle, "is" and "ist" also state ("the office is too
    dark", "im Büro ist es zu dunkel")."""
    words = [s for s in seg if s.text and not s.punct and not s.refs]
    if not words:
        return False
    if words[0].values("action") == ["query"]:
        return True
    return any(s.values("action") == ["query"] and not s.has("filler") for s in words)


def _trailing(span: Span) -> bool:
    """A mark or a word that is only politeness: nothing a sentence ends on."""
    if span.refs:
        return False
    return bool(span.punct) or (bool(span.lex) and all(kind == "filler" for kind, _ in span.lex))


def decide_action(seg: list[Span], lex: Lexicon, question: bool) -> tuple[str | None, str | None]:
    """The command's action and the type its wording implies ("light up" → light)."""
    control: list[tuple[str, str, int]] = []  # (action, phrase, its length in words)
    after_article: list[tuple[str, str, int]] = []
    in_names: list[tuple[str, str, int]] = []
    for i, s in enumerate(seg):
        if s.refs and not s.has("action"):
            continue
        if s.home("area") or s.home("floor"):
            # "车库里黑乎乎的": a room's name is no verb, whatever a learned word says.
            continue
        # "turn on the lock": a verb that is also a device's kind, said after an article, is
        # that kind.
        noun = i > 0 and seg[i - 1].has("determiner") and not seg[i - 1].refs and s.has("type")
        # "turn on the daylight" (a lamp so named): a name's own verb only when none other.
        said = in_names if s.refs else after_article if noun else control
        for value in s.values("action"):
            if value != "query":
                said.append((value, s.text, s.length))
    control = control or after_article or in_names
    if question:
        return "query", next(
            (lex.action_types[p] for _, p, _ in control if p in lex.action_types), None
        )
    action: str | None = None
    phrase = ""
    if control:
        # Of two actions as precise as each other, the one said in more words says more:
        # "vuelva a la base" returns to the base ("vuelva" alone would be the previous track).
        action, phrase, _ = min(control, key=lambda c: (ACTION_RANK.get(c[0], GENERIC_RANK), -c[2]))
    if action in MEDIA_VARIANTS and any(s.has("media") and not s.refs for s in seg):
        action = MEDIA_VARIANTS[action]
    if action is None or action in ("set", "toggle"):
        # "flip the lights off": the particle says which way ("flip" alone toggles).
        particle = _particle_action(seg)
        if particle and (action is None or particle in ("turn_on", "turn_off")):
            action = particle
    if action is None and has_percentage(seg):
        action = "set"
    if action is None and any("query" in s.values("action") for s in seg if not s.refs):
        action = "query"
    implied = next((lex.action_types[p] for _, p, _ in control if p in lex.action_types), None)
    if implied is None and action is not None:
        implied = lex.action_types.get(phrase) or lex.action_types.get(action)
    return action, implied


def has_percentage(seg: list[Span]) -> bool:
    """ "50%", "50 percent", "百分之50", "50 Prozent": a number said as a percentage."""
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
    """ "turn the lights on", "living room lights off": a verb particle carries the action."""
    has_verb = any(s.has("particle_verb") for s in seg)
    found: str | None = None
    for i, s in enumerate(seg):
        values = s.values("particle")
        if not values:
            continue
        rest = []
        for x in seg[i + 1 :]:
            if x.has("exclusion") and not x.refs:
                break  # "everything off except the kitchen": what follows is left out
            if (
                not x.only_filler
                and not x.has("here")
                and not x.has("there")
                and not x.has("everywhere")
            ):
                rest.append(x)
        trailing = not rest or all(x.home("area") or x.home("floor") or x.numeric for x in rest)
        if has_verb or trailing:
            found = values[0]
    return found


def media_content(seg: list[Span]) -> set[int]:
    content: set[int] = set()
    start = next(
        (i for i, s in enumerate(seg) if "media_search_play" in s.values("action") and not s.refs),
        None,
    )
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


# Words that may stand around a bare target: articles, prepositions, "here", "all".
_AROUND_A_TARGET = frozenset(
    {"determiner", "area_prep", "target_prep", "here", "there", "conj", "quant_all", "everywhere"}
)


def only_a_target(seg: list[Span]) -> bool:
    """Whether the command is a place or a device and nothing else ("kitchen", "the ceiling
    lights"). A word of any other kind, even one the language data reads as a filler, may be
    a verb the data lacks, so the command is then not only a target."""
    said = False
    for s in seg:
        if s.refs:
            said = True
            continue
        if not s.text:
            continue
        kinds = {k for k, _ in s.lex}
        if s.is_residual or s.numeric or not kinds:
            return False
        if kinds & {"type", "generic"}:
            said = True
            continue
        if not (kinds & _AROUND_A_TARGET and kinds <= _AROUND_A_TARGET | {"filler"}):
            return False
    return said


def value_missing(ir: QueryIR, seg: list[Span], lex: Lexicon) -> bool:
    """A set command whose value is words nothing explains ("set the lamp banana potato
    tomato"): no number, no named value, no direction, no setting word ("heat", "max"), and
    the unexplained words come after the verb and the target, where the value would be (an
    unknown word before them may be a verb the data lacks: "restaura el volumen"). Only in a
    language whose data names values and directions, or every unknown word would look so."""
    if ir.action != "set" and not (ir.action or "").startswith("set_"):
        return False
    if ir.value is not None or ir.change is not None or not ir.unknown_terms:
        return False
    if not any(c == "change" for found in lex.value_names.values() for c, _ in found):
        return False
    if any(_says_a_value(s) for s in seg):
        return False
    last_known = max(
        (i for i, s in enumerate(seg) if s.refs or s.values("action") or s.has("type")),
        default=-1,
    )
    return any(s.is_residual for s in seg[last_known + 1 :])


# Kinds a word may also have and still not be a value ("auf" is a particle, not a setting).
_NOT_VALUES = frozenset({"particle", "target_prep", "area_prep", "filler", "determiner"})


def _says_a_value(s: Span) -> bool:
    if s.refs:
        return False
    kinds = {k for k, _ in s.lex}
    return s.numeric or ("value" in kinds and not kinds & _NOT_VALUES)


def asks_without_a_verb(ir: QueryIR, seg: list[Span], lex: Lexicon, lexicons: LexiconSet) -> bool:
    """A command with no verb that names a state ("the door is locked"), a status ("Лампа
    включена") or a type that is read rather than switched ("kitchen temperature") asks."""
    if ir.states:
        return True
    said = {t for group in ir.type_groups for t in group}
    said |= {m.type_id for m in ir.mentions if m.type_id}
    said |= {t for m in ir.mentions for t in m.modifiers}
    if said & lexicons.types.asked_alone:
        return True
    for s in seg:
        if s.refs or not s.text:
            continue
        readings = lex.question_phrases.get(tuple(tokens(s.text)), [])
        if any(kind == "status" for kind, _ in readings):
            return True
    return False


def asks_for_several(seg: list[Span], pos: int, lex: Lexicon) -> bool:
    """ "which windows", "how many lights", "welche Fenster": a plural marker or a count
    question right before the words asks about several, even where the plural looks like the
    singular."""
    back = pos - 1
    while back >= 0 and seg[back].only_filler and not seg[back].values("action"):
        back -= 1
    if back < 0 or seg[back].refs:
        return False
    said = tuple(tokens(seg[back].text))
    if said in lex.plural_markers:
        return True
    readings = lex.question_phrases.get(said, [])
    return any(kind == "kind" and value == "count" for kind, value in readings)


def command_confidence(ir: QueryIR, seg: list[Span]) -> float:
    target = bool(
        ir.mentions
        or ir.type_groups
        or ir.labels
        or ir.references
        or ir.generic
        or ir.scope_include
        or ir.floor_include
        or ir.implied_type
        or ir.states
    )
    residual = any(s.is_residual for s in seg)
    score = 0.4 + (0.3 if ir.action else 0.0) + (0.2 if target else 0.0)
    score += 0.0 if residual else 0.1
    if ir.unknown_rooms:
        score -= 0.2
    return round(max(0.0, min(1.0, score)), 2)
