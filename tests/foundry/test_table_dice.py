"""The table's own dice: every d100 a Foundry Roll posted in chat (a hidden side's for the GMs
only), the values reaching the bridge as typed rolls; a named leader's WFRP4e Leadership test
as the leader's command; a closed dialog or a refused roll message sending nothing. Real module
files on the stand-in page (its Roll, roll modes, Dice So Nice hook and WFRP4e setupSkill:
standin/dice.js, standin/wfrp4e-tests.js), the real bridge, Chromium."""

from __future__ import annotations

import html
import os
from typing import Any

import pytest
from foundry_steps import (
    GENERATIONS,
    Open,
    connected,
    create_battle,
    new_unit,
    record,
    set_up_fight,
)
from playwright.sync_api import Locator, Page, expect

from background_battle.influence_words import fill

pytestmark = pytest.mark.timeout(180)

APP = "game.modules.get('background-battle').api.app"
PLAYER = "game.users.get('player1')"


def roll_messages(page: Page) -> list[dict[str, Any]]:
    """Every roll message of the world: its roll's total, its whisper, blind, and who sees it."""
    return page.evaluate(
        f"""game.messages.contents.filter(m => m.rolls?.length).map(m => ({{
             id: m.id, total: JSON.parse(m.rolls[0]).total, whisper: m.whisper, blind: m.blind,
             flavor: m.flavor, gm: m.visibleTo(game.users.get('gm1')), player: m.visibleTo({PLAYER})
           }}))"""
    )


def next_dice(page: Page, *values: int) -> None:
    """The next d100 results, through Foundry's own random source (CONFIG.Dice.randomUniform)."""
    page.evaluate(
        """values => { const queue = [...values];
             CONFIG.Dice.randomUniform = () => (queue.shift() - 0.5) / 100; }""",
        list(values),
    )


def fighting(page: Page, open_foundry: Open, **options: Any) -> Locator:
    """The GM's panel, connected, with the dwarves and the orcs fighting (the orcs hidden)."""
    panel = open_foundry(page, **options)
    connected(panel)
    set_up_fight(page, panel)
    return panel


def last_entry(gm: Any) -> dict[str, Any]:
    """The last step the bridge stored, as a GM client of the bridge reads it."""
    return gm.state("ambush")["view"]["log"][-1]


@pytest.mark.parametrize("generation", GENERATIONS)
def test_roll_the_round_posts_two_rolls_the_bridge_gets_those_values(
    page: Page, open_foundry: Open, bridge: Any, gm: Any, generation: int
) -> None:
    panel = fighting(page, open_foundry, dsn="1")  # with Dice So Nice
    panel.locator("[data-action=roundAuto]").dblclick()  # a double click rolls once
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")

    rolls = roll_messages(page)
    assert len(rolls) == 2, rolls
    allies, enemies = rolls
    assert "Allies" in allies["flavor"] and "Enemies" in enemies["flavor"]
    # the GM sees both values; a player sees the allies' (public) and not the enemies' at all
    assert allies["gm"] and enemies["gm"]
    assert allies["whisper"] == [] and allies["player"]
    assert sorted(enemies["whisper"]) == ["gm1", "gm2"] and not enemies["player"]
    seen = page.evaluate(
        f"game.messages.contents.filter(m => m.visibleTo({PLAYER}) && m.rolls?.length)"
        ".map(m => m.content)"
    )
    assert seen == [str(allies["total"])]
    # the public round card keeps its "?" for the hidden side
    page.wait_for_function("StandIn.record.chat.some(c => c.content.includes('Round 1'))")
    card = next(c for c in record(page, "chat") if "Round 1" in c["content"])
    assert "Enemies: d100 ? against ?" in card["content"]
    # the bridge got exactly those two values, as rolls typed at the table
    command = last_entry(gm)["command"]
    assert command == {
        "type": "resolve_round",
        "mode": "rolls",
        "rolls": {"allies": allies["total"], "enemies": enemies["total"]},
    }
    # Dice So Nice's dice landed for both messages before the round was sent
    assert sorted(record(page, "dsn")) == sorted([allies["id"], enemies["id"]])
    assert len(record(page, "rolls")) == 2
    # v14 names the visibility a message mode, a key of CONFIG.ChatMessage.modes (a v13 roll
    # mode there warns, and fails the test); v13 knows only roll modes
    assert record(page, "messageModes") == (
        [{"via": "messageMode", "mode": "public"}, {"via": "messageMode", "mode": "gm"}]
        if generation >= 14
        else [{"via": "rollMode", "mode": "publicroll"}, {"via": "rollMode", "mode": "gmroll"}]
    )


