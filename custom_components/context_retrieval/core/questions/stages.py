"""The values the stages of `compile_question` hand on: what the question says (`Heard`),
what it is about (`Subject`), how it asks (`Asking`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..base.lexicon import Lexicon
from ..base.models import QueryIR
from ..base.parse import Analysis
from .plan import Filter
from .reading import QuestionWords
from .values import StatusKinds, StatusRule


@dataclass(slots=True)
class Heard:
    """What the question says: its reading, its question words, whether it is an order."""

    analysis: Analysis
    lex: Lexicon
    ir: QueryIR
    words: QuestionWords
    stripped: str
    command: bool
    is_question: bool


@dataclass(frozen=True, slots=True)
class Subject:
    """What the question is about: the status asked, the types and names it means, the
    quantity it measures, and the words nothing explained."""

    status_said: bool
    status: str | None
    table: Mapping[str, tuple[StatusRule, ...]]
    status_kinds: StatusKinds
    spans: list[tuple[str, str, int]]
    type_ids: list[str]
    mention_ids: list[str]
    measure_types: list[str]
    plural: bool
    residual: list[str]


@dataclass(frozen=True, slots=True)
class Asking:
    """How the question asks: where, which aggregate, a count, yes or no, any or all."""

    scope: list[Filter]
    about: dict[str, str]
    every: bool
    aggregate: str | None
    count_asked: bool
    any_asked: bool
    yes_no: bool
