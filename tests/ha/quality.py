"""What Home Assistant's validator (hassfest), HACS and the quality scale ask of the integration,
checked by reading its files. Every check takes a `Project` (the files, loaded once) and returns
what is wrong, so that a test can also hand it a broken copy and see it fail."""

from __future__ import annotations

import ast
import json
import re
import struct
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "custom_components" / "context_retrieval"
TRANSLATION_FILES = ("strings.json", "translations/en.json", "translations/zh-Hans.json")

# `homeassistant.components.X` a module may import without the manifest naming X: the
# integration Home Assistant always sets up first, the entity platforms whose constants and
# base classes we use (an entity domain is set up by whoever has such entities), and the
# diagnostics platform's helper (Home Assistant loads it only when diagnostics are asked for).
UNLISTED_COMPONENTS = frozenset({"homeassistant", "sensor", "fan", "diagnostics"})

# Every rule of the quality scale, by tier (Home Assistant's developer documentation).
RULES: dict[str, tuple[str, ...]] = {
    "bronze": (
        "action-setup",
        "appropriate-polling",
        "brands",
        "common-modules",
        "config-flow",
        "config-flow-test-coverage",
        "dependency-transparency",
        "docs-actions",
        "docs-high-level-description",
        "docs-installation-instructions",
        "docs-removal-instructions",
        "entity-event-setup",
        "entity-unique-id",
        "has-entity-name",
        "runtime-data",
        "test-before-configure",
        "test-before-setup",
        "unique-config-entry",
    ),
    "silver": (
        "action-exceptions",
        "config-entry-unloading",
        "docs-configuration-parameters",
        "docs-installation-parameters",
        "entity-unavailable",
        "integration-owner",
        "log-when-unavailable",
        "parallel-updates",
        "reauthentication-flow",
        "test-coverage",
    ),
    "gold": (
        "devices",
        "diagnostics",
        "discovery",
        "discovery-update-info",
        "docs-data-update",
        "docs-examples",
        "docs-known-limitations",
        "docs-supported-devices",
        "docs-supported-functions",
        "docs-troubleshooting",
        "docs-use-cases",
        "dynamic-devices",
        "entity-category",
        "entity-device-class",
        "entity-disabled-by-default",
        "entity-translations",
        "exception-translations",
        "icon-translations",
        "reconfiguration-flow",
        "repair-issues",
        "stale-devices",
    ),
    "platinum": ("async-dependency", "inject-websession", "strict-typing"),
}

# Brand images: (shortest side at least, at most) in pixels; icons are square.
BRAND_IMAGES = {
    "icon.png": (256, 256),
    "icon@2x.png": (512, 512),
    "logo.png": (128, 256),
    "logo@2x.png": (256, 512),
}
# The README's sections some documentation rules ask for.
README_SECTIONS = {
    "docs-removal-instructions": "## Removal",
    "docs-troubleshooting": "## Troubleshooting",
    "docs-known-limitations": "## Known limitations",
    "docs-data-update": "## How it stays current",
    "docs-configuration-parameters": "## Options",
}
# Modules that make HTTP requests of their own (urllib.parse only parses).
HTTP_CLIENTS = frozenset({"urllib.request", "http.client", "requests", "httpx"})
HA_ERRORS = frozenset(
    {
        "HomeAssistantError",
        "ServiceValidationError",
        "ConfigEntryNotReady",
        "ConfigEntryAuthFailed",
        "ConfigEntryError",
    }
)


@dataclass(frozen=True)
class Project:
    """The integration's files, as the checks read them."""

    sources: dict[str, str]  # module path inside the package -> text
    manifest: dict[str, Any]
    translations: dict[str, dict[str, Any]]  # file -> content
    services: dict[str, Any]
    icons: dict[str, Any] | None
    quality_scale: dict[str, Any] | None
    readme: str
    pyproject: dict[str, Any]
    brand: dict[str, tuple[int, int] | None] = field(default_factory=dict)
    license_text: str = ""

    @property
    def strings(self) -> dict[str, Any]:
        return self.translations["strings.json"]

    def tree(self, module: str) -> ast.Module:
        return ast.parse(self.sources[module])

    def with_source(self, module: str, text: str) -> Project:
        return replace(self, sources={**self.sources, module: text})


