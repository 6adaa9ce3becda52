"""Issue 22 on the Questions page, in English and Chinese: the plan is shown in the user's
words (no raw `类型 ∈ door` or `状况 = unlocked`), an order is refused and not saved, and the
plan editor says what is wrong in the user's language and can be cancelled."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Ui

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


def test_questions_plan_terms_commands_and_editor(in_browser: Any) -> None:
    in_browser(_flow)


def _ask(page: Any, question: str) -> Any:
    page.locator("#question").fill(question)
    page.locator("#ask").click()
    return page.locator("#answer")


def _flow(ui: Ui) -> None:
    zh = ui.language.startswith("zh")
    ui.ha.call("lock", "unlock", entity_id="lock.front_door")
    page = ui.open("questions")
    question = "哪些门没锁" if zh else "Which doors are unlocked?"
    answer = _ask(page, question)
    expect(answer.locator("#rows")).to_contain_text("lock.front_door")
    chips = answer.locator(".filter")
    expect(chips.first).to_contain_text(ui.t("field.type"))
    expect(chips.first).to_contain_text(ui.t("plan.type.door"))
    expect(answer.locator(".plan")).to_contain_text(ui.t("plan.status.unlocked"))
    if zh:
        plan_text = answer.locator(".plan").inner_text()
        assert not re.search(r"\b(door|unlocked|lock|in)\b|∈", plan_text), plan_text
        # The rows' states in the user's language too (Home Assistant's own words).
        expect(answer.locator("#rows")).not_to_contain_text("unlocked")

    # An order said as if a question: refused in the user's language, nothing saved.
    command = "打开客厅灯" if zh else "turn on the living room light"
    answer = _ask(page, command)
    expect(answer.locator("#human")).to_contain_text("指令" if zh else "sounds like a command")
    expect(answer.locator("#source")).to_contain_text(ui.t("questions.source.command"))
    expect(page.locator("#saved .saved-plan", has_text=command)).to_have_count(0)

    saved = page.locator("#saved .saved-plan", has_text=question)
    expect(saved).to_have_count(1)
    saved.locator(".edit-plan").click()
    editor = saved.locator("textarea")
    original = json.loads(editor.input_value())
    editor.fill("{not json")
    expect(saved.locator(".plan-error")).to_have_text(ui.t("questions.plan_error.not_json"))
    expect(saved.locator(".save-plan")).to_be_disabled()
    broken = {**original, "where": [[{"field": "script", "op": "eq", "value": "x"}]]}
    editor.fill(json.dumps(broken))
    expect(saved.locator(".plan-error")).to_have_count(0)
    saved.locator(".save-plan").click()
    expect(saved.locator(".plan-error")).to_have_text(
        ui.t("questions.plan_error.unknown_field", path="where[0][0].field")
    )
    expect(editor).to_be_visible()  # still open, with the text as typed
    ui.shot("questions-editor")
    saved.locator(".cancel-edit").click()
    expect(saved.locator("textarea")).to_have_count(0)
    # Cancelled: the stored plan is the one before the edit.
    saved.locator(".edit-plan").click()
    assert json.loads(saved.locator("textarea").input_value()) == original
    saved.locator(".cancel-edit").click()
    ui.ha.call("lock", "lock", entity_id="lock.front_door")
