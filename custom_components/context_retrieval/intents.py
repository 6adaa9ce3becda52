"""Carrying out resolved commands through Home Assistant's own intent handlers.

With Home Assistant's agent downstream some commands are ours to carry out: that agent cannot
express them ("turn it off", "all … except …", several at once, a misspelt name), or its
sentences did not match them. The entities retrieval selected are handed to the handler Home
Assistant itself would have used (HassTurnOn, HassLightSet, HassClimateSetTemperature,
HassSetPosition, HassSetVolume, HassFanSetSpeed, the media intents …), so the services, their
checks and the response are Home Assistant's. Which intents exist is looked up, never assumed:
a setting whose intent came after the oldest release supported (HassFanSetSpeed) goes through
the service that intent calls; a command nothing can express is left to the downstream agent.

The states are read before acting: what already is in the state asked for is told apart from
what changes, and a target that lacks the feature, is not in the state the intent needs
("pause" needs a playing player) or is unavailable is left alone and named. The outcome is
data (`Outcome`); `confirm.py` words it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import voluptuous as vol
from homeassistant.components import conversation
from homeassistant.components.conversation import ConversationInput
from homeassistant.components.fan import FanEntityFeature
from homeassistant.const import ATTR_ENTITY_ID, ATTR_SUPPORTED_FEATURES, STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant, State
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent
from homeassistant.util.unit_conversion import TemperatureConverter

from .const import DOMAIN, LOGGER, RELATIVE_STEPS
from .core import DeviceIndex, RetrievalResult

# The engine's switching actions and the intent that carries each out. Home Assistant's
# HassTurnOn opens a cover and locks a lock, HassTurnOff unlocks it.
SWITCHING = {
    "turn_on": intent.INTENT_TURN_ON,
    "turn_off": intent.INTENT_TURN_OFF,
    "toggle": intent.INTENT_TOGGLE,
    "open": intent.INTENT_TURN_ON,
    "close": intent.INTENT_TURN_OFF,
    "activate": intent.INTENT_TURN_ON,
}
# A lock is locked or unlocked when the words say so, or said to be closed or opened when it
# was named ("öffne die Haustür"); switching words ("turn off the lock", "关掉门锁") never
# reach it.
LOCKING = {
    "lock": intent.INTENT_TURN_ON,
    "close": intent.INTENT_TURN_ON,
    "unlock": intent.INTENT_TURN_OFF,
    "open": intent.INTENT_TURN_OFF,
}
# What a setting is set with: the intent and its slot (Home Assistant's names).
SETTINGS = {
    "brightness": ("HassLightSet", "brightness"),
    "color": ("HassLightSet", "color"),
    "color_temp": ("HassLightSet", "temperature"),
    "temperature": ("HassClimateSetTemperature", "temperature"),
    "position": (intent.INTENT_SET_POSITION, "position"),
    "volume": ("HassSetVolume", "volume_level"),
    "fan_speed": ("HassFanSetSpeed", "percentage"),
    "humidity": ("HassHumidifierSetpoint", "humidity"),
}
# A setting whose intent came after the oldest release supported (HassFanSetSpeed): the
# service that intent calls, its data key and the feature it needs, used on our targets when
# this Home Assistant has no such intent, so "set the desk fan to 50 %" works on every release.
SETTING_SERVICES = {
    "fan_speed": ("fan", "set_percentage", "percentage", int(FanEntityFeature.SET_SPEED)),
}
# Settings taken as whole numbers by their slots.
WHOLE_NUMBERS = frozenset(
    {"brightness", "color_temp", "position", "volume", "fan_speed", "humidity"}
)
MEDIA = {
    "media_next": "HassMediaNext",
    "media_previous": "HassMediaPrevious",
    "media_pause": "HassMediaPause",
    "media_play": "HassMediaUnpause",
    "mute": "HassMediaPlayerMute",
    "unmute": "HassMediaPlayerUnmute",
}
# A vacuum or mower "turned on" ("把扫地机器人启动一下") starts, "turned off" goes home: they
# have no on and off of their own.
BY_DOMAIN = {
    ("start", "vacuum"): "HassVacuumStart",
    ("turn_on", "vacuum"): "HassVacuumStart",
    ("dock", "vacuum"): "HassVacuumReturnToBase",
    ("turn_off", "vacuum"): "HassVacuumReturnToBase",
    ("turn_on", "lawn_mower"): "HassLawnMowerStartMowing",
    ("turn_off", "lawn_mower"): "HassLawnMowerDock",
    ("start", "lawn_mower"): "HassLawnMowerStartMowing",
    ("dock", "lawn_mower"): "HassLawnMowerDock",
}
# Handlers that find their one target by name instead of taking states, and the service they
# call: used on our entity when Home Assistant's name matching would not pick exactly it.
BY_NAME_SERVICES = {
    "HassClimateSetTemperature": ("climate", "set_temperature"),
    "HassHumidifierSetpoint": ("humidifier", "set_humidity"),
}
# The state words a switched entity is in afterwards: (after HassTurnOn, after HassTurnOff).
END_STATES = {
    "cover": ("open", "closed"),
    "valve": ("open", "closed"),
    "lock": ("locked", "unlocked"),
}
# Domains whose "on" is any state but off ("cool", "heat", "playing" …).
ANY_ON = frozenset({"climate", "media_player", "water_heater"})
OFF_STATES = frozenset({"off", "standby"})
NOT_SWITCHED = frozenset({STATE_UNAVAILABLE, "unknown"})


@dataclass(slots=True)
class Done:
    """Entities one command changed, with the setting it set (None for switching)."""

    entity_ids: list[str]
    setting: dict[str, Any] | None = None


@dataclass(slots=True)
class Outcome:
    """What carrying out the commands did, entity by entity."""

    done: list[Done] = field(default_factory=list)
    already: dict[str, list[str]] = field(default_factory=dict)  # "off" → already off
    unsupported: list[str] = field(default_factory=list)  # lacks the feature
    not_now: list[str] = field(default_factory=list)  # not in the state the intent needs
    unavailable: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    out_of_range: list[dict[str, Any]] = field(default_factory=list)  # refused settings
    not_found: list[str] = field(default_factory=list)  # words naming nothing in the home
    nothing: bool = False  # a command that found nothing it could do
    left_alone: bool = False  # "别关灯": told not to
    later: bool = False  # "at 11 pm", "tomorrow": a time we cannot keep, so nothing done now
    success_results: list[intent.IntentResponseTarget] = field(default_factory=list)
    failed_results: list[intent.IntentResponseTarget] = field(default_factory=list)
    states: list[State] = field(default_factory=list)  # what was acted on, for the response

    @property
    def acted(self) -> bool:
        return bool(self.success_results)

    @property
    def said_anything(self) -> bool:
        return bool(
            self.done
            or self.already
            or self.unsupported
            or self.not_now
            or self.unavailable
            or self.failed
            or self.out_of_range
            or self.not_found
            or self.nothing
            or self.later
            or self.left_alone
        )


@dataclass(slots=True)
class Step:
    """One handler call: an intent with its slots on entities of one command."""

    intent_type: str
    slots: dict[str, Any]
    states: list[State]
    setting: dict[str, Any] | None = None
    # Set through this service instead (SETTING_SERVICES) when the intent is missing.
    service: tuple[str, str, str, int] | None = None


def intent_for(result: RetrievalResult, domain: str) -> str | None:
    """The intent that carries out this command on an entity of `domain`."""
    action = result.ir.action or ""
    setting = result.meta.setting
    if setting is not None:
        return SETTINGS.get(str(setting.get("attribute")), (None, None))[0]
    if action in MEDIA:
        return MEDIA[action]
    if (action, domain) in BY_DOMAIN:
        return BY_DOMAIN[(action, domain)]
    return (LOCKING if domain == "lock" else SWITCHING).get(action)


def slot_value(setting: dict[str, Any], hass: HomeAssistant) -> Any:
    """The setting as its slot takes it; None when it cannot be said to Home Assistant (a
    change without a value: "brighter")."""
    attribute, value, unit = setting.get("attribute"), setting.get("value"), setting.get("unit")
    if value is None or setting.get("change"):
        return None
    if isinstance(value, str):
        return value if attribute == "color" else None
    number = float(value)
    if attribute == "temperature" and unit in ("°C", "°F"):
        # The climate service reads the home's unit; "75 °F" in a Celsius home is converted.
        home_unit = hass.config.units.temperature_unit
        if unit != home_unit:
            number = TemperatureConverter.convert(number, unit, home_unit)
        return round(number, 1)
    return round(number) if attribute in WHOLE_NUMBERS else number


def already_in(intent_type: str, state: State) -> str | None:
    """The state word ("off", "open", "locked") when a switching intent would not change this
    entity; None when it would (or when that cannot be told)."""
    if intent_type not in (intent.INTENT_TURN_ON, intent.INTENT_TURN_OFF):
        return None
    if state.state in NOT_SWITCHED:
        return None
    on, off = END_STATES.get(state.domain, ("on", "off"))
    turning_on = intent_type == intent.INTENT_TURN_ON
    if state.domain in ANY_ON:
        is_on = state.state not in OFF_STATES
        return ("on" if is_on else None) if turning_on else (None if is_on else "off")
    if state.domain in ("scene", "script", "button", "input_button"):
        return None
    wanted = on if turning_on else off
    return wanted if state.state == wanted else None


def plan(
    hass: HomeAssistant,
    results: Sequence[RetrievalResult],
    outcome: Outcome,
    index: DeviceIndex | None = None,
) -> list[Step] | None:
    """The handler calls that carry out every command that selected something; None when one
    of them cannot be expressed through an intent Home Assistant has. What selects nothing
    because it cannot (a feature missing, a value refused) goes into `outcome`."""
    handlers = {h.intent_type: h for h in intent.async_get(hass)}
    steps: list[Step] = []
    for result in results:
        setting = result.meta.setting
        if not result.selected or setting is not None:
            outcome.unsupported.extend(_unable(hass, result))
        if not result.selected:
            _withheld(result, setting, outcome)
            continue
        setting = _step_when_on_already(hass, result, index) or setting
        if setting is not None and setting.get("change") and not setting.get("error"):
            relative = _relative_steps(hass, result, setting, handlers, outcome)
            if relative is None:
                return None
            steps.extend(relative)
            continue
        value = slot_value(setting, hass) if setting is not None else None
        if setting is not None and value is None:
            return None
        by_intent: dict[str, list[State]] = {}
        for entity_id in result.selected_ids:
            state = hass.states.get(entity_id)
            if state is None:
                continue
            intent_type = intent_for(result, state.domain)
            if intent_type is not None and intent_type not in handlers:
                intent_type = _by_service(setting, state.domain)
            if intent_type is None:
                return None
            by_intent.setdefault(intent_type, []).append(state)
        for intent_type, states in by_intent.items():
            slots = {SETTINGS[str(setting["attribute"])][1]: value} if setting else {}
            service = SETTING_SERVICES.get(str(setting["attribute"])) if setting else None
            if intent_type in handlers:
                service = None
            steps.append(Step(intent_type, slots, states, setting, service))
    return steps


def _step_when_on_already(
    hass: HomeAssistant, result: RetrievalResult, index: DeviceIndex | None
) -> dict[str, Any] | None:
    """ "太热了" with the AC running, "too dark" with the lamps on: a step the other way
    than switching on (a degree cooler, brighter), as the complaint's rule says."""
    condition = result.ir.condition
    if condition is None or index is None or result.ir.action != "turn_on":
        return None
    rule = index.lexicons.types.conditions.get(condition)
    if rule is None or rule.then_action is None:
        return None
    states = [s for e in result.selected_ids if (s := hass.states.get(e)) is not None]
    if not states or any(already_in(intent.INTENT_TURN_ON, s) is None for s in states):
        return None
    spec = index.lexicons.values.actions.get(rule.then_action)
    if spec is None:
        return None
    return {"attribute": spec.attribute, "value": None, "unit": None, "change": rule.then_change}


