"""People's habits: languages, share link, export/import, offline, a phone's width, bad input."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import open_page
from gm import (
    acted,
    add_unit,
    casualties_of,
    dwarves_against_orcs,
    saved_battle,
    set_strength,
    side_card,
    version,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect
from static_server import StaticServer


def fought_battle(page: Page) -> None:
    dwarves_against_orcs(page, "Dwarves of Karak Hirn")
    set_strength(page, "allies", 18)


def test_a_share_link_opened_in_a_new_browser_gives_the_same_battle(
    page: Page, browser: Browser, server: StaticServer
) -> None:
    fought_battle(page)
    page.get_by_role("button", name="Copy a share link").click()
    link = page.locator("#share-link").get_attribute("href")
    assert link and link.startswith(server.url) and "#b=" in link

    other = browser.new_context(locale="en-US")
    try:
        shared = open_page(other, link)
        expect(shared.locator("#battle-name")).to_have_text("battle")
        assert saved_battle(shared) == saved_battle(page)
        assert casualties_of(shared, "Dwarves") == {"killed": 2, "wounded": 4, "fit": 4}
        assert "#b=" not in shared.url  # the battle now lives in that browser
    finally:
        other.close()


def test_a_damaged_share_link_says_so_and_starts_a_fresh_battle(
    context: BrowserContext, server: StaticServer
) -> None:
    page = open_page(context, f"{server.url}#b=zAAAA")
    expect(page.locator("#tools-error")).to_contain_text("The share link does not hold a battle")
    assert version(page) == 0


def test_export_then_import_gives_back_the_battle(
    page: Page, browser: Browser, server: StaticServer, tmp_path: Path
) -> None:
    fought_battle(page)
    with page.expect_download() as download:
        page.get_by_role("button", name="Export JSON").click()
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)
    assert exported.name == "battle.battle.json"
    data = json.loads(exported.read_text())
    assert data.pop("strength_series")  # the chart's points go along (tests/web/test_chart.py)
    assert data == saved_battle(page)

    other = browser.new_context(locale="en-US")
    try:
        fresh = open_page(other, server.url)
        before = version(fresh)
        fresh.locator("#import-file").set_input_files(str(exported))
        acted(fresh, before)
        assert saved_battle(fresh) == saved_battle(page)
        assert casualties_of(fresh, "Dwarves") == {"killed": 2, "wounded": 4, "fit": 4}
    finally:
        other.close()


def test_importing_a_file_that_is_not_a_battle_changes_nothing(page: Page, tmp_path: Path) -> None:
    fought_battle(page)
    before = saved_battle(page)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"schema": 1, "units": "many"}))
    page.locator("#import-file").set_input_files(str(broken))
    expect(page.locator("#tools-error")).to_contain_text("This file is not a battle")
    assert saved_battle(page) == before
    not_json = tmp_path / "notes.json"
    not_json.write_text("orcs everywhere")
    page.locator("#import-file").set_input_files(str(not_json))
    expect(page.locator("#tools-error")).to_contain_text("This file is not a battle")
    assert saved_battle(page) == before


def test_the_battle_is_restored_after_a_reload(page: Page) -> None:
    fought_battle(page)
    page.reload()
    page.wait_for_selector('html[data-ready="true"]')
    assert side_card(page, "allies").locator('[data-bind="strength"]').inner_text() == "18"
    assert casualties_of(page, "Dwarves") == {"killed": 2, "wounded": 4, "fit": 4}


# Submits a strength of 7 and, the moment the page has repainted it (before the save that comes
# after the paint), notes whether that save still waited and reloads the page.
EDIT_THEN_RELOAD = """() => {
  const html = document.documentElement;
  const before = html.dataset.version;
  new MutationObserver((_, observer) => {
    if (html.dataset.version === before) return;
    observer.disconnect();
    sessionStorage.setItem("waited", String(window.backgroundBattle.savesWaiting()));
    location.reload();
  }).observe(html, { attributes: true, attributeFilter: ["data-version"] });
  const form = document.querySelector("#strength-form");
  form.querySelector('select[name="side"]').value = "allies";
  form.querySelector('input[name="strength"]').value = "7";
  form.requestSubmit();
}"""


def test_an_edit_reloaded_away_at_once_is_still_there(page: Page) -> None:
    fought_battle(page)
    before = version(page)
    with page.expect_navigation():
        page.evaluate(EDIT_THEN_RELOAD)
    page.wait_for_selector('html[data-ready="true"]')
    assert page.evaluate("sessionStorage.getItem('waited')") == "1"  # left before its save
    assert version(page) == before + 1
    assert side_card(page, "allies").locator('[data-bind="strength"]').inner_text() == "7"
    assert saved_battle(page)["log"][-1]["command"]["strength"] == 7


def test_after_the_first_visit_the_page_works_offline(browser: Browser, site: Path) -> None:
    own = StaticServer(site)  # this server is stopped halfway: nothing is left to fetch from
    context = browser.new_context(locale="en-US")
    try:
        page = open_page(context, own.url)
        fought_battle(page)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        own.close()
        context.set_offline(True)

        page.reload()
        page.wait_for_selector('html[data-ready="true"]', timeout=120_000)
        assert casualties_of(page, "Dwarves") == {"killed": 2, "wounded": 4, "fit": 4}
        set_strength(page, "allies", 12)  # and the core still computes, offline
        assert casualties_of(page, "Dwarves") == {"killed": 3, "wounded": 6, "fit": 1}
    finally:
        context.close()


def test_a_file_lost_on_the_way_is_asked_again_and_the_page_still_works_offline(
    browser: Browser, site: Path
) -> None:
    own = StaticServer(site)
    own.flaky["rules/ru.js"] = 2  # not loaded by an English page: only the service worker asks
    context = browser.new_context(locale="en-US")
    try:
        page = open_page(context, own.url)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        assert own.asked["rules/ru.js"] == 3
        assert page.evaluate("caches.match('rules/ru.js').then((r) => Boolean(r && r.ok))")
        own.close()
        context.set_offline(True)
        page.reload()
        page.wait_for_selector('html[data-ready="true"]', timeout=120_000)
    finally:
        context.close()


def test_the_language_follows_the_browser_switches_and_is_remembered(
    browser: Browser, server: StaticServer
) -> None:
    context = browser.new_context(locale="ru-RU")
    try:
        page = open_page(context, server.url)
        expect(page.locator("h1")).to_contain_text("Фоновый бой")
        assert page.get_attribute("html", "lang") == "ru"
        # a heading is in the page's language alone, as a label is (no "Потери Casualties")
        expect(page.locator("#casualties-title")).to_have_text("Потери")
        expect(page.locator("#allies-title")).to_have_text("Союзники")
        # the default battle's name is in the page's language
        expect(page.locator("#battle-name")).to_have_text("бой")
        page.get_by_role("button", name="EN", exact=True).click()
        expect(page.locator("h1")).to_contain_text("Background Battle")
        expect(page.locator("#casualties-title")).to_have_text("Casualties")
        expect(page.locator("#allies-title")).to_have_text("Allies")
        page.reload()
        page.wait_for_selector('html[data-ready="true"]')
        assert page.get_attribute("html", "lang") == "en"
        expect(page.get_by_role("button", name="Start the battle")).to_be_visible()
    finally:
        context.close()


def test_bad_input_is_shown_next_to_its_field_and_nothing_is_lost(page: Page) -> None:
    add_unit(page, "allies", "Dwarves", 10, strength=30)
    form = side_card(page, "allies").locator("form.add-unit")
    form.get_by_label("Name").fill("Rangers")
    form.get_by_label("Fighters").fill("-3")
    form.locator('input[name="strength"]').fill("12")
    before = version(page)
    form.get_by_role("button", name="Add the unit").click()

    fighters = form.locator('input[name="fighters"]')  # labelled in one language at a time
    expect(fighters).to_have_attribute("aria-invalid", "true")
    error = form.locator('input[name="fighters"] + .field-error')
    expect(error).to_have_text("Fighters: from 1 to 100000")
    assert version(page) == before
    expect(side_card(page, "allies").locator(".unit")).to_have_count(1)
    assert form.get_by_label("Name").input_value() == "Rangers"
    assert fighters.input_value() == "-3"

    fighters.fill("2.5")
    form.get_by_role("button", name="Add the unit").click()
    expect(error).to_have_text("Fighters: a whole number from 1 to 100000")

    page.get_by_role("button", name="RU", exact=True).click()
    form.get_by_role("button", name="Добавить отряд").click()
    expect(error).to_have_text("Бойцы: целое число от 1 до 100000")
    fighters.fill("4")
    before = version(page)
    form.get_by_role("button", name="Добавить отряд").click()
    acted(page, before)
    expect(side_card(page, "allies").locator(".unit")).to_have_count(2)
    expect(error).to_be_empty()


def test_a_roll_outside_1_to_100_is_refused_with_its_range(page: Page) -> None:
    dwarves_against_orcs(page)
    form = page.locator("#round-form")
    form.get_by_label("Rolls typed in").check()
    form.locator('input[name="rolls.allies"]').fill("150")
    form.locator('input[name="rolls.enemies"]').fill("40")
    before = version(page)
    form.get_by_role("button", name="Resolve the round").click()
    expect(form.locator('input[name="rolls.allies"] + .field-error')).to_have_text(
        "rolls · Allies: from 1 to 100"
    )
    assert version(page) == before


def test_a_phone_360_px_wide_has_no_sideways_scrolling_and_big_tap_targets(
    browser: Browser, server: StaticServer
) -> None:
    context = browser.new_context(locale="ru-RU", viewport={"width": 360, "height": 740})
    try:
        page = open_page(context, server.url)
        page.get_by_role("button", name="EN", exact=True).click()
        dwarves_against_orcs(page, "Ironbreakers of the Deep Hold Karak-Eight-Peaks")
        page.get_by_role("button", name="Simulate the rest of the battle").click()
        expect(page.locator("#odds-result .odds-chart")).to_be_visible(timeout=60_000)
        page.get_by_role("button", name="RU", exact=True).click()  # the longer language
        for tab in ("Только потери", "Бой"):
            page.get_by_role("tab", name=tab).click()
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{tab}: the page is {width} px wide"
        small = page.evaluate(
            """() => [...document.querySelectorAll(`button, select, .segmented label,
                    input:not([type=radio]):not([type=checkbox]):not([type=file])`)]
                .filter(el => el.offsetParent !== null)
                .map(el => [el.textContent.trim() || el.name || el.getAttribute('aria-label'),
                            el.getBoundingClientRect().height])
                .filter(([, h]) => h < 44)"""
        )
        assert small == []
    finally:
        context.close()


def test_every_control_has_a_name_for_screen_readers_and_the_keyboard_works(page: Page) -> None:
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('input, select, button')]
            .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                          && !(el.tagName === 'BUTTON' && el.textContent.trim()))
            .map(el => el.outerHTML)"""
    )
    assert unnamed == []
    form = side_card(page, "allies").locator("form.add-unit")
    form.get_by_label("Name").focus()
    page.keyboard.type("Dwarves")
    page.keyboard.press("Tab")  # to the strength choice
    page.keyboard.press("Tab")  # to the fighters
    page.keyboard.type("10")
    page.keyboard.press("Tab")
    page.keyboard.type("30")
    before = version(page)
    page.keyboard.press("Enter")
    acted(page, before)
    expect(side_card(page, "allies").locator(".unit")).to_contain_text("Dwarves")
