"""View rules (seed 000): a boolean rule over tags, written in words, compiled to canonical JSON.

"灯 并且 (客厅 或 厨房)" and "christmas and (living room or porch)" compile to
`{"kind": "group", "op": "AND", "children": [...]}` through four steps: preprocessing (width,
spaces, connectives), a deterministic parser (AND binds tighter than OR), an LLM fallback when
the parser fails or leaves tags it cannot place, and a validator + canonicaliser. The rule is
then evaluated by set algebra over the home's tags (`TagUniverse`).

A tag is a label name by default; `area:`, `floor:`, `domain:`, `device_class:` and `type:`
match those attributes. A bare tag that is no label may still name an area, a floor or a device
type ("灯", "lights"), in that order. Names, ids and aliases all resolve.
"""

from __future__ import annotations

import asyncio
import heapq
import json
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rapidfuzz import fuzz, process

from .command_parser import LLMClient
from .lexicon import LexiconSet
from .models import Area, Device, Floor
from .text import has_cjk, is_cjk, normalize, strip_controls, tokens

PARSE_VERSION = "1"
MAX_DEPTH = 8
MAX_NODES = 128
MAX_RULE_LENGTH = 2000
SAMPLE_SIZE = 10
NAMESPACES = ("label", "area", "floor", "domain", "device_class", "type")

Op = Literal["AND", "OR"]
ErrorCode = Literal["PARSE_ERROR", "LLM_TIMEOUT", "VALIDATION_ERROR"]


# --- AST -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TagNode:
    tag: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": "tag", "tag": self.tag}


@dataclass(frozen=True, slots=True)
class GroupNode:
    op: Op
    children: tuple[RuleNode, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"kind": "group", "op": self.op,
                "children": [child.as_dict() for child in self.children]}


RuleNode = TagNode | GroupNode


def rule_to_json(rule: RuleNode) -> str:
    """The stored form: compact, key order fixed, CJK kept as written."""
    return json.dumps(rule.as_dict(), ensure_ascii=False, separators=(",", ":"))


def render_rule(rule: RuleNode, connectives: Connectives | None = None, *,
                top: bool = True) -> str:
    """The rule as text the parser reads back: `灯 AND (厨房 OR 客厅)`. A tag that holds a
    symbol or one of `connectives` (default: and/or) is quoted."""
    if isinstance(rule, TagNode):
        return f'"{rule.tag}"' if _needs_quotes(rule.tag, connectives) else rule.tag
    inner = f" {rule.op} ".join(render_rule(c, connectives, top=False) for c in rule.children)
    return inner if top or len(rule.children) == 1 else f"({inner})"


def _needs_quotes(tag: str, connectives: Connectives | None) -> bool:
    if any(ch in tag for ch in '()&|"') or not tag.strip():
        return True
    words = tuple(normalize(tag).split())
    vocabulary = connectives.words if connectives else {("and",): "AND", ("or",): "OR"}
    for size in range(1, (connectives.max_words if connectives else 1) + 1):
        if any(words[i:i + size] in vocabulary for i in range(len(words) - size + 1)):
            return True
    return bool(connectives) and any(c in tag for c, _ in connectives.cjk)  # type: ignore[union-attr]


# --- errors ----------------------------------------------------------------------------------

class RuleSyntaxError(ValueError):
    """The text is not a rule. `position` is a 0-based index into the text as given."""

    def __init__(self, reason: str, position: int, message: str) -> None:
        super().__init__(f"{message} (position {position})")
        self.reason = reason
        self.position = position
        self.message = message


