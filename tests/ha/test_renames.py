"""Bulk rename with rollback through Home Assistant's entity registry."""

from __future__ import annotations

import json
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.context_retrieval.const import DOMAIN


async def call(hass: HomeAssistant, service: str, **data: Any) -> dict[str, Any]:
    return await hass.services.async_call(
        DOMAIN, service, data, blocking=True, return_response=True
    )


def names(hass: HomeAssistant) -> dict[str, tuple[str | None, frozenset[str]]]:
    """Every entity's own name and text aliases (2026.10+ also keeps a computed-name marker
    among the aliases; `markers` follows it)."""
    registry = er.async_get(hass)
    return {
        e.entity_id: (e.name, frozenset(a for a in e.aliases if isinstance(a, str)))
        for e in registry.entities.values()
    }


def markers(hass: HomeAssistant) -> dict[str, list[tuple[int, object]]]:
    """Where each entity's aliases hold something other than text, and what."""
    registry = er.async_get(hass)
    return {
        e.entity_id: [(i, a) for i, a in enumerate(e.aliases) if not isinstance(a, str)]
        for e in registry.entities.values()
    }


async def test_preview_counts_and_changes_nothing(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    before = names(hass)
    plan = await call(hass, "rename_preview", find="灯", replace="燈", target="both")
    # 吸顶灯 ×3, 落地灯, 台灯 ×2 (names are the friendly names: no own registry name yet).
    assert plan["entities"] == 6 and plan["matches"] == 6
    assert {c["after"] for c in plan["changes"]} == {"吸顶燈", "落地燈", "台燈"}
    assert names(hass) == before


async def test_execute_then_rollback_restores_every_name_and_alias(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    before, marked = names(hass), markers(hass)
    done = await call(
        hass, "rename_execute", find="living room", replace="lounge", target="aliases"
    )
    assert done["entities"] == 0  # aliases of areas are not entity aliases: nothing to do
    done = await call(hass, "rename_execute", find="老伙计", replace="老朋友", target="aliases")
    assert done["entities"] == 1 and done["snapshot_id"]
    assert names(hass)["light.living_lamp"][1] == frozenset({"老朋友"})
    assert markers(hass) == marked  # 2026.10+: the computed name stays where it was
    lamps = await call(hass, "rename_execute", find="台灯", replace="书桌灯")
    assert lamps["entities"] == 2
    registry = er.async_get(hass)
    assert registry.async_get("light.study_desk").name == "书桌灯"  # type: ignore[union-attr]

    await call(hass, "rename_rollback", snapshot_id=lamps["snapshot_id"])
    await call(hass, "rename_rollback", snapshot_id=done["snapshot_id"])
    assert names(hass) == before
    assert markers(hass) == marked


async def test_the_snapshot_survives_a_reload(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    before = names(hass)
    done = await call(hass, "rename_execute", find="吸顶灯", replace="顶灯")
    assert done["entities"] == 3
    await hass.config_entries.async_reload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    restored = await call(hass, "rename_rollback", snapshot_id=done["snapshot_id"])
    assert restored["restored"] == 3
    assert names(hass) == before


async def test_unexposed_entities_are_neither_shown_nor_renamed(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    plan = await call(hass, "rename_preview", find="Plug", replace="Socket")
    assert "secret" not in json.dumps(plan).lower()
    await call(hass, "rename_execute", find="Secret", replace="Open")
    assert er.async_get(hass).async_get("switch.secret_plug").name is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"find": ""}, "rename_empty_find"),
        ({"find": r"(a)\1", "regex": True}, "rename_unsafe_regex"),
        ({"find": "(?<=x)a", "regex": True}, "rename_unsafe_regex"),
        ({"find": "(a{999}){999}", "regex": True}, "rename_regex_too_complex"),
        ({"find": "[", "regex": True}, "rename_bad_regex"),
        ({"find": "(灯)", "replace": r"\2", "regex": True}, "rename_bad_replacement"),
        ({"find": "x" * 300}, "rename_find_too_long"),
    ],
)
async def test_bad_requests_are_translated_errors(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, data: dict[str, Any], key: str
) -> None:
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "rename_preview", **data)
    assert err.value.translation_key == key


async def test_unknown_snapshot(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "rename_rollback", snapshot_id="nope")
    assert err.value.translation_key == "rename_snapshot_not_found"


