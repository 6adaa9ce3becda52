"""Synthetic benchmark cases for a home, with gold computed from the home data by the dev
README's rules ("Gold resolution"). Nothing here knows how the engine works."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from .gold import HomeView, TypeMembers, casefolded
from .phrases import (
    CASE_KINDS,
    EN_ANSWER,
    EN_AREA,
    EN_EXCEPT,
    EN_FLOOR,
    EN_FOLLOWUP,
    EN_NAME,
    EN_WRAP,
    FOLLOWUP_GROUP,
    KEYBOARD,
    TYPE_WORDS,
    ZH_ANSWER,
    ZH_AREA,
    ZH_EXCEPT,
    ZH_FLOOR,
    ZH_FOLLOWUP,
    ZH_NAME,
    ZH_WRAP,
    TypeWord,
)


class _CaseMaker:
    def __init__(self, home: dict[str, Any], seed: int) -> None:
        self.view = HomeView(home)
        self.zh = self.view.language.startswith("zh")
        self.rng = random.Random(f"cases:{home.get('home_id')}:{seed}")
        self.seed = seed
        v = self.view
        # A name that is also a room, a floor or a type word ("Curtains", "空调") said alone
        # reads two ways (README: name vs. domain), so it is not used without a room.
        skip = v.room_words | {casefolded(w) for tw in TYPE_WORDS for w in (*tw.en, tw.zh)}
        # Names (and aliases) only one entity has.
        self.unique: list[tuple[str, str, bool]] = []  # (entity_id, surface, is_alias)
        for e in v.entities:
            for i, surface in enumerate([e["name"], *e.get("aliases", [])]):
                cf = casefolded(surface)
                if v.names[cf] == [e["entity_id"]] and cf not in skip:
                    self.unique.append((e["entity_id"], surface, i > 0))
        # Names several entities share, all of one domain.
        shared: dict[str, str] = {}
        for e in v.entities:
            cf = casefolded(e["name"])
            ids = v.names[cf]
            if (
                len(ids) >= 2
                and cf not in v.room_words
                and len({v.by_id[i]["domain"] for i in ids}) == 1
            ):
                shared.setdefault(cf, e["name"])
        # Said with a room ("the curtains in room 204") any shared name reads one way.
        self.shared_with_room = sorted(shared.values(), key=casefolded)
        self.shared = [n for n in self.shared_with_room if casefolded(n) not in skip]
        self.types: list[TypeMembers] = []
        for tw in TYPE_WORDS:
            members = TypeMembers(tw, defaultdict(list), defaultdict(list), [], set())
            for e in v.entities:
                if v.matches(e, tw):
                    members.everywhere.append(e["entity_id"])
                    members.surfaces.update(
                        casefolded(x) for x in [e["name"], *e.get("aliases", [])]
                    )
                    if e.get("area_id"):
                        members.by_area[e["area_id"]].append(e["entity_id"])
                    floor_id = v.floor_of(e)
                    if floor_id:
                        members.by_floor[floor_id].append(e["entity_id"])
            self.types.append(members)
        self._options: dict[str, dict[int, list[tuple[str, list[str]]]]] = {}
        self.vocab = {w for surface in v.names for w in re.findall(r"[a-z]+", surface)}

    # ---- wording ------------------------------------------------------------------------

    def say(self, text: str) -> str:
        """Spoken form of a home name: mostly lower-case in English."""
        if self.zh:
            return text
        return text.lower() if self.rng.random() < 0.7 else text

    def area_words(self, area: dict[str, Any]) -> tuple[str, str]:
        """({a}, {A}): the area after a preposition, and bare."""
        surface = area["name"]
        if area.get("aliases") and self.rng.random() < 0.2:
            surface = self.rng.choice(area["aliases"])
        bare = self.say(surface)
        if self.zh:
            return bare, bare
        needs_article = not re.match(r"(?i)(room|unit|office|suite|meeting room) ?\d", surface)
        return (f"the {bare}" if needs_article else bare), bare

    def floor_words(self, floor: dict[str, Any]) -> str:
        surface = self.rng.choice([floor["name"], *floor.get("aliases", [])])
        spoken = self.say(surface)
        if self.zh:
            return spoken
        low = surface.lower()
        if low in ("upstairs", "downstairs"):
            return spoken
        if low in ("basement", "cellar", "lower level"):
            return f"in the {spoken}"
        if re.fullmatch(r"(floor|level) \d+|b\d", low):
            return f"on {spoken}"
        return f"on the {spoken}"

    def fill(self, template: str, **slots: str) -> str:
        imperative = template.startswith("!")
        text = template.lstrip("!").format(**slots)
        if imperative and self.rng.random() < 0.35:
            prefix, suffix = self.rng.choice(ZH_WRAP if self.zh else EN_WRAP)
            text = f"{prefix}{text}{suffix}"
        return text

    def turn(
        self,
        text: str,
        gold: Sequence[str],
        kind: str,
        spec: dict[str, Any],
        clarify: bool = False,
        alt: Sequence[str] | None = None,
        note: str | None = None,
    ) -> dict[str, Any]:
        turn: dict[str, Any] = {
            "text": text,
            "context_area_id": None,
            "gold_entity_ids": sorted(gold),
            "expect_clarification": clarify,
            "gold_kind": kind,
            "gold_spec": spec,
        }
        if alt is not None:
            turn["alt_gold_entity_ids"] = sorted(alt)
            turn["alt_gold_spec"] = {"name_reading": True}
            turn["gold_note"] = note or "name_collision"
        return turn

    def name_template(self, domain: str) -> str:
        return self.rng.choice((ZH_NAME if self.zh else EN_NAME)[domain])

    # ---- one case of each kind ------------------------------------------------------------

    def case_name(self) -> list[dict[str, Any]] | None:
        """(a) a name only one entity has."""
        pick = self._unique_pick()
        if pick is None:
            return None
        eid, surface = pick
        entity = self.view.by_id[eid]
        text = self.fill(self.name_template(entity["domain"]), n=self.say(surface))
        return [self.turn(text, [eid], "name", {"name": surface})]

    def _unique_pick(self, pred: Any = None) -> tuple[str, str] | None:
        pool = [u for u in self.unique if pred is None or pred(u)]
        if not pool:
            return None
        names = [u for u in pool if not u[2]]
        aliases = [u for u in pool if u[2]]
        source = aliases if aliases and (not names or self.rng.random() < 0.2) else names
        eid, surface, _ = self.rng.choice(source)
        return eid, surface

    def _choose(self, what: str) -> tuple[TypeMembers, str, list[str]] | None:
        """A type word (by weight), then one of the places `what` allows for it."""
        per_type = self._options.get(what)
        if per_type is None:
            per_type = self._options[what] = {
                "area": self._area_options,
                "floor": self._floor_options,
                "except": self._except_options,
            }[what]()
        keys = sorted(k for k, places in per_type.items() if places)
        if not keys:
            return None
        ti = self.rng.choices(keys, [TYPE_WORDS[k].weight for k in keys])[0]
        place, gold = self.rng.choice(per_type[ti])
        return self.types[ti], place, gold

    def _area_options(self) -> dict[int, list[tuple[str, list[str]]]]:
        v = self.view
        return {
            ti: [
                (area_id, sorted(ids))
                for area_id, ids in sorted(m.by_area.items())
                # "the AC" only where the room's climate entity is an AC, and so on.
                if not m.word.names
                or all(casefolded(v.by_id[i]["name"]) in m.word.names for i in ids)
            ]
            for ti, m in enumerate(self.types)
        }

    def _floor_options(self) -> dict[int, list[tuple[str, list[str]]]]:
        table = ZH_FLOOR if self.zh else EN_FLOOR
        return {
            ti: [(floor_id, sorted(ids)) for floor_id, ids in sorted(m.by_floor.items())]
            for ti, m in enumerate(self.types)
            if m.word.group in table
        }

    def _except_options(self) -> dict[int, list[tuple[str, list[str]]]]:
        table = ZH_EXCEPT if self.zh else EN_EXCEPT
        out: dict[int, list[tuple[str, list[str]]]] = {}
        for ti, m in enumerate(self.types):
            if m.word.group not in table:
                continue
            out[ti] = []
            for area_id, ids in sorted(m.by_area.items()):
                excluded = set(ids)
                gold = sorted(e for e in m.everywhere if e not in excluded)
                if gold:
                    out[ti].append((area_id, gold))
        return out

    def case_area_type(self) -> list[dict[str, Any]] | None:
        """(b) area + type word → every entity of that domain/class in the area."""
        chosen = self._choose("area")
        if chosen is None:
            return None
        members, area_id, gold = chosen
        tw = members.word
        a, a_bare = self.area_words(self.view.areas[area_id])
        t1, t = self._type_forms(tw, len(gold))
        template = self.rng.choice((ZH_AREA if self.zh else EN_AREA)[tw.group])
        text = self.fill(template, a=a, A=a_bare, t=t, t1=t1)
        kind = "area_domain" if tw.device_class is None else "area_device_class"
        spec = {"area": area_id, "domain": tw.domain, "device_class": tw.device_class}
        alt = self._name_reading(text, members, gold, area_id=area_id)
        return [self.turn(text, gold, kind, spec, alt=alt)]

    def _type_forms(self, tw: TypeWord, count: int) -> tuple[str, str]:
        if self.zh:
            return tw.zh, tw.zh
        return tw.en[0], (tw.en[0] if count == 1 else tw.en[1])

    def _name_reading(
        self,
        text: str,
        members: TypeMembers,
        gold: list[str],
        area_id: str | None = None,
        floor_id: str | None = None,
    ) -> list[str] | None:
        """README "Name collision": the sentence holds the full name of an entity of the type;
        that name-only reading becomes the alternative gold."""
        v = self.view
        tw = members.word
        low = text.casefold()
        found = {
            s
            for s in members.surfaces
            if s in low and (self.zh or re.search(rf"(?<!\w){re.escape(s)}(?:e?s)?(?!\w)", low))
        }
        if not found:
            return None
        longest = {s for s in found if not any(s != o and s in o for o in found)}
        room_names: set[str] = set()
        if area_id:
            a = v.areas[area_id]
            room_names = {casefolded(s) for s in [a["name"], *a.get("aliases", [])]}
        if floor_id:
            f = v.floors[floor_id]
            room_names |= {casefolded(s) for s in [f["name"], *f.get("aliases", [])]}
        reading: set[str] = set()
        for surface in sorted(longest):
            for eid in v.names[surface]:
                e = v.by_id[eid]
                if not v.matches(e, tw):
                    continue
                # A name that holds the room ("Kitchen Fan") is read alone; one that does not
                # ("窗帘" in "客厅的窗帘") keeps the room of the sentence.
                in_name = any(r in surface for r in room_names)
                if not in_name and area_id and e.get("area_id") != area_id:
                    continue
                if not in_name and floor_id and v.floor_of(e) != floor_id:
                    continue
                reading.add(eid)
        if not reading or sorted(reading) == sorted(gold):
            return None
        return sorted(reading)

    def case_floor_type(self) -> list[dict[str, Any]] | None:
        """(c) floor + type word → every entity of that type in the floor's areas."""
        chosen = self._choose("floor")
        if chosen is None:
            return None
        members, floor_id, gold = chosen
        tw = members.word
        t1, t = self._type_forms(tw, len(gold))
        f = self.floor_words(self.view.floors[floor_id])
        template = self.rng.choice((ZH_FLOOR if self.zh else EN_FLOOR)[tw.group])
        text = self.fill(template, f=f, t=t, t1=t1)
        kind = "floor_domain" if tw.device_class is None else "floor_device_class"
        spec = {"floor": floor_id, "domain": tw.domain, "device_class": tw.device_class}
        alt = self._name_reading(text, members, gold, floor_id=floor_id)
        return [self.turn(text, gold, kind, spec, alt=alt)]

    def case_except(self) -> list[dict[str, Any]] | None:
        """(d) all of a type in the home (in an area or not) except one area's."""
        chosen = self._choose("except")
        if chosen is None:
            return None
        members, area_id, gold = chosen
        tw = members.word
        a, a_bare = self.area_words(self.view.areas[area_id])
        t1, t = self._type_forms(tw, len(gold))
        template = self.rng.choice((ZH_EXCEPT if self.zh else EN_EXCEPT)[tw.group])
        text = self.fill(template, a=a, A=a_bare, t=t, t1=t1)
        spec = {"domain": tw.domain, "device_class": tw.device_class, "exclude_area": area_id}
        return [self.turn(text, gold, "except", spec)]

    def case_typo(self) -> list[dict[str, Any]] | None:
        """(e) a unique name with one letter wrong, dropped or doubled (English only)."""
        if self.zh:
            return None
        pick = self._unique_pick(lambda u: any(len(w) >= 5 and w.isalpha() for w in u[1].split()))
        if pick is None:
            return None
        eid, surface = pick
        words = surface.split()
        long_words = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
        for _ in range(20):
            i = self.rng.choice(long_words)
            typo = self._misspell(words[i].lower())
            if typo not in self.vocab:
                break
        else:
            return None
        spoken = " ".join(typo if j == i else w.lower() for j, w in enumerate(words))
        entity = self.view.by_id[eid]
        text = self.fill(self.name_template(entity["domain"]), n=spoken)
        return [self.turn(text, [eid], "typo", {"name": surface, "typo": spoken})]

    def _misspell(self, word: str) -> str:
        pos = self.rng.randrange(1, len(word) - 1)  # keep the first and last letters
        op = self.rng.choice(("substitute", "substitute", "drop", "double"))
        if op == "drop":
            return word[:pos] + word[pos + 1 :]
        if op == "double":
            return word[:pos] + word[pos] + word[pos:]
        neighbours = KEYBOARD.get(word[pos], "e")
        return word[:pos] + self.rng.choice(neighbours) + word[pos + 1 :]

    def case_followup(self) -> list[dict[str, Any]] | None:
        """(f) a unique name, then "turn it off" / "把它关掉" about the same entity."""
        pick = self._unique_pick(lambda u: self.view.by_id[u[0]]["domain"] in FOLLOWUP_GROUP)
        if pick is None:
            return None
        eid, surface = pick
        group = FOLLOWUP_GROUP[self.view.by_id[eid]["domain"]]
        first, second = self.rng.choice((ZH_FOLLOWUP if self.zh else EN_FOLLOWUP)[group])
        return [
            self.turn(self.fill(first, n=self.say(surface)), [eid], "name", {"name": surface}),
            self.turn(second, [eid], "followup", {"reference": "previous_turn"}),
        ]

    def case_clarify(self) -> list[dict[str, Any]] | None:
        """(g) a name several rooms share, said without a room: ask back; then, sometimes,
        the answer naming one room."""
        if not self.shared:
            return None
        name = self.rng.choice(self.shared)
        gold = self.view.with_name(name)
        domain = self.view.by_id[gold[0]]["domain"]
        text = self.fill(self.name_template(domain), n=self.say(name))
        turns = [self.turn(text, gold, "clarify", {"name": name}, clarify=True)]
        by_area: dict[str, list[str]] = defaultdict(list)
        for eid in gold:
            area_id = self.view.by_id[eid].get("area_id")
            if area_id:
                by_area[area_id].append(eid)
        single = sorted(a for a, ids in by_area.items() if len(ids) == 1)
        if single and self.rng.random() < 0.5:
            area_id = self.rng.choice(single)
            a, a_bare = self.area_words(self.view.areas[area_id])
            answer = self.rng.choice(ZH_ANSWER if self.zh else EN_ANSWER).format(a=a, A=a_bare)
            turns.append(
                self.turn(
                    answer, by_area[area_id], "clarify_answer", {"name": name, "area": area_id}
                )
            )
        return turns

    def case_name_area(self) -> list[dict[str, Any]] | None:
        """A shared name said with its room: "the ceiling light in room 204" / "204房间的吸顶灯"."""
        if not self.shared_with_room:
            return None
        name = self.rng.choice(self.shared_with_room)
        by_area: dict[str, list[str]] = defaultdict(list)
        for eid in self.view.with_name(name):
            area_id = self.view.by_id[eid].get("area_id")
            if area_id:
                by_area[area_id].append(eid)
        single = sorted(a for a, ids in by_area.items() if len(ids) == 1)
        if not single:
            return None
        area_id = self.rng.choice(single)
        gold = by_area[area_id]
        a, a_bare = self.area_words(self.view.areas[area_id])
        spoken = self.say(name)
        if self.zh:
            n = f"{a}的{spoken}"
        else:
            n = f"{spoken} in {a}" if self.rng.random() < 0.7 else f"{a_bare} {spoken}"
        domain = self.view.by_id[gold[0]]["domain"]
        text = self.fill(self.name_template(domain), n=n)
        return [self.turn(text, gold, "name_area", {"name": name, "area": area_id})]


