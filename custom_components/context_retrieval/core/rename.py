"""Bulk rename of entity names and aliases: plan (preview), apply and restore.

Pure functions, no Home Assistant imports. The integration layer reads the entity registry into
:class:`RenameTarget` objects, shows a :func:`preview`, writes back what :func:`apply` returns, and
keeps a :func:`snapshot` so that :func:`restore_plan` can undo the change later.

Matching rules
--------------
* Text is matched in its NFC-normalised form; characters outside the matched spans keep their
  original code points (only the normalisation segment a match touches is rewritten in NFC).
* ``match_case=False`` (the default) matches case-insensitively.
* ``regex=False`` escapes the find string and inserts the replacement literally (no backslash
  processing). ``regex=True`` allows ``\\1`` / ``\\g<name>`` in the replacement (``Match.expand``);
  a reference to a group that does not exist raises ``RenameError("bad_replacement")``.
* ``whole_word``: a match is rejected when a *non-CJK* word character sits on both sides of
  one of its edges ("lamp" is not in "lampshade"), and when it cuts through one of the home's
  own words given to :func:`preview` or lies inside one without being one (Chinese has no
  spaces between words: "台灯" is in "老台灯" but not in "阳台灯", whose 阳台 is a room, and
  "台" is not in 阳台 either). Otherwise CJK characters count as one word each, so
  whole-word "灯" matches inside "客厅灯".
* ``exclude``: entities the user left out of the rename (rows unticked in the preview).
* Zero-length regex matches are ignored (they would insert text everywhere).
* Regexes run on :mod:`.base.safe_regex`, never on Python's backtracking ``re``: linear in the
  text whatever the pattern (``(a+)+$``, ``.*.*.*#`` included), and all the searches of one
  preview share a :class:`~.base.safe_regex.Budget` of steps and seconds; running out raises
  ``RenameError("regex_budget")``. What linear matching cannot do (back-references,
  look-arounds, conditionals, atomic groups, possessive quantifiers) is refused as
  ``"unsafe_regex"``; a pattern whose program would be too long as ``"regex_too_complex"``.
  Literal finds (``regex=False``) use ``re`` on the escaped text, which is linear.
* A name or alias longer than ``MAX_TEXT_LEN`` is not searched: no rename of it could give a
  name of valid length in practice, and the work per name stays bounded.
* A replacement that would put control, line-break, bidi or zero-width characters into a name
  or alias (literally, or through a regex escape) is refused as ``"hidden_characters"``.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .base.safe_regex import (
    Budget,
    BudgetExceeded,
    PatternError,
    PatternTooComplex,
    SafePattern,
    Template,
    UnsupportedPattern,
)
from .base.text import cuts_a_word, has_hidden_characters

MAX_FIND_LEN = 200
MAX_REPLACE_LEN = 200
MAX_NAME_LEN = 255
MAX_ALIAS_LEN = 255
MAX_TEXT_LEN = 1_000  # longer names and aliases are not searched
MAX_MATCHES = 10_000
SNAPSHOT_VERSION = 1
# What one preview's regular expression may cost: steps of the linear matcher (about a
# microsecond each) and seconds, whichever runs out first.
REGEX_STEPS = 3_000_000
REGEX_SECONDS = 3.0

Target = Literal["names", "aliases", "both"]
Field = Literal["name", "alias"]

# CJK ideographs (incl. extensions and compatibility) and Japanese kana: each one is its own word.
_CJK = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\U00020000-\U0002fa1f\U00030000-\U0003134f"
)
_WORD_NOT_CJK = f"[^\\W{_CJK}]"
_WORD_NOT_CJK_RE = re.compile(_WORD_NOT_CJK)
# Not (non-CJK word char before AND non-CJK word char after) the current position.
_BOUNDARY = f"(?:(?<!{_WORD_NOT_CJK})|(?!{_WORD_NOT_CJK}))"


class RenameError(ValueError):
    """A rename request that cannot be carried out; ``reason`` is a stable machine-readable code."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class RenameTarget:
    """An entity's editable names. ``name=None``: no own name, ``original_name`` is shown."""

    entity_id: str
    name: str | None
    aliases: tuple[str, ...] = ()
    original_name: str | None = None
    area: str | None = None  # the room's name, shown beside each row


@dataclass(frozen=True)
class RenameSpec:
    find: str
    replace: str
    target: Target = "names"
    match_case: bool = False
    whole_word: bool = False
    regex: bool = False
    exclude: tuple[str, ...] = ()


@dataclass(frozen=True)
class RenameChange:
    entity_id: str
    field: Field
    index: int | None  # alias position; None for the name
    before: str
    after: str
    matches: int
    area: str | None = None


