"""Shared test setup.

The repository root goes first on sys.path and the integration is imported here, before any
`hass` fixture runs: pytest-homeassistant-custom-component's config dir has its own
`custom_components` package, and Home Assistant would otherwise report "Integration not found".
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import custom_components.context_retrieval  # noqa: E402,F401
