"""Access and a clean console: axe-core finds no serious problem, the tabs follow the ARIA pattern.

axe-core is pinned in web/package.json (devDependencies, installed by `npm ci`); the test injects
it into the page, nothing of it ships in web/dist.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import ROOT
from gm import dwarves_against_orcs
from live_pages import (
    GM_TOKEN,
    PLAYER_TOKEN,
    Bridge,
    one_battle_fighting,
    open_live,
    wait_version,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect
from static_server import StaticServer

AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
LOOKS = [(lang, scheme) for lang in ("en", "ru") for scheme in ("light", "dark")]


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    if not AXE.is_file():
        pytest.fail("web/node_modules/axe-core is missing: run `make site` (npm ci)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['impact']} {v['id']} at {node['target']}: {node.get('failureSummary', '')}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
        for node in v["nodes"]
    ]


def look(page: Page, lang: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.get_by_role("button", name=lang.upper(), exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def check_every_look(page: Page) -> None:
    found = {}
    for lang, scheme in LOOKS:
        look(page, lang, scheme)
        found[f"{lang} {scheme}"] = serious_violations(page)
    problems = [f"{name}: {line}" for name, lines in found.items() for line in lines]
    assert problems == [], "\n".join(problems)


def test_axe_finds_no_serious_problem_on_the_local_page(page: Page) -> None:
    dwarves_against_orcs(page)
    check_every_look(page)
    # the other tabs too
    for tab in ("Casualties only", "Rules"):
        look(page, "en", "light")
        page.get_by_role("tab", name=tab).click()
        check_every_look(page)


def test_axe_finds_no_serious_problem_on_the_live_pages(
    bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    one_battle_fighting(bridge)  # a player is told of a battle once the GM has started it
    gm = open_live(contexts[0], f"{bridge.url}#token={GM_TOKEN}")
    player = open_live(contexts[1], f"{bridge.url}#token={PLAYER_TOKEN}")
    for page in (gm, player):
        page.wait_for_selector('html[data-live-battle="ambush"]')
        wait_version(page, 3)
    expect(gm.locator("#live-join svg.qr")).to_be_visible()
    check_every_look(gm)
    check_every_look(player)


def test_the_tabs_follow_the_aria_tabs_pattern(page: Page) -> None:
    tabs = page.get_by_role("tab")
    names = ["Battle", "Casualties only", "Rules"]
    expect(tabs).to_have_text(names)
    panels = ["battle", "quick", "rules"]
    expect(page.get_by_role("tablist")).to_have_count(1)

    def selected(at: int) -> None:
        for i in range(len(names)):
            expect(tabs.nth(i)).to_have_attribute("aria-selected", str(i == at).lower())
            # only the selected tab is in the Tab order
            expect(tabs.nth(i)).to_have_attribute("tabindex", "0" if i == at else "-1")
        expect(tabs.nth(at)).to_be_focused()
        expect(page.get_by_role("tabpanel")).to_have_attribute("id", panels[at])

    tabs.nth(0).focus()
    page.keyboard.press("ArrowRight")
    selected(1)
    page.keyboard.press("ArrowRight")
    selected(2)
    expect(page.locator("#rules")).to_contain_text("SL")  # shown by the keyboard, filled too
    page.keyboard.press("ArrowRight")  # wraps round
    selected(0)
    page.keyboard.press("ArrowLeft")
    selected(2)
    page.keyboard.press("Home")
    selected(0)
    page.keyboard.press("End")
    selected(2)


def test_a_static_host_gives_a_clean_console(browser: Browser, server: StaticServer) -> None:
    """No 404 (bridge.json answers "no bridge"), no error, no warning of the page's own."""
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        failed: list[str] = []
        console: list[str] = []
        page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
        page.on("console", lambda m: m.type in ("error", "warning") and console.append(m.text))
        page.goto(server.url)
        page.wait_for_selector('html[data-ready="true"]', timeout=120_000)
        dwarves_against_orcs(page)
        page.reload()
        page.wait_for_selector('html[data-ready="true"]', timeout=120_000)
        expect(page.locator("#live-panel")).to_be_hidden()
        assert failed == []
        assert console == []
    finally:
        context.close()
