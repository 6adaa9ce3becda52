"""The plan stage of `compile_question`: the plan that answers a question, from what it is
about and how it asks: a measured quantity (`measures`), low batteries, or a yes/no, count or
list over the subject's clauses."""

from __future__ import annotations

from ..base.index import DeviceIndex
from ..base.lexicon import LexiconSet, TypeTable
from .clauses import all_binary, low_battery, one_thing, state_targets
from .measures import measure_plan
from .plan import Filter, QueryPlan
from .reading import join_words
from .stages import Asking, Heard, Subject


def planned(
    heard: Heard,
    about_what: Subject,
    asking: Asking,
    index: DeviceIndex,
    lexicons: LexiconSet,
) -> tuple[QueryPlan | None, str | None, list[str]]:
    """The plan that answers the question (None when none does), why not, and the words it
    leaves unexplained."""
    words, residual = heard.words, about_what.residual
    if about_what.status == "low" and "battery" in about_what.type_ids and words.compare is None:
        plan = low_battery(asking.scope, asking.count_asked, asking.about, heard.lex)
        return plan, None, residual
    if about_what.measure_types and (asking.aggregate or not asking.count_asked or words.compare):
        plan, residual = _measured(heard, about_what, asking, index)
        return plan, None, residual
    subject = _subject_clauses(heard, about_what, asking, lexicons.types)
    if (
        not about_what.type_ids
        and not about_what.mention_ids
        and not heard.ir.states
        and about_what.status is None
        and not asking.scope
    ):
        return None, "no_subject", residual
    return _status_plan(heard, about_what, asking, subject, index, lexicons.types), None, residual


def _measured(
    heard: Heard, about_what: Subject, asking: Asking, index: DeviceIndex
) -> tuple[QueryPlan, list[str]]:
    """A quantity measured ("how warm is it", "total power"): `measure_plan`."""
    lex, measure_type = heard.lex, about_what.measure_types[0]
    return measure_plan(
        measure_type,
        asking.scope,
        about_what.mention_ids,
        asking.aggregate,
        asking.count_asked,
        heard.words,
        index,
        heard.ir,
        asking.about,
        about_what.residual,
        # What the quantity is called ("how warm" asks for the temperature), else the
        # asker's word.
        lex.type_words.get(measure_type, [])[:1]
        or [w for t, w, _ in about_what.spans if t == measure_type],
        frozenset(w for ws in lex.type_words.values() for w in ws),
    )


def _subject_clauses(
    heard: Heard, about_what: Subject, asking: Asking, types: TypeTable
) -> list[tuple[Filter, ...]]:
    """What the question is about as alternative filter clauses: its types, the states it
    names, things switched on, and the entities it names."""
    ir, status, mention_ids = heard.ir, about_what.status, about_what.mention_ids
    subject: list[tuple[Filter, ...]] = [()]
    if about_what.type_ids:
        subject = [(Filter("type", "in", tuple(about_what.type_ids)),)]
        asking.about["subject"] = join_words(list(dict.fromkeys(w for _, w, _ in about_what.spans)))
    elif ir.states and not mention_ids:
        subject = state_targets(ir.states, types, status, about_what.table, about_what.status_kinds)
    elif status == "on" and not mention_ids:
        # "What is on in the kitchen?" means things switched on, not sensors reporting.
        subject = [(Filter("domain", "ne", "binary_sensor"),)]
    if mention_ids:
        subject = [(*clause, Filter("entity_id", "in", tuple(mention_ids))) for clause in subject]
    return subject


def _status_plan(
    heard: Heard,
    about_what: Subject,
    asking: Asking,
    subject: list[tuple[Filter, ...]],
    index: DeviceIndex,
    types: TypeTable,
) -> QueryPlan:
    """The plan over the subject: a yes or no about one thing, about every one, or a count
    or list of those in the status asked about."""
    ir, words, status = heard.ir, heard.words, about_what.status
    scope, about = asking.scope, asking.about
    yes_no, any_asked = asking.yes_no, asking.any_asked
    implied = status
    if implied is None and (yes_no or any_asked) and all_binary(about_what.type_ids, ir, types):
        implied = "detected"  # "is there a leak?", "有没有人"
    if status:
        about["status"] = words.statuses[status][0]
    single = about_what.mention_ids or one_thing(index, ir, about_what.type_ids, types)
    plural = about_what.plural
    if yes_no and not any_asked and implied and single and not plural:
        return QueryPlan(
            where=tuple((*scope, *c) for c in subject),
            expect=implied,
            about={**about, "style": "yes_no"},
        )
    if implied and (
        (asking.every and (yes_no or any_asked))
        # "is the door locked?" of several doors is only yes when each is.
        or (
            yes_no and not any_asked and not plural and implied in about_what.status_kinds.every_one
        )
    ):
        # "are all the doors locked?": every one of them, and which are not.
        return QueryPlan(
            where=tuple((*scope, *c) for c in subject),
            expect=implied,
            about={**about, "style": "yes_no_all"},
        )
    status_filter = (Filter("status", "eq", implied),) if implied else ()
    style = (
        "yes_no_any"
        if (yes_no or any_asked) and implied
        else ("count" if asking.count_asked else "list")
    )
    return QueryPlan(
        where=tuple((*scope, *c, *status_filter) for c in subject),
        aggregate="count" if asking.count_asked else "list",
        about={**about, "style": style},
    )
