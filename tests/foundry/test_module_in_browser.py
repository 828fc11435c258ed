"""The Foundry module's real files in Chromium, on the stand-in page, against the real bridge."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from bridge_gm import started_battle
from foundry_steps import (
    GENERATIONS,
    Open,
    bridge_barrier,
    connected,
    create_battle,
    new_unit,
    record,
    set_up_fight,
    world_tokens,
)
from playwright.sync_api import Browser, Locator, Page, WebSocket, expect
from websockets.sync.client import connect

pytestmark = pytest.mark.timeout(180)


PANEL = "#background-battle-panel"


def notices(page: Page) -> list[str]:
    return [n["text"] for n in record(page, "notices")]


def bridge_applied(bridge: Any, battle: str = "ambush") -> dict[str, Any]:
    """The bridge's own record of applied reports (`state.foundry.applied`), asked over a
    connection of this test's own."""
    applied: dict[str, Any] = bridge_foundry(bridge, battle)["applied"]
    return applied


def bridge_foundry(bridge: Any, battle: str = "ambush") -> dict[str, Any]:
    """The bridge's own GM-only Foundry data of a battle (`state.foundry`), asked over a
    connection of this test's own."""
    with connect(bridge.url) as ws:
        hello = {"type": "hello", "token": bridge.gm_token, "client": "cli", "battle": battle}
        ws.send(json.dumps(hello))
        while True:
            message = json.loads(ws.recv(timeout=20))
            assert message["type"] != "error", message
            if message["type"] == "state":
                foundry: dict[str, Any] = message["foundry"]
                return foundry


def frames_sent(page: Page) -> list[dict[str, Any]]:
    """Every message the page sends over its WebSockets from now on (call before opening)."""
    frames: list[dict[str, Any]] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", watch)
    return frames


def lose_rounds(panel: Locator, rounds: int) -> None:
    """Rounds with typed rolls where the allies fail and the enemies succeed."""
    for n in range(rounds):
        panel.locator("[name=rollAllies]").fill("95")
        panel.locator("[name=rollEnemies]").fill("5")
        panel.locator("[data-action=roundRolls]").click()
        expect(panel.locator(".bb-phase")).to_have_attribute("data-round", str(n + 1))


CASUALTY_CARDS = (
    "game.messages.contents"
    ".filter(m => m.getFlag('background-battle', 'about')?.kind === 'casualties')"
    ".map(m => ({content: m.content, whisper: m.whisper}))"
)


def casualties_shown(row: Locator) -> dict[str, int]:
    figures = row.locator(".bb-casualties")
    return {
        fate: int(figures.get_attribute(f"data-{fate}") or "-1")
        for fate in ("killed", "wounded", "fit")
    }


def test_connects_on_ready_and_shows_the_light(page: Page, open_foundry: Open, bridge: Any) -> None:
    panel = open_foundry(page)
    connected(panel)
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (GM)")
    expect(panel.locator(".bb-light")).to_have_class(re.compile("bb-green"))
    # the token-controls button closes the panel again
    page.click("button[data-tool='background-battle']")
    expect(page.locator(PANEL)).to_have_count(0)


@pytest.mark.parametrize("generation", GENERATIONS)
def test_new_unit_from_three_selected_tokens(
    page: Page, open_foundry: Open, bridge: Any, generation: int
) -> None:
    panel = open_foundry(page)
    connected(panel)
    create_battle(panel, "ambush")
    row = new_unit(
        page, panel, ["tok1", "tok2", "tok3"], name="Dwarves", side="allies", strength=30
    )
    expect(row.locator(".bb-unit-figures")).to_contain_text("Fighters 3")
    expect(row.locator(".bb-unit-figures")).to_contain_text("strength at the start 30")
    linked = [t for t in world_tokens(page) if "unit" in t["flags"].get("background-battle", {})]
    assert [t["id"] for t in linked] == ["tok1", "tok2", "tok3"]
    # one batched update for the three tokens
    batches = record(page, "updates")
    assert len(batches) == 1 and len(batches[0]["updates"]) == 3

    # one token standing for many: its head count is the unit's fighters, kept by the bridge
    # for the GMs (a token's flags reach every player's Foundry)
    orcs = new_unit(page, panel, ["tok4"], name="Orcs", side="enemies", strength=60, head_count=12)
    expect(orcs.locator(".bb-unit-figures")).to_contain_text("Fighters 12")
    tok4 = next(t for t in world_tokens(page) if t["id"] == "tok4")
    assert tok4["flags"]["background-battle"] == {"unit": {"unit": orcs.get_attribute("data-unit")}}
    fighters = bridge_foundry(bridge)["fighters"]
    assert fighters == {orcs.get_attribute("data-unit"): {"Scene.scene1.Token.tok4": 12}}


