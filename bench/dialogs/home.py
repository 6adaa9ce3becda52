"""The demo home between dialogs: read it, wait until it settles, put it back to its seeded
states and give it a dialog's starting states, all through Home Assistant's real services.

scripts/devhome backs every demo entity with hidden helpers (package.py): an `input_boolean`
for on/off (locked, cleaning), an `input_number` for a light's brightness or a cover's position;
the template entities follow them. The seeded value of each helper is its `initial` in the
generated package. Thermostats (`generic_thermostat`) and hygrostats (`generic_hygrostat`) are
set through their own services; the switches they drive are left to them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .model import VALUES, Given
from .states import EntityState, Snapshot, changed, given_target, matches, snapshot

SETTLE_STEP = 0.15  # seconds between two reads while waiting for the home to settle
SETTLE_QUIET = 2  # settled after this many steps in a row without a change
SETTLE_LIMIT = 5.0  # give up waiting (the turn is judged on what is there)
UNIQUE_PREFIX = "dh."  # scripts/devhome's unique ids: dh.<entity_id>


class HomeError(RuntimeError):
    """The home could not be put into the state a dialog starts from."""


@dataclass(frozen=True)
class Seed:
    """The seeded demo home: the helpers' initial values and the generic climates'."""

    demo_ids: tuple[str, ...]  # every demo entity Home Assistant provides
    helpers_of: Mapping[str, tuple[str, ...]]  # demo entity → its helpers
    booleans: Mapping[str, bool]  # input_boolean → initially on
    numbers: Mapping[str, float]  # input_number → initial value
    climates: Mapping[str, tuple[str, float]]  # climate → (hvac mode, target temperature)
    humidifiers: Mapping[str, tuple[bool, float]]  # humidifier → (on, target humidity)


def seed_of(plan: Any) -> Seed:
    """From devhome's `Plan` (the generated package and the entities behind it)."""
    package: dict[str, Any] = plan.package
    climates = {
        str(c["unique_id"]).removeprefix(UNIQUE_PREFIX): (
            str(c["initial_hvac_mode"]),
            float(c["target_temp"]),
        )
        for c in package.get("climate", [])
        if c.get("platform") == "generic_thermostat"
    }
    humidifiers = {
        str(h["unique_id"]).removeprefix(UNIQUE_PREFIX): (
            bool(h["initial_state"]),
            float(h["target_humidity"]),
        )
        for h in package.get("generic_hygrostat", [])
    }
    # The switches a thermostat or hygrostat drives are theirs to set.
    driven = {c["heater"] for c in package.get("climate", []) if "heater" in c}
    driven |= {h["humidifier"] for h in package.get("generic_hygrostat", [])}
    booleans = {
        f"input_boolean.{key}": bool(value.get("initial"))
        for key, value in package.get("input_boolean", {}).items()
        if f"input_boolean.{key}" not in driven
    }
    numbers = {
        f"input_number.{key}": float(value["initial"])
        for key, value in package.get("input_number", {}).items()
    }
    return Seed(
        demo_ids=tuple(e.entity_id for e in plan.entities),
        helpers_of={e.entity_id: tuple(e.helpers) for e in plan.entities},
        booleans=booleans,
        numbers=numbers,
        climates=climates,
        humidifiers=humidifiers,
    )


async def call(api: Any, domain: str, service: str, **data: Any) -> None:
    await api.request("POST", f"/api/services/{domain}/{service}", json_data=data)


async def read(api: Any, entity_ids: Iterable[str]) -> dict[str, EntityState]:
    return snapshot(await api.request("GET", "/api/states"), entity_ids)


async def settle(api: Any, entity_ids: Iterable[str]) -> dict[str, EntityState]:
    """The home once SETTLE_QUIET steps in a row saw no change (or after SETTLE_LIMIT): an
    action still running when the reply came (a script, a slow service) lands in this turn."""
    ids = tuple(entity_ids)
    deadline = time.monotonic() + SETTLE_LIMIT
    await asyncio.sleep(SETTLE_STEP)
    last = await read(api, ids)
    quiet = 0
    while time.monotonic() < deadline:
        await asyncio.sleep(SETTLE_STEP)
        now = await read(api, ids)
        quiet = quiet + 1 if now == last else 0
        if quiet >= SETTLE_QUIET:
            return now
        last = now
    return last


