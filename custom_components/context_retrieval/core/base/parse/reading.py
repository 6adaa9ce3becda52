"""Reading one command: which words give the action, the target, the place and the quantity.

The command's spans are read left to right (`span_reading`), after the sentence as a whole
has said what kind it is (`sentence`: a question, the action its verbs say); then the value
it carries and the notes on what it lacks are settled here.
"""

from __future__ import annotations

from dataclasses import replace

from ..index import DeviceIndex
from ..lexicon import Lexicon, LexiconSet
from ..models import Note, QueryIR
from ..text import has_cjk, tokens
from .residual import attach_modifiers, read_residual
from .sentence import (
    asks_for_several,
    asks_without_a_verb,
    command_confidence,
    decide_action,
    has_percentage,
    is_question,
    media_content,
    only_a_target,
    value_missing,
)
from .span_reading import (
    Reading,
    also_a_place_or_state,
    exclude_last_place,
    group_types,
    read_as_place_and_type,
    read_home_span,
    read_lexicon_span,
    reads_as_word,
    room_said_as_place,
    target_said_otherwise,
)
from .spans import Span
from .values import Setting, read_count, read_setting, settle_setting

# Spans read once the rest of the command is read: (position, span, said inside an exclusion).
_Later = list[tuple[int, Span, bool]]
# Residual runs: (spans, index of the span after them, said inside an exclusion).
_Runs = list[tuple[list[Span], int, bool]]


def read_command(
    seg: list[Span], lex: Lexicon, lexicons: LexiconSet, index: DeviceIndex, raw: str
) -> QueryIR:
    question = is_question(seg, lex)
    ir, action_pos = _started(seg, lex, lexicons, raw, question)
    reading = Reading(ir, index, lex)
    runs, deferred, places = _walked(seg, reading, lex, question, action_pos)
    _read_later(deferred, places, reading, lexicons, question)
    consumed = read_residual(runs, seg, reading, index, lex)
    consumed |= attach_modifiers(reading, seg)
    _settle_types(ir, reading, seg, consumed)
    setting = None if question else read_setting(seg, lex, lexicons.values.unit_symbols)
    _settle_unsaid_action(ir, seg, lex, lexicons, question, setting)
    _note(ir, seg, lex)
    if setting is not None:
        # "todas y cada una de las luces", "each and every one of the lights": all of them.
        ir.count = read_count(seg, lex) if ir.quantifier != "all" else None
        said = ir.action
        settle_setting(ir, setting, lexicons)
        if ir.action != said and ir.action is not None:
            ir.implied_type = lex.action_types.get(ir.action) or lexicons.types.defaults.get(
                ir.action, ir.implied_type
            )
    ir.confidence = command_confidence(ir, seg)
    return ir


def _started(
    seg: list[Span], lex: Lexicon, lexicons: LexiconSet, raw: str, question: bool
) -> tuple[QueryIR, int]:
    """The command with the action its verbs say and the type it implies, and where the word
    that gave the action stands (-1 when none did)."""
    action, implied = decide_action(seg, lex, question)
    if implied is None and action == "set" and has_percentage(seg):
        implied = lexicons.types.defaults.get("percent")
    if implied is None and action is not None:
        implied = lexicons.types.defaults.get(action)
    ir = QueryIR(raw=raw, language=lex.language, action=action, implied_type=implied)
    # The word that gave the action ("lock it") is the verb, not also a type ("the lock").
    action_pos = (
        -1
        if action in (None, "query")
        else next((i for i, x in enumerate(seg) if not x.refs and action in x.values("action")), -1)
    )
    return ir, action_pos


def _walked(
    seg: list[Span], reading: Reading, lex: Lexicon, question: bool, action_pos: int
) -> tuple[_Runs, _Later, _Later]:
    """Every span read left to right; the residual runs, and the spans whose reading waits
    for the rest of the command, are handed back."""
    # "play <content> on <target>": what follows "play" is a title, not a device.
    content = media_content(seg)
    in_exclusion = False
    residual_run: list[Span] = []
    deferred: _Later = []
    places: _Later = []
    runs: _Runs = []

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
                exclude_last_place(reading)
            in_exclusion = False
            continue
        if s.refs and also_a_place_or_state(s):
            # "is anyone home" in a home with a weather entity called "Home": decided once the
            # rest of the command is read.
            deferred.append((pos, s, in_exclusion))
            continue
        if s.refs and room_said_as_place(seg, pos):
            # "свет в кабинете" in a home with a sensor also called "Кабинете": decided once
            # the rest of the command is read.
            places.append((pos, s, in_exclusion))
            continue
        if s.refs:
            _read_named(seg, pos, reading, lex, in_exclusion)
            continue
        verb = (
            s.has("particle_verb")
            and any(x.has("particle") for x in seg[pos + 1 :])
            and not question
        ) or (pos == action_pos and s.has("type"))
        read_lexicon_span(s, reading, in_exclusion, question, pos, verb)
    flush(len(seg))
    return runs, deferred, places


def _read_named(seg: list[Span], pos: int, reading: Reading, lex: Lexicon, excluded: bool) -> None:
    """A span that names something of the home, said of one or of several."""
    s = seg[pos]
    several = s.inflected and not s.exact
    several = several or asks_for_several(seg, pos, lex)
    several = several or reading.ir.quantifier in ("all", "any")
    if not (several and read_as_place_and_type(s, reading, excluded, pos)):
        read_home_span(s, reading, excluded, pos, several)


