"""core/base/name_tables.py: tables made from the home, kept while it stays as it is."""

from __future__ import annotations

import dataclasses

from custom_components.context_retrieval.core import Area, DeviceIndex
from custom_components.context_retrieval.core.base.lexicon import load_lexicons
from tests.core.conftest import make_device


def _home() -> DeviceIndex:
    devices = [make_device("light.desk", "Desk Lamp"), make_device("light.hall", "Hall Light")]
    return DeviceIndex.build(devices, language="en")


def test_a_derived_table_is_made_once_while_the_home_stays_the_same() -> None:
    index = _home()
    made: list[str] = []

    def build(word: str) -> set[str]:
        made.append(word)
        return {word}

    first = index.names.derived("t", "en", lambda: build("x"))
    assert index.names.derived("t", "en", lambda: build("y")) is first
    followed: list[set[str]] = []

    def follow(kept: set[str], changed: set[str]) -> bool:
        followed.append(changed)
        return True

    assert index.names.derived("t", "en", set, follow) is first
    assert made == ["x"] and followed == []  # nothing changed: nothing to follow
    # Another language (or name) is another table.
    assert index.names.derived("t", "de", lambda: {"z"}) == {"z"}


def test_after_a_rename_it_follows_the_change_or_is_made_again() -> None:
    index = _home()
    table: set[str] = index.names.derived("t", "en", set)
    seen: list[set[str]] = []

    def follow(kept: set[str], changed: set[str]) -> bool:
        seen.append(changed)
        kept |= changed
        return True

    index.upsert(dataclasses.replace(index.device("light.desk"), name="Reading Lamp"))
    assert index.names.derived("t", "en", set, follow) is table
    assert seen == [{"light.desk"}] and table == {"light.desk"}
    # An update that cannot follow, or none at all, makes the table again.
    index.upsert(dataclasses.replace(index.device("light.hall"), name="Porch Light"))
    assert index.names.derived("t", "en", lambda: {"new"}, lambda *_: False) == {"new"}
    index.upsert(dataclasses.replace(index.device("light.hall"), name="Hall Light"))
    assert index.names.derived("t", "en", lambda: {"again"}) == {"again"}


def test_typos_are_repaired_to_home_words_and_command_words_only() -> None:
    kitchen = Area("kitchen", "Kitchen")
    devices = [
        make_device("light.desk", "Desk Lamp", kitchen),
        make_device("media_player.tv", "Zed TV"),
        make_device("light.tai", "台灯"),
    ]
    index = DeviceIndex.build(devices, language="en")
    lex = load_lexicons().get("en")
    vocabulary = set(index.token_vocabulary(lex))
    # The home's names and the language's command words, three letters or more.
    assert {"desk", "lamp", "zed", "kitchen", "open", "dim", "lock"} <= vocabulary
    assert not {"tv", "台灯"} & vocabulary
    # Never a colour, a value, a state word, a number or a request not for the home ...
    assert not {"red", "cool", "fifty", "sing"} & vocabulary
    # ... nor a word only longer phrases hold, nor a room-kind word the home's names lack.
    assert not {"crank", "candle", "kitchenette"} & vocabulary
    assert vocabulary == index.names.token_words(lex)