class RuleValidationError(ValueError):
    """A structure that is not an allowed rule (from the LLM, a file, or an oversized text)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


# --- step 1: preprocessing -------------------------------------------------------------------

_OPEN = frozenset("(【〔［[{〖")
_CLOSE = frozenset(")】〕］]}〗")
_QUOTES = frozenset('"“”«»„「」『』')


def _preprocess(text: str) -> tuple[str, list[int]]:
    """Width-fold and tidy `text` character by character, remembering where each came from,
    so errors point into what the user typed."""
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            out = " "
        elif ch.isascii() and ch.isprintable():
            out = ch
        else:
            out = unicodedata.normalize("NFKC", strip_controls(ch))
        for c in out:
            if c in _OPEN:
                c = "("
            elif c in _CLOSE:
                c = ")"
            elif c in _QUOTES:
                c = '"'
            elif c.isspace():
                c = " "
            chars.append(c)
            origin.append(i)
    return "".join(chars), origin


# --- step 2: tokens and parser ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Token:
    kind: Literal["(", ")", "AND", "OR", "TAG"]
    value: str
    start: int  # in the preprocessed text
    quoted: bool = False


@dataclass(frozen=True, slots=True)
class Connectives:
    """The connective words in effect, beside the symbols `& && | ||`."""

    words: dict[tuple[str, ...], Op]  # space-separated scripts, as word sequences
    cjk: tuple[tuple[str, Op], ...]  # found inside unspaced runs; longest first
    max_words: int

    @classmethod
    def from_lexicons(cls, lexicons: LexiconSet, languages: Iterable[str | None] = ()
                      ) -> Connectives:
        """English's and `languages`' words, and every language's CJK connectives (they
        cannot be mistaken for a Latin word). Other languages' words are left out so that a
        one-letter word of one ("o", "e", "и") stays part of a tag in another."""
        words: dict[tuple[str, ...], Op] = {("and",): "AND", ("or",): "OR"}
        cjk: dict[str, Op] = {}
        chosen = {lexicons.get("en").language} | {lexicons.get(lang).language
                                                  for lang in languages if lang}
        for lang, lex in sorted(lexicons.lexicons.items()):
            pairs: tuple[tuple[Op, tuple[str, ...]], ...] = (("AND", lex.rule_and),
                                                              ("OR", lex.rule_or))
            for op, items in pairs:
                for item in items:
                    if not item or set(item) <= set("&|"):
                        continue
                    if has_cjk(item):
                        cjk.setdefault(item, op)
                    elif lang in chosen:
                        words.setdefault(tuple(item.split()), op)
        ordered = tuple(sorted(cjk.items(), key=lambda kv: (-len(kv[0]), kv[0])))
        return cls(words, ordered, max(len(k) for k in words))


def tokenize(text: str, connectives: Connectives,
             known: frozenset[str] = frozenset()) -> tuple[list[Token], list[int]]:
    """Tokens of a rule and the map from preprocessed to original positions.

    `known` holds the home's tag surfaces (normalised): a run of words or characters that is a
    known tag is never split at a connective inside it ("Rock and Roll", "和室").
    """
    if len(text) > MAX_RULE_LENGTH:
        raise RuleSyntaxError("too_long", MAX_RULE_LENGTH,
                              f"a rule may be at most {MAX_RULE_LENGTH} characters")
    pre, origin = _preprocess(text)
    raw: list[Token] = []
    words: list[tuple[str, int]] = []  # the current run of plain words, flushed at symbols

    longest = max(map(len, known), default=0)

    def flush() -> None:
        raw.extend(_word_tokens(words, pre, connectives, known, longest))
        words.clear()

    i, n = 0, len(pre)
    while i < n:
        ch = pre[i]
        if ch == " ":
            i += 1
        elif ch in "()":
            flush()
            raw.append(Token(ch, ch, i))  # type: ignore[arg-type]
            i += 1
        elif ch in "&|":
            flush()
            j = i
            while j < n and pre[j] == ch:
                j += 1
            if j - i > 2:
                raise RuleSyntaxError("bad_operator", origin[i], f"'{pre[i:j]}' is no operator")
            raw.append(Token("AND" if ch == "&" else "OR", pre[i:j], i))
            i = j
        elif ch == '"':
            flush()
            end = pre.find('"', i + 1)
            if end < 0:
                raise RuleSyntaxError("unterminated_quote", origin[i], "a quote is not closed")
            value = " ".join(pre[i + 1:end].split())
            if not value:
                raise RuleSyntaxError("empty_tag", origin[i], "the quotes hold no tag")
            raw.append(Token("TAG", value, i, quoted=True))
            i = end + 1
        else:
            j = i
            while j < n and pre[j] not in ' ()&|"':
                j += 1
            words.append((pre[i:j], i))
            i = j
    flush()
    return _merge_tags(raw, pre), origin


def _word_tokens(words: list[tuple[str, int]], pre: str, connectives: Connectives,
                 known: frozenset[str], longest_known: int) -> list[Token]:
    """Connectives and tag pieces of a run of words; pieces are merged into tags later."""
    out: list[Token] = []
    folded = [normalize(w) for w, _ in words]
    i = 0
    while i < len(words):
        # A known multi-word tag wins over a connective inside it.
        span = _known_span(folded, i, known)
        if span > 1:
            start = words[i][1]
            last_word, last_start = words[i + span - 1]
            out.append(Token("TAG", pre[start:last_start + len(last_word)], start))
            i += span
            continue
        op, size = _connective_at(folded, i, connectives)
        if op is not None:
            out.append(Token(op, " ".join(w for w, _ in words[i:i + size]), words[i][1]))
            i += size
            continue
        word, start = words[i]
        if connectives.cjk and has_cjk(word):
            out.extend(_split_cjk(word, start, connectives, known, longest_known))
        else:
            out.append(Token("TAG", word, start))
        i += 1
    return out


def _known_span(folded: list[str], i: int, known: frozenset[str]) -> int:
    for size in range(min(6, len(folded) - i), 1, -1):
        if " ".join(folded[i:i + size]) in known:
            return size
    return 0


def _connective_at(folded: list[str], i: int, connectives: Connectives) -> tuple[Op | None, int]:
    for size in range(min(connectives.max_words, len(folded) - i), 0, -1):
        op = connectives.words.get(tuple(folded[i:i + size]))
        if op is not None:
            return op, size
    return None, 0


def _split_cjk(word: str, start: int, connectives: Connectives, known: frozenset[str],
               longest_known: int) -> list[Token]:
    """Find connectives inside an unspaced run ("灯并且客厅"), never inside a known tag."""
    out: list[Token] = []
    piece_start = 0
    i = 0
    while i < len(word):
        span = 0
        if is_cjk(word[i]):
            for size in range(min(longest_known, len(word) - i), 1, -1):
                if normalize(word[i:i + size]) in known:
                    span = size
                    break
        if span:
            i += span
            continue
        hit = next(((c, op) for c, op in connectives.cjk if word.startswith(c, i)), None)
        if hit is None:
            i += 1
            continue
        if i > piece_start:
            out.append(Token("TAG", word[piece_start:i], start + piece_start))
        out.append(Token(hit[1], hit[0], start + i))
        i += len(hit[0])
        piece_start = i
    if piece_start < len(word):
        out.append(Token("TAG", word[piece_start:], start + piece_start))
    return out


def _merge_tags(raw: list[Token], pre: str) -> list[Token]:
    """Adjacent unquoted tag pieces are one multi-word tag: `living room`."""
    out: list[Token] = []
    for tok in raw:
        prev = out[-1] if out else None
        if (tok.kind == "TAG" and prev is not None and prev.kind == "TAG"
                and not tok.quoted and not prev.quoted):
            end = tok.start + len(tok.value)
            out[-1] = Token("TAG", " ".join(pre[prev.start:end].split()), prev.start)
        else:
            out.append(tok)
    return out


# Redundant brackets are flattened away later; this only keeps recursion bounded.
_MAX_PARENS = 64


class _Parser:
    """expr := and_expr (OR and_expr)* ; and_expr := primary (AND primary)* ;
    primary := TAG | '(' expr ')'."""

    def __init__(self, toks: list[Token], origin: list[int], length: int) -> None:
        self.toks = toks
        self.origin = origin
        self.length = length
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
                raise RuleSyntaxError("unexpected_close", self.pos(tok),
                                      "')' without a matching '('")
            raise RuleSyntaxError("missing_operator", self.pos(tok),
                                  f"expected AND or OR before '{tok.value}'")
        return node

    def expr(self) -> RuleNode:
        children = [self.and_expr()]
        while (tok := self.peek()) is not None and tok.kind == "OR":
            self.i += 1
            children.append(self.and_expr())
        return children[0] if len(children) == 1 else GroupNode("OR", tuple(children))

    def and_expr(self) -> RuleNode:
        children = [self.primary()]
        while (tok := self.peek()) is not None and tok.kind == "AND":
            self.i += 1
            children.append(self.primary())
        return children[0] if len(children) == 1 else GroupNode("AND", tuple(children))

    def primary(self) -> RuleNode:
        tok = self.peek()
        if tok is None:
            after = self.toks[-1].value if self.toks else ""
            raise RuleSyntaxError("expected_tag", self.length,
                                  f"expected a tag after '{after}'" if after
                                  else "expected a tag")
        if tok.kind == "TAG":
            self.i += 1
            return TagNode(tok.value)
        if tok.kind == "(":
            self.depth += 1
            if self.depth > _MAX_PARENS:
                raise RuleSyntaxError("too_deep", self.pos(tok),
                                      f"brackets may nest at most {_MAX_PARENS} deep")
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
        if tok.kind == ")":
            raise RuleSyntaxError("unexpected_close", self.pos(tok), "')' where a tag belongs")
        raise RuleSyntaxError("expected_tag", self.pos(tok),
                              f"expected a tag or '(' before '{tok.value}'")


def parse_rule(text: str, connectives: Connectives,
               known: frozenset[str] = frozenset()) -> GroupNode:
    """Parse a rule; the root is always a group. Raises `RuleSyntaxError`."""
    if not text or not text.strip():
        raise RuleSyntaxError("empty", 0, "the rule is empty")
    toks, origin = tokenize(text, connectives, known)
    if not toks:
        raise RuleSyntaxError("empty", 0, "the rule is empty")
    node = _Parser(toks, origin, len(text)).parse()
    return node if isinstance(node, GroupNode) else GroupNode("AND", (node,))


# --- step 4: validator and canonicaliser -----------------------------------------------------

def validate(data: Any) -> GroupNode:
    """Check a rule given as data (dicts and lists) and build its AST."""
    if not isinstance(data, Mapping) or data.get("kind") != "group":
        raise RuleValidationError("root_not_group", "the root of a rule must be a group")
    count = 0

    def build(node: Any, depth: int) -> RuleNode:
        nonlocal count
        count += 1
        if count > MAX_NODES:
            raise RuleValidationError("too_many_nodes",
                                      f"a rule may have at most {MAX_NODES} nodes")
        if depth > MAX_DEPTH:
            raise RuleValidationError("too_deep", f"a rule may nest at most {MAX_DEPTH} levels")
        if not isinstance(node, Mapping):
            raise RuleValidationError("bad_node", "every node must be an object")
        kind = node.get("kind")
        if kind == "tag":
            tag = node.get("tag")
            if not isinstance(tag, str) or not " ".join(tag.split()):
                raise RuleValidationError("empty_tag", "a tag must be non-empty text")
            if len(tag) > 200:
                raise RuleValidationError("bad_node", "a tag may be at most 200 characters")
            return TagNode(tag)
        if kind != "group":
            raise RuleValidationError("bad_node", f"unknown node kind {kind!r}")
        op = node.get("op")
        if op not in ("AND", "OR"):
            raise RuleValidationError("bad_operator", f"operator {op!r} is not AND or OR")
        children = node.get("children")
        if not isinstance(children, list) or not children:
            raise RuleValidationError("empty_group", "a group needs at least one child")
        return GroupNode(op, tuple(build(child, depth + 1) for child in children))

    root = build(data, 1)
    assert isinstance(root, GroupNode)
    return root


def canonical_tag(tag: str) -> str:
    """Trim, fold width, collapse spaces and lower-case letters (CJK is kept as written);
    a namespace prefix loses its spaces: `Area : Living Room` → `area:living room`."""
    text = " ".join(unicodedata.normalize("NFKC", strip_controls(tag)).split()).lower()
    if ":" in text:
        prefix, _, rest = text.partition(":")
        if prefix.strip() in NAMESPACES and rest.strip():
            return f"{prefix.strip()}:{rest.strip()}"
    return text


def canonicalize(rule: GroupNode) -> GroupNode:
    """Equal rules get equal JSON: tags tidied, same-operator groups flattened, one-child groups
    unwrapped, duplicates dropped, siblings sorted by kind/tag/op."""
    node = _canon(rule)
    if isinstance(node, TagNode):
        return GroupNode("AND", (node,))
    return node


def _canon(node: RuleNode) -> RuleNode:
    if isinstance(node, TagNode):
        return TagNode(canonical_tag(node.tag))
    flat: list[RuleNode] = []
    for child in (_canon(c) for c in node.children):
        if isinstance(child, GroupNode) and child.op == node.op:
            flat.extend(child.children)
        else:
            flat.append(child)
    unique: dict[str, RuleNode] = {}
    for child in flat:
        unique.setdefault(rule_to_json(child), child)
    ordered = sorted(unique.items(), key=lambda kv: _sort_key(kv[1], kv[0]))
    children = tuple(child for _, child in ordered)
    if len(children) == 1:
        return children[0]
    return GroupNode(node.op, children)


def _sort_key(node: RuleNode, serial: str) -> tuple[int, str, str, str]:
    # Tags before groups, as in the seed's example; then by tag text, operator, content.
    if isinstance(node, TagNode):
        return (0, node.tag, "", serial)
    return (1, "", node.op, serial)


def count_nodes(rule: RuleNode) -> tuple[int, int]:
    """(nodes, depth) of a rule."""
    if isinstance(rule, TagNode):
        return 1, 1
    nodes, depth = 1, 0
    for child in rule.children:
        n, d = count_nodes(child)
        nodes += n
        depth = max(depth, d)
    return nodes, depth + 1


def check_limits(rule: GroupNode) -> None:
    nodes, depth = count_nodes(rule)
    if nodes > MAX_NODES:
        raise RuleValidationError("too_many_nodes", f"a rule may have at most {MAX_NODES} nodes")
    if depth > MAX_DEPTH:
        raise RuleValidationError("too_deep", f"a rule may nest at most {MAX_DEPTH} levels")


def tags_of(rule: RuleNode) -> list[str]:
    if isinstance(rule, TagNode):
        return [rule.tag]
    return [tag for child in rule.children for tag in tags_of(child)]


# --- the home's tags and evaluation ----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Resolution:
    """What a tag stands for in this home: `kind` and the matched ids ("area", ("kitchen",))."""

    kind: str
    targets: tuple[str, ...]
    members: frozenset[str]

    def describe(self) -> str:
        return f"{self.kind}:{','.join(self.targets)}"


def _identifier(value: str) -> str:
    """A normalised word back as a Home Assistant identifier: "binary-sensor" → binary_sensor."""
    return value.replace(" ", "_").replace("-", "_")


_SKIPPABLE = frozenset({"filler", "determiner", "area_prep", "target_prep"})


@dataclass(slots=True)
class TagUniverse:
    """Every entity's tags (labels, area, floor, domain, device class) as inverted postings,
    plus the names, ids and aliases they go by. Rules are evaluated against this."""

    lexicons: LexiconSet
    devices: dict[str, Device] = field(default_factory=dict)
    label_names: dict[str, str] = field(default_factory=dict)  # normalised name → name
    label_ids: dict[str, str] = field(default_factory=dict)  # label id → name
    by_label: dict[str, frozenset[str]] = field(default_factory=dict)
    by_area: dict[str, frozenset[str]] = field(default_factory=dict)
    by_floor: dict[str, frozenset[str]] = field(default_factory=dict)
    by_domain: dict[str, frozenset[str]] = field(default_factory=dict)
    by_class: dict[str, frozenset[str]] = field(default_factory=dict)
    by_domain_class: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    area_surfaces: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    floor_surfaces: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    area_names: dict[str, str] = field(default_factory=dict)
    floor_names: dict[str, str] = field(default_factory=dict)
    _cache: dict[str, Resolution | None] = field(default_factory=dict)
    _known: frozenset[str] | None = None
    names: set[str] = field(default_factory=set)  # names and aliases as written, for hints
    rank: dict[str, int] = field(default_factory=dict)  # entity → place in area/name order
    ordered: list[str] = field(default_factory=list)  # entities in that order
    device_of: dict[str, str] = field(default_factory=dict)  # entity → device id

    @classmethod
    def build(cls, devices: Iterable[Device], areas: Iterable[Area], floors: Iterable[Floor],
              lexicons: LexiconSet, labels: Mapping[str, str] | None = None) -> TagUniverse:
        """`labels` maps label id → name (labels with no entity yet still resolve)."""
        u = cls(lexicons=lexicons)
        for label_id, name in (labels or {}).items():
            u.label_ids[label_id] = name
            u.label_names.setdefault(normalize(name), name)
            u.names.add(name)
        for area in areas:
            u.area_names[area.area_id] = area.name
            u.names.update((area.name, *area.aliases))
            for surface in (area.area_id, area.name, *area.aliases):
                u.area_surfaces[normalize(surface)].add(area.area_id)
        for floor in floors:
            u.floor_names[floor.floor_id] = floor.name
            u.names.update((floor.name, *floor.aliases))
            for surface in (floor.floor_id, floor.name, *floor.aliases):
                u.floor_surfaces[normalize(surface)].add(floor.floor_id)
        postings: dict[str, dict[Any, set[str]]] = {
            key: defaultdict(set) for key in ("label", "area", "floor", "domain", "class",
                                              "domain_class")}
        for device in devices:
            eid = device.entity_id
            u.devices[eid] = device
            for label in device.labels:
                norm = normalize(label)
                u.label_names.setdefault(norm, label)
                u.names.add(label)
                postings["label"][norm].add(eid)
            if device.area_id:
                postings["area"][device.area_id].add(eid)
            if device.floor_id:
                postings["floor"][device.floor_id].add(eid)
            postings["domain"][device.domain].add(eid)
            if device.device_id:
                u.device_of[eid] = device.device_id
            if device.device_class:
                postings["class"][device.device_class].add(eid)
                postings["domain_class"][(device.domain, device.device_class)].add(eid)
        # Frozen once, so a resolved tag hands out its posting without copying it.
        u.by_label = {k: frozenset(v) for k, v in postings["label"].items()}
        u.by_area = {k: frozenset(v) for k, v in postings["area"].items()}
        u.by_floor = {k: frozenset(v) for k, v in postings["floor"].items()}
        u.by_domain = {k: frozenset(v) for k, v in postings["domain"].items()}
        u.by_class = {k: frozenset(v) for k, v in postings["class"].items()}
        u.by_domain_class = {k: frozenset(v) for k, v in postings["domain_class"].items()}
        # Samples are listed by area then name; ranking once here keeps previews of huge
        # views cheap (a heap over integers, not over normalised names).
        ordered = sorted(u.devices.values(), key=lambda d: (
            normalize(d.area_name or "\uffff"), normalize(d.name), d.entity_id))
        u.ordered = [d.entity_id for d in ordered]
        u.rank = {eid: i for i, eid in enumerate(u.ordered)}
        return u

    def known_surfaces(self) -> frozenset[str]:
        """Every normalised name a bare tag can have; the tokenizer keeps these whole."""
        if self._known is None:
            surfaces = set(self.label_names) | set(self.area_surfaces) | set(
                self.floor_surfaces)
            for lex in self.lexicons.lexicons.values():
                for words in lex.type_words.values():
                    surfaces.update(words)
            self._known = frozenset(s for s in surfaces if s)
        return self._known

    def resolve(self, tag: str) -> Resolution | None:
        """What a tag matches, or None when nothing in the home goes by it."""
        norm = normalize(tag)
        if norm in self._cache:
            return self._cache[norm]
        result = self._resolve(norm)
        if len(self._cache) < 10_000:
            self._cache[norm] = result
        return result

    def _resolve(self, norm: str) -> Resolution | None:
        namespace, value = None, norm
        if ":" in norm:
            prefix, _, rest = norm.partition(":")
            prefix = prefix.strip().replace("-", "_")  # `normalize` wrote "_" as "-"
            if prefix in NAMESPACES and rest.strip():
                namespace, value = prefix, rest.strip()
        order = (namespace,) if namespace else ("label", "area", "floor", "type", "domain",
                                                 "device_class")
        for kind in order:
            found = getattr(self, f"_by_{kind}")(value)
            if found is not None:
                return found
        return None

    def _by_label(self, value: str) -> Resolution | None:
        name = self.label_names.get(value) or self.label_ids.get(value)
        if name is None:
            return None
        return Resolution("label", (name,), self.by_label.get(normalize(name), frozenset()))

    def _by_area(self, value: str) -> Resolution | None:
        ids = self.area_surfaces.get(value)
        if not ids:
            return None
        members = frozenset().union(*(self.by_area.get(a, ()) for a in ids))
        return Resolution("area", tuple(sorted(ids)), members)

    def _by_floor(self, value: str) -> Resolution | None:
        ids = self.floor_surfaces.get(value)
        if not ids:
            return None
        members = frozenset().union(*(self.by_floor.get(f, ()) for f in ids))
        return Resolution("floor", tuple(sorted(ids)), members)

    def _by_domain(self, value: str) -> Resolution | None:
        members = self.by_domain.get(_identifier(value))
        return Resolution("domain", (value,), members) if members else None

    def _by_device_class(self, value: str) -> Resolution | None:
        members = self.by_class.get(_identifier(value))
        return Resolution("device_class", (value,), members) if members else None

    def _by_type(self, value: str) -> Resolution | None:
        """A device-type word of any language ("灯", "lights", "Rollläden"): its first tier
        of (domain, device class) targets that exists in this home."""
        type_ids: list[str] = []
        if _identifier(value) in self.lexicons.types.types:
            type_ids.append(_identifier(value))
        for lex in self.lexicons.lexicons.values():
            for kind, type_id in lex.lookup(lex.keys(value)):
                if kind == "type" and type_id not in type_ids:
                    type_ids.append(type_id)
        members: set[str] = set()
        for type_id in type_ids:
            spec = self.lexicons.types.types.get(type_id)
            if spec is None:
                continue
            for tier in spec.tiers:
                found = set().union(*(
                    self.by_domain.get(domain, ()) if device_class is None
                    else self.by_domain_class.get((domain, device_class), ())
                    for domain, device_class in tier))
                if found:
                    members |= found
                    break
        if not type_ids:
            return None
        return Resolution("type", tuple(type_ids), frozenset(members))

    def evaluate(self, rule: RuleNode) -> tuple[frozenset[str], list[str]]:
        """The entity ids a rule matches, and the tags that resolved to nothing."""
        unresolved: list[str] = []
        hits = self._eval(rule, unresolved)
        return hits, list(dict.fromkeys(unresolved))

    def _eval(self, node: RuleNode, unresolved: list[str]) -> frozenset[str]:
        if isinstance(node, TagNode):
            found = self.resolve(node.tag)
            if found is None:
                unresolved.append(node.tag)
                return frozenset()
            return found.members
        results = [self._eval(child, unresolved) for child in node.children]
        if node.op == "OR":
            return frozenset().union(*results)
        results.sort(key=len)
        return results[0].intersection(*results[1:])

    def suggest(self, tag: str, limit: int = 3) -> list[str]:
        """Known tags close to an unresolved one, for "did you mean …" (names and aliases of
        labels, areas and floors)."""
        norm = normalize(tag)
        if not norm or not self.names:
            return []
        matches = process.extract(norm, sorted(self.names), scorer=fuzz.WRatio, limit=limit,
                                  processor=normalize, score_cutoff=80)
        return [str(m[0]) for m in matches]

    def dictionary(self, limit: int = 200) -> dict[str, list[str]]:
        """The home's tag vocabulary for the LLM compiler."""
        return {
            "labels": sorted(set(self.label_names.values()))[:limit],
            "areas": sorted(self.area_names.values())[:limit],
            "floors": sorted(self.floor_names.values())[:limit],
            "domains": sorted(self.by_domain)[:limit],
            "device_classes": sorted(self.by_class)[:limit],
        }

    def segment(self, term: str, language: str | None = None) -> list[str] | None:
        """Split a tag nothing goes by into tags that exist, skipping filler words:
        "客厅的灯" → ["客厅", "灯"], "christmas lights" → ["christmas", "lights"]."""
        norm = normalize(term)
        toks = list(tokens(norm))
        if len(toks) < 2 or len(toks) > 40:
            return None
        lex = self.lexicons.get(language or self.lexicons.detect(term))

        def join(parts: list[str]) -> str:
            # Spaces only between two words of a spaced script, as `normalize` wrote them.
            out = parts[0]
            for part in parts[1:]:
                out += part if is_cjk(out[-1]) or is_cjk(part[0]) else f" {part}"
            return out

        def skippable(tok: str) -> bool:
            entries = lex.lookup((lex.key(tok),))
            return bool(entries) and all(kind in _SKIPPABLE for kind, _ in entries)

        # best[i] = fewest pieces covering toks[:i], with the pieces.
        best: list[list[str] | None] = [None] * (len(toks) + 1)
        best[0] = []
        for i in range(len(toks)):
            current = best[i]
            if current is None:
                continue
            if skippable(toks[i]) and (best[i + 1] is None or len(current) < len(
                    best[i + 1] or [])):
                best[i + 1] = current
            for j in range(i + 1, min(len(toks), i + 8) + 1):
                piece = join(toks[i:j])
                if self.resolve(piece) is None:
                    continue
                candidate = [*current, piece]
                existing = best[j]
                if existing is None or len(candidate) < len(existing):
                    best[j] = candidate
        result = best[len(toks)]
        return result if result and len(result) >= 2 else None


