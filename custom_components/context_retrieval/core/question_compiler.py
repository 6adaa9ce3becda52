"""Questions about the home → query plans, without a model (seed 003, deterministic side).

The retrieval pipeline's utterance analysis finds what a question is about — device types,
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

import json
import re
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from .index import DeviceIndex
from .ir_compiler import Analysis, analyze, compile_commands
from .lexicon import Lexicon, LexiconSet, TypeTable
from .models import Device, QueryIR
from .query_plan import MAX_VALUES, Filter, PlanError, QueryPlan, validate_plan
from .text import has_cjk, normalize, tokens

_MEASURES_FILE = Path(__file__).parent / "lexicons" / "measures.json"
LOW_BATTERY_PERCENT = 20.0
_AGGREGATES = ("avg", "max", "min")
_NUMBER = re.compile(r"^(\d+(?:[.,]\d+)?)(%|°c|°f|°)?$")


@dataclass(frozen=True, slots=True)
class MeasureSource:
    domain: str
    device_class: str | None
    measure: str
    only_when_named: bool = False


@dataclass(frozen=True, slots=True)
class Measures:
    """`measures.json`: where each measured quantity is read, and the state words that imply
    one ("电量低" → battery)."""

    sources: dict[str, tuple[MeasureSource, ...]]
    implied_by_state: dict[str, str]


@cache
def load_measures(path: Path = _MEASURES_FILE) -> Measures:
    data = json.loads(path.read_text(encoding="utf-8"))
    sources = {
        type_id: tuple(MeasureSource(s["domain"], s.get("device_class"),
                                     s.get("measure", "state"),
                                     bool(s.get("only_when_named"))) for s in items)
        for type_id, items in data.items() if not type_id.startswith("_")
    }
    return Measures(sources, dict(data.get("_implied_by_state", {})))


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

    def as_dict(self) -> dict[str, Any]:
        return {"plan": self.plan.as_dict() if self.plan else None,
                "confident": self.confident, "language": self.language,
                "is_question": self.is_question, "slots": list(self.slots),
                "reason": self.reason, "unexplained": self.unexplained}


@dataclass(slots=True)
class _Words:
    """What the question-word scan found, with the asker's words and token positions."""

    kinds: dict[str, list[str]] = field(default_factory=dict)
    statuses: dict[str, list[str]] = field(default_factory=dict)
    statuses_at: dict[str, set[int]] = field(default_factory=dict)
    first_kind_at: int | None = None  # where the first question word is
    compare: tuple[str, float, str | None] | None = None  # (op, number, unit)
    covered: set[int] = field(default_factory=set)


# What an action leaves behind, when a question asks whether it was done.
ACTION_STATUS = {"turn_on": "on", "turn_off": "off", "open": "open", "close": "closed",
                 "lock": "locked", "unlock": "unlocked"}


def _join(parts: list[str]) -> str:
    out = ""
    for part in parts:
        if out and part and not (has_cjk(out[-1]) or has_cjk(part[0])):
            out += " "
        out += part
    return out


def _scan(analysis: Analysis, lex: Lexicon) -> _Words:
    """Question words, statuses, comparisons and fillers, outside every stretch that names
    something in the home; and the number after a comparison ("below 20 %")."""
    toks = analysis.tokens
    named: set[int] = set()
    for s in analysis.spans:
        if s.refs:
            named.update(range(s.start, s.end))
    keys = toks
    longest = max((len(k) for k in lex.question_phrases), default=1)
    found = _Words()
    pending_compare: str | None = None  # "lt" / "gt" until its number comes
    i = 0
    while i < len(toks):
        match = _NUMBER.match(toks[i])
        if match and pending_compare is not None:
            unit = match.group(2)
            amount = float(match.group(1).replace(",", "."))
            if unit is None and i + 1 < len(toks):
                entries = lex.question_phrases.get((toks[i + 1],), [])
                unit = next((v for c, v in entries if c == "unit"), None)
                if unit is not None:
                    found.covered.add(i + 1)
            found.compare = (pending_compare, amount, _unit(unit))
            found.covered.add(i)
            pending_compare = None
            i += 1
            continue
        step = 1
        for size in range(min(longest, len(toks) - i), 0, -1):
            if any(p in named for p in range(i, i + size)):
                continue
            entries = lex.question_phrases.get(tuple(keys[i:i + size]), [])
            if not entries:
                continue
            text = _join(toks[i:i + size])
            for category, word in entries:
                if category == "kind":
                    found.kinds.setdefault(word, []).append(text)
                    if found.first_kind_at is None:
                        found.first_kind_at = i
                elif category == "status":
                    found.statuses.setdefault(word, []).append(text)
                    found.statuses_at.setdefault(word, set()).update(range(i, i + size))
                elif category == "compare":
                    pending_compare = word
            found.covered.update(range(i, i + size))
            step = size
            break
        i += step
    return found


