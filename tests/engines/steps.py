"""What a GM does on the page, as steps any engine's ``Tab`` can take (tests/support/engines.py).

The same steps as tests/web/gm.py (Playwright, Chromium), found by the forms' field names so in
any language; nothing computed here: what the page shows is compared with the core in CPython.
"""

from __future__ import annotations

import json
from typing import Any

from engines import Tab, wait

BOOT_TIMEOUT_S = 180
ANSWER_TIMEOUT_S = 60


def side(which: str) -> str:
    return f'.side[data-side="{which}"]'


def open_page(tab: Tab, url: str) -> None:
    """Open the page and wait until the core has answered (``<html data-ready="true">``)."""
    tab.goto(url)
    ready(tab)


def ready(tab: Tab) -> None:
    wait(
        tab,
        "() => document.documentElement.dataset.ready === 'true'",
        timeout_s=BOOT_TIMEOUT_S,
        what="the page to say it is ready",
    )


def html(tab: Tab, name: str) -> str | None:
    """An attribute of ``<html>`` (``data-*`` by its dataset name), or None."""
    return tab.evaluate("(name) => document.documentElement.dataset[name] ?? null", name)  # type: ignore[no-any-return]


def text(tab: Tab, selector: str) -> str:
    return tab.evaluate(  # type: ignore[no-any-return]
        "(s) => document.querySelector(s)?.textContent.trim() ?? ''", selector
    )


def version(tab: Tab) -> int:
    return int(html(tab, "version") or "")


def acted(tab: Tab, before: int) -> None:
    """Wait until the core has answered a command (the battle's version moved)."""
    wait(
        tab,
        "(v) => Number(document.documentElement.dataset.version) !== v",
        before,
        timeout_s=ANSWER_TIMEOUT_S,
        what=f"the battle to move on from version {before}",
    )


def click_and_wait(tab: Tab, selector: str) -> None:
    before = version(tab)
    tab.click(selector)
    acted(tab, before)


def add_unit(tab: Tab, which: str, name: str, fighters: int, strength: int) -> None:
    form = f"{side(which)} form.add-unit"
    tab.type(f'{form} input[name="name"]', name)
    tab.type(f'{form} input[name="fighters"]', str(fighters))
    tab.type(f'{form} input[name="strength"]', str(strength))
    click_and_wait(tab, f'{form} button[type="submit"]')


def start(tab: Tab) -> None:
    click_and_wait(tab, '#start-form button[type="submit"]')


def typed_round(tab: Tab, allies: int, enemies: int) -> None:
    """A round resolved with both sides' d100 typed in."""
    tab.click('#round-form label:has(input[name="mode"][value="rolls"])')
    tab.type('#round-form input[name="rolls.allies"]', str(allies))
    tab.type('#round-form input[name="rolls.enemies"]', str(enemies))
    click_and_wait(tab, '#round-form button[type="submit"]')


def typed_influence(tab: Tab, d100: int) -> None:
    tab.type('#influence-form input[name="roll"]', str(d100))
    click_and_wait(tab, '#influence-form button[type="submit"]')


def strength(tab: Tab, which: str) -> str:
    return text(tab, f'{side(which)} [data-bind="strength"]')


def saved_battle(tab: Tab) -> dict[str, Any]:
    """The battle JSON the page keeps in this browser, once it has written it."""
    wait(tab, "() => window.backgroundBattle.savesWaiting() === 0", what="the battle saved")
    return json.loads(tab.evaluate("() => localStorage.getItem('bb.battle.v1')"))["battle"]  # type: ignore[no-any-return]


def casualties(tab: Tab, unit_name: str) -> dict[str, int]:
    """The killed / wounded / fit numbers the stacked bar of a unit shows."""
    return tab.evaluate(  # type: ignore[no-any-return]
        """(name) => {
          const item = [...document.querySelectorAll("#casualty-bars .bar-item")].find(
            (bar) => bar.querySelector(".bar-name")?.textContent.trim() === name);
          const number = (key) => Number(item.querySelector(`[data-bind="${key}"] b`).textContent);
          return { killed: number("killed"), wounded: number("wounded"), fit: number("fit") };
        }""",
        unit_name,
    )