def _withheld(result: RetrievalResult, setting: dict[str, Any] | None, outcome: Outcome) -> None:
    """What a command that selected nothing says: a value Home Assistant would refuse, words
    that name nothing in the home, being told not to, or that nothing could do it."""
    reason = result.meta.not_commanded
    if reason == "value_out_of_range" and setting is not None:
        outcome.out_of_range.append(setting)
    elif reason == "not_found":
        outcome.not_found.extend(str(w) for w in (result.meta.not_found or ()))
    elif reason == "negated":
        outcome.left_alone = True
    elif reason == "delayed":
        outcome.later = True
    elif reason in ("nothing_there", "reference_unresolved") or (
        reason == "cannot_do" and not _named(result)
    ):
        outcome.nothing = True


def _named(result: RetrievalResult) -> set[str]:
    return {e for m in result.ir.mentions for e in m.entity_ids}


def _relative_steps(
    hass: HomeAssistant,
    result: RetrievalResult,
    setting: dict[str, Any],
    handlers: dict[str, intent.IntentHandler],
    outcome: Outcome,
) -> list[Step] | None:
    """ "调高一点", "make it warmer", "dim it a bit": each device a step from where it is now,
    one step per value reached; None when the setting has no intent or a device no value."""
    attribute = str(setting.get("attribute"))
    if attribute not in RELATIVE_STEPS or attribute not in SETTINGS:
        return None
    intent_type, slot = SETTINGS[attribute]
    if intent_type not in handlers:
        return None
    by_value: dict[float, list[State]] = {}
    for entity_id in result.selected_ids:
        state = hass.states.get(entity_id)
        if state is None:
            continue
        if attribute == "brightness" and state.state == "off" and setting["change"] == "down":
            # "dim it a bit" of a light that is off: dimmer it cannot be, and not switched on.
            outcome.already.setdefault("off", []).append(entity_id)
            continue
        value = stepped(state, attribute, setting)
        if value is None:
            return None
        by_value.setdefault(value, []).append(state)
    unit = "°" if attribute == "temperature" else "%"
    return [
        Step(
            intent_type,
            {slot: value},
            states,
            {**setting, "value": value, "unit": unit, "change": None},
        )
        for value, states in by_value.items()
    ]


