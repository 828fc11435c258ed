"""Remote players: a player's browser with no route to the bridge follows the battle's player
view through the active GM's browser, over Foundry's module socket (relay.mjs). Two browser
contexts share the stand-in's Foundry server (tests/support/foundry_server.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from bridge_gm import BridgeGM, started_battle
from foundry_steps import GENERATIONS, remote_player
from playwright.sync_api import Browser, Locator, Page, expect

pytestmark = pytest.mark.timeout(180)

Open = Callable[..., Locator]
APP = 'game.modules.get("background-battle").api.app'


def fight(gm: BridgeGM, battle: str = "ambush") -> None:
    started_battle(gm, battle, {"dwarves": ("allies", 4, 40, []), "orcs": ("enemies", 10, 60, [])})


@pytest.mark.parametrize("generation", GENERATIONS)
@pytest.mark.parametrize("world", ["holds the address and token", "holds nothing for players"])
def test_a_remote_player_follows_the_player_view_through_the_gm(
    browser: Browser,
    page: Page,
    open_foundry: Open,
    bridge: Any,
    gm: BridgeGM,
    foundry_server: Any,
    world: str,
    generation: int,
) -> None:
    fight(gm)
    if world == "holds the address and token":
        # world settings every client reads, as in Foundry; the player's computer cannot reach
        # the GM's 127.0.0.1 all the same
        foundry_server.settings.update(
            {
                "background-battle.bridgeUrl": bridge.url,
                "background-battle.playerToken": bridge.player_token,
            }
        )
    panel = open_foundry(page, battle="ambush", server=foundry_server.url)
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (GM)")

    context = browser.new_context()
    context.route_web_socket(
        re.compile(rf"^ws://127\.0\.0\.1:{bridge.port}/"), lambda ws: ws.close()
    )
    player_page = context.new_page()
    opened: list[str] = []
    player_page.on("websocket", lambda ws: opened.append(ws.url))
    player = remote_player(open_foundry, player_page, foundry_server.url)
    expect(player.locator(".bb-status-text")).to_have_text("Connected (player)")
    orcs = player.locator(".bb-unit", has_text="Orcs")
    expect(orcs.locator(".bb-unit-figures")).to_contain_text("Fighters ?")
    expect(player.locator(".bb-side.bb-enemies .bb-strength")).to_contain_text("?")
    expect(player.locator(".bb-phase")).to_have_attribute("data-round", "0")

    # the GM plays a round: the player's panel follows
    gm.command("ambush", type="resolve_round", mode="rolls", rolls={"allies": 50, "enemies": 50})
    expect(player.locator(".bb-phase")).to_have_attribute("data-round", "1")

    # the GM shows another battle (a world setting: its onChange runs in every browser)
    fight(gm, "siege")
    panel.locator("[name=battle]").select_option("siege")
    expect(player.locator("[name=battle]")).to_have_value("siege")
    expect(player.locator(".bb-unit", has_text="Orcs")).to_be_visible()

    # what reached the player: only the player view, never the GM's, never Foundry data
    frames = [
        m["args"][0]["frame"]
        for m in player_page.evaluate("structuredClone(StandIn.record.socket.received)")
        if m["args"][0].get("kind") == "frame"
    ]
    states = [f for f in frames if f["type"] in ("state", "event")]
    assert states
    for frame in states:
        assert "foundry" not in frame
        enemies = [u for u in frame["view"]["units"] if u["side"] == "enemies"]
        assert all(u["fighters"] is None for u in enemies), enemies
    assert next(f for f in frames if f["type"] == "welcome")["role"] == "player"
    # the player's browser opened no connection to the bridge: only to Foundry's server
    assert opened and all(url.startswith(foundry_server.url) for url in opened), opened
    # and a player cannot change the battle through the GM's browser
    refused = player_page.evaluate(
        """async () => {
             const app = game.modules.get("background-battle").api.app;
             try { await app.client.command("siege", {type: "start"}); }
             catch (e) { return e.code; }
             return "accepted";
           }"""
    )
    assert refused == "forbidden"

    # the GM leaves: the player's panel says it is no longer connected; the GM comes back: it
    # follows again at once
    page.close()
    expect(player.locator(".bb-status")).not_to_have_attribute("data-state", "open")
    back = open_foundry(browser.new_context().new_page(), battle="siege", server=foundry_server.url)
    expect(back.locator(".bb-status-text")).to_have_text("Connected (GM)")
    expect(player.locator(".bb-status-text")).to_have_text("Connected (player)", timeout=3000)
    expect(player.locator(".bb-unit", has_text="Orcs")).to_be_visible()
    assert [n for n in player_page.evaluate("StandIn.record.notices")] == []
    context.close()


def test_the_module_socket_is_as_strict_as_foundrys(
    browser: Browser, page: Page, open_foundry: Any, bridge: Any, foundry_server: Any
) -> None:
    open_foundry(page, panel=False, server=foundry_server.url)
    other = browser.new_context().new_page()
    open_foundry(other, user="gm2", panel=False, server=foundry_server.url)
    refusals = page.evaluate(
        """() => {
             const tries = [
               () => game.socket.emit("module.other-module", {kind: "x"}),
               () => game.socket.emit("background-battle", {kind: "x"}),
               () => game.socket.emit("module.background-battle", {kind: "x", at: new Date()}),
               () => game.socket.emit("module.background-battle", {kind: "x", gone: undefined}),
               () => game.socket.emit("module.background-battle", {kind: "x", n: NaN}),
             ];
             const attempt = (t) => { try { t(); return "sent"; } catch (e) { return "refused"; } };
             return tries.map(attempt);
           }"""
    )
    assert refusals == ["refused"] * 5
    open_foundry.errors.clear()  # refused on purpose
    page.evaluate("game.socket.emit('module.background-battle', {kind: 'hello-there', n: 1})")
    # (the GMs' browsers also say on the socket whether they hold the GM token: applier.mjs)
    mine = "StandIn.record.socket.received.filter(m => m.args[0].kind === 'hello-there')"
    other.wait_for_function(f"{mine}.length === 1")
    got = other.evaluate(mine)
    assert got == [{"event": "module.background-battle", "args": [{"kind": "hello-there", "n": 1}]}]
    assert page.evaluate(mine) == []  # never back to the sender
    other.context.close()


def test_a_player_who_leaves_takes_the_relayed_session_along(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, gm: BridgeGM, foundry_server: Any
) -> None:
    fight(gm)
    to_bridge: list[Any] = []
    page.on("websocket", lambda ws: to_bridge.append(ws) if str(bridge.port) in ws.url else None)
    panel = open_foundry(page, battle="ambush", server=foundry_server.url)
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (GM)")
    context = browser.new_context()
    player = open_foundry(
        context.new_page(), user="player1", gm_token=None, player_token=None, url="",
        battle="ambush", server=foundry_server.url,
    )  # fmt: skip
    expect(player.locator(".bb-status-text")).to_have_text("Connected (player)")
    # the players' eye watches for this browser and for the relayed player
    owners = f"[...{APP}.eye.wanted.keys()].length"
    assert page.evaluate(owners) == 2
    # the GM's own and the players' eye (public chat cards and the relay, player-eye.mjs)
    assert len(to_bridge) == 2
    context.close()
    # the player's session ends with them; the eye goes on for this browser's cards
    page.wait_for_function(f"{owners} === 1", timeout=20_000)
    assert page.evaluate(f"[...{APP}.eye.wanted.keys()]") == ["browser"]
    assert not any(ws.is_closed() for ws in to_bridge)
    assert len(to_bridge) == 2


@pytest.mark.parametrize("generation", GENERATIONS)
def test_each_battle_event_crosses_the_socket_once_for_every_player_and_a_late_joiner(
    browser: Browser,
    page: Page,
    open_foundry: Open,
    bridge: Any,
    gm: BridgeGM,
    foundry_server: Any,
    generation: int,
) -> None:
    fight(gm)
    to_bridge: list[Any] = []
    page.on("websocket", lambda ws: to_bridge.append(ws) if str(bridge.port) in ws.url else None)
    panel = open_foundry(page, battle="ambush", server=foundry_server.url)
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (GM)")
    first = remote_player(open_foundry, browser.new_context().new_page(), foundry_server.url)
    expect(first.locator(".bb-status-text")).to_have_text("Connected (player)")
    gm.command("ambush", type="resolve_round", mode="rolls", rolls={"allies": 50, "enemies": 50})
    expect(first.locator(".bb-phase")).to_have_attribute("data-round", "1")

    # a second player comes later: the battle as it is now, then the rounds as they come
    late = remote_player(
        open_foundry, browser.new_context().new_page(), foundry_server.url, user="player2"
    )
    expect(late.locator(".bb-status-text")).to_have_text("Connected (player)")
    expect(late.locator(".bb-phase")).to_have_attribute("data-round", "1")
    expect(late.locator(".bb-side.bb-enemies .bb-strength")).to_contain_text("?")
    page.evaluate("StandIn.record.socket.sent.length = 0")
    gm.command("ambush", type="resolve_round", mode="rolls", rolls={"allies": 60, "enemies": 40})
    for player in (first, late):
        expect(player.locator(".bb-phase")).to_have_attribute("data-round", "2")

    # the round crossed Foundry's socket once, to every player, whatever their number
    sent = [m["args"][0] for m in page.evaluate("structuredClone(StandIn.record.socket.sent)")]
    events = [m for m in sent if m.get("kind") == "frame" and m["frame"]["type"] == "event"]
    assert len(events) == 1, sent
    assert events[0]["to"] == "*"
    assert all(u["fighters"] is None for u in events[0]["frame"]["view"]["units"][1:]), events
    # both players through the players' eye, beside the GM's own: no other connection
    assert len(to_bridge) == 2, [ws.url for ws in to_bridge]


def test_a_refused_player_token_reaches_the_relayed_players_as_the_bridge_said_it(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, gm: BridgeGM, foundry_server: Any
) -> None:
    fight(gm)
    panel = open_foundry(
        page, battle="ambush", player_token="not-the-player-token-0123456789",
        server=foundry_server.url,
    )  # fmt: skip
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (GM)")
    eye_state = f"{APP}.eye.client.status.state"
    page.wait_for_function(f"{eye_state} === 'failed'")
    player = remote_player(open_foundry, browser.new_context().new_page(), foundry_server.url)
    # the player's client read the bridge's own refusal: it stops trying, as with the bridge
    expect(player.locator(".bb-status")).to_have_attribute("data-state", "failed")
    expect(player.locator(".bb-status-text")).to_have_text("Token refused")