@dataclass(slots=True)
class Preview:
    """What a rule matches now (seed step 5), with samples the user can check."""

    entity_ids: frozenset[str]
    entity_hits: int
    device_hits: int
    sample_items: list[dict[str, Any]]
    unresolved_tags: list[str]
    suggestions: dict[str, list[str]]
    resolved: dict[str, str]

    @property
    def total_hits(self) -> int:
        return self.entity_hits + self.device_hits

    def as_dict(self) -> dict[str, Any]:
        return {
            "total_hits": self.total_hits,
            "entity_hits": self.entity_hits,
            "device_hits": self.device_hits,
            "sample_items": self.sample_items,
            "unresolved_tags": self.unresolved_tags,
            "suggestions": self.suggestions,
            "resolved": self.resolved,
        }


def preview(rule: RuleNode, universe: TagUniverse, samples: int = SAMPLE_SIZE) -> Preview:
    """Evaluate a rule: entity and device hit counts and up to `samples` matching entities,
    ordered by area then name so the sample reads like the home."""
    hits, unresolved = universe.evaluate(rule)
    devices = set(map(universe.device_of.get, hits))
    devices.discard(None)

    if len(hits) * 20 > len(universe.ordered):
        # A big share of the home: the first matches in home order come quickly.
        first: list[str] = []
        for eid in universe.ordered:
            if eid in hits:
                first.append(eid)
                if len(first) == samples:
                    break
    else:
        first = heapq.nsmallest(samples, hits, key=universe.rank.__getitem__)
    sample_items = [
        {"kind": "entity", "id": eid, "name": universe.devices[eid].name,
         "area": universe.devices[eid].area_name}
        for eid in first
    ]
    resolved: dict[str, str] = {}
    for tag in dict.fromkeys(tags_of(rule)):
        found = universe.resolve(tag)
        if found is not None:
            resolved[tag] = found.describe()
    suggestions = {tag: s for tag in unresolved if (s := universe.suggest(tag))}
    return Preview(hits, len(hits), len(devices), sample_items, unresolved, suggestions,
                   resolved)


