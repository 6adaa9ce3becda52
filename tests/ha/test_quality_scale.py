"""The integration against what Home Assistant's validator (hassfest), HACS and the quality scale
check, by reading its files (tests/ha/quality.py); each check is also shown to fail on a broken
copy. The forms themselves are asked for their fields, so that a field added in code without a
translation and a description is caught too."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest
from homeassistant.config_entries import SOURCE_REAUTH, SOURCE_RECONFIGURE, SOURCE_USER
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from custom_components.context_retrieval.const import DOMAIN
from tests.ha import quality
from tests.ha.fakes import async_setup_integration
from tests.ha.quality import Project

PROJECT = quality.load_project()


def test_every_imported_component_is_in_the_manifest() -> None:
    assert quality.undeclared_components(PROJECT) == []


def test_an_undeclared_component_is_caught_even_when_imported_in_a_function() -> None:
    broken = PROJECT.with_source(
        "llm_client.py",
        PROJECT.sources["llm_client.py"]
        + "\n\ndef _late():\n    from homeassistant.components.zha import api\n",
    )
    assert quality.undeclared_components(broken) == [
        "llm_client.py imports zha, not in the manifest"
    ]
    without = replace(
        PROJECT,
        manifest={
            **PROJECT.manifest,
            "after_dependencies": [
                d for d in PROJECT.manifest["after_dependencies"] if d != "ai_task"
            ],
        },
    )
    assert quality.undeclared_components(without) == [
        "llm_client.py imports ai_task, not in the manifest"
    ]


def test_every_flow_field_is_described_in_every_translation() -> None:
    assert quality.missing_descriptions(PROJECT) == []


def test_a_field_without_a_description_is_caught() -> None:
    translations = copy.deepcopy(PROJECT.translations)
    del translations["translations/zh-Hans.json"]["options"]["step"]["init"]["data_description"][
        "top_k"
    ]
    broken = replace(PROJECT, translations=translations)
    assert quality.missing_descriptions(broken) == [
        "translations/zh-Hans.json: options.init field top_k has no data_description"
    ]


def test_every_service_has_an_icon_and_a_missing_one_is_caught() -> None:
    assert quality.services_without_icon(PROJECT) == []
    icons = copy.deepcopy(PROJECT.icons)
    assert icons is not None
    del icons["services"]["search"]
    assert quality.services_without_icon(replace(PROJECT, icons=icons)) == [
        "service search has no icon in icons.json"
    ]


def test_the_quality_scale_file_holds() -> None:
    """Every rule is there, done or exempt with a reason, at Gold or above; every rule marked
    done whose check reads the code passes it."""
    assert quality.quality_scale_problems(PROJECT) == []
    statuses = quality.rule_statuses(PROJECT)
    for tier in ("bronze", "silver", "gold", "platinum"):
        assert all(statuses[rule][0] in ("done", "exempt") for rule in quality.RULES[tier])


# A broken copy of the project for each checked rule, and what the check must say.
BREAKAGES: list[tuple[str, Any]] = [
    (
        "parallel-updates",
        lambda p: p.with_source(
            "sensor.py", p.sources["sensor.py"].replace("PARALLEL_UPDATES = 0", "")
        ),
    ),
    (
        "test-before-setup",
        lambda p: p.with_source(
            "__init__.py",
            p.sources["__init__.py"].replace("raise ConfigEntryNotReady(", "print("),
        ),
    ),
    (
        "reauthentication-flow",
        lambda p: p.with_source(
            "config_flow.py",
            p.sources["config_flow.py"].replace("async_step_reauth(", "async_step_later("),
        ),
    ),
    (
        "icon-translations",
        lambda p: p.with_source(
            "sensor.py",
            p.sources["sensor.py"].replace(
                "_attr_should_poll = False", "_attr_should_poll = False\n    _attr_icon = 'mdi:x'"
            ),
        ),
    ),
    (
        "exception-translations",
        lambda p: p.with_source(
            "__init__.py",
            p.sources["__init__.py"].replace(
                'translation_key="agent_not_ready"', 'translation_key="no_such_key"'
            ),
        ),
    ),
    (
        "inject-websession",
        lambda p: p.with_source(
            "vectors.py", p.sources["vectors.py"].replace("transport=session_transport(hass),", "")
        ),
    ),
    (
        "brands",
        lambda p: replace(p, brand={**p.brand, "icon.png": (200, 256)}),
    ),
    ("docs-removal-instructions", lambda p: replace(p, readme=p.readme.replace("## Removal", ""))),
    (
        "strict-typing",
        lambda p: replace(p, pyproject={"tool": {"mypy": {"overrides": []}}}),
    ),
    (
        "runtime-data",
        lambda p: p.with_source(
            "__init__.py", p.sources["__init__.py"].replace("entry.runtime_data =", "data =")
        ),
    ),
]


@pytest.mark.parametrize(("rule", "breaking"), BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_a_rule_marked_done_that_does_not_hold_is_caught(rule: str, breaking: Any) -> None:
    broken: Project = breaking(PROJECT)
    assert quality.CHECKS[rule](PROJECT) == []
    assert quality.CHECKS[rule](broken)
    assert any(p.startswith(f"{rule}:") for p in quality.quality_scale_problems(broken))


def test_an_exempt_rule_needs_a_reason_and_a_todo_fails() -> None:
    scale = copy.deepcopy(PROJECT.quality_scale)
    assert scale is not None
    scale["rules"]["devices"] = "exempt"
    scale["rules"]["docs-examples"] = "todo"
    del scale["rules"]["stale-devices"]
    problems = quality.quality_scale_problems(replace(PROJECT, quality_scale=scale))
    assert problems == [
        "rule stale-devices is missing",
        "rule devices is exempt without a reason",
        "rule docs-examples is todo",
    ]


def test_hacs_finds_a_license_and_brand_images() -> None:
    assert "Apache License" in PROJECT.license_text and "Version 2.0" in PROJECT.license_text
    assert PROJECT.pyproject["project"]["license"] == {"text": "Apache-2.0"}
    assert quality.check_brands(PROJECT) == []


async def _forms(hass: HomeAssistant) -> dict[str, set[str]]:
    """The fields each form shows, asked from the flows themselves."""
    assert await async_setup_component(hass, "homeassistant", {})
    forms: dict[str, set[str]] = {}
    user = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    forms["config.user"] = {str(k.schema) for k in user["data_schema"].schema}
    hass.config_entries.flow.async_abort(user["flow_id"])
    entry = await async_setup_integration(hass, embedding_url="http://127.0.0.1:9/api/embed")
    reconfigure = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_RECONFIGURE, "entry_id": entry.entry_id}
    )
    forms["config.reconfigure"] = {str(k.schema) for k in reconfigure["data_schema"].schema}
    hass.config_entries.flow.async_abort(reconfigure["flow_id"])
    reauth = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_REAUTH, "entry_id": entry.entry_id}, data=entry.data
    )
    forms["config.reauth_confirm"] = {str(k.schema) for k in reauth["data_schema"].schema}
    hass.config_entries.flow.async_abort(reauth["flow_id"])
    options = await hass.config_entries.options.async_init(entry.entry_id)
    forms["options.init"] = {str(k.schema) for k in options["data_schema"].schema}
    hass.config_entries.options.async_abort(options["flow_id"])
    return forms


async def test_every_field_the_forms_show_is_translated_and_described(
    hass: HomeAssistant,
) -> None:
    forms = await _forms(hass)
    assert forms["options.init"] >= {"top_k", "embedding_api_key"}
    for name, translations in PROJECT.translations.items():
        steps = quality.flow_steps(translations)
        for step, fields in forms.items():
            assert set(steps[step]["data"]) >= fields, (name, step)
            assert set(steps[step]["data_description"]) >= fields, (name, step)
