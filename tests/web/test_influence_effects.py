"""The Influence result lists its effects for the GM to tick off at the table: each in words, a
damage's dice rolled on tap; a row of a GM's own table without effects says to apply it by hand.
The page's real files, the core in Pyodide, Chromium."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from gm import acted, click_and_wait, dwarves_against_orcs, version
from playwright.sync_api import Page, expect


def roll_influence(page: Page, roll: int) -> None:
    influence = page.locator("#influence-form")
    influence.get_by_label("d100").fill(str(roll))
    click_and_wait(page, influence.get_by_role("button", name="Roll on the Influence table"))


def test_the_allies_volley_lists_its_effects_and_rolls_the_damage_on_tap(page: Page) -> None:
    dwarves_against_orcs(page, strength=24)
    form = page.locator("#pcs-won-form")
    form.get_by_label("Share of the enemies who flee").fill("1/2")
    click_and_wait(page, form.get_by_role("button", name="The PCs won"))
    roll_influence(page, 60)  # 60 + 50 + 18 = 128: a volley

    expect(page.locator("#influence-result .big-line")).to_have_text("Allies: d100 60 + 68 = 128")
    items = page.locator("#influence-result .fight-effects li")
    expect(items).to_have_text(
        [
            re.compile(r"1d10\+4 Damage to one \(your choice\) of: each foe of the PCs"),
            "each PC: +1 Advantage",
        ]
    )
    items.nth(1).get_by_role("checkbox").check()
    items.first.get_by_role("button", name="Roll 1d10+4").click()
    rolled = items.first.locator("output").text_content() or ""
    match = re.fullmatch(r"= (\d+) \((\d+)\)", rolled)
    assert match, rolled
    assert int(match[1]) == int(match[2]) + 4 and 1 <= int(match[2]) <= 10
    expect(items.nth(1).get_by_role("checkbox")).to_be_checked()
    # in Russian the dice are written as Russian writes them, as the page's к100
    page.locator('button[data-lang="ru"]').click()
    expect(items.first).to_contain_text("1к10+4 Урона одному (на ваш выбор)")
    expect(items.first.get_by_role("button", name="Бросить 1к10+4")).to_be_visible()
    # the picture in docs/web.md: `BB_SCREENSHOT=docs/web-influence-effects.png pytest
    # tests/web/test_influence_effects.py -k volley`
    path = os.environ.get("BB_SCREENSHOT")
    if path:
        page.locator("#influence-result").screenshot(path=path)


def test_a_row_of_text_only_says_to_apply_it_by_hand(page: Page, tmp_path: Path) -> None:
    dwarves_against_orcs(page)
    page.locator("#influence-table summary").click()
    ours = {
        "bands": [
            {"min": None, "max": 50, "effect": "Bad luck"},
            {"min": 51, "max": None, "effect": "Good luck"},
        ]
    }
    table_file = tmp_path / "table.json"
    table_file.write_text(json.dumps(ours))
    before = version(page)
    page.locator("#table-file").set_input_files(str(table_file))
    acted(page, before)
    roll_influence(page, 40)

    result = page.locator("#influence-result")
    expect(result.locator('[data-bind="effect"]')).to_have_text("≤ 50: Bad luck")
    expect(result.locator(".fight-effects")).to_have_text(
        "This row of the table carries no effects: apply it by hand."
    )
