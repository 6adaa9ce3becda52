"""Shared test setup.

The repository root is put on sys.path so `custom_components.context_retrieval` imports the
same way in every test (and before pytest-homeassistant-custom-component's own config dir).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
