"""View rules through Home Assistant: services, sensors, events, voice scoping, recovery."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.context_retrieval.const import DOMAIN
from custom_components.context_retrieval.core.views.store import ViewRuleStore
from tests.ha.conftest import add_entity, call_retrieve
from tests.ha.fakes import async_setup_integration

LIVING_AND_KITCHEN_LIGHTS = ["light.kitchen_ceiling", "light.living_ceiling", "light.living_lamp"]
BEDROOM_LIGHTS = ["light.bedroom_ceiling", "light.bedroom_desk"]


async def call(hass: HomeAssistant, service: str, **data: Any) -> dict[str, Any]:
    return await hass.services.async_call(
        DOMAIN, service, data, blocking=True, return_response=True
    )


def capture(hass: HomeAssistant, *names: str) -> list[Event]:
    seen: list[Event] = []

    @callback
    def listener(event: Event) -> None:
        seen.append(event)

    for name in names:
        hass.bus.async_listen(f"context_retrieval_{name}", listener)
    return seen


async def settle(hass: HomeAssistant) -> None:
    """Let the debounced index rebuild run (after the change's own listeners have)."""
    await hass.async_block_till_done()
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=5))
    await hass.async_block_till_done()


async def test_preview_reports_hits_and_samples(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    events = capture(
        hass,
        "view_rule_compile_started",
        "view_rule_compile_succeeded",
        "view_rule_preview_executed",
    )
    result = await call(hass, "preview_view_rule", rule="灯 并且 (客厅 或 厨房)")
    assert result["ok"] and result["compile_source"] == "deterministic"
    assert result["entity_hits"] == 3
    assert result["total_hits"] == result["entity_hits"] + result["device_hits"]
    assert sorted(item["id"] for item in result["sample_items"]) == LIVING_AND_KITCHEN_LIGHTS
    assert {item["area"] for item in result["sample_items"]} == {"客厅", "厨房"}
    assert json.loads(result["rule_json"])["op"] == "AND"
    await hass.async_block_till_done()
    assert [e.event_type.removeprefix("context_retrieval_") for e in events] == [
        "view_rule_compile_started",
        "view_rule_compile_succeeded",
        "view_rule_preview_executed",
    ]
    assert events[-1].data["entity_hits"] == 3


async def test_a_bracketed_list_of_rooms_before_de_qualifies_every_kind_after_it(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    # The bedroom's AC was among the members: the brackets kept the rooms from the AC.
    result = await call(hass, "preview_view_rule", rule="(客厅或厨房)的灯和空调")
    assert result["ok"]
    assert sorted(item["id"] for item in result["sample_items"]) == LIVING_AND_KITCHEN_LIGHTS


async def test_create_preview_publish_edit_rollback_delete(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    events = capture(
        hass,
        "view_rule_published",
        "view_membership_changed",
        "view_rule_compile_failed",
        "view_rule_rolled_back",
    )
    published = await call(
        hass, "publish_view_rule", name="Downstairs lights", rule="灯 并且 (客厅 或 厨房)"
    )
    await hass.async_block_till_done()
    sensor = published["entity_id"]
    assert sensor == "sensor.downstairs_lights_view"
    state = hass.states.get(sensor)
    assert state is not None and state.state == "3"
    assert state.attributes["entity_id"] == LIVING_AND_KITCHEN_LIGHTS
    assert state.attributes["rule"] == "灯 并且 (客厅 或 厨房)"
    assert state.attributes["compile_source"] == "deterministic"
    assert state.attributes["updated_at"]
    assert state.attributes["friendly_name"] == "Downstairs lights view"
    assert state.attributes["unit_of_measurement"] == "entities"
    # Readable: no JSON for people to decode, no empty note or error.
    assert not {"rule_json", "rewrite_note", "last_error"} & set(state.attributes)

    # A broken edit is refused and leaves the working rule (and sensor) alone.
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "publish_view_rule", name="downstairs LIGHTS", rule="灯 并且 (卧室")
    assert err.value.translation_key == "view_rule_syntax_unclosed_paren"
    assert err.value.translation_placeholders == {"position": "6", "detail": "'(' is never closed"}
    await hass.async_block_till_done()
    state = hass.states.get(sensor)
    assert state is not None and state.state == "3"
    assert state.attributes["last_error"]
    listed = (await call(hass, "list_view_rules"))["rules"]
    assert [(r["name"], r["rule"], r["entity_hits"]) for r in listed] == [
        ("Downstairs lights", "灯 并且 (客厅 或 厨房)", 3)
    ]

    # A good edit (any case of the name) updates the same view and sensor.
    await call(hass, "publish_view_rule", name="downstairs lights", rule="灯 and 主卧")
    await hass.async_block_till_done()
    state = hass.states.get(sensor)
    assert state is not None and state.state == "2"
    assert state.attributes["entity_id"] == BEDROOM_LIGHTS
    assert "last_error" not in state.attributes
    changed = [e for e in events if e.event_type.endswith("membership_changed")]
    assert changed[-1].data["added"] == BEDROOM_LIGHTS
    assert changed[-1].data["removed"] == LIVING_AND_KITCHEN_LIGHTS
    assert changed[-1].data["entity_id"] == sensor

    revisions = (await call(hass, "list_view_rule_revisions", name="Downstairs lights"))[
        "revisions"
    ]
    assert [r["rule_nl"] for r in revisions] == ["灯 and 主卧", "灯 并且 (客厅 或 厨房)"]

    # One call goes back to the previous version.
    restored = await call(hass, "rollback_view_rule", name="Downstairs lights")
    await hass.async_block_till_done()
    assert restored["rule"] == "灯 并且 (客厅 或 厨房)"
    state = hass.states.get(sensor)
    assert state is not None and state.state == "3"

    # Or to a chosen revision.
    await call(hass, "rollback_view_rule", name="Downstairs lights", revision_id=revisions[0]["id"])
    await hass.async_block_till_done()
    state = hass.states.get(sensor)
    assert state is not None and state.state == "2"
    assert [e.event_type for e in events].count("context_retrieval_view_rule_rolled_back") == 2
    assert [e.event_type for e in events].count("context_retrieval_view_rule_published") == 2
    assert [e.event_type for e in events].count("context_retrieval_view_rule_compile_failed") == 1

    deleted = await call(hass, "delete_view_rule", name="DOWNSTAIRS LIGHTS")
    await hass.async_block_till_done()
    assert deleted["deleted"]
    assert hass.states.get(sensor) is None
    assert er.async_get(hass).async_get(sensor) is None
    assert (await call(hass, "list_view_rules"))["rules"] == []


async def test_sensor_follows_label_changes(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, home: dict[str, str]
) -> None:
    events = capture(hass, "view_membership_changed")
    sensor = (await call(hass, "publish_view_rule", name="Festive", rule="圣诞装饰"))["entity_id"]
    await hass.async_block_till_done()
    assert hass.states.get(sensor).state == "1"  # type: ignore[union-attr]

    er.async_get(hass).async_update_entity("light.living_lamp", labels={home["label"]})
    await settle(hass)
    state = hass.states.get(sensor)
    assert state is not None and state.state == "2"
    assert state.attributes["entity_id"] == ["light.living_lamp", "switch.xmas_tree"]
    assert events[-1].data == {
        "name": "Festive",
        "entity_id": sensor,
        "added": ["light.living_lamp"],
        "removed": [],
        "count": 2,
    }


async def test_sensor_follows_area_changes(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, home: dict[str, str]
) -> None:
    sensor = (await call(hass, "publish_view_rule", name="Study", rule="area:书房"))["entity_id"]
    await hass.async_block_till_done()
    # The unexposed plug is in the study too, but views see only what Assist sees.
    assert hass.states.get(sensor).attributes["entity_id"] == [  # type: ignore[union-attr]
        "light.study_desk"
    ]
    er.async_get(hass).async_update_entity("light.bedroom_desk", area_id=home["study"])
    await settle(hass)
    assert hass.states.get(sensor).state == "2"  # type: ignore[union-attr]
    async_expose_entity(hass, "conversation", "switch.secret_plug", True)
    await settle(hass)
    assert hass.states.get(sensor).attributes["entity_id"] == [  # type: ignore[union-attr]
        "light.bedroom_desk",
        "light.study_desk",
        "switch.secret_plug",
    ]
    async_expose_entity(hass, "conversation", "switch.secret_plug", False)
    await settle(hass)
    assert hass.states.get(sensor).state == "2"  # type: ignore[union-attr]


async def test_sensor_follows_floor_changes(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, home: dict[str, str]
) -> None:
    sensor = (
        await call(hass, "publish_view_rule", name="Upstairs lights", rule="lights and upstairs")
    )["entity_id"]
    await hass.async_block_till_done()
    assert hass.states.get(sensor).attributes["entity_id"] == [  # type: ignore[union-attr]
        "light.bedroom_ceiling",
        "light.bedroom_desk",
        "light.study_desk",
    ]
    area_reg = ar.async_get(hass)
    downstairs = area_reg.async_get_area(home["living"]).floor_id  # type: ignore[union-attr]
    area_reg.async_update(home["study"], floor_id=downstairs)
    await settle(hass)
    assert hass.states.get(sensor).state == "2"  # type: ignore[union-attr]


async def test_view_name_scopes_voice_requests(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    await call(hass, "publish_view_rule", name="节日装饰", rule="圣诞装饰 或 书房")
    await call(hass, "publish_view_rule", name="Christmas", rule="圣诞装饰 or 书房")
    await settle(hass)
    for text in ("关掉节日装饰里的所有灯", "turn off the christmas lights"):
        response = await call_retrieve(hass, text)
        selected = [c["entity_id"] for cmd in response["commands"] for c in cmd["selected"]]
        assert selected == ["light.study_desk"], text
        assert "switch.secret_plug" not in json.dumps(response)  # never exposed to Assist


async def test_service_errors_are_translated(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("preview_view_rule", {"rule": "   "}, "view_rule_syntax_empty"),
        ("preview_view_rule", {"rule": "灯 and or 客厅"}, "view_rule_syntax_expected_tag"),
        ("publish_view_rule", {"name": "  ", "rule": "灯"}, "view_name_invalid"),
        ("publish_view_rule", {"name": "x" * 101, "rule": "灯"}, "view_name_invalid"),
        ("delete_view_rule", {"name": "nope"}, "view_not_found"),
        ("list_view_rule_revisions", {"name": "nope"}, "view_not_found"),
        ("rollback_view_rule", {"name": "nope"}, "view_not_found"),
    ]
    for service, data, key in cases:
        with pytest.raises(ServiceValidationError) as err:
            await call(hass, service, **data)
        assert err.value.translation_key == key, (service, data)
    await call(hass, "publish_view_rule", name="Lights", rule="灯")
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "rollback_view_rule", name="Lights")
    assert err.value.translation_key == "view_no_earlier_revision"
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "rollback_view_rule", name="Lights", revision_id="missing")
    assert err.value.translation_key == "view_revision_not_found"


async def test_views_survive_a_reload(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    sensor = (await call(hass, "publish_view_rule", name="Bedroom", rule="主卧"))["entity_id"]
    await hass.async_block_till_done()
    assert await hass.config_entries.async_reload(loaded_entry.entry_id)
    await hass.async_block_till_done()
    state = hass.states.get(sensor)
    assert state is not None and state.state == "3"
    assert [r["name"] for r in (await call(hass, "list_view_rules"))["rules"]] == ["Bedroom"]


class FakeLLM:
    def __init__(self, answer: str, delay: float = 0.0) -> None:
        self.answer = answer
        self.delay = delay
        self.prompts: list[str] = []

    async def complete(self, system_prompt: str, user_text: str) -> str:
        self.prompts.append(user_text)
        await asyncio.sleep(self.delay)
        return self.answer


async def test_llm_fallback_and_timeout(hass: HomeAssistant, loaded_entry: MockConfigEntry) -> None:
    views = loaded_entry.runtime_data.views
    answer = json.dumps(
        {
            "rule": {
                "kind": "group",
                "op": "AND",
                "children": [{"kind": "tag", "tag": "圣诞装饰"}],
            },
            "rewrite_note": "圣诞装饰的设备",
        }
    )
    views.llm = FakeLLM(answer)
    result = await call(hass, "publish_view_rule", name="Xmas", rule="圣诞 (那些东西")
    assert result["compile_source"] == "llm" and result["rewrite_note"] == "圣诞装饰的设备"
    assert result["entity_hits"] == 1
    assert "圣诞装饰" in views.llm.prompts[0]  # the home's tag dictionary went along

    views.llm = FakeLLM(answer, delay=5)
    views.llm_timeout = 0.01
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "preview_view_rule", rule="圣诞 (那些东西")
    assert err.value.translation_key == "view_rule_llm_timeout"


async def test_diagnostics_have_view_metrics(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, loaded_entry: MockConfigEntry
) -> None:
    await call(hass, "preview_view_rule", rule="灯")
    await call(hass, "publish_view_rule", name="Lights", rule="灯")
    with pytest.raises(ServiceValidationError):
        await call(hass, "preview_view_rule", rule="(灯")
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, loaded_entry)
    views = diagnostics["views"]
    assert views["rules"] == 1 and views["members"] == {"Lights": 6}
    assert views["compiles"] == 3
    assert views["compile_success_rate"] == pytest.approx(2 / 3, abs=1e-3)
    assert views["llm_fallback_rate"] == 0
    assert views["preview_p95_ms"] is not None and views["previews"] == 1


