"""Registry adapter: Home Assistant's registries → engine records, kept current.

Only entities exposed to Assist reach the retrieval index, a prompt or any response, and view
rules see only them too: a view's members are shown to every user (preview, the view's sensor),
so an entity kept from Assist is kept from views. A view's name becomes a label of its members,
so "the christmas lights" scopes a request to the view. Index and views are rebuilt off the
event loop after registry, expose-setting or entity changes (debounced), then swapped in at
once; until then queries keep using the previous ones. An entity taken from Assist leaves
every answer at once, not only after that rebuild: it is `withdrawn` from the live index the
moment its setting changes, and everything that answers asks `visible` (the stores and caches
too, whose entries were written while it was exposed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from homeassistant.components.homeassistant.exposed_entities import (
    async_listen_entity_updates,
    async_should_expose,
)
from homeassistant.const import ATTR_DEVICE_CLASS, ATTR_SUPPORTED_FEATURES, EVENT_STATE_CHANGED
from homeassistant.core import CALLBACK_TYPE, Event, EventStateChangedData, HomeAssistant, callback
from homeassistant.helpers import (
    area_registry as ar,
)
from homeassistant.helpers import (
    device_registry as dr,
)
from homeassistant.helpers import (
    entity_registry as er,
)
from homeassistant.helpers import (
    floor_registry as fr,
)
from homeassistant.helpers import (
    label_registry as lr,
)
from homeassistant.helpers.debounce import Debouncer

from .const import DOMAIN, LOGGER, MAX_RECORD_NAME_CHARS, REBUILD_DEBOUNCE_SECONDS
from .core import Area, Device, DeviceIndex, Floor, LexiconSet, default_lexicons
from .core.base.actions import default_actions
from .core.base.models import placement
from .core.views.model import GroupNode
from .core.views.universe import TagUniverse

ASSISTANT = "conversation"

# Supported-feature bits (Home Assistant's *EntityFeature enums), by domain: what each enables.
_FEATURE_ACTIONS: dict[str, dict[int, str]] = {
    "cover": {1: "open", 2: "close", 4: "set_position", 8: "stop"},
    "valve": {1: "open", 2: "close", 4: "set_position", 8: "stop"},
    "fan": {1: "set_fan_speed", 16: "turn_off", 32: "turn_on"},
    "climate": {1: "set_temperature", 128: "turn_off", 256: "turn_on"},
    "media_player": {
        1: "media_pause",
        4: "set_volume",
        8: "mute",
        16: "media_previous",
        32: "media_next",
        128: "turn_on",
        256: "turn_off",
        512: "media_search_play",
        16384: "media_play",
        4096: "stop",
    },
    "vacuum": {4: "media_pause", 8: "stop", 16: "dock", 8192: "start"},
    "lock": {1: "unlatch"},
    "lawn_mower": {1: "start", 2: "media_pause", 4: "dock"},
}
# Actions of a domain that do not depend on a feature bit.
_ALWAYS: dict[str, frozenset[str]] = {
    "lock": frozenset({"lock", "unlock"}),
    "climate": frozenset({"set_hvac_mode"}),
    "fan": frozenset({"turn_on", "turn_off", "toggle"}),
}
_BRIGHTNESS_MODES = {"brightness", "color_temp", "hs", "xy", "rgb", "rgbw", "rgbww", "white"}
_COLOR_MODES = {"hs", "xy", "rgb", "rgbw", "rgbww"}
# Lights whose white temperature can be set (a colour light takes one too, converted).
_COLOR_TEMP_MODES = {"color_temp", *_COLOR_MODES}


def actions_for(domain: str, attributes: dict[str, Any]) -> frozenset[str]:
    """The engine's abstract actions an entity supports, from its supported features."""
    base = default_actions(domain)
    features = attributes.get(ATTR_SUPPORTED_FEATURES)
    if domain == "light":
        modes = set(attributes.get("supported_color_modes") or [])
        actions = {"turn_on", "turn_off", "toggle"}
        if not modes or modes & _BRIGHTNESS_MODES:
            actions.add("set_brightness")
        if not modes or modes & _COLOR_MODES:
            actions.add("set_color")
        if not modes or modes & _COLOR_TEMP_MODES:
            actions.add("set_color_temp")
        return frozenset(actions)
    table = _FEATURE_ACTIONS.get(domain)
    if table is None or not isinstance(features, int):
        return base
    granted = {action for bit, action in table.items() if features & bit}
    if domain in ("cover", "valve") and {"open", "close"} & granted:
        granted.add("toggle")
    return frozenset(granted | _ALWAYS.get(domain, frozenset()))


