"""Strength over the rounds: a chart in the page and the series in the exported battle."""

from __future__ import annotations

import json
from pathlib import Path

from gm import click_and_wait, dwarves_against_orcs, lost_round
from playwright.sync_api import Page, expect

from background_battle.api import handle


def test_the_chart_and_the_export_carry_both_sides_strength_round_by_round(
    page: Page, tmp_path: Path
) -> None:
    dwarves_against_orcs(page)
    form = page.locator("#leader-form")
    form.locator('input[name="sl"]').fill("4")
    click_and_wait(page, form.get_by_role("button", name="Give the command"))
    lost_round(page, 0, 6)
    lost_round(page, 30, 0)

    chart = page.locator("#chart-panel svg.strength-chart")
    expect(chart).to_have_attribute(
        "aria-label", "Strength over the rounds: allies 30 → 0, enemies 26 → 20, 2 rounds"
    )
    expect(chart.locator("text.mark.bonus.allies")).to_have_text("+6")
    expect(chart.locator("line.mark.end")).to_have_count(1)

    with page.expect_download() as download:
        page.get_by_role("button", name="Export JSON").click()
    path = tmp_path / "battle.json"
    download.value.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    series = handle({"op": "series", "battle": exported})["points"]
    assert exported["strength_series"] == series
    assert [(p["allies"], p["enemies"]) for p in series] == [(30, 26), (30, 26), (30, 20), (0, 20)]