async def _setup(hass: HomeAssistant) -> MockConfigEntry:
    assert await async_setup_component(hass, "conversation", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        unique_id=DOMAIN,
        data={"agent_id": "conversation.home_assistant", "language": "auto"},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def test_corrupt_database_is_moved_aside_with_a_repair_issue(
    hass: HomeAssistant, home: dict[str, str], view_db: Path
) -> None:
    path = view_db
    path.write_bytes(b"this is not a database" * 100)
    entry = await _setup(hass)
    issue = ir.async_get(hass).async_get_issue(DOMAIN, "view_store_recovered")
    assert issue is not None and issue.translation_key == "view_store_recovered"
    moved = Path(issue.translation_placeholders["path"])  # type: ignore[index]
    assert await hass.async_add_executor_job(moved.read_bytes) == b"this is not a database" * 100
    # Retrieval and views keep working on the fresh file.
    result = await call(hass, "publish_view_rule", name="Lights", rule="灯")
    assert result["entity_hits"] == 6
    assert (await call_retrieve(hass, "打开客厅的落地灯"))["commands"]
    await hass.config_entries.async_unload(entry.entry_id)


async def test_newer_database_is_read_only(
    hass: HomeAssistant, home: dict[str, str], view_db: Path
) -> None:
    path = view_db
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL)")
    conn.execute("INSERT INTO schema_version VALUES (99, '2030-01-01')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    entry = await _setup(hass)
    assert ir.async_get(hass).async_get_issue(DOMAIN, "view_store_read_only") is not None
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "publish_view_rule", name="Lights", rule="灯")
    assert err.value.translation_key == "view_store_read_only"
    await hass.config_entries.async_unload(entry.entry_id)
    assert path.read_bytes() == before


