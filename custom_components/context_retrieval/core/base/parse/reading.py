"""Reading one command: which words give the action, the target, the place and the quantity.

The command's spans are read left to right: names of the home become mentions, rooms and
floors (included, or excluded after "except"/"除了"), lexicon words set the action, quantifier,
type, state or reference; words nothing explained become name fragments or unknown rooms.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..actions import ACTION_RANK, GENERIC_RANK, MEDIA_VARIANTS
from ..index import DeviceIndex
from ..lexicon import Lexicon, LexiconSet
from ..models import Mention, QueryIR
from ..text import has_cjk, tokens
from .analysis import prefer_exact_surface
from .spans import Span, join_tokens
from .values import read_setting, settle_setting

# Actions that ask rather than act: a question word, not a control verb.
CONTROL_ACTIONS_EXCLUDED = frozenset({"query"})


@dataclass(slots=True)
class _Reading:
    """Mutable state while reading one command."""

    ir: QueryIR
    index: DeviceIndex
    lex: Lexicon
    type_spans: list[tuple[int, str]] = field(default_factory=list)
    excl_type_spans: list[tuple[int, str]] = field(default_factory=list)
    mention_at: dict[int, Mention] = field(default_factory=dict)
    place_at: set[int] = field(default_factory=set)  # positions read as a room or floor
    last_place: tuple[str, set[str]] | None = None


def _types_inside(s: Span, lex: Lexicon) -> tuple[str, ...]:
    """Type words a name is made of ("Motion Sensor" → motion, sensor), longest first."""
    words = s.text.split(" ") if " " in s.text else list(s.text)
    keys = [lex.key(w) for w in words]
    found: list[str] = []
    i = 0
    while i < len(keys):
        for length in range(min(lex.max_phrase_len, len(keys) - i), 0, -1):
            types = [v for k, v in lex.lookup(tuple(keys[i : i + length])) if k == "type"]
            if types:
                found.append(types[0])
                i += length
                break
        else:
            i += 1
    return tuple(dict.fromkeys(found))


def _exclude_last_place(reading: _Reading) -> None:
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


def is_question(seg: list[Span], lex: Lexicon) -> bool:
    """A command is a question when a question word comes before any control verb.

    Words that can be either ("关了吗": "is it off?" or, after "帮我把…", "turn it off?")
    are read as a request when the command has a request marker ("帮我", "can you").
    """
    request = any(s.has("request") for s in seg if not s.refs)
    last = next((s for s in reversed(seg) if s.text), None)
    if last is not None and not last.refs and last.text in lex.question_particles:
        # "天窗是打开的吗": a question particle closing the sentence makes it a question,
        # whatever verb came before ("打开" is also "turn on").
        return not request
    for s in seg:
        if s.refs:
            continue
        actions = set(s.values("action"))
        if not actions:
            continue
        if actions == {"query"}:
            return True
        if "query" in actions:
            return not request
        if actions - CONTROL_ACTIONS_EXCLUDED:
            return False
    return False


def _decide_action(seg: list[Span], lex: Lexicon, question: bool) -> tuple[str | None, str | None]:
    """The command's action and the type its wording implies ("light up" → light)."""
    control: list[tuple[str, str]] = []  # (action, phrase)
    for s in seg:
        if s.refs and not s.has("action"):
            continue
        for value in s.values("action"):
            if value != "query":
                control.append((value, s.text))
    if question:
        return "query", next(
            (lex.action_types[p] for _, p in control if p in lex.action_types), None
        )
    action: str | None = None
    phrase = ""
    if control:
        action, phrase = min(control, key=lambda c: ACTION_RANK.get(c[0], GENERIC_RANK))
    if action in MEDIA_VARIANTS and any(s.has("media") and not s.refs for s in seg):
        action = MEDIA_VARIANTS[action]
    if action is None or action in ("set",):
        particle = _particle_action(seg)
        if particle and (action is None or particle in ("turn_on", "turn_off")):
            action = particle
    if action is None and _has_percentage(seg):
        action = "set"
    if action is None and any("query" in s.values("action") for s in seg if not s.refs):
        action = "query"
    implied = next((lex.action_types[p] for _, p in control if p in lex.action_types), None)
    if implied is None and action is not None:
        implied = lex.action_types.get(phrase) or lex.action_types.get(action)
    return action, implied


