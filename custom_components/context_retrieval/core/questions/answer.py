"""The sentence for a query result, in the asker's language, from the lexicon's templates.

No model is involved: the plan's `about` keeps the asker's own words (subject, status, place,
measure), the result gives names, counts and values, and the language's `q_*` messages put
them together ("楼上有 2 个灯开着：台灯和吸顶灯。", "The average temperature upstairs is
22.2 °C (2 sensors).").

Every name, state, unit and word put into a sentence is cleaned as in the YAML context (no
control, line-break, bidi or zero-width characters, cut to length): the answer is spoken, and
written into the chat log the assistant's model reads.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping

from ..base.lexicon import Lexicon
from ..base.redact import clean
from ..base.spoken import spoken_name
from ..base.text import normalize
from .executor import QueryResult
from .plan import QueryPlan
from .rows import StateRow
from .values import answers, load_status_kinds, load_statuses, rule_for, state_check

MAX_NAMES = 10
MAX_NAME_CHARS = 60  # per name, state or listed item
MAX_WORDS_CHARS = 80  # per subject, status, place or measure
MAX_UNIT_CHARS = 16
_SPACES = re.compile(r"[ \t]{2,}")
_BEFORE_PUNCT = re.compile(r"\s+([,.:;!?，。：；！？）)])")
_EMPTY_BRACKETS = re.compile(r"\s*(?:\(\s*\)|（\s*）)")  # "({status})" with no status


def format_number(value: float) -> str:
    """Readings as people say them: 21.9, 1284.5, 22.15 → 22.2 for averages done by us."""
    if not math.isfinite(value):
        return str(value)
    if abs(value - round(value)) < 1e-9:
        return str(round(value))
    text = (f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}").rstrip("0").rstrip(".")
    return "0" if text == "-0" else text  # 12.04 → "12", not "12.0"; -0.004 → "0"


def format_value(value: float, unit: str | None) -> str:
    text = format_number(value)
    unit = clean(unit or "", MAX_UNIT_CHARS)
    if not unit:
        return text
    return f"{text}{unit}" if unit in ("%",) else f"{text} {unit}"


def join_names(names: list[str], lex: Lexicon, total: int | None = None) -> str:
    """ "A, B and C" / "A、B和C"; beyond ten (or when `total` says there are more than the
    names given) "…, 3 more"."""
    names = [cut for n in names if n and (cut := clean(n, MAX_NAME_CHARS))]
    shown = names[:MAX_NAMES]
    extra = max(len(names), total or 0) - len(shown)
    separator = lex.messages.get("list_separator", ", ")
    if extra > 0:
        # "A, B and 3 more" / "A、B等5个": some languages count the rest, others the whole.
        return lex.message(
            "names_and_more", names=separator.join(shown), count=extra, total=len(shown) + extra
        )
    if len(shown) <= 1:
        return "".join(shown)
    return separator.join(shown[:-1]) + lex.messages.get("list_and", " and ") + shown[-1]


def _words(value: str) -> str:
    """The asker's (or a plan's) words, cleaned; a place phrase keeps the one space it starts
    with (" in the kitchen")."""
    shown = clean(value, MAX_WORDS_CHARS)
    return " " + shown if shown and value[:1].isspace() else shown


def _name(row: dict[str, object], names: Mapping[str, str] | None = None) -> str:
    said = (names or {}).get(str(row.get("entity_id")))
    return clean(said or str(row.get("name") or ""), MAX_NAME_CHARS)


def _tidy(text: str) -> str:
    text = _EMPTY_BRACKETS.sub("", _SPACES.sub(" ", text.strip()))
    return _BEFORE_PUNCT.sub(r"\1", text)


def _state_text(state: str, lex: Lexicon, source: StateRow | None = None) -> str:
    """The state in words. A binary sensor's "on"/"off" is said as what it senses ("open" /
    "closed" for a door contact, "unlocked" for a lock sensor) where the language has it."""
    if source is not None and source.domain == "binary_sensor":
        kind = (source.domain, source.device_class)
        table, kinds = load_statuses(), load_status_kinds()
        for status in _SENSED:
            rule = rule_for(table.get(status, ()), *kind)
            if (
                status in lex.state_words
                and answers(status, kind, table, kinds)
                and rule is not None
                and state_check([rule])(state)
            ):
                return lex.state_words[status]
    return lex.state_words.get(state, state)


# What a binary sensor's on/off can be said as, most telling first.
_SENSED = ("open", "closed", "unlocked", "locked")


def spoken_names(result: QueryResult, lex: Lexicon) -> dict[str, str]:
    """Each named entity as said in `lex`'s language (its alias in that language, when it has
    one), with its room when several share that name ("客厅的吸顶灯", "ceiling light in the
    kitchen")."""
    # Only what a sentence can show is looked up (a list names at most MAX_NAMES).
    rows = [*result.rows[:MAX_NAMES], *([result.best] if result.best else [])]
    said: dict[str, str] = {}
    rooms: dict[str, str] = {}
    for row in rows:
        entity_id = str(row.get("entity_id"))
        source = result.sources.get(entity_id)
        if source is None:
            said[entity_id] = str(row.get("name") or entity_id)
            continue
        said[entity_id] = spoken_name(source.name, source.aliases, lex) or entity_id
        if source.area_name:
            rooms[entity_id] = spoken_name(source.area_name, source.area_aliases, lex)
    shared = Counter(normalize(n) for n in said.values())

    def repeated(entity_id: str, name: str) -> bool:
        # Shared in the answer, or in the home: "ceiling light" alone is four of them.
        source = result.sources.get(entity_id)
        home = source is not None and normalize(source.name) in result.shared_names
        return shared[normalize(name)] > 1 or home

    template = "q_name_area" if lex.messages.get("q_name_area") else "option_area"
    return {
        e: lex.message(template, name=clean(n, MAX_NAME_CHARS), area=rooms[e])
        if repeated(e, n) and e in rooms and lex.messages.get(template)
        else n
        for e, n in said.items()
    }


def answer(plan: QueryPlan, result: QueryResult, lex: Lexicon) -> str:
    """One sentence in `lex`'s language for `result`."""
    about = plan.about
    style = about.get("style") or plan.aggregate
    subject = _words(about.get("subject", "")) or lex.message("q_things")
    values = {
        "subject": subject,
        "status": _words(about.get("status", "")),
        "place": _words(about.get("place", "")),
        "measure": _words(about.get("measure", "")),
        "count": result.count,
    }
    said = spoken_names(result, lex)
    names = [
        said.get(str(r.get("entity_id")), str(r.get("name") or "")) for r in result.rows[:MAX_NAMES]
    ]
    items = join_names(names, lex, total=max(result.count, len(result.rows)))

    def say(key: str, count: int | None = None, **extra: object) -> str:
        # "1 device" is not "1 devices": a language that words one apart has a `_one` form.
        n = result.count if count is None else count
        if n == 1 and lex.messages.get(f"{key}_one"):
            key = f"{key}_one"
        return _tidy(lex.message(key, **{**values, "items": items, **extra, "count": n}))

    if result.uncertain is not None and style in _ABOUT_STATUS:
        # Never "none" or "no" from devices that cannot tell: say what is missing.
        if result.uncertain == "nothing_found":
            return say("q_nothing_found", count=0)
        listed = len(result.rows)
        status = values["status"] or _words(lex.state_words.get(plan.expect or "", ""))
        return say("q_cannot_tell", count=listed or 2, subject=items or subject, status=status)
    if style == "yes_no":
        return _yes_or_no(result, lex, str(values["status"]), say)
    if style == "yes_no_all":
        return _all(result, lex, said, say)
    if style == "yes_no_any":
        return say("q_yes_any") if result.count else say("q_no_any")
    if style in ("avg", "sum", "min", "max", "value") and result.count == 0:
        return say("q_no_reading")
    if style in ("avg", "sum", "min", "max"):
        return _aggregated(style, result, said, say)
    if style == "value":
        return _values(result, lex, said, say)
    if style == "count" or plan.aggregate == "count":
        if result.count == 0:
            return say("q_count_none")
        return say("q_count")
    if result.count == 0:
        return say("q_list_none")
    return say("q_list")


def _yes_or_no(result: QueryResult, lex: Lexicon, status: str, say: Callable[..., str]) -> str:
    """ "Yes, A: on." or "No, A: off.": the states of what was asked about."""
    if not result.rows:
        return say("q_list_none")
    states = join_names(
        sorted(
            {
                _state_text(r["state"], lex, result.sources.get(str(r.get("entity_id"))))
                for r in result.rows
            }
        ),
        lex,
    )
    if result.expected:
        # Without the asker's status word, say the state itself ("Yes, A: on.").
        return say("q_yes", status=status or states)
    return say("q_no", states=states)


def _aggregated(
    style: str, result: QueryResult, said: Mapping[str, str], say: Callable[..., str]
) -> str:
    """The average, total, lowest or highest reading (and whose it is)."""
    if result.value is None:
        return say("q_no_numbers")
    shown = format_value(result.value, result.unit)
    if style in ("min", "max") and result.best is not None:
        return say(f"q_{style}", value=shown, name=_name(result.best, said), count=len(result.rows))
    return say(f"q_{style}", value=shown, count=len(result.rows))


# The styles that ask whether things have a status.
_ABOUT_STATUS = frozenset({"list", "count", "yes_no", "yes_no_any", "yes_no_all"})


def _all(
    result: QueryResult, lex: Lexicon, said: Mapping[str, str], say: Callable[..., str]
) -> str:
    """ "are all the doors locked?": yes, or which are not and how they are."""
    if not result.rows:
        return say("q_list_none")
    if result.expected:
        return say("q_all_yes")
    unmet = [
        lex.message(
            "q_item_state",
            name=clean(said.get(e) or spoken_name(s.name, s.aliases, lex), MAX_NAME_CHARS),
            state=clean(_state_text(s.state, lex, s), MAX_NAME_CHARS),
        )
        for e in result.unmet
        if (s := result.sources.get(e)) is not None
    ]
    return say("q_all_no", count=len(unmet), items=join_names(unmet, lex))


def _values(
    result: QueryResult, lex: Lexicon, said: Mapping[str, str], say: Callable[..., str]
) -> str:
    """A reading, or several ("A 21 °C, B 19 °C")."""
    readings = [r for r in result.rows if "value" in r]
    if not result.rows:
        return say("q_list_none")
    if len(result.rows) == 1:
        row = result.rows[0]
        if "value" not in row:
            return say("q_value_unavailable", name=_name(row, said))
        return say(
            "q_value_one",
            name=_name(row, said),
            value=format_value(float(row["value"]), row.get("unit")),
        )
    parts = [
        f"{_name(r, said)} {format_value(float(r['value']), r.get('unit'))}"
        if "value" in r
        else f"{_name(r, said)} {_state_text(r['state'], lex)}"
        for r in result.rows
    ]
    if not readings:
        return say("q_no_numbers")
    return say("q_value_many", items=join_names(parts, lex))
