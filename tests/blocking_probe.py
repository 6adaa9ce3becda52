"""What importing modules of the integration does that would block an event loop, measured in a
fresh interpreter: every load of CA certificates (an SSL context being built), with the frame of
the code that asked for it.

Home Assistant's own modules build SSL contexts at import too; only the loads asked for by this
repository's code count (the first frame outside the standard library is ours).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "custom_components.context_retrieval"

_PROBE = textwrap.dedent(
    """
    import json, ssl, sys, sysconfig, traceback

    stdlib = sysconfig.get_paths()["stdlib"]
    loads = []
    original = ssl.SSLContext.load_default_certs

    def recorded(self, *args, **kwargs):
        for frame in reversed(traceback.extract_stack()[:-1]):
            name = frame.filename
            if name.startswith("<") or name.startswith(stdlib):
                continue
            loads.append(f"{name}:{frame.lineno}")
            break
        return original(self, *args, **kwargs)

    ssl.SSLContext.load_default_certs = recorded
    for module in json.loads(sys.argv[1]):
        __import__(module)
    after_import = list(loads)
    for call in json.loads(sys.argv[2]):
        module, _, name = call.rpartition(".")
        getattr(sys.modules[module], name)()
    print(json.dumps({"import": after_import, "calls": loads[len(after_import):]}))
    """
)


def certificate_loads(modules: list[str], calls: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """Where CA certificates were loaded by this repository's code, importing `modules` in a
    fresh interpreter ("import"), then calling each `module.function` in `calls` ("calls")."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(modules), json.dumps(list(calls))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    ours = str(ROOT / "custom_components")
    return {when: [w for w in where if w.startswith(ours)] for when, where in found.items()}
