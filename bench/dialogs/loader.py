"""The dialogs of bench/dialogs/data/*.jsonl, checked against the demo home (demo/home.json):
every entity a dialog names exists there and is one the demo Home Assistant provides, and the
data meets the benchmark's minimums (turns per language and category)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .model import CATEGORIES, LANGUAGES, DataError, Dialog, parse_dialog

ROOT = Path(__file__).resolve().parents[2]
HOME_FILE = ROOT / "demo" / "home.json"
DATA_DIR = Path(__file__).resolve().parent / "data"
# Domains scripts/devhome cannot emulate (no core platform): never in a dialog.
NOT_EMULATED = frozenset({"water_heater"})
# What `given` can set, by domain (through the helpers behind the demo entities).
GIVABLE = frozenset(
    {
        "light",
        "switch",
        "fan",
        "lock",
        "vacuum",
        "binary_sensor",
        "cover",
        "media_player",
        "climate",
        "humidifier",
    }
)
MIN_TURNS = 260
MIN_TURNS_PER_LANGUAGE = 25
MIN_TURNS_PER_CATEGORY = 15


@dataclass(frozen=True)
class Home:
    """The demo home's entities, rooms and floors, enough to expand selectors."""

    entities: dict[str, dict[str, Any]]  # entity_id → its record in home.json
    area_floor: dict[str, str]  # area_id → floor_id
    floors: frozenset[str]

    def expand(self, key: str) -> list[str]:
        """An entity id, or a selector: `light` (every light), `light@kitchen` (those in an
        area), `light@floor_2` (those on a floor)."""
        if "." in key:
            if key not in self.entities:
                raise DataError(f"{key!r} is not an entity of the demo home")
            if key.split(".", 1)[0] in NOT_EMULATED:
                raise DataError(f"{key!r} is not provided by the demo Home Assistant")
            return [key]
        domain, _, place = key.partition("@")
        if place and place not in self.floors and place not in self.area_floor:
            raise DataError(f"{key!r}: {place!r} is neither an area nor a floor")
        found = [
            entity_id
            for entity_id, record in self.entities.items()
            if record["domain"] == domain
            and (
                not place
                or record.get("area_id") == place
                or self.area_floor.get(str(record.get("area_id"))) == place
            )
        ]
        if not found or domain in NOT_EMULATED:
            raise DataError(f"{key!r} stands for no entity of the demo home")
        return found


def load_home(path: Path = HOME_FILE) -> Home:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return Home(
        entities={e["entity_id"]: e for e in raw["entities"]},
        area_floor={a["area_id"]: a.get("floor_id") for a in raw.get("areas", [])},
        floors=frozenset(f["floor_id"] for f in raw.get("floors", [])),
    )


def data_files(directory: Path = DATA_DIR) -> list[Path]:
    return sorted(directory.glob("*.jsonl"))


def load_dialogs(paths: Iterable[Path] | None = None, home: Home | None = None) -> list[Dialog]:
    """Every dialog of the files (all of data/ by default), checked; DataError on the first
    problem, with its file and line."""
    home = home or load_home()
    dialogs: list[Dialog] = []
    seen: set[str] = set()
    for path in data_files() if paths is None else paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            where = f"{path.name}:{number}"
            try:
                raw = json.loads(line)
            except ValueError as err:
                raise DataError(f"{where}: not JSON ({err})") from err
            dialog = parse_dialog(raw, home.expand, where)
            if dialog.id in seen:
                raise DataError(f"{where}: the id {dialog.id!r} is used twice")
            seen.add(dialog.id)
            _check_against_home(dialog, home)
            dialogs.append(dialog)
    return dialogs


def _check_against_home(dialog: Dialog, home: Home) -> None:
    for entity_id in [*dialog.given, *dialog.unexposed]:
        home.expand(entity_id)
    for entity_id in dialog.given:
        if entity_id.split(".", 1)[0] not in GIVABLE:
            raise DataError(f"{dialog.source}: {entity_id} cannot be given a state")


def turn_counts(dialogs: Iterable[Dialog]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Turns per language, per category and per expected kind."""
    languages: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for dialog in dialogs:
        for turn in dialog.turns:
            languages[dialog.lang] += 1
            categories[turn.category] += 1
            kinds[turn.expect] += 1
    return languages, categories, kinds


def shortfalls(dialogs: list[Dialog]) -> list[str]:
    """What the data lacks against the benchmark's minimums (empty when it meets them)."""
    languages, categories, _ = turn_counts(dialogs)
    problems = []
    total = sum(languages.values())
    if total < MIN_TURNS:
        problems.append(f"{total} turns, fewer than {MIN_TURNS}")
    for lang in LANGUAGES:
        if languages[lang] < MIN_TURNS_PER_LANGUAGE:
            problems.append(f"{languages[lang]} turns in {lang}")
    if not languages["en"] > max(languages[x] for x in ("de", "fr", "es")) or not languages[
        "zh"
    ] > max(languages[x] for x in ("de", "fr", "es")):
        problems.append("English and Chinese must have the most turns")
    for category in CATEGORIES:
        if categories[category] < MIN_TURNS_PER_CATEGORY:
            problems.append(f"{categories[category]} turns of category {category}")
    multi_turn = sum(1 for d in dialogs if len(d.turns) >= 2)
    if multi_turn * 2 < len(dialogs):
        problems.append(f"only {multi_turn} of {len(dialogs)} dialogs have several turns")
    return problems
