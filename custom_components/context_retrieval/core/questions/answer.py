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

from ..base.lexicon import Lexicon
from ..base.redact import clean
from .executor import QueryResult
from .plan import QueryPlan

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


def _name(row: dict[str, object]) -> str:
    return clean(str(row.get("name") or ""), MAX_NAME_CHARS)


def _tidy(text: str) -> str:
    text = _EMPTY_BRACKETS.sub("", _SPACES.sub(" ", text.strip()))
    return _BEFORE_PUNCT.sub(r"\1", text)


def _state_text(state: str, lex: Lexicon) -> str:
    return lex.state_words.get(state, state)


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
    names = [str(r.get("name") or r.get("entity_id")) for r in result.rows]
    items = join_names(names, lex, total=result.count)

    def say(key: str, **extra: object) -> str:
        return _tidy(lex.message(key, **{**values, "items": items, **extra}))

    if style == "yes_no":
        if not result.rows:
            return say("q_list_none")
        states = join_names(sorted({_state_text(r["state"], lex) for r in result.rows}), lex)
        if result.expected:
            # Without the asker's status word, say the state itself ("Yes, A: on.").
            return say("q_yes", status=values["status"] or states)
        return say("q_no", states=states)
    if style == "yes_no_any":
        return say("q_yes_any") if result.count else say("q_no_any")
    if style in ("avg", "sum", "min", "max", "value") and result.count == 0:
        return say("q_no_reading")
    if style in ("avg", "sum", "min", "max"):
        if result.value is None:
            return say("q_no_numbers")
        shown = format_value(result.value, result.unit)
        if style in ("min", "max") and result.best is not None:
            return say(f"q_{style}", value=shown, name=_name(result.best), count=len(result.rows))
        return say(f"q_{style}", value=shown, count=len(result.rows))
    if style == "value":
        readings = [r for r in result.rows if "value" in r]
        if not result.rows:
            return say("q_list_none")
        if len(result.rows) == 1:
            row = result.rows[0]
            if "value" not in row:
                return say("q_value_unavailable", name=_name(row))
            return say(
                "q_value_one",
                name=_name(row),
                value=format_value(float(row["value"]), row.get("unit")),
            )
        parts = [
            f"{r.get('name', '')} {format_value(float(r['value']), r.get('unit'))}"
            if "value" in r
            else f"{r.get('name', '')} {_state_text(r['state'], lex)}"
            for r in result.rows
        ]
        if not readings:
            return say("q_no_numbers")
        return say("q_value_many", items=join_names(parts, lex))
    if style == "count" or plan.aggregate == "count":
        if result.count == 0:
            return say("q_count_none")
        if result.count == 1:
            return say("q_count_one")
        return say("q_count")
    if result.count == 0:
        return say("q_list_none")
    if result.count == 1:
        return say("q_list_one")
    return say("q_list")
