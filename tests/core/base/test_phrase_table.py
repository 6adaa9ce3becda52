"""core/base/phrase_table.py: what begins a key, kept in step as names come and go."""

from __future__ import annotations

import dataclasses

from custom_components.context_retrieval.core import DeviceIndex, retrieve
from custom_components.context_retrieval.core.base.phrase_table import PhraseTable, Ref
from tests.core.conftest import make_device


def _ref(target: str) -> Ref:
    return Ref("entity", target, "name", ("x",))


def test_a_key_and_its_beginnings_begin_a_key() -> None:
    table = PhraseTable()
    table.add(("garden", "path", "light"), _ref("light.a"))
    for begun in [("garden",), ("garden", "path"), ("garden", "path", "light")]:
        assert table.begins(begun)
    for other in [("path",), ("garden", "light"), ("garden", "path", "light", "left"), ()]:
        assert not table.begins(other)


def test_beginnings_stay_while_any_key_holds_them() -> None:
    table = PhraseTable()
    table.add(("garden", "path"), _ref("light.a"))
    table.add(("garden", "path"), _ref("light.b"))
    table.add(("garden", "gate"), _ref("lock.c"))
    table.discard(("garden", "path"), "light.a")
    assert table.begins(("garden", "path"))  # light.b still has it
    table.discard(("garden", "path"), "light.b")
    assert not table.begins(("garden", "path"))
    assert table.begins(("garden",))  # the gate's key still begins with it
    table.discard(("garden", "gate"), "lock.c")
    assert not table.begins(("garden",))
    table.discard(("garden", "gate"), "lock.c")  # twice is harmless
    assert not table.begins(("garden",))


def test_a_long_name_is_read_after_renames_and_not_before() -> None:
    """The path a user takes: a device renamed to a long name is found by it, and its old
    long name no longer is (the reader stops at words no name begins with)."""
    old = make_device("light.strip", "Garden Path Light Strip Left Side")
    index = DeviceIndex.build([old, make_device("light.lamp", "Desk Lamp")], language="en")
    said = retrieve("turn on the garden path light strip left side", index, language="en")
    assert said[0].selected_ids == ["light.strip"]
    index.upsert(dataclasses.replace(old, name="Porch Rail Light Strip Right Side"))
    renamed = retrieve("turn on the porch rail light strip right side", index, language="en")
    assert renamed[0].selected_ids == ["light.strip"]
    assert not index.table(index.lexicons.get("en")).begins(("garden", "path"))