async def reset(api: Any, seed: Seed) -> None:
    """Every helper and generic climate back to its seeded value (only those that moved)."""
    states = {s["entity_id"]: s for s in await api.request("GET", "/api/states")}
    for entity_id, (mode, target) in seed.climates.items():
        attributes = states.get(entity_id, {}).get("attributes", {})
        if attributes.get("temperature") != target:
            await call(api, "climate", "set_temperature", entity_id=entity_id, temperature=target)
        if states.get(entity_id, {}).get("state") != mode:
            await call(api, "climate", "set_hvac_mode", entity_id=entity_id, hvac_mode=mode)
    for entity_id, (on, target) in seed.humidifiers.items():
        state = states.get(entity_id, {})
        if state.get("attributes", {}).get("humidity") != target:
            await call(api, "humidifier", "set_humidity", entity_id=entity_id, humidity=target)
        if (state.get("state") == "on") != on:
            await call(api, "humidifier", "turn_on" if on else "turn_off", entity_id=entity_id)
    for helper, on in seed.booleans.items():
        if states.get(helper, {}).get("state") != ("on" if on else "off"):
            await call(api, "input_boolean", "turn_on" if on else "turn_off", entity_id=helper)
    for helper, value in seed.numbers.items():
        try:
            current = float(states.get(helper, {}).get("state"))
        except (TypeError, ValueError):
            current = None
        if current != value:
            await call(api, "input_number", "set_value", entity_id=helper, value=value)


# What a given state means for the boolean behind an entity of each domain.
_ON_STATES = {"lock": "locked", "vacuum": "cleaning"}


async def apply_given(api: Any, seed: Seed, given: Mapping[str, Given]) -> None:
    for entity_id, wanted in given.items():
        domain = entity_id.split(".", 1)[0]
        helpers = seed.helpers_of.get(entity_id, ())
        values = dict(wanted.values)
        if domain == "climate":
            if "temperature" in values:
                await call(
                    api,
                    "climate",
                    "set_temperature",
                    entity_id=entity_id,
                    temperature=values["temperature"],
                )
            if wanted.state:
                await call(
                    api, "climate", "set_hvac_mode", entity_id=entity_id, hvac_mode=wanted.state
                )
        elif domain == "humidifier":
            if "humidity" in values:
                await call(
                    api,
                    "humidifier",
                    "set_humidity",
                    entity_id=entity_id,
                    humidity=values["humidity"],
                )
            if wanted.state:
                service = "turn_on" if wanted.state == "on" else "turn_off"
                await call(api, "humidifier", service, entity_id=entity_id)
        elif domain == "cover":
            position = values.get("position")
            if position is None and wanted.state:
                position = 100.0 if wanted.state == "open" else 0.0
            if position is not None:
                await call(api, "input_number", "set_value", entity_id=helpers[0], value=position)
        else:
            await _apply_boolean(api, domain, helpers, wanted, values)


async def _apply_boolean(
    api: Any, domain: str, helpers: tuple[str, ...], wanted: Given, values: dict[str, float]
) -> None:
    if "brightness" in values and domain == "light":
        level = round(values["brightness"] * 255 / 100)
        await call(api, "input_number", "set_value", entity_id=helpers[1], value=level)
    if wanted.state:
        on = wanted.state == _ON_STATES.get(domain, "on") or (
            domain == "media_player" and wanted.state != "off"
        )
        service = "turn_on" if on else "turn_off"
        await call(api, "input_boolean", service, entity_id=helpers[0])


def given_problems(given: Mapping[str, Given], home: Snapshot) -> list[str]:
    """Given states the home does not show."""
    problems = []
    for entity_id, wanted in given.items():
        domain = entity_id.split(".", 1)[0]
        now = home.get(entity_id, EntityState("missing"))
        target = given_target(domain, wanted)
        media_off = domain == "media_player" and wanted.state not in (None, "off")
        if not matches(target, None, now) or (media_off and now.state == "off"):
            problems.append(f"{entity_id}: {now.describe()} instead of {describe_values(wanted)}")
    return problems


async def prepare(
    api: Any,
    seed: Seed,
    baseline: Snapshot,
    given: Mapping[str, Given],
    volatile: Iterable[str] = (),
) -> dict[str, EntityState]:
    """Seeded states, then the given ones; the settled home, checked (HomeError otherwise)."""
    skip = set(volatile) | {e for e in seed.demo_ids if e.split(".")[0] in ("scene", "script")}
    for _attempt in range(2):
        await reset(api, seed)
        home = await settle(api, seed.demo_ids)
        off = [e for e in changed(baseline, home) if e not in skip]
        if not off:
            break
    else:
        raise HomeError("the seeded states did not come back: " + ", ".join(off))
    if given:
        await apply_given(api, seed, given)
        home = await settle(api, seed.demo_ids)
        problems = given_problems(given, home)
        if problems:
            raise HomeError("given states not reached: " + "; ".join(problems))
    return home


async def set_exposed(api: Any, entity_ids: Iterable[str], exposed: bool) -> None:
    """Expose or hide entities to Assist, and let our index follow at once (its own listener
    would do so after a debounce)."""
    ids = list(entity_ids)
    if not ids:
        return
    await api.ws(
        "homeassistant/expose_entity",
        assistants=["conversation"],
        entity_ids=ids,
        should_expose=exposed,
    )
    await api.request(
        "POST", "/api/services/context_retrieval/rebuild_index?return_response", json_data={}
    )


def describe_values(given: Given) -> str:
    parts = [given.state or ""] + [f"{k}={v:g}" for k, v in given.values if k in VALUES]
    return " ".join(p for p in parts if p)
