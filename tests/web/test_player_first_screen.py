"""A player's phone in live mode (the real bridge, a GM's and a player's browser context): the
first screen is the battle as players may see it: the last step's result card with no hidden
number, both sides' visible strength and the chart; the connection folded into one line."""

from __future__ import annotations

from gm import click_and_wait, side_card
from live_pages import (
    GM_TOKEN,
    LIVE_TIMEOUT_MS,
    PLAYER_TOKEN,
    Bridge,
    one_battle_fighting,
    open_live,
    wait_version,
)
from phone import in_first_screen, tall_phone_context, top_in_view
from playwright.sync_api import Browser, BrowserContext, Page, expect


def gm_round(gm: Page, allies: int, enemies: int) -> None:
    form = gm.locator("#round-form")
    form.get_by_label("Rolls typed in").check()
    form.locator('input[name="rolls.allies"]').fill(str(allies))
    form.locator('input[name="rolls.enemies"]').fill(str(enemies))
    click_and_wait(gm, form.get_by_role("button", name="Resolve the round"))


def test_a_players_first_screen_is_the_last_steps_card_the_strengths_and_the_chart(
    bridge: Bridge, contexts: list[BrowserContext], browser: Browser
) -> None:
    one_battle_fighting(bridge)
    gm = open_live(contexts[0], f"{bridge.url}#token={GM_TOKEN}")
    gm.wait_for_selector('html[data-live-battle="ambush"]')
    wait_version(gm, 3)
    leader = gm.locator("#leader-form")
    leader.get_by_label("Enemies").check()
    leader.get_by_label("SL", exact=True).fill("7")
    click_and_wait(gm, leader.get_by_role("button", name="Give the command"))
    # Allies 30 roll 40: SL -1; enemies 26 + 6 = 32 roll 73: SL -4; the enemies lose 3 (to 23).
    gm_round(gm, 40, 73)

    phone = tall_phone_context(browser, LIVE_TIMEOUT_MS)
    try:
        player = open_live(phone, f"{bridge.url}#token={PLAYER_TOKEN}")
        player.wait_for_selector('html[data-live-battle="ambush"][data-live-role="player"]')
        wait_version(player, 5)
        card = player.locator("#start-result[role='status']")
        expect(card.locator(".result-line").first).to_have_text("Round 1: the allies win")
        expect(card).to_contain_text("SL: Allies −1 · Enemies ?")
        text = card.inner_text()
        for hidden in ("73", "32", "−4", "23", "null"):
            assert hidden not in text, (hidden, text)
        assert player.evaluate("scrollY") == 0
        top_in_view(player, card, "the player's card")
        in_first_screen(player, card.locator(".result-line").first, "the card's first line")
        for side, shown in (("allies", "30"), ("enemies", "?")):
            strength = side_card(player, side).locator('[data-bind="strength"]')
            expect(strength).to_have_text(shown)
            in_first_screen(player, strength, f"the {side}' strength")
        chart = player.locator("#strength-chart svg")
        expect(chart).to_be_visible()
        expect(chart.locator("polyline.allies")).to_have_count(1)
        expect(chart.locator("polyline.enemies")).to_have_count(0)  # hidden: not drawn as 0
        top_in_view(player, chart, "the chart")
        # The connection: one line (its status and a fold), the rest a tap away.
        expect(player.locator("#live-status")).to_have_text("Live: following the bridge.")
        panel = player.locator("#live-panel").bounding_box()
        assert panel is not None and panel["height"] <= 64, panel
        expect(player.locator("#live-pick-form")).to_be_hidden()
        player.locator("#live-more summary").click()
        expect(player.locator("#live-pick-form")).to_be_visible()

        # The GM plays on: the player's card follows without a reload.
        gm_round(gm, 10, 90)
        wait_version(player, 6)
        expect(card.locator(".result-line").first).to_have_text("Round 2: the allies win")
        assert player.page_errors == []  # type: ignore[attr-defined]
    finally:
        phone.close()
