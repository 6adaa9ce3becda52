"""Values: the setting a command carries, read into a language-neutral form.

A set command says *what* to set and *to what*: "brightness to 50 %", "2700 Kelvin", "rot",
"au maximum", "warm white", "brighter". The words come from the language's data (number
words, percent words, units, colour names, levels, whites, directions, the minus sign); what
they stand for is shared (`values.json`): the command then holds the attribute (brightness,
color_temp, temperature, position, volume, fan_speed, color …), the number in its unit or the
named value ("red"), and whether it is a change up or down. The conversation agent executes
that through Home Assistant's intents; a value Home Assistant would refuse (150 %, -20 %) is
marked so the command selects nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..lexicon import Lexicon, LexiconSet
from ..models import QueryIR
from ..text import has_cjk, tokens
from .spans import NUMERIC_RE, Span

_NUMBER_RE = re.compile(r"^([+-]?\d+(?:[.,]\d+)?)(%|°[cf]?|度|k|w|kw)?$")
_SUFFIX_UNITS = {"%": "%", "°": "°", "°c": "°C", "°f": "°F", "度": "°", "k": "K"}
# Actions that only say "do something", which a value may make precise ("set … to red").
_GENERIC = frozenset({None, "set", "turn_on", "activate"})
# Moving verbs that with a percentage set a position or a level ("raise the blinds to 40 %").
_MOVES = frozenset({"open", "close"})
# Switching off, which some languages also say of closing a cover ("关闭窗帘到50%"): the one
# setting it may carry is the cover's position.
_SWITCH_OFF = "turn_off"
_CLOSES_TO = "set_position"
_MAX_UNIT_WORDS = 3
_NAME_MARK = "\x00"  # where a name of the home stood among the words


@dataclass(frozen=True, slots=True)
class Setting:
    """What a command's words say about a value, before the action settles it."""

    number: float | None = None
    unit: str | None = None  # "%", "K", "°C", "°F", "°" (degrees of no said scale)
    named: tuple[str, str] | None = None  # (category, value): ("color", "red"), ("level", "max")
    change: str | None = None  # "up" / "down"

    @property
    def empty(self) -> bool:
        return self.number is None and self.named is None and self.change is None


def _words(seg: list[Span]) -> list[str]:
    """The command's words outside names of the home (a name may carry a number)."""
    out: list[str] = []
    for s in seg:
        if s.refs:
            # Held by a mark, so "the master bedroom one" has a word before "one".
            out.append(_NAME_MARK)
            continue
        # A complaint's words ("trop chaud", "zu warm") say no value ("chaud" is warm white).
        if s.punct is not None or not s.text or s.has("condition"):
            continue
        out.extend([s.text] if s.numeric else tokens(s.text))
    return out


def _unit_after(
    words: list[str], i: int, lex: Lexicon, symbols: dict[str, str]
) -> tuple[str | None, int]:
    """The unit said right after position `i` ("percent", "Grad", "kelvin"), and its length."""
    if i < len(words) and words[i] in symbols and not lex.question_phrases.get((words[i],)):
        return symbols[words[i]], 1
    for length in range(min(_MAX_UNIT_WORDS, len(words) - i), 0, -1):
        window = tuple(words[i : i + length])
        for kind, value in lex.question_phrases.get(window, []):
            if kind == "unit":
                return value, length
        keys = tuple(lex.key(w) for w in window)
        if any(kind == "percent" for kind, _ in lex.lookup(keys)):
            return "%", length
    return None, 0


def _percent_before(words: list[str], i: int, lex: Lexicon) -> bool:
    """ "百分之五十": the percent word comes before the number."""
    for length in range(1, min(_MAX_UNIT_WORDS, i) + 1):
        keys = tuple(lex.key(w) for w in words[i - length : i])
        if any(kind == "percent" for kind, _ in lex.lookup(keys)):
            return True
    return False


def _minus_before(words: list[str], i: int, lex: Lexicon) -> bool:
    return any(tuple(words[i - n : i]) in lex.minus_words for n in (1, 2) if i - n >= 0)


