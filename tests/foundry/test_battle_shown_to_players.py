"""Players learn a battle's name only once it starts: a battle a GM picks while it is in set-up
stays in the GM's browser (a client setting, kept across a reload); players go on following the
world's battle, and follow the new one without a click when the GM starts it. World settings
reach every client (ClientSettings, scope "world"), so no world setting a player's Foundry
holds names the battle in set-up, or its hash. Real module files on the stand-in page, the
real bridge, Chromium; GMs and a player in browser contexts of their own, on one stand-in
Foundry server."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from bridge_gm import BridgeGM, started_battle
from foundry_steps import Open, connected, create_battle, new_unit, remote_player
from playwright.sync_api import Browser, Locator, Page, WebSocketRoute, expect

pytestmark = pytest.mark.timeout(180)

APP = "game.modules.get('background-battle').api.app"
SECRET = "secret-raid"
AMBUSH = {"dwarves": ("allies", 3, 30, []), "orcs": ("enemies", 10, 60, [])}


def key_of(page: Page, battle: str) -> str:
    """The battle's key in the world's record of carded steps (a hash of its name)."""
    return str(
        page.evaluate(
            "b => import('/foundry-module/scripts/logic/card-steps.mjs').then(m => m.battleKey(b))",
            battle,
        )
    )


def fnv1a(battle: str) -> str:
    """battleKey (logic/card-steps.mjs) in Python: FNV-1a, 32 bits, over the code points."""
    value = 0x811C9DC5
    for char in battle:
        value = ((value ^ ord(char)) * 0x01000193) & 0xFFFFFFFF
    return f"b{value:08x}"


def prepare(page: Page, panel: Locator, battle: str = SECRET) -> None:
    """Creates `battle` from the panel and gives it two units (versions 1 and 2)."""
    create_battle(panel, battle)
    new_unit(page, panel, ["tok1", "tok2"], name="Dwarves", side="allies", strength=20)
    new_unit(page, panel, ["tok3", "tok4"], name="Wolves", side="enemies", strength=20)


def start(panel: Locator) -> None:
    panel.locator("[data-action=start]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")


def shows(panel: Locator, battle: str) -> None:
    expect(panel.locator("[name=battle]")).to_have_value(battle)


def own_battle(page: Page) -> Any:
    return page.evaluate("game.settings.get('background-battle', 'preparedBattle')")


def card_holds(page: Page, battle: str, version: int, kind: str = "setup") -> None:
    """Waits until a card of this page's chat (of `kind`) holds the battle's `version`."""
    page.wait_for_function(
        """([battle, version, kind]) => game.messages.contents.some(m => {
             const about = m.getFlag('background-battle', 'about');
             return about?.battle === battle && about.kind === kind && about.version === version;
           })""",
        arg=[battle, version, kind],
    )


class Lag:
    """A browser's connections to the bridge through Playwright's `route_web_socket`, as on a
    slow line: while held, what the bridge sends waits, in order, until `release()`; what the
    page sends goes at once. Foundry's server (another socket) is not slowed."""

    def __init__(self) -> None:
        self.held: list[tuple[WebSocketRoute, str | bytes]] | None = None

    def __call__(self, route: WebSocketRoute) -> None:
        server = route.connect_to_server()  # the page's messages go on as they are

        def to_page(message: str | bytes) -> None:
            if self.held is None:
                route.send(message)
            else:
                self.held.append((route, message))

        server.on_message(to_page)

    def hold(self) -> None:
        self.held = []

    def release(self) -> None:
        held, self.held = self.held or [], None
        for route, message in held:
            route.send(message)


def bridge_socket(bridge: Any) -> re.Pattern[str]:
    return re.compile(rf"^ws://127\.0\.0\.1:{bridge.port}/")


def world_battle(page: Page) -> Any:
    return page.evaluate("game.settings.get('background-battle', 'battle')")


