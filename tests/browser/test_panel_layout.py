"""The panel on a phone in dark mode, and who may see it at all."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import expect

from bench.browser import log_in, set_language
from tests.e2e.conftest import _allow_sockets

from .conftest import VIEWPORT, BrowserThread, Client, Ui, credentials, texts

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PHONE = {"width": 390, "height": 844}
GUEST = ("guest", "guest-pass-1234")


def _luminance(css_color: str) -> float:
    r, g, b = (int(v) for v in re.findall(r"\d+", css_color)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


# Elements of the panel (through its shadow roots) that reach past the right edge of the
# screen without a scrolling box of their own around them, and tables that scroll sideways:
# what a phone user cannot see.
OFF_SCREEN = """() => {
  const out = [];
  const width = window.innerWidth;
  const scrolls = (el) => {
    for (let node = el.parentNode; node; node = node.parentNode || node.host) {
      if (node.nodeType === Node.ELEMENT_NODE
          && ['auto', 'scroll', 'hidden'].includes(getComputedStyle(node).overflowX)
          && node.tagName !== 'HTML' && node.tagName !== 'BODY') return true;
    }
    return false;
  };
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      const box = el.getBoundingClientRect();
      const name = `${el.tagName.toLowerCase()}#${el.id}.${el.className}`;
      if (box.width > 0 && box.height > 0 && box.right > width + 1 && !scrolls(el)) {
        out.push(name);
      }
      // A table scrolled sideways hides its right-hand columns: on a phone none should.
      if (el.classList.contains('table-wrap') && el.scrollWidth > el.clientWidth + 1) {
        out.push(`${name} scrolls`);
      }
    }
  };
  const panel = document.querySelector('home-assistant')?.shadowRoot
    ?.querySelector('home-assistant-main')?.shadowRoot;
  walk(panel || document);
  return out;
}"""


# Whether the theme the page applies paints cards dark: a probe painted with the card
# colour Home Assistant's theme sets, read back as the browser computes it.
DARK_PAGE = """() => {
  const probe = document.createElement('div');
  probe.style.background = 'var(--card-background-color)';
  document.body.appendChild(probe);
  const rgba = getComputedStyle(probe).backgroundColor.match(/[\\d.]+/g).map(Number);
  probe.remove();
  if (rgba.length > 3 && rgba[3] === 0) return false;
  return (0.2126 * rgba[0] + 0.7152 * rgba[1] + 0.0722 * rgba[2]) / 255 < 0.3;
}"""


@contextmanager
def _on_a_phone(browser: Any, ha: Client) -> Iterator[tuple[Any, Ui]]:
    """A 390 px wide screen in the dark theme, Home Assistant in Chinese."""
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    # The theme choice as Home Assistant's profile page keeps it (in the browser).
    context.add_init_script(
        "localStorage.setItem('selectedTheme', JSON.stringify({theme: 'default', dark: true}))"
    )
    page = context.new_page()
    try:
        log_in(page, ha.url, *credentials(ha))
        set_language(page, "zh-Hans")
        yield page, Ui(page, "zh-Hans", texts("zh-Hans"), ha)
    finally:
        context.close()


def _fits_the_phone(page: Any, card: Any) -> None:
    """Nothing reaches past the screen's edge, and the page is dark: light text on dark cards."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"] + 1
    assert page.evaluate(OFF_SCREEN) == []
    assert _luminance(card.evaluate("e => getComputedStyle(e).backgroundColor")) < 0.3
    assert _luminance(card.evaluate("e => getComputedStyle(e).color")) > 0.7


def _phone_dark(browser: Any, ha: Client) -> None:
    with _on_a_phone(browser, ha) as (page, ui):
        ui.open("try")
        panel = page.locator("context-retrieval-panel")
        expect(panel).to_have_attribute("narrow", "")
        # Home Assistant's own menu button opens the sidebar, which is hidden on a phone.
        expect(panel.locator("ha-menu-button")).to_be_visible()
        # The theme as the page shows it. Not `hass.themes.darkMode`: Home Assistant's
        # frontend leaves that unset when its themes arrive before its config (a race seen
        # once in CI on 2026.11.0), while the page itself is already dark.
        page.wait_for_function(DARK_PAGE)
        panel.locator("cr-try #utterance").fill("打开台灯")
        panel.locator("cr-try #run").click()
        expect(panel.locator("cr-try #question")).to_be_visible()
        _fits_the_phone(page, panel.locator("cr-try .card").first)
        # Every candidate's score bars inside the screen (they were cut off at the edge).
        bars = panel.locator("cr-try table.candidates .bar")
        expect(bars.first).to_be_attached()
        for i in range(bars.count()):
            box = bars.nth(i).bounding_box()
            assert box is not None and box["width"] > 20, box
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        # The reasons in Chinese ("name matches '台灯'" was shown in English).
        reasons = panel.locator("cr-try table.candidates td.small")
        expect(reasons.first).to_contain_text("台灯")
        shown = " ".join(reasons.all_inner_texts())
        assert not re.search(r"matches|in scope|keyword|similarity", shown), shown
        ui.shot("phone-dark", full_page=False)
        panel.locator("ha-menu-button").click()
        expect(page.locator("ha-sidebar")).to_be_visible()


def test_phone_in_dark_mode(browser: BrowserThread, hass_server: Client) -> None:
    browser.call(_phone_dark, browser.browser, hass_server)


