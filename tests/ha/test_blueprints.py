"""The blueprints in `blueprints/` validate, and do what they say with a published view."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.components.blueprint.models import Blueprint
from homeassistant.components.blueprint.schemas import BLUEPRINT_SCHEMA
from homeassistant.core import Context, HomeAssistant, ServiceCall
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from homeassistant.util.yaml import load_yaml_dict
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_mock_service

from custom_components.context_retrieval.const import DOMAIN
from tests.ha.test_views import call, settle

ROOT = Path(__file__).resolve().parents[2] / "blueprints"
SCRIPT = ROOT / "script" / "context_retrieval" / "view_action.yaml"
AUTOMATION = ROOT / "automation" / "context_retrieval" / "view_membership_notify.yaml"


@pytest.mark.parametrize(("path", "domain"), [(SCRIPT, "script"), (AUTOMATION, "automation")])
def test_blueprint_is_valid(path: Path, domain: str) -> None:
    blueprint = Blueprint(
        load_yaml_dict(str(path)), expected_domain=domain, schema=BLUEPRINT_SCHEMA
    )
    assert blueprint.domain == domain
    assert "view" in blueprint.inputs


@pytest.fixture
def blueprint_dir(hass: HomeAssistant, tmp_path: Path) -> Path:
    """A config dir of this test's own, holding the repository's blueprints."""
    hass.config.config_dir = str(tmp_path)
    shutil.copytree(ROOT, tmp_path / "blueprints")
    return tmp_path


async def test_script_runs_the_action_on_every_member(
    hass: HomeAssistant, blueprint_dir: Path, loaded_entry: MockConfigEntry
) -> None:
    sensor = (await call(hass, "publish_view_rule", name="Living room", rule="area:客厅"))[
        "entity_id"
    ]
    await hass.async_block_till_done()
    calls: list[ServiceCall] = async_mock_service(hass, "test", "act")
    assert await async_setup_component(
        hass,
        "script",
        {
            "script": {
                "all_members": {
                    "use_blueprint": {
                        "path": "context_retrieval/view_action.yaml",
                        "input": {"view": sensor, "member_action": "test.act"},
                    }
                },
                "only_lights": {
                    "use_blueprint": {
                        "path": "context_retrieval/view_action.yaml",
                        "input": {
                            "view": sensor,
                            "member_action": "test.act",
                            "domains": ["light"],
                            "action_data": {"brightness_pct": 30},
                        },
                    }
                },
            }
        },
    )
    await hass.services.async_call("script", "all_members", blocking=True)
    members = hass.states.get(sensor).attributes["entity_id"]  # type: ignore[union-attr]
    assert sorted(c.data["entity_id"][0] for c in calls) == members
    assert len(members) == 5  # two lights, the tree, the curtain, the lock

    calls.clear()
    await hass.services.async_call("script", "only_lights", blocking=True)
    assert sorted(c.data["entity_id"][0] for c in calls) == [
        "light.living_ceiling",
        "light.living_lamp",
    ]
    assert all(c.data["brightness_pct"] == 30 for c in calls)


async def test_automation_notifies_on_membership_change(
    hass: HomeAssistant, blueprint_dir: Path, loaded_entry: MockConfigEntry, home: dict[str, str]
) -> None:
    sensor = (await call(hass, "publish_view_rule", name="Festive", rule="圣诞装饰"))["entity_id"]
    await hass.async_block_till_done()
    notes: list[ServiceCall] = async_mock_service(hass, "test", "note")
    assert await async_setup_component(
        hass,
        "automation",
        {
            "automation": [
                {
                    "use_blueprint": {
                        "path": "context_retrieval/view_membership_notify.yaml",
                        "input": {
                            "view": sensor,
                            "notify": [
                                {
                                    "action": "test.note",
                                    "data": {"message": "{{ message }}", "added": "{{ added }}"},
                                }
                            ],
                        },
                    }
                }
            ]
        },
    )
    await hass.async_block_till_done()

    er.async_get(hass).async_update_entity("light.living_lamp", labels={home["label"]})
    await settle(hass)
    assert len(notes) == 1
    data: dict[str, Any] = notes[0].data
    assert data["message"] == "Festive (2) + 落地灯"
    assert data["added"] == ["light.living_lamp"]

    er.async_get(hass).async_update_entity("switch.xmas_tree", labels=set())
    await settle(hass)
    assert notes[-1].data["message"] == "Festive (1) − 圣诞树"


def test_blueprints_are_in_the_domain_folder() -> None:
    assert {p.relative_to(ROOT).parts[0] for p in ROOT.rglob("*.yaml")} == {"script", "automation"}
    assert DOMAIN in {p.parent.name for p in ROOT.rglob("*.yaml")}


ASK = ROOT / "automation" / "context_retrieval" / "ask_the_house.yaml"


def test_ask_the_house_blueprint_is_valid() -> None:
    blueprint = Blueprint(
        load_yaml_dict(str(ASK)), expected_domain="automation", schema=BLUEPRINT_SCHEMA
    )
    assert {"sentences", "fallback"} <= set(blueprint.inputs)


@pytest.mark.parametrize(
    ("sentence", "language", "expected"),
    [
        ("ask the house which lights are on", "en", ("落地灯",)),
        ("问一下家里 哪些灯开着", "zh-cn", ("落地灯",)),
        ("ask the house which flux capacitors hum", "en", ("Sorry",)),
    ],
)
async def test_ask_the_house_answers_by_voice(
    hass: HomeAssistant,
    blueprint_dir: Path,
    loaded_entry: MockConfigEntry,
    sentence: str,
    language: str,
    expected: tuple[str, ...],
) -> None:
    hass.states.async_set("light.living_lamp", "on", {"friendly_name": "落地灯"})
    assert await async_setup_component(
        hass,
        "automation",
        {
            "automation": [
                {
                    "alias": "Ask the house",
                    "use_blueprint": {"path": "context_retrieval/ask_the_house.yaml", "input": {}},
                }
            ]
        },
    )
    await hass.async_block_till_done()
    result = await conversation.async_converse(
        hass, sentence, None, Context(), language, agent_id="conversation.home_assistant"
    )
    speech = result.response.speech["plain"]["speech"]
    for word in expected:
        assert word in speech, speech
