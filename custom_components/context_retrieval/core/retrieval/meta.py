"""What a result says of how its command was read and why it selected what it did.

Every note is a typed field that is `None` until a stage has something to say; the JSON a
service or the command line shows (`to_dict`) lists only the notes that were set, under the
field's name, so the keys automations read stay what they were when this was a dict.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any


class NotCommanded(StrEnum):
    """Why a command, as read, acts on nothing (its targets are kept in `mentioned`)."""

    NOT_ABOUT_THE_HOME = "not_about_the_home"
    NEGATED = "negated"  # "don't turn on the light"
    DELAYED = "delayed"  # "turn it off in ten minutes": a timer, not now
    NO_ACTION = "no_action"  # only the target was said
    VALUE_OUT_OF_RANGE = "value_out_of_range"  # "set the light to 300 %"
    VALUE_MISSING = "value_missing"  # "set the thermostat to"
    CANNOT_DO = "cannot_do"  # what was named cannot do the action
    REFERENCE_UNRESOLVED = "reference_unresolved"  # "turn it off" with nothing said before
    NOTHING_THERE = "nothing_there"  # "the bedroom TV" with no TV in the bedroom
    NOT_FOUND = "not_found"  # "turn on the christmas tree" with no such device


class CapabilityFilter(StrEnum):
    """Whether devices that cannot do the action were taken out (hard) or only ranked lower."""

    HARD = "hard"
    SOFT = "soft"


# The notes that list entity ids (an entity taken from Assist is dropped from them).
ENTITY_LISTS = (
    "clarification_primary",
    "clarification_pool",
    "named_incapable",
    "everything_skipped",
    "name_reading",
    "capability_removed",
    "mentioned",
)


@dataclass(slots=True)
class ResultMeta:
    """The notes of one result, grouped by the stage that writes them."""

    # How the utterance was read (the same for every command of it).
    language: str | None = None
    parser: str | None = None  # "llm" when a model read the commands
    parse_degraded: str | None = None  # why the model's reading was not used
    spelling_repaired: list[list[str]] | None = None  # [said, read as] pairs
    text_truncated: bool | None = None
    confirmation_dropped: bool | None = None  # a new request instead of a yes or no
    clarification_dropped: bool | None = None  # a new request instead of an answer
    empty_input: bool | None = None
    error: str | None = None  # the exception's type, when reading failed
    # Scope: rooms, floors, "here", labels, exclusions.
    confidence: float | None = None
    here_area: str | None = None
    here_without_area: bool | None = None
    scope_include_fallback: int | None = None
    room_name_used: int | None = None
    room_name_ambiguous: int | None = None
    room_unknown_terms: list[str] | None = None
    scope_removed: int | None = None
    labels: list[str] | None = None
    excluded: int | None = None
    capability_filter: CapabilityFilter | None = None
    # Names, types and what the command implies.
    named_incapable: list[str] | None = None
    unmatched_mentions: list[str] | None = None
    clarification_primary: list[str] | None = None
    satellite_area: str | None = None
    vector_unavailable: bool | None = None
    reference: str | None = None  # "singular", "plural", "implicit"…: how "it" was said
    reference_unresolved: bool | None = None
    place_only: str | None = None  # the type a command naming only a place acts on
    everything_skipped: list[str] | None = None
    no_match: bool | None = None
    name_reading: list[str] | None = None
    name_reading_used: bool | None = None
    shared_place_dropped: list[str] | None = None
    # The selection.
    clarification_pool: list[str] | None = None
    capability_removed: list[str] | None = None
    capability_removed_count: int | None = None
    setting: dict[str, Any] | None = None
    not_commanded: NotCommanded | None = None
    mentioned: list[str] | None = None
    not_found: list[str] | None = None
    one_of_several: int | None = None
    # Replies to what was asked last turn.
    clarification_answer: str | None = None
    clarification_cancelled: bool | None = None
    clarification_unresolved: bool | None = None
    misses: int | None = None
    clarification_abandoned: bool | None = None
    confirmed: bool | None = None
    confirmation_declined: bool | None = None
    # Added by the integration.
    semantic_degraded: dict[str, str] | None = None
    withdrawn: int | None = None  # how many entities were taken from Assist, never which

    def to_dict(self) -> dict[str, Any]:
        """The notes that were set, as JSON-ready values (enums as their strings)."""
        notes: dict[str, Any] = {}
        for name, value in self.notes_set():
            if isinstance(value, StrEnum):
                value = value.value
            elif isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            elif isinstance(value, dict):
                value = dict(value)
            notes[name] = value
        return notes

    def notes_set(self) -> list[tuple[str, Any]]:
        """(name, value) of every note that was set, in the order of the fields."""
        return [(name, value) for name in NAMES if (value := getattr(self, name)) is not None]

    def fill(self, base: ResultMeta) -> ResultMeta:
        """These notes (a command's), completed in place with `base`'s (the utterance's)
        where they say nothing, and returned.

        A command's notes are its own until its result is handed back, so they are completed
        in place: copying some fifty fields per command would cost more than the merge."""
        for name, value in base.notes_set():
            if getattr(self, name) is None:
                setattr(self, name, value)
        return self

    def without_entities(self, entity_ids: frozenset[str]) -> ResultMeta:
        """These notes with `entity_ids` left out of every list of entities."""
        kept = ResultMeta().fill(self)
        for name in ENTITY_LISTS:
            listed: list[str] | None = getattr(self, name)
            if listed is not None:
                setattr(kept, name, [e for e in listed if e not in entity_ids])
        return kept


NAMES: tuple[str, ...] = tuple(f.name for f in fields(ResultMeta))