def png_size(path: Path) -> tuple[int, int] | None:
    """A PNG's width and height from its header; None when it is no PNG."""
    head = path.read_bytes()[:24]
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def load_project() -> Project:
    def optional(name: str, read: Callable[[str], Any]) -> Any:
        path = PACKAGE / name
        return read(path.read_text(encoding="utf-8")) if path.exists() else None

    brand = PACKAGE / "brand"
    license_file = ROOT / "LICENSE"
    return Project(
        sources={
            str(p.relative_to(PACKAGE)): p.read_text(encoding="utf-8")
            for p in sorted(PACKAGE.rglob("*.py"))
        },
        manifest=json.loads((PACKAGE / "manifest.json").read_text(encoding="utf-8")),
        translations={
            name: json.loads((PACKAGE / name).read_text(encoding="utf-8"))
            for name in TRANSLATION_FILES
        },
        services=yaml.safe_load((PACKAGE / "services.yaml").read_text(encoding="utf-8")),
        icons=optional("icons.json", json.loads),
        quality_scale=optional("quality_scale.yaml", yaml.safe_load),
        readme=(ROOT / "README.md").read_text(encoding="utf-8"),
        pyproject=tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8")),
        brand={
            f"{theme}{name}": png_size(brand / f"{theme}{name}")
            if (brand / f"{theme}{name}").exists()
            else None
            for theme in ("", "dark_")
            for name in BRAND_IMAGES
        },
        license_text=license_file.read_text(encoding="utf-8") if license_file.exists() else "",
    )


# ---- what hassfest checks ------------------------------------------------------------------


def imported_components(tree: ast.Module) -> set[str]:
    """Every `homeassistant.components.X` a module imports, in functions too (guarded imports
    count: hassfest reads them all)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "homeassistant.components":
                names = [f"homeassistant.components.{alias.name}" for alias in node.names]
            else:
                names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["homeassistant", "components"] and len(parts) > 2:
                found.add(parts[2])
    return found


def undeclared_components(project: Project) -> list[str]:
    declared = set(project.manifest.get("dependencies", [])) | set(
        project.manifest.get("after_dependencies", [])
    )
    problems = []
    for module, text in project.sources.items():
        for component in sorted(imported_components(ast.parse(text)) - declared):
            if component not in UNLISTED_COMPONENTS:
                problems.append(f"{module} imports {component}, not in the manifest")
    return problems


def flow_steps(translations: dict[str, Any]) -> dict[str, dict[str, Any]]:
    steps = {}
    for flow in ("config", "options"):
        for step, content in translations.get(flow, {}).get("step", {}).items():
            steps[f"{flow}.{step}"] = content
    return steps


def missing_descriptions(project: Project) -> list[str]:
    """Every field of every flow step needs a description, in every translation."""
    problems = []
    for name, translations in project.translations.items():
        for step, content in flow_steps(translations).items():
            described = set(content.get("data_description", {}))
            for key in content.get("data", {}):
                if key not in described:
                    problems.append(f"{name}: {step} field {key} has no data_description")
    return problems


def services_without_icon(project: Project) -> list[str]:
    icons = (project.icons or {}).get("services", {})
    return [
        f"service {name} has no icon in icons.json"
        for name in project.services
        if not str(icons.get(name, {}).get("service", "")).startswith("mdi:")
    ]


# ---- the quality scale's rules that reading the code can check -----------------------------


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def _classes(tree: ast.Module) -> list[ast.ClassDef]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]


def _methods(project: Project, module: str, base: str) -> set[str]:
    """The methods of the module's classes that derive from `base` (by name)."""
    found: set[str] = set()
    for cls in _classes(project.tree(module)):
        if any(ast.unparse(b).split(".")[-1] == base for b in cls.bases):
            found |= {
                n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            }
    return found


def _called(function: ast.AST) -> set[str]:
    return {
        ast.unparse(node.func).split(".")[-1]
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
    }


def _raised(function: ast.AST) -> set[str]:
    out = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            out.add(ast.unparse(target).split(".")[-1])
    return out


def platforms(project: Project) -> list[str]:
    """The platform modules the package sets up (`PLATFORMS = (Platform.X, …)`)."""
    for node in project.tree("__init__.py").body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "PLATFORMS" for t in node.targets
        ):
            return [
                ast.unparse(e).split(".")[-1].lower()
                for e in ast.walk(node.value)
                if isinstance(e, ast.Attribute)
            ]
    return []