def _unit(raw: str | None) -> str | None:
    if raw is None:
        return None
    return {"°c": "°C", "°": "°C", "°f": "°F", "%": "%"}.get(raw, raw)


def _merge(irs: list[QueryIR], text: str) -> QueryIR:
    """A question is one request even where the command splitter saw several."""
    if not irs:
        return QueryIR(raw=text)
    ir = irs[0]
    for other in irs[1:]:
        ir.mentions += other.mentions
        ir.scope_include |= other.scope_include
        ir.scope_exclude |= other.scope_exclude
        ir.floor_include |= other.floor_include
        ir.floor_exclude |= other.floor_exclude
        ir.labels |= other.labels
        ir.exclude_labels |= other.exclude_labels
        ir.states |= other.states
        ir.unknown_rooms += other.unknown_rooms
        ir.action = ir.action or other.action
    return ir


def _covers(narrow: frozenset[tuple[str, str | None]],
            wide: frozenset[tuple[str, str | None]]) -> bool:
    """Every target of `narrow` is one of `wide` (a None device class is any class)."""
    return all((d, c) in wide or (d, None) in wide for d, c in narrow)


def _specific(type_ids: list[str], types: TypeTable) -> list[str]:
    """Drop a type when a narrower one was named too: "motion sensor" is motion, not every
    sensor."""
    targets = {t: frozenset(types.types[t].tiers[0]) for t in type_ids if t in types.types
               and types.types[t].tiers}
    keep = []
    for t in type_ids:
        if t not in targets:
            continue
        narrower = [o for o in targets if o != t and _covers(targets[o], targets[t])
                    and not _covers(targets[t], targets[o])]
        if not narrower:
            keep.append(t)
    return keep


def _type_tokens(lex: Lexicon) -> set[str]:
    return {t for words in lex.type_words.values() for w in words for t in tokens(w)}


def _type_of_words(text: str, lex: Lexicon, types: TypeTable) -> list[str]:
    """The type a phrase made only of type words names ("motion sensors" → motion), or
    nothing when any word is not a type word."""
    found: list[str] = []
    for token in tokens(normalize(text)):
        ids = [t for t, words in lex.type_words.items() if token in words]
        if not ids:
            return []
        found.extend(i for i in ids if i not in found)
    return _composite(_specific(found, types), types)


def _composite(type_ids: list[str], types: TypeTable) -> list[str]:
    """"temperature sensors": a measured quantity with a generic device word is the type
    for both together (`temperature_sensor`) when the type table has one."""
    out = list(type_ids)
    for generic in type_ids:
        for t in type_ids:
            both = f"{t}_{generic}"
            if t != generic and both in types.types:
                out = [x for x in out if x not in (t, generic)] + [both]
    return list(dict.fromkeys(out))


def _type_spans(analysis: Analysis, skip: set[int]) -> list[tuple[str, str, int]]:
    """(type id, the asker's words, position) of every type word not inside another reading
    (a status word such as "有人", a home name)."""
    out = []
    for s in analysis.spans:
        if s.refs or any(p in skip for p in range(s.start, s.end)):
            continue
        for type_id in s.values("type"):
            out.append((type_id, s.text, s.start))
    return out