def number_words(words: list[str], i: int, lex: Lexicon) -> tuple[float | None, int]:
    """A number said in words from position `i` ("twenty five", "二十五"), and its length."""
    total = 0.0
    current = 0.0
    used = 0
    while i + used < len(words):
        value = lex.numbers.get(words[i + used])
        if value is None:
            break
        if value in (10, 100, 1000) and current:
            current *= value
        elif value in (100, 1000) and total and not current:
            total *= value
        else:
            current += value
        if value >= 100 and current:
            total += current
            current = 0
        used += 1
    if not used:
        return None, 0
    return total + current, used


def read_setting(seg: list[Span], lex: Lexicon, symbols: dict[str, str] | None = None) -> Setting:
    """The value the command's words carry, if any."""
    words = _words(seg)
    named, change, taken = _named_values(words, lex)
    said, reached = _numbers_said(words, taken, lex, symbols or {})
    if not said:
        return Setting(named=named, change=change)
    # The value is the first number that has a unit, else the first written in digits, else
    # the first ("2700" of "à 2700, intensité deux").
    best = max(said, key=lambda f: (f[0], f[1]))
    number, unit = best[2], best[3]
    if reached:
        change = None  # "dim the lamp to 30 %" sets 30 %, "turn it down by 5 degrees" steps
    return Setting(number=number, unit=unit, named=named, change=change)


def _named_values(
    words: list[str], lex: Lexicon
) -> tuple[tuple[str, str] | None, str | None, set[int]]:
    """Named values, longest first ("warm white" is a white, not the colour white): the
    first named value, the first change ("brighter"), and the positions they take."""
    named: tuple[str, str] | None = None
    change: str | None = None
    taken: set[int] = set()
    word_keys = [lex.key(w) for w in words]
    i = 0
    while i < len(words):
        for length in range(min(lex.value_name_len, len(words) - i), 0, -1):
            found = lex.value_names.get(tuple(word_keys[i : i + length]))
            if not found:
                continue
            for category, value in found:
                if category == "change":
                    change = change or value
                elif named is None:
                    named = (category, value)
            taken.update(range(i, i + length))
            i += length - 1
            break
        i += 1
    return named, change, taken


# A number said: (with a unit, in digits, the amount, the unit).
_Said = tuple[bool, bool, float, str | None]


def _numbers_said(
    words: list[str], taken: set[int], lex: Lexicon, symbols: dict[str, str]
) -> tuple[list[_Said], bool]:
    """Every number said outside the named values, with its unit, and whether one was said
    as the value to reach ("dim it to 30 %")."""
    said: list[_Said] = []
    reached = False
    i = 0
    while i < len(words):
        if i in taken:
            i += 1
            continue
        word = words[i]
        match = _NUMBER_RE.match(word) if NUMERIC_RE.match(word) else None
        unit: str | None = None
        used = 1
        if match:
            amount = float(match.group(1).replace(",", "."))
            unit = _SUFFIX_UNITS.get(match.group(2) or "")
        else:
            found, used = number_words(words, i, lex)
            if found is None:
                i += 1
                continue
            amount = found
        delay = lex.duration_at(words, i + used)
        if delay:
            # "in 5 minutes", "5分钟后": a delay, not a value to set.
            i += used + delay
            continue
        if unit is None:
            unit, _ = _unit_after(words, i + used, lex, symbols)
        if unit is None and _percent_before(words, i, lex):
            unit = "%"
        if unit is None and _stands_for_a_word(words, i, used, match is not None, amount, lex):
            i += 1
            continue
        if match or unit is not None or used > 1 or not has_cjk(word):
            # One character such as "一" ("打开一下") is rarely a value on its own.
            if _minus_before(words, i, lex):
                amount = -abs(amount)
            said.append((unit is not None, match is not None, amount, unit))
            reached = reached or (i > 0 and words[i - 1] in lex.value_to)
        i += used
    return said, reached