def stepped(state: State, attribute: str, setting: dict[str, Any]) -> float | None:
    """The value one step up or down from the device's current one: the amount said ("再高两
    度") or the usual step; kept within what the device takes."""
    current = current_value(state, attribute)
    if current is None:
        return None
    amount = setting.get("value")
    step = float(amount) if isinstance(amount, int | float) else RELATIVE_STEPS[attribute]
    target = current + step if setting.get("change") == "up" else current - step
    low, high = value_bounds(state, attribute)
    target = min(max(target, low), high)
    return round(target, 1) if attribute == "temperature" else float(round(target))


def current_value(state: State, attribute: str) -> float | None:
    """The device's value of `attribute` on the scale its slot takes (percent, degrees)."""
    attrs = state.attributes
    raw: Any
    if attribute == "brightness":
        raw = attrs.get("brightness")
        if raw is None:
            # Off is 0 %; on without a level reported is taken as full.
            return 0.0 if state.state == "off" else 100.0
        return float(raw) * 100 / 255
    if attribute == "volume":
        raw = attrs.get("volume_level")
        return None if raw is None else float(raw) * 100
    key = {
        "temperature": "temperature",
        "fan_speed": "percentage",
        "position": "current_position",
        "humidity": "humidity",
    }.get(attribute)
    raw = attrs.get(key) if key else None
    if raw is None and attribute == "temperature":
        raw = attrs.get("current_temperature")
    try:
        return None if raw is None else float(raw)
    except (TypeError, ValueError):
        return None


