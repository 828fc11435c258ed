"""A GM's Foundry browser holds one bridge connection per role: its own (the GM token) and the
players' eye (the player token, player-eye.mjs), from which both the public cards and the relay
to players who cannot reach the bridge are fed. Counted at the bridge, in its own registry of
connections (tests/support/bridge_thread.py), also after the bridge went away and came back."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from bridge_gm import BridgeGM, started_battle
from bridge_thread import BridgeThread
from foundry_steps import remote_player
from playwright.sync_api import Browser, Locator, Page, expect

from background_battle_bridge.guard import Tokens

pytestmark = pytest.mark.timeout(180)

Open = Callable[..., Locator]
ONE_EACH = Counter({"gm": 1, "player": 1})


@pytest.fixture
def counted(tmp_path: Path, site: str, bridge: Any) -> Iterator[BridgeThread]:
    """The bridge in this process (the stand-in's origin allowed, the tests' tokens)."""
    tokens = Tokens(bridge.gm_token, bridge.player_token)
    running = BridgeThread(tmp_path / "counted", tokens, origins=frozenset({site}))
    running.start()
    yield running
    running.stop()


def play_round(counted: BridgeThread, rolls: dict[str, int]) -> None:
    gm = BridgeGM(counted.url, counted.tokens.gm)
    try:
        gm.command("ambush", type="resolve_round", mode="rolls", rolls=rolls)
    finally:
        gm.close()


def ambush_started(counted: BridgeThread) -> None:
    """The dwarves (allies, 4 fighters, 40) against the orcs (10, 60), started by a GM."""
    gm = BridgeGM(counted.url, counted.tokens.gm)
    units = {"dwarves": ("allies", 4, 40, []), "orcs": ("enemies", 10, 60, [])}
    started_battle(gm, "ambush", units)
    gm.close()


def test_a_gm_browser_relaying_to_players_holds_one_connection_per_role(
    browser: Browser, page: Page, open_foundry: Open, counted: BridgeThread, foundry_server: Any
) -> None:
    ambush_started(counted)
    panel = open_foundry(page, battle="ambush", url=counted.url, server=foundry_server.url)
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (GM)")
    first = remote_player(open_foundry, browser.new_context().new_page(), foundry_server.url)
    second = remote_player(
        open_foundry, browser.new_context().new_page(), foundry_server.url, user="player2"
    )
    for player in (first, second):
        expect(player.locator(".bb-status-text")).to_have_text("Connected (player)")
    play_round(counted, {"allies": 50, "enemies": 50})
    for player in (first, second):
        expect(player.locator(".bb-phase")).to_have_attribute("data-round", "1")
    assert counted.connections() == ONE_EACH
    assert counted.joined == ONE_EACH

    # the bridge goes away and comes back: each connection comes back once, the players with it
    counted.restart()
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (GM)", timeout=30_000)
    for player in (first, second):
        expect(player.locator(".bb-status-text")).to_have_text("Connected (player)", timeout=30_000)
    play_round(counted, {"allies": 60, "enemies": 40})
    expect(first.locator(".bb-phase")).to_have_attribute("data-round", "2")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "2")
    expect(second.locator(".bb-phase")).to_have_attribute("data-round", "2")
    assert counted.connections() == ONE_EACH
    assert counted.joined == ONE_EACH
    # and the players saw only the player view on the way
    enemies = first.locator(".bb-side.bb-enemies .bb-strength")
    expect(enemies).to_contain_text("?")


def test_a_gm_on_the_player_token_relays_on_its_one_connection(
    browser: Browser, page: Page, open_foundry: Open, counted: BridgeThread, foundry_server: Any
) -> None:
    ambush_started(counted)
    panel = open_foundry(
        page, battle="ambush", url=counted.url, gm_token=counted.tokens.player,
        server=foundry_server.url,
    )  # fmt: skip
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (player)")
    player = remote_player(open_foundry, browser.new_context().new_page(), foundry_server.url)
    expect(player.locator(".bb-status-text")).to_have_text("Connected (player)")
    play_round(counted, {"allies": 50, "enemies": 50})
    expect(player.locator(".bb-phase")).to_have_attribute("data-round", "1")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")
    # its own connection is the player view: the players' eye and the relay use it
    assert counted.connections() == Counter({"player": 1})
    assert counted.joined == Counter({"player": 1})
