"""Side modifiers from the panel: a GM adds, edits and removes a side's named modifiers (a
percent of the units' sum and/or a flat amount), the side line names them and shows S0 in
set-up as the core will fix it at the start; a crowd token's head count shows to the GM at once.
Real module files on the stand-in page, the real bridge, Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from bridge_gm import BridgeGM
from foundry_steps import Open, connected, create_battle, new_unit, remote_player
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.timeout(180)

APP = "game.modules.get('background-battle').api.app"


def test_side_modifiers_are_added_edited_and_removed_and_s0_is_the_cores(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, gm: BridgeGM, foundry_server: Any
) -> None:
    panel = open_foundry(page)
    connected(panel)
    create_battle(panel, "ambush")
    new_unit(page, panel, ["tok1", "tok2", "tok3"], name="Dwarves", side="allies", strength=56)
    orcs = new_unit(page, panel, ["tok4"], name="Orcs", side="enemies", strength=60, head_count=12)
    # the crowd token's head count, for the GM at once (the bridge keeps it for the GMs only)
    expect(orcs.locator(".bb-crowd")).to_have_text("Soldier 4: 12 fighters")

    allies = panel.locator(".bb-modifiers[data-side=allies]")
    line = panel.locator(".bb-side.bb-allies .bb-strength")
    expect(line.locator("b")).to_have_text("56")
    allies.locator("[name=mod-allies-new-name]").fill("High ground")
    allies.locator("[name=mod-allies-new-percent]").fill("10")
    allies.locator("[data-action=saveModifiers]").click()
    expect(line.locator(".bb-mods")).to_have_text("High ground +10 %")
    expect(line.locator("b")).to_have_text("62")  # round(56 × 1.1) = 62, as the core's S0
    expect(line.locator(".bb-units-sum")).to_have_text("(units 56)")

    # edited, and a second one added, the Enter key in its field saves
    allies.locator("[name=mod-allies-0-percent]").fill("0")
    allies.locator("[name=mod-allies-0-flat]").fill("+5")
    allies.locator("[name=mod-allies-new-name]").fill("Tired")
    allies.locator("[name=mod-allies-new-percent]").fill("−10")
    allies.locator("[name=mod-allies-new-percent]").press("Enter")
    expect(line.locator(".bb-mods")).to_have_text("High ground +5 · Tired −10 %")
    expect(line.locator("b")).to_have_text("55")  # 56 × 0.9 + 5 = 55.4
    expect(allies.locator("[name=mod-allies-new-name]")).to_have_value("")

    # a typo is refused, naming the field; nothing is sent
    version = gm.state("ambush")["view"]["version"]
    allies.locator("[name=mod-allies-new-name]").fill("Fog")
    allies.locator("[name=mod-allies-new-percent]").fill("abc")
    allies.locator("[data-action=saveModifiers]").click()
    expect(page.locator("#notifications .warning").last).to_contain_text("Fog: Percent")
    assert gm.state("ambush")["view"]["version"] == version
    allies.locator("[name=mod-allies-new-name]").fill("")
    allies.locator("[name=mod-allies-new-percent]").fill("")

    # removed: the list as stored, without it
    allies.locator("[data-action=removeModifier][data-index='0']").click()
    expect(line.locator(".bb-mods")).to_have_text("Tired −10 %")
    expect(line.locator("b")).to_have_text("50")  # 56 × 0.9 = 50.4
    sides = gm.state("ambush")["view"]["sides"]
    assert sides["allies"]["modifiers"] == [{"name": "Tired", "percent": -10, "flat": 0}]
    assert sides["enemies"]["modifiers"] == []

    # the start fixes S0 as the panel said it, and the fight names the modifier still
    page.wait_for_function(f"!{APP}.pending")
    panel.locator("[data-action=start]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    assert gm.state("ambush")["view"]["sides"]["allies"]["initial"] == 50
    expect(line).to_contain_text("50 / 50")
    expect(line.locator(".bb-mods")).to_have_text("Tired −10 %")
    expect(panel.locator(".bb-modifiers")).to_have_count(0)  # set-up only

    # a player sees what the player view allows: the allies' modifier, no token's head count
    player_page = browser.new_context().new_page()
    player = remote_player(open_foundry, player_page, foundry_server.url)
    expect(player.locator(".bb-unit")).to_have_count(2)
    expect(player.locator(".bb-side.bb-allies .bb-mods")).to_have_text("Tired −10 %")
    expect(player.locator(".bb-crowd")).to_have_count(0)
    player_page.context.close()


def test_modifiers_in_russian(page: Page, open_foundry: Open, bridge: Any) -> None:
    panel = open_foundry(page, lang="ru")
    connected(panel)
    create_battle(panel, "засада")
    new_unit(page, panel, ["tok1", "tok2"], name="Гномы", side="allies", strength=30)
    enemies = panel.locator(".bb-modifiers[data-side=enemies]")
    enemies.locator("[name=mod-enemies-new-name]").fill("Туман")
    enemies.locator("[name=mod-enemies-new-flat]").fill("-3")
    enemies.locator("[data-action=saveModifiers]").click()
    line = panel.locator(".bb-side.bb-enemies .bb-strength")
    expect(line.locator(".bb-mods")).to_have_text("Туман −3")
    expect(line.locator("b")).to_have_text("0")  # never below 0
    expect(line.locator(".bb-units-sum")).to_have_text("(отряды 0)")
