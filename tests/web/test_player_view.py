"""A player's page in live mode: nothing hidden leaks, no GM form, the one battle followed at once.

The real bridge serves the built page; a GM page and a player page, each in its own browser
context, follow the one battle the bridge holds (docs/web.md, "Live mode").
"""

from __future__ import annotations

import re

from gm import click_and_wait, side_card
from live_pages import (
    GM_TOKEN,
    PLAYER_TOKEN,
    Bridge,
    one_battle_fighting,
    open_live,
    wait_live,
    wait_version,
)
from playwright.sync_api import BrowserContext, Page, expect
from qr_reader import read_qr

GM_ONLY_CARDS = ("#round-panel", "#leader-panel", "#end-panel", "#adjust-panel", "#tools-panel")


def gm_plays(gm: Page) -> None:
    """The orcs' leader commands with 7 SL; a round with both rolls typed in (40 and 73)."""
    leader = gm.locator("#leader-form")
    leader.get_by_label("Enemies").check()
    leader.get_by_label("SL", exact=True).fill("7")
    click_and_wait(gm, leader.get_by_role("button", name="Give the command"))
    round_form = gm.locator("#round-form")
    round_form.get_by_label("Rolls typed in").check()
    round_form.locator('input[name="rolls.allies"]').fill("40")
    round_form.locator('input[name="rolls.enemies"]').fill("73")
    click_and_wait(gm, round_form.get_by_role("button", name="Resolve the round"))


def gm_and_player(bridge: Bridge, contexts: list[BrowserContext]) -> tuple[Page, Page]:
    """The GM's page plays a round of the one battle; then a player's page opens and follows it."""
    one_battle_fighting(bridge)
    gm = open_live(contexts[0], f"{bridge.url}#token={GM_TOKEN}")
    # The one battle there is: followed without a click.
    gm.wait_for_selector('html[data-live-battle="ambush"]')
    wait_version(gm, 3)
    gm_plays(gm)
    wait_version(gm, 5)
    player = open_live(contexts[1], f"{bridge.url}#token={PLAYER_TOKEN}")
    wait_live(player)
    player.wait_for_selector('html[data-live-battle="ambush"]')
    wait_version(player, 5)
    expect(player.locator("#log > li")).to_have_count(5)
    return gm, player


def test_a_player_sees_no_hidden_number_no_null_and_no_gm_form(
    bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    gm, player = gm_and_player(bridge, contexts)
    # The list of the bridge's battles shows the followed one as it is now.
    expect(gm.locator("#live-pick-form select option")).to_have_text(
        ["ambush · fighting · version 5"]
    )
    # ... and fits a phone (360 px): nothing cut off, no sideways scrolling.
    gm.set_viewport_size({"width": 360, "height": 800})
    box = gm.locator("#live-pick-form select").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert gm.evaluate("document.documentElement.scrollWidth") <= 360
    gm.set_viewport_size({"width": 412, "height": 900})
    gm_log = gm.locator("#log").inner_text()
    assert "Leader's command (Enemies): 7 SL → +6" in gm_log
    assert "Enemies 73" in gm_log

    # Nothing hidden leaks: no "null" anywhere; the enemies' test, bonus and strength read "?".
    assert "null" not in player.locator("body").inner_text()
    log = player.locator("#log").inner_text()
    # a hidden side's leader test: not even whether it passed (its SL would follow from that)
    assert "Leader's command (Enemies): ?" in log and "Enemies): ? SL" not in log
    assert re.search(r"SL Allies [+−]\d+ · Enemies \?;", log), log
    expect(side_card(player, "enemies").locator('[data-bind="strength"]')).to_have_text("?")
    expect(side_card(player, "enemies").locator(".unit-line")).to_contain_text(
        "? fighters · strength ?"
    )
    expect(side_card(player, "allies").locator(".unit-line")).to_contain_text(
        "10 fighters · strength 30"
    )

    # No GM form, and no card that would only show a GM form's heading.
    expect(player.locator("form[data-command]:visible")).to_have_count(0)
    for card in (*GM_ONLY_CARDS, "#odds-panel"):
        expect(player.locator(card)).to_be_hidden()
    for card in GM_ONLY_CARDS:
        expect(gm.locator(card)).to_be_visible()
    for page in (gm, player):
        assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_player_does_not_see_the_hidden_enemies_roll(
    bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    _, player = gm_and_player(bridge, contexts)
    log = player.locator("#log").inner_text()
    assert re.search(r"rolls Allies 40 · Enemies \?;", log), log
    assert "73" not in log


def drawn_modules(page: Page) -> list[list[bool]]:
    """The dark modules of the page's QR code (its SVG path), without the quiet zone."""
    svg = page.locator("#live-join svg.qr")
    size = int(svg.get_attribute("viewBox").split()[2])  # type: ignore[union-attr]
    path = svg.locator("path").get_attribute("d") or ""
    dark = {(int(x), int(y)) for x, y in re.findall(r"M(\d+),(\d+)h1v1h-1z", path)}
    quiet = 4
    inner = range(quiet, size - quiet)
    return [[(x, y) in dark for x in inner] for y in inner]


def test_the_gms_live_page_shows_the_player_link_as_a_qr_code(
    bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    gm, player = gm_and_player(bridge, contexts)
    link = f"{bridge.url}#token={PLAYER_TOKEN}"
    join = gm.locator("#live-join")
    expect(join).to_be_visible()
    expect(join.locator("a")).to_have_attribute("href", link)
    expect(join.locator("svg.qr")).to_have_attribute(
        "aria-label", f"QR code of the player link {link}"
    )
    # 127.0.0.1 opens this computer only: the page says what phones need.
    expect(join.locator(".join-loopback")).to_be_visible()
    # A phone reads the link back from the code on the screen.
    assert read_qr(drawn_modules(gm)) == [link]
    expect(player.locator("#live-join")).to_be_hidden()
    gm.get_by_role("button", name="RU").click()
    expect(join.locator("svg.qr")).to_have_attribute(
        "aria-label", f"QR-код ссылки для игроков {link}"
    )
