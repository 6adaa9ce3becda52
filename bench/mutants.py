"""How many small mistakes in `core/` the tests catch: a seeded sample of mutants.

A mutant changes one site of one engine module: a comparison flipped (`<` → `>=`, `==` →
`!=`, `in` → `not in`), a numeric constant moved (an int by one, a float by a tenth), an
`and`/`or` swapped, a `not` dropped, or a `continue`/`break` dropped. The sites of every module
under `core/` are listed in a fixed order and a seeded sample drawn from them, so a run names
exactly which mutants it tried and anyone can try the same ones again.

Each mutant runs in a copy of the repository: first the tests that mirror its module
(`tests/core/<same path>`), then, when those pass, every engine test (`tests/core`, then
`tests/bench`); a mutant is caught when a test fails or the run times out. Survivors are
printed with their site, for reading: some are equivalent (the change cannot alter behaviour),
and the report says how many of them were judged so in `--equivalent`.

    .venv/bin/python -m bench.mutants --sample 72 --seed 23 [--write BENCHMARKS.md]

To write tests for one module, `--module core/base/text.py` tries every site of that module
against its own tests only (minutes, not hours), and lists what they miss: a survivor there may
still be caught elsewhere, so the sweep says where to look, never what the suite catches.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.report import write_table

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "custom_components" / "context_retrieval" / "core"
# The engine's own command line and the data-only modules say nothing a test could pin.
SKIPPED = ("__main__.py",)
FLIPPED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
MIRROR_TIMEOUT = 300
# This runner's own tests read the engine's source, which a mutant has rewritten: they guard
# the runner, not the engine.
OWN_TESTS = "tests/bench/test_mutants.py"
FULL_TIMEOUT = 900


@dataclass(frozen=True, slots=True)
class Site:
    """One place a mutant can change: the module, the node's position and what changes."""

    path: str  # relative to the repository
    line: int
    col: int
    kind: str  # "compare", "constant", "boolop", "not", "jump"

    def label(self) -> str:
        return f"{self.path}:{self.line}:{self.col} {self.kind}"


def _mutable(node: ast.AST) -> str | None:
    if isinstance(node, ast.Compare) and type(node.ops[0]) in FLIPPED:
        return "compare"
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    ):
        return "constant"
    if isinstance(node, ast.BoolOp):
        return "boolop"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return "not"
    if isinstance(node, (ast.Continue, ast.Break)):
        return "jump"
    return None


