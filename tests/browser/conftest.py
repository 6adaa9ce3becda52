"""Debian's chromium (Playwright) against a real Home Assistant with the demo home, started the
way the e2e tests start it. One logged-in browser page per Home Assistant user language; a
screenshot of every page goes to test-artefacts/browser/<language>/ (not committed).

Playwright's synchronous API keeps an event loop running in the thread that uses it, which the
Home Assistant test plugin's per-test loop fixtures cannot share: the browser lives in a thread
of its own, and each test hands it the flow to run (`in_browser(flow)`).
"""

from __future__ import annotations

import json
import queue
import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bench.browser import PANEL_PATH, launch, log_in, set_language
from tests.e2e.conftest import ROOT, Client, _allow_sockets, devhome, hass_server

__all__ = ["hass_server"]  # the e2e package's Home Assistant, started again for this package

ARTEFACTS = ROOT / "test-artefacts" / "browser"
TRANSLATIONS = ROOT / "frontend" / "src" / "translations"
VIEWPORT = {"width": 1280, "height": 900}
PANEL_BUNDLE = "context-retrieval-panel.js"
# A translation key shown as is ("search.fallback.x"): its dictionary lacks it.
UNTRANSLATED = (
    r"\b(?:panel|tab|common|error|language|try|quantifier|score|views|questions|"
    r"aggregate|field|search|rename|health)\.[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*"
)
# The panel's text, through its shadow roots.
ALL_TEXT = """() => {
  const out = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { out.push(node.textContent); return; }
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
  };
  const find = (root) => {
    const hit = root.querySelector('context-retrieval-panel');
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) { const inner = find(el.shadowRoot); if (inner) return inner; }
    }
    return null;
  };
  const panel = find(document);
  if (panel) walk(panel);
  return out.join(' ');
}"""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives chromium against a real Home Assistant")


@dataclass
class Ui:
    """A logged-in page in one user language, and that language's panel texts."""

    page: Any
    language: str
    texts: dict[str, str]
    ha: Client

    def t(self, key: str, **params: Any) -> str:
        text = self.texts[key]
        for name, value in params.items():
            text = text.replace("{" + name + "}", str(value))
        return text

    def open(self, tab: str) -> Any:
        """The panel on `tab`, navigated to like a bookmark; returns the page element."""
        self.page.goto(self.ha.url + f"{PANEL_PATH}/{tab}")
        element = self.page.locator(f"cr-{tab}")
        element.wait_for(timeout=30_000)
        return element

    def shot(self, name: str, full_page: bool = True) -> Path:
        """A screenshot, after checking that no text key shows untranslated."""
        shown = self.page.evaluate(ALL_TEXT)
        raw = re.findall(UNTRANSLATED, shown)
        assert not raw, f"untranslated keys on {name}: {raw}"
        path = ARTEFACTS / self.language / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path), full_page=full_page)
        return path


def texts(language: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((TRANSLATIONS / f"{language}.json").read_text("utf-8"))
    return data


def credentials(ha: Client) -> tuple[str, str]:
    state = devhome.read_state(ha.config_dir)
    return str(state.get("username", devhome.USERNAME)), str(
        state.get("password", devhome.PASSWORD)
    )


@pytest.fixture(autouse=True)
def verify_cleanup() -> None:
    """Replaces the Home Assistant test plugin's check of in-process instances, threads and
    timers: here Home Assistant runs in its own process, and the browser's thread lives for
    the whole package on purpose."""


class BrowserThread:
    """Runs functions in the one thread that owns Playwright and chromium."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[], Any], Future[Any]] | None] = queue.Queue()
        self._ready: Future[Any] = Future()
        self._thread = threading.Thread(target=self._work, name="browser", daemon=True)
        self._thread.start()
        self.browser = self._ready.result(timeout=120)

    def _work(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                chromium = launch(playwright)
                self._ready.set_result(chromium)
                while (job := self._jobs.get()) is not None:
                    work, done = job
                    try:
                        done.set_result(work())
                    except BaseException as err:
                        done.set_exception(err)
                chromium.close()
        except BaseException as err:
            if not self._ready.done():
                self._ready.set_exception(err)
            raise

    def call(self, work: Callable[..., Any], *args: Any, timeout: float = 300) -> Any:
        done: Future[Any] = Future()
        self._jobs.put((lambda: work(*args), done))
        return done.result(timeout=timeout)

    def stop(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=60)


@pytest.fixture(scope="package")
def browser(hass_server: Client) -> Iterator[BrowserThread]:
    _allow_sockets()
    runner = BrowserThread()
    try:
        yield runner
    finally:
        runner.stop()


def _new_ui(browser: Any, language: str, ha: Client, errors: list[str]) -> Ui:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(30_000)
    # Errors thrown by the panel's own code (Home Assistant's frontend has its own moments,
    # e.g. while an entry reloads and its panel is briefly gone).
    page.on(
        "pageerror",
        lambda err: (
            errors.append(f"{err}\n{err.stack}") if PANEL_BUNDLE in (err.stack or "") else None
        ),
    )
    username, password = credentials(ha)
    log_in(page, ha.url, username, password)
    set_language(page, language)
    return Ui(page, language, texts(language), ha)


@pytest.fixture(scope="package", params=["en", "zh-Hans"])
def ui(request: pytest.FixtureRequest, browser: BrowserThread, hass_server: Client) -> Iterator[Ui]:
    """Logged in through the login page, the user's language set in their profile data."""
    errors: list[str] = []
    made: Ui = browser.call(_new_ui, browser.browser, str(request.param), hass_server, errors)
    try:
        yield made
    finally:
        browser.call(made.page.context.close)
    assert not errors, errors


@pytest.fixture
def in_browser(ui: Ui, browser: BrowserThread) -> Callable[[Callable[[Ui], Any]], Any]:
    """Run `flow(ui)` in the browser's thread; its assertions fail the test."""
    _allow_sockets()
    return lambda flow: browser.call(flow, ui)
