"""Each page of the "Context" panel, as a person uses it, in English and Chinese (the Home
Assistant user's language), with a screenshot per page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Ui

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


def test_panel_opens_in_the_users_language(in_browser: Any) -> None:
    in_browser(_panel_opens_in_the_users_language)


def _panel_opens_in_the_users_language(ui: Ui) -> None:
    ui.open("try")
    panel = ui.page.locator("context-retrieval-panel")
    expect(panel.locator(".toolbar .title")).to_have_text(ui.t("panel.title"))
    tabs = panel.locator("[role=tab]")
    expect(tabs).to_have_text(
        [ui.t(f"tab.{p}") for p in ("try", "views", "questions", "search", "rename", "health")]
    )
    if ui.language == "zh-Hans":
        expect(tabs.first).to_have_text("试一试")
    else:
        expect(tabs.first).to_have_text("Try it")
    # The sidebar entry, titled in the home's language (the demo home is zh-Hans).
    # Its accessible name: the 2026 frontend renders the label outside the link's own text.
    sidebar = ui.page.locator("ha-sidebar a[href='/context-retrieval']")
    expect(sidebar).to_have_accessible_name(re.compile("上下文"))
    # Tabs change the address, so a page can be bookmarked.
    tabs.nth(3).click()
    expect(ui.page).to_have_url(re.compile(r"/context-retrieval/search$"))
    expect(panel.locator("cr-search #query")).to_be_visible()


def test_try_it(in_browser: Any) -> None:
    in_browser(_try_it)


def _try_it(ui: Ui) -> None:
    page = ui.open("try")
    expect(page.locator("h2")).to_have_text(ui.t("try.heading"))
    page.locator("#utterance").fill("关掉除了主卧以外的所有灯")
    page.locator("#run").click()
    tokens = page.locator("#tokens .big-number")
    expect(tokens).to_be_visible()
    numbers = re.findall(r"[\d,]+", tokens.inner_text())
    ours, assist = (int(n.replace(",", "")) for n in numbers[:2])
    assert 0 < ours < assist
    if ui.language == "zh-Hans":
        expect(tokens).to_contain_text("而不是")
    else:
        expect(tokens).to_contain_text("tokens instead of")
    command = page.locator(".command").first
    expect(command.locator(".chip.out")).to_contain_text("主卧")
    expect(command.locator("#parsed")).to_contain_text(ui.t("quantifier.except"))
    expect(command.locator(".removed")).to_contain_text(
        ui.t("try.scope_removed", count="").split("{")[0].strip()[:4]
    )
    rows = command.locator("table.candidates tbody tr")
    assert rows.count() > 3
    expect(rows.first).to_contain_text("light.")
    expect(command.locator(".ok-note")).to_contain_text(
        ui.t("try.gating_selected", count=rows.count()).rstrip(":：")
    )
    expect(page.locator("#yaml")).to_contain_text("light.")
    assert "light.master_bedroom_ceiling" not in page.locator("#yaml").inner_text()
    ui.shot("try")
    ui.shot("try-screen", full_page=False)

    # Two desk lamps in different rooms: it would ask which one.
    page.locator("#utterance").fill("打开台灯")
    page.locator("#run").click()
    question = page.locator("#question")
    expect(question).to_contain_text(ui.t("try.gating_ask").rstrip(":："))
    for lamp in (
        "light.guest_room_desk_lamp",
        "light.kids_desk_lamp",
        "light.master_bedroom_desk_lamp",
    ):
        expect(question).to_contain_text(lamp)
    expect(page.locator("#yaml-empty")).to_have_text(ui.t("try.yaml_empty"))
    ui.shot("try-question")

    # Markup typed in is never run or rendered (the engine cleans the text it echoes; the
    # panel puts every value into the page as text).
    dialogs: list[str] = []
    page.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.locator("#utterance").fill('<img src=x onerror="alert(1)"><b>bold</b> 打开台灯')
    page.locator("#run").click()
    header = page.locator(".command h3").first
    expect(header).to_contain_text("img src x onerror")
    expect(header.locator("b, img")).to_have_count(0)
    assert dialogs == []

    # A device named outright: the pipeline's fusion of keyword and vector scores is shown.
    page.locator("#utterance").fill("打开客厅落地灯")
    page.locator("#run").click()
    fusion = page.locator("table.candidates tr.selected .fusion").first
    expect(fusion).to_contain_text("×")
    expect(fusion).to_contain_text(
        ui.t("try.fusion", keyword="", kw="", vector="", vw="", total="").split("×")[0].strip()
    )


def test_views(in_browser: Any) -> None:
    in_browser(_views)


def _views(ui: Ui) -> None:
    name = "Panel test" if ui.language == "en" else "面板测试"
    page = ui.open("views")
    expect(page.locator("h2")).to_have_text(ui.t("views.heading"))
    page.locator("#new-rule").click()
    page.locator("#rule-name").fill(name)
    rule = page.locator("#rule-text")
    # A syntax error while typing: the message and the position marked.
    rule.fill("圣诞装饰 AND (")
    error = page.locator("#preview-error")
    expect(error).to_be_visible()
    # The parenthesis is never closed: marked where the rule ends.
    expect(error.locator(".position")).to_contain_text("^")
    expect(error.locator(".position")).to_contain_text(ui.t("views.position", position=11))
    # Fixed: the live preview shows hits, the rule tree and the canonical JSON.
    rule.fill("圣诞装饰")
    expect(page.locator("#preview-error")).to_have_count(0)
    expect(page.locator("#total-hits")).not_to_have_text("0")
    expect(page.locator("#rule-json")).to_contain_text('"tag": "圣诞装饰"')
    expect(page.locator("#samples tbody tr").first).to_be_visible()
    page.locator("#publish").click()
    expect(page.locator("#views-message")).to_contain_text(name)
    expect(page.locator("#rules .rule", has_text=name)).to_have_count(1)
    ui.shot("views")
    page.locator("#editor").scroll_into_view_if_needed()
    ui.shot("views-screen", full_page=False)

    # A second revision, then back to the first with one click.
    rule.fill("圣诞装饰 OR domain:lock")
    expect(page.locator("#rule-json")).to_contain_text("domain:lock")
    page.locator("#publish").click()
    revisions = page.locator("#revisions .revision")
    expect(revisions).to_have_count(2)
    expect(revisions.nth(1).locator(".diff-del")).to_contain_text("domain:lock")
    ui.shot("views-revisions")
    revisions.nth(1).locator(".rollback").click()
    expect(page.locator("#views-message")).to_contain_text(ui.t("views.rolled_back", name=name))
    expect(rule).to_have_value("圣诞装饰")

    # Delete, confirmed.
    page.locator("#delete").click()
    page.locator("#confirm-delete").click()
    expect(page.locator("#views-message")).to_contain_text(ui.t("views.deleted", name=name))
    expect(page.locator("#rules .rule", has_text=name)).to_have_count(0)


def test_questions(in_browser: Any) -> None:
    in_browser(_questions)


def _questions(ui: Ui) -> None:
    ui.ha.call("light", "turn_on", entity_id="light.living_room_ceiling")
    page = ui.open("questions")
    page.locator("#question").fill("哪些灯开着")
    page.locator("#ask").click()
    answer = page.locator("#answer")
    expect(answer.locator("#human")).to_contain_text("吸顶灯")
    sources = [
        ui.t(f"questions.source.{s}") for s in ("deterministic", "exact", "similar", "full_text")
    ]
    expect(answer.locator("#source")).to_contain_text(
        re.compile("|".join(re.escape(s) for s in sources))
    )
    expect(answer.locator(".filter").first).to_be_visible()
    expect(answer.locator("#rows")).to_contain_text("light.living_room_ceiling")
    saved = page.locator("#saved .saved-plan", has_text="哪些灯开着")
    expect(saved).to_have_count(1)
    expect(saved).to_contain_text(ui.t("questions.valid"))
    # Asked again: from the cache this time.
    page.locator("#ask").click()
    expect(answer.locator("#source")).to_contain_text(ui.t("questions.source.exact"))
    # Suggestions while typing a similar question.
    page.locator("#question").fill("")
    page.locator("#question").press_sequentially("哪些灯开着呢", delay=20)
    expect(page.locator("#suggestions .suggestion").first).to_contain_text("哪些灯开着")
    ui.shot("questions")


def test_search(in_browser: Any) -> None:
    in_browser(_search)


def _search(ui: Ui) -> None:
    page = ui.open("search")
    expect(page.locator("#search-state")).to_have_text(ui.t("search.idle"))
    page.locator("#min-score").fill("0")
    page.locator("#query").press_sequentially("灯", delay=20)
    results = page.locator("#results tr.hit")
    expect(results.first).to_be_visible()
    assert results.count() == 20
    expect(page.locator("#search-state")).to_contain_text(
        ui.t("search.count", total="X", ms="Y").split("X")[1].split("Y")[0].strip(" ·")
    )
    expect(results.first.locator(".bar")).to_have_count(3)
    expect(results.first.locator("mark")).to_contain_text("灯")
    first_page = results.first.inner_text()
    page.locator("#next").click()
    expect(page.locator("#paging")).to_contain_text(ui.t("search.page", page=2, pages="")[:4])
    expect(results.first).not_to_have_text(first_page)
    ui.shot("search")
    page.locator("#query").fill("zzzzqqq")
    page.locator("#strategy").select_option("keyword")
    expect(page.locator("#search-state")).to_have_text(ui.t("search.empty"))
    expect(page.locator("#no-results")).to_be_visible()


def test_rename(in_browser: Any) -> None:
    in_browser(_rename)


def _rename(ui: Ui) -> None:
    page = ui.open("rename")
    page.locator("#find").fill("吸顶灯")
    page.locator("#replace").fill("顶灯")
    preview = page.locator("#rename-preview")
    changes = preview.locator("tr.change")
    expect(changes.first).to_be_visible()
    count = changes.count()
    assert count >= 3
    expect(changes.first).to_contain_text("吸顶灯")
    expect(changes.first).to_contain_text("顶灯")
    # Several ceiling lights would all be called the same: marked.
    expect(preview.locator("tr.conflict").first).to_contain_text(ui.t("rename.conflict.same_name"))
    ui.shot("rename")
    page.locator("#apply").click()
    expect(page.locator("#rename-message")).to_have_text(ui.t("rename.applied", count=count))
    assert (
        ui.ha.request("GET", "/api/states/light.living_room_ceiling")["attributes"]["friendly_name"]
        == "顶灯"
    )
    page.locator("#snapshots .snapshot .rollback").first.click()
    expect(page.locator("#rename-message")).to_have_text(ui.t("rename.rolled_back", count=count))
    assert (
        ui.ha.request("GET", "/api/states/light.living_room_ceiling")["attributes"]["friendly_name"]
        == "吸顶灯"
    )


def test_health(in_browser: Any) -> None:
    in_browser(_health)


def _health(ui: Ui) -> None:
    page = ui.open("health")
    expect(page.locator("#index-state")).to_have_text(ui.t("health.state.ready"))
    health = ui.ha.request(
        "POST", "/api/services/context_retrieval/rebuild_index?return_response", {}
    )
    entities = health["service_response"]["entities"]
    page.locator("#refresh").click()
    expect(page.locator("#entities .big-number")).to_have_text(str(entities))
    expect(page.locator("#rates")).to_contain_text(ui.t("health.plan_cache_hit"))
    expect(page.locator("#degradations")).to_contain_text(ui.t("health.no_degradations"))
    ui.shot("health")
