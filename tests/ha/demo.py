"""The demo home in Home Assistant's test harness: its services recorded, and a conversation
with our agent as a user has it (`conversation.async_converse`)."""

from __future__ import annotations

from typing import Any

from homeassistant.components import conversation
from homeassistant.components.conversation.chat_log import DATA_CHAT_LOGS
from homeassistant.core import Context, HomeAssistant, ServiceCall
from homeassistant.helpers import intent

from tests.ha.fakes import called_entities, our_agent_id

# The services the intents call, recorded instead of run (states change only where a test
# sets them).
SERVICES = {
    "light": ("turn_on", "turn_off"),
    "switch": ("turn_on", "turn_off"),
    "climate": ("set_temperature", "turn_on", "turn_off"),
    "cover": ("open_cover", "close_cover", "set_cover_position"),
    "fan": ("turn_on", "turn_off", "set_percentage"),
    "media_player": ("volume_set", "media_pause", "media_play", "turn_on", "turn_off"),
    "lock": ("lock", "unlock"),
    "humidifier": ("set_humidity", "turn_on", "turn_off"),
}


class Recorded(dict[str, list[ServiceCall]]):
    """Service calls by "domain.service"."""

    def entities(self, service: str) -> list[str]:
        return called_entities(self[service])

    def data(self, service: str) -> dict[str, dict[str, Any]]:
        """Each entity's call data (without the entity id)."""
        out: dict[str, dict[str, Any]] = {}
        for call in self[service]:
            ids = call.data["entity_id"]
            for entity_id in [ids] if isinstance(ids, str) else ids:
                out[entity_id] = {k: v for k, v in call.data.items() if k != "entity_id"}
        return out

    def any(self) -> bool:
        return any(self.values())


async def converse(
    hass: HomeAssistant, text: str, conversation_id: str, language: str = "zh-cn"
) -> conversation.ConversationResult:
    result = await conversation.async_converse(
        hass, text, conversation_id, Context(), language, agent_id=our_agent_id(hass)
    )
    await hass.async_block_till_done()
    return result


def speech(result: conversation.ConversationResult) -> str:
    return str(result.response.speech.get("plain", {}).get("speech", ""))


def set_state(hass: HomeAssistant, entity_ids: set[str] | list[str], value: str) -> None:
    for entity_id in entity_ids:
        state = hass.states.get(entity_id)
        assert state is not None, entity_id
        hass.states.async_set(entity_id, value, state.attributes)


def last_answer(hass: HomeAssistant, conversation_id: str) -> Any:
    return hass.data[DATA_CHAT_LOGS][conversation_id].content[-1]


def is_question(result: conversation.ConversationResult) -> bool:
    """Asked back: the conversation stays open and the answer is no action done."""
    return (
        result.continue_conversation is True
        and result.response.response_type == intent.IntentResponseType.QUERY_ANSWER
        and speech(result).rstrip().endswith(("?", "？"))
    )


# ---- a home whose services change its states ----------------------------------------------

# Each service and the state it leaves the entity in (None: the state stays, attributes change).
LIVE_STATES: dict[str, str | None] = {
    "turn_on": "on",
    "turn_off": "off",
    "open_cover": "open",
    "close_cover": "closed",
    "set_cover_position": None,
    "lock": "locked",
    "unlock": "unlocked",
    "set_temperature": None,
    "set_percentage": None,
    "set_humidity": None,
    "volume_set": None,
    "media_pause": "paused",
    "media_play": "playing",
}
# Service data keys and the attribute each sets.
LIVE_ATTRIBUTES = {
    "brightness_pct": ("brightness", lambda v: round(float(v) * 255 / 100)),
    "brightness": ("brightness", float),
    "temperature": ("temperature", float),
    "percentage": ("percentage", float),
    "humidity": ("humidity", float),
    "volume_level": ("volume_level", float),
    "position": ("current_position", float),
}
ON_STATES = {"climate": "cool", "media_player": "on"}


def snapshot(hass: HomeAssistant) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every entity's state and attributes now."""
    return {s.entity_id: (s.state, dict(s.attributes)) for s in hass.states.async_all()}


def changed(
    before: dict[str, tuple[str, dict[str, Any]]], after: dict[str, tuple[str, dict[str, Any]]]
) -> set[str]:
    """The entities whose state or attributes differ."""
    return {e for e, value in after.items() if before.get(e) != value}


def live_handler(hass: HomeAssistant, domain: str, service: str) -> Any:
    """A service that does to the state what the real one would."""

    async def handle(call: ServiceCall) -> None:
        ids = call.data["entity_id"]
        for entity_id in [ids] if isinstance(ids, str) else ids:
            state = hass.states.get(entity_id)
            if state is None:
                continue
            attributes = dict(state.attributes)
            for key, (attribute, convert) in LIVE_ATTRIBUTES.items():
                if key in call.data:
                    attributes[attribute] = convert(call.data[key])
            new = LIVE_STATES.get(service)
            if new == "on":
                new = ON_STATES.get(domain, "on")
                if domain == "light" and state.state == "off" and "brightness" not in attributes:
                    attributes["brightness"] = 255
            if service == "set_cover_position":
                new = "open" if float(call.data["position"]) > 0 else "closed"
            hass.states.async_set(entity_id, new or state.state, attributes)

    return handle
