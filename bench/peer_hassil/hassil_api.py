"""hassil's API across its releases (2.x and 3.x): recognising, picking the best match the way
Home Assistant does, and reading the matched slots."""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

# Metadata key HA uses to prefer custom sentences (conversation/const.py METADATA_CUSTOM_SENTENCE).
METADATA_CUSTOM_SENTENCE = "hass_custom_sentence"


def warn(message: str) -> None:
    print(f"[peer_hassil] {message}", file=sys.stderr)


def _accepted_kwargs(func: Callable[..., Any]) -> set[str] | None:
    """Keyword names `func` accepts, or None when it takes **kwargs (accepts anything)."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params}


def _filter_kwargs(accepted: set[str] | None, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Drop keyword arguments the detected API does not know."""
    if accepted is None:
        return kwargs
    return {k: v for k, v in kwargs.items() if k in accepted}


def package_version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


@dataclass
class HassilApi:
    """The pieces of hassil the peer uses, resolved once with feature detection."""

    intents_cls: Any
    text_slot_list_cls: Any
    recognize_best: Callable[..., Any] | None
    recognize_all: Callable[..., Any]
    best_kwargs: set[str] | None
    all_kwargs: set[str] | None
    from_tuples_kwargs: set[str] | None
    trie_cls: Any | None
    get_intents: Callable[..., Any]
    get_languages: Callable[[], list[str]]
    version: str = field(default_factory=lambda: package_version("hassil"))
    intents_version: str = field(default_factory=lambda: package_version("home-assistant-intents"))

    @classmethod
    def detect(cls) -> HassilApi:
        """Import hassil / home_assistant_intents and note which optional features exist."""
        hassil = importlib.import_module("hassil")
        intents_mod = importlib.import_module("hassil.intents")
        hai = importlib.import_module("home_assistant_intents")

        recognize_all = getattr(hassil, "recognize_all", None)
        if recognize_all is None:
            recognize_all = importlib.import_module("hassil.recognize").recognize_all
        recognize_best = getattr(hassil, "recognize_best", None)
        if recognize_best is None:
            warn("hassil has no recognize_best; picking the best of recognize_all like HA does")

        try:
            trie_cls: Any | None = importlib.import_module("hassil.trie").Trie
        except (ImportError, AttributeError):
            trie_cls = None
            warn("hassil.trie.Trie not found; the name list is not pre-filtered by the text")

        text_slot_list_cls = intents_mod.TextSlotList
        return cls(
            intents_cls=hassil.Intents,
            text_slot_list_cls=text_slot_list_cls,
            recognize_best=recognize_best,
            recognize_all=recognize_all,
            best_kwargs=_accepted_kwargs(recognize_best) if recognize_best else None,
            all_kwargs=_accepted_kwargs(recognize_all),
            from_tuples_kwargs=_accepted_kwargs(text_slot_list_cls.from_tuples),
            trie_cls=trie_cls,
            get_intents=hai.get_intents,
            get_languages=hai.get_languages,
        )

    def text_slot_list(self, name: str, tuples: list[tuple[Any, ...]]) -> Any:
        """`TextSlotList.from_tuples(tuples, allow_template=False, name=name)` where supported."""
        kwargs = _filter_kwargs(self.from_tuples_kwargs, {"allow_template": False, "name": name})
        slot_list = self.text_slot_list_cls.from_tuples(tuples, **kwargs)
        if getattr(slot_list, "name", name) is None:
            slot_list.name = name
        return slot_list

    def filtered_name_list(self, values: list[Any]) -> Any:
        """A `name` slot list holding the given (already built) slot values."""
        return self.text_slot_list_cls(name="name", values=values)

    def recognize(
        self,
        text: str,
        intents: Any,
        slot_lists: dict[str, Any],
        intent_context: dict[str, Any] | None,
        language: str,
    ) -> Any | None:
        """HA's strict pass: recognize_best preferring custom sentences and a `name` slot."""
        kwargs: dict[str, Any] = {
            "slot_lists": slot_lists,
            "intent_context": intent_context,
            "language": language,
            "best_metadata_key": METADATA_CUSTOM_SENTENCE,
            "best_slot_name": "name",
        }
        if self.recognize_best is not None:
            return self.recognize_best(text, intents, **_filter_kwargs(self.best_kwargs, kwargs))
        results = self.recognize_all(text, intents, **_filter_kwargs(self.all_kwargs, kwargs))
        return pick_best(results)


def pick_best(results: Iterable[Any]) -> Any | None:
    """Fallback for hassils without recognize_best: prefer a non-wildcard `name` slot with the
    longest text, then fewer wildcards and more literal text (hassil's recognize_best order)."""
    best: Any | None = None
    best_key: tuple[int, int, int, int] | None = None
    for result in results:
        entities = result_slots(result)
        name = entities.get("name")
        has_name = name is not None and not name.is_wildcard
        wildcards = sum(1 for e in entities.values() if e.is_wildcard)
        key = (
            1 if has_name else 0,
            len(name.text) if (name is not None and has_name) else 0,
            -wildcards,
            int(getattr(result, "text_chunks_matched", 0) or 0),
        )
        if best_key is None or key > best_key:
            best, best_key = result, key
    return best


@dataclass(frozen=True)
class Slot:
    """A matched slot, independent of the hassil version's MatchEntity fields."""

    value: Any
    text: str
    is_wildcard: bool


def result_slots(result: Any) -> dict[str, Slot]:
    """Slot name -> Slot for a RecognizeResult (uses `entities_list`, else `entities`)."""
    entities = getattr(result, "entities_list", None)
    if entities is None:
        entities = list((getattr(result, "entities", None) or {}).values())
    slots: dict[str, Slot] = {}
    for entity in entities:
        value = getattr(entity, "value", None)
        text = getattr(entity, "text", None)
        slots[entity.name] = Slot(
            value=value,
            text=str(text if text is not None else (value if value is not None else "")),
            is_wildcard=bool(getattr(entity, "is_wildcard", False)),
        )
    return slots


def result_intent_name(result: Any) -> str:
    """Name of the matched intent."""
    intent = getattr(result, "intent", None)
    return str(getattr(intent, "name", intent) or "")
