"""What every tool of our LLM API shares, on every supported Home Assistant.

Home Assistant's tool API changed under its LLM integrations between 2025.4 and 2026.11; each
difference is detected here once, not in each tool:

- parameters are described with probatio from 2026.10 (its LLM agents cannot read a
  voluptuous schema any more), with voluptuous before;
- a tool answers with a `ToolResult` where it exists (2026.x; a plain object is deprecated
  there and breaks in 2027.11);
- a tool declares `annotations` (read-only, destructive, idempotent, open-world) where Home
  Assistant asks for them: the MCP server's read-only mode keeps only read-only tools;
- every tool is namespaced by its integration (`context_retrieval__…`, as Home Assistant's own
  are from 2026.10) and names it (`integration`, asked of every tool from 2026.10).
"""

from __future__ import annotations

import importlib
from typing import Any

import voluptuous as vol
from homeassistant.helpers import llm

from .const import DOMAIN


def _schema_library() -> Any:
    try:
        return importlib.import_module("probatio")
    except ImportError:
        return vol


SCHEMA = _schema_library()


def tool_name(name: str) -> str:
    """A tool's name, namespaced by this integration."""
    return f"{DOMAIN}__{name}"


def tool_result(data: dict[str, Any], error: bool = False) -> Any:
    """A tool's answer: a `ToolResult` where Home Assistant has it, else the object itself."""
    result_type = getattr(llm, "ToolResult", None)
    return data if result_type is None else result_type(data=data, error=error)


def read_only_annotations() -> Any:
    """A tool that only reads, changes nothing, gives the same answer when called again and
    stays inside Home Assistant; None where Home Assistant has no annotations yet."""
    annotations_type = getattr(llm, "ToolAnnotations", None)
    if annotations_type is None:
        return None
    return annotations_type(read_only=True, destructive=False, idempotent=True, open_world=False)


class ReadOnlyTool(llm.Tool):
    """A tool of this integration that only reads the home."""

    integration = DOMAIN  # Home Assistant 2026.10+ asks every tool which integration it is of

    def __init__(self) -> None:
        annotations = read_only_annotations()
        if annotations is not None:
            setattr(self, "annotations", annotations)  # noqa: B010 (absent before 2026.x)
