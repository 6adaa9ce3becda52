"""CONTRIBUTING.md's map names every module, folder and script there is: a new module that the
map does not mention fails here, so the map stays the way into the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "custom_components" / "context_retrieval"
NAME_COLUMN = 25  # the map's descriptions start here; names start before it


def _map_lines() -> list[str]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = text.split("## The map", 1)[1].split("```", 2)[1]
    return [line for line in block.splitlines() if line.strip()]


def _blocks() -> dict[str, str]:
    """Each named line of the map with its description and everything indented under it,
    keyed by its path from the map's top (`custom_components/context_retrieval/core/views/`)."""
    lines = _map_lines()
    blocks: dict[str, str] = {}
    parents: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if indent >= NAME_COLUMN:
            continue  # a description going on
        name = line.split()[0].rstrip(",")
        while parents and parents[-1][0] >= indent:
            parents.pop()
        path = (parents[-1][1] if parents else "") + name
        parents.append((indent, path))
        below = [line]
        for other in lines[i + 1 :]:
            other_indent = len(other) - len(other.lstrip())
            if other_indent <= indent:
                break
            below.append(other)
        blocks[path] = "\n".join(below)
    return blocks


def _said(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w/]){re.escape(word)}(?![\w])", text) is not None


def _block_of(folder: Path) -> str:
    """The map's block for `folder`, or for the nearest folder above it that has one."""
    blocks = _blocks()
    rel = folder.relative_to(ROOT)
    for depth in range(len(rel.parts), 0, -1):
        key = "/".join(rel.parts[:depth]) + "/"
        if key in blocks:
            return blocks[key]
    raise AssertionError(f"no block of the map covers {rel}")


ENGINE_MODULES = sorted(
    p
    for p in (PACKAGE / "core").rglob("*.py")
    if p.name != "__init__.py" and "__pycache__" not in p.parts
)


@pytest.mark.parametrize("module", ENGINE_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_engine_module_is_named_under_its_package(module: Path) -> None:
    assert _said(module.stem, _block_of(module.parent)), module.relative_to(ROOT)


def test_every_engine_subpackage_is_named() -> None:
    for folder in sorted((PACKAGE / "core").rglob("*")):
        if folder.is_dir() and "__pycache__" not in folder.parts:
            assert _said(f"{folder.name}/", _block_of(folder.parent)), folder.relative_to(ROOT)


def test_every_glue_module_is_named() -> None:
    text = "\n".join(_map_lines())
    for module in sorted(PACKAGE.glob("*.py")):
        assert _said(module.name, text), module.name
    for module in sorted((PACKAGE / "services").glob("*.py")):
        if module.name != "__init__.py":
            assert _said(module.stem, _block_of(module.parent)), module.name


@pytest.mark.parametrize("top", ["tests", "bench", "scripts"])
def test_every_folder_and_script_at_the_top_is_named(top: str) -> None:
    text = "\n".join(_map_lines())
    for path in sorted((ROOT / top).iterdir()):
        if path.name.startswith(("_", ".")) or path.name == "conftest.py":
            continue
        word = f"{path.name}/" if path.is_dir() else path.stem
        assert _said(word, text) or _said(f"{top}/{word}", text), f"{top}/{path.name}"


def test_the_panel_sources_are_named() -> None:
    block = _blocks()["frontend/"]
    for path in sorted((ROOT / "frontend" / "src").iterdir()):
        word = f"{path.name}/" if path.is_dir() else path.stem
        assert _said(word, block), path.name
    for page in sorted((ROOT / "frontend" / "src" / "pages").glob("*.ts")):
        assert _said(page.stem, block), page.name


def test_the_reader_finds_blocks_and_misses() -> None:
    """The checks above can fail: the reader finds the blocks it should and no word that is
    not there."""
    blocks = _blocks()
    assert "custom_components/context_retrieval/core/views/" in blocks
    assert _said("parser", blocks["custom_components/context_retrieval/core/views/"])
    assert not _said("no_such_module", "\n".join(_map_lines()))
    assert not _said("ranking", "rerankings")
