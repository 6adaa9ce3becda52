"""What the agent says after carrying out commands itself: exactly what changed.

Said from the `Outcome` (intents.py) in the utterance's language, every sentence a message of
the language's lexicon: what was switched or set (and to what), what already was in that state,
what cannot do it, was unavailable or failed. Names are cleaned (they are data, spoken and
written into the chat log); a name several entities of the home share gets its room
("the ceiling light in the kitchen"). A long list names at most a few, one of every kind first
(the air conditioner among twenty lights is named), and counts the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from homeassistant.core import HomeAssistant

from .core import DeviceIndex
from .core.base.lexicon import Lexicon
from .core.base.redact import clean
from .core.base.spoken import spoken_name
from .core.questions.answer import format_value
from .intents import Outcome

# Names said in full up to this many; beyond, this many are named and the rest counted.
LISTED = 4
NAME_CHARS = 60
ALREADY_WORDS = ("on", "off", "open", "closed", "locked", "unlocked")


def confirmation(
    outcome: Outcome, index: DeviceIndex, lex: Lexicon, hass: HomeAssistant | None = None
) -> str:
    """The answer to say, sentence by sentence."""
    namer = Namer(index, lex, hass)
    sentences: list[str] = []
    switched = [e for done in outcome.done if done.setting is None for e in done.entity_ids]
    if switched:
        sentences.append(lex.message("done", names=namer.names(switched)))
    by_value: dict[str, list[str]] = {}  # one sentence per value set
    for done in outcome.done:
        if done.setting is not None:
            by_value.setdefault(value_text(done.setting, lex), []).extend(done.entity_ids)
    for value, set_ids in by_value.items():
        sentences.append(lex.message("done_set", names=namer.names(set_ids), value=value))
    for word in ALREADY_WORDS:
        if already := outcome.already.get(word):
            sentences.append(lex.message(f"already_{word}", names=namer.names(already)))
    for key, ids in (
        ("unsupported", outcome.unsupported),
        ("not_now", outcome.not_now),
        ("unavailable", outcome.unavailable),
        ("failed_some", outcome.failed),
    ):
        if ids:
            sentences.append(lex.message(key, names=namer.names(list(dict.fromkeys(ids)))))
    for setting in outcome.out_of_range:
        sentences.append(lex.message("out_of_range", value=value_text(setting, lex)))
    if outcome.not_found:
        words = [clean(w, NAME_CHARS) for w in dict.fromkeys(outcome.not_found)]
        what = lex.messages.get("list_and", " and ").join(words)
        sentences.append(lex.message("not_found", what=what))
    if outcome.nothing and not sentences:
        sentences.append(lex.message("nothing_found"))
    if outcome.left_alone and not sentences:
        sentences.append(lex.message("negated"))
    if outcome.later and not sentences:
        sentences.append(lex.message("later"))
    return join_sentences(sentences) or lex.message("failed")


def join_sentences(sentences: Sequence[str]) -> str:
    """Sentences one after another, each begun with a capital where the script has them
    (a sentence may begin with a name said in lower case): a space after Latin punctuation,
    none after CJK."""
    out = ""
    for sentence in sentences:
        if out and not _wide(out[-1]):
            out += " "
        out += sentence[:1].upper() + sentence[1:]
    return out


def _wide(char: str) -> bool:
    return ord(char) >= 0x3000


def value_text(setting: dict[str, Any], lex: Lexicon) -> str:
    """ "50%", "24 °C", "2700 K", or the language's word for a named value ("红色")."""
    value = setting.get("value")
    if isinstance(value, str):
        return value_word(lex, str(setting.get("attribute")), value) or clean(value, 30)
    if isinstance(value, int | float):
        return format_value(float(value), setting.get("unit"))
    return ""


def value_word(lex: Lexicon, category: str, value: str) -> str | None:
    """The first word the language lists for a named value (its colour word)."""
    for keys, meanings in lex.value_names.items():
        if (category, value) in meanings:
            return "".join(keys) if any(_wide(k[:1] or " ") for k in keys) else " ".join(keys)
    return None


class Namer:
    """Names of entities as the answer says them."""

    def __init__(self, index: DeviceIndex, lex: Lexicon, hass: HomeAssistant | None) -> None:
        self.index = index
        self.lex = lex
        self.hass = hass
        # Names several entities of the home share are said with their room.
        self.shared = Counter(_key(index, e) for e in index.entries)

    def label(self, entity_id: str) -> str:
        """The entity as the answer says it, in the answer's language when the home has an
        alias in it ("the ceiling light in the kitchen" for 厨房的吸顶灯)."""
        if entity_id not in self.index:
            state = self.hass.states.get(entity_id) if self.hass else None
            return clean(state.name if state else entity_id, NAME_CHARS)
        device = self.index.device(entity_id)
        name = clean(spoken_name(device.name, device.aliases, self.lex), NAME_CHARS)
        area_name = self.index.area_name(device.area_id) or ""
        area = clean(spoken_name(area_name, device.area_aliases, self.lex), NAME_CHARS)
        if area and self.shared[_key(self.index, entity_id)] > 1:
            return self.lex.message("option_area", name=name, area=area)
        return name

    def names(self, entity_ids: Sequence[str]) -> str:
        """ "A, B and C"; past `LISTED`, one of every kind first, then the rest counted."""
        ids = list(dict.fromkeys(entity_ids))
        shown = ids if len(ids) <= LISTED else self._pick(ids)
        labels = [self.label(e) for e in shown]
        separator = self.lex.messages.get("list_separator", ", ")
        if len(shown) < len(ids):
            return self.lex.message(
                "names_and_more",
                names=separator.join(labels),
                count=len(ids) - len(shown),
                total=len(ids),
            )
        if len(labels) <= 1:
            return "".join(labels)
        return separator.join(labels[:-1]) + self.lex.messages.get("list_and", " and ") + labels[-1]

    @staticmethod
    def _pick(ids: list[str]) -> list[str]:
        """One entity of each domain, in order, then the first others up to `LISTED - 1`."""
        first_of_kind: dict[str, str] = {}
        for entity_id in ids:
            first_of_kind.setdefault(entity_id.split(".", 1)[0], entity_id)
        chosen = set(first_of_kind.values())
        for entity_id in ids:
            if len(chosen) >= LISTED - 1:
                break
            chosen.add(entity_id)
        return [e for e in ids if e in chosen]


def _key(index: DeviceIndex, entity_id: str) -> str:
    names = index.entries[entity_id].norm_names
    return names[0] if names else entity_id