def _stands_for_a_word(
    words: list[str], i: int, used: int, digits: bool, amount: float, lex: Lexicon
) -> bool:
    """A number word without a unit that is another word here: an article before another
    word ("ga een liedje terug", "a una temperatura"), or "one" after a word standing for
    the device ("the cabinet one", "the second one") or an article ("the one in the
    kitchen": it set every light to 1 %), or any number after an ordinal ("the last two")."""
    if used != 1:
        return False
    if i + 1 < len(words) and (_is_article(words[i], lex) or _counts(words, i, 1, digits, lex)):
        # An article before a word; "two lights", "one light in the kitchen": how many
        # devices, no value.
        return True
    if i == 0:
        return False
    before = {kind for kind, _ in lex.lookup((lex.key(words[i - 1]),))}
    if "ordinal" in before:
        # "the first two", "die letzten drei": how many, counted from there.
        return True
    if digits or amount != 1:
        return False
    return "determiner" in before or "filler" not in before


def _is_article(word: str, lex: Lexicon) -> bool:
    return any(kind == "determiner" for kind, _ in lex.lookup((lex.key(word),)))


def _counts(words: list[str], i: int, used: int, digits: bool, lex: Lexicon) -> bool:
    """ "two lights", "turn off 2 of the kitchen lights", "one kitchen light", "zwei der
    Lampen": a number before a type word or "of", or a number word before a name of the home
    or an article, says how many (it turned the lights off to 2 %). Digits before a name or
    an article may still be the value ("set it to 20 the kitchen" is no count)."""
    if i + used >= len(words):
        return False
    after = words[i + used]
    kinds = {kind for kind, _ in lex.lookup((lex.key(after),))}
    if "type" in kinds or _partitive_at(words, i + used, lex):
        return True
    return not digits and (after == _NAME_MARK or "determiner" in kinds)


def _partitive_at(words: list[str], i: int, lex: Lexicon) -> bool:
    """ "of", "de las", "delle" at `i`: what follows is counted ("dos de las luces")."""
    return words[i] in lex.partitives or " ".join(words[i : i + 2]) in lex.partitives


def _counted_by_an_article(words: list[str], i: int, lex: Lexicon) -> bool:
    """ "una de las luces", "eine der Lampen", "une des lampes": an article before "of the"
    is one of them; before a noun ("eine Lampe", "a light") it is no count."""
    if i + 1 >= len(words):
        return False
    kinds = {kind for kind, _ in lex.lookup((lex.key(words[i + 1]),))}
    return _partitive_at(words, i + 1, lex) or "determiner" in kinds


def read_count(seg: list[Span], lex: Lexicon) -> int | None:
    """How many of the targets were asked for ("one of the kitchen lights", "2 lamps"), when
    a number says so; an article ("a light", "eine Lampe") is no count."""
    words = _words(seg)
    for i, word in enumerate(words):
        match = _NUMBER_RE.match(word) if NUMERIC_RE.match(word) else None
        if match:
            if match.group(2):
                continue  # "50%": a value with its unit
            amount, used = float(match.group(1).replace(",", ".")), 1
        else:
            found, used = number_words(words, i, lex)
            if found is None:
                continue
            if _is_article(word, lex):
                if found == 1 and _counted_by_an_article(words, i, lex):
                    return 1
                continue
            amount = found
        if amount >= 1 and amount.is_integer() and _counts(words, i, used, bool(match), lex):
            return int(amount)
    return None


