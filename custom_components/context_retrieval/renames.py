"""Bulk rename of entity names and aliases with rollback: a find and replace over the home.

`rename_preview` shows what a find/replace would change; `rename_execute` first stores a
snapshot of every entity it is about to change (Home Assistant's `.storage`, so a rollback
survives a restart), then writes the entity registry; `rename_rollback` writes the snapshot
back. Only entities exposed to Assist are ever considered or shown.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.storage import Store

from .const import DOMAIN
from .core.base.redact import redact
from .core.rename import (
    RenameError,
    RenamePreview,
    RenameSpec,
    RenameTarget,
    apply,
    compile_spec,
    preview,
    restore_plan,
    snapshot,
)
from .errors import service_error as _error

STORAGE_KEY = f"{DOMAIN}.rename_snapshots"
STORAGE_VERSION = 1
SNAPSHOTS_KEPT = 20
PREVIEW_LIMIT = 500


def text_aliases(aliases: Any) -> tuple[str, ...]:
    """The aliases a rename may edit: the text ones, in the registry's order (sorted where
    the registry keeps a set, before 2026.10). From 2026.10 the list may also hold a marker
    for the entity's computed name, which is no text and is never renamed."""
    texts = [a for a in aliases or () if isinstance(a, str) and a]
    return tuple(sorted(texts) if isinstance(aliases, set | frozenset) else texts)


def aliases_to_write(current: Any, texts: tuple[str, ...]) -> Any:
    """`texts` in the registry's own collection type; a marker keeps its place among them."""
    if isinstance(current, set | frozenset) or current is None:
        return set(texts)
    remaining = list(texts)
    out: list[Any] = []
    for alias in current:
        if isinstance(alias, str):
            if remaining:
                out.append(remaining.pop(0))
        else:
            out.append(alias)
    return out + remaining


def spec_from(data: dict[str, Any]) -> RenameSpec:
    spec = RenameSpec(
        find=str(data["find"]),
        replace=str(data.get("replace", "")),
        target=data.get("target", "names"),
        match_case=bool(data.get("match_case", False)),
        whole_word=bool(data.get("whole_word", False)),
        regex=bool(data.get("regex", False)),
    )
    try:
        compile_spec(spec)
    except RenameError as err:
        raise _error(f"rename_{err.reason}") from err
    return spec


class RenameManager:
    """Plans, applies and rolls back renames; snapshots live in Home Assistant's storage."""

    def __init__(self, hass: HomeAssistant, exposed: Callable[[], list[str]]) -> None:
        self.hass = hass
        self._exposed = exposed  # the exposed entity ids (the live index's)
        self._store: Store[dict[str, Any]] = Store(hass, STORAGE_VERSION, STORAGE_KEY)

    def targets(self) -> list[RenameTarget]:
        registry = er.async_get(self.hass)
        out = []
        for entity_id in sorted(self._exposed()):
            entry = registry.async_get(entity_id)
            if entry is None:
                continue  # a state without a registry entry cannot be renamed
            state = self.hass.states.get(entity_id)
            shown = entry.original_name or (state.name if state else None)
            out.append(
                RenameTarget(
                    entity_id=entity_id,
                    name=entry.name,
                    aliases=text_aliases(entry.aliases),
                    original_name=shown,
                )
            )
        return out

    def preview(self, spec: RenameSpec) -> tuple[list[RenameTarget], RenamePreview]:
        targets = self.targets()
        try:
            return targets, preview(targets, spec, limit=PREVIEW_LIMIT)
        except RenameError as err:
            raise _error(f"rename_{err.reason}") from err

    async def async_execute(self, spec: RenameSpec) -> dict[str, Any]:
        targets, plan = self.preview(spec)
        if plan.truncated:
            raise _error("rename_too_many", limit=str(PREVIEW_LIMIT))
        try:
            changed = apply(targets, plan)
        except RenameError as err:
            raise _error(f"rename_{err.reason}") from err
        if not changed:
            return {"snapshot_id": None, **describe(plan)}
        before = [t for t in targets if t.entity_id in {c.entity_id for c in changed}]
        snapshot_id = uuid.uuid4().hex
        stored = await self._store.async_load() or {"snapshots": []}
        stored["snapshots"] = [
            *stored["snapshots"],
            {
                "id": snapshot_id,
                "created_at": datetime.now(UTC).isoformat(),
                "spec": asdict(spec),
                "snapshot": snapshot(before),
            },
        ][-SNAPSHOTS_KEPT:]
        # Saved before anything changes: a crash in between leaves a snapshot, never a
        # rename without one.
        await self._store.async_save(stored)
        self._write(changed)
        return {"snapshot_id": snapshot_id, **describe(plan)}

    async def async_rollback(self, snapshot_id: str) -> dict[str, Any]:
        stored = await self._store.async_load() or {"snapshots": []}
        found = next((s for s in stored["snapshots"] if s.get("id") == snapshot_id), None)
        if found is None:
            raise _error("rename_snapshot_not_found", snapshot_id=snapshot_id)
        registry = er.async_get(self.hass)
        ids = list(found["snapshot"].get("entities", {}))
        current = []
        for entity_id in ids:
            entry = registry.async_get(entity_id)
            if entry is not None:
                current.append(
                    RenameTarget(
                        entity_id, entry.name, text_aliases(entry.aliases), entry.original_name
                    )
                )
        restore = restore_plan(found["snapshot"], current)
        self._write(restore)
        return {
            "snapshot_id": snapshot_id,
            "restored": len(restore),
            "entities": sorted(t.entity_id for t in restore),
            "missing": sorted(set(ids) - {t.entity_id for t in current}),
        }

    async def async_snapshots(self) -> list[dict[str, Any]]:
        stored = await self._store.async_load() or {"snapshots": []}
        return [
            {
                "id": s["id"],
                "created_at": s["created_at"],
                "find": redact(str(s["spec"].get("find", ""))),
                "entities": len(s["snapshot"].get("entities", {})),
            }
            for s in reversed(stored["snapshots"])
        ]

    def _write(self, targets: list[RenameTarget]) -> None:
        registry = er.async_get(self.hass)
        for target in targets:
            entry = registry.async_get(target.entity_id)
            if entry is None:
                continue
            registry.async_update_entity(
                target.entity_id,
                name=target.name,
                aliases=aliases_to_write(entry.aliases, target.aliases),
            )


def describe(plan: RenamePreview) -> dict[str, Any]:
    return {
        "entities": plan.entities,
        "matches": plan.matches,
        "truncated": plan.truncated,
        "changes": [
            {
                "entity_id": c.entity_id,
                "field": c.field,
                "index": c.index,
                "before": redact(c.before),
                "after": redact(c.after),
                "matches": c.matches,
            }
            for c in plan.changes
        ],
        "skipped": plan.skipped,
    }
