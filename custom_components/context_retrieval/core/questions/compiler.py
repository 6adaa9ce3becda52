"""Questions about the home → query plans, without a model.

The utterance analysis (`base.parse`) finds what a question is about — device types,
entity names, rooms, floors, labels, exclusions — in every language it knows. This module adds
what makes it a question, from the language's lexicon: question words (`question`: which / how
many / average / highest / add up / is …? / is there any …?), status words (`question_status`:
on, open, locked, unavailable, low …), comparisons (`question_compare` + `question_units`:
"below 20 %", "超过23度") and words that carry nothing in a question (`question_fillers`). It
then picks one of a few plan shapes:

- list or count of a device type (or of everything) with a status, in a place;
- a measurement's reading ("卧室温度多少"), or its average / highest / lowest / total, or the
  sensors above/below a value; "the vacuum's battery" reads the battery of the vacuum's device;
- "is X locked?" (`expect`), "are any lights on upstairs?";
- low batteries (battery sensors under 20 % or battery binary sensors that say low).

`confident` is true only when every word of the question was understood; an unsure reading is
what the LLM fallback is for.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..base.index import DeviceIndex
from ..base.lexicon import LexiconSet, TypeTable
from ..base.parse import analyze, compile_commands
from ..base.text import normalize, tokens
from .clauses import (
    asked_status,
    detects,
    merged,
    scope_filters,
    slots_of,
)
from .measures import load_measures, measured_by
from .plan import PlanError, QueryPlan, validate_plan
from .planning import planned
from .reading import (
    AGGREGATES,
    QuestionWords,
    composite_types,
    in_scope,
    place_words,
    residual_runs,
    scan_words,
    specific_types,
    type_of_words,
    type_spans,
    type_tokens,
)
from .stages import Asking, Heard, Subject
from .subjects import asks_all, commanded, decide, glossary, part_names
from .values import load_status_kinds, load_statuses


@dataclass(slots=True)
class CompiledQuestion:
    """The plan for a question, whether it is trusted, and what it was read as."""

    plan: QueryPlan | None
    confident: bool
    language: str
    is_question: bool
    slots: tuple[str, ...] = ()  # what the question names; equal slots ⇒ same plan is safe
    reason: str | None = None  # why not confident
    unexplained: list[str] = field(default_factory=list)
    # An order said as if a question ("turn on the kitchen light", "打开客厅灯"): no plan of
    # any source may answer or be stored for it.
    command: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "plan": self.plan.as_dict() if self.plan else None,
            "confident": self.confident,
            "language": self.language,
            "is_question": self.is_question,
            "slots": list(self.slots),
            "reason": self.reason,
            "unexplained": self.unexplained,
            "command": self.command,
        }


def compile_question(
    text: str, index: DeviceIndex, lexicons: LexiconSet, language: str | None = None
) -> CompiledQuestion:
    """A question's plan, through its stages: what was said (`_heard`), what it is about
    (`_subject`), how it asks (`_asking`), the plan (`_planned`) and the verdict on it."""
    heard = _heard(text, index, lexicons, language)
    subject = _subject(heard, index, lexicons)
    asking = _asking(heard, subject)
    plan, reason, residual = planned(heard, subject, asking, index, lexicons)
    return _compiled(heard, subject, asking, plan, reason, residual, lexicons.types)


def _heard(text: str, index: DeviceIndex, lexicons: LexiconSet, language: str | None) -> Heard:
    analysis = analyze(text, index, lexicons, language)
    lex = lexicons.get(analysis.language)
    ir = merged(compile_commands(analysis, index, lexicons), text)
    words = scan_words(analysis, lex)
    stripped = (text or "").strip()
    # "make it warmer" and "can you turn on the light?" are commands whatever else they hold;
    # "开着" / "关好了没有" read as a state, not an order.
    # An action word after a question word is what is asked about ("did I lock the door?",
    # "哪些窗帘是拉开的"); before any, it is an order.
    asked_from = words.first_kind_at if words.first_kind_at is not None else len(analysis.tokens)
    ordered = any(
        v != "query"
        for s in analysis.spans
        for v in s.values("action")
        if s.start < asked_from and not all(p in words.covered for p in range(s.start, s.end))
    )
    # "un peu plus frais", "zu warm hier": a change or a complaint asks for a device, unless
    # said as a question.
    wished = (ir.change is not None or ir.condition is not None) and not stripped.endswith(
        ("?", "？")
    )
    command = ordered or wished or commanded(analysis, words, stripped)
    is_question = not command and (
        ir.action == "query" or bool(words.kinds) or stripped.endswith(("?", "？", "吗", "呢"))
    )
    return Heard(analysis, lex, ir, words, stripped, command, is_question)


def _subject(heard: Heard, index: DeviceIndex, lexicons: LexiconSet) -> Subject:
    analysis, lex, ir, words = heard.analysis, heard.lex, heard.ir, heard.words
    measures = load_measures()
    types = lexicons.types
    status_said = bool(words.statuses)  # before an action asked about adds its state
    status = asked_status(words, analysis, lex)
    table, status_kinds = load_statuses(), load_status_kinds()
    # Names said in part ("前门") or in the asker's words for one written in another language
    # ("Haustür" → "front door"): their words are explained, and are not a type.
    parts = part_names(analysis, ir, index, glossary(lexicons.sources.get(analysis.language) or {}))
    part_positions = {p for part in parts for p in part.positions}
    words.covered |= part_positions
    spans = _type_spans_said(heard, types, part_positions)
    type_ids = specific_types(list(dict.fromkeys(t for t, _, _ in spans)), types)
    for state_class in ir.states:
        implied = measures.implied_by_state.get(state_class)
        if implied and implied not in type_ids:
            type_ids.append(implied)
    plural = bool(words.kinds.get("list") or words.kinds.get("count"))
    mention_ids, type_ids = _names_read_as_types(heard, index, types, type_ids, plural)
    mention_ids, type_ids = decide(
        ir, parts, mention_ids, type_ids, status, index, types, table, status_kinds
    )
    type_ids = composite_types(type_ids, types)
    measure_types = [t for t in type_ids if t in measures.sources]
    if not measure_types and mention_ids and not status_said and _asks_a_quantity(words):
        # "add up the fridge power and the charger power", "客厅温度多少": what the named
        # sensors measure.
        measure_types = measured_by(mention_ids, index, measures)
    if status == "low" and "battery" not in type_ids:
        status = None  # "low" of anything else is a threshold we do not guess
    return Subject(
        *(status_said, status, table, status_kinds, spans, type_ids),
        *(mention_ids, measure_types, plural, _unexplained(heard, index)),
    )


def _type_spans_said(
    heard: Heard, types: TypeTable, part_positions: set[int]
) -> list[tuple[str, str, int]]:
    """The type words of the question, outside its status words and the names said in part."""
    analysis, words = heard.analysis, heard.words
    status_positions = set().union(*words.statuses_at.values()) if words.statuses_at else set()
    spans = type_spans(analysis, status_positions | part_positions)
    # A status word that is also a detector's type word ("漏水": a leak, and what a leak
    # sensor detects) says which detectors: "有没有漏水" asks the leak sensors, not every
    # binary sensor that is on (an open window).
    spans += [
        span
        for span in type_spans(analysis, part_positions)
        if span not in spans and "detected" in words.statuses and detects(span[0], types)
    ]
    return spans


def _names_read_as_types(
    heard: Heard, index: DeviceIndex, types: TypeTable, type_ids: list[str], plural: bool
) -> tuple[list[str], list[str]]:
    """The entities named, and the types: a name that is also a type word ("百叶帘", a sensor
    called "Temperature") means the type when asked in the plural, when it is a measurement,
    or when the place asked about is not where those entities are."""
    lex, ir = heard.lex, heard.ir
    measures = load_measures()
    type_ids = list(type_ids)
    mention_ids = sorted({e for m in ir.mentions for e in m.entity_ids})
    for m in ir.mentions:
        # "fridge power" names a sensor; "power" or "motion sensors" may be the type.
        meant = (
            type_of_words(m.text, lex, types)
            if not m.type_id
            else ([m.type_id] if set(tokens(normalize(m.text))) <= type_tokens(lex) else [])
        )
        if not meant or set(meant) <= set(type_ids):
            continue
        elsewhere = any(not in_scope(index.device(e), ir) for e in m.entity_ids if e in index)
        if plural or any(t in measures.sources for t in meant) or elsewhere:
            type_ids.extend(t for t in meant if t not in type_ids)
            mention_ids = [e for e in mention_ids if e not in m.entity_ids]
    return mention_ids, type_ids


def _asks_a_quantity(words: QuestionWords) -> bool:
    """An aggregate, a sum or an amount asked, or a comparison said."""
    return (
        any(k in words.kinds for k in (*AGGREGATES, "sum", "amount")) or words.compare is not None
    )


def _unexplained(heard: Heard, index: DeviceIndex) -> list[str]:
    """The runs of words nothing explained ("bedroom" read as every room whose name holds it
    is explained)."""
    covered = set(heard.words.covered)
    return [
        term
        for term in residual_runs(heard.analysis, covered)
        if not (
            index.rooms.areas_containing(term, heard.lex)
            and index.rooms.areas_containing(term, heard.lex) <= heard.ir.scope_include
        )
    ]


def _asking(heard: Heard, subject: Subject) -> Asking:
    analysis, lex, ir, words = heard.analysis, heard.lex, heard.ir, heard.words
    stripped = heard.stripped
    measure_types, status = subject.measure_types, subject.status
    scope = scope_filters(ir)
    # A status word said once is not the place's preposition ("lights on upstairs"); said
    # twice, the second is ("lights on on the second floor").
    said_once = {
        p for s, at in words.statuses_at.items() if len(words.statuses[s]) == 1 for p in at
    }
    about: dict[str, str] = {"place": place_words(analysis, ir, lex, said_once)}
    kinds = words.kinds
    every = asks_all(analysis)
    aggregate = next((k for k in AGGREGATES if k in kinds), None)
    count_asked = "count" in kinds or ("amount" in kinds and not measure_types)
    if aggregate is None and not count_asked and "sum" in kinds and measure_types:
        aggregate = "sum"
    any_asked = (
        "yes_no_any" in kinds and not count_asked and not aggregate and not kinds.get("list")
    )
    yes_no = (
        ("yes_no" in kinds or any_asked)
        and not kinds.get("list")
        and not count_asked
        and not aggregate
    )
    if not kinds and status is not None and stripped.endswith(("?", "？")):
        # Some languages ask yes/no by intonation alone ("Входная дверь заперта?").
        yes_no = True
    return Asking(scope, about, every, aggregate, count_asked, any_asked, yes_no)


def _why_not_trusted(plan: QueryPlan | None, is_question: bool, residual: list[str]) -> str:
    if plan is None:
        return "no_plan"
    if not is_question:
        return "not_a_question"
    return "unknown_words" if residual else "comparison_without_number"


def _compiled(
    heard: Heard,
    subject: Subject,
    asking: Asking,
    plan: QueryPlan | None,
    reason: str | None,
    residual: list[str],
    types: TypeTable,
) -> CompiledQuestion:
    """The plan checked as a cache would store it, whether it is trusted, and its slots."""
    analysis, ir, words = heard.analysis, heard.ir, heard.words
    command, is_question = heard.command, heard.is_question
    type_ids, status, mention_ids = subject.type_ids, subject.status, subject.mention_ids
    aggregate, count_asked, yes_no = asking.aggregate, asking.count_asked, asking.yes_no
    if plan is not None:
        plan = replace(plan, about={k: v for k, v in plan.about.items() if v})
        try:
            # What is compiled must also be what a cache may store and serve again.
            validate_plan(plan.as_dict(), frozenset(types.types))
        except PlanError as err:
            plan, reason = None, f"plan_invalid: {err.reason}"
    # A room the home lacks ("in the attic") is left unexplained, so `residual` holds it; the
    # IR's own unknown rooms also count question words it does not know ("亮着"), so not them.
    # A comparison without its number ("which are above twenty-ish?") would list them all.
    confident = plan is not None and is_question and not residual and words.compare_unmet is None
    if command:
        reason = "command"
    elif not confident and reason is None:
        reason = _why_not_trusted(plan, is_question, residual)
    named = [
        str(v)
        for clause in (plan.where if plan else ())
        for f in clause
        if f.field == "entity_id"
        for v in (f.value if isinstance(f.value, tuple) else (f.value,))
    ]
    slots = slots_of(
        ir,
        type_ids,
        status,
        aggregate,
        count_asked,
        yes_no,
        sorted({*mention_ids, *named}),
        words.compare,
        residual,
    )
    if plan is not None and plan.about.get("style") == "yes_no_all":
        slots = tuple(sorted({*slots, "all"}))  # "are all …?" is not "are any …?"
    return CompiledQuestion(
        plan=plan,
        confident=confident,
        language=analysis.language,
        is_question=is_question,
        slots=slots,
        reason=reason,
        unexplained=residual,
        command=command,
    )