def cut(name: str) -> str:
    """A name as the engine takes it: at most `MAX_RECORD_NAME_CHARS` characters. Any
    integration may name an entity with ten thousand characters; everything downstream (the
    index, the views, every answer) works on names of bounded length."""
    return name if len(name) <= MAX_RECORD_NAME_CHARS else name[:MAX_RECORD_NAME_CHARS]


def _aliases(value: Any) -> tuple[str, ...]:
    """Alias collections are sets in older releases and ordered lists in newer ones; only
    text is an alias (markers such as the entity registry's computed name are not)."""
    if not value:
        return ()
    texts = [cut(a.strip()) for a in value if isinstance(a, str) and a.strip()]
    return tuple(sorted(texts) if isinstance(value, set | frozenset) else texts)


def alias_texts(resolved: Any, name: str, compat_name: str | None = None) -> tuple[str, ...]:
    """An entity's aliases for the index: the text ones, without its name or repeats, and
    `compat_name` (the name it had before Home Assistant 2026.11 prefixed the device name)
    when Home Assistant has not kept that name as an alias itself."""
    seen = {name.strip().casefold()}
    out: list[str] = []
    for alias in (*_aliases(resolved), *_aliases([compat_name])):
        if alias.casefold() not in seen:
            seen.add(alias.casefold())
            out.append(alias)
    return tuple(out)


def entity_aliases(hass: HomeAssistant, entry: er.RegistryEntry, name: str) -> tuple[str, ...]:
    """An entity's aliases as Home Assistant's own assistant reads them.

    From 2026.10 the registry keeps a marker for "the entity's computed name" among the
    aliases (first by default, wherever the user moved it otherwise), which Home Assistant
    resolves with `async_get_entity_aliases`; it is no text of its own. In 2026.11 an entity
    whose full name changed keeps its old name in `compat_name`; Home Assistant put it in
    place of the marker for entities exposed to Assist at the upgrade. For one exposed later,
    whose marker is still first, the old name is read here the same way (nothing is written
    to the registry).
    """
    resolve = getattr(er, "async_get_entity_aliases", None)
    resolved = resolve(hass, entry) if resolve is not None else entry.aliases
    stored = list(entry.aliases or ())
    marker_first = bool(stored) and not isinstance(stored[0], str)
    compat_name = getattr(entry, "compat_name", None) if marker_first else None
    return alias_texts(resolved, name, compat_name)


@dataclass(slots=True)
class HomeSnapshot:
    devices: list[Device]  # exposed to Assist
    areas: list[Area]
    floors: list[Floor]
    labels: dict[str, str] = field(default_factory=dict)  # label id → name
    language: str | None = None  # Home Assistant's language (hass.config.language)


@callback
def async_collect_home(hass: HomeAssistant) -> HomeSnapshot:
    """Read the registries and states once (on the event loop) into engine records."""
    ent_reg = er.async_get(hass)
    dev_reg = dr.async_get(hass)
    area_reg = ar.async_get(hass)
    floor_reg = fr.async_get(hass)
    label_reg = lr.async_get(hass)

    floors = [
        Floor(f.floor_id, cut(f.name), _aliases(f.aliases), getattr(f, "level", None))
        for f in floor_reg.async_list_floors()
    ]
    floor_by_id = {f.floor_id: f for f in floors}
    areas = [
        Area(a.id, cut(a.name), _aliases(a.aliases), a.floor_id)
        for a in area_reg.async_list_areas()
    ]
    area_by_id = {a.area_id: a for a in areas}
    label_names = {label.label_id: cut(label.name) for label in label_reg.async_list_labels()}

    devices: list[Device] = []
    for state in hass.states.async_all():
        entity_id = state.entity_id
        if not async_should_expose(hass, ASSISTANT, entity_id):
            continue
        entry = ent_reg.async_get(entity_id)
        if entry is not None and entry.platform == DOMAIN:
            continue  # our own view sensors are not part of the home they describe
        device_entry = dev_reg.async_get(entry.device_id) if entry and entry.device_id else None
        area_id = (entry.area_id if entry else None) or (
            device_entry.area_id if device_entry else None
        )
        area = area_by_id.get(area_id) if area_id else None
        floor = floor_by_id.get(area.floor_id) if area and area.floor_id else None
        labels = set(entry.labels) if entry else set()
        if device_entry:
            labels |= set(device_entry.labels)
        attributes = dict(state.attributes)
        name = cut(state.name)
        device_name = (device_entry.name_by_user or device_entry.name) if device_entry else None
        device = Device(
            entity_id=entity_id,
            name=name,
            domain=state.domain,
            aliases=entity_aliases(hass, entry, name) if entry else (),
            device_class=attributes.get(ATTR_DEVICE_CLASS),
            **placement(area, floor),
            labels=tuple(sorted(label_names.get(label, label) for label in labels)),
            device_name=cut(device_name) if device_name else None,
            device_id=device_entry.id if device_entry else None,
            actions=actions_for(state.domain, attributes),
        )
        devices.append(device)
    return HomeSnapshot(devices, areas, floors, label_names, hass.config.language)