def settle_setting(ir: QueryIR, setting: Setting, lexicons: LexiconSet) -> None:
    """Put the setting into the command: the precise action it implies ("set … to 2700 K" sets
    the white temperature), the attribute, the value in its unit, and whether Home Assistant
    would accept it."""
    if setting.empty:
        return
    table = lexicons.values
    action = ir.action
    named = setting.named
    if (named is not None and named[0] == "color_temp") or setting.unit == "K":
        if action in _GENERIC or action in ("set_temperature", "set_color", "set_brightness"):
            action = table.kelvin_action or action
    elif named is not None and named[0] == "color":
        if action in _GENERIC:
            action = "set_color"
    elif setting.unit in ("°C", "°F", "°"):
        if action in _GENERIC:
            action = table.degrees_action or action
    elif (action in _GENERIC or action in _MOVES) and (
        setting.number is not None
        or (named is not None and named[0] == "level")
        or (setting.change is not None and bool(ir.mentions or ir.type_groups))
    ):
        # "set the blinds to 50 %", "monte les volets à 50 %", "Erdgeschoss auf 50 %"; of a
        # named device ("ouvre la lampe à 50 %") the device says what it sets.
        bare = setting.number is not None and setting.unit is None and named is None
        action = _by_type(ir, lexicons, bare) or ("set" if ir.mentions else action)
    if action is None and setting.number is None and named is None:
        # "高一点", "a bit more": a change of the setting the conversation was about.
        ir.change = setting.change
        return
    if not takes_a_value(action, setting.unit, lexicons):
        # "turn off the bedroom lights at 11", "turn the tv off at 9": a number is no setting
        # of switching off (it set the lights to 11 % and the TV's volume to 9).
        return
    ir.action = action
    spec = table.actions.get(action or "")
    if spec is not None:
        ir.attribute = spec.attribute
        # The words that name the setting are no devices: "the temperature of the lights" sets
        # the lights, whether or not the word stands next to them.
        attribute_words = set(table.attribute_types.get(action or "", ()))
        if attribute_words:
            kept = (tuple(t for t in g if t not in attribute_words) for g in ir.type_groups)
            ir.type_groups = [g for g in kept if g]
    ir.change = setting.change
    default_unit = spec.unit if spec is not None else None
    if named is not None and named[0] == "level":
        ir.value, ir.unit = table.levels.get(named[1]), default_unit
    elif named is not None and named[0] == "color_temp":
        ir.value, ir.unit = table.color_temps.get(named[1]), "K"
    elif named is not None:
        ir.value = named[1]
    elif setting.number is not None:
        ir.value, ir.unit = setting.number, setting.unit or default_unit
    if spec is not None and isinstance(ir.value, float):
        bounds = spec.ranges.get(ir.unit or "") or spec.ranges.get(spec.unit or "")
        if bounds is not None and not bounds[0] <= ir.value <= bounds[1]:
            ir.value_error = "out_of_range"


def takes_a_value(
    action: str | None, unit: str | None, lexicons: LexiconSet, becomes: str | None = None
) -> bool:
    """Whether a value may be said with the action: "set" or "turn on" (made precise by the
    value), a move ("open the blinds to 40 %") or a set action itself; "turn off" only a
    percentage that closes a cover to a position ("关闭窗帘到50%"), never a light's brightness;
    not "lock" or "pause". `becomes`: the set action the devices would make of it, if known."""
    if action == _SWITCH_OFF:
        return unit == "%" and becomes in (None, _CLOSES_TO)
    return action in _GENERIC or action in _MOVES or action in lexicons.values.actions


def _by_type(ir: QueryIR, lexicons: LexiconSet, bare_number: bool) -> str | None:
    """ "set the blinds to 50 %": a bare percentage sets what the type's devices set."""
    said = {t for group in ir.type_groups for t in group}
    for action, words in lexicons.values.attribute_types.items():
        sets = lexicons.values.actions.get(action)
        if said & set(words) and sets is not None and sets.unit == "%":
            # "湿度设成60": the word names the setting ("humidity"), not a humidity sensor.
            return action
    if ir.mentions or ir.references:
        # A named device sets what it sets: decided once the device is known.
        return None
    specs = lexicons.types.types
    domains: set[str] = set()
    type_ids = [t for group in ir.type_groups for t in group[:1]]
    if not type_ids and ir.implied_type:
        type_ids = [ir.implied_type]
    if not type_ids and (not bare_number or ir.names_a_place or ir.here):
        # A bare percentage sets brightness, as Home Assistant's own sentences read it; so
        # does a number said of a room ("the kitchen to 30"). A number said of nothing ("set
        # the heat to 21") is no brightness of some light.
        default = lexicons.types.defaults.get("percent")
        type_ids = [default] if default else []
    for type_id in type_ids:
        spec = specs.get(type_id)
        if spec is not None and spec.tiers:
            domains |= {d for d, _ in spec.tiers[0]}
    table = lexicons.values
    # Only what is set in percent: a thermostat's bare number is degrees, not a percentage.
    actions = {
        a if a is not None and (value := table.actions.get(a)) and value.unit == "%" else None
        for a in (table.percent_by_domain.get(d) for d in domains)
    }
    if len(actions) == 1:
        return actions.pop()
    return None