@dataclass
class RenamePreview:
    changes: list[RenameChange]
    entities: int  # entities with at least one applicable change
    matches: int  # matches in the applicable changes
    truncated: bool
    summary_counts: dict[str, int]
    skipped: list[dict[str, Any]] = field(default_factory=list)


# --------------------------------------------------------------------------- compiling


def _non_cjk_word(ch: str) -> bool:
    return _WORD_NOT_CJK_RE.match(ch) is not None


@dataclass(frozen=True)
class Finder:
    """A compiled find: the literal's `re` pattern, or the regex's linear pattern and its
    parsed replacement."""

    literal: re.Pattern[str] | None = None
    regex: SafePattern | None = None
    template: Template | None = None
    words: tuple[str, ...] = ()  # a whole-word match never cuts through one of these

    def finditer(self, text: str, budget: Budget) -> Iterator[tuple[int, int, str | None]]:
        """(start, end, expanded replacement or None for a literal one) of every match."""
        for start, end, expanded in self._found(text, budget):
            if not (self.words and _splits_a_word(text, start, end, self.words)):
                yield start, end, expanded

    def _found(self, text: str, budget: Budget) -> Iterator[tuple[int, int, str | None]]:
        if self.literal is not None:
            for m in self.literal.finditer(text):
                yield m.start(), m.end(), None
            return
        assert self.regex is not None and self.template is not None
        for found in self.regex.finditer(text, budget):
            yield found.start(), found.end(), found.expand(self.template)


def _splits_a_word(text: str, start: int, end: int, words: Sequence[str]) -> bool:
    """Whether [start, end) cuts through one of `words` or lies inside one without being one
    ("台" in 阳台灯 would rename the balcony; 主卧 in 主卧室 is a room word of its own)."""
    if cuts_a_word(text, start, end, words):
        return True
    if text[start:end] in words:
        return False
    for word in words:
        at = text.find(word, max(0, end - len(word)))
        if 0 <= at <= start and end <= at + len(word):
            return True
    return False


def _check_lengths(spec: RenameSpec) -> None:
    if not spec.find:
        raise RenameError("empty_find")
    if len(spec.find) > MAX_FIND_LEN:
        raise RenameError("find_too_long")
    if len(spec.replace) > MAX_REPLACE_LEN:
        raise RenameError("replace_too_long")
    if has_hidden_characters(spec.replace):
        # A name is read aloud and put into prompts: a rename must not plant line breaks,
        # bidi overrides or zero-width characters in it.
        raise RenameError("hidden_characters")


def compile_spec(spec: RenameSpec, words: Iterable[str] = ()) -> Finder:
    """Validate ``spec`` and compile its find; raises :class:`RenameError`. ``words``: the
    home's words a whole-word match must not cut through (room names written in CJK)."""
    _check_lengths(spec)
    kept = tuple(unicodedata.normalize("NFC", w) for w in words if w) if spec.whole_word else ()
    find = unicodedata.normalize("NFC", spec.find)
    if spec.regex:
        try:
            pattern = SafePattern(
                find,
                ignore_case=not spec.match_case,
                edge_word=_non_cjk_word if spec.whole_word else None,
            )
        except UnsupportedPattern as err:
            raise RenameError("unsafe_regex") from err
        except PatternTooComplex as err:
            raise RenameError("regex_too_complex") from err
        except (PatternError, RecursionError, OverflowError) as err:
            raise RenameError("bad_regex") from err
        try:
            template = pattern.template(spec.replace)
        except PatternError as err:
            raise RenameError("bad_replacement") from err
        return Finder(regex=pattern, template=template, words=kept)
    body = re.escape(find)
    if spec.whole_word:
        body = f"{_BOUNDARY}(?:{body}){_BOUNDARY}"
    return Finder(literal=re.compile(body, 0 if spec.match_case else re.IGNORECASE), words=kept)


def new_budget() -> Budget:
    """The budget of one preview's regular expression."""
    return Budget(REGEX_STEPS, REGEX_SECONDS)


# --------------------------------------------------------------------------- substitution


def _segments(text: str) -> tuple[list[int], list[int], str]:
    """Split ``text`` into pieces that normalise independently.

    Returns the original start offsets, the normalised start offsets (each list ends with the
    total length) and the normalised text.
    """
    orig_starts: list[int] = []
    pieces: list[str] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i < len(text):
            c = text[i]
            seg = text[start:i]
            if unicodedata.combining(c) or unicodedata.normalize("NFC", seg + c) != (
                unicodedata.normalize("NFC", seg) + unicodedata.normalize("NFC", c)
            ):
                continue
        orig_starts.append(start)
        pieces.append(unicodedata.normalize("NFC", text[start:i]))
        start = i
    norm_starts: list[int] = []
    pos = 0
    for piece in pieces:
        norm_starts.append(pos)
        pos += len(piece)
    orig_starts.append(len(text))
    norm_starts.append(pos)
    return orig_starts, norm_starts, "".join(pieces)


