"""Running a pattern: the tree compiled into a program for a Pike VM, which follows every
path through the pattern at once, in priority order, one text position at a time."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .syntax import (
    BOL,
    BOS,
    EDGE,
    EOL,
    EOS,
    EOS_NL,
    WORD_B,
    CharClass,
    Node,
    Parser,
    PatternTooComplex,
    case_variants,
    is_word,
)
from .template import Template

MAX_PROGRAM = 4_000  # instructions after counted repeats are expanded
_DEADLINE_EVERY = 2_048  # steps between two looks at the clock

# Instructions: (opcode, a, b).
_CHAR, _SET, _CLASS, _ANY, _SPLIT, _JMP, _SAVE, _ASSERT, _MATCH = range(9)


class BudgetExceeded(Exception):
    """A search ran out of steps or time."""


@dataclass
class Budget:
    """Steps and seconds a caller allows for all its searches together."""

    steps: int
    seconds: float
    spent: int = 0
    _deadline: float = field(default=0.0, repr=False)
    _next_check: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        self._deadline = time.monotonic() + self.seconds

    def spend(self, steps: int) -> None:
        self.spent += steps
        if self.spent > self.steps:
            raise BudgetExceeded(f"more than {self.steps} steps")
        if self.spent >= self._next_check:
            self._next_check = self.spent + _DEADLINE_EVERY
            if time.monotonic() > self._deadline:
                raise BudgetExceeded(f"more than {self.seconds} s")


type Instruction = tuple[int, Any, Any]


class _Compiler:
    def __init__(self) -> None:
        self.prog: list[Instruction] = []

    def emit(self, op: int, a: Any = None, b: Any = None) -> int:
        if len(self.prog) >= MAX_PROGRAM:
            raise PatternTooComplex(f"more than {MAX_PROGRAM} instructions")
        self.prog.append((op, a, b))
        return len(self.prog) - 1

    def patch(self, at: int, a: Any = None, b: Any = None) -> None:
        op, old_a, old_b = self.prog[at]
        self.prog[at] = (op, old_a if a is None else a, old_b if b is None else b)

    def node(self, node: Node) -> None:
        kind = node[0]
        if kind == "lit":
            char, fold = str(node[1]), bool(node[2])
            variants = case_variants(char) if fold else {char}
            if len(variants) == 1:
                self.emit(_CHAR, char)
            else:
                self.emit(_SET, frozenset(variants))
        elif kind == "class":
            self.emit(_CLASS, node[1])
        elif kind == "any":
            self.emit(_ANY, node[1])
        elif kind == "assert":
            self.emit(_ASSERT, node[1])
        elif kind == "group":
            index, inner = node[1], node[2]
            if isinstance(index, int):
                self.emit(_SAVE, 2 * index)
            self.node(inner)
            if isinstance(index, int):
                self.emit(_SAVE, 2 * index + 1)
        elif kind == "cat":
            for item in node[1]:
                self.node(item)
        elif kind == "alt":
            self.alternation(node[1])
        elif kind == "rep":
            self.repeat(node[1], int(node[2]), node[3], bool(node[4]))

    def alternation(self, branches: list[Node]) -> None:
        jumps: list[int] = []
        for branch in branches[:-1]:
            split = self.emit(_SPLIT)
            self.node(branch)
            jumps.append(self.emit(_JMP))
            self.patch(split, split + 1, len(self.prog))
        self.node(branches[-1])
        for jump in jumps:
            self.patch(jump, len(self.prog))

    def _split(self, greedy: bool, body: int, out: int, at: int) -> None:
        self.patch(at, body if greedy else out, out if greedy else body)

    def repeat(self, atom: Node, lo: int, hi: int | None, greedy: bool) -> None:
        for _ in range(lo):
            self.node(atom)
        if hi is None:
            split = self.emit(_SPLIT)
            self.node(atom)
            self.emit(_JMP, split)
            self._split(greedy, split + 1, len(self.prog), split)
            return
        splits: list[int] = []
        for _ in range(hi - lo):
            splits.append(self.emit(_SPLIT))
            self.node(atom)
        for split in splits:
            self._split(greedy, split + 1, len(self.prog), split)


@dataclass(frozen=True)
class Match:
    """A match: its span and its groups' spans (-1 for a group that did not take part)."""

    string: str
    spans: tuple[int, ...]  # start, end of group 0, 1, …
    pattern: SafePattern

    def span(self, group: int = 0) -> tuple[int, int]:
        return self.spans[2 * group], self.spans[2 * group + 1]

    def start(self, group: int = 0) -> int:
        return self.spans[2 * group]

    def end(self, group: int = 0) -> int:
        return self.spans[2 * group + 1]

    def group(self, group: int = 0) -> str | None:
        start, end = self.span(group)
        return None if start < 0 or end < 0 else self.string[start:end]

    def expand(self, template: Template) -> str:
        return "".join(
            piece if isinstance(piece, str) else (self.group(piece) or "")
            for piece in template.pieces
        )


