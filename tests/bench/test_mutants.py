"""bench/mutants.py: the sample is the same on every run, each mutant changes exactly one
site, and the report counts what it should."""

from __future__ import annotations

import ast
import random
import shutil
from pathlib import Path

import pytest

from bench import mutants
from bench.mutants import ROOT, Site, mirror_tests, mutated_source, sites, table


def test_the_sites_and_a_seeded_sample_are_the_same_every_time() -> None:
    first, again = sites(), sites()
    assert first == again and len(first) > 1000
    assert random.Random(23).sample(first, 10) == random.Random(23).sample(again, 10)
    assert not any(s.path.endswith("__main__.py") for s in first)
    assert {s.kind for s in first} == {"compare", "constant", "boolop", "not", "jump"}


def _one_of(kind: str) -> Site:
    return next(s for s in sites() if s.kind == kind and s.path.endswith("core/search/words.py"))


def test_a_mutant_changes_one_site_only() -> None:
    for kind in ("compare", "constant", "boolop", "not", "jump"):
        site = next((s for s in sites() if s.kind == kind), None)
        assert site is not None
        original = ast.unparse(ast.parse((ROOT / site.path).read_text(encoding="utf-8")))
        changed = mutated_source(site)
        assert changed != original, site
        differing = [
            (a, b)
            for a, b in zip(original.splitlines(), changed.splitlines(), strict=False)
            if a != b
        ]
        assert len(differing) <= 1 or kind == "jump", (site, differing)


def test_a_flipped_comparison_is_its_opposite() -> None:
    site = _one_of("compare")
    before = ast.parse((ROOT / site.path).read_text(encoding="utf-8"))
    after = ast.parse(mutated_source(site))

    def ops(tree: ast.AST) -> list[str]:
        return [
            type(n.ops[0]).__name__
            for n in ast.walk(tree)
            if isinstance(n, ast.Compare) and n.lineno == site.line
        ]

    assert ops(before) != ops(after)


def test_the_module_s_own_tests_are_run_first() -> None:
    rename = Site("custom_components/context_retrieval/core/rename/matching.py", 1, 0, "compare")
    assert mirror_tests(rename, ROOT) == ["tests/core/test_rename.py"]
    scope = Site("custom_components/context_retrieval/core/retrieval/scope.py", 1, 0, "not")
    assert mirror_tests(scope, ROOT) == ["tests/core/retrieval/test_scope.py"]


def test_the_table_counts_caught_and_leaves_out_the_equivalent() -> None:
    a = Site("x.py", 1, 0, "compare")
    b = Site("x.py", 2, 0, "compare")
    c = Site("x.py", 3, 0, "not")
    text = table([(a, "mirror"), (b, "survived"), (c, "full")], equivalent={b.label()})
    assert "| compare | 1 | 1.000 (1) | 1 |" in text
    assert "| not | 1 | 1.000 (1) | 0 |" in text
    assert "| **all** | 2 | 1.000 (2) | 1 |" in text
    text = table([(a, "mirror"), (b, "survived")], equivalent=set())
    assert "| **all** | 2 | 0.500 (1) | 1 |" in text


def test_a_sweep_tries_every_site_of_one_module_against_its_own_tests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs: list[list[str]] = []

    def fake_run(python: str, root: Path, tests: list[str], timeout: int, workers: int) -> bool:
        runs.append(tests)
        # Unmutated the tests pass; of the mutants, every other one is caught.
        return len(runs) == 1 or len(runs) % 2 == 1

    monkeypatch.setattr(mutants, "_run", fake_run)
    monkeypatch.setattr(mutants, "_copy", _copy_engine_only)
    module = "core/retrieval/satellite.py"
    expected = [s for s in sites() if s.path.endswith(module)]
    ends = list(mutants.sweep(module))
    assert [site for site, _ in ends] == expected and len(expected) > 1
    assert [end for _, end in ends][:2] == ["mirror", "survived"]
    assert all(tests == ["tests/core/retrieval/test_satellite.py"] for tests in runs)
    assert len(runs) == len(expected) + 1
    with pytest.raises(ValueError):
        list(mutants.sweep("core/no_such_module.py"))


def _copy_engine_only(target: Path) -> None:
    source = ROOT / "custom_components"
    shutil.copytree(source, target / "custom_components")
    (target / "tests/core/retrieval").mkdir(parents=True)
    (target / "tests/core/retrieval/test_satellite.py").write_text("", encoding="utf-8")