def value_bounds(state: State, attribute: str) -> tuple[float, float]:
    """What the device takes: its own limits for temperature and humidity; a light is dimmed
    to its lowest level, not switched off by "dimmer"."""
    attrs = state.attributes
    if attribute in ("temperature", "humidity"):
        low, high = (
            ("min_temp", "max_temp")
            if attribute == "temperature"
            else ("min_humidity", "max_humidity")
        )
        try:
            return float(attrs.get(low, 0.0)), float(attrs.get(high, 100.0))
        except (TypeError, ValueError):
            return 0.0, 100.0
    return (1.0 if attribute == "brightness" else 0.0), 100.0


def _by_service(setting: dict[str, Any] | None, domain: str) -> str | None:
    """The name a setting's step goes by when its intent is missing but its service can do
    it on an entity of `domain`; None when nothing can."""
    if setting is None:
        return None
    attribute = str(setting.get("attribute"))
    service = SETTING_SERVICES.get(attribute)
    if service is None or service[0] != domain:
        return None
    return SETTINGS[attribute][0]


def _unable(hass: HomeAssistant, result: RetrievalResult) -> list[str]:
    """What the capability check left out of a command that could not act at all ("set the
    fish tank to 50 %") or sets a value ("the living room lights to 50 %" with one that only
    switches); of those the command named, when it named any. ("Turn off everything in the
    living room" leaves the sensors out without anyone asking for them.)"""
    if result.ir.action in (None, "query"):
        return []
    removed = [e for e in (result.meta.capability_removed or []) if hass.states.get(e)]
    named = _named(result)
    if not named and not result.selected:
        # "关门" found door sensors that cannot close: nothing was asked of them by name.
        return []
    return [e for e in removed if e in named] if named else removed


