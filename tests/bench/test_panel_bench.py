"""bench.panel's report: percentiles against the budgets."""

from __future__ import annotations

from bench.panel import TYPING_BUDGET_MS, USABLE_BUDGET_MS, report


def test_report_says_whether_each_p95_is_within_its_budget() -> None:
    usable = {"full page load": [400.0] * 19 + [1600.0], "sidebar click": [100.0] * 20}
    typing = {"search results": [200.0] * 20, "view preview": [250.0] * 18 + [310.0] * 2}
    table = report(usable, typing, 1004, "2025.4.4", "1/1/1 / 1/1/1")
    rows = {
        line.split(" | ")[0].lstrip("| "): line
        for line in table.splitlines()
        if line.startswith("| panel") or " after typing" in line
    }
    # Nearest-rank p95 of 20 values is the 19th: one slow run of twenty passes.
    assert rows["panel usable, full page load (demo home)"].endswith(
        f"| 400 | 400 | 1600 | ≤ {USABLE_BUDGET_MS:.0f} | yes |"
    )
    assert rows["view preview after typing stops (1,004 entities)"].endswith(
        f"| 250 | 310 | 310 | ≤ {TYPING_BUDGET_MS:.0f} | no |"
    )
    assert rows["search results after typing stops (1,004 entities)"].endswith("| yes |")
    assert "Home Assistant 2025.4.4" in table