def _place_words(analysis: Analysis, ir: QueryIR, lex: Lexicon) -> str:
    """The asker's words for the place ("upstairs", " in the living room", "客厅")."""
    cjk = lex.script == "cjk"
    parts: list[str] = []
    spans = analysis.spans
    wanted = ir.scope_include | ir.floor_include | ir.labels
    for i, s in enumerate(spans):
        if not any(r.target in wanted for r in s.refs if r.kind in ("area", "floor", "label")):
            continue
        words = [s.text]
        # "in the kitchen": the preposition, and the article between, stay with the place.
        j = i - 1
        between: list[str] = []
        while not cjk and j >= 0 and not spans[j].refs and spans[j].has("determiner") \
                and not spans[j].has("area_prep"):
            between.insert(0, spans[j].text)
            j -= 1
        if not cjk and j >= 0 and spans[j].has("area_prep") and not spans[j].refs:
            words[:0] = [spans[j].text, *between]
        parts.append(_join(words))
    if not parts:
        return ""
    return "".join(parts) if cjk else " " + " ".join(parts)


def _residual_runs(analysis: Analysis, covered: set[int]) -> list[str]:
    """Stretches nothing explained: not a home name, not a lexicon word, not a question word."""
    runs: list[list[str]] = []
    current: list[str] = []
    for s in analysis.spans:
        unexplained = s.is_residual and not all(p in covered for p in range(s.start, s.end)) \
            and s.punct is None and s.text.strip("?？!！.。,，、")
        if unexplained:
            current.append(s.text)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return [_join(r) for r in runs]


def _names_of(device: Device) -> list[str]:
    return [normalize(n) for n in (device.name, *device.aliases, device.device_name or "") if n]


def _contains_word(haystack: str, needle: str) -> bool:
    if has_cjk(needle):
        return needle in haystack
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", haystack) is not None


