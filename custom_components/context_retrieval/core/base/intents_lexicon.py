"""Learn a language's lexicon from Home Assistant's intent data (`home_assistant_intents`).

Home Assistant ships, for every language its default agent speaks, sentence templates per
intent, slot lists (domains, device classes, states, colours), expansion rules and skip words.
This module reads them and returns lexicon data in the same shape as a hand-written file
(`lexicons/<lang>.json`), so `lexicon.learned` can merge it *under* the hand-written layer:

- slot lists say outright which words name a domain, a cover class, a state or a colour;
- a word that (nearly) only occurs in one intent's templates is that intent's verb
  (`accendi` → turn on), one spread over every set-value intent is a generic "set", one
  spread over many intents is a function word;
- what stands right before an area or floor slot is a preposition or article (`nella`);
- skip words are politeness fillers.

The data is read by `intents_data`, its template syntax by `intents_templates`, so nothing
depends on one version of `hassil`'s classes. Pure Python,
no Home Assistant imports; the intent package is imported only when a language is learned.
What it reads is cached per language; learning is blocking work for an executor thread.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .intents_data import (
    Block,
    as_list,
    blocks,
    intent_languages,
    intent_map,
    intents_data,
    list_names,
)
from .intents_templates import (
    NO_SPACE_RE,
    Expander,
    Node,
    TemplateError,
    is_word,
    parse_template,
    template_units,
)
from .text import normalize


@dataclass
class _Learned:
    """Lexicon sections being filled, in the hand-written files' shape."""

    sections: dict[str, Any] = field(default_factory=dict)
    claimed: set[str] = field(default_factory=set)  # words that already mean something

    def add(self, section: str, key: str, word: str) -> None:
        word = normalize(word).strip()
        if not is_word(word):
            return
        if key:
            bucket = self.sections.setdefault(section, {}).setdefault(key, [])
        else:
            bucket = self.sections.setdefault(section, [])
        if word not in bucket:
            bucket.append(word)
        self.claimed.add(word)


def _list_values(data: dict[str, Any], name: str, expander: Expander) -> list[tuple[str, str]]:
    """(spoken form, value) of a slot list, each template form expanded."""
    values = ((data.get("lists") or {}).get(name) or {}).get("values") or []
    out: list[tuple[str, str]] = []
    for item in values:
        if isinstance(item, dict):
            spoken, value = item.get("in"), item.get("out", item.get("in"))
        else:
            spoken, value = item, item
        if not isinstance(spoken, str):
            continue
        try:
            node = parse_template(spoken)
        except TemplateError:
            continue
        for expansion in expander.expand(node):
            phrase = " ".join(u for u in template_units(expansion) if not u.startswith("{"))
            if phrase:
                out.append((phrase, str(value)))
    return out


def learn_data(data: dict[str, Any]) -> dict[str, Any]:
    """Lexicon sections learned from one language's intent data (see the module doc)."""
    mapping = intent_map()
    limits = mapping["thresholds"]
    rules: dict[str, Node] = {}
    for name, body in (data.get("expansion_rules") or {}).items():
        try:
            rules[str(name)] = parse_template(str(body))
        except TemplateError:
            continue
    expander = Expander(rules, int(limits["expansions_per_template"]))
    learned = _Learned()
    # 1. Slot lists and expansion rules say outright what their words mean.
    _learn_lists(learned, data, mapping, expander)
    _learn_rules(learned, rules, mapping, expander)
    # 2. Which words each template uses, and what stands right before its slots.
    stats = _template_stats(blocks(data, mapping, rules), expander)
    _learn_fillers_before_slots(learned, stats)
    _learn_verbs(learned, stats, mapping, limits)
    _learn_prepositions(learned, stats, limits)
    _learn_type_nouns(learned, stats, mapping["domains"], float(limits["share"]))
    _learn_here(learned, stats, float(limits["share"]))
    # 8. Function words: spread over many intents and meaning nothing of their own.
    for word, intents in stats.intents_of.items():
        if word not in learned.claimed and len(intents) >= int(limits["spread"]):
            learned.add("fillers", "", word)
    return learned.sections


def _learn_lists(
    learned: _Learned, data: dict[str, Any], mapping: dict[str, Any], expander: Expander
) -> None:
    """Domains, device classes, states, colours and value words from the slot lists; the
    skip words."""
    domain_types: dict[str, str] = mapping["domains"]
    for list_name in mapping["domain_lists"]:
        for phrase, value in _list_values(data, list_name, expander):
            if value in domain_types:
                learned.add("types", domain_types[value], phrase)
    for list_name in mapping["class_lists"]:
        for phrase, value in _list_values(data, list_name, expander):
            if value in mapping["cover_classes"]:
                learned.add("types", mapping["cover_classes"][value], phrase)
    # "开着" is "on" for a light and "open" for a cover: a word of the on/off list never
    # narrows a command to covers.
    on_off = {normalize(p) for p, _ in _list_values(data, "on_off_states", expander)}
    for list_name, meanings in mapping["state_lists"].items():
        for phrase, value in _list_values(data, list_name, expander):
            for section, key in meanings.get(value, []):
                if section == "states" and normalize(phrase) in on_off:
                    continue
                learned.add(section, key, phrase)
    for list_name in mapping["color_lists"]:
        for phrase, value in _list_values(data, list_name, expander):
            learned.add("actions", "set_color", phrase)
            learned.add("colors", value, phrase)
    levels = {str(v): k for k, v in mapping.get("levels", {}).items()}
    for list_name in mapping["value_lists"]:
        for phrase, value in _list_values(data, list_name, expander):
            learned.add("value_words", "", phrase)
            if value in levels:
                learned.add("levels", levels[value], phrase)
    for word in as_list(data.get("skip_words")):
        learned.add("request_markers", "", word)
        learned.add("fillers", "", word)