def make_cases(home: dict[str, Any], n: int, seed: int = 0) -> list[dict[str, Any]]:
    """`n` benchmark cases for `home` (README "Case format"), gold from the home data."""
    maker = _CaseMaker(home, seed)
    builders = {
        "name": maker.case_name,
        "area_type": maker.case_area_type,
        "floor_type": maker.case_floor_type,
        "except": maker.case_except,
        "typo": maker.case_typo,
        "followup": maker.case_followup,
        "clarify": maker.case_clarify,
        "name_area": maker.case_name_area,
    }
    kinds = [k for k in CASE_KINDS if not (maker.zh and k == "typo")]
    weights = [CASE_KINDS[k] for k in kinds]
    cases: list[dict[str, Any]] = []
    failures = 0
    while len(cases) < n:
        kind = maker.rng.choices(kinds, weights)[0]
        turns = builders[kind]()
        if turns is None:
            failures += 1
            if failures > 50 * max(n, 1):
                raise ValueError("this home cannot produce the requested cases")
            continue
        cases.append(
            {
                "case_id": f"syn-{home.get('home_id')}-{len(cases):05d}-{kind}",
                "suite": "synthetic",
                "language": maker.view.language,
                "home_id": home.get("home_id"),
                "intent": None,
                "slots": None,
                "source": {"generator": "bench.synthetic", "seed": seed, "kind": kind},
                "turns": turns,
            }
        )
    return cases


def case_kind(case: dict[str, Any]) -> str:
    """The generator's kind of a case ("name", "area_type", …)."""
    source = case.get("source") or {}
    return str(source.get("kind") or case.get("turns", [{}])[0].get("gold_kind") or "?")