def compile_question(text: str, index: DeviceIndex, lexicons: LexiconSet,
                     language: str | None = None) -> CompiledQuestion:
    analysis = analyze(text, index, lexicons, language)
    lex = lexicons.get(analysis.language)
    ir = _merge(compile_commands(analysis, index, lexicons), text)
    words = _scan(analysis, lex)
    measures = load_measures()
    types = lexicons.types
    stripped = (text or "").strip()
    # "make it warmer" and "can you turn on the light?" are commands whatever else they hold;
    # "开着" / "关好了没有" read as a state, not an order.
    # An action word after a question word is what is asked about ("did I lock the door?",
    # "哪些窗帘是拉开的"); before any, it is an order.
    asked_from = words.first_kind_at if words.first_kind_at is not None else len(analysis.tokens)
    ordered = any(v != "query" for s in analysis.spans for v in s.values("action")
                  if s.start < asked_from
                  and not all(p in words.covered for p in range(s.start, s.end)))
    is_question = not ordered and (
        ir.action == "query" or bool(words.kinds) or stripped.endswith(("?", "？", "吗", "呢")))

    status_positions = set().union(*words.statuses_at.values()) if words.statuses_at else set()
    spans = _type_spans(analysis, status_positions)
    type_ids = _specific(list(dict.fromkeys(t for t, _, _ in spans)), types)
    for state_class in ir.states:
        implied = measures.implied_by_state.get(state_class)
        if implied and implied not in type_ids:
            type_ids.append(implied)
    mention_ids = sorted({e for m in ir.mentions for e in m.entity_ids})
    plural = bool(words.kinds.get("list") or words.kinds.get("count"))
    # A name that is also a type word ("百叶帘", a sensor called "Temperature") means the type
    # when asked in the plural, when it is a measurement, or when the place asked about is not
    # where those entities are.
    for m in ir.mentions:
        # "fridge power" names a sensor; "power" or "motion sensors" may be the type.
        meant = _type_of_words(m.text, lex, types) if not m.type_id else (
            [m.type_id] if set(tokens(normalize(m.text))) <= _type_tokens(lex) else [])
        if not meant or set(meant) <= set(type_ids):
            continue
        elsewhere = any(not _in_scope(index.device(e), ir) for e in m.entity_ids
                        if e in index)
        if plural or any(t in measures.sources for t in meant) or elsewhere:
            type_ids.extend(t for t in meant if t not in type_ids)
            mention_ids = [e for e in mention_ids if e not in m.entity_ids]
    type_ids = _composite(type_ids, types)
    measure_types = [t for t in type_ids if t in measures.sources]
    if not measure_types and mention_ids and not words.statuses and (
            any(k in words.kinds for k in (*_AGGREGATES, "sum", "amount"))
            or words.compare is not None):
        # "add up the fridge power and the charger power", "客厅温度多少": what the named
        # sensors measure.
        measure_types = _measured_by(mention_ids, index, measures)
    status = next(iter(words.statuses), None)
    if status is None and words.first_kind_at is not None:
        # "did I lock the back door?": the action asked about is the state it leaves.
        status = next((ACTION_STATUS[v] for s in analysis.spans if s.start > words.first_kind_at
                       for v in s.values("action") if v in ACTION_STATUS), None)
        if status is not None:
            words.statuses[status] = [lex.state_words.get(status, status)]
    if status == "low" and "battery" not in type_ids:
        status = None  # "low" of anything else is a threshold we do not guess

    covered = set(words.covered)
    residual = [term for term in _residual_runs(analysis, covered)
                # "bedroom" read as every room whose name holds it is explained.
                if not (index.areas_containing(term, lex)
                        and index.areas_containing(term, lex) <= ir.scope_include)]
    scope = _scope_filters(ir)
    about: dict[str, str] = {"place": _place_words(analysis, ir, lex)}
    kinds = words.kinds
    aggregate = next((k for k in _AGGREGATES if k in kinds), None)
    count_asked = "count" in kinds or ("amount" in kinds and not measure_types)
    if aggregate is None and not count_asked and "sum" in kinds and measure_types:
        aggregate = "sum"
    any_asked = "yes_no_any" in kinds and not count_asked and not aggregate \
        and not kinds.get("list")
    yes_no = ("yes_no" in kinds or any_asked) and not kinds.get("list") \
        and not count_asked and not aggregate
    if not kinds and status is not None and stripped.endswith(("?", "？")):
        # Some languages ask yes/no by intonation alone ("Входная дверь заперта?").
        yes_no = True

    plan: QueryPlan | None = None
    reason: str | None = None
    if status == "low" and "battery" in type_ids and words.compare is None:
        plan = _low_battery(scope, count_asked, about, lex)
    elif measure_types and (aggregate or not count_asked or words.compare):
        plan, residual = _measure_plan(measure_types[0], scope, mention_ids, aggregate,
                                       count_asked, words, index, ir, about, residual,
                                       # What the quantity is called ("how warm" asks
                                       # for the temperature), else the asker's word.
                                       lex.type_words.get(measure_types[0], [])[:1]
                                       or [w for t, w, _ in spans if t == measure_types[0]],
                                       frozenset(w for ws in lex.type_words.values()
                                                 for w in ws))
    else:
        subject: list[tuple[Filter, ...]] = [()]
        if type_ids:
            subject = [(Filter("type", "in", tuple(type_ids)),)]
            about["subject"] = _join(list(dict.fromkeys(w for _, w, _ in spans)))
        elif ir.states and not mention_ids:
            subject = _state_targets(ir.states, types)
        elif status == "on" and not mention_ids:
            # "What is on in the kitchen?" means things switched on, not sensors reporting.
            subject = [(Filter("domain", "ne", "binary_sensor"),)]
        if mention_ids:
            subject = [(*clause, Filter("entity_id", "in", tuple(mention_ids)))
                       for clause in subject]
        if not type_ids and not mention_ids and not ir.states and status is None \
                and not scope:
            reason = "no_subject"
        implied = status
        if implied is None and (yes_no or any_asked) and _all_binary(type_ids, ir, types):
            implied = "detected"  # "is there a leak?", "有没有人"
        if reason is None:
            if status:
                about["status"] = words.statuses[status][0]
            single = mention_ids or _one_thing(index, ir, type_ids, types)
            if yes_no and not any_asked and implied and single and not plural:
                plan = QueryPlan(where=tuple((*scope, *c) for c in subject), expect=implied,
                                 about={**about, "style": "yes_no"})
            else:
                status_filter = (Filter("status", "eq", implied),) if implied else ()
                style = "yes_no_any" if (yes_no or any_asked) and implied else (
                    "count" if count_asked else "list")
                plan = QueryPlan(where=tuple((*scope, *c, *status_filter) for c in subject),
                                 aggregate="count" if count_asked else "list",
                                 about={**about, "style": style})

    if plan is not None:
        plan = replace(plan, about={k: v for k, v in plan.about.items() if v})
        try:
            # What is compiled must also be what a cache may store and serve again.
            validate_plan(plan.as_dict(), frozenset(types.types))
        except PlanError as err:
            plan, reason = None, f"plan_invalid: {err.reason}"
    # A room the home lacks ("in the attic") is left unexplained, so `residual` holds it; the
    # IR's own unknown rooms also count question words it does not know ("亮着"), so not them.
    confident = plan is not None and is_question and not residual
    if not confident and reason is None:
        reason = ("no_plan" if plan is None else "not_a_question" if not is_question
                  else "unknown_words")
    named = [str(v) for clause in (plan.where if plan else ()) for f in clause
             if f.field == "entity_id" for v in (f.value if isinstance(f.value, tuple)
                                                 else (f.value,))]
    slots = _slots(ir, type_ids, status, aggregate, count_asked, yes_no,
                   sorted({*mention_ids, *named}), words.compare, residual)
    return CompiledQuestion(plan=plan, confident=confident, language=analysis.language,
                            is_question=is_question, slots=slots, reason=reason,
                            unexplained=residual)


