"""Plain records shared by every feature: the home (floors, areas, devices), one command read
from an utterance (`QueryIR` and its `Mention`s) and a scored `Candidate`.

Everything here is data: no behaviour beyond small conveniences, no Home Assistant imports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

Quantifier = Literal["one", "all", "any", "except"]


@dataclass(frozen=True, slots=True)
class Floor:
    floor_id: str
    name: str
    aliases: tuple[str, ...] = ()
    level: int | None = None


@dataclass(frozen=True, slots=True)
class Area:
    area_id: str
    name: str
    aliases: tuple[str, ...] = ()
    floor_id: str | None = None


@dataclass(frozen=True, slots=True)
class Device:
    """One addressable entity as the engine sees it.

    `area_*` is the entity's own area, else its device's; `floor_*` is that area's floor.
    `actions` are the abstract actions the entity supports (see `actions.ACTIONS`).
    """

    entity_id: str
    name: str
    domain: str
    aliases: tuple[str, ...] = ()
    device_class: str | None = None
    area_id: str | None = None
    area_name: str | None = None
    area_aliases: tuple[str, ...] = ()
    floor_id: str | None = None
    floor_name: str | None = None
    floor_aliases: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    device_name: str | None = None
    device_id: str | None = None
    actions: frozenset[str] = frozenset()
    state: str | None = None


def placement(area: Area | None, floor: Floor | None) -> dict[str, Any]:
    """The location fields of a `Device` in `area` on `floor` (either may be unknown)."""
    return {
        "area_id": area.area_id if area else None,
        "area_name": area.name if area else None,
        "area_aliases": area.aliases if area else (),
        "floor_id": floor.floor_id if floor else None,
        "floor_name": floor.name if floor else None,
        "floor_aliases": floor.aliases if floor else (),
    }


@dataclass(slots=True)
class Mention:
    """A stretch of the utterance that names entities of the home.

    `entity_ids` are the entities whose name, alias or device name it matches; `exact` is
    False when it matched only through inflection ("lights" for "Light"); `type_id` is set when
    the same words are also a type word ("blinds", "窗帘"), so the resolver can choose.
    """

    text: str
    entity_ids: frozenset[str] = frozenset()
    exact: bool = True
    type_id: str | None = None
    partial: bool = False
    modifiers: tuple[str, ...] = ()
    inflected: bool = False  # said in a plural/inflected form: "the curtains"
    types_inside: tuple[str, ...] = ()  # type words within the name ("motion sensor")
    only_type_words: bool = False  # the name is nothing but type words ("人体传感器")


class Note(StrEnum):
    """What the reading of a command noticed, for the stages after it."""

    ACTION_INHERITED = "action_inherited"  # "turn on A and B": B's verb is A's
    SHARED_PLACE = "shared_place"  # "the kitchen A and B": B is in the kitchen too
    SPELLING_REPAIRED = "spelling_repaired"  # a typo repaired to a word of the home
    LABEL_BEGINS_A_NAME = "label_begins_a_name"  # a label word that starts a device's name
    DELAYED = "delayed"  # "in 5 minutes": a delay, not now
    NEGATED = "negated"  # "don't turn on …"
    NEGATION_ALONE = "negation_alone"  # "not the living room": no verb, a negation
    EXCLUSION_UNREAD = "exclusion_unread"  # "all but the sheer": what to leave out unknown
    BARE_TARGET = "bare_target"  # a target said without a verb
    OTHERS = "others"  # "turn off the others": what the last turn did not act on
    NOT_ABOUT_THE_HOME = "not_about_the_home"  # "write a poem"
    VALUE_MISSING = "value_missing"  # "set the lamp to" with no value
    ROOM_PARTIAL_MATCH = "room_partial_match"  # a part of a room's name read as the room
    RUN_BY_NAME = "run_by_name"  # a scene or script run by its name alone
    PLACE_FROM_LAST_TURN = "place_from_last_turn"  # "and in the bedroom?": the last turn's
    ACTION_FROM_LAST_TURN = "action_from_last_turn"  # "and the kitchen?": the last action


@dataclass(slots=True)
class QueryIR:
    """One command of an utterance, as the engine reads it: what to do, to what, where.

    Scope sets hold area ids / floor ids of the home when they were recognised, or the raw
    term when they were not (those are reported in `meta.room_unknown_terms`).
    """

    raw: str
    language: str = "en"
    action: str | None = None
    scope_include: set[str] = field(default_factory=set)
    scope_exclude: set[str] = field(default_factory=set)
    floor_include: set[str] = field(default_factory=set)
    floor_exclude: set[str] = field(default_factory=set)
    labels: set[str] = field(default_factory=set)
    quantifier: Quantifier = "one"
    # The target was said of several: a plural ("the lamps") or a quantifier ("all", "both").
    several: bool = False
    # How many of the targets were asked for ("one of the kitchen lights", "two lamps"):
    # more found than that asks which.
    count: int | None = None
    implied_type: str | None = None
    mentions: list[Mention] = field(default_factory=list)
    type_groups: list[tuple[str, ...]] = field(default_factory=list)
    type_words: list[str] = field(default_factory=list)  # the type words as said ("床头灯")
    states: set[str] = field(default_factory=set)
    generic: bool = False
    # The target was "everything" itself ("turn everything off", "alles aus"), no noun for
    # devices: the devices people switch, not every plug ("all devices" says more).
    everything: bool = False
    exclude_mentions: list[Mention] = field(default_factory=list)
    # Names read as room + type ("kitchen lights" in a home with a "Kitchen Light"): the name
    # reading is kept here, used when the room holds none of that type.
    name_alternatives: list[Mention] = field(default_factory=list)
    exclude_type_groups: list[tuple[str, ...]] = field(default_factory=list)
    exclude_labels: set[str] = field(default_factory=set)
    phrases: list[str] = field(default_factory=list)
    reference_kind: Literal["none", "singular", "plural", "implicit"] = "none"
    references: list[str] = field(default_factory=list)
    here: bool = False
    # The rooms were named by a kind of room that several are ("卧室": 主卧 and 次卧).
    rooms_by_kind: bool = False
    # "in there", "那里": the room the conversation was just about.
    there: bool = False
    # A complaint about a room ("too dark", "太热了"): the kind of device it asks for is
    # chosen among what the room has (types.json "conditions").
    condition: str | None = None
    everywhere: bool = False
    unknown_terms: list[str] = field(default_factory=list)
    unknown_rooms: list[str] = field(default_factory=list)
    confidence: float = 0.5
    notes: list[Note] = field(default_factory=list)
    # The setting a set command carries, language-neutral (see `parse.values`): the attribute
    # ("brightness", "color_temp", "temperature", "position", "volume", "fan_speed", "color"),
    # the number in `unit` ("%", "K", "°C", "°F", "°") or a named value ("red"), "up"/"down"
    # for a change, and "out_of_range" when Home Assistant would refuse the value.
    attribute: str | None = None
    value: float | str | None = None
    unit: str | None = None
    change: str | None = None
    value_error: Literal["out_of_range"] | None = None

    @property
    def says_what(self) -> bool:
        """It says what to act on: a name, a type word, a label or a word for any device."""
        return bool(self.mentions or self.type_groups or self.generic or self.labels)

    @property
    def names_a_place(self) -> bool:
        return bool(self.scope_include or self.floor_include)


class Basis(StrEnum):
    """What in the utterance or the conversation selected an entity: whether acting on it is
    grounded in what the user said, or a reading the engine inferred."""

    NAME = "name"  # its name or alias, whole or its telling part
    TYPE = "type"  # a type word said ("the lights", "窗帘")
    REFERENCE = "reference"  # "it", "them", or a target left unsaid after the last turn
    ANSWER = "answer"  # the answer to the question asked back
    EVERYTHING = "everything"  # "everything", "all devices", a place with no kind
    LABEL = "label"  # a label the owner gave them ("the christmas decorations")
    STATE = "state"  # a state word alone ("what is open?")
    ACTION = "action"  # the action's own kind ("dock" → the vacuum)
    PLACE = "place"  # a switching command naming only a place: its lights
    WORDS = "words"  # free words close to a name


class ReasonCode(StrEnum):
    """Why a candidate is one: the panel says each in the user's language."""

    NAME = "name"  # one of its names was said
    KEYWORD = "keyword"  # its name is close to the words said
    VECTOR = "vector"  # close by character n-grams
    EMBEDDING = "embedding"  # close by the embedding service
    TYPE = "type"  # of the kind asked for, in the place asked for
    STATE = "state"  # in the state asked about
    LAST_TURN = "last_turn"  # "it": what the last turn acted on
    ALL_CAPABLE = "all_capable"  # everything in the place that can do the action
    CLARIFIED = "clarified"  # the user's answer to our question
    CONFIRMED = "confirmed"  # the user said yes
    ROOM_NAMED = "room_named"  # in the room said earlier in the utterance
    SATELLITE_ROOM = "satellite_room"  # in the room of the voice satellite
    WORDS_FIT = "words_fit"  # the leftover words describe it best


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a candidate scored what it did: a code and the values it speaks of (the words
    said, the name they matched and which of its names, a score). `str()` is the English
    sentence logs and the service's `reasons` show."""

    code: ReasonCode
    said: str = ""
    matched: str = ""
    field: str = ""  # which name matched: "name", "alias" or "device"
    score: float | None = None

    def __str__(self) -> str:
        field = _NAME_FIELDS.get(self.field, self.field) if self.code is ReasonCode.NAME else ""
        return _REASON_TEXT[self.code].format(
            said=self.said,
            matched=self.matched,
            field=field or self.field,
            score=self.score or 0.0,
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code.value}
        for key in ("said", "matched", "field"):
            if value := getattr(self, key):
                out[key] = value
        if self.score is not None:
            out["score"] = round(self.score, 2)
        return out


