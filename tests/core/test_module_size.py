"""The engine's modules stay small enough to read: none over `MAX_LINES` lines (a module that
grows past it is split by what its parts do, as `search/`, `rename/` and `retrieval/` were)."""

from __future__ import annotations

from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "custom_components" / "context_retrieval" / "core"
MAX_LINES = 450


def test_no_engine_module_is_over_the_limit() -> None:
    sizes = {
        str(path.relative_to(CORE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in CORE.rglob("*.py")
    }
    assert len(sizes) > 50
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