def _has_percentage(seg: list[Span]) -> bool:
    """ "50%", "50 percent", "百分之50", "50 Prozent": a number said as a percentage."""
    for i, s in enumerate(seg):
        if not s.numeric and not s.has("number"):
            continue
        if s.text.endswith("%"):
            return True
        after = i + 1 < len(seg) and seg[i + 1].has("percent")
        if after or (i > 0 and seg[i - 1].has("percent")):
            return True
    return False


def _particle_action(seg: list[Span]) -> str | None:
    """ "turn the lights on", "living room lights off": a verb particle carries the action."""
    has_verb = any(s.has("particle_verb") for s in seg)
    found: str | None = None
    for i, s in enumerate(seg):
        values = s.values("particle")
        if not values:
            continue
        rest = [
            x
            for x in seg[i + 1 :]
            if not x.only_filler and not x.has("here") and not x.has("everywhere")
        ]
        trailing = not rest or all(x.home("area") or x.home("floor") or x.numeric for x in rest)
        if has_verb or trailing:
            found = values[0]
    return found


def read_command(
    seg: list[Span], lex: Lexicon, lexicons: LexiconSet, index: DeviceIndex, raw: str
) -> QueryIR:
    question = is_question(seg, lex)
    action, implied = _decide_action(seg, lex, question)
    if implied is None and action == "set" and _has_percentage(seg):
        implied = lexicons.types.defaults.get("percent")
    if implied is None and action is not None:
        implied = lexicons.types.defaults.get(action)
    ir = QueryIR(raw=raw, language=lex.language, action=action, implied_type=implied)
    # The word that gave the action ("lock it") is the verb, not also a type ("the lock").
    action_pos = (
        -1
        if action in (None, "query")
        else next((i for i, x in enumerate(seg) if not x.refs and action in x.values("action")), -1)
    )
    reading = _Reading(ir, index, lex)
    # "play <content> on <target>": what follows "play" is a title, not a device.
    content = _media_content(seg)
    in_exclusion = False
    residual_run: list[Span] = []
    deferred: list[tuple[int, Span, bool]] = []
    places: list[tuple[int, Span, bool]] = []
    # Residual runs: (spans, index of the span after them, said inside an exclusion).
    runs: list[tuple[list[Span], int, bool]] = []

    def flush(next_index: int) -> None:
        if residual_run:
            runs.append((list(residual_run), next_index, in_exclusion))
            residual_run.clear()

    for pos, s in enumerate(seg):
        if pos in content:
            flush(pos)
            continue
        if s.is_residual:
            if has_cjk(s.text) or len(s.text) > 1:
                residual_run.append(s)
            continue
        flush(pos)
        if not s.refs and s.has("exclusion") and not (question and s.has("state")):
            in_exclusion = True
            continue
        if not s.refs and (s.has("exclusion_suffix") or s.has("exclusion_postfix")):
            if not in_exclusion and s.text:
                # "310房间以外的灯": the place just said is what is left out.
                _exclude_last_place(reading)
            in_exclusion = False
            continue
        if s.refs and _also_a_place_or_state(s):
            # "is anyone home" in a home with a weather entity called "Home": decided once the
            # rest of the command is read.
            deferred.append((pos, s, in_exclusion))
            continue
        if s.refs and _room_said_as_place(seg, pos):
            # "свет в кабинете" in a home with a sensor also called "Кабинете": decided once
            # the rest of the command is read.
            places.append((pos, s, in_exclusion))
            continue
        if s.refs:
            several = s.inflected and not s.exact
            several = several or _asks_for_several(seg, pos, lex)
            several = several or ir.quantifier in ("all", "any")
            if not (several and _read_as_place_and_type(s, reading, in_exclusion, pos)):
                _read_home_span(s, reading, in_exclusion, pos, several)
            continue
        verb = (
            s.has("particle_verb")
            and any(x.has("particle") for x in seg[pos + 1 :])
            and not question
        ) or (pos == action_pos and s.has("type"))
        _read_lexicon_span(s, reading, in_exclusion, question, pos, verb)
    flush(len(seg))
    for pos, s, excluded in deferred:
        if _reads_as_word(s, reading, lexicons):
            _read_lexicon_span(s, reading, excluded, question, pos)
        else:
            _read_home_span(s, reading, excluded, pos)
    for pos, s, excluded in places:
        if _target_said_otherwise(s, reading, lexicons):
            s = replace(s, refs=[r for r in s.refs if r.kind != "entity"])
        _read_home_span(s, reading, excluded, pos)

    consumed = _read_residual(runs, seg, reading, index, lex)
    consumed |= _attach_modifiers(reading, seg)
    free_types = [(p, t) for p, t in reading.type_spans if p not in consumed]
    ir.type_groups = _group_types(free_types, seg)
    ir.exclude_type_groups = _group_types(reading.excl_type_spans, seg)
    # "除了卧室的灯都关掉": the type said inside the exclusion also names what to act on.
    if (
        not ir.type_groups
        and not ir.mentions
        and not ir.generic
        and not ir.labels
        and ir.exclude_type_groups
        and (ir.scope_exclude or ir.floor_exclude)
    ):
        ir.type_groups = list(ir.exclude_type_groups)
        ir.exclude_type_groups = []
    if (
        ir.scope_exclude
        or ir.floor_exclude
        or ir.exclude_mentions
        or ir.exclude_type_groups
        or ir.exclude_labels
    ):
        ir.quantifier = "except"
    if ir.action is None and _asks_without_a_verb(ir, seg, lex, lexicons):
        # "Лампа включена", "Temperatur Wohnzimmer": a state or a reading said with no verb.
        ir.action = "query"
    if ir.action is None and _only_a_target(seg):
        ir.notes.append("bare_target")
    if any(s.has("not_home") for s in seg if not s.refs and not s.corrected):
        # "write a poem about the kitchen lights": about the home, not a command for it.
        ir.notes.append("not_about_the_home")
    if _value_missing(ir, seg, lex):
        # "set the bedroom lamp banana potato tomato": to what, the words do not say.
        ir.notes.append("value_missing")
    if not question:
        said = ir.action
        settle_setting(ir, read_setting(seg, lex, lexicons.values.unit_symbols), lexicons)
        if ir.action != said and ir.action is not None:
            ir.implied_type = lex.action_types.get(ir.action) or lexicons.types.defaults.get(
                ir.action, ir.implied_type
            )
    ir.confidence = command_confidence(ir, seg)
    return ir