def _measured_by(entity_ids: list[str], index: DeviceIndex, measures: Measures) -> list[str]:
    """The measured quantity every one of these entities reads, if they share one."""
    devices = [index.device(e) for e in entity_ids if e in index]
    for type_id, sources in measures.sources.items():
        first = sources[0]
        if devices and all(d.domain == first.domain and d.device_class == first.device_class
                           for d in devices):
            return [type_id]
    return []


def _one_thing(index: DeviceIndex, ir: QueryIR, type_ids: list[str], types: TypeTable
               ) -> bool:
    """Whether the question's subject is a single entity here ("is the bedroom window
    open?"): then yes/no is about it; otherwise it asks whether any is."""
    targets = {t for tid in type_ids if tid in types.types and types.types[tid].tiers
               for t in types.types[tid].tiers[0]}
    if not targets:
        return False
    found = [d for d in index.devices() if _in_scope(d, ir)
             and ((d.domain, d.device_class) in targets or (d.domain, None) in targets)]
    return len(found) == 1


def _all_binary(type_ids: list[str], ir: QueryIR, types: TypeTable) -> bool:
    """The subject only has detectors (binary sensors): asking about it asks if it detects."""
    targets = [t for tid in type_ids if tid in types.types for t in types.types[tid].tiers[0]]
    targets += [t for s in ir.states if s in types.states for t in types.states[s][0]]
    return bool(targets) and all(d == "binary_sensor" for d, _ in targets)


