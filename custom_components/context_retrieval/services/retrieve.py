"""`retrieve` (what the assistant would be told for a text, and why) and `rebuild_index`."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv

from ..const import (
    CONCISE_NOTES,
    MAX_REASON_CHARS,
    MAX_SHOWN_NAME_CHARS,
    MAX_SPEECH_CHARS,
    MAX_TEXT_CHARS,
)
from ..core import DeviceIndex, RetrievalResult
from ..core.base.models import Reason
from ..core.base.redact import clean, redact
from ..core.search import explain as explain_table
from ..data import loaded_data
from ..errors import service_error
from ..retrieval import async_run_retrieval, render_selection
from .language import tie_breaker
from .schema import ID, LANGUAGE, RequestSchema, bounded_text
from .search import recency

RETRIEVE_SCHEMA = RequestSchema(
    {
        vol.Required("text"): bounded_text(MAX_TEXT_CHARS),
        vol.Optional("conversation_id"): ID,
        vol.Optional("language"): LANGUAGE,
        vol.Optional("explain", default=False): cv.boolean,
    }
)


def _candidate(
    index: DeviceIndex,
    entity_id: str,
    score: float,
    breakdown: dict[str, float],
    reasons: list[Reason],
) -> dict[str, Any]:
    device = index.device(entity_id)
    return {
        "entity_id": entity_id,
        "name": clean(device.name, MAX_SHOWN_NAME_CHARS),
        "area": clean(index.area_name(device.area_id) or "", MAX_SHOWN_NAME_CHARS) or None,
        "score": round(score, 4),
        "score_breakdown": breakdown,
        "reasons": [clean(str(r), MAX_REASON_CHARS) for r in reasons],
        # The same reasons as codes and values, for a reader that says them in its own
        # language (the panel); the values are names and words of the home, cleaned.
        "reason_codes": [_reason_code(r) for r in reasons],
    }


def _reason_code(reason: Reason) -> dict[str, Any]:
    out = reason.as_dict()
    for key in ("said", "matched"):
        if key in out:
            out[key] = clean(out[key], MAX_REASON_CHARS)
    return out


def _brief(index: DeviceIndex, entity_id: str) -> dict[str, Any]:
    device = index.device(entity_id)
    return {
        "entity_id": entity_id,
        "name": clean(device.name, MAX_SHOWN_NAME_CHARS),
        "area": clean(index.area_name(device.area_id) or "", MAX_SHOWN_NAME_CHARS) or None,
    }


def describe_results(
    index: DeviceIndex, results: list[RetrievalResult], *, explain: bool = True
) -> list[dict[str, Any]]:
    """Plain data about every command: what was selected or asked. With `explain`, also every
    candidate with its scores and reasons, and all the notes of every stage; without, only
    the notes that say how the command was read and why something is missing."""
    out = []
    for r in results:
        clarification = None
        if r.clarification is not None:
            clarification = {
                "question": clean(r.clarification.question, MAX_SPEECH_CHARS),
                "options": [
                    {"entity_id": o.entity_id, "label": clean(o.label, MAX_SHOWN_NAME_CHARS)}
                    for o in r.clarification.options
                    if o.entity_id in index
                ],
            }
        selected = [c for c in r.selected if c.entity_id in index]
        described: dict[str, Any] = {
            "text": redact(r.ir.raw),
            "action": r.ir.action,
            "quantifier": r.ir.quantifier,
            "selected": [_brief(index, c.entity_id) for c in selected],
            "clarification": clarification,
            "meta": {k: v for k, v in r.meta.to_dict().items() if k in CONCISE_NOTES},
        }
        if explain:
            described |= {
                "confidence": r.ir.confidence,
                "selected": [
                    _candidate(index, c.entity_id, c.total_score, c.breakdown, c.reasons)
                    for c in selected
                ],
                "candidates": [
                    _candidate(index, c.entity_id, c.total_score, c.breakdown, c.reasons)
                    for c in r.candidates
                    if c.entity_id in index
                ],
                "meta": r.meta.to_dict(),
            }
        out.append(described)
    return out


async def async_retrieve_answer(
    hass: HomeAssistant,
    text: str,
    conversation_id: str | None,
    language: str | None,
    explain: bool,
) -> tuple[dict[str, Any], list[RetrievalResult]]:
    """What the `retrieve` service answers (and the panel shows), with the results behind it."""
    # The text is trimmed, not empty and not too long: the schema saw to it.
    data = loaded_data(hass)
    index = data.manager.index
    if index is None:
        raise service_error("index_not_ready")
    started = time.perf_counter()
    # The text's own language is read; the one given (or Home Assistant's) breaks a tie.
    hint = tie_breaker(hass, language)
    results = await async_run_retrieval(hass, data, index, text, conversation_id, hint, None)
    language = str(results[0].meta.language or "") if results else ""
    data.record(text, started, results, language)
    commands = describe_results(index, results, explain=explain)
    if explain:
        # The same scale as the search service: keyword, semantic, recency and their sum.
        recent = recency(hass, data, index)
        for described, result in zip(commands, results, strict=True):
            table = explain_table(result.candidates, recent)
            for item in (*described["candidates"], *described["selected"]):
                item["explain"] = table.get(item["entity_id"])
    yaml = render_selection(index, results, data.settings.token_budget, language, hass)
    answer = {
        "language": language,
        "index_state": data.manager.index_state,
        "commands": commands,
        "yaml": yaml or "",
    }
    return answer, results


async def async_retrieve(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    answer, _ = await async_retrieve_answer(
        hass,
        str(request["text"]),
        request.get("conversation_id"),
        request.get("language"),
        bool(request.get("explain")),
    )
    return answer


async def async_rebuild_index(hass: HomeAssistant, request: Mapping[str, Any]) -> dict[str, Any]:
    manager = loaded_data(hass).manager
    await manager.async_rebuild()
    return {
        "entities": len(manager.index) if manager.index else 0,
        "seconds": round(manager.last_build_seconds, 3),
    }
