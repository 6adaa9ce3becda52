"""The deterministic rule parser: words and symbols → a rule tree, with errors that point into
what the user typed.

Two layers. The formal one: brackets, the symbols `& && | ||` and the words `AND`, `OR`, `NOT`
written in capitals, with AND binding tighter than OR (what `render_rule` writes, so a rendered
rule reads back as itself). Between formal operators lies a stretch of words read the way a
person means them (`reading`): "lights in the kitchen or the dining room", "厨房或餐厅的灯",
"Lampen außer im Bad". Preprocessing folds width, brackets and quotes; each language's
connectives (and/or, except, "以外", "的") are found between words and inside unspaced CJK runs,
never inside a tag the home knows.
"""

from __future__ import annotations

from ..base.text import normalize
from .model import GroupNode, RuleNode, RuleSyntaxError, TagNode
from .reading import PLAIN, Item, Lens, alternatives, read
from .tokens import FORMAL_WORDS, Connectives, Kind, Token, tokenize


def render_rule(rule: RuleNode, connectives: Connectives | None = None, *, top: bool = True) -> str:
    """The rule as text the parser reads back: `灯 AND (厨房 OR 客厅) AND NOT 车库`. A tag that
    holds a symbol or one of `connectives` (default: and/or/not) is quoted."""
    if isinstance(rule, TagNode):
        return f'"{rule.tag}"' if _needs_quotes(rule.tag, connectives) else rule.tag
    if rule.op == "NOT":
        return f"NOT {render_rule(rule.children[0], connectives, top=False)}"
    inner = f" {rule.op} ".join(render_rule(c, connectives, top=False) for c in rule.children)
    return inner if top or len(rule.children) == 1 else f"({inner})"


def _needs_quotes(tag: str, connectives: Connectives | None) -> bool:
    if any(ch in tag for ch in '()&|",;、') or not tag.strip():
        return True
    words = tuple(normalize(tag).split())
    vocabulary: dict[tuple[str, ...], Kind] = (
        connectives.words if connectives else {("and",): "AND", ("or",): "OR", ("not",): "NOT"}
    )
    if any(w.upper() in FORMAL_WORDS for w in words):
        return True
    for size in range(1, (connectives.max_words if connectives else 1) + 1):
        if any(words[i : i + size] in vocabulary for i in range(len(words) - size + 1)):
            return True
    return bool(connectives) and any(c in tag for c, _ in connectives.cjk)  # type: ignore[union-attr]


_MAX_PARENS = 64
_DANGLING = frozenset({"AND", "OR", "NOT"})
_NATURAL = frozenset({"TAG", "AND", "OR", "NOT", "NOT_AFTER", "OF", "SEP", "("})


class _Parser:
    """expr := and_expr (OR and_expr)* ; and_expr := words (AND words)* (formal AND/OR);
    words := (TAG | connective word | '(' expr ')')+, read by `reading.read`."""

    def __init__(self, toks: list[Token], origin: list[int], length: int, lens: Lens) -> None:
        self.toks = toks
        self.origin = origin
        self.length = length
        self.lens = lens
        self.i = 0
        self.depth = 0

    def pos(self, tok: Token | None) -> int:
        if tok is None:
            return self.length
        return self.origin[tok.start] if tok.start < len(self.origin) else self.length

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def parse(self) -> RuleNode:
        node = self.expr()
        tok = self.peek()
        if tok is not None:
            if tok.kind == ")":
                raise RuleSyntaxError(
                    "unexpected_close", self.pos(tok), "')' without a matching '('"
                )
            raise RuleSyntaxError(  # pragma: no cover - every other token is read above
                "missing_operator", self.pos(tok), f"expected AND or OR before '{tok.value}'"
            )
        return node

    def _formal(self, kind: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == kind and tok.formal

    def expr(self) -> RuleNode:
        children = [self.and_expr()]
        while self._formal("OR"):
            self.i += 1
            children.append(self.and_expr())
        if len(children) == 1:
            return children[0][0]
        # "Lights in Kitchen OR Dining Room": shared words distribute here too; a bracketed
        # operand (what `render_rule` writes for every group) keeps its own words.
        return alternatives([node for node, _ in children], [b for _, b in children], self.lens)

    def and_expr(self) -> tuple[RuleNode, bool]:
        children = [self.words()]
        while self._formal("AND"):
            self.i += 1
            children.append(self.words())
        bare = all(b for _, b in children)
        if len(children) == 1:
            return children[0][0], bare
        return GroupNode("AND", tuple(node for node, _ in children)), bare

    def words(self) -> tuple[RuleNode, bool]:
        """A stretch of words up to the next formal AND/OR, ')' or the end."""
        items: list[Item] = []
        while (tok := self.peek()) is not None and tok.kind in _NATURAL:
            if tok.kind in ("AND", "OR") and tok.formal:
                break
            if tok.kind == "(":
                items.append(Item("UNIT", tok.value, self.pos(tok), node=self.bracket()))
                continue
            self.i += 1
            if tok.kind == "TAG":
                items.append(Item("WORDS", tok.value, self.pos(tok), quoted=tok.quoted))
            else:
                items.append(Item(tok.kind, tok.value, self.pos(tok)))  # type: ignore[arg-type]
        if not items:
            tok = self.peek()
            if tok is None:
                after = self.toks[-1].value if self.toks else ""
                raise RuleSyntaxError(
                    "expected_tag",
                    self.length,
                    f"expected a tag after '{after}'" if after else "expected a tag",
                )
            if tok.kind == ")":
                raise RuleSyntaxError("unexpected_close", self.pos(tok), "')' where a tag belongs")
            raise RuleSyntaxError(
                "expected_tag", self.pos(tok), f"expected a tag or '(' before '{tok.value}'"
            )
        following = self.peek()
        if following is not None and following.kind == ")" and items[-1].kind in _DANGLING:
            raise RuleSyntaxError(
                "unexpected_close", self.pos(following), "')' where a tag belongs"
            )
        bare = not any(item.kind == "UNIT" for item in items)
        return read(items, self.lens, self.pos(following)), bare

    def bracket(self) -> RuleNode:
        tok = self.peek()
        assert tok is not None
        self.depth += 1
        if self.depth > _MAX_PARENS:
            raise RuleSyntaxError(
                "too_deep", self.pos(tok), f"brackets may nest at most {_MAX_PARENS} deep"
            )
        self.i += 1
        if (inner := self.peek()) is not None and inner.kind == ")":
            raise RuleSyntaxError("empty_group", self.pos(tok), "'()' holds nothing")
        node = self.expr()
        close = self.peek()
        if close is None or close.kind != ")":
            raise RuleSyntaxError("unclosed_paren", self.pos(tok), "'(' is never closed")
        self.i += 1
        self.depth -= 1
        return node


def parse_rule(
    text: str,
    connectives: Connectives,
    known: frozenset[str] = frozenset(),
    lens: Lens = PLAIN,
) -> GroupNode:
    """Parse a rule; the root is always a group. Raises `RuleSyntaxError`. `lens` knows what
    the home's words are (`views.lens.HomeLens`); without it every stretch of words is one tag
    and AND binds tighter than OR."""
    if not text or not text.strip():
        raise RuleSyntaxError("empty", 0, "the rule is empty")
    toks, origin = tokenize(text, connectives, known)
    if not toks:
        raise RuleSyntaxError("empty", 0, "the rule is empty")
    node = _Parser(toks, origin, len(text), lens).parse()
    return node if isinstance(node, GroupNode) else GroupNode("AND", (node,))


__all__ = ["Connectives", "Token", "parse_rule", "render_rule", "tokenize"]