async def async_carry_out(
    hass: HomeAssistant,
    user_input: ConversationInput,
    results: Sequence[RetrievalResult],
    index: DeviceIndex,
    language: str,
) -> Outcome | None:
    """Carry out the commands through Home Assistant's intent handlers; None when they cannot
    all be expressed that way or there is nothing to do or say."""
    outcome = Outcome()
    steps = plan(hass, results, outcome, index)
    if steps is None:
        return None
    if not steps and not outcome.said_anything:
        return None
    handlers = {h.intent_type: h for h in intent.async_get(hass)}
    for step in steps:
        if step.service is not None:
            await _async_by_setting_service(hass, user_input, step, language, outcome)
            continue
        handler = handlers[step.intent_type]
        ready = _ready_states(handler, step, outcome)
        if not ready:
            continue
        intent_obj = intent.Intent(
            hass,
            platform=DOMAIN,
            intent_type=step.intent_type,
            slots={key: {"value": value} for key, value in step.slots.items()},
            text_input=user_input.text,
            context=user_input.context,
            language=language,
            assistant=conversation.DOMAIN,
            device_id=user_input.device_id,
        )
        if hasattr(handler, "async_handle_states"):
            await _async_on_states(handler, intent_obj, step, ready, outcome)
        else:
            for state in ready:
                await _async_by_name(hass, handler, intent_obj, step, state, index, outcome)
    return outcome


def _ready_states(handler: intent.IntentHandler, step: Step, outcome: Outcome) -> list[State]:
    """The states the intent can act on; the others go into the outcome with the reason."""
    domains = getattr(handler, "required_domains", None)
    features = getattr(handler, "required_features", None)
    needed = getattr(handler, "required_states", None)
    ready: list[State] = []
    already: list[tuple[str, State]] = []
    for state in step.states:
        supported = state.attributes.get(ATTR_SUPPORTED_FEATURES) or 0
        if state.state == STATE_UNAVAILABLE:
            outcome.unavailable.append(state.entity_id)
        elif (domains and state.domain not in domains) or (
            features and (int(supported) & features) != features
        ):
            outcome.unsupported.append(state.entity_id)
        elif needed and state.state not in needed:
            outcome.not_now.append(state.entity_id)
        else:
            ready.append(state)
            word = already_in(step.intent_type, state)
            if word is not None:
                already.append((word, state))
    # Acted on all the same (a group may report "on" while members are off), but said as it
    # is: not changed.
    for word, state in already:
        outcome.already.setdefault(word, []).append(state.entity_id)
    return ready


def _record(
    outcome: Outcome, step: Step, response: intent.IntentResponse, acted: list[State]
) -> None:
    outcome.success_results.extend(response.success_results)
    outcome.failed_results.extend(response.failed_results)
    failed = {t.id for t in response.failed_results}
    outcome.failed.extend(i for t in response.failed_results if (i := t.id))
    already = {e for ids in outcome.already.values() for e in ids}
    changed = [
        s.entity_id for s in acted if s.entity_id not in failed and s.entity_id not in already
    ]
    if changed:
        outcome.done.append(Done(changed, step.setting))
    outcome.states.extend(acted)


async def _async_on_states(
    handler: intent.IntentHandler,
    intent_obj: intent.Intent,
    step: Step,
    states: list[State],
    outcome: Outcome,
) -> None:
    """A handler that takes the states to act on (Home Assistant's service intents)."""
    try:
        intent_obj.slots = handler.async_validate_slots(intent_obj.slots)
        response = await handler.async_handle_states(  # type: ignore[attr-defined]
            intent_obj,
            intent.MatchTargetsResult(is_match=True, states=states),
            intent.MatchTargetsConstraints(),
        )
    except (intent.IntentError, HomeAssistantError, vol.Invalid, ValueError, TypeError) as err:
        LOGGER.debug("%s did not carry out the command: %s", step.intent_type, err)
        outcome.failed.extend(s.entity_id for s in states)
        outcome.failed_results.extend(_targets(states))
        return
    _record(outcome, step, response, states)


