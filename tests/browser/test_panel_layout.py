"""The panel on a phone in dark mode, and who may see it at all."""

from __future__ import annotations

import re
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


def _phone_dark(browser: Any, ha: Client) -> None:
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    # The theme choice as Home Assistant's profile page keeps it (in the browser).
    context.add_init_script(
        "localStorage.setItem('selectedTheme', JSON.stringify({theme: 'default', dark: true}))"
    )
    page = context.new_page()
    try:
        log_in(page, ha.url, *credentials(ha))
        set_language(page, "zh-Hans")
        ui = Ui(page, "zh-Hans", texts("zh-Hans"), ha)
        ui.open("try")
        panel = page.locator("context-retrieval-panel")
        expect(panel).to_have_attribute("narrow", "")
        # Home Assistant's own menu button opens the sidebar, which is hidden on a phone.
        expect(panel.locator("ha-menu-button")).to_be_visible()
        page.wait_for_function(
            "() => document.querySelector('home-assistant')?.hass?.themes?.darkMode === true"
        )
        card = panel.locator("cr-try .card").first
        assert _luminance(card.evaluate("e => getComputedStyle(e).backgroundColor")) < 0.3
        assert _luminance(card.evaluate("e => getComputedStyle(e).color")) > 0.7
        panel.locator("cr-try #utterance").fill("打开台灯")
        panel.locator("cr-try #run").click()
        expect(panel.locator("cr-try #question")).to_be_visible()
        # Nothing wider than the phone but the tables, which scroll inside their card.
        widest = page.evaluate("() => document.documentElement.scrollWidth")
        assert widest <= PHONE["width"] + 1
        # Every candidate's score bars inside the screen (they were cut off at the edge).
        bars = panel.locator("cr-try table.candidates .bar")
        expect(bars.first).to_be_attached()
        for i in range(bars.count()):
            box = bars.nth(i).bounding_box()
            assert box is not None and box["width"] > 20, box
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        ui.shot("phone-dark", full_page=False)
        panel.locator("ha-menu-button").click()
        expect(page.locator("ha-sidebar")).to_be_visible()
    finally:
        context.close()


def test_phone_in_dark_mode(browser: BrowserThread, hass_server: Client) -> None:
    browser.call(_phone_dark, browser.browser, hass_server)


def _phone_rename(browser: Any, ha: Client) -> None:
    """The Rename page at 390 px, dark: one change per small card (the table once showed a
    character per line), each with its room; "台灯" leaves the balcony light 阳台灯 alone, and
    an unticked row stays as it is when the rename is applied."""
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    context.add_init_script(
        "localStorage.setItem('selectedTheme', JSON.stringify({theme: 'default', dark: true}))"
    )
    page = context.new_page()
    try:
        log_in(page, ha.url, *credentials(ha))
        set_language(page, "zh-Hans")
        ui = Ui(page, "zh-Hans", texts("zh-Hans"), ha)
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
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"] + 1
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
    finally:
        context.close()


def test_rename_on_a_phone_in_dark_mode(browser: BrowserThread, hass_server: Client) -> None:
    _allow_sockets()  # the states are read over the server's REST API
    browser.call(_phone_rename, browser.browser, hass_server)


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