def _module_assigns(tree: ast.Module, name: str) -> bool:
    return any(
        isinstance(node, ast.Assign | ast.AnnAssign)
        and any(
            isinstance(t, ast.Name) and t.id == name
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
        for node in tree.body
    )


def _class_attr(cls: ast.ClassDef, name: str) -> ast.expr | None:
    for node in cls.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return node.value
    return None


def _entity_classes(project: Project) -> dict[str, list[ast.ClassDef]]:
    return {
        platform: [
            cls
            for cls in _classes(project.tree(f"{platform}.py"))
            if any(ast.unparse(b).endswith("Entity") for b in cls.bases)
        ]
        for platform in platforms(project)
    }


def check_action_setup(project: Project) -> list[str]:
    setup = _functions(project.tree("__init__.py")).get("async_setup")
    if setup is None or "async_register_services" not in _called(setup):
        return ["services are not registered in async_setup"]
    return []


def check_config_flow(project: Project) -> list[str]:
    problems = [] if project.manifest.get("config_flow") else ["manifest: config_flow is not true"]
    if "config_flow.py" not in project.sources:
        problems.append("no config_flow.py")
    return problems + missing_descriptions(project)


def check_runtime_data(project: Project) -> list[str]:
    problems = []
    if "entry.runtime_data =" not in project.sources["__init__.py"]:
        problems.append("async_setup_entry does not set entry.runtime_data")
    problems += [
        f"{module} keeps entry data in hass.data[DOMAIN]"
        for module, text in project.sources.items()
        if "hass.data[DOMAIN]" in text
    ]
    return problems


def check_unique_config_entry(project: Project) -> list[str]:
    flow = project.sources["config_flow.py"]
    if project.manifest.get("single_config_entry") or "_abort_if_unique_id_configured" in flow:
        return []
    return ["the config flow can make a second entry"]


def check_test_before_setup(project: Project) -> list[str]:
    functions = _functions(project.tree("__init__.py"))
    setup = functions.get("async_setup_entry")
    if setup is None:
        return ["no async_setup_entry"]
    raised = _raised(setup)
    for name in _called(setup):  # and the module's own helpers it calls
        if name in functions:
            raised |= _raised(functions[name])
    wanted = {"ConfigEntryNotReady", "ConfigEntryAuthFailed", "ConfigEntryError"}
    return [] if raised & wanted else ["async_setup_entry raises none of " + ", ".join(wanted)]


def check_parallel_updates(project: Project) -> list[str]:
    return [
        f"{platform}.py does not set PARALLEL_UPDATES"
        for platform in platforms(project)
        if not _module_assigns(project.tree(f"{platform}.py"), "PARALLEL_UPDATES")
    ]


def check_reauthentication_flow(project: Project) -> list[str]:
    if "async_step_reauth" not in _methods(project, "config_flow.py", "ConfigFlow"):
        return ["the config flow has no async_step_reauth"]
    return []


def check_reconfiguration_flow(project: Project) -> list[str]:
    if "async_step_reconfigure" not in _methods(project, "config_flow.py", "ConfigFlow"):
        return ["the config flow has no async_step_reconfigure"]
    return []


def check_config_entry_unloading(project: Project) -> list[str]:
    return (
        []
        if "async_unload_entry" in _functions(project.tree("__init__.py"))
        else ["no async_unload_entry"]
    )


def check_diagnostics(project: Project) -> list[str]:
    module = project.sources.get("diagnostics.py")
    if module is None or "async_get_config_entry_diagnostics" not in _functions(ast.parse(module)):
        return ["no config entry diagnostics"]
    return []


def check_entities(project: Project) -> list[str]:
    """has-entity-name, entity-unique-id, entity-translations: every entity class."""
    problems = []
    entity_strings = project.strings.get("entity", {})
    for platform, classes in _entity_classes(project).items():
        for cls in classes:
            named = _class_attr(cls, "_attr_has_entity_name")
            if not (isinstance(named, ast.Constant) and named.value is True):
                problems.append(f"{cls.name}: _attr_has_entity_name is not True")
            key = _class_attr(cls, "_attr_translation_key")
            if not (
                isinstance(key, ast.Constant) and key.value in entity_strings.get(platform, {})
            ):
                problems.append(f"{cls.name}: no translation_key with a translation")
            if "self._attr_unique_id" not in ast.unparse(cls):
                problems.append(f"{cls.name}: sets no unique id")
    return problems


def check_icon_translations(project: Project) -> list[str]:
    if project.icons is None:
        return ["no icons.json"]
    problems = services_without_icon(project)
    for classes in _entity_classes(project).values():
        for cls in classes:
            if _class_attr(cls, "_attr_icon") is not None or "_attr_icon" in ast.unparse(cls):
                problems.append(f"{cls.name} sets _attr_icon instead of an icon translation")
    return problems


def check_exception_translations(project: Project) -> list[str]:
    """Raised Home Assistant errors carry a translation key that exists; none a bare text."""
    known = set(project.strings.get("exceptions", {}))
    problems = []
    for module, text in project.sources.items():
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            name = ast.unparse(node.exc.func).split(".")[-1]
            if name not in HA_ERRORS:
                continue
            if any(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.exc.args):
                problems.append(f"{module}:{node.lineno}: {name} with an untranslated text")
            for keyword in node.exc.keywords:
                value = keyword.value
                if (
                    keyword.arg == "translation_key"
                    and isinstance(value, ast.Constant)
                    and value.value not in known
                ):
                    problems.append(f"{module}:{node.lineno}: no translation for {value.value}")
    return problems


def check_brands(project: Project) -> list[str]:
    problems = []
    for name, size in project.brand.items():
        if size is None:
            problems.append(f"brand/{name} is missing or no PNG")
            continue
        low, high = BRAND_IMAGES[name.removeprefix("dark_")]
        if "icon" in name and size[0] != size[1]:
            problems.append(f"brand/{name} is not square: {size}")
        if not low <= min(size) <= high:
            problems.append(f"brand/{name}: shortest side {min(size)} not in {low}..{high}")
    return problems


def check_readme_section(rule: str) -> Callable[[Project], list[str]]:
    def check(project: Project) -> list[str]:
        heading = README_SECTIONS[rule]
        return (
            []
            if re.search(rf"^{re.escape(heading)}\s*$", project.readme, re.M)
            else [f"README has no '{heading}' section"]
        )

    return check


def check_inject_websession(project: Project) -> list[str]:
    """The glue makes no HTTP client of its own: it hands the engine Home Assistant's session."""
    problems = []
    for module, text in project.sources.items():
        if module.startswith("core/"):
            continue
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                for name in names:
                    if name in HTTP_CLIENTS or name.split(".")[0] in HTTP_CLIENTS:
                        problems.append(f"{module} imports {name}")
            if isinstance(node, ast.Call):
                called = ast.unparse(node.func).split(".")[-1]
                if called == "ClientSession":
                    problems.append(f"{module}:{node.lineno} makes an aiohttp session")
                if called == "EmbeddingClient" and "transport" not in {
                    k.arg for k in node.keywords
                }:
                    problems.append(f"{module}:{node.lineno}: EmbeddingClient without transport")
    return problems


def check_strict_typing(project: Project) -> list[str]:
    flags = (
        "disallow_untyped_defs",
        "disallow_incomplete_defs",
        "disallow_any_generics",
        "warn_return_any",
        "no_implicit_reexport",
        "strict_equality",
    )
    for override in project.pyproject.get("tool", {}).get("mypy", {}).get("overrides", []):
        modules = override.get("module", [])
        modules = [modules] if isinstance(modules, str) else modules
        if "custom_components.context_retrieval.*" in modules:
            return [f"mypy: {flag} is not on" for flag in flags if override.get(flag) is not True]
    return ["mypy: no strict settings cover custom_components.context_retrieval.*"]


def check_integration_owner(project: Project) -> list[str]:
    return [] if project.manifest.get("codeowners") else ["manifest: no codeowners"]


CHECKS: dict[str, Callable[[Project], list[str]]] = {
    "action-setup": check_action_setup,
    "brands": check_brands,
    "config-flow": check_config_flow,
    "runtime-data": check_runtime_data,
    "unique-config-entry": check_unique_config_entry,
    "test-before-setup": check_test_before_setup,
    "has-entity-name": check_entities,
    "entity-unique-id": check_entities,
    "entity-translations": check_entities,
    "config-entry-unloading": check_config_entry_unloading,
    "parallel-updates": check_parallel_updates,
    "reauthentication-flow": check_reauthentication_flow,
    "reconfiguration-flow": check_reconfiguration_flow,
    "diagnostics": check_diagnostics,
    "icon-translations": check_icon_translations,
    "exception-translations": check_exception_translations,
    "integration-owner": check_integration_owner,
    "inject-websession": check_inject_websession,
    "strict-typing": check_strict_typing,
    **{rule: check_readme_section(rule) for rule in README_SECTIONS},
}


def rule_statuses(project: Project) -> dict[str, tuple[str, str | None]]:
    """Each rule of quality_scale.yaml: (status, comment)."""
    rules = (project.quality_scale or {}).get("rules", {})
    out = {}
    for name, value in rules.items():
        if isinstance(value, str):
            out[name] = (value, None)
        else:
            out[name] = (str(value.get("status")), value.get("comment"))
    return out


def quality_scale_problems(project: Project) -> list[str]:
    """quality_scale.yaml names every rule, each done or exempt with a reason, and every rule it
    marks done whose check can read the code passes that check."""
    if project.quality_scale is None:
        return ["no quality_scale.yaml"]
    statuses = rule_statuses(project)
    every = [rule for rules in RULES.values() for rule in rules]
    problems = [f"rule {rule} is missing" for rule in every if rule not in statuses]
    problems += [f"unknown rule {rule}" for rule in statuses if rule not in every]
    for rule, (status, comment) in statuses.items():
        if status not in ("done", "exempt"):
            problems.append(f"rule {rule} is {status}")
        if status == "exempt" and not comment:
            problems.append(f"rule {rule} is exempt without a reason")
        if status == "done" and rule in CHECKS:
            problems += [f"{rule}: {problem}" for problem in CHECKS[rule](project)]
    return problems
