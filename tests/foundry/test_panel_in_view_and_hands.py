"""The GM's eyes and hands in a crowded panel (1280×800, Russian): every action's result in view
with 4 and 8 units, the focus going on to the next control, and a player's panel that says it
waits for a GM. Real module files on the stand-in page, the real bridge, Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from bridge_gm import BridgeGM, lost_battle, started_battle
from foundry_steps import Open, connected, create_battle, remote_player
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.timeout(180)

SCREEN = {"width": 1280, "height": 800}
APP = "game.modules.get('background-battle').api.app"


IN_VIEW = """el => {
  const box = el.getBoundingClientRect();
  const content = el.closest('.window-content')?.getBoundingClientRect();
  return Boolean(content) && box.height > 0 && box.top >= content.top - 1
    && box.bottom <= content.bottom + 1 && box.top >= 0 && box.bottom <= window.innerHeight
    && box.right <= window.innerWidth;
}"""


def in_view(locator: Locator) -> bool:
    """Wholly inside the panel's visible content (which scrolls) and inside the screen (within
    a pixel: scrolling goes by whole pixels, a box may end at 789.4 in a content ending at 789)."""
    return bool(locator.evaluate(IN_VIEW))


def result_in_view(page: Page) -> bool:
    """The result of the GM's action in view once the panel has settled: the one next to the
    control clicked, or the one on top when the control is there."""
    try:
        page.wait_for_function(
            f"""() => {{
                  const panel = document.querySelector('#background-battle-panel');
                  const shown = panel.querySelector('.bb-result-here')
                    ?? panel.querySelector('.bb-result');
                  return shown && ({IN_VIEW})(shown);
                }}""",
            timeout=5000,
        )
    except PlaywrightTimeout:
        return False
    return True


def crowded_fight(page: Page, open_foundry: Open, units: int) -> Locator:
    page.set_viewport_size(SCREEN)
    panel = open_foundry(page, lang="ru")
    connected(panel)
    create_battle(panel, "ambush")
    for i in range(units):
        side = "allies" if i % 2 == 0 else "enemies"
        order = {"type": "add_unit", "name": f"Отряд {i + 1}", "side": side, "fighters": 5 + i}
        assert page.evaluate(f"o => {APP}.command(o)", {**order, "strength": 20 + i})
    expect(panel.locator(".bb-unit")).to_have_count(units)
    # one more from the panel's form, down under the units: its line shows by the form, in view
    page.evaluate("ids => StandIn.select(ids)", ["tok1", "tok2"])
    panel.locator("[name=unitName]").fill("Стрелки")
    panel.locator("[name=unitStrength]").fill("12")
    panel.locator("[data-action=newUnit]").click()
    expect(panel.locator(".bb-result-here")).to_have_text(
        "Союзники: добавлен отряд «Стрелки» (2 бойца, ОС 12)"
    )
    assert result_in_view(page)
    page.wait_for_function(f"!{APP}.pending")
    panel.locator("[data-action=start]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    return panel


@pytest.mark.parametrize("units", [4, 8])
def test_every_actions_result_is_in_view(
    page: Page, open_foundry: Open, bridge: Any, units: int
) -> None:
    panel = crowded_fight(page, open_foundry, units)
    assert in_view(panel.locator(".bb-result"))
    content = panel.locator(".window-content")
    assert content.evaluate("el => el.scrollHeight > el.clientHeight")  # the panel scrolls

    def check(step: str) -> None:
        expect(panel.locator(".bb-result")).to_have_attribute("data-step", step)
        expect(panel.locator(".bb-result")).to_have_attribute("data-own", "1")
        assert result_in_view(page), step

    # a side's strength by hand, down in its (closed) section
    panel.locator("[data-section=strength] > summary").click()
    panel.locator("[name=strengthSide]").select_option("allies")
    panel.locator("[name=strengthValue]").fill("18")
    panel.locator("[data-action=setStrength]").click()
    check("strength_set")
    expect(panel.locator(".bb-result-here")).to_contain_text("ОС теперь 18")
    # Influence, at the bottom
    panel.locator("[name=influenceRoll]").fill("50")
    panel.locator("[data-action=influence]").click()
    check("influence_rolled")
    # fighters of the last unit into the PCs' fight, from its row: the token selected goes
    last = panel.locator(".bb-unit").last
    page.evaluate("ids => StandIn.select(ids)", ["tok2"])
    last.locator("input").fill("1")
    last.locator("[data-action=detach]").click()
    check("fighters_detached")
    # a round from the top, after the GM had scrolled down (the allies win it: the fight goes on)
    content.evaluate("el => { el.scrollTop = el.scrollHeight; }")
    panel.locator("[name=rollAllies]").fill("5")
    panel.locator("[name=rollEnemies]").fill("95")
    panel.locator("[data-action=roundRolls]").click()
    check("round_resolved")
    # and taking it back, at the very bottom
    panel.locator("[data-action=undo]").click()
    check("undone")


def test_apply_to_every_unit_shows_each_units_result_in_view(
    page: Page, open_foundry: Open, bridge: Any, gm: BridgeGM
) -> None:
    # 8 units of 2 fighters, each on two tokens, the battle lost by the allies
    units = {
        f"u{i}": (
            "allies" if i % 2 == 0 else "enemies",
            2,
            20 + i,
            [f"Scene.scene1.Token.tok{2 * i + 1}", f"Scene.scene1.Token.tok{2 * i + 2}"],
        )
        for i in range(8)
    }
    lost_battle(gm, "ambush", units)
    page.set_viewport_size(SCREEN)
    panel = open_foundry(page, lang="ru", battle="ambush", tokens=16)
    connected(panel)
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    button = panel.locator("[data-action=applyAll]")
    button.scroll_into_view_if_needed()
    button.click()
    expect(panel.locator(".bb-unit .bb-applied")).to_have_count(8)
    results = panel.locator(".bb-applied-all li")
    expect(results).to_have_count(8)
    page.wait_for_function(
        f"""() => [...document.querySelectorAll('#background-battle-panel .bb-applied-all li')]
                  .every(el => ({IN_VIEW})(el))"""
    )
    assert all(in_view(results.nth(i)) for i in range(8))
    expect(results.last).to_contain_text("На токенах")


def test_the_focus_goes_on_to_the_next_control(page: Page, open_foundry: Open, bridge: Any) -> None:
    page.set_viewport_size(SCREEN)
    panel = open_foundry(page, tokens=0)
    connected(panel)
    page.evaluate(
        """async () => {
             for (let i = 1; i <= 2; i++)
               await StandIn.addToken({id: `d${i}`, name: "Dwarf", actorId: "dw",
                                       actorName: "Rangers", disposition: 1});
             for (let i = 1; i <= 3; i++)
               await StandIn.addToken({id: `o${i}`, name: "Orc", actorId: "orc",
                                       actorName: "Orcs", disposition: -1});
           }"""
    )
    create_battle(panel, "ambush")
    panel.locator("[data-action=sceneSides]").click()
    rows = panel.locator(".bb-proposed input")
    rows.nth(0).fill("30")
    rows.nth(1).fill("40")
    rows.nth(1).press("Enter")  # Create both sides
    expect(panel.locator(".bb-unit")).to_have_count(2)
    # next: Start the battle, by the keyboard
    expect(panel.locator("[data-action=start]")).to_be_focused()
    page.keyboard.press("Enter")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    # next: the allies' d100; after a round, the allies' d100 again (not the enemies')
    allies = panel.locator("[name=rollAllies]")
    expect(allies).to_be_focused()
    page.keyboard.type("50")
    page.keyboard.press("Tab")
    expect(panel.locator("[name=rollEnemies]")).to_be_focused()
    page.keyboard.type("50")
    page.keyboard.press("Enter")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")
    expect(allies).to_be_focused()
    expect(allies).to_have_value("")
    # the core rolls: the hand stays on Roll the round
    panel.locator("[data-action=roundAuto]").focus()
    page.keyboard.press("Enter")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "2")
    expect(panel.locator("[data-action=roundAuto]")).to_be_focused()


def test_a_players_panel_without_a_gm_waits_for_one_and_follows_when_one_comes(
    browser: Browser, open_foundry: Open, bridge: Any, gm: BridgeGM, foundry_server: Any
) -> None:
    units = {"dwarves": ("allies", 4, 40, []), "orcs": ("enemies", 10, 60, [])}
    started_battle(gm, "ambush", units)
    player_page = browser.new_context().new_page()
    player = remote_player(open_foundry, player_page, foundry_server.url, lang="ru")
    status = player.locator(".bb-status")
    expect(status).to_have_attribute("data-waiting", "no-gm")
    expect(status).to_contain_text(
        "Ждём ведущего: бой появится здесь, как только Foundry ведущего будет в сети."
    )
    expect(status).not_to_contain_text("Подключение…")
    # still waiting after the relay gave up once and tries again
    player_page.wait_for_timeout(6000)
    expect(status).to_have_attribute("data-waiting", "no-gm")
    # a GM comes: the player's panel follows, without a click
    gm_page = browser.new_context().new_page()
    connected(open_foundry(gm_page, battle="ambush", server=foundry_server.url))
    expect(status).to_have_attribute("data-state", "open", timeout=5000)
    expect(status).not_to_have_attribute("data-waiting", "no-gm")
    expect(player.locator(".bb-unit", has_text="Orcs")).to_be_visible()
    # the GM leaves: it waits for a GM again
    gm_page.context.close()
    expect(status).to_have_attribute("data-waiting", "no-gm")
    player_page.context.close()