def _state_targets(states: set[str], types: TypeTable) -> list[tuple[Filter, ...]]:
    """The devices a state word is about ("漏水" → moisture sensors), one clause each; a
    state whose devices another one narrows down ("detected" vs "wet") is dropped."""
    targets = {s: frozenset(types.states[s][0]) for s in states
               if types.states.get(s)}
    kept = [s for s in sorted(targets) if not any(
        o != s and _covers(targets[o], targets[s]) and not _covers(targets[s], targets[o])
        for o in targets)]
    clauses: list[tuple[Filter, ...]] = []
    for state in kept:
        for domain, device_class in sorted(targets[state], key=lambda t: (t[0], t[1] or "")):
            clause = [Filter("domain", "eq", domain)]
            if device_class:
                clause.append(Filter("device_class", "eq", device_class))
            clauses.append(tuple(clause))
    return clauses or [()]


def _scope_filters(ir: QueryIR) -> list[Filter]:
    out: list[Filter] = []
    if ir.scope_include:
        out.append(Filter("area", "in", tuple(sorted(ir.scope_include))))
    if ir.floor_include:
        out.append(Filter("floor", "in", tuple(sorted(ir.floor_include))))
    if ir.labels:
        out.append(Filter("label", "in", tuple(sorted(ir.labels))))
    out += [Filter("area", "ne", a) for a in sorted(ir.scope_exclude)]
    out += [Filter("floor", "ne", f) for f in sorted(ir.floor_exclude)]
    out += [Filter("label", "ne", label) for label in sorted(ir.exclude_labels)]
    return out


def _low_battery(scope: list[Filter], count_asked: bool, about: dict[str, str],
                 lex: Lexicon) -> QueryPlan:
    """Battery sensors under 20 %, or battery binary sensors that report low ("on")."""
    sensors = (*scope, Filter("domain", "eq", "sensor"), Filter("device_class", "eq", "battery"),
               Filter("state", "lt", LOW_BATTERY_PERCENT, unit="%"))
    binary = (*scope, Filter("domain", "eq", "binary_sensor"),
              Filter("device_class", "eq", "battery"), Filter("state", "eq", "on"))
    style = "count" if count_asked else "list"
    return QueryPlan(where=(sensors, binary), aggregate="count" if count_asked else "list",
                     measure="state", order_by="measure",
                     about={**about, "style": style, "subject": lex.message("q_things"),
                            "status": lex.message("q_low_battery")})


def _in_scope(d: Device, ir: QueryIR) -> bool:
    if ir.scope_include and d.area_id not in ir.scope_include:
        return False
    if ir.floor_include and d.floor_id not in ir.floor_include:
        return False
    if ir.labels and not set(d.labels) & ir.labels:
        return False
    return d.area_id not in ir.scope_exclude and d.floor_id not in ir.floor_exclude