class SafePattern:
    """A compiled pattern; `finditer` and `search` run in linear time under a `Budget`."""

    def __init__(
        self,
        pattern: str,
        *,
        ignore_case: bool = False,
        edge_word: Callable[[str], bool] | None = None,
    ) -> None:
        """`edge_word`: the match must start and end at an edge of a word made of such
        characters (not between two of them), as a whole-word search needs."""
        parser = Parser(pattern, ignore_case)
        tree = parser.parse()
        compiler = _Compiler()
        compiler.emit(_SAVE, 0)
        if edge_word is not None:
            compiler.emit(_ASSERT, EDGE)
        compiler.node(tree)
        if edge_word is not None:
            compiler.emit(_ASSERT, EDGE)
        compiler.emit(_SAVE, 1)
        compiler.emit(_MATCH)
        self.pattern = pattern
        self.groups = parser.groups
        self.groupindex = dict(parser.names)
        self.program: tuple[Instruction, ...] = tuple(compiler.prog)
        self._edge_word = edge_word or is_word
        self._anchored = _anchored(self.program)
        self._first = _first_tests(self._first_chars())
        self._empty = (-1,) * (2 * self.groups + 2)

    # -- the virtual machine ----------------------------------------------------------------

    def _assert(self, kind: int, text: str, i: int) -> bool:
        n = len(text)
        if kind == BOS:
            return i == 0
        if kind == EOS:
            return i == n
        if kind == EOS_NL:
            return i == n or (i == n - 1 and text[i] == "\n")
        if kind == BOL:
            return i == 0 or text[i - 1] == "\n"
        if kind == EOL:
            return i == n or text[i] == "\n"
        if kind == EDGE:
            edge = self._edge_word
            return not (i > 0 and i < n and edge(text[i - 1]) and edge(text[i]))
        before = i > 0 and is_word(text[i - 1])
        after = i < n and is_word(text[i])
        return (before != after) == (kind == WORD_B)

    def _closure(
        self,
        threads: list[tuple[int, tuple[int, ...]]],
        seen: set[int],
        pc: int,
        caps: tuple[int, ...],
        text: str,
        i: int,
    ) -> int:
        """Add the thread at `pc` and everything reachable without reading a character, in
        priority order; returns the steps taken."""
        program = self.program
        stack = [(pc, caps)]
        steps = 0
        while stack:
            pc, caps = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            steps += 1
            op, a, b = program[pc]
            if op == _JMP:
                stack.append((a, caps))
            elif op == _SPLIT:
                stack.append((b, caps))
                stack.append((a, caps))
            elif op == _SAVE:
                slot = int(a)
                stack.append((pc + 1, (*caps[:slot], i, *caps[slot + 1 :])))
            elif op == _ASSERT:
                if self._assert(a, text, i):
                    stack.append((pc + 1, caps))
            else:
                threads.append((pc, caps))
        return steps

    def _first_chars(self) -> list[Instruction] | None:
        """The instructions that can read the first character, or None when a match may be
        empty or start with an assertion that needs the context (no skipping then)."""
        found: list[Instruction] = []
        stack, seen = [0], set()
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            op, a, b = self.program[pc]
            if op in (_JMP,):
                stack.append(int(a))
            elif op == _SPLIT:
                stack += [int(a), int(b)]
            elif op in (_SAVE, _ASSERT):
                stack.append(pc + 1)
            elif op == _MATCH:
                return None
            else:
                found.append(self.program[pc])
        return found

    def search(self, text: str, pos: int, budget: Budget, no_empty_at: int = -1) -> Match | None:
        """The leftmost-first match at or after `pos`; none that is empty at `no_empty_at`
        (Python's rule right after an empty match)."""
        program = self.program
        n = len(text)
        first = self._first
        clist: list[tuple[int, tuple[int, ...]]] = []
        cseen: set[int] = set()
        matched: tuple[int, ...] | None = None
        i = pos
        while True:
            if matched is None and (i == pos or not self._anchored):
                if not clist and first is not None:
                    skipped = i
                    while i < n and not first(text[i]):
                        i += 1
                    budget.spend(i - skipped)
                    if i >= n:
                        return None
                budget.spend(self._closure(clist, cseen, 0, self._empty, text, i))
            if not clist and (matched is not None or i >= n or self._anchored):
                break
            nlist: list[tuple[int, tuple[int, ...]]] = []
            nseen: set[int] = set()
            steps = len(clist)
            char = text[i] if i < n else ""
            for pc, caps in clist:
                op, a, _ = program[pc]
                if op == _MATCH:
                    if caps[0] == i == no_empty_at:
                        continue
                    matched = (caps[0], i, *caps[2:])
                    break  # the threads after this one have lower priority
                if char and (
                    (op == _CHAR and char == a)
                    or (op == _SET and _folded_in(char, a))
                    or (op == _CLASS and a.matches(char))
                    or (op == _ANY and (a or char != "\n"))
                ):
                    steps += self._closure(nlist, nseen, pc + 1, caps, text, i + 1)
            budget.spend(steps)
            clist, cseen = nlist, nseen
            if i >= n:
                break
            i += 1
        return None if matched is None else Match(text, matched, self)

    def finditer(self, text: str, budget: Budget) -> Iterator[Match]:
        """Every match, left to right, as `re.finditer` finds them."""
        pos = 0
        no_empty_at = -1
        while pos <= len(text):
            found = self.search(text, pos, budget, no_empty_at)
            if found is None:
                return
            yield found
            start, pos = found.span()
            no_empty_at = pos if start == pos else -1

    def template(self, text: str) -> Template:
        """Parse a replacement (`\\1`, `\\g<name>`, `\\n`): `PatternError` if it names a
        group the pattern does not have or has a bad escape."""
        return Template.parse(text, self.groups, self.groupindex)