@dataclass(slots=True)
class HomeBuild:
    """What one rebuild produces: the retrieval index, the tag universe, view memberships."""

    index: DeviceIndex
    universe: TagUniverse
    view_members: dict[str, frozenset[str]]


def build_home(
    snapshot: HomeSnapshot,
    lexicons: LexiconSet,
    language: str | None,
    views: list[tuple[str, GroupNode]],
) -> HomeBuild:
    """CPU work of a rebuild (runs in the executor). A view's name is added to the labels of
    its members, so the retrieval pipeline treats it like a label. The language the options
    fix and Home Assistant's own are read with the words its intent data teaches (learned
    once per language, cached)."""
    lexicons = lexicons.with_learned(language, snapshot.language)
    universe = TagUniverse.build(
        snapshot.devices, snapshot.areas, snapshot.floors, lexicons, snapshot.labels
    )
    members = {name: universe.evaluate(rule)[0] for name, rule in views}
    in_views: dict[str, list[str]] = {}
    for name, ids in members.items():
        for entity_id in ids:
            in_views.setdefault(entity_id, []).append(name)
    devices = [
        replace(d, labels=tuple(sorted({*d.labels, *in_views[d.entity_id]})))
        if d.entity_id in in_views
        else d
        for d in snapshot.devices
    ]
    index = DeviceIndex.build(
        devices, snapshot.areas, snapshot.floors, lexicons, language or snapshot.language
    )
    return HomeBuild(index, universe, members)


