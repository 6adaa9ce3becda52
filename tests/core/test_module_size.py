"""The engine's modules stay small enough to read: none over `MAX_LINES` lines (a module that
grows past it is split by what its parts do, as `search/`, `rename/` and `retrieval/` were)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
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


MAX_FUNCTION_LINES = 60
MAX_NESTING = 4
_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match)


def _functions() -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield f"{path.relative_to(CORE)}:{node.name}", node


def _is_elif(parent: ast.AST, child: ast.AST) -> bool:
    return (
        isinstance(parent, ast.If)
        and isinstance(child, ast.If)
        and len(parent.orelse) == 1
        and parent.orelse[0] is child
    )


def _nesting(node: ast.AST, depth: int = 0) -> int:
    """How deep blocks (if, for, while, with, try, match) nest inside `node`; an `elif` is as
    deep as its `if`, and the functions defined inside are measured on their own."""
    deepest = depth
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if _is_elif(node, child):
            inner = depth
        else:
            inner = depth + 1 if isinstance(child, _BLOCKS) else depth
        deepest = max(deepest, _nesting(child, inner))
    return deepest


def test_no_engine_function_is_over_a_screen() -> None:
    long = {
        name: n
        for name, node in _functions()
        if (n := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_FUNCTION_LINES
    }
    assert long == {}


def test_no_engine_function_nests_blocks_too_deep() -> None:
    deep = {name: n for name, node in _functions() if (n := _nesting(node)) > MAX_NESTING}
    assert deep == {}


def test_nesting_counts_blocks_not_expressions() -> None:
    source = (
        "def f(x):\n    for a in x:\n        if a:\n            with a:\n                pass\n"
    )
    (function,) = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)]
    assert _nesting(function) == 3
    chain = (
        "def f(x):\n    if x == 1:\n        pass\n"
        "    elif x == 2:\n        pass\n    elif x:\n        pass\n"
    )
    (function,) = [n for n in ast.walk(ast.parse(chain)) if isinstance(n, ast.FunctionDef)]
    assert _nesting(function) == 1
