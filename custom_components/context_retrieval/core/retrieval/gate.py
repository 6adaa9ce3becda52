"""Confidence gating: ask back instead of guessing when the best candidates are too close.

When top1 − top2 < ε (default 0.05) acting would be a guess: a `ClarificationRequest` with up
to four options labelled name + room. The next turn's answer ("the second one", "卧室那个",
"小米的那个") is resolved against every candidate we were unsure about, not only the ones we
listed. A reply that is neither an answer nor a request of its own is a miss: the question is
asked again, and after `MAX_MISSES` it is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..base.index import DeviceIndex
from ..base.keyword_search import phrase_score
from ..base.lexicon import Lexicon
from ..base.models import Candidate
from ..base.parse import Analysis, Span
from ..base.redact import clean
from ..base.spoken import spoken_name
from ..base.text import normalize, tokens
from .results import ClarificationOption, ClarificationRequest
from .state import PendingClarification

DEFAULT_EPSILON = 0.05
MAX_OPTIONS = 4
# Replies that neither answer the question nor ask for something else before we stop asking:
# a question that cannot end would trap the user.
MAX_MISSES = 2


def close_to_top(candidates: Sequence[Candidate], epsilon: float) -> list[Candidate]:
    """Candidates whose total is within `epsilon` of the best one."""
    if not candidates:
        return []
    top = candidates[0].total_score
    return [c for c in candidates if top - c.total_score < epsilon]


def needs_clarification(candidates: Sequence[Candidate], epsilon: float) -> bool:
    return len(candidates) >= 2 and candidates[0].total_score - candidates[1].total_score < epsilon


def option_label(index: DeviceIndex, lex: Lexicon, entity_id: str) -> tuple[str, str, str | None]:
    """ "Desk lamp (Study)", with the name and room cleaned as in the YAML context: the
    question is spoken, and written into the chat log the assistant's model reads. Both are
    said in the question's language when the home has an alias in it ("desk lamp in the
    study" for 书房的台灯)."""
    device = index.device(entity_id)
    name = clean(spoken_name(device.name, device.aliases, lex))
    area_name = index.area_name(device.area_id) or ""
    area = clean(spoken_name(area_name, device.area_aliases, lex)) or None
    if area:
        return lex.message("option_area", name=name, area=area), name, area
    return lex.message("option", name=name), name, None


def build_clarification(
    index: DeviceIndex,
    lex: Lexicon,
    candidate_ids: Sequence[str],
    max_options: int = MAX_OPTIONS,
    command_index: int = 0,
) -> ClarificationRequest:
    options: list[ClarificationOption] = []
    seen_labels: dict[str, int] = {}
    for eid in candidate_ids[:max_options]:
        label, name, area = option_label(index, lex, eid)
        if label in seen_labels:
            # Two options that read the same would make the question unanswerable.
            seen_labels[label] += 1
            label = f"{label} ({eid})"
        else:
            seen_labels[label] = 1
        options.append(ClarificationOption(entity_id=eid, label=label, name=name, area=area))
    listed = [o.label for o in options]
    if len(listed) > 1:
        joined = (
            lex.messages.get("list_separator", ", ").join(listed[:-1])
            + lex.messages.get("list_last", " or ")
            + listed[-1]
        )
    else:
        joined = "".join(listed)
    question = lex.message("clarify", options=joined)
    return ClarificationRequest(
        question=question, options=options, language=lex.language, command_index=command_index
    )


@dataclass(slots=True)
class AnswerResolution:
    """How a reply relates to the question we asked."""

    is_answer: bool
    selected: list[str] = field(default_factory=list)
    remaining: list[str] = field(default_factory=list)  # still more than one: ask again
    cancelled: bool = False
    how: str = ""


def _integers(values: list[str]) -> list[int]:
    out = []
    for value in values:
        try:
            number = float(value)
        except ValueError:
            continue
        if number == int(number):
            out.append(int(number))
    return out


def _positions(spans: list[Span]) -> list[int]:
    """The ordinals the reply says, in order ("the first and the third": 1, 3; "the last": -1)."""
    return [n for s in spans if not s.refs for n in _integers(s.values("ordinal"))]