def _measure_plan(type_id: str, scope: list[Filter], mention_ids: list[str],
                  aggregate: str | None, count_asked: bool, words: _Words, index: DeviceIndex,
                  ir: QueryIR, about: dict[str, str], residual: list[str],
                  measure_words: list[str], generic: frozenset[str] = frozenset()
                  ) -> tuple[QueryPlan, list[str]]:
    """A measured quantity: the first source of it that exists where the question looks,
    narrowed to the entities the question names (directly, through their device, or by a
    word of their name); returns the plan and the words still unexplained."""
    sources = load_measures().sources[type_id]
    devices = [d for d in index.devices() if _in_scope(d, ir)]

    def of(source: MeasureSource) -> list[Device]:
        return [d for d in devices if d.domain == source.domain
                and (source.device_class is None or d.device_class == source.device_class)]

    mentioned_devices = [index.device(e) for e in mention_ids if e in index]

    def named_in(source: MeasureSource) -> bool:
        return any(d.domain == source.domain and (source.device_class is None
                                                  or d.device_class == source.device_class)
                   for d in mentioned_devices)

    # A source the question names ("热水器多少度") first, then the first that exists here.
    chosen = next((s for s in sources if named_in(s)), None) or next(
        (s for s in sources if not s.only_when_named and of(s)), sources[0])
    candidates = of(chosen)
    named: set[str] = set()
    if mention_ids:
        mentioned = [index.device(e) for e in mention_ids if e in index]
        direct = {d.entity_id for d in mentioned} & {c.entity_id for c in candidates}
        named |= direct
        for m in mentioned:
            if m.entity_id in direct:
                continue
            named |= {c.entity_id for c in candidates if _related(m, c)}
    # Words of a name the analysis did not place ("冰箱", "outside", "whole house power").
    still: list[str] = []
    for term in residual:
        norm = normalize(term)
        hits = {c.entity_id for c in candidates if any(_contains_word(n, norm)
                                                       for n in _names_of(c))}
        if hits:
            named |= hits
        else:
            still.append(term)
    if not named:
        # A name that is only a type word ("Temperature") is not a name the asker used.
        question = normalize(ir.raw)
        named = {c.entity_id for c in candidates
                 if any(len(n) > 3 and n not in generic and _contains_word(question, n)
                        for n in _names_of(c))}
    clause = [*scope, Filter("domain", "eq", chosen.domain)]
    if chosen.device_class:
        clause.append(Filter("device_class", "eq", chosen.device_class))
    # More entities than a plan may name were not named: the words were generic.
    if named and len(named) <= MAX_VALUES:
        clause.append(Filter("entity_id", "in", tuple(sorted(named))))
    if words.compare is not None:
        op, value, unit = words.compare
        clause.append(Filter("state", op, value, unit=unit) if chosen.measure == "state"
                      else Filter("attribute", op, value,
                                  attribute=chosen.measure.split(":", 1)[1]))
    style = aggregate or ("count" if count_asked else "list" if words.compare else "value")
    about = {**about, "measure": _join(measure_words[:1]), "style": style,
             "subject": _join(measure_words[:1])}
    agg = aggregate or ("count" if count_asked else "list")
    plan = QueryPlan(where=(tuple(clause),), aggregate=agg,  # type: ignore[arg-type]
                     measure=chosen.measure, order_by=None if aggregate else "area",
                     about=about)
    return plan, still


def _related(entity: Device, candidate: Device) -> bool:
    """`candidate` measures something of `entity`: same device, or named after it."""
    if entity.device_id and entity.device_id == candidate.device_id:
        return True
    if entity.device_name and entity.device_name == candidate.device_name:
        return True
    own = [n for n in _names_of(entity) if len(n) >= 2]
    return any(n.startswith(o) or o.startswith(n) for o in own for n in _names_of(candidate)
               if len(n) >= 2 and n != normalize(candidate.device_name or ""))


def _slots(ir: QueryIR, type_ids: list[str], status: str | None, aggregate: str | None,
           count_asked: bool, yes_no: bool, mention_ids: list[str],
           compare: tuple[str, float, str | None] | None,
           residual: list[str]) -> tuple[str, ...]:
    """Everything the question names. Two questions with the same slots ask the same thing of
    the same entities, so a cached plan of one may answer the other; differing slots never
    share a plan however alike the wording ("upstairs" vs "downstairs")."""
    slots = {f"area:{a}" for a in ir.scope_include} | {f"-area:{a}" for a in ir.scope_exclude}
    slots |= {f"floor:{f}" for f in ir.floor_include} | {f"-floor:{f}" for f in ir.floor_exclude}
    slots |= {f"label:{x}" for x in ir.labels} | {f"-label:{x}" for x in ir.exclude_labels}
    slots |= {f"type:{t}" for t in type_ids} | {f"entity:{e}" for e in mention_ids}
    slots |= {f"state:{s}" for s in ir.states}
    if status:
        slots.add(f"status:{status}")
    if aggregate:
        slots.add(f"agg:{aggregate}")
    if count_asked:
        slots.add("count")
    if yes_no:
        slots.add("yes_no")
    if compare:
        slots.add(f"compare:{compare[0]}:{compare[1]:g}:{compare[2] or ''}")
    slots |= {f"word:{normalize(w)}" for w in residual}
    return tuple(sorted(slots))


__all__ = ["CompiledQuestion", "MeasureSource", "Measures", "compile_question",
           "load_measures"]