def _read_later(
    deferred: _Later, places: _Later, reading: Reading, lexicons: LexiconSet, question: bool
) -> None:
    """The spans that waited: a name that is also a word or a state, a room said as a place."""
    for pos, s, excluded in deferred:
        if reads_as_word(s, reading, lexicons):
            read_lexicon_span(s, reading, excluded, question, pos)
        else:
            read_home_span(s, reading, excluded, pos)
    for pos, s, excluded in places:
        if target_said_otherwise(s, reading, lexicons):
            s = replace(s, refs=[r for r in s.refs if r.kind != "entity"])
        read_home_span(s, reading, excluded, pos)


def _settle_types(ir: QueryIR, reading: Reading, seg: list[Span], consumed: set[int]) -> None:
    """The type words left free, those said inside an exclusion, and the quantifier."""
    free_types = [(p, t) for p, t in reading.type_spans if p not in consumed]
    ir.type_groups = group_types(free_types, seg)
    ir.type_words = [seg[p].text for p, _ in free_types]
    ir.several = any(seg[p].inflected for p, _ in free_types) or any(
        m.inflected for m in ir.mentions
    )
    ir.exclude_type_groups = group_types(reading.excl_type_spans, seg)
    # "除了卧室的灯都关掉": the type said inside the exclusion also names what to act on.
    if (
        not ir.type_groups
        and not ir.mentions
        and not ir.generic
        and not ir.labels
        and ir.exclude_type_groups
        and (ir.scope_exclude or ir.floor_exclude)
    ):
        ir.type_groups = list(ir.exclude_type_groups)
        ir.exclude_type_groups = []
    if (
        ir.scope_exclude
        or ir.floor_exclude
        or ir.exclude_mentions
        or ir.exclude_type_groups
        or ir.exclude_labels
    ):
        ir.quantifier = "except"
    ir.several = ir.several or ir.quantifier != "one"


def _settle_unsaid_action(
    ir: QueryIR,
    seg: list[Span],
    lex: Lexicon,
    lexicons: LexiconSet,
    question: bool,
    setting: Setting | None,
) -> None:
    """An action no verb said: a state or reading asked about, or what a complaint asks for.
    A change or a value in a unit said with the reading sets it ("温度低一点", "bedroom lamp
    temperature 2700 K"): it asked the temperature of every thermostat."""
    sets = setting is not None and (
        setting.change is not None or setting.unit is not None or setting.named is not None
    )
    if ir.action is None and not sets and asks_without_a_verb(ir, seg, lex, lexicons):
        # "Лампа включена", "Temperatur Wohnzimmer": a state or a reading said with no verb.
        ir.action = "query"
    if ir.action in (None, "query") and ir.condition is not None and not question:
        # "it's too dark in the study": what the complaint asks for.
        rule = lexicons.types.conditions.get(ir.condition)
        if rule is not None:
            ir.action, ir.change = rule.action, rule.change
            spec = lexicons.values.actions.get(rule.action)
            ir.attribute = spec.attribute if spec is not None else None


def _note(ir: QueryIR, seg: list[Span], lex: Lexicon) -> None:
    """What the reading noticed: a label beginning a name, a delay, a negation, a bare
    target, a request not for the home, a value not said."""
    if any(
        x.home("label") and i + 1 < len(seg) and seg[i + 1].is_residual for i, x in enumerate(seg)
    ):
        # "the christmas tree" where "Christmas" is a label: a thing the label's word only
        # begins the name of.
        ir.notes.append(Note.LABEL_BEGINS_A_NAME)
    if _delayed(seg, lex):
        # "turn off the lights in 5 minutes": a timer's work, not done now.
        ir.notes.append(Note.DELAYED)
    if any(s.has("negated") for s in seg):
        # "别关灯": told not to, nothing is to be done.
        ir.action = None
        ir.quantifier = "one"
        ir.notes.append(Note.NEGATED)
    if any(s.has("negation_alone") for s in seg):
        ir.notes.append(Note.NEGATION_ALONE)
    if ir.action is None and only_a_target(seg):
        ir.notes.append(Note.BARE_TARGET)
    if any(s.has("not_home") for s in seg if not s.refs and not s.corrected):
        # "write a poem about the kitchen lights": about the home, not a command for it.
        ir.notes.append(Note.NOT_ABOUT_THE_HOME)
    if value_missing(ir, seg, lex):
        # "set the bedroom lamp banana potato tomato": to what, the words do not say.
        ir.notes.append(Note.VALUE_MISSING)


def _delayed(seg: list[Span], lex: Lexicon) -> bool:
    """A number said with a unit of time or as a time of day ("in 5 minutes", "10分钟后",
    "at 10 pm", "um 22 Uhr", "at 7am"), or a word for another time ("tomorrow", "明天")."""
    words = [w for s in seg if not s.refs for w in tokens(s.text)]
    return any(
        (
            lex.duration_at(words, i)
            and i > 0
            and (words[i - 1][:1].isdigit() or words[i - 1] in lex.numbers)
        )
        or lex.is_clock_time(words[i])
        or lex.later_at(words, i)
        for i in range(len(words))
    )
