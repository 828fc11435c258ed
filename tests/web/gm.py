"""What a GM does on the page: small helpers the browser tests share (no rule computed here)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


def version(page: Page) -> int:
    """The battle's version the page shows (the number of log entries)."""
    return int(page.get_attribute("html", "data-version") or "")


def acted(page: Page, before: int) -> None:
    """Wait until the core has answered a command (the battle's version moved); if it never
    does, fail with what the page shows instead (its errors, its live status)."""
    try:
        page.wait_for_function(
            "v => Number(document.documentElement.dataset.version) !== v", arg=before
        )
    except PlaywrightTimeoutError as timeout:
        shown = page.evaluate(SHOWN_PROBLEMS)
        errors = getattr(page, "page_errors", [])
        raise AssertionError(
            f"the battle stayed at version {before}; the page shows {shown}; page errors {errors}"
        ) from timeout


SHOWN_PROBLEMS = """() => {
  const texts = (selector) => [...document.querySelectorAll(selector)].map((e) => e.textContent);
  return {
    fieldErrors: texts(".field-error").filter(Boolean),
    notices: texts('[role="alert"]').filter(Boolean),
    live: document.querySelector("#live-status")?.textContent ?? null,
  };
}"""


def side_card(page: Page, side: str) -> Locator:
    return page.locator(f'.side[data-side="{side}"]')


def add_unit(
    page: Page,
    side: str,
    name: str,
    fighters: int | str,
    strength: int | str | None = None,
    rating: int | None = None,
    size: str | None = None,
) -> None:
    form = side_card(page, side).locator("form.add-unit")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Fighters").fill(str(fighters))
    if rating is not None:
        form.get_by_label("rating × size").check()
        form.get_by_label("Rating per fighter").fill(str(rating))
        if size:
            form.locator('select[name="size"]').select_option(size)
    else:
        form.locator('input[name="strength"]').fill(str(strength))
    before = version(page)
    form.get_by_role("button", name="Add the unit").click()
    acted(page, before)


def submit(page: Page, form: Locator) -> None:
    """Sends `form` by its submit button (in any language) and waits for the core's answer."""
    before = version(page)
    form.locator('button[type="submit"]').click()
    acted(page, before)


def unit(page: Page, side: str, name: str, fighters: int, strength: int) -> None:
    """A unit added by the form's field names, so in any language."""
    form = side_card(page, side).locator("form.add-unit")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="fighters"]').fill(str(fighters))
    form.locator('input[name="strength"]').fill(str(strength))
    submit(page, form)


def click_and_wait(page: Page, locator: Locator) -> None:
    before = version(page)
    locator.click()
    acted(page, before)


def start(page: Page) -> None:
    click_and_wait(page, page.get_by_role("button", name="Start the battle"))


def dwarves_against_orcs(page: Page, dwarves: str = "Dwarves", strength: int = 30) -> None:
    """The seed's fight typed in: 10 dwarves against 12 orcs (strength 26), started."""
    add_unit(page, "allies", dwarves, 10, strength=strength)
    add_unit(page, "enemies", "Orcs", 12, strength=26)
    start(page)


def lost_round(page: Page, allies: int | str, enemies: int | str) -> None:
    """A round with the strength lost typed in (no dice: the battle cannot end by chance)."""
    form = page.locator("#round-form")
    form.get_by_label("Strength lost").check()
    form.locator('input[name="lost.allies"]').fill(str(allies))
    form.locator('input[name="lost.enemies"]').fill(str(enemies))
    click_and_wait(page, form.get_by_role("button", name="Resolve the round"))


def set_strength(page: Page, side: str, strength: int) -> None:
    form = page.locator("#strength-form")
    form.locator('select[name="side"]').select_option(side)
    form.get_by_label("Strength now").fill(str(strength))
    click_and_wait(page, form.get_by_role("button", name="Set the strength"))


def side_strength(page: Page, side: str) -> str:
    return side_card(page, side).locator('[data-bind="strength"]').inner_text()


def side_initial(page: Page, side: str) -> str:
    return side_card(page, side).locator('[data-bind="initial"]').inner_text()


def casualties_of(page: Page, unit_name: str, where: str = "#casualty-bars") -> dict[str, int]:
    """The killed / wounded / fit numbers the stacked bar of a unit shows."""
    item = page.locator(f"{where} .bar-item", has=page.locator(".bar-name", has_text=unit_name))
    return {
        key: int(item.locator(f'[data-bind="{key}"] b').inner_text())
        for key in ("killed", "wounded", "fit")
    }


def saved_battle(page: Page) -> dict[str, Any]:
    """The battle JSON the page keeps in this browser (once it has written it: it saves right
    after the change is painted)."""
    page.wait_for_function("window.backgroundBattle.savesWaiting() === 0")
    return json.loads(page.evaluate("localStorage.getItem('bb.battle.v1')"))["battle"]