# --- the compile chain -----------------------------------------------------------------------

@dataclass(slots=True)
class CompileResult:
    """Seed step 1–4 outcome. `rule` and `rule_json` are set when `ok`; `warnings` say what
    degraded on the way (`llm_timeout`, `llm_invalid`, `llm_error`, `unresolved_tags`)."""

    ok: bool
    rule: GroupNode | None = None
    rule_json: str | None = None
    compile_source: Literal["deterministic", "llm"] | None = None
    rewrite_note: str | None = None
    error_code: ErrorCode | None = None
    error_reason: str | None = None
    error_message: str | None = None
    error_position: int | None = None
    unresolved_tags: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rule_text: str | None = None  # the rule rendered back as parseable text

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ok": self.ok}
        for key in ("rule_json", "compile_source", "rewrite_note", "error_code", "error_reason",
                    "error_message", "error_position"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.rule is not None:
            data["rule"] = self.rule.as_dict()
            data["rule_text"] = self.rule_text or render_rule(self.rule)
        if self.unresolved_tags:
            data["unresolved_tags"] = self.unresolved_tags
        if self.warnings:
            data["warnings"] = self.warnings
        return data


def unresolved_tags(rule: RuleNode, universe: TagUniverse) -> list[str]:
    """The rule's tags that nothing in the home goes by (no set algebra needed)."""
    return list(dict.fromkeys(t for t in tags_of(rule) if universe.resolve(t) is None))


def _success(rule: GroupNode, source: Literal["deterministic", "llm"], note: str | None,
             universe: TagUniverse, connectives: Connectives) -> CompileResult:
    unresolved = unresolved_tags(rule, universe)
    return CompileResult(ok=True, rule=rule, rule_json=rule_to_json(rule), compile_source=source,
                         rewrite_note=note, unresolved_tags=unresolved,
                         warnings=["unresolved_tags"] if unresolved else [],
                         rule_text=render_rule(rule, connectives))


def compile_deterministic(text: str, universe: TagUniverse,
                          language: str | None = None) -> CompileResult:
    """Steps 1, 2 and 4 without any model. Unresolved multi-word tags are split into tags that
    exist when that covers them ("christmas lights" → christmas AND lights), with a note."""
    lexicons = universe.lexicons
    detected = lexicons.detect(text, fallback=language)
    connectives = Connectives.from_lexicons(lexicons, (language, detected))
    try:
        parsed = parse_rule(text, connectives, universe.known_surfaces())
    except RuleSyntaxError as err:
        return CompileResult(ok=False, error_code="PARSE_ERROR", error_reason=err.reason,
                             error_message=err.message, error_position=err.position)
    notes: list[str] = []
    lex = lexicons.get(detected)

    def repair(node: RuleNode) -> RuleNode:
        if isinstance(node, GroupNode):
            return GroupNode(node.op, tuple(repair(c) for c in node.children))
        if universe.resolve(node.tag) is not None:
            return node
        pieces = universe.segment(node.tag, lex.language)
        if pieces is None:
            return node
        group = GroupNode("AND", tuple(TagNode(p) for p in pieces))
        notes.append(lex.message("rule_split", term=node.tag,
                                 rule=render_rule(group, connectives)))
        return group

    repaired = repair(parsed)
    assert isinstance(repaired, GroupNode)
    try:
        rule = canonicalize(repaired)
        check_limits(rule)
    except RuleValidationError as err:
        return CompileResult(ok=False, error_code="VALIDATION_ERROR", error_reason=err.reason,
                             error_message=err.message)
    return _success(rule, "deterministic", "; ".join(notes) or None, universe, connectives)


LLM_SYSTEM_PROMPT = """\
You turn a description of a group of smart-home entities into a boolean rule over tags.
Answer with one JSON object only: {"rule": NODE, "rewrite_note": "one short sentence in the \
user's language saying how you read the text"}.
NODE is {"kind": "tag", "tag": "<tag>"} or {"kind": "group", "op": "AND" or "OR", \
"children": [NODE, ...]}. The root must be a group with at least one child. Only AND and OR \
exist: no NOT, no other keys, at most 8 levels and 128 nodes.
A tag is a label name, or area:<area>, floor:<floor>, domain:<domain>, device_class:<class>, \
type:<device word>. Prefer the tags listed for this home; keep the user's words for anything \
else."""


def llm_user_prompt(text: str, universe: TagUniverse, parser_error: str | None) -> str:
    vocab = universe.dictionary()
    lines = [f"Text: {json.dumps(text, ensure_ascii=False)}", "Tags in this home:"]
    lines += [f"- {key}: {json.dumps(values, ensure_ascii=False)}"
              for key, values in vocab.items() if values]
    if parser_error:
        lines.append(f"The rule parser said: {parser_error}")
    return "\n".join(lines)


def parse_llm_answer(answer: str) -> tuple[GroupNode, str | None]:
    """The rule and note in a model's answer; raises `RuleValidationError` on anything else."""
    data = _load_json_object(answer)
    if isinstance(data, Mapping) and "rule" in data:
        note = data.get("rewrite_note")
        rule = data["rule"]
        if isinstance(rule, str):
            rule = _load_json_object(rule)
        root = validate(rule)
        return root, note.strip() if isinstance(note, str) and note.strip() else None
    return validate(data), None


def _load_json_object(answer: str) -> Any:
    text = answer.strip() if isinstance(answer, str) else ""
    if text.startswith("```"):
        text = text.strip("`")
        text = text.split("\n", 1)[1] if "\n" in text else text
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(text[start:end + 1])
            except (ValueError, RecursionError):
                pass
    raise RuleValidationError("not_json", "the model's answer is not a JSON object")


async def compile_rule(text: str, universe: TagUniverse, *, language: str | None = None,
                       llm: LLMClient | None = None, llm_timeout: float = 15.0) -> CompileResult:
    """The whole chain. The model is asked only when the parser fails or leaves tags that
    nothing in the home goes by; a timeout or bad answer falls back to the parser's draft, or
    to an error that says what happened, never to silence."""
    draft = compile_deterministic(text, universe, language)
    if llm is None or (draft.ok and not draft.unresolved_tags):
        return draft
    if draft.error_reason in ("empty", "too_long"):
        return draft  # nothing a model could fix
    parser_error = draft.error_message if not draft.ok else None
    try:
        answer = await asyncio.wait_for(
            llm.complete(LLM_SYSTEM_PROMPT, llm_user_prompt(text, universe, parser_error)),
            llm_timeout)
    except TimeoutError:
        return _degraded(draft, "llm_timeout", "LLM_TIMEOUT",
                         f"the model did not answer within {llm_timeout:g} s")
    except Exception as err:  # any client failure degrades, never crashes
        return _degraded(draft, "llm_error", "PARSE_ERROR",
                         f"the model could not be asked: {type(err).__name__}")
    try:
        rule, note = parse_llm_answer(answer)
        rule = canonicalize(rule)
        check_limits(rule)
    except RuleValidationError as err:
        code: ErrorCode = "VALIDATION_ERROR" if err.reason != "not_json" else "PARSE_ERROR"
        return _degraded(draft, "llm_invalid", code, f"the model's rule was rejected: "
                                                      f"{err.message}")
    # Only take the model's reading when it places more of the text than the parser did.
    if draft.ok and len(unresolved_tags(rule, universe)) >= len(draft.unresolved_tags):
        draft.warnings.append("llm_not_better")
        return draft
    connectives = Connectives.from_lexicons(universe.lexicons, (
        language, universe.lexicons.detect(text, fallback=language)))
    return _success(rule, "llm", note, universe, connectives)


def _degraded(draft: CompileResult, warning: str, code: ErrorCode,
              message: str) -> CompileResult:
    if draft.ok:
        draft.warnings.append(warning)
        return draft
    parser = f"; the parser said: {draft.error_message}" if draft.error_message else ""
    return CompileResult(ok=False, error_code=code, error_reason=draft.error_reason,
                         error_message=message + parser, error_position=draft.error_position,
                         warnings=[warning])