async def test_new_entity_joins_a_view(
    hass: HomeAssistant, loaded_entry: MockConfigEntry, home: dict[str, str]
) -> None:
    sensor = (
        await call(hass, "publish_view_rule", name="Kitchen lights", rule="lights and kitchen")
    )["entity_id"]
    await hass.async_block_till_done()
    assert hass.states.get(sensor).state == "1"  # type: ignore[union-attr]
    await add_entity(hass, "light.kitchen_strip", "灯带", "off", home["kitchen"])
    await settle(hass)
    assert hass.states.get(sensor).attributes["entity_id"] == [  # type: ignore[union-attr]
        "light.kitchen_ceiling",
        "light.kitchen_strip",
    ]


PACKAGE = Path(__file__).resolve().parents[2] / "custom_components" / DOMAIN
STRING_FILES = ("strings.json", "translations/en.json", "translations/zh-Hans.json")


async def test_every_attribute_of_a_view_sensor_has_a_translated_name(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    """The sensor's attributes as the frontend shows them: each named in every language, each
    way a rule is read named too (a refused edit and a model's note included)."""
    await call(hass, "publish_view_rule", name="Lights", rule="灯")
    with pytest.raises(ServiceValidationError):
        await call(hass, "publish_view_rule", name="Lights", rule="灯 并且 (卧室")
    await hass.async_block_till_done()
    state = hass.states.get("sensor.lights_view")
    assert state is not None
    ours = set(state.attributes) - {"friendly_name", "icon", "unit_of_measurement"}
    assert {"entity_id", "rule", "compile_source", "last_error", "updated_at"} <= ours
    for name in STRING_FILES:
        strings = json.loads((PACKAGE / name).read_text(encoding="utf-8"))
        view = strings["entity"]["sensor"]["view"]
        assert view["unit_of_measurement"], name
        named = view["state_attributes"]
        assert ours | {"rewrite_note"} <= set(named), name
        assert all(named[key]["name"] for key in named), name
        assert set(named["compile_source"]["state"]) == {"deterministic", "llm"}, name


async def test_a_view_sensor_is_named_in_the_homes_language(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    """Its name follows the home's language; Home Assistant shows units in its default
    language (English) only."""
    hass.config.language = "zh-Hans"
    await async_setup_integration(hass)
    await call(hass, "publish_view_rule", name="Lights", rule="灯")
    await hass.async_block_till_done()
    state = next(s for s in hass.states.async_all("sensor") if s.attributes.get("rule") == "灯")
    assert state.state == "6"
    assert state.attributes["friendly_name"] == "Lights视图"
    assert state.attributes["unit_of_measurement"] == "entities"


def _crashed_store_with_a_damaged_log(path: Path, views: int) -> None:
    """What a kill -9 leaves, with one frame of the write-ahead log damaged: `views` rules
    published, the files copied while the store is open, one frame in the middle flipped."""
    live = path.with_name("live.db")
    store = ViewRuleStore(live)
    store.open()
    for i in range(views):
        store.publish(f"View {i:02d}", "灯", json.dumps(LIGHTS_JSON), "deterministic", None, "1")
    shutil.copy(live, path)
    shutil.copy(live.with_name("live.db-wal"), path.with_name(path.name + "-wal"))
    store.close()
    wal = path.with_name(path.name + "-wal")
    data = bytearray(wal.read_bytes())
    frame = 24 + 4096
    data[32 + ((len(data) - 32) // frame // 2) * frame + 24 + 100] ^= 0xFF
    wal.write_bytes(bytes(data))


LIGHTS_JSON = {"kind": "group", "op": "AND", "children": [{"kind": "tag", "tag": "灯"}]}


async def test_a_damaged_log_keeps_what_it_can_and_raises_the_repair_issue(
    hass: HomeAssistant, home: dict[str, str], view_db: Path
) -> None:
    """SQLite would replay the log up to the damage and drop the rest without a word; the
    homeowner is told instead, and the views before the damage are kept."""
    await hass.async_add_executor_job(_crashed_store_with_a_damaged_log, view_db, 40)
    entry = await _setup(hass)
    issue = ir.async_get(hass).async_get_issue(DOMAIN, "view_store_recovered")
    assert issue is not None and issue.translation_key == "view_store_recovered_log"
    placeholders = issue.translation_placeholders or {}
    assert "write-ahead log" in placeholders["error"]
    assert await hass.async_add_executor_job(Path(placeholders["path"] + "-wal").exists)
    kept = (await call(hass, "list_view_rules"))["rules"]
    assert 0 < len(kept) < 40
    await hass.config_entries.async_unload(entry.entry_id)


async def test_sensors_of_views_a_damaged_store_lost_are_removed(
    hass: HomeAssistant, home: dict[str, str], view_db: Path
) -> None:
    entry = await _setup(hass)
    await call(hass, "publish_view_rule", name="Lights", rule="灯")
    await hass.async_block_till_done()
    registry = er.async_get(hass)
    sensor = registry.async_get_entity_id("sensor", DOMAIN, "view_lights")
    assert sensor is not None
    await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()

    def damage() -> None:
        view_db.write_bytes(b"this is not a database" * 100)
        for side in ("-wal", "-shm"):
            view_db.with_name(view_db.name + side).unlink(missing_ok=True)

    await hass.async_add_executor_job(damage)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert ir.async_get(hass).async_get_issue(DOMAIN, "view_store_recovered") is not None
    assert registry.async_get(sensor) is None  # not left behind as "unavailable"
    assert hass.states.get(sensor) is None


async def test_stopping_home_assistant_closes_the_stores(
    hass: HomeAssistant, home: dict[str, str], view_db: Path, query_db: Path
) -> None:
    """Home Assistant does not unload entries when it stops: the stores close on its stop
    event, their logs checkpointed into the files."""
    entry = await _setup(hass)
    await call(hass, "publish_view_rule", name="Lights", rule="灯")
    wal = view_db.with_name(view_db.name + "-wal")
    assert await hass.async_add_executor_job(lambda: wal.stat().st_size) > 0
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STOP)
    await hass.async_block_till_done()
    assert entry.runtime_data.views.store is None and entry.runtime_data.queries.store is None
    assert not await hass.async_add_executor_job(lambda: wal.exists() and wal.stat().st_size > 0)


async def _members(hass: HomeAssistant, rule: str) -> set[str]:
    """Every member a rule previews (the samples hold them all in this small home)."""
    result = await call(hass, "preview_view_rule", rule=rule)
    assert result["entity_hits"] <= 10
    return {item["id"] for item in result["sample_items"]}


async def test_rules_read_as_a_person_means_them(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    """Shared words distribute over a list, exclusions leave out what they govern."""
    kitchen_or_living = ["light.kitchen_ceiling", "light.living_ceiling", "light.living_lamp"]
    for rule in (
        "lights in the kitchen or the living room",
        "厨房或客厅的灯",
        "kitchen and living room lights",
    ):
        assert sorted(await _members(hass, rule)) == kitchen_or_living, rule
    upstairs_not_study = ["light.bedroom_ceiling", "light.bedroom_desk"]
    for rule in ("lights upstairs except the study", "楼上除了书房以外的灯", "不在书房的楼上的灯"):
        assert sorted(await _members(hass, rule)) == upstairs_not_study, rule
    published = await call(hass, "publish_view_rule", name="Shared", rule="厨房或客厅的灯")
    assert published["entity_hits"] == 3
    assert sorted(hass.states.get(published["entity_id"]).attributes["entity_id"]) == (
        kitchen_or_living
    )


async def test_a_rule_naming_what_the_home_lacks_is_never_published(
    hass: HomeAssistant, loaded_entry: MockConfigEntry
) -> None:
    preview = await call(hass, "preview_view_rule", rule="lights in the kitchen or the attic")
    assert preview["unresolved_tags"] == ["attic"]
    with pytest.raises(ServiceValidationError) as err:
        await call(
            hass, "publish_view_rule", name="Attic", rule="lights in the kitchen or the attic"
        )
    assert err.value.translation_key == "view_rule_unresolved"
    assert "attic" in err.value.translation_placeholders["tags"]
    assert "Attic" not in {r["name"] for r in (await call(hass, "list_view_rules"))["rules"]}
    # An update that names something unknown leaves the published rule as it was.
    await call(hass, "publish_view_rule", name="Kitchen", rule="厨房的灯")
    with pytest.raises(ServiceValidationError):
        await call(hass, "publish_view_rule", name="Kitchen", rule="厨房或阁楼的灯")
    rules = {r["name"]: r for r in (await call(hass, "list_view_rules"))["rules"]}
    assert rules["Kitchen"]["rule"] == "厨房的灯" and rules["Kitchen"]["entity_hits"] == 1
    assert "阁楼" in (rules["Kitchen"]["last_error"] or "")
    # Fixed (the unknown word removed), it publishes.
    fixed = await call(hass, "publish_view_rule", name="Attic", rule="lights in the kitchen")
    assert fixed["entity_hits"] == 1