async def test_regex_with_groups(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    plan = await call(hass, "rename_preview", find=r"(吸顶|落地)灯", replace=r"\1照明", regex=True)
    assert {c["after"] for c in plan["changes"]} == {"吸顶照明", "落地照明"}
    assert plan["matches"] == 4


def _own_name(hass: HomeAssistant, entity_id: str) -> str | None:
    entry = er.async_get(hass).async_get(entity_id)
    assert entry is not None
    return entry.name


async def test_a_rename_the_registry_lost_is_written_again_at_the_next_start(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, hass_storage: dict[str, Any]
) -> None:
    """Home Assistant saves its registry seconds after a change; a crash in between loses
    the change. The journal, saved before the answer, writes it again at the next start."""
    done = await call(hass, "rename_execute", find="吸顶灯", replace="顶灯")
    renamed = sorted(c["entity_id"] for c in done["changes"])
    assert renamed and all(_own_name(hass, e) == "顶灯" for e in renamed)
    assert hass_storage["context_retrieval.rename_snapshots"]["data"]["journal"]
    # What a registry saved before the rename holds (the crash): the old names.
    registry = er.async_get(hass)
    for entity_id in renamed:
        registry.async_update_entity(entity_id, name=None)
    registry.async_update_entity(renamed[0], name="changed by hand")  # not ours to undo
    await hass.config_entries.async_reload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    assert _own_name(hass, renamed[0]) == "changed by hand"
    assert all(_own_name(hass, e) == "顶灯" for e in renamed[1:])
    # The next start finds every write done: the journal is cleared.
    await hass.config_entries.async_reload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    assert hass_storage["context_retrieval.rename_snapshots"]["data"]["journal"] == []


async def test_a_rollback_refuses_names_changed_since(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    done = await call(hass, "rename_execute", find="台灯", replace="书桌灯")
    er.async_get(hass).async_update_entity("light.study_desk", name="my desk lamp")
    before = names(hass)
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "rename_rollback", snapshot_id=done["snapshot_id"])
    assert err.value.translation_key == "rename_snapshot_stale"
    assert err.value.translation_placeholders == {"entities": "1"}
    assert names(hass) == before
    # Put back as the rename left it, the rollback goes through, once.
    er.async_get(hass).async_update_entity("light.study_desk", name="书桌灯")
    restored = await call(hass, "rename_rollback", snapshot_id=done["snapshot_id"])
    assert restored["restored"] == 2
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "rename_rollback", snapshot_id=done["snapshot_id"])
    assert err.value.translation_key == "rename_snapshot_stale"


async def test_the_preview_shows_names_cleaned(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    """Before and after go through the one cleaning function: no bidi override or line
    break reaches the panel."""
    er.async_get(hass).async_update_entity("light.study_desk", name="台灯\u202e\nevil")
    plan = await call(hass, "rename_preview", find="台灯", replace="书桌灯")
    shown = {c["entity_id"]: c for c in plan["changes"]}["light.study_desk"]
    assert shown["before"] == "台灯 evil" and shown["after"] == "书桌灯 evil"


async def test_a_preview_over_budget_is_a_clear_error(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("custom_components.context_retrieval.core.rename.matching.REGEX_STEPS", 50)
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "rename_preview", find=".*.*.*#", replace="x", regex=True)
    assert err.value.translation_key == "rename_regex_budget"


async def test_a_desk_lamp_rename_leaves_the_balcony_light_and_the_rows_left_out(
    hass: HomeAssistant, live_home: dict[str, Any]
) -> None:
    """In the demo home, find "台灯" once hit 阳台灯 (the balcony light: 阳台 + 灯) and would
    have renamed it 阳书桌灯; each row now names its room, and an unticked row stays."""
    plan = await call(hass, "rename_preview", find="台灯", replace="书桌灯")
    rows = {c["entity_id"]: c for c in plan["changes"]}
    assert "light.balcony_light" not in rows
    assert rows["light.study_old_lamp"]["after"] == "老书桌灯"
    assert rows["light.study_old_lamp"]["area"] == "书房"
    assert rows["light.kids_desk_lamp"]["area"] == "儿童房"
    before = names(hass)
    done = await call(
        hass, "rename_execute", find="台灯", replace="书桌灯", exclude=["light.study_old_lamp"]
    )
    after = names(hass)
    assert after["light.study_old_lamp"] == before["light.study_old_lamp"]
    assert after["light.balcony_light"] == before["light.balcony_light"]
    assert after["light.kids_desk_lamp"][0] == "书桌灯"
    assert "light.study_old_lamp" not in {c["entity_id"] for c in done["changes"]}


async def test_a_one_character_find_never_renames_inside_a_room_word(
    hass: HomeAssistant, live_home: dict[str, Any]
) -> None:
    """Find "台" (a stand) lay inside 阳台 (the balcony) and would have renamed the balcony
    light 阳座灯; "厅" lay inside 客厅. Neither is a word of those names."""
    plan = await call(hass, "rename_preview", find="台", replace="座")
    rows = {c["entity_id"]: c["after"] for c in plan["changes"]}
    assert not any("阳座" in after for after in rows.values())
    assert rows["light.master_bedroom_desk_lamp"] == "座灯"
    hall = await call(hass, "rename_preview", find="厅", replace="堂")
    assert not any(c["after"].startswith(("客堂", "餐堂")) for c in hall["changes"])


async def test_leaving_out_something_that_is_not_an_entity_id_is_a_clear_error(
    hass: HomeAssistant, live_home: dict[str, Any]
) -> None:
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "rename_preview", find="台灯", exclude=["not an id"])
    assert err.value.translation_key == "invalid_request"
