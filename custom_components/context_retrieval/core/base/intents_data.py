"""Home Assistant's intent data as this engine reads it: which languages the installed
`home_assistant_intents` has, one language's data, and its sentence blocks (intent, action,
domains, parsed templates), mapped to our actions by `lexicons/intents_map.json`."""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .intents_templates import MAX_DEPTH, Node, TemplateError, parse_template

MAP_FILE = Path(__file__).parent / "lexicons" / "intents_map.json"


@cache
def intent_map() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MAP_FILE.read_text(encoding="utf-8"))
    return data


def intents_module() -> Any | None:
    try:
        return importlib.import_module("home_assistant_intents")
    except ImportError:
        return None


@cache
def intent_languages() -> tuple[str, ...]:
    """Language codes the installed intent data has, lower case ("pt-br", "zh-hk")."""
    module = intents_module()
    if module is None:
        return ()
    getter = getattr(module, "get_languages", None)
    try:
        languages = list(getter()) if callable(getter) else []
    except Exception:
        return ()
    return tuple(sorted({str(lang).lower().replace("_", "-") for lang in languages}))


def intents_data(language: str) -> dict[str, Any] | None:
    module = intents_module()
    getter = getattr(module, "get_intents", None) if module is not None else None
    if not callable(getter):
        return None
    wanted = language.lower().replace("_", "-")
    # The package's own spelling of the code may differ in case ("de-CH", "zh-hk").
    candidates = [wanted] + [c for c in _package_codes(module) if c.lower() == wanted]
    for code in dict.fromkeys(candidates):
        try:
            data = getter(code)
        except Exception:
            data = None
        if isinstance(data, dict) and isinstance(data.get("intents"), dict):
            return data
    return None


def _package_codes(module: Any) -> list[str]:
    getter = getattr(module, "get_languages", None)
    try:
        return [str(c) for c in getter()] if callable(getter) else []
    except Exception:
        return []


def as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple | set):
        return [str(v) for v in value]
    return []


@dataclass(frozen=True, slots=True)
class Block:
    intent: str
    action: str | None
    domains: tuple[str, ...]
    area_context: bool
    templates: tuple[Node, ...]


def blocks(data: dict[str, Any], mapping: dict[str, Any], rules: dict[str, Node]) -> list[Block]:
    blocks: list[Block] = []
    for intent_name, intent in (data.get("intents") or {}).items():
        if not isinstance(intent, dict):
            continue
        spec = mapping["intents"].get(intent_name, {})
        for block in intent.get("data") or []:
            if not isinstance(block, dict):
                continue
            slots = block.get("slots") or {}
            requires = block.get("requires_context") or {}
            domains = tuple(as_list(slots.get("domain")) or as_list(requires.get("domain")))
            area_context = isinstance(requires.get("area"), dict)
            templates: list[Node] = []
            for sentence in as_list(block.get("sentences")):
                try:
                    templates.append(parse_template(sentence))
                except TemplateError:
                    continue
            action = spec.get("action")
            for domain in domains:
                action = spec.get("by_domain", {}).get(domain, action)
            lists = {name for t in templates for name in list_names(t, rules)}
            for list_name, by_list in spec.get("by_list", {}).items():
                if list_name in lists:
                    action = by_list
            blocks.append(Block(intent_name, action, domains, area_context, tuple(templates)))
    return blocks


def list_names(node: Node, rules: dict[str, Node], depth: int = 0) -> set[str]:
    if depth > MAX_DEPTH:
        return set()
    kind = node[0]
    if kind == "list":
        return {node[1]}
    if kind == "rule":
        body = rules.get(node[1])
        return list_names(body, rules, depth + 1) if body is not None else set()
    if kind in ("seq", "perm", "alt"):
        return {n for item in node[1] for n in list_names(item, rules, depth + 1)}
    return set()
