"""How each stretch of a command is read: a name of the home becomes a mention, a room or floor
a place (included, or excluded after "except"/"除了"), a lexicon word the action, quantifier,
type, state or reference; words nothing explained become name fragments or unknown rooms."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..index import DeviceIndex
from ..lexicon import Lexicon, LexiconSet
from ..models import Mention, Note, QueryIR
from ..text import normalize, tokens
from .spans import Span
from .windows import prefer_exact_surface


@dataclass(slots=True)
class Reading:
    """Mutable state while reading one command."""

    ir: QueryIR
    index: DeviceIndex
    lex: Lexicon
    type_spans: list[tuple[int, str]] = field(default_factory=list)
    excl_type_spans: list[tuple[int, str]] = field(default_factory=list)
    mention_at: dict[int, Mention] = field(default_factory=dict)
    place_at: set[int] = field(default_factory=set)  # positions read as a room or floor
    last_place: tuple[str, set[str]] | None = None


def _types_inside(s: Span, lex: Lexicon) -> tuple[tuple[str, ...], bool]:
    """Type words a name is made of ("Motion Sensor" → motion, sensor), longest first, and
    whether they are all it is made of ("人体传感器" is; "吸顶灯" has a word that is not)."""
    words = s.text.split(" ") if " " in s.text else list(s.text)
    keys = [lex.key(w) for w in words]
    found: list[str] = []
    covered = bool(keys)
    i = 0
    while i < len(keys):
        for length in range(min(lex.max_phrase_len, len(keys) - i), 0, -1):
            types = [v for k, v in lex.lookup(tuple(keys[i : i + length])) if k == "type"]
            if types:
                found.append(types[0])
                i += length
                break
        else:
            covered = False
            i += 1
    return tuple(dict.fromkeys(found)), covered


def exclude_last_place(reading: Reading) -> None:
    if reading.last_place is None:
        return
    kind, places = reading.last_place
    ir = reading.ir
    if kind == "area":
        ir.scope_include -= places
        ir.scope_exclude |= places
    else:
        ir.floor_include -= places
        ir.floor_exclude |= places
    reading.last_place = None


_PLACE_OR_STATE = frozenset({"everywhere", "state"})


def target_said_otherwise(s: Span, reading: Reading, lexicons: LexiconSet) -> bool:
    """Whether a name that is also a room's, said after a preposition of place, is the room:
    the command names another device ("the motion sensor in the office"), or a type the
    named entity is not of ("the lights in the office"). Alone, or with a type it is of
    ("is anyone in the office" of an occupancy sensor called "Office"), it is the entity."""
    if reading.ir.mentions:
        return True
    index = reading.index
    named = [index.device(r.target) for r in s.home("entity") if r.target in index]
    for _, type_id in reading.type_spans:
        spec = lexicons.types.types.get(type_id)
        if spec is None:
            continue
        targets = [t for tier in spec.tiers for t in tier]
        if not any(
            d.domain == domain and device_class in (None, d.device_class)
            for d in named
            for domain, device_class in targets
        ):
            return True
    return False


def room_said_as_place(seg: list[Span], pos: int) -> bool:
    """A name shared by an entity and a room (or floor) right after a preposition of place
    ("в кабинете", "in the office") or a word of exclusion, articles allowed between."""
    s = seg[pos]
    if not s.home("entity") or not (s.home("area") or s.home("floor")):
        return False
    back = pos - 1
    while back >= 0 and seg[back].has("determiner") and not seg[back].refs:
        back -= 1
    # "except (in) the office": what is left out of "all the lights" is a place too.
    return (
        back >= 0
        and not seg[back].refs
        and (seg[back].has("area_prep") or seg[back].has("exclusion"))
    )


def also_a_place_or_state(s: Span) -> bool:
    """A name that is also a word for the whole home or a state ("Home", "Casa")."""
    return bool(s.home("entity")) and any(kind in _PLACE_OR_STATE for kind, _ in s.lex)


def reads_as_word(s: Span, reading: Reading, lexicons: LexiconSet) -> bool:
    """Whether such a name is the word after all: when the command names something else
    ("is anyone home", "is Jane home", "todas las luces de la casa") that is not of the named
    entity's kind, the name would be a second, unrelated target."""
    index = reading.index
    named = {index.device(r.target).domain for r in s.home("entity") if r.target in index}
    others: set[str] = set()
    for mention in reading.ir.mentions:
        others |= {index.device(e).domain for e in mention.entity_ids if e in index}
    for _, type_id in reading.type_spans:
        spec = lexicons.types.types.get(type_id)
        if spec is not None:
            others |= set(spec.domains)
    return bool(others) and not others & named


