"""A fake embedding service on 127.0.0.1 (OpenAI and Ollama shapes) and its fixtures, for the
engine's and the integration's embedding tests."""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from custom_components.context_retrieval.core.base.embeddings import (
    EmbeddingClient,
)

API_KEY = "sk-test-SECRET-abcdef123456"
# The server's vectors: one axis per keyword found in the text, plus a small shared base.
KEYWORDS = ("kitchen", "bedroom", "garage", "lamp", "fan", "door", "thermostat", "tree")
DIM = len(KEYWORDS)
ODD_DIM = 5  # dimension returned, in mode "odd", for texts containing ODD_MARKER
ODD_MARKER = "weird"

ITEMS = [
    ("light.kitchen", "kitchen light"),
    ("light.bedroom", "bedroom lamp"),
    ("cover.garage", "garage door"),
    ("fan.bedroom", "bedroom fan"),
    ("climate.hall", "thermostat"),
]


def vector_for(text: str) -> list[float]:
    return [1.0 if word in text else 0.05 for word in KEYWORDS]


class _State:
    def __init__(self) -> None:
        self.mode = "ok"
        self.delay = 0.0
        self.accepted_key: str | None = None  # when set, any other bearer token gets a 401
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.release = threading.Event()  # cuts a slow handler's sleep short
        self.threads: list[threading.Thread] = []

    def reset(self) -> None:
        with self.lock:
            self.mode, self.delay, self.requests = "ok", 0.0, []
            self.accepted_key = None
            self.release.clear()

    def drain(self) -> None:
        """Wake sleeping handlers and wait for their threads (no thread outlives a test)."""
        self.release.set()
        with self.lock:
            threads, self.threads = self.threads, []
        for thread in threads:
            thread.join(timeout=5)


STATE = _State()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def _send(
        self, status: int, body: bytes, extra: dict[str, str] | None = None, sized: bool = True
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        if sized:  # unsized, the body ends where the connection closes
            self.send_header("Content-Length", str(len(body)))
        # One request per connection: a client that pools connections (Home Assistant's
        # session) would otherwise keep a handler thread waiting past the end of a test.
        self.send_header("Connection", "close")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        payload = json.loads(self.rfile.read(length) or b"{}")
        with STATE.lock:
            STATE.requests.append(
                {"path": self.path, "body": payload, "auth": self.headers.get("Authorization")}
            )
            mode, delay, accepted = STATE.mode, STATE.delay, STATE.accepted_key
            STATE.threads.append(threading.current_thread())
        if delay:
            STATE.release.wait(delay)
        if accepted is not None and self.headers.get("Authorization") != f"Bearer {accepted}":
            self._send(401, json.dumps({"error": "invalid api key"}).encode())
            return
        if mode == "error500":
            self._send(500, json.dumps({"error": f"bad key {API_KEY}"}).encode())
            return
        if mode == "redirect":
            self._send(302, b"", {"Location": "/elsewhere"})
            return
        if mode == "huge":  # a body far over any cap a test sets
            self._send(200, b'{"data": [' + b" " * 4096 + b"]}")
            return
        if mode == "malformed":
            self._send(200, b'{"data": [ {"embedding": [1, 2')
            return
        texts = payload.get("input", [])
        vectors: list[list[float]] = []
        for text in texts:
            vec = vector_for(text)
            if mode == "nan":
                vec[0] = math.nan
            if mode == "odd" and ODD_MARKER in text:
                vec = vec[:ODD_DIM]
            vectors.append(vec)
        if mode == "short":
            vectors = vectors[:-1]
        if self.path == "/api/embed":
            body: dict[str, Any] = {"model": payload.get("model"), "embeddings": vectors}
        elif self.path == "/v1/embeddings":
            data = [
                {"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)
            ]
            body = {"object": "list", "data": data[::-1]}  # out of order: client must sort
        else:
            self._send(404, b"{}")
            return
        # NaN is written as NaN (valid for loads).
        self._send(200, json.dumps(body).encode(), sized=mode != "unsized")


def _allow_sockets() -> None:
    """pytest-homeassistant-custom-component blocks sockets before every test; these tests
    need loopback HTTP to their own server."""
    try:
        import pytest_socket
    except ImportError:
        return
    pytest_socket.enable_socket()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (timeout) leaves a broken pipe; that is expected


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    _allow_sockets()
    httpd = _Server(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        STATE.drain()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@pytest.fixture(autouse=True)
def _reset_server() -> Iterator[None]:
    _allow_sockets()
    STATE.reset()
    yield
    STATE.drain()
    STATE.reset()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "http_proxy",
        "HTTP_PROXY",
        "https_proxy",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ):
        monkeypatch.delenv(name, raising=False)


def openai_client(server: str, **kwargs: Any) -> EmbeddingClient:
    kwargs.setdefault("api_key", API_KEY)
    return EmbeddingClient(f"{server}/v1/embeddings", "test-model", "openai", **kwargs)


def ollama_client(server: str, **kwargs: Any) -> EmbeddingClient:
    return EmbeddingClient(f"{server}/api/embed", "nomic-embed-text", "ollama", **kwargs)


# ---- client ---------------------------------------------------------------------------------
