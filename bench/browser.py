"""Debian's chromium through Playwright, logged in to a Home Assistant: shared by the browser
tests (tests/browser) and the panel benchmark (bench.panel).

Nothing is downloaded: Playwright launches the system's chromium by its path
(`CHROMIUM` in the environment, else `chromium` on PATH, else /usr/bin/chromium).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
)
PANEL_PATH = "/context-retrieval"
PANEL_TAG = "context-retrieval-panel"

# The user's language as Home Assistant's profile page stores it (per user, on the server).
_LANGUAGE_DATA = {
    "number_format": "language",
    "time_format": "language",
    "date_format": "language",
    "time_zone": "local",
    "first_weekday": "language",
}


def chromium_path() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(found).exists():
        raise FileNotFoundError(
            f"chromium not found ({found}); scripts/setup installs Debian's package"
        )
    return found


def launch(playwright: Any) -> Any:
    """A headless chromium: the system's, never a downloaded build."""
    return playwright.chromium.launch(
        executable_path=chromium_path(), args=list(CHROMIUM_FLAGS), headless=True
    )


def log_in(page: Any, url: str, username: str, password: str, path: str = PANEL_PATH) -> None:
    """Through Home Assistant's own login page, as a person does; ends on `path`."""
    page.goto(url + path)
    page.locator("input[name='username'], input[autocomplete='username']").first.fill(username)
    page.locator("input[type='password']").first.fill(password)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{path}**", timeout=60_000)
    page.locator("home-assistant").wait_for(state="attached", timeout=60_000)


def set_language(page: Any, language: str) -> None:
    """The logged-in user's language, set like the profile page does, then the page reloaded
    so that the whole UI (and the panel) follows it."""
    page.wait_for_function(
        "() => document.querySelector('home-assistant')?.hass?.connection", timeout=60_000
    )
    page.evaluate(
        """([language, extra]) => document.querySelector('home-assistant').hass.callWS({
            type: 'frontend/set_user_data', key: 'language', value: {language, ...extra}})""",
        [language, _LANGUAGE_DATA],
    )
    page.reload()
    page.wait_for_function(
        "(lang) => document.querySelector('home-assistant')?.hass?.language === lang",
        arg=language,
        timeout=60_000,
    )


# Finds an element through open shadow roots: the panel lives several of them deep.
DEEP_QUERY = """
(selector) => {
  const seen = [document];
  while (seen.length) {
    const root = seen.shift();
    const found = root.querySelector(selector);
    if (found) return found;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) seen.push(el.shadowRoot);
  }
  return null;
}
"""
