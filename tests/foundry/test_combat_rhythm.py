"""The background battle keeps the rhythm of Foundry's combat: with the world setting on
*automatic*, each new combat round plays one background round with Foundry's dice, once, across
a reload (the rounds played are kept by the world's server, keyed by combat and round). Real
module files, the real bridge, the stand-in's Combat (standin/wfrp4e-fight.js), Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from foundry_steps import GENERATIONS, connected, set_up_fight
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.timeout(180)

ROUND = "game.modules.get('background-battle').api.app.state?.view?.round"


def every_die(page: Page, value: int) -> None:
    """Every d100 from now on shows `value` (Foundry's random source)."""
    page.evaluate("v => { CONFIG.Dice.randomUniform = () => (v - 0.5) / 100; }", value)


def rounds_played(gm: Any) -> int:
    log = gm.state("ambush")["view"]["log"]
    return sum(1 for entry in log for e in entry["events"] if e["type"] == "round_resolved")


@pytest.mark.parametrize("generation", GENERATIONS)
def test_automatic_three_combat_rounds_play_three_background_rounds_once_across_a_reload(
    page: Page, open_foundry: Any, gm: Any, foundry_server: Any, generation: int
) -> None:
    panel = open_foundry(page, server=foundry_server.url)
    connected(panel)
    set_up_fight(page, panel)
    page.evaluate("game.settings.set('background-battle', 'combatRhythm', 'automatic')")
    every_die(page, 50)  # the allies fail (SL −2, −3 …), the orcs (60) pass by 1
    page.evaluate("StandIn.startCombat(['tok1', 'tok4'])")

    page.evaluate("game.combat.nextRound()")  # combat round 2
    page.wait_for_function(f"{ROUND} === 1")
    page.evaluate("game.combat.nextRound()")  # combat round 3
    page.wait_for_function(f"{ROUND} === 2")
    assert rounds_played(gm) == 2

    # a reload: the combat is the server's (here made again, the same id), the rounds played too
    page.goto("about:blank")
    panel = open_foundry(page, server=foundry_server.url)
    connected(panel)
    page.wait_for_function(f"{ROUND} === 2")
    every_die(page, 50)
    page.evaluate("StandIn.startCombat(['tok1', 'tok4'])")
    # the update of round 3 heard again (a second hook, another client's echo): nothing is played
    page.evaluate("Hooks.callAll('updateCombat', game.combat, { round: 3 }, {}, 'gm1')")
    page.evaluate("game.combat.round = 3")
    page.evaluate("game.combat.nextRound()")  # combat round 4
    page.wait_for_function(f"{ROUND} === 3")
    page.wait_for_timeout(300)
    assert rounds_played(gm) == 3
    view = gm.state("ambush")["view"]
    # 30 → 27 (SL −2 against +1) → 23 (−3 against +1) → 19 (−3 against +1)
    assert view["sides"]["allies"]["strength"] == 19
    rolls = page.evaluate("game.messages.contents.filter(m => m.rolls?.length).length")
    assert rolls == 2  # this page's round 4: its two d100 posted in chat


@pytest.mark.parametrize("generation", GENERATIONS)
def test_off_plays_nothing_and_prompt_asks_the_gm_once(
    page: Page, open_foundry: Any, gm: Any, generation: int
) -> None:
    panel = open_foundry(page)
    connected(panel)
    set_up_fight(page, panel)
    every_die(page, 50)
    page.evaluate("StandIn.startCombat(['tok1', 'tok4'])")
    page.evaluate("game.combat.nextRound()")
    page.wait_for_timeout(300)
    assert rounds_played(gm) == 0  # off, the default

    page.evaluate("game.settings.set('background-battle', 'combatRhythm', 'prompt')")
    page.evaluate("game.combat.nextRound()")  # round 3: the GM is asked
    dialog = page.locator("dialog.dialog")
    expect(dialog).to_contain_text("Play the background battle's round")
    dialog.locator("[data-button=yes]").click()
    page.wait_for_function(f"{ROUND} === 1")
    page.evaluate("Hooks.callAll('updateCombat', game.combat, { round: 3 }, {}, 'gm1')")
    page.wait_for_timeout(300)
    expect(dialog).to_have_count(0)  # not asked twice for one combat round
    assert rounds_played(gm) == 1


def test_two_gms_a_combat_round_is_played_by_the_active_gms_browser_once(
    browser: Any, page: Page, open_foundry: Any, gm: Any, foundry_server: Any
) -> None:
    panel = open_foundry(page, server=foundry_server.url)
    connected(panel)
    set_up_fight(page, panel)
    page.evaluate("game.settings.set('background-battle', 'combatRhythm', 'automatic')")
    second = browser.new_context().new_page()
    other = open_foundry(second, user="gm2", server=foundry_server.url)
    connected(other)
    for each in (page, second):
        every_die(each, 50)
        each.evaluate("StandIn.startCombat(['tok1', 'tok4'])")

    # round 2 reaches both GMs' browsers: the active GM's plays it
    for each in (page, second):
        each.evaluate("game.combat.nextRound()")
    page.wait_for_function(f"{ROUND} === 1")
    second.wait_for_timeout(300)
    assert rounds_played(gm) == 1

    # the active GM leaves: the other one is the active GM now; round 2 heard again is not
    # played again, round 3 is
    page.close()
    second.wait_for_function("game.users.activeGM?.id === 'gm2'")
    second.evaluate("Hooks.callAll('updateCombat', game.combat, { round: 2 }, {}, 'gm2')")
    second.wait_for_timeout(300)
    assert rounds_played(gm) == 1
    second.evaluate("game.combat.nextRound()")
    second.wait_for_function(f"{ROUND} === 2")
    assert rounds_played(gm) == 2
