"""One real Home Assistant for the e2e package: started by scripts/devhome/ in a temporary
config folder (the developer's ./config is never touched) on a free port, stopped at the end
whatever happens. Startup that fails or hangs fails the tests with the log's tail."""

from __future__ import annotations

import json
import signal
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from bench.load.server import load_devhome

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 150.0
REQUEST_SECONDS = 30.0
SCRIPTED_LLM = "scripted_llm"


devhome = load_devhome()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: starts a real Home Assistant (deselect: -m 'not e2e')")


@dataclass
class Client:
    """Home Assistant's REST API with the long-lived token."""

    url: str
    token: str
    agent_id: str
    config_dir: Path

    def request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as err:
            raise AssertionError(
                f"{method} {path}: HTTP {err.code}: {err.read().decode(errors='replace')[:1000]}"
            ) from err
        return json.loads(text) if text else None

    def state(self, entity_id: str) -> str:
        return str(self.request("GET", f"/api/states/{entity_id}")["state"])

    def states(self, domain: str) -> dict[str, dict[str, Any]]:
        return {
            s["entity_id"]: s
            for s in self.request("GET", "/api/states")
            if s["entity_id"].startswith(domain + ".")
        }

    def call(self, domain: str, service: str, **data: Any) -> Any:
        return self.request("POST", f"/api/services/{domain}/{service}", data)

    def retrieve(self, text: str, **extra: Any) -> dict[str, Any]:
        answer = self.request(
            "POST",
            "/api/services/context_retrieval/retrieve?return_response",
            {"text": text, **extra},
        )
        response: dict[str, Any] = answer["service_response"]
        return response

    def converse(
        self, text: str, language: str, conversation_id: str | None = None
    ) -> dict[str, Any]:
        body = {"text": text, "language": language, "agent_id": self.agent_id}
        if conversation_id:
            body["conversation_id"] = conversation_id
        answer: dict[str, Any] = self.request("POST", "/api/conversation/process", body)
        return answer


class _Terminated(Exception):
    pass


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise _Terminated("SIGTERM")


@pytest.fixture(scope="package")
def hass_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    """Home Assistant with the demo home, once for all e2e tests."""
    _allow_sockets()
    config_dir = tmp_path_factory.mktemp("devhome") / "config"
    install_test_integrations(config_dir)
    # A terminated test run still stops Home Assistant (the context manager's finally).
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        with devhome.running(config_dir, timeout=STARTUP_SECONDS) as (home, _process):
            print(f"\nHome Assistant {home.version} ready in {home.seconds:.1f} s at {home.url}")
            yield Client(home.url, home.token, home.agent_id, config_dir)
    except devhome.DevHomeError as err:
        pytest.fail(f"Home Assistant could not be started or set up: {err}", pytrace=False)
    finally:
        signal.signal(signal.SIGTERM, previous)


def install_test_integrations(config_dir: Path) -> None:
    """The scripted LLM agent (tests/scripted_llm), a custom integration of the test server
    only: an LLM conversation agent whose model is a script (test_llm_agents.py)."""
    custom = config_dir / "custom_components"
    custom.mkdir(parents=True, exist_ok=True)
    (custom / SCRIPTED_LLM).symlink_to(ROOT / "tests" / SCRIPTED_LLM, target_is_directory=True)


def _allow_sockets() -> None:
    """pytest-homeassistant-custom-component blocks sockets before every test; we need
    loopback HTTP to the server."""
    try:
        import pytest_socket
    except ImportError:
        return
    pytest_socket.enable_socket()


@pytest.fixture
def ha(hass_server: Client) -> Client:
    """The server for one test."""
    _allow_sockets()
    return hass_server
