"""Forms as a GM expects: a blank that can only mean 0, every error at once, choices kept."""

from __future__ import annotations

from conftest import PHONE, open_page
from gm import click_and_wait, dwarves_against_orcs, side_strength
from playwright.sync_api import BrowserContext, Page, expect
from static_server import StaticServer


def test_strength_lost_by_one_side_only_reads_the_blank_side_as_0(page: Page) -> None:
    dwarves_against_orcs(page)
    form = page.locator("#round-form")
    form.get_by_label("Strength lost").check()
    form.locator('input[name="lost.enemies"]').fill("4")

    click_and_wait(page, form.get_by_role("button", name="Resolve the round"))

    assert side_strength(page, "allies") == "30"
    assert side_strength(page, "enemies") == "22"


def test_both_rolls_out_of_range_are_both_shown_and_nothing_changes(page: Page) -> None:
    dwarves_against_orcs(page)
    form = page.locator("#round-form")
    form.get_by_label("Rolls typed in").check()
    form.locator('input[name="rolls.allies"]').fill("0")
    form.locator('input[name="rolls.enemies"]').fill("101")
    version = page.get_attribute("html", "data-version")

    form.get_by_role("button", name="Resolve the round").click()

    errors = form.locator(".field-error")
    expect(errors.nth(0)).to_contain_text("from 1 to 100")
    expect(errors.nth(1)).to_contain_text("from 1 to 100")
    expect(form.locator('input[aria-invalid="true"]')).to_have_count(2)
    assert page.evaluate("document.activeElement.name") == "rolls.allies"
    assert page.get_attribute("html", "data-version") == version


def test_the_round_mode_is_remembered_and_the_title_says_the_rounds_number(
    context: BrowserContext, server: StaticServer
) -> None:
    page = open_page(context, server.url)
    dwarves_against_orcs(page)
    form = page.locator("#round-form")
    form.get_by_label("Strength lost").check()
    form.locator('input[name="lost.allies"]').fill("1")
    click_and_wait(page, form.get_by_role("button", name="Resolve the round"))

    page.reload()
    page.wait_for_selector('html[data-ready="true"]')

    expect(page.locator("#round-form").get_by_label("Strength lost")).to_be_checked()
    expect(page.locator('#round-form input[name="lost.allies"]')).to_be_visible()
    expect(page.locator("#round-number")).to_have_text("2")
    expect(page.locator("#battle-round")).to_have_text("· Round 2")


def test_a_unit_without_name_and_fighters_shows_both_errors_by_their_fields_on_a_phone(
    phone: Page,
) -> None:
    form = phone.locator('.side[data-side="allies"] form.add-unit')
    form.locator('input[name="strength"]').fill("30")
    version = phone.get_attribute("html", "data-version")

    form.get_by_role("button", name="Add the unit").click()

    name_error = form.locator('label:has(input[name="name"]) .field-error')
    fighters_error = form.locator('label:has(input[name="fighters"]) .field-error')
    expect(name_error).to_have_text("name: this is needed")
    expect(fighters_error).to_have_text("Fighters: needed, a whole number from 1 to 100000")
    for error in (name_error, fighters_error):
        expect(error).to_be_visible()
        box = error.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    expect(form.locator('input[aria-invalid="true"]')).to_have_count(2)
    assert phone.evaluate("document.activeElement.name") == "name"  # the first bad field
    assert phone.get_attribute("html", "data-version") == version
    expect(phone.locator('.side[data-side="allies"] .units > li')).to_have_count(0)