def _media_content(seg: list[Span]) -> set[int]:
    content: set[int] = set()
    start = next(
        (i for i, s in enumerate(seg) if "media_search_play" in s.values("action") and not s.refs),
        None,
    )
    if start is None:
        return content
    i = start + 1
    while i < len(seg):
        s = seg[i]
        if s.has("target_prep") and not s.refs:
            # "on the TV", "in the living room": a target follows the preposition.
            j = i + 1
            while j < len(seg) and seg[j].only_filler and not seg[j].has("target_prep"):
                j += 1
            if j < len(seg) and seg[j].refs:
                break
        content.add(i)
        i += 1
    return content


_PLACE_OR_STATE = frozenset({"everywhere", "state"})


def _target_said_otherwise(s: Span, reading: _Reading, lexicons: LexiconSet) -> bool:
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


def _room_said_as_place(seg: list[Span], pos: int) -> bool:
    """A name shared by an entity and a room (or floor) right after a preposition of place
    ("в кабинете", "in the office"), articles allowed between."""
    s = seg[pos]
    if not s.home("entity") or not (s.home("area") or s.home("floor")):
        return False
    back = pos - 1
    while back >= 0 and seg[back].has("determiner") and not seg[back].refs:
        back -= 1
    return back >= 0 and not seg[back].refs and seg[back].has("area_prep")