def _folded_in(char: str, variants: frozenset[str]) -> bool:
    """Whether `char` is one of a literal's case variants (the Kelvin sign is a "k")."""
    return char in variants or char.lower() in variants or char.upper() in variants


def _anchored(program: tuple[Instruction, ...]) -> bool:
    """Whether every match must start at the beginning of the text (`^…`, `\\A…`)."""
    pc = 0
    while program[pc][0] == _SAVE:
        pc += 1
    op, a, _ = program[pc]
    return op == _ASSERT and a == BOS


def _first_tests(instructions: list[Instruction] | None) -> Callable[[str], bool] | None:
    """A test for characters a match can start with, to skip the rest quickly."""
    if instructions is None:
        return None
    chars: set[str] = set()
    folded: set[str] = set()
    classes: list[CharClass] = []
    for op, a, _ in instructions:
        if op == _CHAR:
            chars.add(str(a))
        elif op == _SET:
            folded |= a
        elif op == _CLASS:
            classes.append(a)
        else:
            return None  # `.` can start anywhere (but a newline)
    exact, variants = frozenset(chars), frozenset(folded)
    if not classes and not variants:
        return exact.__contains__
    return lambda ch: (
        ch in exact
        or (bool(variants) and _folded_in(ch, variants))
        or any(c.matches(ch) for c in classes)
    )
