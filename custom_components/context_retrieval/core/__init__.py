"""Context Retrieval engine: pure Python, no Home Assistant imports.

    from custom_components.context_retrieval.core import DeviceIndex, retrieve, render_context
"""

from .command_parser import DEFAULT_SYSTEM_PROMPT, LLMClient
from .home import Home, home_from_dict, load_home
from .index import DeviceIndex
from .injection import render_context
from .lexicon import LexiconSet, default_lexicons, load_lexicons
from .models import (
    Area,
    Candidate,
    ClarificationOption,
    ClarificationRequest,
    Device,
    Floor,
    Mention,
    QueryIR,
    RetrievalResult,
)
from .pipeline import RetrievalOptions, async_retrieve, build_index, retrieve, selected_devices
from .state import ConversationState
from .vector_search import HashingVectorizer, InMemoryVectorSearcher, VectorSearcher

__all__ = [
    "DEFAULT_SYSTEM_PROMPT",
    "Area",
    "Candidate",
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
    "QueryIR",
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
