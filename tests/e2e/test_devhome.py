"""The demo-home generator of scripts/devhome/, without starting Home Assistant."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
import yaml

from .conftest import devhome

ALL_MODERN = {"light", "switch", "sensor", "binary_sensor", "cover", "fan", "lock", "vacuum"}
OLD_MODERN = {"light", "switch", "sensor", "binary_sensor"}  # Home Assistant 2025.4


def _dump(package: dict[str, object]) -> str:
    return yaml.safe_dump(package, allow_unicode=True)


def test_every_entity_but_water_heaters_is_emulated() -> None:
    home = devhome.load_home()
    plan = devhome.build_plan(home, OLD_MODERN)
    emulated = {e.entity_id for e in plan.entities}
    expected = {e["entity_id"] for e in home["entities"] if e["domain"] != "water_heater"}
    assert emulated == expected
    assert len(emulated) >= 60
    keys = [(e.domain, e.unique_id) for e in plan.entities]
    assert len(keys) == len(set(keys))


def test_helpers_exist_and_names_are_literal() -> None:
    plan = devhome.build_plan(devhome.load_home(), OLD_MODERN)
    package = plan.package
    for helper in plan.helpers:
        domain, object_id = helper.split(".", 1)
        assert object_id in package[domain], helper
    text = _dump(package)
    assert "吸顶灯" in text and "Ignore previous instructions" in text
    assert devhome.literal("{{ 1 }}").startswith("{% raw %}")


def test_new_and_legacy_template_syntax() -> None:
    home = devhome.load_home()
    legacy = devhome.build_plan(home, OLD_MODERN).package
    modern = devhome.build_plan(home, ALL_MODERN).package
    template_domains = {key for block in modern["template"] for key in block}
    assert {"cover", "fan", "lock", "vacuum"} <= template_domains
    assert not {"cover", "fan", "lock", "vacuum"} & set(modern)
    assert {e["platform"] for e in legacy["cover"]} == {"template"}
    assert all(e["platform"] == "template" for e in legacy["lock"])


def test_installed_home_assistant_is_detected() -> None:
    domains = devhome.modern_template_domains()
    assert {"light", "switch", "sensor", "binary_sensor"} <= domains


def test_integration_records(tmp_path: Path) -> None:
    (tmp_path / devhome.LOG_FILE).write_text(
        "2025-01-01 00:00:00.000 WARNING (SyncWorker_0) [homeassistant.loader] We found a custom "
        "integration context_retrieval which has not been tested by Home Assistant.\n"
        "2025-01-01 00:00:01.000 ERROR (MainThread) [homeassistant.core] Error doing job\n"
        "Traceback (most recent call last):\n"
        '  File "custom_components/context_retrieval/conversation.py", line 1\n'
        "ValueError: boom\n"
        "2025-01-01 00:00:02.000 ERROR (MainThread) [homeassistant.components.x] unrelated\n",
        encoding="utf-8",
    )
    errors = devhome.integration_records(tmp_path, ("ERROR",))
    assert len(errors) == 1 and "ValueError: boom" in errors[0]
    assert len(devhome.integration_records(tmp_path)) == 1


def test_a_folder_a_newer_release_used_is_refused(tmp_path: Path) -> None:
    """Home Assistant migrates its storage forward only: the oldest tier must not start on the
    demo folder the newest tier has used."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "configuration.yaml").write_text("homeassistant:\n", encoding="utf-8")
    devhome.write_state(config, ha_version="2099.1.0")
    with pytest.raises(devhome.DevHomeError, match=r"2099\.1\.0"):
        devhome.prepare_config(config)
    devhome.write_state(config, ha_version="2025.1.0")  # an older one is migrated forward
    devhome.prepare_config(config)
    assert devhome.read_state(config)["ha_version"] == devhome.hass_facts()["version"]
    assert devhome.release("2026.11.0b3") == (2026, 11, 0)
    assert devhome.release("2025.4.4") < devhome.release("2026.1.0")


def test_develop_help_lists_every_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """`scripts/develop --help` is argparse's help of scripts/devhome: every flag the shell
    script itself reads or names in its usage line must be there too."""
    cli = importlib.import_module("devhome.cli")
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    script = (devhome.ROOT / "scripts" / "develop").read_text(encoding="utf-8")
    flags = set(re.findall(r"--[a-z][a-z-]*", script)) - {"--help"}
    assert {"--tier", "--port", "--reset", "--reseed", "--config"} <= flags
    assert [flag for flag in sorted(flags) if flag not in shown] == []


STORAGE = {
    "key": "http",
    "version": 3,
    "minor_version": 1,
    "defaults": {"server_port": 8123, "ssl_profile": "modern", "ip_ban_enabled": True},
}
OLD_TEMPLATE = (
    "homeassistant:\n  name: Demo\n\n"
    "http:\n  server_host: 127.0.0.1\n  server_port: !env_var DEVHOME_PORT 8123\n\n"
    "logger:\n"
)


def _prepare_http(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, storage: object, port: int
) -> Path:
    config_dir = tmp_path / "config"
    config_dir.mkdir(exist_ok=True)
    if not (config_dir / "configuration.yaml").exists():
        (config_dir / "configuration.yaml").write_text(OLD_TEMPLATE, encoding="utf-8")
    module = importlib.import_module("devhome.config_dir")
    monkeypatch.setattr(module, "hass_facts", lambda: {"http_storage": storage})
    module.prepare_http(config_dir, port)
    return config_dir


def test_http_settings_are_stored_not_yaml_from_2026_10(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No `http:` YAML (a repair from 2026.10): the storage Home Assistant reads, written once
    from its own defaults, listening on 127.0.0.1 only."""
    config_dir = _prepare_http(tmp_path, monkeypatch, STORAGE, 18123)
    assert "http:" not in (config_dir / "configuration.yaml").read_text(encoding="utf-8")
    assert not (config_dir / "packages" / "http.yaml").exists()
    stored = json.loads((config_dir / ".storage" / "http").read_text(encoding="utf-8"))
    assert (stored["version"], stored["minor_version"], stored["key"]) == (3, 1, "http")
    data = stored["data"]
    assert data["pending"] is None and data["yaml_migration_done"] is True
    assert data["stable"]["server_host"] == ["127.0.0.1"]
    assert data["stable"]["server_port"] == 18123
    assert data["stable"]["ssl_profile"] == "modern"  # Home Assistant's default kept
    assert devhome.server_port(config_dir, 9999) == 18123
    # Home Assistant owns the file from then on: a later start leaves it alone.
    _prepare_http(tmp_path, monkeypatch, STORAGE, 19999)
    again = json.loads((config_dir / ".storage" / "http").read_text(encoding="utf-8"))
    assert again == stored


def test_http_settings_are_yaml_up_to_2026_9(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_dir = _prepare_http(tmp_path, monkeypatch, None, 18124)
    package = yaml.safe_load((config_dir / "packages" / "http.yaml").read_text(encoding="utf-8"))
    assert package == {"http": {"server_host": "127.0.0.1", "server_port": 18124}}
    assert not (config_dir / ".storage" / "http").exists()