def test_a_roll_message_not_posted_sends_nothing(
    page: Page, open_foundry: Open, bridge: Any, gm: Any
) -> None:
    panel = fighting(page, open_foundry)
    before = gm.state("ambush")["view"]["version"]
    # a module's preCreateChatMessage hook refuses roll messages (Foundry then makes none)
    page.evaluate("() => { Hooks.on('preCreateChatMessage', (message, data) => !data.rolls); }")
    panel.locator("[data-action=roundAuto]").click()
    expect(page.locator("#notifications .warning")).to_contain_text("nothing was sent")
    panel.locator("[data-action=influence]").click()
    expect(page.locator("#notifications .warning")).to_have_count(2)
    assert gm.state("ambush")["view"]["version"] == before
    assert roll_messages(page) == []
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "0")


def test_the_cores_roller_when_the_world_says_so(
    page: Page, open_foundry: Open, bridge: Any, gm: Any
) -> None:
    panel = fighting(page, open_foundry, dice="core")
    panel.locator("[data-action=roundAuto]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")
    assert last_entry(gm)["command"] == {"type": "resolve_round", "mode": "auto"}
    assert roll_messages(page) == [] and record(page, "rolls") == []


def test_influence_by_foundry_dice_reads_the_cores_row_for_that_total(
    page: Page, open_foundry: Open, bridge: Any, gm: Any
) -> None:
    panel = fighting(page, open_foundry)
    panel.locator("[data-action=importTable]").click()  # the core's table as a Foundry RollTable
    expect(page.locator("#notifications .info")).to_have_count(1)
    next_dice(page, 43)
    panel.locator("[name=influenceSide]").select_option("allies")
    panel.locator("[data-action=influence]").click()
    expect(panel.locator(".bb-result")).to_have_attribute("data-step", "influence_rolled")
    entry = last_entry(gm)
    assert entry["command"] == {"type": "roll_influence", "side": "allies", "roll": 43}
    event = entry["events"][0]
    assert event["roll"] == 43 and event["total"] == 43 + event["modifier"]
    [message] = roll_messages(page)
    assert message["total"] == 43 and message["whisper"] == []  # the roll itself is public
    # the core's band for that total (its effect filled in for the side that rolled) ...
    bands = gm.state("ambush")["view"]["influence_table"]["bands"]
    row = next(
        b
        for b in bands
        if (b["min"] is None or b["min"] <= event["total"])
        and (b["max"] is None or event["total"] <= b["max"])
    )
    assert (event["band"]["min"], event["band"]["max"]) == (row["min"], row["max"])
    # ... is the one row the Foundry RollTable reads for it, and the GM's card shows that row
    found = page.evaluate(
        """total => game.tables.contents[0].results
             .filter(r => r.range[0] <= total && total <= r.range[1]).map(r => r.name)""",
        event["total"],
    )
    assert found == [row["effect"]["en"]]
    # (the card reads it for the allies who rolled, as the core's words do)
    read = fill(row["effect"]["en"], "en", "allies")
    page.wait_for_function(
        "text => StandIn.record.chat.some(c => c.content.includes(text))",
        arg=html.escape(read).replace("&#x27;", "&#39;"),  # as the card escapes it
    )


