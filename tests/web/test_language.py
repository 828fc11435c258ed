"""Good Russian (and English): plural forms from Intl.PluralRules, the source's terms, no noise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import open_page
from gm import acted, side_card, version
from playwright.sync_api import Browser, Page, expect
from static_server import StaticServer

COUNTS = (1, 2, 5, 21)


@pytest.fixture
def russian(browser: Browser, server: StaticServer) -> Iterator[Page]:
    context = browser.new_context(locale="ru-RU", viewport={"width": 360, "height": 800})
    context.set_default_timeout(30_000)
    yield open_page(context, server.url)
    context.close()


def add_unit(page: Page, name: str, fighters: int) -> None:
    form = side_card(page, "allies").locator("form.add-unit")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="fighters"]').fill(str(fighters))
    form.locator('input[name="strength"]').fill(str(fighters * 3))
    before = version(page)
    form.locator('button[type="submit"]').click()
    acted(page, before)


def forms_of(page: Page, key: str) -> list[str]:
    """The page's own t() for each count (the module the page runs, in its language)."""
    return page.evaluate(
        """([key, counts]) => counts.map((count) => window.backgroundBattle.t(key, { count }))""",
        [key, list(COUNTS)],
    )


def test_russian_fighters_agree_with_1_2_5_and_21(russian: Page) -> None:
    for count in COUNTS:
        add_unit(russian, f"Отряд {count}", count)
    lines = side_card(russian, "allies").locator(".unit-line")
    expect(lines).to_have_text(
        [
            "1 боец · очки силы 3 · средний",
            "2 бойца · очки силы 6 · средний",
            "5 бойцов · очки силы 15 · средний",
            "21 боец · очки силы 63 · средний",
        ]
    )
    log = russian.locator("#log").inner_text()
    for line in ("1 боец,", "2 бойца,", "5 бойцов,", "21 боец,"):
        assert line in log
    assert forms_of(russian, "count.fit") == [
        "готов к бою",
        "готовы к бою",
        "готовы к бою",
        "готов к бою",
    ]
    assert forms_of(russian, "count.killed") == ["убит", "убиты", "убиты", "убит"]
    assert forms_of(russian, "odds.summary")[0].startswith("1 смоделированный бой;")


def test_a_casualty_count_of_one_reads_in_the_singular(russian: Page) -> None:
    """A unit of 1 fighter that lost nothing: "1 готов к бою", not "1 готовы к бою"."""
    add_unit(russian, "Лидер", 1)
    add_unit(russian, "Дварфы", 10)
    enemies = side_card(russian, "enemies").locator("form.add-unit")
    enemies.locator('input[name="name"]').fill("Орки")
    enemies.locator('input[name="fighters"]').fill("12")
    enemies.locator('input[name="strength"]').fill("26")
    before = version(russian)
    enemies.locator('button[type="submit"]').click()
    acted(russian, before)
    before = version(russian)
    russian.get_by_role("button", name="Начать бой").click()
    acted(russian, before)
    bar = russian.locator("#casualty-bars .bar-item", has_text="Лидер")
    expect(bar.locator('[data-bind="fit"]')).to_have_text("1 готов к бою")
    expect(bar.locator('[data-bind="killed"]')).to_have_text("0 убиты")
    expect(bar.locator(".bar")).to_have_attribute(
        "aria-label", "Лидер: 0 убиты, 0 ранены, 1 готов к бою"
    )


def test_english_fighters_are_one_fighter_and_many_fighters(page: Page) -> None:
    assert forms_of(page, "unit.line") == [
        "1 fighter · strength {strength}",
        "2 fighters · strength {strength}",
        "5 fighters · strength {strength}",
        "21 fighters · strength {strength}",
    ]
