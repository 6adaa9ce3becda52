"""A result's typed notes and the plain JSON they are shown as."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from custom_components.context_retrieval.core import retrieve
from custom_components.context_retrieval.core.base.index import DeviceIndex
from custom_components.context_retrieval.core.retrieval.meta import (
    ENTITY_LISTS,
    CapabilityFilter,
    NotCommanded,
    ResultMeta,
)


def test_nothing_set_says_nothing() -> None:
    assert ResultMeta().to_dict() == {}


def test_only_the_notes_set_are_shown_falsy_ones_included() -> None:
    meta = ResultMeta(language="en", scope_removed=0, room_unknown_terms=[], no_match=False)
    assert meta.to_dict() == {
        "language": "en",
        "scope_removed": 0,
        "room_unknown_terms": [],
        "no_match": False,
    }


def test_enums_are_shown_as_plain_strings_yaml_and_json_can_write() -> None:
    meta = ResultMeta(not_commanded=NotCommanded.CANNOT_DO, capability_filter=CapabilityFilter.SOFT)
    shown = meta.to_dict()
    assert shown == {"not_commanded": "cannot_do", "capability_filter": "soft"}
    assert all(type(v) is str for v in shown.values())
    assert yaml.safe_load(yaml.safe_dump(shown)) == shown
    assert json.loads(json.dumps(shown)) == shown


def test_what_is_shown_is_a_copy() -> None:
    meta = ResultMeta(
        mentioned=["light.a"], spelling_repaired=[["lamb", "lamp"]], setting={"value": 1}
    )
    shown = meta.to_dict()
    shown["mentioned"].append("light.b")
    shown["spelling_repaired"][0].append("x")
    shown["setting"]["value"] = 2
    assert meta.mentioned == ["light.a"]
    assert meta.spelling_repaired == [["lamb", "lamp"]]
    assert meta.setting == {"value": 1}


def test_a_command_s_own_notes_win_over_the_utterance_s() -> None:
    base = ResultMeta(language="zh", parser="llm", no_match=True)
    own = ResultMeta(language="en", scope_removed=3)
    assert own.fill(base) is own
    assert own.to_dict() == {
        "language": "en",
        "parser": "llm",
        "scope_removed": 3,
        "no_match": True,
    }
    assert base.to_dict() == {"language": "zh", "parser": "llm", "no_match": True}


def test_an_own_note_set_to_false_still_wins() -> None:
    assert ResultMeta(no_match=False).fill(ResultMeta(no_match=True)).no_match is False


def test_the_notes_set_follow_the_fields_order() -> None:
    meta = ResultMeta(withdrawn=1, language="en", no_match=False)
    assert meta.notes_set() == [("language", "en"), ("no_match", False), ("withdrawn", 1)]
    assert list(meta.to_dict()) == ["language", "no_match", "withdrawn"]


def test_withdrawn_entities_leave_every_list_of_entities_and_nothing_else() -> None:
    gone = frozenset({"lock.front_door"})
    lists = {name: ["lock.front_door", "light.kept"] for name in ENTITY_LISTS}
    meta = ResultMeta(**lists, not_found=["lock.front_door"], labels=["lock.front_door"])  # type: ignore[arg-type]
    kept = meta.without_entities(gone)
    for name in ENTITY_LISTS:
        assert getattr(kept, name) == ["light.kept"], name
        assert getattr(meta, name) == ["lock.front_door", "light.kept"], name
    # Words and labels are not entities, whatever they spell.
    assert kept.not_found == ["lock.front_door"] and kept.labels == ["lock.front_door"]


def test_entity_lists_name_real_fields() -> None:
    assert set(ENTITY_LISTS) <= set(ResultMeta.__dataclass_fields__)


def test_retrieve_fills_typed_notes(small_en_index: DeviceIndex) -> None:
    (result,) = retrieve("dim the front door", small_en_index)
    assert result.selected_ids == []
    assert result.meta.not_commanded is NotCommanded.CANNOT_DO
    assert result.meta.capability_filter is CapabilityFilter.HARD
    assert result.meta.mentioned == ["lock.front_door"]
    assert result.meta.language == "en"


def test_readme_documents_every_note() -> None:
    readme = (Path(__file__).parents[3] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("a `ResultMeta`") :]
    section = section[: section.index("\n## ")]
    missing = [f for f in ResultMeta.__dataclass_fields__ if f"`{f}`" not in section]
    assert missing == []
