"""One sensor per published view rule: state = how many entities match (in "entities", in the
home's language), attribute `entity_id` = the members (so `expand()` and the blueprints work),
plus the rule as it was written, how it was read, and when; each attribute's name and the ways
a rule is read are translated. The rule's JSON form is for the services, not for people: it is
not an attribute."""

from __future__ import annotations

from typing import Any

from homeassistant.components.sensor import SensorEntity
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.entity_platform import AddEntitiesCallback

from .core.views.store import ViewRule
from .data import ContextRetrievalConfigEntry
from .views import ViewManager, sensor_unique_id

# The sensors are pushed by the view manager and never poll: no limit on concurrent updates.
PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant, entry: ContextRetrievalConfigEntry, async_add_entities: AddEntitiesCallback
) -> None:
    views = entry.runtime_data.views
    sensors: dict[str, ViewSensor] = {}

    @callback
    def sync() -> None:
        """Add sensors for new rules, drop those of deleted ones, refresh the rest."""
        added = []
        for key, rule in views.rules.items():
            sensor = sensors.get(key)
            if sensor is None:
                sensors[key] = sensor = ViewSensor(views, rule)
                added.append(sensor)
            else:
                sensor.async_refresh(rule)
        if added:
            async_add_entities(added)
        for key in [k for k in sensors if k not in views.rules]:
            del sensors[key]
        if views.store is not None:
            # The rules are known (the store is open): a sensor whose view is gone goes too,
            # also one registered before a restart whose view was lost with a damaged store,
            # which would otherwise stay behind as "unavailable".
            _async_remove_orphans(hass, entry.entry_id, views)

    sync()
    entry.async_on_unload(views.async_add_listener(sync))


@callback
def _async_remove_orphans(hass: HomeAssistant, entry_id: str, views: ViewManager) -> None:
    wanted = {sensor_unique_id(rule.name) for rule in views.rules.values()}
    ent_reg = er.async_get(hass)
    for registered in er.async_entries_for_config_entry(ent_reg, entry_id):
        if registered.domain == "sensor" and registered.unique_id not in wanted:
            ent_reg.async_remove(registered.entity_id)  # also removes the entity itself


class ViewSensor(SensorEntity):
    """A published view rule."""

    _attr_has_entity_name = True
    _attr_translation_key = "view"
    _attr_should_poll = False
    # Member lists of big views would bloat the recorder; the count is what history needs.
    _unrecorded_attributes = frozenset({"entity_id"})

    def __init__(self, views: ViewManager, rule: ViewRule) -> None:
        self._views = views
        self._rule = rule
        self._attr_unique_id = sensor_unique_id(rule.name)
        self._attr_translation_placeholders = {"name": rule.name}
        self._members = views.members(rule.name)

    @property
    def native_value(self) -> int:
        return len(self._members)

    @property
    def extra_state_attributes(self) -> dict[str, Any]:
        rule = self._rule
        shown = {
            "entity_id": sorted(self._members),
            "rule": rule.rule_nl,
            "compile_source": rule.compile_source,
            "rewrite_note": rule.rewrite_note,
            "last_error": rule.last_error,
            "updated_at": rule.updated_at,
        }
        # A note or an error is shown only when there is one (never as an empty "None").
        return {key: value for key, value in shown.items() if value is not None}

    @callback
    def async_refresh(self, rule: ViewRule) -> None:
        members = self._views.members(rule.name)
        if rule == self._rule and members == self._members:
            return
        self._rule = rule
        self._members = members
        if self.hass is not None and self.entity_id:
            self.async_write_ha_state()