def _docstrings(tree: ast.AST) -> set[int]:
    """Ids of docstring nodes (constants there are text, not numbers; kept for safety)."""
    return {
        id(body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and (body := node.body)
        and isinstance(body[0], ast.Expr)
    }


def sites() -> list[Site]:
    """Every mutable site of the engine, in a fixed order."""
    found: list[Site] = []
    for path in sorted(CORE.rglob("*.py")):
        if path.name in SKIPPED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        rel = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            kind = _mutable(node)
            line, col = getattr(node, "lineno", None), getattr(node, "col_offset", None)
            if kind and id(node) not in skip and line is not None and col is not None:
                found.append(Site(rel, line, col, kind))
    return sorted(set(found), key=lambda s: (s.path, s.line, s.col, s.kind))


class _Mutate(ast.NodeTransformer):
    """Changes the one node at `site`."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.done = False

    def visit(self, node: ast.AST) -> ast.AST:
        if (
            not self.done
            and getattr(node, "lineno", None) == self.site.line
            and getattr(node, "col_offset", None) == self.site.col
            and _mutable(node) == self.site.kind
        ):
            self.done = True
            return _changed(node)
        return super().visit(node)


def _changed(node: ast.AST) -> ast.AST:
    if isinstance(node, ast.Compare):
        node.ops[0] = FLIPPED[type(node.ops[0])]()
        return node
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        value = node.value
        node.value = value + 1 if isinstance(value, int) else value + 0.1
        return node
    if isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return node
    if isinstance(node, ast.UnaryOp):
        return node.operand
    return ast.copy_location(ast.Pass(), node)


def mutated_source(site: Site, root: Path = ROOT) -> str:
    tree = ast.parse((root / site.path).read_text(encoding="utf-8"))
    mutate = _Mutate(site)
    changed = mutate.visit(tree)
    if not mutate.done:
        raise ValueError(f"site not found: {site.label()}")
    return ast.unparse(ast.fix_missing_locations(changed))


def mirror_tests(site: Site, root: Path) -> list[str]:
    """The tests of the mutated module: tests/core/<path>/test_<module>.py, or its folder."""
    rel = Path(site.path).relative_to("custom_components/context_retrieval/core")
    folder = root / "tests" / "core" / rel.parent
    named = folder / f"test_{rel.stem}.py"
    if named.exists():
        return [str(named.relative_to(root))]
    package = folder / rel.stem  # a module whose tests have a folder of their own
    if package.is_dir():
        return [str(package.relative_to(root))]
    if folder.is_dir():
        return [str(folder.relative_to(root))]
    whole = folder.parent / f"test_{folder.name}.py"  # a package tested as one (rename/)
    return [str(whole.relative_to(root))] if whole.exists() else ["tests/core"]


def _run(python: str, root: Path, tests: list[str], timeout: int, workers: int) -> bool:
    """Whether the tests pass (a timeout counts as caught)."""
    command = [python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests]
    if workers > 1:
        command += ["-n", str(workers)]
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def _copy(target: Path) -> None:
    # The engine tests also check the documents that describe the engine (README, CONTRIBUTING).
    for name in (
        "custom_components",
        "tests",
        "bench",
        "demo",
        "scripts",
        "pyproject.toml",
        "README.md",
        "CONTRIBUTING.md",
    ):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, target / name)
    shared = ROOT.parent / "shared"
    if shared.exists():
        (target.parent / "shared").symlink_to(shared)


def run(sample: list[Site], workers: int) -> Iterator[tuple[Site, str]]:
    """Each mutant and how it ended: "mirror" or "full" (caught there), "survived"."""
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        _copy(root)
        # Unmutated, every test must pass in the copy, or a failure says nothing of a mutant
        # (a first run counted the benchmarks' tests, which failed without scripts/, as catches).
        for tests in (["tests/core"], ["tests/bench", f"--ignore={OWN_TESTS}"]):
            if not _run(python, root, tests, FULL_TIMEOUT, workers):
                raise RuntimeError(f"{' '.join(tests)} fail in the copy before any mutant")
        for site in sample:
            path = root / site.path
            original = path.read_text(encoding="utf-8")
            path.write_text(mutated_source(site, root), encoding="utf-8")
            try:
                if not _run(python, root, mirror_tests(site, root), MIRROR_TIMEOUT, 1):
                    yield site, "mirror"
                elif not _run(python, root, ["tests/core"], FULL_TIMEOUT, workers) or not _run(
                    python, root, ["tests/bench", f"--ignore={OWN_TESTS}"], FULL_TIMEOUT, workers
                ):
                    yield site, "full"
                else:
                    yield site, "survived"
            finally:
                path.write_text(original, encoding="utf-8")


def sweep(path: str) -> Iterator[tuple[Site, str]]:
    """Every site of one module against that module's own tests: "mirror" or "survived"."""
    chosen = [s for s in sites() if s.path.endswith(path)]
    if not chosen:
        raise ValueError(f"no mutable site in a module ending {path}")
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        _copy(root)
        tests = mirror_tests(chosen[0], root)
        if not _run(sys.executable, root, tests, MIRROR_TIMEOUT, 1):
            raise RuntimeError(f"{' '.join(tests)} fail in the copy before any mutant")
        for site in chosen:
            module = root / site.path
            original = module.read_text(encoding="utf-8")
            module.write_text(mutated_source(site, root), encoding="utf-8")
            try:
                caught = not _run(sys.executable, root, tests, MIRROR_TIMEOUT, 1)
                yield site, "mirror" if caught else "survived"
            finally:
                module.write_text(original, encoding="utf-8")


def table(results: list[tuple[Site, str]], equivalent: set[str]) -> str:
    by_kind: dict[str, list[str]] = {}
    for site, end in results:
        if site.label() not in equivalent:
            by_kind.setdefault(site.kind, []).append(end)
    lines = [
        "| kind | mutants | caught | caught by the module's own tests |",
        "|---|---:|---:|---:|",
    ]
    rows = sorted(by_kind.items())
    rows.append(("**all**", [e for _, ends in rows for e in ends]))
    for kind, ends in rows:
        caught = sum(e != "survived" for e in ends)
        mirror = sum(e == "mirror" for e in ends)
        share = caught / len(ends) if ends else 0.0
        lines.append(f"| {kind} | {len(ends)} | {share:.3f} ({caught}) | {mirror} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=72)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--equivalent", type=Path, help="a JSON list of site labels judged equivalent"
    )
    parser.add_argument("--list", action="store_true", help="print the sample and stop")
    parser.add_argument(
        "--module", help="every site of the module ending so, against its own tests only"
    )
    parser.add_argument("--write", type=Path)
    args = parser.parse_args(argv)
    if args.module:
        return _sweep_report(args.module)
    every = sites()
    sample = random.Random(args.seed).sample(every, min(args.sample, len(every)))
    if args.list:
        for site in sample:
            print(site.label())
        return 0
    equivalent: set[str] = set()
    if args.equivalent:
        equivalent = set(json.loads(args.equivalent.read_text(encoding="utf-8")))
    started = time.monotonic()
    results: list[tuple[Site, str]] = []
    for site, end in run(sample, args.workers):  # raises when the copy fails unmutated
        results.append((site, end))
        print(f"{end:9} {site.label()}", flush=True)
    text = table(results, equivalent)
    print(text)
    judged = sum(site.label() in equivalent for site, _ in results)
    note = (
        f"A seeded sample of {len(sample)} of the engine's {len(every)} mutable sites (seed "
        f"{args.seed}); {judged} judged equivalent and left out. A mutant is caught when a "
        "test of `tests/core` or `tests/bench` fails or times out."
    )
    if args.write:
        write_table(
            args.write,
            "mutants",
            "## Mutants of the engine caught by the tests (`bench/mutants.py`)\n\n"
            + note
            + "\n\n"
            + text,
            "bench.mutants",
            sys.argv[1:] if argv is None else argv,
            time.monotonic() - started,
        )
    return 0


def _sweep_report(path: str) -> int:
    ends = []
    for site, end in sweep(path):
        ends.append(end)
        print(f"{end:9} {site.label()}", flush=True)
    print(f"{ends.count('mirror')} of {len(ends)} caught by the module's own tests")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
