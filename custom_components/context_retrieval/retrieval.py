"""The engine's retrieval with the entry's settings, shared by every surface: the conversation
agent's turn, the LLM API, the `retrieve` service and the panel.

The rules run in the executor (milliseconds of CPU, and an embedding service, when configured,
is asked with blocking I/O); a language model, when the options choose one, reads the commands
first and the rules take over on any trouble.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr

from .const import PARSER_LLM, PARSER_RULES
from .core import DeviceIndex, RetrievalResult, async_retrieve, retrieve, selected_devices
from .core.base.embedding_search import FallbackSearcher
from .core.base.redact import clean
from .core.retrieval.render import quote, render_context
from .data import ContextRetrievalData
from .settings import Settings


def satellite_area(hass: HomeAssistant, device_id: str | None) -> str | None:
    """The area of the voice satellite (or other device) the utterance came from."""
    if not device_id:
        return None
    device = dr.async_get(hass).async_get(device_id)
    return device.area_id if device else None


def language_hint(language: str | None, index: DeviceIndex) -> str | None:
    """The pipeline's language when a lexicon exists for it, else detect per utterance."""
    if not language or language == MATCH_ALL:
        return None
    lex = index.lexicons.get(language)
    primary = language.lower().replace("_", "-").split("-")[0]
    return lex.language if lex.language == primary or language.lower() in lex.aliases else None


def utterance_language(
    settings: Settings, index: DeviceIndex, text: str, pipeline_language: str | None
) -> str:
    """The one language a turn is read and answered in: a fixed language in the options
    wins; otherwise the utterance's own ("关掉台灯" in an English pipeline), the pipeline's
    only breaking ties."""
    return settings.language or index.detect_language(
        text, fallback=language_hint(pipeline_language, index)
    )


def reply_language(language: str, pipeline_language: str | None, index: DeviceIndex) -> str:
    """The language tag for Home Assistant (an answer, a forwarded message): the pipeline's
    own tag when it is the utterance's language ("zh-Hans" for Chinese), else the
    utterance's ("en" for English typed in a Chinese pipeline)."""
    if pipeline_language and language_hint(pipeline_language, index) == language:
        return pipeline_language
    return language


async def async_run_retrieval(
    hass: HomeAssistant,
    data: ContextRetrievalData,
    index: DeviceIndex,
    text: str,
    conversation_id: str | None,
    language: str | None,
    context_area: str | None,
) -> list[RetrievalResult]:
    """Retrieve with the entry's settings; the rule path runs off the event loop."""
    settings = data.settings
    state = data.state_for(conversation_id) if conversation_id else None
    lang = utterance_language(settings, index, text, language)
    options = settings.options()
    # An embedding service, when configured, is asked from the executor only (blocking I/O);
    # when it fails the hashing vectors answer and the results say so.
    vectors = data.vectors.for_index(index)
    if settings.command_parser != PARSER_RULES and data.llm_client is not None:
        results = await async_retrieve(
            text,
            index,
            data.llm_client,
            state,
            settings.top_k,
            vectors,
            lang,
            context_area=context_area,
            options=options,
            offload=hass.async_add_executor_job,
        )
        _note_degradation(data, vectors, results)
        results = _without_withdrawn(data, index, results)
        if settings.command_parser == PARSER_LLM and any(r.meta.parse_degraded for r in results):
            # "LLM only": the rules were not asked for, so nothing is selected.
            for r in results:
                r.selected = []
                r.clarification = None
        return results
    results = await hass.async_add_executor_job(
        partial(
            retrieve,
            text,
            index,
            state,
            settings.top_k,
            vectors,
            lang,
            context_area=context_area,
            options=options,
        )
    )
    _note_degradation(data, vectors, results)
    return _without_withdrawn(data, index, results)


def _without_withdrawn(
    data: ContextRetrievalData, index: DeviceIndex, results: list[RetrievalResult]
) -> list[RetrievalResult]:
    """An entity taken from Assist after `index` was built is in no result: not selected, not
    a candidate, not an option of a question (the question is dropped: it would name it)."""
    withdrawn = data.manager.withdrawn
    if not withdrawn or not any(e in index for e in withdrawn):
        return results
    for result in results:
        result.selected = [c for c in result.selected if c.entity_id not in withdrawn]
        result.candidates = [c for c in result.candidates if c.entity_id not in withdrawn]
        question = result.clarification
        if question is not None and any(o.entity_id in withdrawn for o in question.options):
            result.clarification = None
        result.meta = result.meta.without_entities(withdrawn)
        result.meta.withdrawn = len(withdrawn)  # how many, never which
    return results


def _note_degradation(
    data: ContextRetrievalData,
    vectors: FallbackSearcher | None,
    results: list[RetrievalResult],
) -> None:
    degraded = data.vectors.degradation() if vectors is not None else None
    if degraded:
        for result in results:
            result.meta.semantic_degraded = dict(degraded)


def render_selection(
    index: DeviceIndex,
    results: list[RetrievalResult],
    token_budget: int,
    language: str,
    hass: HomeAssistant | None = None,
    with_question: bool = False,
) -> str | None:
    """The YAML context for the selected entities, with their live states.

    With `with_question`, a command we would ask back about contributes its candidates and
    the question, so an LLM can ask it itself; and words read as a type that also name
    devices exactly ("打开卷帘" read as the blinds, with a roller shade called 卷帘) bring
    those devices after the selection, so an LLM reading the request can pick the one named.
    """
    devices = selected_devices(results, index)
    extra: list[str] = []
    if with_question:
        seen = {d.entity_id for d in devices}
        for r in results:
            if r.meta.not_commanded:
                continue  # nothing is commanded: what the words name is no choice to offer
            for entity_id in r.meta.name_reading or ():
                if entity_id in index and entity_id not in seen:
                    seen.add(entity_id)
                    devices.append(index.device(entity_id))
        for r in results:
            if r.clarification is None:
                continue
            extra.append(f"ask_user: {quote(clean(r.clarification.question, 300))}")
            pool = r.meta.clarification_pool or [o.entity_id for o in r.clarification.options]
            for entity_id in pool:
                if entity_id in index and entity_id not in seen:
                    seen.add(entity_id)
                    devices.append(index.device(entity_id))
    if not devices:
        return None
    if hass is not None:
        devices = [
            replace(d, state=(s.state if (s := hass.states.get(d.entity_id)) else None))
            for d in devices
        ]
    lex = index.lexicons.get(language)
    return render_context(
        devices,
        header=lex.messages.get("yaml_header", ""),
        token_budget=token_budget,
        index=index,
        extra_sections=extra,
    ).yaml