def _phone_rename(browser: Any, ha: Client) -> None:
    """The Rename page at 390 px, dark: one change per small card (the table once showed a
    character per line), each with its room; "台灯" leaves the balcony light 阳台灯 alone, and
    an unticked row stays as it is when the rename is applied."""
    with _on_a_phone(browser, ha) as (page, ui):
        panel = ui.open("rename")
        panel.locator("#find").fill("台灯")
        panel.locator("#replace").fill("书桌灯")
        rows = panel.locator("#rename-preview tr.change")
        expect(rows.first).to_be_visible()
        assert not rows.filter(has_text="阳台灯").count()
        old = rows.filter(has_text="light.study_old_lamp")
        expect(old).to_contain_text("书房")
        before = old.locator("td").nth(4)
        # The name is read on one line, not a character per line.
        box = before.bounding_box()
        assert box is not None and box["width"] >= 3 * 14 and box["height"] < 3 * 24, box
        _fits_the_phone(page, panel.locator(".card").first)
        ui.shot("phone-dark-rename", full_page=False)
        old.locator("input.keep").uncheck()
        panel.locator("#apply").click()
        expect(panel.locator("#rename-message")).to_be_visible()
        state = ha.request("GET", "/api/states/light.study_old_lamp")["attributes"]
        assert state["friendly_name"] == "老台灯"
        kids = ha.request("GET", "/api/states/light.kids_desk_lamp")["attributes"]
        assert kids["friendly_name"] == "书桌灯"
        panel.locator("#snapshots .snapshot .rollback").first.click()
        expect(panel.locator("#rename-message")).to_be_visible()
        page.wait_for_function(
            """() => document.querySelector('home-assistant').hass
                .states['light.kids_desk_lamp'].attributes.friendly_name === '台灯'"""
        )


def test_rename_on_a_phone_in_dark_mode(browser: BrowserThread, hass_server: Client) -> None:
    _allow_sockets()  # the states are read over the server's REST API
    browser.call(_phone_rename, browser.browser, hass_server)


def _phone_pages(browser: Any, ha: Client) -> None:
    """Views, Questions, Search and Health at 390 px in the dark theme, each used as a person
    would: nothing reaches past the screen, tables read as cards, light text on dark cards."""
    with _on_a_phone(browser, ha) as (page, ui):
        views = ui.open("views")
        views.locator("#new-rule").click()
        views.locator("#rule-name").fill("厨房餐厅灯")
        views.locator("#rule-text").fill("厨房或餐厅的灯")
        expect(views.locator("#samples tbody tr").first).to_be_visible()
        expect(views.locator("#publish")).to_be_visible()
        _fits_the_phone(page, views.locator("#editor"))
        ui.shot("phone-dark-views")

        questions = ui.open("questions")
        questions.locator("#question").fill("哪些灯开着")
        questions.locator("#ask").click()
        expect(questions.locator("#answer #human")).to_be_visible()
        _fits_the_phone(page, questions.locator("#answer"))
        ui.shot("phone-dark-questions")

        search = ui.open("search")
        search.locator("#query").fill("台灯")
        hits = search.locator("#results tr.hit")
        expect(hits.first).to_be_visible()
        expect(hits.first).to_contain_text("台灯")
        _fits_the_phone(page, search.locator(".card").last)
        bars = search.locator("#results .bar")
        for i in range(bars.count()):
            box = bars.nth(i).bounding_box()
            assert box is not None and box["width"] > 20, box
            assert box["x"] + box["width"] <= PHONE["width"], box
        ui.shot("phone-dark-search")

        health = ui.open("health")
        expect(health.locator("#index-state")).to_have_text(ui.t("health.state.ready"))
        _fits_the_phone(page, health.locator(".card").first)
        ui.shot("phone-dark-health")


def test_every_page_on_a_phone_in_dark_mode(browser: BrowserThread, hass_server: Client) -> None:
    browser.call(_phone_pages, browser.browser, hass_server)


def _guest(browser: Any, ha: Client) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    try:
        log_in(page, ha.url, *credentials(ha))
        page.wait_for_function("() => document.querySelector('home-assistant')?.hass?.user")
        # An ordinary user, made the way Settings → People makes one.
        page.evaluate(
            """async ([username, password]) => {
            const hass = document.querySelector('home-assistant').hass;
            const users = await hass.callWS({type: 'config/auth/list'});
            if (users.some((u) => u.name === 'Guest')) return;
            const made = await hass.callWS({type: 'config/auth/create', name: 'Guest',
                                            group_ids: ['system-users'], local_only: false});
            await hass.callWS({type: 'config/auth_provider/homeassistant/create',
                               user_id: made.user.id, username, password});
        }""",
            list(GUEST),
        )
        context.close()
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        log_in(page, ha.url, *GUEST, path="/profile")
        page.wait_for_function(
            "() => document.querySelector('home-assistant')?.hass?.user?.is_admin === false"
        )
        expect(page.locator("ha-sidebar a[href='/context-retrieval']")).to_have_count(0)
        answer = page.evaluate("""() => document.querySelector('home-assistant').hass
            .callWS({type: 'context_retrieval/try', text: 'turn on the lights'})
            .then(() => 'accepted', (err) => err.code)""")
        assert answer == "unauthorized"
        page.goto(ha.url + "/context-retrieval")
        page.wait_for_timeout(1500)
        expect(page.locator("context-retrieval-panel")).to_have_count(0)
    finally:
        context.close()


def test_an_ordinary_user_has_no_panel(browser: BrowserThread, hass_server: Client) -> None:
    browser.call(_guest, browser.browser, hass_server)