def read_as_place_and_type(s: Span, reading: Reading, in_exclusion: bool, pos: int) -> bool:
    """ "kitchen lights" in a home with a "Kitchen Light": said of several, a name made of a
    room (or floor) and a type word means that type in that room. The name reading is kept
    as the alternative. False when the words are not a place followed by a type word."""
    if not s.home("entity") or s.home("area") or s.home("floor"):
        return False
    lex = reading.lex
    words = tokens(s.text)
    table = reading.index.table(lex)
    for place, rest in _place_and_type_cuts(words, lex):
        refs = prefer_exact_surface(table.get(tuple(lex.key(w) for w in place)), tuple(place))
        types = [v for k, v in lex.lookup(tuple(lex.key(w) for w in rest), rest) if k == "type"]
        areas = {r.target for r in refs if r.kind == "area"}
        floors = {r.target for r in refs if r.kind == "floor"}
        if not types or not (areas or floors):
            continue
        ir = reading.ir
        if areas:
            (ir.scope_exclude if in_exclusion else ir.scope_include).update(areas)
            reading.last_place = None if in_exclusion else ("area", areas)
        else:
            (ir.floor_exclude if in_exclusion else ir.floor_include).update(floors)
            reading.last_place = None if in_exclusion else ("floor", floors)
        (reading.excl_type_spans if in_exclusion else reading.type_spans).append((pos, types[0]))
        if not in_exclusion:
            ir.name_alternatives.append(
                Mention(
                    text=s.text,
                    entity_ids=frozenset(r.target for r in s.home("entity")),
                    exact=s.exact,
                    inflected=True,
                )
            )
        return True
    return False


# Words that may join a type word to the room after it: "luzes *da* cozinha", "luci *della*
# cucina", "lights *in the* kitchen".
_JOINING_KINDS = frozenset({"area_prep", "determiner", "filler"})