def _substitute(
    text: str, finder: Finder, replacement: str, limit: int, budget: Budget
) -> tuple[str, int, bool]:
    """Replace matches in ``text``; returns (new text, matches, hit the match limit)."""
    if unicodedata.is_normalized("NFC", text):
        orig_starts: list[int] | None = None
        norm_starts: list[int] = []
        norm = text
    else:
        orig_starts, norm_starts, norm = _segments(text)
    out: list[str] = []
    count = 0
    exhausted = False
    npos = 0  # consumed up to here in the normalised text
    opos = 0  # ... and the corresponding position in the original (valid at segment boundaries)

    def seg_of(offset: int) -> int:
        return bisect.bisect_right(norm_starts, offset) - 1

    def flush_to(target: int) -> None:
        """Emit text from npos up to ``target`` (a normalised offset), preferring originals."""
        nonlocal npos, opos
        if orig_starts is None:
            out.append(text[npos:target])
            npos = target
            return
        s = seg_of(npos)
        if norm_starts[s] != npos:  # inside a segment already partly replaced: finish it
            end = min(norm_starts[s + 1], target)
            out.append(norm[npos:end])
            npos = end
            if npos == norm_starts[s + 1]:
                opos = orig_starts[s + 1]
            if npos == target:
                return
        t = seg_of(target)
        out.append(text[opos : orig_starts[t]])
        opos = orig_starts[t]
        out.append(norm[norm_starts[t] : target])
        npos = target

    for a, b, expanded in finder.finditer(norm, budget):
        if a == b:
            continue
        if count >= limit:
            exhausted = True
            break
        count += 1
        flush_to(a)
        out.append(replacement if expanded is None else expanded)
        npos = b
        if orig_starts is not None:
            s = seg_of(b)
            if norm_starts[s] == b:
                opos = orig_starts[s]
    if count == 0:
        return text, 0, exhausted
    flush_to(len(norm))
    return "".join(out), count, exhausted


def _hidden(text: str) -> set[str]:
    return {ch for ch in text if has_hidden_characters(ch)}


def _alias_key(alias: str) -> str:
    return unicodedata.normalize("NFC", alias).strip().casefold()


def preview(
    targets: Iterable[RenameTarget],
    spec: RenameSpec,
    limit: int = 500,
    budget: Budget | None = None,
    words: Iterable[str] = (),
) -> RenamePreview:
    """Plan a bulk rename. Raises :class:`RenameError` for an invalid ``spec``, and
    ``RenameError("regex_budget")`` when its regular expression needs more than ``budget``
    (default: ``REGEX_STEPS`` steps or ``REGEX_SECONDS``). ``words``: see
    :func:`compile_spec`."""
    finder = compile_spec(spec, words)
    left_out = set(spec.exclude)
    budget = budget or new_budget()
    replacement = spec.replace if spec.regex else unicodedata.normalize("NFC", spec.replace)
    changes: list[RenameChange] = []
    skipped: list[dict[str, Any]] = []
    total = 0
    truncated = False
    entity_ids: set[str] = set()
    names = aliases = 0

    work = 0  # every match found, including those in skipped changes

    def run(text: str) -> tuple[str, int]:
        nonlocal truncated, work
        if len(text) > MAX_TEXT_LEN:
            return text, 0
        try:
            new, count, hit = _substitute(text, finder, replacement, MAX_MATCHES - work, budget)
        except BudgetExceeded as err:
            raise RenameError("regex_budget") from err
        work += count
        truncated = truncated or hit
        if count and _hidden(new) - _hidden(text):
            # Escapes in a regex replacement (a newline, a tab) can still add them.
            raise RenameError("hidden_characters")
        return new, count

    for tgt in targets:
        if truncated:
            break
        if tgt.entity_id in left_out:
            continue
        entity_changes: list[RenameChange] = []
        if spec.target in ("names", "both"):
            current = tgt.name if tgt.name is not None else tgt.original_name
            if current:
                new, count = run(current)
                if count and new != current:
                    if not new.strip():
                        skipped.append(
                            {"entity_id": tgt.entity_id, "field": "name", "reason": "empty_name"}
                        )
                    elif len(new) > MAX_NAME_LEN:
                        skipped.append(
                            {"entity_id": tgt.entity_id, "field": "name", "reason": "name_too_long"}
                        )
                    else:
                        entity_changes.append(
                            RenameChange(tgt.entity_id, "name", None, current, new, count, tgt.area)
                        )
        if spec.target in ("aliases", "both") and not truncated:
            proposed: list[tuple[int, str, int]] = []
            for idx, alias in enumerate(tgt.aliases):
                new, count = run(alias)
                if count and new != alias:
                    proposed.append((idx, new, count))
                if truncated:
                    break
            changing = {idx for idx, _, _ in proposed}
            valid: list[tuple[int, str, int]] = []
            for idx, new, count in proposed:
                reason = (
                    "empty_alias"
                    if not new.strip()
                    else "alias_too_long"
                    if len(new) > MAX_ALIAS_LEN
                    else None
                )
                if reason:
                    skipped.append(
                        {
                            "entity_id": tgt.entity_id,
                            "field": "alias",
                            "index": idx,
                            "reason": reason,
                        }
                    )
                    changing.discard(idx)
                else:
                    valid.append((idx, new, count))
            taken = {_alias_key(a) for i, a in enumerate(tgt.aliases) if i not in changing}
            for idx, new, count in valid:
                key = _alias_key(new)
                if key in taken:
                    skipped.append(
                        {
                            "entity_id": tgt.entity_id,
                            "field": "alias",
                            "index": idx,
                            "reason": "duplicate_alias",
                        }
                    )
                    taken.add(_alias_key(tgt.aliases[idx]))
                    continue
                taken.add(key)
                entity_changes.append(
                    RenameChange(
                        tgt.entity_id, "alias", idx, tgt.aliases[idx], new, count, tgt.area
                    )
                )
        if not entity_changes:
            continue
        if len(changes) + len(entity_changes) > limit:
            truncated = True
            break
        changes.extend(entity_changes)
        entity_ids.add(tgt.entity_id)
        total += sum(c.matches for c in entity_changes)
        names += sum(1 for c in entity_changes if c.field == "name")
        aliases += sum(1 for c in entity_changes if c.field == "alias")

    return RenamePreview(
        changes=changes,
        entities=len(entity_ids),
        matches=total,
        truncated=truncated,
        summary_counts={
            "entities": len(entity_ids),
            "matches": total,
            "names": names,
            "aliases": aliases,
            "skipped": len(skipped),
        },
        skipped=skipped,
    )


