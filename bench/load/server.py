"""The demo Home Assistant a run uses: scripts/devhome/, loaded from its folder, and how long it
may take to start."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 240.0


def load_devhome() -> ModuleType:
    """scripts/ is not a package: load the demo-home package from its folder (once per
    interpreter)."""
    name = "devhome"
    if name in sys.modules:
        return sys.modules[name]
    folder = ROOT / "scripts" / "devhome"
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