def _learn_rules(
    learned: _Learned, rules: dict[str, Node], mapping: dict[str, Any], expander: Expander
) -> None:
    """The expansion rules the map names ("here", quantifiers …), as long as they hold no
    slot list."""
    for rule_name, hint in mapping["rule_hints"].items():
        if rule_name.startswith("_") or rule_name not in rules:
            continue
        section, key = hint
        if list_names(rules[rule_name], rules):
            continue
        for expansion in expander.expand(("rule", rule_name)):
            phrase = " ".join(u for u in template_units(expansion))
            if section == "quant_all":
                learned.add("quantifiers", "all", phrase)
            elif section == "quant_any":
                learned.add("quantifiers", "any", phrase)
            else:
                learned.add(section, key, phrase)


def _learn_fillers_before_slots(learned: _Learned, stats: _Stats) -> None:
    """3. Words right before a number are prepositions ("alle 50%"), never verbs; words right
    before a name that never open a template are articles and prepositions ("sulla TV")."""
    for word, count in stats.before_value.items():
        if word not in learned.claimed and _ratio(count, stats.total[word]) >= 0.5:
            learned.add("fillers", "", word)
    # Verbs also stand before names, but start sentences too.
    for word, count in stats.before_name.items():
        if (
            word not in learned.claimed
            and _ratio(count, stats.total[word]) >= 0.5
            and _ratio(stats.first[word], stats.total[word]) < 0.2
        ):
            learned.add("fillers", "", word)


def _learn_verbs(
    learned: _Learned, stats: _Stats, mapping: dict[str, Any], limits: dict[str, Any]
) -> None:
    """4. Verbs: words that belong to one action ("accendi"), or to the set-value family."""
    family = set(mapping["set_family"])
    for word in stats.total:
        if word in learned.claimed:
            continue
        if not _long_enough(word):
            continue
        action = _action_of(word, stats.by_action, family, set(mapping["media_family"]), limits)
        if action == "query" and len(stats.intents_of[word]) < 2 and not stats.first[word]:
            # Question words open questions or ask about many things; a word inside the
            # questions of one intent only is their subject ("wind" of the weather intent).
            continue
        if action == "media":
            learned.add("media_words", "", word)
        elif action:
            learned.add("actions", action, word)


def _learn_prepositions(learned: _Learned, stats: _Stats, limits: dict[str, Any]) -> None:
    """5. What stands before a place is a preposition or an article ("nella", "in de")."""
    for word, count in stats.before_place.items():
        if (
            word not in learned.claimed
            and count >= int(limits["preposition_min"])
            and _ratio(count, stats.total[word]) >= 0.4
        ):
            learned.add("area_prepositions", "", word)


def _learn_type_nouns(
    learned: _Learned, stats: _Stats, domain_types: dict[str, str], share: float
) -> None:
    """6. Nouns: words that belong to one domain name it (its type word)."""
    for word, count in stats.total.items():
        if word in learned.claimed or not _long_enough(word):
            continue
        counts = [(d, c[word]) for d, c in stats.by_domain.items() if c[word]]
        if not counts:
            continue
        domain, best = max(counts, key=lambda dc: dc[1])
        if domain in domain_types and best / count >= share and best >= 2:
            learned.add("types", domain_types[domain], word)


def _learn_here(learned: _Learned, stats: _Stats, share: float) -> None:
    """7. Words of the templates that need the satellite's room ("qui", "in questa stanza"),
    but not the room noun of a "here" phrase already learned ("camera" of "in questa
    camera"). When an expansion rule already said how "here" is said, the words around it in
    those templates are the rest of the sentence ("où je me trouve", "se", "même")."""
    ruled_here = bool(learned.sections.get("here"))
    in_phrases = {w for p in learned.sections.get("here", []) if " " in p for w in p.split(" ")}
    for word, count in stats.here.items():
        if (
            not ruled_here
            and word not in learned.claimed
            and word not in in_phrases
            and count >= 2
            and _ratio(count, stats.total[word]) >= share
        ):
            learned.add("here", "", word)


_HANGUL_RE = re.compile("[\uac00-\ud7af]")


