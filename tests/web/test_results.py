"""Every result where the GM's eyes are: a card by the button, on a phone, with its working."""

from __future__ import annotations

import re

from conftest import PHONE
from gm import acted, dwarves_against_orcs, set_strength, version
from playwright.sync_api import Locator, Page, expect


def submit_and_read(page: Page, form: Locator, button: str, card: str) -> Locator:
    """Press a form's button as a GM would; the card's status region, whole in the viewport."""
    before = version(page)
    form.get_by_role("button", name=button).click()
    acted(page, before)
    region = page.locator(f"{card}[role='status']")
    expect(region.get_by_text("why?")).to_be_visible()  # the working has come too
    box = region.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 0.5, box  # sub-pixel
    return region


def test_a_round_of_typed_rolls_shows_the_loss_and_the_new_strength_by_the_button(
    phone: Page,
) -> None:
    dwarves_against_orcs(phone)
    form = phone.locator("#round-form")
    form.get_by_label("Rolls typed in").check()
    form.locator('input[name="rolls.allies"]').fill("12")
    form.locator('input[name="rolls.enemies"]').fill("57")

    card = submit_and_read(phone, form, "Resolve the round", "#round-result")

    # Dwarves 30 roll 12: SL 3 - 1 = +2; orcs 26 roll 57: 2 - 5 = -3; the orcs lose 5.
    expect(card).to_contain_text("Round 1: the allies win")
    expect(card).to_contain_text("SL: Allies +2 · Enemies −3")
    expect(card).to_contain_text("Enemies lose 5")
    expect(card.locator('[data-bind="strength-change"]')).to_have_text(
        "Strength: Allies 30 → 30 · Enemies 26 → 21"
    )
    phone.get_by_role("button", name="RU").click()
    expect(card.locator(".result-line").first).to_have_text("Раунд 1: побеждают союзники")
    phone.get_by_role("button", name="EN").click()
    card.get_by_text("why?").click()
    expect(card.locator(".working li")).to_contain_text(
        [
            "floor(30/10) - floor(12/10) = 3 - 1 = 2",
            "floor(26/10) - floor(57/10) = 2 - 5 = -3",
            "max(1, 2 - (-3)) = 5",
            "26 - 5 = 21",
        ]
    )


def test_the_leaders_command_shows_the_bonus_with_its_working(phone: Page) -> None:
    dwarves_against_orcs(phone, strength=24)
    form = phone.locator("#leader-form")
    form.get_by_label("Enemies").check()
    form.locator('input[name="sl"]').fill("7")

    card = submit_and_read(phone, form, "Give the command", "#leader-result")

    expect(card).to_contain_text("Enemies: the leader's bonus is +6 (32 for the next test)")
    card.get_by_text("why?").click()
    expect(card.locator('.working li[data-rule="leader_bonus"]')).to_contain_text(
        "1 + floor(26/10) + floor(7/2) = 1 + 2 + 3 = 6"
    )


def test_the_end_of_the_battle_shows_who_won_by_the_button(phone: Page) -> None:
    dwarves_against_orcs(phone, strength=24)
    form = phone.locator("#pcs-won-form")
    form.get_by_label("Share of the enemies who flee").fill("1/2")

    card = submit_and_read(phone, form, "The PCs won", "#end-result")

    expect(card).to_contain_text("The allies won (the PCs beat their opponents)")
    expect(card.locator('[data-bind="strength-change"]')).to_have_text(
        "Strength: Allies 24 → 18 · Enemies 26 → 13"
    )
    card.get_by_text("why?").click()
    expect(card.locator(".working li")).to_contain_text(
        ["26 × (1 - 1/2) = 13", "13 / 2 = 6.5 → 6", "24 - 6 = 18"]
    )
    expect(phone.locator("#end-form")).to_be_hidden()  # the battle is over: only the result stays


def test_each_entry_of_the_log_and_each_units_casualties_say_why(page: Page) -> None:
    dwarves_against_orcs(page)
    set_strength(page, "allies", 18)

    start_entry = page.locator('#log > li[data-entry="2"]')
    start_entry.get_by_text("why?").click()
    expect(start_entry.locator(".working li")).to_contain_text(["30 = 30", "26 = 26"])
    dwarves = page.locator('#casualty-bars .bar-item[data-unit="u1"]')
    dwarves.get_by_text("why?").click()
    expect(dwarves.locator(".working li")).to_contain_text(
        ["(30 - 18) / 30 = 2/5", "10 × 2/5 / 2 = 2", "min(2 × 2, 10 - 2) = 4", "10 - 2 - 4 = 4"]
    )


def test_a_tie_on_sl_0_shows_plus_0_minus_0_and_why_the_success_won(phone: Page) -> None:
    """Issue 27: 30 vs 35 at strength 30: both SL 0, the allies passed (+0), the enemies failed
    (−0); the card says a success beats a failure, in both languages, and "why?" says it."""
    dwarves_against_orcs(phone)
    set_strength(phone, "enemies", 30)
    form = phone.locator("#round-form")
    form.get_by_label("Rolls typed in").check()
    form.locator('input[name="rolls.allies"]').fill("30")
    form.locator('input[name="rolls.enemies"]').fill("35")

    card = submit_and_read(phone, form, "Resolve the round", "#round-result")

    expect(card).to_contain_text("Round 1: the allies win")
    expect(card).to_contain_text("SL: Allies +0 · Enemies −0")
    expect(card).to_contain_text("Equal SL: a success beats a failure")
    expect(card).to_contain_text("Enemies lose 1")
    card.get_by_text("why?").click()
    expect(card.locator('.working li[data-rule="won_by_success"]')).to_contain_text("+0 > -0")
    expect(card.locator('.working li[data-rule="won_by_success"]')).to_contain_text(
        "a success beats a failure (+0 beats −0)"
    )
    phone.get_by_role("button", name="RU").click()
    expect(card).to_contain_text("SL равны: успех бьёт провал")
    expect(card).to_contain_text(re.compile(r"SL: \S+ \+0 · \S+ −0"))


def test_a_97_fails_with_minus_0(phone: Page) -> None:
    dwarves_against_orcs(phone)
    set_strength(phone, "enemies", 100)
    form = phone.locator("#round-form")
    form.get_by_label("Rolls typed in").check()
    form.locator('input[name="rolls.allies"]').fill("30")
    form.locator('input[name="rolls.enemies"]').fill("97")

    card = submit_and_read(phone, form, "Resolve the round", "#round-result")

    expect(card).to_contain_text("Round 1: the allies win")
    expect(card).to_contain_text("SL: Allies +0 · Enemies −0")
    expect(card).to_contain_text("Equal SL: a success beats a failure")