def test_a_battle_in_set_up_reaches_players_once_it_starts(
    browser: Browser, page: Page, open_foundry: Open, gm: BridgeGM, foundry_server: Any
) -> None:
    started_battle(gm, "ambush", AMBUSH)
    panel = open_foundry(page, server=foundry_server.url)
    connected(panel)
    panel.locator("[name=battle]").select_option("ambush")  # started: the world's at once
    player_page = browser.new_context().new_page()
    player = remote_player(open_foundry, player_page, foundry_server.url, battle=None)
    shows(player, "ambush")

    prepare(page, panel)
    shows(panel, SECRET)
    expect(panel.locator(".bb-players-see")).to_have_text(
        "Players still see ambush: they follow this battle once it starts."
    )
    card_holds(page, SECRET, 2)  # the active GM has carded the set-up steps
    assert own_battle(page) == SECRET

    # every world setting the player's Foundry holds, and the world's server itself
    hash_ = key_of(page, SECRET)
    for held in (player_page.evaluate("StandIn.settingsHeld()"), foundry_server.settings):
        text = json.dumps(held)
        assert SECRET not in text and hash_ not in text, text
    assert foundry_server.settings["background-battle.battle"] == "ambush"
    # the player's panel: still the previous battle, and no word of the one in set-up
    shows(player, "ambush")
    expect(player.locator("[name=battle] option")).to_have_count(2)  # "—" and ambush
    assert SECRET not in player.inner_text()
    visible = page.evaluate(
        "() => game.messages.contents.filter(m => m.visibleTo(game.users.get('player1')))"
        ".map(m => m.content + JSON.stringify(m.flags ?? {}))"
    )
    assert not [card for card in visible if SECRET in card], visible

    # the GM starts it: every player follows it, without a click
    start(panel)
    shows(player, SECRET)
    expect(player.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    expect(player.locator(".bb-unit", has_text="Wolves")).to_be_visible()
    expect(panel.locator(".bb-players-see")).to_have_count(0)
    assert foundry_server.settings["background-battle.battle"] == SECRET
    assert own_battle(page) == ""
    player_page.context.close()


def test_a_reload_keeps_the_gms_battle_and_a_second_gm_shows_the_worlds(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, foundry_server: Any
) -> None:
    panel = open_foundry(page, server=foundry_server.url)
    connected(panel)
    prepare(page, panel)
    # the GM reloads while preparing: the battle is still theirs, and still not the players'
    page.goto("about:blank")
    panel = open_foundry(page, server=foundry_server.url)
    shows(panel, SECRET)
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "setup")
    expect(panel.locator(".bb-players-see")).to_have_text(
        "Players see no battle yet: they follow this one once it starts."
    )
    assert "background-battle.battle" not in foundry_server.settings

    # a second GM (not the active one) sees the battle in the list, shows what the world shows
    second = browser.new_context().new_page()
    other = open_foundry(second, user="gm2", server=foundry_server.url)
    connected(other)
    shows(other, "")
    expect(other.locator("[name=battle] option", has_text=SECRET)).to_have_count(1)
    player_page = browser.new_context().new_page()
    player = remote_player(open_foundry, player_page, foundry_server.url, battle=None)
    connected(player)
    shows(player, "")

    # the second GM prepares a battle of its own and starts it: its browser shows it to all,
    # while the first GM stays on the battle they prepare
    prepare(second, other, "siege")
    start(other)
    shows(player, "siege")
    shows(other, "siege")
    shows(panel, SECRET)
    expect(panel.locator(".bb-players-see")).to_contain_text("siege")
    # the active GM's browser still cards the battle the players follow
    card_holds(page, "siege", 3, kind="step")

    # the first GM starts theirs: everyone follows it
    start(panel)
    for everyone in (player, other, panel):
        shows(everyone, SECRET)

    # the start undone: the active GM takes it off the world, both GMs keep looking at it
    panel.locator("[data-action=undo]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "setup")
    shows(player, "")
    for gm_panel in (other, panel):
        shows(gm_panel, SECRET)
        expect(gm_panel.locator(".bb-phase")).to_have_attribute("data-status", "setup")
    assert foundry_server.settings["background-battle.battle"] == ""
    # nor is it in the world's record of carded steps any more
    records = "background-battle.cardedSteps"
    page.wait_for_function(
        "k => !(k in game.settings.get('background-battle', 'cardedSteps'))",
        arg=key_of(page, SECRET),
    )
    assert key_of(page, SECRET) not in foundry_server.settings[records]
    assert key_of(page, "siege") in foundry_server.settings[records]
    # started again: the players follow it again
    start(panel)
    shows(player, SECRET)
    expect(player.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    second.context.close()
    player_page.context.close()


def test_set_up_cards_go_on_from_the_gms_card_when_the_browser_forgot(
    page: Page, open_foundry: Open, gm: BridgeGM
) -> None:
    panel = open_foundry(page)
    connected(panel)
    prepare(page, panel)
    card_holds(page, SECRET, 2)
    marks = "game.settings.get('background-battle', 'cardedSteps')"
    assert page.evaluate(f"Object.keys({marks}).length") == 0  # nothing in the world's record
    # the browser forgets what it carded (as a reload does); another GM adds a unit meanwhile
    page.evaluate(f"{APP}.cards.marks.clear()")
    gm.command(SECRET, type="add_unit", name="Bats", side="enemies", fighters=3, strength=6)
    card_holds(page, SECRET, 3)  # the one card of set-up steps, one more line
    lines = page.evaluate(
        """b => game.messages.contents
             .filter(m => m.getFlag('background-battle', 'about')?.battle === b)
             .map(m => m.getFlag('background-battle', 'lines'))""",
        SECRET,
    )
    assert len(lines) == 1 and len(lines[0]) == 3, lines
    assert "Bats" in lines[0][2]


def test_an_earlier_versions_world_naming_a_battle_in_set_up_is_cleaned(
    page: Page, open_foundry: Open, gm: BridgeGM, foundry_server: Any
) -> None:
    gm.request("command", battle=SECRET, command={"type": "create_battle"})
    # an earlier version wrote the GM's choice of a battle in set-up into the world, and its
    # hash into the record of carded steps
    hash_ = fnv1a(SECRET)
    foundry_server.settings["background-battle.battle"] = SECRET
    foundry_server.settings["background-battle.cardedSteps"] = {hash_: 0, "b12345678": 7}
    panel = open_foundry(page, server=foundry_server.url)
    connected(panel)
    assert key_of(page, SECRET) == hash_
    # the active GM's browser takes it off the world and keeps looking at it
    shows(panel, SECRET)
    expect(panel.locator(".bb-players-see")).to_have_text(
        "Players see no battle yet: they follow this one once it starts."
    )
    page.wait_for_function(
        "() => !game.settings.get('background-battle', 'battle')"
        " && !Object.keys(game.settings.get('background-battle', 'cardedSteps')).includes("
        f"{json.dumps(hash_)})"
    )
    assert foundry_server.settings["background-battle.battle"] == ""
    assert foundry_server.settings["background-battle.cardedSteps"] == {"b12345678": 7}
    assert own_battle(page) == SECRET


def test_a_battle_just_started_stays_the_worlds_while_the_active_gms_bridge_lags(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, foundry_server: Any
) -> None:
    # Foundry's server brings the world's battle another GM's browser wrote before the active
    # GM's bridge connection says that battle has started
    lag = Lag()
    page.context.route_web_socket(bridge_socket(bridge), lag)
    panel = open_foundry(page, server=foundry_server.url)
    connected(panel)
    prepare(page, panel)  # the active GM prepares a battle of their own
    second = browser.new_context().new_page()
    other = open_foundry(second, user="gm2", server=foundry_server.url)
    connected(other)
    prepare(second, other, "siege")
    expect(panel.locator("[name=battle] option", has_text="siege (Setting up)")).to_have_count(1)
    lag.hold()
    start(other)
    page.wait_for_function("() => game.settings.get('background-battle', 'battle') === 'siege'")
    lag.release()
    page.wait_for_function(
        f"""() => {APP}.client.battles.find(b => b.name === 'siege')?.status === 'fighting'
                 && !{APP}.choice.running"""
    )
    # the active GM's browser took nothing off the world: the players follow the battle
    assert foundry_server.settings["background-battle.battle"] == "siege"
    written = page.evaluate("StandIn.record.settingsSet.map(s => s.key)")
    assert "background-battle.battle" not in written, written
    shows(other, "siege")
    shows(panel, SECRET)
    second.context.close()


def test_a_gm_keeps_looking_at_the_battle_taken_off_the_world_before_their_bridge_said_why(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, foundry_server: Any
) -> None:
    panel = open_foundry(page, server=foundry_server.url)
    connected(panel)
    prepare(page, panel)
    start(panel)
    # a second GM, whose bridge connection is slower than Foundry's server
    lag = Lag()
    context = browser.new_context()
    context.route_web_socket(bridge_socket(bridge), lag)
    second = context.new_page()
    other = open_foundry(second, user="gm2", server=foundry_server.url)
    connected(other)
    shows(other, SECRET)
    expect(other.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    lag.hold()
    # the start undone: the active GM's browser takes the battle off the world at once
    panel.locator("[data-action=undo]").click()
    second.wait_for_function("() => !game.settings.get('background-battle', 'battle')")
    lag.release()
    # the second GM keeps looking at it, back in set-up
    shows(other, SECRET)
    expect(other.locator(".bb-phase")).to_have_attribute("data-status", "setup")
    assert world_battle(second) == ""
    context.close()
