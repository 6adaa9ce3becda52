"""Bulk rename of entity names and aliases with rollback: a find and replace over the home.

`rename_preview` shows what a find/replace would change; `rename_execute` first stores a
snapshot of every entity it is about to change (Home Assistant's `.storage`, so a rollback
survives a restart), then writes the entity registry; `rename_rollback` writes the snapshot
back, and only while the entities still have the names the rename gave them. Only entities
exposed to Assist are ever considered or shown. The find runs in the executor (a regular
expression on the linear matcher, within its budget), one preview at a time.

Home Assistant saves its entity registry about ten seconds after a change, so a rename
answered at once could be lost by a crash in between. Every write (a rename, a rollback) is
therefore first put in a journal, saved with the snapshots before the registry is touched;
at the next start each journalled entity that still has the name it had before the write is
given the written name again. A write leaves the journal once the registry's file is newer
than it, or a start finds it done.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.helpers.storage import Store

from .const import (
    DEFAULT_RENAME_WHOLE_WORD,
    DOMAIN,
    LOGGER,
    MAX_FIND_CHARS,
    MAX_SHOWN_RENAME_CHARS,
    REGISTRY_SAVED_MARGIN_SECONDS,
)
from .core.base.redact import clean
from .core.base.text import has_cjk
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
# Home Assistant's entity registry file (`.storage/<key>`), whose age tells what it holds.
REGISTRY_FILE = getattr(er, "STORAGE_KEY", "core.entity_registry")
STORAGE_VERSION = 1
SNAPSHOTS_KEPT = 20
PREVIEW_LIMIT = 500

type Names = dict[str, dict[str, Any]]  # entity id -> {"name": …, "aliases": […]}


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
        whole_word=bool(data.get("whole_word", DEFAULT_RENAME_WHOLE_WORD)),
        regex=bool(data.get("regex", False)),
        exclude=tuple(str(e) for e in data.get("exclude") or ()),
    )
    try:
        compile_spec(spec)
    except RenameError as err:
        raise _rename_error(err) from err
    return spec


class RenameManager:
    """Plans, applies and rolls back renames; snapshots and the journal of writes live in
    Home Assistant's storage."""

    def __init__(self, hass: HomeAssistant, exposed: Callable[[], list[str]]) -> None:
        self.hass = hass
        self._exposed = exposed  # the exposed entity ids (the live index's)
        self._store: Store[dict[str, Any]] = Store(hass, STORAGE_VERSION, STORAGE_KEY)
        self._data: dict[str, Any] | None = None
        # One preview or write at a time: previews are CPU work in the executor, and the
        # stored list is read, changed and saved whole.
        self._lock = asyncio.Lock()

    async def async_start(self) -> None:
        """Write again what the journal says was written but the registry lost (a crash
        before Home Assistant saved it); forget the writes the registry has."""
        async with self._lock:
            data = await self._async_data()
            journal: list[dict[str, Any]] = data.get("journal", [])
            if not journal:
                return
            rewritten = 0
            for write in journal:
                rewritten += self._redo(write)
            if rewritten:
                LOGGER.warning(
                    "%d entity name change(s) had not reached the entity registry before Home "
                    "Assistant stopped; written again",
                    rewritten,
                )
            else:
                data["journal"] = []
                await self._store.async_save(data)

    def _redo(self, write: dict[str, Any]) -> int:
        """Give each entity of one journalled write the names it was given, where it still
        has the names it had before; the number of entities written again."""
        registry = er.async_get(self.hass)
        redo: list[RenameTarget] = []
        for entity_id, wanted in write.get("to", {}).items():
            entry = registry.async_get(entity_id)
            if entry is None:
                continue
            now = _names_of(entry)
            if now == _shape(wanted):
                continue
            if now == _shape(write.get("from", {}).get(entity_id)):
                redo.append(
                    RenameTarget(entity_id, wanted.get("name"), tuple(wanted.get("aliases", ())))
                )
            else:  # changed since by someone else: theirs stands
                LOGGER.info("A journalled rename of %s was changed since; left as it is", entity_id)
        self._write(redo)
        return len(redo)

    async def _async_data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = await self._store.async_load() or {"snapshots": []}
            self._data.setdefault("snapshots", [])
            self._data.setdefault("journal", [])
        return self._data

    def targets(self) -> list[RenameTarget]:
        registry = er.async_get(self.hass)
        devices = dr.async_get(self.hass)
        areas = ar.async_get(self.hass)
        out = []
        for entity_id in sorted(self._exposed()):
            entry = registry.async_get(entity_id)
            if entry is None:
                continue  # a state without a registry entry cannot be renamed
            state = self.hass.states.get(entity_id)
            shown = entry.original_name or (state.name if state else None)
            device = devices.async_get(entry.device_id) if entry.device_id else None
            area = areas.async_get_area(entry.area_id or (device.area_id if device else None) or "")
            out.append(
                RenameTarget(
                    entity_id=entity_id,
                    name=entry.name,
                    aliases=text_aliases(entry.aliases),
                    original_name=shown,
                    area=area.name if area else None,
                )
            )
        return out

    def words(self) -> list[str]:
        """The home's own words written without spaces (CJK room and floor names and
        aliases): a whole-word find never cuts through one ("台灯" is not in 阳台灯)."""
        names: list[str] = []
        for area in ar.async_get(self.hass).async_list_areas():
            names += [area.name, *area.aliases]
        for floor in fr.async_get(self.hass).async_list_floors():
            names += [floor.name, *floor.aliases]
        return sorted({n.strip().casefold() for n in names if n and has_cjk(n)})

    async def _async_preview(self, spec: RenameSpec) -> tuple[list[RenameTarget], RenamePreview]:
        """The plan, worked out in the executor (the caller holds the lock)."""
        targets = self.targets()
        try:
            plan = await self.hass.async_add_executor_job(
                partial(preview, targets, spec, limit=PREVIEW_LIMIT, words=self.words())
            )
        except RenameError as err:
            raise _rename_error(err) from err
        return targets, plan

    async def async_preview(self, spec: RenameSpec) -> RenamePreview:
        async with self._lock:
            return (await self._async_preview(spec))[1]

    async def async_execute(self, spec: RenameSpec) -> dict[str, Any]:
        async with self._lock:
            targets, plan = await self._async_preview(spec)
            if plan.truncated:
                raise _error("rename_too_many", limit=str(PREVIEW_LIMIT))
            try:
                changed = apply(targets, plan)
            except RenameError as err:
                raise _rename_error(err) from err
            if not changed:
                return {"snapshot_id": None, **describe(plan)}
            ids = {c.entity_id for c in changed}
            before = [t for t in targets if t.entity_id in ids]
            snapshot_id = uuid.uuid4().hex
            data = await self._async_data()
            after = snapshot(changed)["entities"]
            data["snapshots"] = [
                *data["snapshots"],
                {
                    "id": snapshot_id,
                    "created_at": datetime.now(UTC).isoformat(),
                    "spec": asdict(spec),
                    "snapshot": snapshot(before),
                    "after": after,
                },
            ][-SNAPSHOTS_KEPT:]
            await self._async_journal(data, snapshot(before)["entities"], after)
            self._write(changed)
            return {"snapshot_id": snapshot_id, **describe(plan)}

    async def _async_journal(self, data: dict[str, Any], before: Names, after: Names) -> None:
        """Save the snapshots with this write in the journal, before the registry changes:
        a crash in between leaves a write the next start completes, never a rename without
        a snapshot or an answer the registry forgets. Writes older than the registry's file
        (by a margin: it is serialised a moment before it is written) are in it already."""
        path = Path(self.hass.config.path(".storage", REGISTRY_FILE))
        saved = await self.hass.async_add_executor_job(_mtime, path)
        data["journal"] = [
            *(w for w in data["journal"] if w.get("at", 0) + REGISTRY_SAVED_MARGIN_SECONDS > saved),
            {"at": time.time(), "from": before, "to": after},
        ]
        await self._store.async_save(data)

    async def async_rollback(self, snapshot_id: str) -> dict[str, Any]:
        async with self._lock:
            data = await self._async_data()
            found = next((s for s in data["snapshots"] if s.get("id") == snapshot_id), None)
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
            changed_since = _changed_since(found.get("after"), current)
            if changed_since:
                # Writing the snapshot back would undo what changed the names since, or
                # write names the registry never had.
                raise _error("rename_snapshot_stale", entities=str(len(changed_since)))
            try:
                restore = restore_plan(found["snapshot"], current)
            except RenameError as err:
                raise _rename_error(err) from err
            restored = snapshot(restore)["entities"]
            now = snapshot([t for t in current if t.entity_id in restored])["entities"]
            await self._async_journal(data, now, restored)
            self._write(restore)
            return {
                "snapshot_id": snapshot_id,
                "restored": len(restore),
                "entities": sorted(t.entity_id for t in restore),
                "missing": sorted(set(ids) - {t.entity_id for t in current}),
            }

    async def async_snapshots(self) -> list[dict[str, Any]]:
        data = await self._async_data()
        return [
            {
                "id": s["id"],
                "created_at": s["created_at"],
                "find": clean(str(s["spec"].get("find", "")), MAX_FIND_CHARS),
                "entities": len(s["snapshot"].get("entities", {})),
            }
            for s in reversed(data["snapshots"])
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


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _shape(names: Any) -> tuple[str | None, tuple[str, ...]] | None:
    """A stored entity's names, compared the way `_names_of` gives them: the aliases'
    order aside (a registry that keeps a set reads them back sorted)."""
    if not isinstance(names, dict):
        return None
    aliases = names.get("aliases", ())
    return names.get("name"), tuple(sorted(a for a in aliases if isinstance(a, str)))


def _names_of(entry: er.RegistryEntry) -> tuple[str | None, tuple[str, ...]]:
    return entry.name, tuple(sorted(text_aliases(entry.aliases)))


def _changed_since(after: Any, current: list[RenameTarget]) -> list[str]:
    """The entities whose names are no longer what the rename wrote (a snapshot saved before
    the names it wrote were kept cannot say: nothing is found)."""
    if not isinstance(after, dict):
        return []
    return [
        t.entity_id
        for t in current
        if t.entity_id in after and _shape(after[t.entity_id]) != (t.name, tuple(sorted(t.aliases)))
    ]


def _rename_error(err: RenameError) -> Exception:
    if err.reason == "regex_budget":
        return _error("rename_regex_budget")
    return _error(f"rename_{err.reason}")


def describe(plan: RenamePreview) -> dict[str, Any]:
    return {
        "entities": plan.entities,
        "matches": plan.matches,
        "truncated": plan.truncated,
        "changes": [
            {
                "entity_id": c.entity_id,
                "area": clean(c.area, MAX_SHOWN_RENAME_CHARS) if c.area else None,
                "field": c.field,
                "index": c.index,
                "before": clean(c.before, MAX_SHOWN_RENAME_CHARS),
                "after": clean(c.after, MAX_SHOWN_RENAME_CHARS),
                "matches": c.matches,
            }
            for c in plan.changes
        ],
        "skipped": plan.skipped,
    }