# --------------------------------------------------------------------------- apply / restore


def apply(targets: Sequence[RenameTarget], preview: RenamePreview) -> list[RenameTarget]:
    """The new versions of the targets ``preview`` changes (in ``targets`` order).

    Raises ``RenameError("stale_preview")`` if a change's ``before`` no longer matches.
    """
    by_entity: dict[str, list[RenameChange]] = {}
    for change in preview.changes:
        by_entity.setdefault(change.entity_id, []).append(change)
    result: list[RenameTarget] = []
    seen: set[str] = set()
    for tgt in targets:
        entity_changes = by_entity.get(tgt.entity_id)
        if not entity_changes or tgt.entity_id in seen:
            continue
        seen.add(tgt.entity_id)
        name = tgt.name
        aliases = list(tgt.aliases)
        for ch in entity_changes:
            if ch.field == "name":
                current = tgt.name if tgt.name is not None else tgt.original_name
                if current != ch.before:
                    raise RenameError("stale_preview")
                name = ch.after
            else:
                if (
                    ch.index is None
                    or not 0 <= ch.index < len(aliases)
                    or (tgt.aliases[ch.index] != ch.before)
                ):
                    raise RenameError("stale_preview")
                aliases[ch.index] = ch.after
        new = replace(tgt, name=name, aliases=tuple(aliases))
        if new != tgt:
            result.append(new)
    if set(by_entity) - seen:
        raise RenameError("stale_preview")
    return result


def snapshot(targets: Iterable[RenameTarget]) -> dict[str, Any]:
    """JSON-serialisable record of the targets' names and aliases."""
    return {
        "version": SNAPSHOT_VERSION,
        "entities": {t.entity_id: {"name": t.name, "aliases": list(t.aliases)} for t in targets},
    }


def restore_plan(snap: dict[str, Any], current: Iterable[RenameTarget]) -> list[RenameTarget]:
    """What to write back so that ``current`` matches ``snap`` again (only differing entities).

    Entities in the snapshot that no longer exist are ignored. Raises
    ``RenameError("bad_snapshot")`` for an unknown format.
    """
    if not isinstance(snap, dict) or snap.get("version") != SNAPSHOT_VERSION:
        raise RenameError("bad_snapshot")
    entities = snap.get("entities")
    if not isinstance(entities, dict):
        raise RenameError("bad_snapshot")
    plan: list[RenameTarget] = []
    for tgt in current:
        rec = entities.get(tgt.entity_id)
        if rec is None:
            continue
        if not isinstance(rec, dict):
            raise RenameError("bad_snapshot")
        name = rec.get("name")
        aliases = rec.get("aliases", [])
        if (
            (name is not None and not isinstance(name, str))
            or not isinstance(aliases, list)
            or (not all(isinstance(a, str) for a in aliases))
        ):
            raise RenameError("bad_snapshot")
        restored = replace(tgt, name=name, aliases=tuple(aliases))
        if restored != tgt:
            plan.append(restored)
    return plan
