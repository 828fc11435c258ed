"""A player's page says each number one way: its card, its log and its side cards agree.

The page's own card (web/result.js) runs only in a browser, so a fixed battle is played here
through the real bridge while a player's page follows it (the words of the log and of the
Foundry cards are checked over many battles in Node: test_cards_show_what_the_view_shows.py).
The enemies' strength is hidden (the default): the allies' loss and the PCs' win's damage, which
the allies' strength before and after give, read as numbers everywhere; the orcs' stay "?".
"""

from __future__ import annotations

from gm import side_card
from live_pages import PLAYER_TOKEN, Bridge, one_battle_fighting, open_live, wait_live, wait_version
from playwright.sync_api import BrowserContext, expect


def test_a_players_card_and_log_show_the_loss_and_damage_the_strengths_give(
    bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    one_battle_fighting(bridge)
    player = open_live(contexts[0], f"{bridge.url}#token={PLAYER_TOKEN}")
    wait_live(player)
    player.wait_for_selector('html[data-live-battle="ambush"]')
    wait_version(player, 3)
    allies = side_card(player, "allies").locator('[data-bind="strength"]')
    expect(allies).to_have_text("30")

    lost = {"type": "resolve_round", "mode": "lost", "lost": {"allies": 4, "enemies": 6}}
    assert bridge.command("ambush", lost)["type"] == "ack"
    wait_version(player, 4)
    card = player.locator(".result-card:visible")
    expect(card).to_contain_text("Allies lose 4")  # 30 → 26, both shown
    expect(player.locator("#log")).to_contain_text("lost Allies 4 · Enemies ?;")
    expect(allies).to_have_text("26")

    # the orcs (20, hidden) fight on at half and deal 5: the allies' 26 → 21 shows the 5
    assert bridge.command("ambush", {"type": "pcs_won", "fleeing": "1/2"})["type"] == "ack"
    wait_version(player, 5)
    words = "1/2 of the enemies flee; ? fight on and deal 5; allies left with 21"
    expect(card).to_contain_text(words)
    expect(player.locator("#log")).to_contain_text(words)
    expect(allies).to_have_text("21")
    assert "null" not in player.locator("body").inner_text()
    assert player.page_errors == []  # type: ignore[attr-defined]