def _long_enough(word: str) -> bool:
    """Two letters are too little to call a verb or a noun from statistics alone ("de" of
    "[de]aktiviere"); Han, kana and Hangul carry a syllable each."""
    return len(word) >= 3 or (
        len(word) == 2 and bool(NO_SPACE_RE.match(word) or _HANGUL_RE.match(word))
    )


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


@dataclass
class _Stats:
    """Per word: in how many templates it occurs, by action, domain and intent, and how often
    it stands right before a place, a name or a value slot."""

    total: Counter[str] = field(default_factory=Counter)
    by_action: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    by_domain: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    intents_of: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    here: Counter[str] = field(default_factory=Counter)
    before_place: Counter[str] = field(default_factory=Counter)
    before_name: Counter[str] = field(default_factory=Counter)
    before_value: Counter[str] = field(default_factory=Counter)
    first: Counter[str] = field(default_factory=Counter)  # templates it opens


_PLACE_SLOTS = frozenset({"{area}", "{floor}"})
_NAME_SLOTS = frozenset({"{name}"})


@dataclass(slots=True)
class _Said:
    """What one template's sentences say: its words, and the words before its slots."""

    words: set[str] = field(default_factory=set)
    place: set[str] = field(default_factory=set)
    name: set[str] = field(default_factory=set)
    value: set[str] = field(default_factory=set)
    first: set[str] = field(default_factory=set)


def _said_in(template: Node, expander: Expander) -> _Said:
    said = _Said()
    for expansion in expander.expand(template):
        units = template_units(expansion)
        # One Han or kana character is too little to learn from a template ("大").
        said.words.update(
            u for u in units if is_word(u) and not (len(u) == 1 and NO_SPACE_RE.match(u))
        )
        if units:
            said.first.add(units[0])
        _note_slots(units, said)
    return said


def _note_slots(units: tuple[str, ...], said: _Said) -> None:
    """The word before each slot (and, before a place, the one before that too)."""
    for i, unit in enumerate(units):
        if not unit.startswith("{") or i == 0 or not is_word(units[i - 1]):
            continue
        if unit in _PLACE_SLOTS:
            said.place.add(units[i - 1])
            if i >= 2 and is_word(units[i - 2]):
                said.place.add(units[i - 2])
        elif unit in _NAME_SLOTS:
            said.name.add(units[i - 1])
        else:
            said.value.add(units[i - 1])


def _template_stats(blocks: list[Block], expander: Expander) -> _Stats:
    stats = _Stats()
    for block in blocks:
        for template in block.templates:
            said = _said_in(template, expander)
            stats.before_place.update(said.place)
            stats.before_name.update(said.name)
            stats.before_value.update(said.value)
            stats.first.update(said.first)
            _count(stats, block, said.words)
    return stats


def _count(stats: _Stats, block: Block, words: set[str]) -> None:
    action = block.action or f"other:{block.intent}"
    for word in words:
        stats.total[word] += 1
        stats.intents_of[word].add(block.intent)
        stats.by_action[action][word] += 1
        for domain in block.domains:
            stats.by_domain[domain][word] += 1
        if block.area_context and block.action:
            stats.here[word] += 1


def _action_of(
    word: str,
    by_action: dict[str, Counter[str]],
    family: set[str],
    media: set[str],
    limits: dict[str, Any],
) -> str | None:
    """The action a word says, if its templates say it clearly enough; "media" for a word
    shared by several media commands (a media noun such as "programma")."""
    share = float(limits["share"])
    # Intents the lexicon has no action for (timers, lists) are left out of the shares:
    # "desliga o timer" does not make "desliga" less of a turn-off verb.
    counts = {a: c[word] for a, c in by_action.items() if c[word] and not a.startswith("other:")}
    known = sum(counts.values())
    if not known:
        return None
    ranked = sorted(counts.items(), key=lambda ac: -ac[1])
    best, best_count = ranked[0]
    if best_count / known >= share:
        return best
    if (
        len([a for a in counts if a in media]) >= 3
        and sum(n for a, n in counts.items() if a in media) / known >= share
    ):
        return "media"
    # A verb shared by close actions ("apri": open, and open to a position) is the one it
    # says clearly most, as long as it is a control verb and not a question word.
    control = sum(n for a, n in counts.items() if a != "query")
    second = ranked[1][1] if len(ranked) > 1 else 0
    if (
        best != "query"
        and control / known >= share
        and best_count / known > 0.5
        and best_count >= 1.5 * second
    ):
        return best
    in_family = sum(n for a, n in counts.items() if a in family)
    if (
        in_family / known >= float(limits["family_share"])
        and len([a for a in counts if a in family]) > 1
    ):
        return "set"
    return None


@lru_cache(maxsize=64)
def learned_sections(language: str) -> dict[str, Any] | None:
    """The learned lexicon sections for one intent-data language code, or None when the
    intent data is not installed or has no such language. Cached: learned once per process."""
    data = intents_data(language)
    if data is None:
        return None
    return learn_data(data)


def learnable(language: str) -> bool:
    return language.lower().replace("_", "-") in intent_languages()