def _also_a_place_or_state(s: Span) -> bool:
    """A name that is also a word for the whole home or a state ("Home", "Casa")."""
    return bool(s.home("entity")) and any(kind in _PLACE_OR_STATE for kind, _ in s.lex)


def _reads_as_word(s: Span, reading: _Reading, lexicons: LexiconSet) -> bool:
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


# Words that may stand around a bare target: articles, prepositions, "here", "all".
_AROUND_A_TARGET = frozenset(
    {"determiner", "area_prep", "target_prep", "here", "conj", "quant_all", "everywhere"}
)


def _only_a_target(seg: list[Span]) -> bool:
    """Whether the command is a place or a device and nothing else ("kitchen", "the ceiling
    lights"). A word of any other kind, even one the language data reads as a filler, may be
    a verb the data lacks, so the command is then not only a target."""
    said = False
    for s in seg:
        if s.refs:
            said = True
            continue
        if not s.text:
            continue
        kinds = {k for k, _ in s.lex}
        if s.is_residual or s.numeric or not kinds:
            return False
        if kinds & {"type", "generic"}:
            said = True
            continue
        if not (kinds & _AROUND_A_TARGET and kinds <= _AROUND_A_TARGET | {"filler"}):
            return False
    return said


def _value_missing(ir: QueryIR, seg: list[Span], lex: Lexicon) -> bool:
    """A set command whose value is words nothing explains ("set the lamp banana potato
    tomato"): no number, no named value, no direction, no setting word ("heat", "max"), and
    the unexplained words come after the verb and the target, where the value would be (an
    unknown word before them may be a verb the data lacks: "restaura el volumen"). Only in a
    language whose data names values and directions, or every unknown word would look so."""
    if ir.action != "set" and not (ir.action or "").startswith("set_"):
        return False
    if ir.value is not None or ir.change is not None or not ir.unknown_terms:
        return False
    if not any(c == "change" for found in lex.value_names.values() for c, _ in found):
        return False
    if any(_says_a_value(s) for s in seg):
        return False
    last_known = max(
        (i for i, s in enumerate(seg) if s.refs or s.values("action") or s.has("type")),
        default=-1,
    )
    return any(s.is_residual for s in seg[last_known + 1 :])


# Kinds a word may also have and still not be a value ("auf" is a particle, not a setting).
_NOT_VALUES = frozenset({"particle", "target_prep", "area_prep", "filler", "determiner"})


def _says_a_value(s: Span) -> bool:
    if s.refs:
        return False
    kinds = {k for k, _ in s.lex}
    return s.numeric or ("value" in kinds and not kinds & _NOT_VALUES)


def _asks_without_a_verb(ir: QueryIR, seg: list[Span], lex: Lexicon, lexicons: LexiconSet) -> bool:
    """A command with no verb that names a state ("the door is locked"), a status ("Лампа
    включена") or a type that is read rather than switched ("kitchen temperature") asks."""
    if ir.states:
        return True
    said = {t for group in ir.type_groups for t in group}
    said |= {m.type_id for m in ir.mentions if m.type_id}
    said |= {t for m in ir.mentions for t in m.modifiers}
    if said & lexicons.types.asked_alone:
        return True
    for s in seg:
        if s.refs or not s.text:
            continue
        readings = lex.question_phrases.get(tuple(tokens(s.text)), [])
        if any(kind == "status" for kind, _ in readings):
            return True
    return False


def _asks_for_several(seg: list[Span], pos: int, lex: Lexicon) -> bool:
    """ "which windows", "how many lights", "welche Fenster": a plural marker or a count
    question right before the words asks about several, even where the plural looks like the
    singular."""
    back = pos - 1
    while back >= 0 and seg[back].only_filler and not seg[back].values("action"):
        back -= 1
    if back < 0 or seg[back].refs:
        return False
    said = tuple(tokens(seg[back].text))
    if said in lex.plural_markers:
        return True
    readings = lex.question_phrases.get(said, [])
    return any(kind == "kind" and value == "count" for kind, value in readings)