def test_a_unit_needs_tokens_and_a_strength(page: Page, open_foundry: Open, bridge: Any) -> None:
    panel = open_foundry(page)
    connected(panel)
    create_battle(panel, "ambush")
    panel.locator("[data-action=newUnit]").click()
    expect(page.locator("#notifications")).to_contain_text("Select the unit's tokens")
    page.evaluate("StandIn.select(['tok1'])")
    panel.locator("[name=unitName]").fill("Nobody")
    panel.locator("[data-action=newUnit]").click()
    expect(page.locator("#notifications")).to_contain_text("Strength is required")
    expect(panel.locator(".bb-unit")).to_have_count(0)


def test_a_typed_roll_out_of_range_is_refused_naming_the_field(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page)
    connected(panel)
    set_up_fight(page, panel)
    panel.locator("[name=rollAllies]").fill("150")
    panel.locator("[name=rollEnemies]").fill("5")
    panel.locator("[data-action=roundRolls]").click()
    notice = page.locator("#notifications .warning").last
    # refused in the panel (panel-input.mjs), before anything is sent, with an example
    expect(notice).to_have_text("Allies' d100: a whole number from 1 to 100, e.g. 42")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "0")

    # Both rolls out of range: each named at once, one notice per field.
    panel.locator("[name=rollEnemies]").fill("0")
    panel.locator("[data-action=roundRolls]").click()
    warnings = page.locator("#notifications .warning")
    expect(warnings.filter(has_text="Allies' d100")).to_have_count(2)  # once per click
    expect(warnings.filter(has_text="Enemies' d100")).to_have_count(1)
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "0")