def _count_said(spans: list[Span]) -> int | None:
    """How many of them the reply means: "both", "los tres", or a number beside "all" or an
    ordinal ("all three", "三个都", "the first two"); None when it says no count."""
    for k, s in enumerate(spans):
        if s.refs:
            continue
        counts = _integers(s.values("answer_count"))
        if counts:
            return counts[0]
        numbers = _integers(s.values("number"))
        # Right beside the word, or before it with a measure word between ("三个都"): "all
        # of them to fifty" is a brightness, no count.
        beside = spans[max(k - 1, 0) : k] + spans[k + 1 : k + 2]
        if k + 2 < len(spans) and spans[k + 1].only_filler:
            beside.append(spans[k + 2])
        if numbers and any(_counts_them(b) for b in beside):
            return numbers[0]
    return None


def _counts_them(s: Span) -> bool:
    return not s.refs and (s.has("quant_all") or s.has("answer_all") or s.has("ordinal"))


def _option_at(options: list[str], position: int) -> list[str]:
    """The option an ordinal names, counted from the first ("the second") or, below zero,
    from the last ("the last one" is -1); none when the list is shorter."""
    i = position - 1 if position > 0 else len(options) + position
    return options[i : i + 1] if 0 <= i < len(options) else []


def _options_at(options: list[str], spans: list[Span]) -> list[str] | None:
    """The options the reply's ordinals name: each one said ("the first and the third"), or
    a count from either end ("the first two", "the last two"). None when it says no ordinal;
    empty when one of them is not among the options (no guess at the rest)."""
    positions = _positions(spans)
    if not positions or not options:
        return None
    count = _count_said(spans)
    if len(positions) == 1 and count is not None and count > 1:
        if count > len(options) or positions[0] not in (1, -1):
            return []
        return options[:count] if positions[0] == 1 else options[-count:]
    chosen = [o for p in positions for o in _option_at(options, p)]
    return list(dict.fromkeys(chosen)) if len(chosen) == len(positions) else []


def _all_of(chosen: list[str], spans: list[Span], how: str) -> AnswerResolution:
    """ "all of them", "both", "all three": every one chosen, when a count said is theirs;
    "both" of four options says neither which two, so the question is asked again."""
    count = _count_said(spans)
    if count is not None and count != len(chosen):
        return AnswerResolution(True, remaining=chosen, how="count")
    return AnswerResolution(True, selected=chosen, how=how)


def resolve_answer(
    analysis: Analysis,
    pending: PendingClarification,
    index: DeviceIndex,
    areas: set[str] | None = None,
) -> AnswerResolution:
    """Read the reply to a clarification question; `is_answer` False means a new request.

    `areas` are the rooms the reply names as the compiler read them (this includes partial
    room words such as "bedroom" for "Master Bedroom").
    """
    spans = analysis.spans
    candidates = [c for c in pending.candidate_ids if c in index]
    if not candidates:
        return AnswerResolution(False)
    denied_spans, rest = _split_at_negation(spans)
    if not denied_spans:
        return _read_answer(analysis, pending, index, candidates, areas)
    denied = _named_in(denied_spans, index, candidates)
    if any(s.refs for s in rest):
        # "not the kitchen one, the living room one", "the kitchen one, not the living
        # room one": the answer is what is said outside the negation.
        outside = set(areas or ()) - {r.target for s in denied_spans for r in s.home("area")}
        answer = resolve_answer(replace(analysis, spans=rest), pending, index, outside)
    else:
        answer = _read_answer(analysis, pending, index, candidates, areas)
    return _never(answer, denied, candidates)


def _split_at_negation(spans: list[Span]) -> tuple[list[Span], list[Span]]:
    """The words said after a negation or an exclusion, up to a mark or "and" ("not *the
    kitchen one*, turn it on"), and the others."""
    denied: list[Span] = []
    rest: list[Span] = []
    inside = False
    for s in spans:
        if not s.refs and (s.has("negation") or s.leaves_out):
            inside = True
            continue
        if s.punct is not None or (not s.refs and (s.has("conj") or s.has("split"))):
            inside = False
        (denied if inside else rest).append(s)
    return denied, rest


def _named_in(spans: list[Span], index: DeviceIndex, candidates: list[str]) -> set[str]:
    """The candidates these words name, or that are in a room they name."""
    named = {r.target for s in spans for r in s.home("entity")}
    rooms = {r.target for s in spans for r in s.home("area")}
    return {c for c in candidates if c in named or index.device(c).area_id in rooms}