def wfrp_fight(page: Page, panel: Locator) -> None:
    """Dwarves (allies, strength 100) against orcs (enemies, 60, hidden), both with a leader."""
    create_battle(panel, "ambush")
    new_unit(page, panel, ["tok1", "tok2", "tok3"], name="Dwarves", side="allies", strength=100)
    new_unit(page, panel, ["tok4"], name="Orcs", side="enemies", strength=60, head_count=10)
    panel.locator("[data-action=start]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    page.evaluate("StandIn.setSkill('tok1', 'Leadership', 65)")
    page.evaluate("StandIn.setSkill('tok4', 'Leadership', 65)")
    # the allies' leader: the selected token; the enemies': a token dropped on their line
    page.evaluate("StandIn.select(['tok1'])")
    panel.locator("[name=leaderSide]").select_option("allies")
    panel.locator("[data-action=leaderFromSelected]").click()
    expect(panel.locator(".bb-leader-of[data-side=allies]")).to_contain_text("Soldier 1")
    page.evaluate(
        """() => {
             const line = document.querySelector('.bb-leader-of[data-side=enemies]');
             const data = new DataTransfer();
             const token = {type: 'Token', uuid: 'Scene.scene1.Token.tok4'};
             data.setData('text/plain', JSON.stringify(token));
             const drop = {dataTransfer: data, bubbles: true, cancelable: true};
             line.dispatchEvent(new DragEvent('drop', drop));
           }"""
    )
    expect(panel.locator(".bb-leader-of[data-side=enemies]")).to_contain_text("Soldier 4")


def test_a_named_leaders_wfrp4e_leadership_test_is_the_command(
    page: Page, open_foundry: Open, bridge: Any, gm: Any
) -> None:
    panel = open_foundry(page, system="wfrp4e")
    connected(panel)
    wfrp_fight(page, panel)

    # the allies' leader: Leadership 65, d100 12 → SL +5; strength 100 → 1 + 10 + 2 = 13
    next_dice(page, 12)
    panel.locator("[name=leaderSide]").select_option("allies")
    panel.locator("[data-action=leader]").click()
    dialog = page.locator("dialog.wfrp-roll-dialog")
    expect(dialog).to_contain_text("Leadership Test")
    dialog.locator("[data-action=roll]").click()
    expect(panel.locator(".bb-side.bb-allies .bb-bonus")).to_contain_text("13")
    entry = last_entry(gm)
    assert entry["command"] == {
        "type": "leader_command",
        "side": "allies",
        "sl": 5,
        "success": True,
    }
    assert entry["events"][0]["bonus"] == 13
    test = record(page, "tests")[-1]
    assert (test["target"], test["roll"], test["SL"], test["outcome"]) == (65, 12, "+5", "success")
    card = page.evaluate("game.messages.contents.filter(m => m.type === 'test').at(-1)")
    assert card["whisper"] == [] and "SL +5" in card["content"]  # the system's own card

    # the enemies' leader (hidden side): d100 91 → failure, SL -3: no bonus, and it says so
    next_dice(page, 91)
    panel.locator("[name=leaderSide]").select_option("enemies")
    panel.locator("[data-action=leader]").click()
    expect(dialog.locator("[name=rollMode]")).to_have_value("gmroll")  # the player view hides it
    dialog.locator("[data-action=roll]").click()
    expect(page.locator("#notifications .info").last).to_contain_text("no leader's bonus")
    entry = last_entry(gm)
    assert entry["command"] == {
        "type": "leader_command",
        "side": "enemies",
        "sl": -3,
        "success": False,
    }
    assert entry["events"][0]["bonus"] == 0
    expect(panel.locator(".bb-result")).to_have_attribute("data-step", "leader_commanded")
    card = page.evaluate("game.messages.contents.filter(m => m.type === 'test').at(-1)")
    assert sorted(card["whisper"]) == ["gm1", "gm2"]

    # a closed dialog sends nothing, and the panel takes the next click
    version = gm.state("ambush")["view"]["version"]
    panel.locator("[data-action=leader]").click()
    dialog.locator("[data-action=close]").click()
    expect(page.locator("#notifications .info").last).to_contain_text("nothing was sent")
    assert gm.state("ambush")["view"]["version"] == version
    page.wait_for_function(f"!{APP}.pending")
    # an SL typed in still wins over the leader's test
    panel.locator("[name=leaderSl]").fill("2")
    panel.locator("[data-action=leader]").click()
    expect(panel.locator("[name=leaderSl]")).to_have_value("")
    assert last_entry(gm)["command"] == {
        "type": "leader_command",
        "side": "enemies",
        "sl": 2,
        "success": True,
    }
    assert page.locator("dialog.wfrp-roll-dialog").count() == 0


def test_outside_wfrp4e_a_foundry_d100_against_the_leadership_typed(
    page: Page, open_foundry: Open, bridge: Any, gm: Any
) -> None:
    panel = fighting(page, open_foundry)
    next_dice(page, 12)
    panel.locator("[name=leaderSide]").select_option("allies")
    panel.locator("[name=leaderTarget]").fill("65")
    panel.locator("[name=leaderTarget]").press("Enter")
    expect(panel.locator(".bb-result")).to_have_attribute("data-step", "leader_commanded")
    entry = last_entry(gm)
    assert entry["command"] == {
        "type": "leader_command",
        "side": "allies",
        "leadership": 65,
        "roll": 12,
    }
    event = entry["events"][0]
    assert (event["sl"], event["success"]) == (5, True)  # the core's test: 6 - 1
    [message] = roll_messages(page)
    assert message["total"] == 12 and message["whisper"] == []
    expect(panel.locator("[name=leaderTarget]")).to_have_value("")


def test_each_user_sees_the_rolls_and_cards_the_player_view_allows(
    page: Page, open_foundry: Open, bridge: Any, gm: Any
) -> None:
    """The chat log of the GM and of a player after a round by Foundry's dice, a leader's
    Leadership test and an Influence roll (WFRP4e). With BB_SCREENSHOT=<path> it is also saved
    as a picture (docs/foundry-dice.png: `BB_SCREENSHOT=docs/foundry-dice.png pytest -k sees`)."""
    page.set_viewport_size({"width": 1100, "height": 1400})
    panel = open_foundry(page, system="wfrp4e")
    connected(panel)
    wfrp_fight(page, panel)
    next_dice(page, 34, 71)
    panel.locator("[data-action=roundAuto]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")
    next_dice(page, 12)
    panel.locator("[name=leaderSide]").select_option("allies")
    panel.locator("[data-action=leader]").click()
    page.locator("dialog.wfrp-roll-dialog [data-action=roll]").click()
    expect(panel.locator(".bb-result")).to_have_attribute("data-step", "leader_commanded")
    next_dice(page, 43)
    panel.locator("[name=influenceSide]").select_option("allies")
    panel.locator("[data-action=influence]").click()
    expect(panel.locator(".bb-result")).to_have_attribute("data-step", "influence_rolled")
    version = gm.state("ambush")["view"]["version"]
    page.wait_for_function(
        "v => game.messages.contents"
        ".some(m => m.getFlag('background-battle', 'about')?.version === v)",
        arg=version,
    )
    page.click("button[data-tool='background-battle']")  # the panel closed: the log in view
    log = page.evaluate("StandIn.chatLog(['gm1', 'player1']) && true")
    assert log
    gm_column = page.locator("#chat-log [data-user=gm1]")
    player_column = page.locator("#chat-log [data-user=player1]")
    # the GM sees the three d100 (34, 71, 43), the player the allies' and the Influence one
    expect(gm_column.locator(".dice-total")).to_have_text(["34", "71", "43"])
    expect(player_column.locator(".dice-total")).to_have_text(["34", "43"])
    expect(player_column).to_contain_text("Enemies: d100 ? against ?")
    expect(player_column.locator(".wfrp4e.chat-card")).to_contain_text("SL +5")
    expect(player_column).not_to_contain_text("71")
    path = os.environ.get("BB_SCREENSHOT")
    if path:
        page.locator("#chat-log").screenshot(path=path)