def _place_and_type_cuts(
    words: Sequence[str], lex: Lexicon
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The ways a name splits into (place, type words): the place first ("kitchen lights"),
    or the type first and the place after a preposition or article ("luzes da cozinha")."""
    cuts = [(tuple(words[:cut]), tuple(words[cut:])) for cut in range(1, len(words))]
    for cut in range(1, len(words) - 1):
        start = cut
        while start < len(words) - 1 and any(
            k in _JOINING_KINDS for k, _ in lex.lookup((lex.key(words[start]),))
        ):
            start += 1
        if start > cut:
            cuts.append((tuple(words[start:]), tuple(words[:cut])))
    return cuts


def read_home_span(
    s: Span, reading: Reading, in_exclusion: bool, pos: int, several: bool = False
) -> None:
    ir = reading.ir
    entities = frozenset(r.target for r in s.home("entity"))
    areas = {r.target for r in s.home("area")}
    floors = {r.target for r in s.home("floor")}
    labels = {r.target for r in s.home("label")}
    type_ids = s.values("type")
    if entities:
        types_inside, only_type_words = _types_inside(s, reading.lex)
        mention = Mention(
            text=s.text,
            entity_ids=entities,
            exact=s.exact,
            type_id=type_ids[0] if type_ids else None,
            inflected=s.inflected or (several and bool(type_ids)),
            types_inside=types_inside,
            only_type_words=only_type_words,
        )
        if in_exclusion:
            ir.exclude_mentions.append(mention)
        else:
            ir.mentions.append(mention)
            reading.mention_at[pos] = mention
        return
    if areas or floors:
        reading.place_at.add(pos)
    if areas:
        (ir.scope_exclude if in_exclusion else ir.scope_include).update(areas)
        if (
            not in_exclusion
            and len(areas) > 1
            and all(r.source in _GENERIC_ROOMS for r in s.home("area"))
        ):
            # "卧室" of a home with 主卧 and 次卧: a kind of room, not one room.
            ir.rooms_by_kind = True
        reading.last_place = None if in_exclusion else ("area", areas)
    elif floors:
        (ir.floor_exclude if in_exclusion else ir.floor_include).update(floors)
        reading.last_place = None if in_exclusion else ("floor", floors)
    elif labels:
        (ir.exclude_labels if in_exclusion else ir.labels).update(labels)


def read_lexicon_span(
    s: Span,
    reading: Reading,
    in_exclusion: bool,
    question: bool,
    pos: int,
    verb_reading: bool = False,
) -> None:
    ir = reading.ir
    kinds = {k for k, _ in s.lex}
    if verb_reading:
        return
    if "type" in kinds and not ("state" in kinds and question):
        target = reading.excl_type_spans if in_exclusion else reading.type_spans
        target.append((pos, s.values("type")[0]))
        return
    if in_exclusion:
        return
    if "condition" in kinds and not question:
        # "zu warm", "freezing": a complaint, though the words may also be states.
        ir.condition = s.values("condition")[0]
        return
    if "state" in kinds and (question or not kinds & {"everywhere", "action"}):
        ir.states.update(s.values("state"))
        return
    if not _read_pointer(s, reading, kinds):
        _read_amount(s, reading, kinds)


def _read_pointer(s: Span, reading: Reading, kinds: set[str]) -> bool:
    """Words that point at the target without naming it: a floor above, "here", "there",
    "the others", "it", "them", "everywhere", a complaint. False when the span is none."""
    ir = reading.ir
    if "floor_rel" in kinds:
        floors = reading.index.rooms.relative_floors(s.values("floor_rel")[0])
        if floors:
            ir.floor_include.update(floors)
        else:
            ir.unknown_terms.append(s.text)
    elif "here" in kinds:
        ir.here = True
    elif "there" in kinds:
        ir.there = True
    elif "others" in kinds:
        ir.notes.append(Note.OTHERS)
        if "quant_all" in kinds and _as_written(s, reading.lex, "quant_all"):
            # "the others", "其他的": all of them; "the other light" is one of them.
            ir.quantifier = "all"
    elif "condition" in kinds:
        ir.condition = s.values("condition")[0]
    elif "pronoun_pl" in kinds:
        ir.references.append(s.text)
        ir.reference_kind = "plural"
    elif "pronoun_sg" in kinds:
        ir.references.append(s.text)
        if ir.reference_kind != "plural":
            ir.reference_kind = "singular"
    elif "everywhere" in kinds:
        ir.everywhere = True
    else:
        return False
    return True


def _read_amount(s: Span, reading: Reading, kinds: set[str]) -> None:
    """ "all", "any", "everything", "devices": how many, and of what."""
    ir = reading.ir
    if "quant_all" in kinds:
        ir.quantifier = "all"
        # "everything", "alles" as written; "alle" ("all of them") only shares its stem.
        if "generic" in kinds and _as_written(s, reading.lex, "generic"):
            ir.generic = True
            ir.everything = True
    elif "quant_any" in kinds:
        if ir.quantifier == "one":
            ir.quantifier = "any"
        if "generic" in kinds:
            ir.generic = True
    elif "generic" in kinds:
        ir.generic = True


def group_types(type_spans: list[tuple[int, str]], seg: list[Span]) -> list[tuple[str, ...]]:
    """Adjacent type words narrow each other ("motion sensors"); "and"/"和" separates them."""
    groups: list[list[str]] = []
    last_pos = -10
    for pos, type_id in type_spans:
        between = seg[last_pos + 1 : pos] if last_pos >= 0 else []
        joined = (
            groups
            and all(x.only_filler and not x.has("conj") for x in between)
            and pos - last_pos <= 3
        )
        if joined:
            if type_id not in groups[-1]:
                groups[-1].append(type_id)
        else:
            groups.append([type_id])
        last_pos = pos
    return [tuple(g) for g in groups]


_GENERIC_ROOMS = frozenset({"area_kind", "area_part"})


def _as_written(s: Span, lex: Lexicon, kind: str) -> bool:
    """Whether the span is a word of `kind` as written, not only by its stem."""
    raw = tuple(tokens(normalize(s.text)))
    keys = tuple(lex.key(t) for t in raw)
    return any(raw in forms for (k, _), forms in lex.raw_forms.get(keys, {}).items() if k == kind)
