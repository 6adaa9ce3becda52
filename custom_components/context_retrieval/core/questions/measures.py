"""Measured quantities: where each is read (`measures.json`) and the plan that reads it.

"卧室温度多少", "the average humidity", "which sensors read above 25 degrees", "the vacuum's
battery": a measured quantity is read from the first source of it that exists where the
question looks, narrowed to the entities the question names.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..base.index import DeviceIndex
from ..base.lexicon import LEXICON_DIR
from ..base.models import Device, QueryIR
from ..base.text import normalize
from .plan import MAX_VALUES, Filter, QueryPlan
from .reading import QuestionWords, contains_word, in_scope, join_words, names_of

_MEASURES_FILE = LEXICON_DIR / "measures.json"


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
    """The measures table, shared by every language."""
    data = json.loads(path.read_text(encoding="utf-8"))
    sources = {
        type_id: tuple(
            MeasureSource(
                s["domain"],
                s.get("device_class"),
                s.get("measure", "state"),
                bool(s.get("only_when_named")),
            )
            for s in items
        )
        for type_id, items in data.items()
        if not type_id.startswith("_")
    }
    return Measures(sources, dict(data.get("_implied_by_state", {})))


def measured_by(entity_ids: list[str], index: DeviceIndex, measures: Measures) -> list[str]:
    """The measured quantity every one of these entities reads, if they share one."""
    devices = [index.device(e) for e in entity_ids if e in index]
    for type_id, sources in measures.sources.items():
        first = sources[0]
        if devices and all(
            d.domain == first.domain and d.device_class == first.device_class for d in devices
        ):
            return [type_id]
    return []


def measure_plan(
    type_id: str,
    scope: list[Filter],
    mention_ids: list[str],
    aggregate: str | None,
    count_asked: bool,
    words: QuestionWords,
    index: DeviceIndex,
    ir: QueryIR,
    about: dict[str, str],
    residual: list[str],
    measure_words: list[str],
    generic: frozenset[str] = frozenset(),
) -> tuple[QueryPlan, list[str]]:
    """A measured quantity: the first source of it that exists where the question looks,
    narrowed to the entities the question names (directly, through their device, or by a
    word of their name); returns the plan and the words still unexplained."""
    devices = [d for d in index.devices() if in_scope(d, ir)]
    mentioned = [index.device(e) for e in mention_ids if e in index]
    chosen = _source(load_measures().sources[type_id], devices, mentioned)
    candidates = [d for d in devices if _measures(chosen, d)]
    named = _named_by_mention(candidates, mentioned) if mention_ids else set()
    by_words, still = _named_by_words(candidates, residual)
    named |= by_words
    if not named:
        # A name that is only a type word ("Temperature") is not a name the asker used.
        question = normalize(ir.raw)
        named = {
            c.entity_id
            for c in candidates
            if any(
                len(n) > 3 and n not in generic and contains_word(question, n) for n in names_of(c)
            )
        }
    style = aggregate or ("count" if count_asked else "list" if words.compare else "value")
    about = {
        **about,
        "measure": join_words(measure_words[:1]),
        "style": style,
        "subject": join_words(measure_words[:1]),
    }
    agg = aggregate or ("count" if count_asked else "list")
    plan = QueryPlan(
        where=(tuple(_clause(scope, chosen, named, words)),),
        aggregate=agg,  # type: ignore[arg-type]
        measure=chosen.measure,
        order_by=None if aggregate else "area",
        about=about,
    )
    return plan, still


def _measures(source: MeasureSource, device: Device) -> bool:
    return device.domain == source.domain and (
        source.device_class is None or device.device_class == source.device_class
    )


def _source(
    sources: Sequence[MeasureSource], devices: list[Device], mentioned: list[Device]
) -> MeasureSource:
    """A source the question names ("热水器多少度") first, then the first that exists here."""
    return next((s for s in sources if any(_measures(s, d) for d in mentioned)), None) or next(
        (s for s in sources if not s.only_when_named and any(_measures(s, d) for d in devices)),
        sources[0],
    )


def _named_by_mention(candidates: list[Device], mentioned: list[Device]) -> set[str]:
    """The candidates the question names, or that measure something of what it names."""
    direct = {d.entity_id for d in mentioned} & {c.entity_id for c in candidates}
    named = set(direct)
    for m in mentioned:
        if m.entity_id in direct:
            continue
        named |= {c.entity_id for c in candidates if _related(m, c)}
    return named


def _named_by_words(candidates: list[Device], residual: list[str]) -> tuple[set[str], list[str]]:
    """Words of a name the analysis did not place ("冰箱", "outside", "whole house power"):
    the candidates they name, and the words that name none."""
    named: set[str] = set()
    still: list[str] = []
    for term in residual:
        norm = normalize(term)
        hits = {c.entity_id for c in candidates if any(contains_word(n, norm) for n in names_of(c))}
        if hits:
            named |= hits
        else:
            still.append(term)
    return named, still


def _clause(
    scope: list[Filter], chosen: MeasureSource, named: set[str], words: QuestionWords
) -> list[Filter]:
    """The plan's filters: where the question looks, the source, the entities named, and
    the comparison said ("above 25 degrees")."""
    clause = [*scope, Filter("domain", "eq", chosen.domain)]
    if chosen.device_class:
        clause.append(Filter("device_class", "eq", chosen.device_class))
    # More entities than a plan may name were not named: the words were generic.
    if named and len(named) <= MAX_VALUES:
        clause.append(Filter("entity_id", "in", tuple(sorted(named))))
    if words.compare is not None:
        op, value, unit = words.compare
        clause.append(
            Filter("state", op, value, unit=unit)
            if chosen.measure == "state"
            else Filter("attribute", op, value, attribute=chosen.measure.split(":", 1)[1])
        )
    return clause


def _related(entity: Device, candidate: Device) -> bool:
    """`candidate` measures something of `entity`: same device, or named after it."""
    if entity.device_id and entity.device_id == candidate.device_id:
        return True
    if entity.device_name and entity.device_name == candidate.device_name:
        return True
    own = [n for n in names_of(entity) if len(n) >= 2]
    return any(
        n.startswith(o) or o.startswith(n)
        for o in own
        for n in names_of(candidate)
        if len(n) >= 2 and n != normalize(candidate.device_name or "")
    )