# Which of its names was said, in the English sentence of a NAME reason.
_NAME_FIELDS = {
    "numbered": "numbered name",
    "inflected": "name (inflected)",
    "device": "device name",
}
_REASON_TEXT = {
    ReasonCode.NAME: "{field} matches '{said}'",
    ReasonCode.KEYWORD: "keyword '{said}' ~ {field} '{matched}' ({score:.2f})",
    ReasonCode.VECTOR: "vector similarity {score:.2f}",
    ReasonCode.EMBEDDING: "embedding similarity {score:.2f}",
    ReasonCode.TYPE: "type {said} in scope",
    ReasonCode.STATE: "state {said}",
    ReasonCode.LAST_TURN: "refers to the last turn",
    ReasonCode.ALL_CAPABLE: "everything in scope that can do this",
    ReasonCode.CLARIFIED: "answer to clarification ({said})",
    ReasonCode.CONFIRMED: "confirmed by the user",
    ReasonCode.ROOM_NAMED: "in the room named earlier",
    ReasonCode.SATELLITE_ROOM: "in the satellite's area",
    ReasonCode.WORDS_FIT: "words '{said}' fit it best",
}


@dataclass(slots=True)
class Candidate:
    """An entity considered for a command, with why it scored what it scored."""

    entity_id: str
    entity_kind: Literal["device", "group"] = "device"
    keyword_score: float = 0.0
    vector_score: float = 0.0
    total_score: float = 0.0
    breakdown: dict[str, float] = field(default_factory=dict)
    reasons: list[Reason] = field(default_factory=list)
    basis: Basis | None = None  # set once selected
