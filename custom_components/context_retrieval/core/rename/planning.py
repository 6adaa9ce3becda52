"""Planning a rename (`preview`), carrying it out (`apply`) and undoing it (`snapshot`,
`restore_plan`)."""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from ..base.safe_regex import Budget, BudgetExceeded
from ..base.text import has_hidden_characters
from .matching import Finder, compile_spec, new_budget
from .model import (
    MAX_ALIAS_LEN,
    MAX_MATCHES,
    MAX_NAME_LEN,
    MAX_TEXT_LEN,
    RenameChange,
    RenameError,
    RenamePreview,
    RenameSpec,
    RenameTarget,
)

SNAPSHOT_VERSION = 1


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


class _Substitution:
    """The find and replace of one preview, run text after text: it counts every match found
    (those of skipped changes too) against one budget and says when the matches ran out."""

    def __init__(self, finder: Finder, replacement: str, budget: Budget) -> None:
        self.finder = finder
        self.replacement = replacement
        self.budget = budget
        self.work = 0
        self.truncated = False

    def __call__(self, text: str) -> tuple[str, int]:
        if len(text) > MAX_TEXT_LEN:
            return text, 0
        try:
            new, count, hit = _substitute(
                text, self.finder, self.replacement, MAX_MATCHES - self.work, self.budget
            )
        except BudgetExceeded as err:
            raise RenameError("regex_budget") from err
        self.work += count
        self.truncated = self.truncated or hit
        if count and _hidden(new) - _hidden(text):
            # Escapes in a regex replacement (a newline, a tab) can still add them.
            raise RenameError("hidden_characters")
        return new, count


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
    replacement = spec.replace if spec.regex else unicodedata.normalize("NFC", spec.replace)
    run = _Substitution(compile_spec(spec, words), replacement, budget or new_budget())
    left_out = set(spec.exclude)
    changes: list[RenameChange] = []
    skipped: list[dict[str, Any]] = []
    entity_ids: set[str] = set()
    for tgt in targets:
        if run.truncated:
            break
        if tgt.entity_id in left_out:
            continue
        entity_changes: list[RenameChange] = []
        if spec.target in ("names", "both"):
            entity_changes += _name_change(tgt, run, skipped)
        if spec.target in ("aliases", "both") and not run.truncated:
            entity_changes += _alias_changes(tgt, run, skipped)
        if not entity_changes:
            continue
        if len(changes) + len(entity_changes) > limit:
            run.truncated = True
            break
        changes.extend(entity_changes)
        entity_ids.add(tgt.entity_id)
    total = sum(c.matches for c in changes)
    return RenamePreview(
        changes=changes,
        entities=len(entity_ids),
        matches=total,
        truncated=run.truncated,
        summary_counts={
            "entities": len(entity_ids),
            "matches": total,
            "names": sum(1 for c in changes if c.field == "name"),
            "aliases": sum(1 for c in changes if c.field == "alias"),
            "skipped": len(skipped),
        },
        skipped=skipped,
    )


def _name_change(
    tgt: RenameTarget, run: _Substitution, skipped: list[dict[str, Any]]
) -> list[RenameChange]:
    """The change of the entity's name (its own, else the integration's), if any and valid;
    an empty or too long result is skipped with its reason."""
    current = tgt.name if tgt.name is not None else tgt.original_name
    if not current:
        return []
    new, count = run(current)
    if not count or new == current:
        return []
    reason = (
        "empty_name" if not new.strip() else "name_too_long" if len(new) > MAX_NAME_LEN else None
    )
    if reason:
        skipped.append({"entity_id": tgt.entity_id, "field": "name", "reason": reason})
        return []
    return [RenameChange(tgt.entity_id, "name", None, current, new, count, tgt.area)]


def _alias_changes(
    tgt: RenameTarget, run: _Substitution, skipped: list[dict[str, Any]]
) -> list[RenameChange]:
    """The changes of the entity's aliases: an empty or too long result is skipped, and so is
    one that would repeat an alias the entity keeps or gets."""
    proposed: list[tuple[int, str, int]] = []
    for idx, alias in enumerate(tgt.aliases):
        new, count = run(alias)
        if count and new != alias:
            proposed.append((idx, new, count))
        if run.truncated:
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
                {"entity_id": tgt.entity_id, "field": "alias", "index": idx, "reason": reason}
            )
            changing.discard(idx)
        else:
            valid.append((idx, new, count))
    taken = {_alias_key(a) for i, a in enumerate(tgt.aliases) if i not in changing}
    out: list[RenameChange] = []
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
        out.append(
            RenameChange(tgt.entity_id, "alias", idx, tgt.aliases[idx], new, count, tgt.area)
        )
    return out


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