async def _async_by_name(
    hass: HomeAssistant,
    handler: intent.IntentHandler,
    intent_obj: intent.Intent,
    step: Step,
    state: State,
    index: DeviceIndex,
    outcome: Outcome,
) -> None:
    """A handler that finds its one target by name (HassClimateSetTemperature): given the name
    and room that pick exactly our entity, checked first without acting; otherwise the
    service the intent calls, on our entity."""
    area = None
    if state.entity_id in index:
        device = index.device(state.entity_id)
        area = index.area_name(device.area_id) or None
        names = [device.name, state.name]
    else:
        names = [state.name]
    slots = dict(intent_obj.slots)
    for name in dict.fromkeys(n for n in names if n):
        constraints = intent.MatchTargetsConstraints(
            name=name, area_name=area, domains=[state.domain], assistant=conversation.DOMAIN
        )
        match = intent.async_match_targets(hass, constraints)
        if match.is_match and [s.entity_id for s in match.states] == [state.entity_id]:
            intent_obj.slots = {**slots, "name": {"value": name}}
            if area:
                intent_obj.slots["area"] = {"value": area}
            try:
                response = await handler.async_handle(intent_obj)
            except (intent.IntentError, HomeAssistantError, vol.Invalid, ValueError) as err:
                LOGGER.debug("%s did not carry out the command: %s", step.intent_type, err)
                break
            _record(outcome, step, response, [state])
            return
    service = BY_NAME_SERVICES.get(step.intent_type)
    key = next(iter(step.slots), None)
    if service is None or key is None:
        outcome.failed.append(state.entity_id)
        outcome.failed_results.extend(_targets([state]))
        return
    try:
        await hass.services.async_call(
            *service,
            {ATTR_ENTITY_ID: state.entity_id, key: step.slots[key]},
            blocking=True,
            context=intent_obj.context,
        )
    except (HomeAssistantError, vol.Invalid, ValueError) as err:
        LOGGER.debug("%s.%s failed: %s", *service, err)
        outcome.failed.append(state.entity_id)
        outcome.failed_results.extend(_targets([state]))
        return
    response = intent_obj.create_response()
    response.async_set_results(success_results=_targets([state]))
    _record(outcome, step, response, [state])


async def _async_by_setting_service(
    hass: HomeAssistant,
    user_input: ConversationInput,
    step: Step,
    language: str,
    outcome: Outcome,
) -> None:
    """A setting whose intent this Home Assistant lacks, through the service the intent calls
    on the entities that have the feature; the others are named as the intent would."""
    assert step.service is not None
    domain, service, key, feature = step.service
    ready: list[State] = []
    for state in step.states:
        supported = int(state.attributes.get(ATTR_SUPPORTED_FEATURES) or 0)
        if state.state == STATE_UNAVAILABLE:
            outcome.unavailable.append(state.entity_id)
        elif (supported & feature) != feature:
            outcome.unsupported.append(state.entity_id)
        else:
            ready.append(state)
    if not ready:
        return
    value = next(iter(step.slots.values()))
    try:
        await hass.services.async_call(
            domain,
            service,
            {ATTR_ENTITY_ID: [s.entity_id for s in ready], key: value},
            blocking=True,
            context=user_input.context,
        )
    except (HomeAssistantError, vol.Invalid, ValueError) as err:
        LOGGER.debug("%s.%s failed: %s", domain, service, err)
        outcome.failed.extend(s.entity_id for s in ready)
        outcome.failed_results.extend(_targets(ready))
        return
    response = intent.IntentResponse(language=language)
    response.async_set_results(success_results=_targets(ready))
    _record(outcome, step, response, ready)


def _targets(states: list[State]) -> list[intent.IntentResponseTarget]:
    return [
        intent.IntentResponseTarget(
            type=intent.IntentResponseTargetType.ENTITY, name=s.name, id=s.entity_id
        )
        for s in states
    ]