@dataclass(repr=False)
class IndexManager:
    """Owns the live `DeviceIndex`; rebuilds it off the event loop and swaps it atomically."""

    def __repr__(self) -> str:
        # Short: Home Assistant names the debouncer's task after the job's repr on the event
        # loop at every rebuild, and the generated one (every lexicon, the index) took 0.15 s.
        return f"<IndexManager {self.index_state}, {len(self.index or ())} entities>"

    hass: HomeAssistant
    language: str | None = None
    lexicons: LexiconSet = field(default_factory=default_lexicons)
    index: DeviceIndex | None = None
    universe: TagUniverse | None = None
    view_members: dict[str, frozenset[str]] = field(default_factory=dict)
    # The published view rules, asked for at each rebuild (set by the view manager).
    view_rules: Callable[[], list[tuple[str, GroupNode]]] = field(default=lambda: [])
    rebuilding: bool = False
    builds: int = 0
    last_build_seconds: float = 0.0
    last_build_at: float | None = None  # Unix time the last index was swapped in
    # Entities of the live index no longer exposed to Assist (until the next index).
    withdrawn: frozenset[str] = frozenset()
    _dirty: bool = False
    _stopped: bool = False
    _unsubs: list[CALLBACK_TYPE] = field(default_factory=list)
    _debouncer: Debouncer[Any] | None = None
    _listeners: list[Callable[[], None]] = field(default_factory=list)
    _withdrawal_listeners: list[Callable[[], None]] = field(default_factory=list)

    @property
    def index_state(self) -> str:
        return "rebuilding" if self.rebuilding else ("ready" if self.index else "empty")

    async def async_start(self) -> None:
        """Build the first index and follow every change that can alter it."""
        self._debouncer = Debouncer(
            self.hass,
            LOGGER,
            cooldown=REBUILD_DEBOUNCE_SECONDS,
            immediate=False,
            function=self.async_rebuild,
        )
        await self.async_rebuild()
        bus = self.hass.bus
        for event in (
            er.EVENT_ENTITY_REGISTRY_UPDATED,
            dr.EVENT_DEVICE_REGISTRY_UPDATED,
            ar.EVENT_AREA_REGISTRY_UPDATED,
            fr.EVENT_FLOOR_REGISTRY_UPDATED,
            lr.EVENT_LABEL_REGISTRY_UPDATED,
        ):
            self._unsubs.append(bus.async_listen(event, self._async_changed))
        self._unsubs.append(bus.async_listen(EVENT_STATE_CHANGED, self._async_state_changed))
        self._unsubs.append(
            async_listen_entity_updates(self.hass, ASSISTANT, self._async_exposure_changed)
        )

    def visible(self) -> Callable[[str], bool]:
        """Whether an entity may appear in an answer: exposed to Assist, so in the live index
        and not withdrawn since. The references are taken now, so a worker thread may ask."""
        index, withdrawn = self.index, self.withdrawn
        if index is None:
            return lambda _entity_id: False
        return lambda entity_id: entity_id in index and entity_id not in withdrawn

    def exposed_ids(self) -> list[str]:
        """The entities exposed to Assist now (the live index's, less those withdrawn)."""
        if self.index is None:
            return []
        return [d.entity_id for d in self.index.devices() if d.entity_id not in self.withdrawn]

    @callback
    def _async_exposure_changed(self) -> None:
        """An expose setting changed: an entity taken from Assist leaves every answer now
        (a dictionary look-up per indexed entity); the index follows."""
        index = self.index
        if index is not None:
            withdrawn = frozenset(
                d.entity_id
                for d in index.devices()
                if not async_should_expose(self.hass, ASSISTANT, d.entity_id)
            )
            if withdrawn != self.withdrawn:
                self.withdrawn = withdrawn
                for listener in list(self._withdrawal_listeners):
                    listener()
        self.async_schedule_rebuild()

    @callback
    def async_stop(self) -> None:
        self._stopped = True
        while self._unsubs:
            self._unsubs.pop()()
        if self._debouncer:
            shutdown = getattr(self._debouncer, "async_shutdown", None)
            (shutdown or self._debouncer.async_cancel)()

    @callback
    def async_add_listener(self, listener: Callable[[], None]) -> CALLBACK_TYPE:
        """Be told after each new index is swapped in."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    @callback
    def async_add_withdrawal_listener(self, listener: Callable[[], None]) -> CALLBACK_TYPE:
        """Be told when entities are withdrawn between two indexes."""
        self._withdrawal_listeners.append(listener)
        return lambda: self._withdrawal_listeners.remove(listener)

    @callback
    def _async_changed(self, event: Event[Any]) -> None:
        self.async_schedule_rebuild()

    @callback
    def _async_state_changed(self, event: Event[EventStateChangedData]) -> None:
        """Only what changes a record matters: entities appearing, going, or renamed."""
        old, new = event.data["old_state"], event.data["new_state"]
        if old is None or new is None:
            self.async_schedule_rebuild()
            return
        for key in (
            "friendly_name",
            ATTR_DEVICE_CLASS,
            ATTR_SUPPORTED_FEATURES,
            "supported_color_modes",
        ):
            if old.attributes.get(key) != new.attributes.get(key):
                self.async_schedule_rebuild()
                return

    @callback
    def async_schedule_rebuild(self) -> None:
        if self._debouncer is not None and not self._stopped:
            self.hass.async_create_task(self._debouncer.async_call(), eager_start=False)

    async def async_rebuild(self) -> None:
        """Collect on the loop, build in the executor, swap. One build at a time; requests
        that arrive meanwhile are coalesced into one more build."""
        if self._stopped:
            return
        if self.rebuilding:
            self._dirty = True
            return
        self.rebuilding = True
        try:
            while True:
                self._dirty = False
                snapshot = async_collect_home(self.hass)
                started = time.perf_counter()
                built = await self.hass.async_add_executor_job(
                    build_home, snapshot, self.lexicons, self.language, self.view_rules()
                )
                self.last_build_seconds = time.perf_counter() - started
                # Reference assignments: readers see the old or the new, never a mix.
                self.index = built.index
                self.universe = built.universe
                self.view_members = built.view_members
                # Taken from Assist after the home was read: still withdrawn.
                self.withdrawn = frozenset(e for e in self.withdrawn if e in built.index)
                self.builds += 1
                self.last_build_at = time.time()
                for listener in list(self._listeners):
                    listener()
                if not self._dirty:
                    break
        finally:
            self.rebuilding = False
