"""Context Retrieval engine: pure Python, no Home Assistant imports.

    from custom_components.context_retrieval.core import DeviceIndex, retrieve, render_context

`base` holds what every feature shares; `retrieval`, `views`, `questions`, `search` and `rename`
are the features, and import each other only through `base`. This module re-exports the
retrieval API the integration and the benchmarks use most.
"""

from .base.home import Home, home_from_dict, load_home
from .base.index import DeviceIndex
from .base.lexicon import LexiconSet, default_lexicons, load_lexicons
from .base.llm_json import LLMClient
from .base.models import Area, Candidate, Device, Floor, Mention, QueryIR
from .base.vector_search import HashingVectorizer, InMemoryVectorSearcher, VectorSearcher
from .retrieval.command_parser import DEFAULT_SYSTEM_PROMPT
from .retrieval.meta import CapabilityFilter, NotCommanded, ResultMeta
from .retrieval.pipeline import (
    RetrievalOptions,
    async_retrieve,
    build_index,
    retrieve,
    selected_devices,
)
from .retrieval.render import render_context
from .retrieval.results import ClarificationOption, ClarificationRequest, RetrievalResult
from .retrieval.state import ConversationState

__all__ = [
    "DEFAULT_SYSTEM_PROMPT",
    "Area",
    "Candidate",
    "CapabilityFilter",
    "ClarificationOption",
    "ClarificationRequest",
    "ConversationState",
    "Device",
    "DeviceIndex",
    "Floor",
    "HashingVectorizer",
    "Home",
    "InMemoryVectorSearcher",
    "LLMClient",
    "LexiconSet",
    "Mention",
    "NotCommanded",
    "QueryIR",
    "ResultMeta",
    "RetrievalOptions",
    "RetrievalResult",
    "VectorSearcher",
    "async_retrieve",
    "build_index",
    "default_lexicons",
    "home_from_dict",
    "load_home",
    "load_lexicons",
    "render_context",
    "retrieve",
    "selected_devices",
]
