"""Diagnostics download: settings, index size, languages, recent timings (texts only hashed)."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.core import HomeAssistant

from .data import ContextRetrievalConfigEntry


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: ContextRetrievalConfigEntry
) -> dict[str, Any]:
    data = entry.runtime_data
    index = data.manager.index
    by_domain = Counter(d.domain for d in index.devices()) if index else Counter()
    return {
        "settings": async_redact_data(
            asdict(data.settings), {"embedding_api_key", "embedding_url"}
        ),
        "embeddings": data.vectors.status(),
        "index": {
            "state": data.manager.index_state,
            "entities": len(index) if index else 0,
            "areas": len(index.areas) if index else 0,
            "floors": len(index.floors) if index else 0,
            "by_domain": dict(sorted(by_domain.items())),
            "builds": data.manager.builds,
            "last_build_seconds": round(data.manager.last_build_seconds, 4),
        },
        "views": {
            "available": data.views.store is not None,
            "read_only": data.views.read_only,
            "rules": len(data.views.rules),
            "members": {
                rule.name: len(data.views.members(rule.name)) for rule in data.views.rules.values()
            },
            **data.views.metrics.as_dict(),
        },
        "questions": {
            "cache_available": data.queries.store is not None,
            "read_only": data.queries.read_only,
            **data.queries.metrics.as_dict(),
        },
        "calls": {"in_flight": data.in_flight, "backpressured": data.backpressured},
        "conversations": len(data.states),
        "languages_seen": dict(data.languages_seen),
        "timings": [asdict(t) for t in data.timings],
    }