def _read_as_place_and_type(s: Span, reading: _Reading, in_exclusion: bool, pos: int) -> bool:
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


def _read_home_span(
    s: Span, reading: _Reading, in_exclusion: bool, pos: int, several: bool = False
) -> None:
    ir = reading.ir
    entities = frozenset(r.target for r in s.home("entity"))
    areas = {r.target for r in s.home("area")}
    floors = {r.target for r in s.home("floor")}
    labels = {r.target for r in s.home("label")}
    type_ids = s.values("type")
    if entities:
        mention = Mention(
            text=s.text,
            entity_ids=entities,
            exact=s.exact,
            type_id=type_ids[0] if type_ids else None,
            inflected=s.inflected or (several and bool(type_ids)),
            types_inside=_types_inside(s, reading.lex),
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
        reading.last_place = None if in_exclusion else ("area", areas)
    elif floors:
        (ir.floor_exclude if in_exclusion else ir.floor_include).update(floors)
        reading.last_place = None if in_exclusion else ("floor", floors)
    elif labels:
        (ir.exclude_labels if in_exclusion else ir.labels).update(labels)


def _read_lexicon_span(
    s: Span,
    reading: _Reading,
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
    if "state" in kinds and (question or not kinds & {"everywhere", "action"}):
        ir.states.update(s.values("state"))
        return
    if "floor_rel" in kinds:
        floors = reading.index.relative_floors(s.values("floor_rel")[0])
        if floors:
            ir.floor_include.update(floors)
        else:
            ir.unknown_terms.append(s.text)
    elif "here" in kinds:
        ir.here = True
    elif "pronoun_pl" in kinds:
        ir.references.append(s.text)
        ir.reference_kind = "plural"
    elif "pronoun_sg" in kinds:
        ir.references.append(s.text)
        if ir.reference_kind != "plural":
            ir.reference_kind = "singular"
    elif "everywhere" in kinds:
        ir.everywhere = True
    elif "quant_all" in kinds:
        ir.quantifier = "all"
        if "generic" in kinds:
            ir.generic = True
    elif "quant_any" in kinds:
        if ir.quantifier == "one":
            ir.quantifier = "any"
        if "generic" in kinds:
            ir.generic = True
    elif "generic" in kinds:
        ir.generic = True


def _group_types(type_spans: list[tuple[int, str]], seg: list[Span]) -> list[tuple[str, ...]]:
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


def _read_residual(
    runs: list[tuple[list[Span], int, bool]],
    seg: list[Span],
    reading: _Reading,
    index: DeviceIndex,
    lex: Lexicon,
) -> set[int]:
    """Words nothing explained: name fragments, unknown rooms, or noise.

    Returns the positions of type words that became part of a name fragment.
    """
    ir = reading.ir
    consumed: set[int] = set()
    type_at = dict(reading.type_spans)
    for run, after, excluded in runs:
        text = join_tokens([s.text for s in run])
        # Part of the home's room names: "卧室" in a home of 主卧室/次卧室, "bedroom" in one
        # with "Master Bedroom" and "Guest Bedroom" means all of them.
        rooms = index.areas_containing(text, lex)
        if rooms:
            (ir.scope_exclude if excluded else ir.scope_include).update(rooms)
            ir.notes.append("room_partial_match")
            continue
        if excluded:
            ir.unknown_terms.append(text)
            continue
        before_idx = seg.index(run[0]) - 1
        before = seg[before_idx] if before_idx >= 0 else None
        # A fragment directly before a type word is part of a name: "落地灯", "pool lights".
        if after in type_at:
            phrase = join_tokens([text, seg[after].text])
            ir.mentions.append(Mention(text=phrase, partial=True, type_id=type_at[after]))
            ir.phrases.append(phrase)
            ir.unknown_terms.append(text)
            consumed.add(after)
            continue
        nxt = seg[after] if after < len(seg) else None
        # "X的灯" / "X里的灯": a possessive or locative particle and then a type or nothing.
        if nxt is not None and nxt.only_filler and has_cjk(text):
            nxt2 = seg[after + 1] if after + 1 < len(seg) else None
            if (
                nxt2 is None
                or nxt2.has("type")
                or nxt2.has("generic")
                or nxt2.has("action")
                or nxt2.has("quant_all")
            ):
                ir.unknown_rooms.append(text)
                ir.unknown_terms.append(text)
                continue
        back = before_idx
        while back > 0 and seg[back].only_filler and not seg[back].has("area_prep"):
            back -= 1
        before = seg[back] if back >= 0 else None
        if (
            before is not None
            and before.has("area_prep")
            and not before.refs
            and not has_cjk(text)
            and (nxt is None or not nxt.refs)
        ):
            ir.unknown_rooms.append(text)
            ir.unknown_terms.append(text)
            continue
        ir.unknown_terms.append(text)
        if nxt is not None and nxt.home("entity"):
            continue
        if len(text) >= (2 if has_cjk(text) else 3):
            ir.phrases.append(text)
    return consumed


def _passable(x: Span) -> bool:
    """Words that may stand between a name and the type word describing it."""
    if x.refs or x.has("conj") or x.punct is not None:
        return False
    actions = set(x.values("action"))
    return (
        x.only_filler
        or x.is_residual
        or x.numeric
        or x.has("state")
        or x.has("media")
        or (bool(actions) and actions == {"query"})
        # A value and its unit ("2300 Kelvin", "warmweiß") between a name and a type word.
        or (bool(actions) and all(a.startswith("set_") for a in actions))
    )


def _attach_modifiers(reading: _Reading, seg: list[Span]) -> set[int]:
    """Type words said with a name narrow that name ("the phone battery", "Heat pump CO
    sensor's carbon monoxide") unless a conjunction makes them a target of their own."""
    consumed: set[int] = set()
    ir = reading.ir
    if not reading.mention_at:
        return consumed
    # A type word that is also a name ("lights" ~ "Light", "gas" ~ "Gas") next to another
    # name describes that name: "play corner lights", "monthly gas consumption's gas".
    for mpos, mention in list(reading.mention_at.items()):
        if mention.type_id is None:
            continue
        host = _nearest_mention(mpos, reading, seg, exclude=mpos)
        if host is not None:
            host.modifiers = (*host.modifiers, mention.type_id)
            ir.mentions.remove(mention)
            del reading.mention_at[mpos]
    for pos, type_id in reading.type_spans:
        host = _nearest_mention(pos, reading, seg)
        if host is not None:
            host.modifiers = (*host.modifiers, type_id)
            consumed.add(pos)
    return consumed


def _nearest_mention(
    pos: int, reading: _Reading, seg: list[Span], exclude: int | None = None
) -> Mention | None:
    best: tuple[int, Mention] | None = None
    for mpos, mention in reading.mention_at.items():
        if mpos == exclude or mention.partial or (exclude is not None and mention.type_id):
            continue
        lo, hi = sorted((pos, mpos))
        # A room or floor may stand between a name and a type word ("the motion sensor in
        # the office: anyone?"), not between two names.
        crossed = set() if exclude is not None else reading.place_at
        if all(_passable(seg[i]) or i in crossed for i in range(lo + 1, hi)):
            distance = hi - lo
            if best is None or distance < best[0]:
                best = (distance, mention)
    return best[1] if best else None


def command_confidence(ir: QueryIR, seg: list[Span]) -> float:
    target = bool(
        ir.mentions
        or ir.type_groups
        or ir.labels
        or ir.references
        or ir.generic
        or ir.scope_include
        or ir.floor_include
        or ir.implied_type
        or ir.states
    )
    residual = any(s.is_residual for s in seg)
    score = 0.4 + (0.3 if ir.action else 0.0) + (0.2 if target else 0.0)
    score += 0.0 if residual else 0.1
    if ir.unknown_rooms:
        score -= 0.2
    return round(max(0.0, min(1.0, score)), 2)