def _never(answer: AnswerResolution, denied: set[str], candidates: list[str]) -> AnswerResolution:
    """An option the reply said it is not is never chosen ("not the kitchen one, turn it
    on" switched the kitchen light on): without it the question is asked again."""
    if not denied or not answer.is_answer or answer.cancelled:
        return answer
    selected = [c for c in answer.selected if c not in denied]
    remaining = [c for c in answer.remaining or candidates if c not in denied]
    if selected:
        return AnswerResolution(True, selected=selected, how=answer.how)
    return AnswerResolution(True, remaining=remaining, how=answer.how + "+not")


def _read_answer(
    analysis: Analysis,
    pending: PendingClarification,
    index: DeviceIndex,
    candidates: list[str],
    areas: set[str] | None,
) -> AnswerResolution:
    """The reply read whole: what it leaves out, names outright, or narrows the candidates to."""
    spans = analysis.spans
    named = {r.target for s in spans for r in s.home("entity")}
    areas = {r.target for s in spans for r in s.home("area")} | set(areas or ())
    leaving_out = _leaving_out(spans)
    if leaving_out is not None:
        every = any(s.has("quant_all") or s.has("answer_all") for s in spans)
        but = _all_but(analysis, pending, index, candidates, (named, areas), every)
        if but is not None or leaving_out:
            return but or AnswerResolution(True, remaining=candidates, how="except")
    quick = _said_outright(spans, pending, index, candidates, named)
    if quick is not None:
        return quick
    remaining, how = _narrowed_by_reply(analysis, pending, index, candidates, named, areas)
    if not how:
        return AnswerResolution(False)
    primary = [c for c in remaining if c in pending.primary]
    if len(primary) == 1:
        # "in the kids room": of what we were really unsure about, only one is there.
        remaining = primary
    if len(remaining) == 1:
        return AnswerResolution(True, selected=remaining, how="+".join(how))
    named_rooms = {index.device(c).area_id for c in remaining} & areas
    if len(named_rooms) > 1 and len(remaining) == len(named_rooms):
        # "the kitchen and the living room ones", "主卧和次卧的": one in each room named.
        return AnswerResolution(True, selected=remaining, how="+".join(how) + "+each")
    if any(s.has("quant_all") or s.has("answer_all") for s in spans):
        return _all_of(remaining, spans, "+".join(how) + "+all")
    return AnswerResolution(True, remaining=remaining, how="+".join(how))


def _leaving_out(spans: list[Span]) -> bool | None:
    """Whether the reply says which it is not: True with a word of exclusion ("except the
    study one", "除了书房的"), False with a negation alone ("not the study one", "不是餐厅的"),
    None when it says neither (or negates a verb of its own: a new request)."""
    said = [s for s in spans if not s.refs]
    if any(s.leaves_out for s in said):
        return True
    acts = any(set(s.values("action")) - {"query"} for s in said)
    if any(s.has("negation") for s in said) and not acts:
        return False
    return None


def _all_but(
    analysis: Analysis,
    pending: PendingClarification,
    index: DeviceIndex,
    candidates: list[str],
    said: tuple[set[str], set[str]],
    every: bool,
) -> AnswerResolution | None:
    """The candidates but those the reply names (`said`: its names and rooms): all of them
    when `every`, else the one left or the question again. None when it names none of them —
    never are the named ones chosen (that was the opposite of the answer)."""
    options = [o.entity_id for o in pending.request.options if o.entity_id in index]
    by_position = _options_at(options, analysis.spans)
    left_out: list[str] = []
    if by_position is not None:
        left_out = by_position
    else:
        narrowed, how = _narrowed_by_reply(analysis, pending, index, candidates, *said)
        left_out = narrowed if how else []
    kept = [c for c in candidates if c not in left_out]
    if not left_out or not kept:
        return None
    if every or len(kept) == 1:
        return AnswerResolution(True, selected=kept, how="except")
    return AnswerResolution(True, remaining=kept, how="except")


