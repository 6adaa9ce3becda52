"""Setting up and unloading the integration (`__init__.py`): nothing blocks the event loop,
and Assist keeps working when the entry goes away."""

from __future__ import annotations

import pkgutil

import custom_components.context_retrieval as package
from tests.blocking_probe import certificate_loads


def test_importing_any_module_loads_no_certificates() -> None:
    """Home Assistant imports the integration and its platforms, sometimes on its event loop:
    no module of ours may build an SSL context (loading the CA certificates) while imported."""
    modules = [
        name
        for _, name, _ in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")
    ]
    assert f"{package.__name__}.core.base.embeddings" in modules
    assert len(modules) > 50
    assert certificate_loads(modules)["import"] == []