def test_the_leaders_command_and_the_pcs_win_end_the_battle(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page)
    connected(panel)
    set_up_fight(page, panel)
    panel.locator("[name=leaderSide]").select_option("allies")
    panel.locator("[name=leaderSl]").fill("3")
    panel.locator("[data-action=leader]").click()
    expect(panel.locator(".bb-side.bb-allies .bb-bonus")).to_have_text(re.compile(r"\+\d+"))
    expect(panel.locator("[name=leaderSl]")).to_have_value("")  # the SL is used up
    panel.locator("[name=fleeing]").fill("1/2")
    panel.locator("[data-action=pcsWon]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    expect(panel.locator(".bb-phase")).to_contain_text("Allies won")
    # undoing the end asks first: No leaves the battle ended, Yes goes back to the fight
    panel.locator("[data-action=undo]").click()
    page.locator("dialog [data-button=no]").click()
    expect(page.locator("dialog")).to_have_count(0)
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    panel.locator("[data-action=undo]").click()
    expect(page.locator("dialog")).to_contain_text("takes back the end of the battle")
    page.locator("dialog [data-button=yes]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    assert len(record(page, "dialogs")) == 2
    # moving fighters into the PCs' fight, and setting a side's strength by hand
    orcs = panel.locator(".bb-unit", has_text="Orcs")
    orcs.locator("input[name^=detach-]").fill("4")
    orcs.locator("[data-action=detach]").click()
    expect(orcs.locator(".bb-unit-figures")).to_contain_text("4 fighters in the PCs' fight")
    panel.locator("[data-section=strength] > summary").click()  # closed at first: it is rare
    panel.locator("[name=strengthSide]").select_option("allies")
    panel.locator("[name=strengthValue]").fill("7")
    panel.locator("[data-action=setStrength]").click()
    expect(panel.locator(".bb-side.bb-allies .bb-strength b")).to_have_text("7")
    # and the GM's undo takes the last step back
    panel.locator("[data-action=undo]").click()
    expect(panel.locator(".bb-side.bb-allies .bb-strength b")).not_to_have_text("7")
    expect(orcs.locator(".bb-unit-figures")).to_contain_text("4 fighters in the PCs' fight")


def test_link_unlink_an_automatic_round_and_a_whispered_card(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page)
    connected(panel)
    page.evaluate("game.settings.set('background-battle', 'whisperToGm', true)")
    create_battle(panel, "ambush")
    dwarves = new_unit(page, panel, ["tok1"], name="Dwarves", side="allies", strength=30)
    new_unit(page, panel, ["tok3"], name="Goblins", side="enemies", strength=20)

    page.evaluate("StandIn.select(['tok2'])")
    dwarves.locator("[data-action=linkSelected]").click()
    expect(dwarves.locator(".bb-unit-tokens")).to_have_attribute("data-count", "2")
    page.evaluate("StandIn.select(['tok1'])")
    dwarves.locator("[data-action=unlinkSelected]").click()
    expect(dwarves.locator(".bb-unit-tokens")).to_have_attribute("data-count", "1")
    flags = {t["id"]: t["flags"].get("background-battle", {}) for t in world_tokens(page)}
    assert "unit" not in flags["tok1"]
    assert "unit" in flags["tok2"]

    panel.locator("[data-action=start]").click()
    panel.locator("[data-action=roundAuto]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")

    panel.locator("[name=winner]").select_option("enemies")
    panel.locator("[data-action=endBattle]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    panel.locator("[data-action=applyAll]").click()
    expect(dwarves.locator(".bb-applied")).to_be_visible()
    page.wait_for_function("StandIn.record.chat.length >= 1")
    for card in record(page, "chat"):
        assert sorted(card["whisper"]) == ["gm1", "gm2"]  # stored as user ids


def conditions_of(page: Page, ids: tuple[str, ...] = ("tok1", "tok2", "tok3")) -> dict[str, Any]:
    """What each token's actor shows: its statuses and the value of each condition."""
    return {t["id"]: (t["statuses"], t["values"]) for t in world_tokens(page) if t["id"] in ids}


@pytest.mark.parametrize("generation", GENERATIONS)
@pytest.mark.parametrize("system", ["generic", "wfrp4e"])
def test_a_battle_run_from_the_panel_applies_once_and_undoes(
    page: Page, open_foundry: Open, bridge: Any, system: str, generation: int
) -> None:
    panel = open_foundry(page, system=system)
    connected(panel)
    dwarves, orcs = set_up_fight(page, panel)
    lose_rounds(panel, 2)
    panel.locator("[data-action=endBattle]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    # conditions of the GM's own before the result: Undo must give back exactly these
    page.evaluate("StandIn.setStatus('tok1', 'prone', true)")
    if system == "wfrp4e":
        page.evaluate("StandIn.setStatus('tok2', 'fatigued', true)")
    before = conditions_of(page)

    fates = casualties_shown(dwarves)
    assert fates["killed"] + fates["wounded"] > 0, fates
    assert sum(fates.values()) == 3
    before_writes = len(record(page, "updates"))

    dwarves.locator("[data-action=applyUnit]").click()
    expect(dwarves.locator(".bb-applied")).to_be_visible()
    tokens = {t["id"]: t for t in world_tokens(page)}
    soldiers = [tokens[i] for i in ("tok1", "tok2", "tok3")]
    assert sum("dead" in t["statuses"] for t in soldiers) == fates["killed"]
    assert sum("unconscious" in t["statuses"] for t in soldiers) == fates["wounded"]
    fallen = {"dead", "unconscious"}
    assert sum(not fallen & set(t["statuses"]) for t in soldiers) == fates["fit"]
    for t in soldiers:
        if "dead" in t["statuses"]:
            assert t["overlay"] == ["dead"]  # the defeated status, shown as the overlay
        if system == "wfrp4e" and "unconscious" in t["statuses"]:
            assert "prone" in t["statuses"]  # WFRP4e's addCondition("unconscious") adds prone
    # one batch of token records for the unit, then one of what their actors show after
    assert len(record(page, "updates")) == before_writes + 2
    calls = record(page, "conditions")
    assert len(calls) == fates["killed"] + fates["wounded"]
    expected_call = "addCondition" if system == "wfrp4e" else "toggleStatusEffect"
    assert {c["call"] for c in calls} == {expected_call}
    page.wait_for_function(f"({CASUALTY_CARDS}).length > 0")
    chat = page.evaluate(CASUALTY_CARDS)
    assert len(chat) == 1 and "Dwarves" in chat[0]["content"]

    # Apply again, and ask the bridge again: nothing changes
    writes, conditions = len(record(page, "updates")), len(calls)
    expect(dwarves.locator("[data-action=applyUnit]")).to_have_count(0)
    panel.locator("[data-action=applyAll]").click()
    orcs_applied = orcs.locator(".bb-applied")
    expect(orcs_applied).to_be_visible()  # the one unit not applied yet
    panel.locator("[data-action=applyAll]").click()
    expect(page.locator("#notifications")).to_contain_text("applied already")
    tokens_after = {t["id"]: t for t in world_tokens(page)}
    assert [tokens_after[i] for i in ("tok1", "tok2", "tok3")] == soldiers
    assert len(record(page, "updates")) == writes + 1  # only the orcs' token
    assert len(record(page, "conditions")) == conditions
    # the orcs' head count is hidden from players: their token keeps its name for everyone,
    # and its Apply record holds no count (the bridge's report, for the GMs, has them)
    assert tokens_after["tok4"]["name"] == "Soldier 4"
    record_of_orcs = tokens_after["tok4"]["flags"]["background-battle"]["applied"]
    assert "counts" not in record_of_orcs and "result" not in record_of_orcs
    assert "of 10" in bridge_applied(bridge)[orcs.get_attribute("data-unit")]["note"]

    # Undo apply: the soldiers are back exactly as they were (WFRP4e: no prone, no fatigued
    # left over from the system's own rules), and the bridge forgot the report
    dwarves.locator("[data-action=undoApply]").click()
    expect(page.locator("#notifications")).to_contain_text("3 tokens put back")
    expect(dwarves.locator(".bb-applied")).to_have_count(0)
    assert list(bridge_applied(bridge)) == [orcs.get_attribute("data-unit")]
    assert conditions_of(page) == before
    for token in world_tokens(page)[:3]:
        assert token["name"].startswith("Soldier ")
        assert "applied" not in token["flags"]["background-battle"]
    assert not [n for n in record(page, "notices") if n["level"] == "warning"]
    # the unsets in this generation's form: v14's operator, never the `-=` key it deprecates
    # (the stand-in would have logged the deprecation, failing the test)
    unsets = [
        key
        for batch in record(page, "updates")
        for update in batch["updates"]
        for key, value in update.items()
        if "-=" in key or value == {"__standInOperator": "ForcedDeletion"}
    ]
    unset = "applied" if generation >= 14 else "-=applied"
    assert unsets and set(unsets) == {f"flags.background-battle.{unset}"}

    # Apply after the undo: the bridge sends the result again, the same tokens show it again
    dwarves.locator("[data-action=applyUnit]").click()
    page.wait_for_function(
        "want => JSON.stringify(StandIn.tokens().slice(0, 3).map(t => t.statuses)) === want",
        arg=json.dumps([t["statuses"] for t in soldiers], separators=(",", ":")),
    )


def test_undo_apply_takes_the_report_back_and_apply_again_needs_no_force(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    frames = frames_sent(page)
    panel = open_foundry(page)
    connected(panel)
    dwarves, _ = set_up_fight(page, panel)
    lose_rounds(panel, 2)
    panel.locator("[data-action=endBattle]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    unit = dwarves.get_attribute("data-unit")

    dwarves.locator("[data-action=applyUnit]").click()
    expect(dwarves.locator(".bb-applied")).to_be_visible()
    applied = [t["statuses"] for t in world_tokens(page)[:3]]
    assert any(applied), applied
    report = bridge_applied(bridge)[unit]

    dwarves.locator("[data-action=undoApply]").click()
    expect(page.locator("#notifications")).to_contain_text("3 tokens put back")
    # the bridge's `unapplied` reached the panel; the bridge itself has no report left
    expect(dwarves.locator(".bb-applied")).to_have_count(0)
    assert bridge_applied(bridge) == {}
    assert [t["statuses"] for t in world_tokens(page)[:3]] == [[], [], []]
    told = [{k: v for k, v in f.items() if k != "id"} for f in frames if f["type"] == "unapplied"]
    assert told == [
        {"type": "unapplied", "battle": "ambush", "unit": unit, "version": report["version"]}
    ]

    # Apply again: asked without `force`, the same result goes back on the same tokens
    dwarves.locator("[data-action=applyUnit]").click()
    expect(dwarves.locator(".bb-applied")).to_be_visible()
    requests = [f for f in frames if f["type"] == "request_casualties"]
    assert len(requests) == 2 and not [r for r in requests if "force" in r], requests
    assert [t["statuses"] for t in world_tokens(page)[:3]] == applied
    assert bridge_applied(bridge)[unit] == report
    assert not [n for n in record(page, "notices") if n["level"] != "info"]


def test_a_second_gm_changes_nothing(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page)
    connected(panel)
    dwarves, _ = set_up_fight(page, panel)
    lose_rounds(panel, 1)
    panel.locator("[data-action=endBattle]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")

    second = browser.new_context().new_page()
    other = open_foundry(second, user="gm2", active="gm1", battle="ambush")
    connected(other)
    expect(other.locator(".bb-not-active")).to_contain_text("Game Master is the active GM")
    other_dwarves = other.locator(".bb-unit", has_text="Dwarves")

    # the second GM presses Apply: the bridge hands the result to the active GM's browser
    other_dwarves.locator("[data-action=applyUnit]").click()
    expect(dwarves.locator(".bb-applied")).to_be_visible()
    expect(other_dwarves.locator(".bb-applied")).to_be_visible()
    fates = casualties_shown(dwarves)
    dead = [t for t in world_tokens(page) if "dead" in t["statuses"]]
    assert len(dead) == fates["killed"]
    assert record(second, "updates") == []
    assert record(second, "conditions") == []

    # the unit shows applied: Apply is gone, only Undo apply is offered
    expect(other_dwarves.locator("[data-action=applyUnit]")).to_have_count(0)
    expect(second.locator("#notifications .info").last).to_contain_text(
        "Sent; Game Master's browser puts it on the tokens"
    )
    # a second request (a panel that had not heard yet) writes nothing anywhere
    writes = len(record(page, "updates"))
    unit = other_dwarves.get_attribute("data-unit")
    refused = second.evaluate(
        """unit => game.modules.get("background-battle").api.app.client
             .request("request_casualties", {battle: "ambush", unit})
             .then(() => "sent", (error) => error.code)""",
        unit,
    )
    assert refused == "already_applied"
    assert bridge_barrier(page) == "wrong_phase"
    # the undo of Apply is the active GM's too
    other_dwarves.locator("[data-action=undoApply]").click()
    expect(second.locator("#notifications")).to_contain_text("Only Game Master's browser")
    assert record(second, "updates") == []
    assert record(second, "conditions") == []
    assert len(record(page, "updates")) == writes
    # the active GM's undo reaches the bridge, and every GM's panel shows it
    dwarves.locator("[data-action=undoApply]").click()
    expect(other_dwarves.locator(".bb-applied")).to_have_count(0)
    expect(dwarves.locator(".bb-applied")).to_have_count(0)
    assert bridge_applied(bridge) == {}
    second.context.close()


@pytest.mark.parametrize("generation", GENERATIONS)
def test_an_active_gm_without_the_gm_token_leaves_apply_to_a_gm_browser_that_has_it(
    browser: Browser,
    page: Page,
    open_foundry: Open,
    bridge: Any,
    foundry_server: Any,
    generation: int,
) -> None:
    # the active GM's browser has no GM token: it reads the player view, and the bridge sends
    # it no `apply_casualties` (those go to browsers connected with the GM token only)
    active = open_foundry(page, gm_token=None, server=foundry_server.url)
    expect(active.locator(".bb-status-text")).to_have_text("Connected (player)")
    expect(active.locator(".bb-not-active")).to_contain_text("enter the GM token")
    second = browser.new_context().new_page()
    other = open_foundry(second, user="gm2", active="gm1", server=foundry_server.url)
    connected(other)
    expect(active.locator(".bb-not-active")).to_contain_text(
        "Assistant GM's browser changes the tokens: the active GM (Game Master) has no GM token"
    )
    expect(other.locator(".bb-not-active")).to_have_count(0)  # this browser applies
    dwarves, _ = set_up_fight(second, other)
    lose_rounds(other, 2)
    other.locator("[data-action=endBattle]").click()
    expect(other.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    fates = casualties_shown(dwarves)

    # Apply: the second GM's browser, the one with the GM token, puts it on the tokens
    dwarves.locator("[data-action=applyUnit]").click()
    expect(dwarves.locator(".bb-applied")).to_be_visible()
    soldiers = [t for t in world_tokens(second) if t["id"] in ("tok1", "tok2", "tok3")]
    assert sum("dead" in t["statuses"] for t in soldiers) == fates["killed"]
    assert sum("unconscious" in t["statuses"] for t in soldiers) == fates["wounded"]
    assert dwarves.get_attribute("data-unit") in bridge_applied(bridge)
    assert record(page, "updates") == [] and record(page, "conditions") == []
    # no "sent" for someone else: this browser did it
    assert not [n for n in notices(second) if n.startswith("Sent")]
    # the active GM's world holds the tokens as the second GM's browser wrote them
    records = [t["flags"]["background-battle"].get("applied") for t in world_tokens(page)[:3]]
    assert all(r and r["unit"] == dwarves.get_attribute("data-unit") for r in records), records

    # and Undo apply is that browser's too
    dwarves.locator("[data-action=undoApply]").click()
    expect(second.locator("#notifications")).to_contain_text("3 tokens put back")
    assert [t["statuses"] for t in world_tokens(second)[:3]] == [[], [], []]
    second.context.close()


def test_with_no_gm_browser_on_the_gm_token_apply_is_refused_saying_what_to_do(
    page: Page, open_foundry: Open, bridge: Any, gm: Any, foundry_server: Any
) -> None:
    units = {
        "dwarves": ("allies", 3, 30, ["Scene.scene1.Token.tok1"]),
        "orcs": ("enemies", 5, 20, []),
    }
    started_battle(gm, "ambush", units)
    gm.command("ambush", type="end_battle", winner="allies")
    panel = open_foundry(page, gm_token=None, battle="ambush", server=foundry_server.url)
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (player)")
    expect(panel.locator(".bb-not-active")).to_contain_text(
        "No GM's browser is connected with the GM token"
    )
    expect(panel.locator(".bb-not-active")).to_contain_text("Bridge connection (GM)")
    # the bridge's reply to an Apply from elsewhere (the page, a script) says it too
    with pytest.raises(AssertionError) as refused:
        gm.request("request_casualties", battle="ambush")
    assert "'code': 'no_foundry'" in str(refused.value)
    assert "GM token" in str(refused.value)
    assert record(page, "updates") == [] and record(page, "conditions") == []


def test_reconnects_after_the_bridge_restarts(page: Page, open_foundry: Open, bridge: Any) -> None:
    panel = open_foundry(page)
    connected(panel)
    create_battle(panel, "ambush")
    new_unit(page, panel, ["tok1", "tok2"], name="Dwarves", side="allies", strength=30)

    bridge.stop()
    expect(panel.locator(".bb-status")).not_to_have_attribute("data-state", "open")
    expect(page.locator("#notifications")).to_contain_text("connection to the bridge was lost")
    bridge.start()
    connected(panel)
    # the battle is still there, and commands work again
    expect(panel.locator(".bb-unit", has_text="Dwarves")).to_be_visible()
    new_unit(page, panel, ["tok3"], name="Halflings", side="allies", strength=10)
    expect(panel.locator(".bb-unit")).to_have_count(2)


def test_says_why_when_the_bridge_is_down(page: Page, open_foundry: Open, bridge: Any) -> None:
    address = bridge.url
    bridge.stop()
    panel = open_foundry(page, url=address)
    expect(page.locator("#notifications .error")).to_contain_text("no bridge answers")
    expect(page.locator("#notifications .error")).to_contain_text("make run")
    expect(panel.locator(".bb-status")).to_have_attribute(
        "data-state", re.compile("closed|connecting")
    )


def test_says_why_when_the_token_is_wrong(page: Page, open_foundry: Open, bridge: Any) -> None:
    panel = open_foundry(page, gm_token="not-the-token")
    expect(panel.locator(".bb-status")).to_have_attribute("data-state", "failed")
    expect(page.locator("#notifications .error")).to_contain_text("refused the token")


def test_players_see_the_player_view_read_only(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page)
    connected(panel)
    set_up_fight(page, panel)

    # a game on one local network: players connect to the bridge themselves
    player_page = browser.new_context().new_page()
    player = open_foundry(
        player_page, user="player1", gm_token=None, battle="ambush", playersDirect="1"
    )
    expect(player.locator(".bb-status-text")).to_have_text("Connected (player)")
    expect(player.locator(".bb-readonly")).to_be_visible()
    orcs = player.locator(".bb-unit", has_text="Orcs")
    expect(orcs.locator(".bb-unit-figures")).to_contain_text("Fighters ?")
    expect(player.locator(".bb-side.bb-enemies .bb-strength")).to_contain_text("?")
    expect(
        player.locator(
            "button[data-action]:not([data-action=reconnect]):not([data-action=toggleCompact])"
        )
    ).to_have_count(0)

    # a battle the GM has not shown to players is not listed for them (names included)
    create_battle(panel, "siege")
    expect(player.locator("[name=battle] option")).to_have_count(2)  # "—" and ambush
    player_names = player.locator("[name=battle] option").all_inner_texts()
    assert not [n for n in player_names if "siege" in n]
    expect(player.locator(".bb-unit-tokens")).to_have_count(0)  # no "0 tokens" for players
    assert record(player_page, "settingsSet") == []
    assert not [n for n in record(player_page, "notices") if n["level"] != "info"]
    player_page.context.close()


def test_a_player_is_not_nagged_when_the_gm_has_not_set_the_module_up(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page, user="player1", gm_token=None, player_token=None, playersDirect="1")
    expect(panel.locator(".bb-status-text")).to_contain_text("not set the player token")
    assert record(page, "notices") == []


def test_a_gm_on_the_player_token_reads_only(page: Page, open_foundry: Open, bridge: Any) -> None:
    panel = open_foundry(page, gm_token=bridge.player_token)
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (player)")
    expect(panel.locator(".bb-readonly")).to_contain_text("Enter the GM token")
    expect(panel.locator("[data-action=createBattle]")).to_have_count(0)


def test_influence_is_read_on_the_chosen_rolltable(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page)
    connected(panel)
    # cards to the GMs only: the card shows the GM's total (a public one hides it, see below)
    page.evaluate("game.settings.set('background-battle', 'whisperToGm', true)")
    set_up_fight(page, panel)
    page.evaluate(
        """StandIn.addTable({_id: "infl", name: "My influence", formula: "1d100", results: [
             {range: [-1000, 0], name: "Disaster"},
             {range: [1, 1000], name: "Help arrives"}]})"""
    )
    # reopen the panel so that it lists the new table, then choose it
    page.click("button[data-tool='background-battle']")
    page.click("button[data-tool='background-battle']")
    panel = page.locator(PANEL)
    panel.locator("[name=influenceTable]").select_option("infl")
    panel.locator("[name=influenceSide]").select_option("allies")
    panel.locator("[name=influenceRoll]").fill("50")
    panel.locator("[data-action=influence]").click()
    influence_cards = "StandIn.record.chat.filter(c => c.content.includes('Influence of'))"
    page.wait_for_function(f"{influence_cards}.length === 1")
    chat = page.evaluate(influence_cards)
    assert len(chat) == 1
    card = chat[0]["content"]
    total = int(re.search(r"= (-?\d+)", card).group(1))
    assert ("Disaster" if total <= 0 else "Help arrives") in card
    assert "My influence" in card


def test_the_default_table_imports_as_a_rolltable(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page)
    connected(panel)
    set_up_fight(page, panel)
    panel.locator("[data-action=importTable]").click()
    expect(page.locator("#notifications")).to_contain_text("Imported the default Influence table")
    table = page.evaluate(
        "(() => { const t = game.tables.contents[0];"
        " return {name: t.name, results: t.results.contents.map(r => r.range)}; })()"
    )
    assert "Influence" in table["name"]
    assert len(table["results"]) >= 8
    assert table["results"][0][0] < 1 and table["results"][-1][1] >= 200
    expect(panel.locator("[name=influenceTable]")).to_have_value(
        page.evaluate("game.tables.contents[0].id")
    )