def _said_outright(
    spans: list[Span],
    pending: PendingClarification,
    index: DeviceIndex,
    candidates: list[str],
    named: set[str],
) -> AnswerResolution | None:
    """A reply that settles the question by itself: a request for something else, a
    cancellation, an ordinal ("the second one"), or "all of them"; None otherwise."""
    acts = any(set(s.values("action")) - {"query"} for s in spans if not s.refs)
    if acts and named and not named & set(candidates):
        # "关掉主卧的空调" after "which desk lamp?": a request for something else.
        return AnswerResolution(False)
    if any(s.has("answer_cancel") and not s.refs for s in spans) and not _has_target(spans):
        return AnswerResolution(True, cancelled=True, how="cancelled")
    options = [o.entity_id for o in pending.request.options if o.entity_id in index]
    chosen = _options_at(options, spans)
    if chosen and not _has_target(spans):
        return AnswerResolution(True, selected=chosen, how="ordinal")
    if any(s.has("answer_all") and not s.refs for s in spans) and not _has_target(spans):
        return _all_of(list(candidates), spans, "all")
    return None


def _narrowed_by_reply(
    analysis: Analysis,
    pending: PendingClarification,
    index: DeviceIndex,
    candidates: list[str],
    named: set[str],
    areas: set[str],
) -> tuple[list[str], list[str]]:
    """The candidates the reply's rooms, floors, names and other words leave, and how."""
    spans = analysis.spans
    remaining = list(candidates)
    how: list[str] = []
    floors = {r.target for s in spans for r in s.home("floor")}
    if areas:
        by_area = [c for c in remaining if _in_any(index, c, areas)]
        if not by_area:
            # "the one in the study" after "which desk lamp?", where the study's lamp is
            # called "old lamp": the one thing there of that kind whose name shares a word
            # with what was asked for.
            by_area = _same_kind_there(index, pending, areas)
        if by_area:
            remaining = by_area
            how.append("area")
    if floors:
        by_floor = [c for c in remaining if index.device(c).floor_id in floors]
        if by_floor:
            remaining = by_floor
            how.append("floor")
    if named & set(remaining):
        remaining = [c for c in remaining if c in named]
        how.append("name")
    described = _described_by_words(analysis, index, remaining)
    if described is not None:
        remaining = [described]
        how.append("words")
    return remaining, how


def _described_by_words(analysis: Analysis, index: DeviceIndex, remaining: list[str]) -> str | None:
    """The one candidate the reply's free words describe clearly best, and words the
    language reads as values that describe one option ("the left one": "left" is no
    setting here)."""
    words = [
        s.text
        for s in analysis.spans
        if s.is_residual or (not s.refs and not s.numeric and {k for k, _ in s.lex} == {"value"})
    ]
    if not words:
        return None
    phrase = normalize(
        " ".join(words) if not analysis.language.startswith("zh") else "".join(words)
    )
    scored = sorted(((describe_score(index, c, phrase), c) for c in remaining), reverse=True)
    if scored and scored[0][0] >= 0.6 and (len(scored) == 1 or scored[0][0] - scored[1][0] >= 0.1):
        return scored[0][1]
    return None


def _same_kind_there(
    index: DeviceIndex, pending: PendingClarification, areas: set[str]
) -> list[str]:
    """Entities in `areas` of a domain the candidates are of, named with a word of the words
    the question was about; [] unless exactly one."""
    said = {w for m in pending.ir.mentions for w in tokens(normalize(m.text))}
    domains = {index.device(c).domain for c in pending.candidate_ids if c in index}
    if not said or not domains:
        return []
    found = [
        entity_id
        for entity_id, entry in index.entries.items()
        if entry.device.domain in domains
        and _in_any(index, entity_id, areas)
        and any(said & set(tokens(name)) for name in entry.norm_names)
    ]
    return found if len(found) == 1 else []


def _has_target(spans: list[Span]) -> bool:
    return any(s.refs for s in spans)


def _in_any(index: DeviceIndex, entity_id: str, areas: set[str]) -> bool:
    entry = index.entries[entity_id]
    return entry.device.area_id in areas or (entry.name_room in areas)


def describe_score(index: DeviceIndex, entity_id: str, phrase: str) -> float:
    """How well free words describe this entity (brand, colour, position, what it measures)."""
    entry = index.entries[entity_id]
    device = entry.device
    texts = list(entry.norm_names)
    if entry.norm_device_name:
        texts.append(entry.norm_device_name)
    texts.append(normalize(entity_id.split(".", 1)[-1].replace("_", " ")))
    if device.device_class:
        texts.append(normalize(device.device_class.replace("_", " ")))
    best = 0.0
    for text in texts:
        if phrase and phrase in text:
            best = max(best, 1.0)
        else:
            best = max(best, phrase_score(phrase, text) * 0.8)
    return best
