"""Apply to the fight: an Influence card's effects (the core's own band, read for the side that
rolled) land on the combatants of the active combat through WFRP4e's calls, and Undo takes them
back exactly; live, what is done is shared with the GM's page through the bridge (the last
test). Real module files on the stand-in page (its Combat, WFRP4e advantage, damage and
conditions: standin/wfrp4e-fight.js), the real bridge, both Foundry generations, Chromium."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bridge_gm import BridgeGM
from bridge_process import BridgeProcess
from foundry_steps import GENERATIONS, connected, set_up_fight
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from background_battle import default_table

pytestmark = pytest.mark.timeout(180)
DIST = Path(__file__).resolve().parents[2] / "web" / "dist"

# The PCs' fight: a PC (player-owned), a friendly soldier, two hostile orcs.
FIGHTERS = {
    "tok1": {"playerOwned": True, "disposition": 1, "wounds": 12, "tb": 3, "advantage": 0},
    "tok2": {"disposition": 1, "wounds": 11, "tb": 3, "advantage": 2},
    "tok3": {"disposition": -1, "wounds": 10, "tb": 3, "ap": 1, "advantage": 1},
    "tok4": {"disposition": -1, "wounds": 10, "tb": 3, "ap": 1, "advantage": 0},
}


FLAG = "background-battle"
FLAGS = f"m.flags?.[{FLAG!r}]"
APPLIED = f"game.messages.contents.some(m => {FLAGS}?.fight)"
UNDONE = f"game.messages.contents.some(m => {FLAGS}?.fight?.undone)"
ROLLS = "game.messages.contents.filter(m => m.rolls?.length)"
GROUPS = "game.settings.get('wfrp4e', 'groupAdvantageValues')"
TOLD = f"game.messages.contents.filter(m => {FLAGS}?.about?.kind === 'reinforcements')"
PCS_AT_1 = "StandIn.fighters().filter(f => f.token <= 'tok2').every(f => f.advantage === 1)"


def fight(page: Page, open_foundry: Any, **query: Any) -> None:
    """The GM's Foundry in WFRP4e with the four fighters in an active combat at round 1."""
    open_foundry(page, system="wfrp4e", panel=False, **query)
    for token, fighter in FIGHTERS.items():
        page.evaluate("([token, fighter]) => StandIn.makeFighter(token, fighter)", [token, fighter])
    page.evaluate("StandIn.startCombat(['tok1', 'tok2', 'tok3', 'tok4'])")


def influence_card(page: Page, side: str, total: int) -> None:
    """The Influence card the module posts for a roll of `total` by `side` (the core's band)."""
    band = default_table().band_for(total).for_side(side).to_dict()
    event = {"type": "influence_rolled", "side": side, "roll": 50, "modifier": total - 50}
    event |= {"total": total, "band": band}
    page.evaluate(
        """async event => {
             const influence = await import('/foundry-module/scripts/influence.mjs');
             await influence.postInfluence(event, null, { gmOnly: true });
             StandIn.chatLog(['gm1']);
           }""",
        event,
    )


def next_dice(page: Page, *dice: tuple[int, int]) -> None:
    """The next dice, each (value, faces), through Foundry's random source."""
    page.evaluate(
        """dice => { const queue = [...dice];
             CONFIG.Dice.randomUniform = () => {
               const [value, faces] = queue.shift();
               return (value - 0.5) / faces;
             }; }""",
        [list(d) for d in dice],
    )


def fighters(page: Page) -> dict[str, dict[str, Any]]:
    return {f["token"]: f for f in page.evaluate("StandIn.fighters()")}


def click_in_chat(page: Page, action: str) -> None:
    page.evaluate("StandIn.chatLog(['gm1'])")
    page.locator(f"#chat-log [data-bb-fight='{action}']").last.click()


@pytest.mark.parametrize("generation", GENERATIONS)
def test_the_allies_volley_gives_each_pc_advantage_and_hits_the_foe_the_gm_picks_undo_restores(
    page: Page, open_foundry: Any, generation: int
) -> None:
    fight(page, open_foundry)
    before = fighters(page)
    influence_card(page, "allies", 140)  # 126-150: a volley
    next_dice(page, (7, 10), (50, 100))  # 1d10+4 = 11; hit location 50: body

    click_in_chat(page, "apply")
    prompt = page.locator("dialog.prompt")
    expect(prompt).to_be_visible()
    prompt.locator("select").select_option(label="Soldier 4")
    prompt.locator("[data-action=ok]").click()
    expect(page.locator("#chat-log")).to_be_attached()
    page.wait_for_function(APPLIED)

    after = fighters(page)
    assert [after[t]["advantage"] for t in ("tok1", "tok2")] == [1, 3]  # each PC +1
    assert [after[t]["advantage"] for t in ("tok3", "tok4")] == [1, 0]  # the foes untouched
    assert after["tok4"]["wounds"] == 10 - (11 - 1 - 3)  # less AP 1 (body) and TB 3
    assert after["tok3"]["wounds"] == 10
    rolls = page.evaluate(f"{ROLLS}.map(m => JSON.parse(m.rolls[0]))")
    assert [(r["formula"], r["total"]) for r in rolls] == [("1d10+4", 11)]  # the damage, in chat
    damage = page.evaluate("StandIn.record.fight.filter(c => c.call === 'applyBasicDamage')")
    assert [(c["value"], c["loc"]) for c in damage] == [(11, "body")]
    # the GM's chat: the card, the damage roll, the record with Undo (docs/foundry-fight.png:
    # `BB_SCREENSHOT=docs/foundry-fight.png pytest tests/foundry/test_influence_fight.py
    # -k "volley and 13"`)
    path = os.environ.get("BB_SCREENSHOT")
    if path:
        page.evaluate("StandIn.chatLog(['gm1'])")
        page.locator("#chat-log").screenshot(path=path)

    click_in_chat(page, "undo")
    page.wait_for_function(UNDONE)
    assert fighters(page) == before


@pytest.mark.parametrize("generation", GENERATIONS)
def test_the_allies_rout_hits_a_random_pc_by_a_visible_roll_and_undo_gives_advantage_back(
    page: Page, open_foundry: Any, generation: int
) -> None:
    fight(page, open_foundry)
    before = fighters(page)
    influence_card(page, "allies", -5)  # ≤ 0: rout
    next_dice(page, (2, 2), (3, 10), (20, 100))  # target 2 of 2 (the soldier); 1d10+4 = 7; left arm

    click_in_chat(page, "apply")
    page.wait_for_function(APPLIED)

    after = fighters(page)
    assert [after[t]["advantage"] for t in ("tok1", "tok2")] == [0, 0]  # all Advantage lost
    assert after["tok2"]["wounds"] == 11 - (7 - 0 - 3)
    assert after["tok1"]["wounds"] == 12
    rolls = page.evaluate(f"{ROLLS}.map(m => [JSON.parse(m.rolls[0]).formula, m.whisper.length])")
    assert rolls == [["1d2", 0], ["1d10+4", 0]]  # the pick and the damage, both public

    click_in_chat(page, "undo")
    page.wait_for_function(UNDONE)
    assert fighters(page) == before


@pytest.mark.parametrize("generation", GENERATIONS)
def test_with_group_advantage_the_pcs_group_gains_once_and_undo_sets_it_back(
    page: Page, open_foundry: Any, generation: int
) -> None:
    fight(page, open_foundry, groupAdvantage="1")
    influence_card(page, "allies", 110)  # 101-125: each PC gains +1 Advantage

    click_in_chat(page, "apply")
    page.wait_for_function(APPLIED)

    assert page.evaluate(GROUPS) == {"players": 1, "enemies": 0}
    calls = page.evaluate("StandIn.record.fight.filter(c => c.call.endsWith('Advantage'))")
    assert len(calls) == 1  # one actor's call for the whole group
    page.wait_for_function(PCS_AT_1)

    click_in_chat(page, "undo")
    page.wait_for_function(UNDONE)
    assert page.evaluate(GROUPS) == {"players": 0, "enemies": 0}


@pytest.mark.parametrize("generation", GENERATIONS)
def test_fighters_due_in_two_rounds_are_announced_on_that_round_once(
    page: Page, open_foundry: Any, generation: int
) -> None:
    fight(page, open_foundry, tokens=5)
    influence_card(page, "allies", 10)  # 1-25: 1 enemy fighter joins the PCs' fight in 2 rounds
    next_dice(page, (1, 2), (1, 10), (50, 100))

    click_in_chat(page, "apply")
    page.wait_for_function(APPLIED)
    told = TOLD

    page.evaluate("game.combat.nextRound()")  # round 2: not yet
    page.wait_for_timeout(200)
    assert page.evaluate(f"{told}.length") == 0
    page.evaluate("game.combat.nextRound()")  # round 3: now
    page.wait_for_function(f"{told}.length === 1")
    assert "Round 3" in page.evaluate(f"{told}[0].content")
    # the same round's update heard again (another hook, a second call) tells nothing new
    page.evaluate("Hooks.callAll('updateCombat', game.combat, { round: 3 }, {}, 'gm1')")
    page.wait_for_timeout(200)
    assert page.evaluate(f"{told}.length") == 1
    # the fighters who join: the GM selects their token and adds it to the combat on one click
    page.evaluate("StandIn.select(['tok5'])")
    click_in_chat(page, "join")
    page.wait_for_function("game.combat.combatants.size === 5")
    assert page.evaluate("game.combat.combatants.contents.at(-1).token.id") == "tok5"


@pytest.mark.parametrize("generation", GENERATIONS)
def test_the_foes_break_each_takes_a_hard_cool_test_broken_on_failure_undo_takes_it_back(
    page: Page, open_foundry: Any, generation: int
) -> None:
    fight(page, open_foundry)
    for token in ("tok3", "tok4"):
        page.evaluate("t => StandIn.setSkill(t, 'Cool', 40)", token)
    before = fighters(page)
    influence_card(page, "allies", 210)  # 200+: each foe a Hard (−20) Cool test or Broken
    next_dice(page, (90, 100), (10, 100))  # the first orc fails (90 > 20), the second passes

    click_in_chat(page, "apply")
    for _ in range(2):  # the GM's own dialog for each foe, Hard already chosen
        dialog = page.locator("dialog.wfrp-roll-dialog")
        expect(dialog.locator("[name=difficulty]")).to_have_value("hard")
        dialog.locator("[data-action=roll]").click()
    page.wait_for_function(APPLIED)

    after = fighters(page)
    assert (after["tok3"]["statuses"], after["tok4"]["statuses"]) == (["broken"], [])
    tests = page.evaluate("StandIn.record.tests.map(t => [t.skill, t.target, t.outcome])")
    assert tests == [["Cool", 20, "failure"], ["Cool", 20, "success"]]

    click_in_chat(page, "undo")
    page.wait_for_function(UNDONE)
    assert fighters(page) == before  # Broken gone, and the fatigued its end brings too


@pytest.mark.parametrize("generation", GENERATIONS)
def test_a_rolltable_imported_from_the_default_keeps_its_effects_one_of_text_only_says_so(
    page: Page, open_foundry: Any, generation: int
) -> None:
    fight(page, open_foundry)
    page.evaluate(
        """async table => {
             const influence = await import('/foundry-module/scripts/influence.mjs');
             const made = await influence.importDefaultTable(table);
             await game.settings.set('background-battle', 'influenceTable', made.id);
           }""",
        default_table().to_dict(),
    )
    influence_card(page, "allies", 110)  # read on the RollTable's row 101-125
    click_in_chat(page, "apply")
    page.wait_for_function(APPLIED)
    assert [f["advantage"] for f in fighters(page).values()] == [1, 3, 1, 0]

    page.evaluate(
        """async () => {
             const made = await RollTable.create({ name: 'Own', formula: '1d100', results: [
               { type: 'text', name: 'Something happens', range: [-1000, 1000], weight: 1 }] });
             await game.settings.set('background-battle', 'influenceTable', made.id);
           }"""
    )
    influence_card(page, "allies", 110)
    card = page.locator("#chat-log .chat-message").last
    expect(card).to_contain_text("Something happens")
    expect(card).to_contain_text("carries no effects as data: apply it by hand")
    expect(card.locator("[data-bb-fight]")).to_have_count(0)


def enemies_volley_rolled_on_the_panel(page: Page, open_foundry: Any) -> dict[str, Any]:
    """The panel connected, the dwarves (allies, 30; tok1-3) against the orcs (60; tok4) in the
    PCs' combat, and the enemies' Influence rolled on the panel: 100 + (60 − 30) = 130, a volley
    for them, its card in chat. Returns the fighters before any effect."""
    panel = open_foundry(page, system="wfrp4e")
    connected(panel)
    set_up_fight(page, panel)
    for token, fighter in FIGHTERS.items():
        page.evaluate("([token, fighter]) => StandIn.makeFighter(token, fighter)", [token, fighter])
    page.evaluate("StandIn.startCombat(['tok1', 'tok2', 'tok3', 'tok4'])")
    before = fighters(page)
    next_dice(page, (100, 100))
    panel.locator("[name=influenceSide]").select_option("enemies")
    panel.locator("[data-action=influence]").click()
    page.wait_for_function(f"game.messages.contents.some(m => {FLAGS}?.influence)")
    return before


@pytest.mark.parametrize("generation", GENERATIONS)
def test_the_panels_influence_roll_brings_its_effects_through_the_bridge_to_the_card(
    page: Page, open_foundry: Any, generation: int
) -> None:
    before = enemies_volley_rolled_on_the_panel(page, open_foundry)

    next_dice(page, (5, 10), (50, 100))  # 1d10+4 = 9 on the body
    click_in_chat(page, "apply")
    prompt = page.locator("dialog.prompt")
    prompt.locator("select").select_option(label="Soldier 1")  # the GM picks the PC
    prompt.locator("[data-action=ok]").click()
    page.wait_for_function(APPLIED)

    after = fighters(page)
    assert after["tok1"]["wounds"] == 12 - (9 - 0 - 3)
    assert [after[t]["advantage"] for t in ("tok3", "tok4")] == [2, 1]  # each foe of the PCs +1
    assert [after[t]["advantage"] for t in ("tok1", "tok2")] == [0, 2]
    click_in_chat(page, "undo")
    page.wait_for_function(UNDONE)
    assert fighters(page) == before


@pytest.mark.parametrize("generation", GENERATIONS)
def test_in_another_system_the_dice_are_rolled_and_the_card_lists_what_to_do_by_hand(
    page: Page, open_foundry: Any, generation: int
) -> None:
    open_foundry(page, panel=False)  # no game system the module knows
    for token, fighter in FIGHTERS.items():
        page.evaluate("([token, fighter]) => StandIn.makeFighter(token, fighter)", [token, fighter])
    page.evaluate("StandIn.startCombat(['tok1', 'tok2', 'tok3', 'tok4'])")
    before = fighters(page)
    influence_card(page, "allies", 140)
    next_dice(page, (7, 10))

    click_in_chat(page, "apply")
    prompt = page.locator("dialog.prompt")
    prompt.locator("select").select_option(label="Soldier 3")
    prompt.locator("[data-action=ok]").click()
    page.wait_for_function(APPLIED)

    assert fighters(page) == before  # nothing the system has no call for
    page.evaluate("StandIn.chatLog(['gm1'])")
    record = page.locator("#chat-log .chat-message").last
    expect(record).to_contain_text("To do by hand:")
    expect(record).to_contain_text("Soldier 3: 11 Damage (1d10+4)")
    expect(record).to_contain_text("+1 Advantage: Soldier 1, Soldier 2")


SCRIPTS = """game.combat.combatants.contents.map(c => c.actor.effects.contents
  .flatMap(e => e.system?.scriptData ?? []).map(s => `${s.trigger}: ${s.script}`))"""


@pytest.mark.parametrize("generation", GENERATIONS)
def test_the_other_side_wavers_its_tests_take_minus_10_by_an_effect_undo_deletes_it(
    page: Page, open_foundry: Any, generation: int
) -> None:
    fight(page, open_foundry)
    before = fighters(page)
    influence_card(page, "allies", 160)  # 151-175: the foes −10 to all tests this round, −1 Adv.

    click_in_chat(page, "apply")
    page.wait_for_function(APPLIED)

    # each foe of the PCs: an effect whose "dialog" script changes every test (as Fatigued's)
    penalty = "dialog: args.fields.modifier += -10"
    assert page.evaluate(SCRIPTS) == [[], [], [penalty], [penalty]]
    after = fighters(page)
    assert [after[t]["advantage"] for t in FIGHTERS] == [1, 3, 0, 0]

    click_in_chat(page, "undo")
    page.wait_for_function(UNDONE)
    assert page.evaluate(SCRIPTS) == [[], [], [], []]
    assert fighters(page) == before


APP = "game.modules.get('background-battle').api.app"
CARD = "#chat-log .chat-message:has([data-bb-fight='apply'])"
LIVE_FIGHT = f"game.messages.contents.filter(m => {FLAGS}?.fight && !{FLAGS}.fight.undone).length"


def as_page(bridge: Any, message: dict[str, Any]) -> dict[str, Any]:
    """One request from a client saying it is the web page (GM token); its ack or error."""
    with connect(bridge.url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": bridge.gm_token, "client": "web"}))
        json.loads(ws.recv(timeout=30))  # welcome
        ws.send(json.dumps({"id": uuid.uuid4().hex, **message}))
        while True:
            reply: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if reply["type"] in ("ack", "error"):
                return reply


def apply_picking(page: Page, name: str) -> None:
    """Apply to the fight on the Influence card, the GM picking who takes the damage."""
    click_in_chat(page, "apply")
    prompt = page.locator("dialog.prompt")
    prompt.locator("select").select_option(label=name)
    prompt.locator("[data-action=ok]").click()


@pytest.mark.parametrize("generation", GENERATIONS)
def test_foundrys_apply_and_the_pages_ticks_are_one_list_of_what_is_done(
    page: Page, open_foundry: Any, generation: int, bridge: Any, gm: BridgeGM
) -> None:
    before = enemies_volley_rolled_on_the_panel(page, open_foundry)
    about = f"game.messages.contents.find(m => {FLAGS}?.influence).getFlag({FLAG!r}, 'about')"
    roll = str(page.evaluate(f"{about}.version"))

    # Foundry applies the band (0: 1d10+4 Damage to a PC of the GM's choice; 1: +1 Advantage to
    # each foe of the PCs): both marked on the bridge, the damage with what it dealt to whom
    next_dice(page, (5, 10), (50, 100))  # 1d10+4 = 9 on the body
    apply_picking(page, "Soldier 1")
    page.wait_for_function(APPLIED)
    dealt = "Soldier 1: 9 Damage (1d10+4)"
    assert gm.state("ambush")["foundry"]["marks"] == {
        roll: {"0": {"by": "foundry", "result": dealt}, "1": {"by": "foundry"}}
    }
    # the page cannot tick them again
    mark = {"type": "mark_effects", "battle": "ambush", "version": int(roll)}
    twice = as_page(bridge, {**mark, "marks": [{"effect": 1, "kind": "advantage", "done": True}]})
    assert twice["code"] == "already_marked"

    # Undo: the actors back, Foundry's marks gone everywhere
    click_in_chat(page, "undo")
    page.wait_for_function(UNDONE)
    assert fighters(page) == before
    assert gm.state("ambush")["foundry"]["marks"] == {}

    # Apply again; while the GM's dialog for the damage is open, the GM ticks the Advantage off
    # on the page: Apply leaves it out (not applied twice) and says so; the damage is applied
    next_dice(page, (5, 10), (50, 100))
    click_in_chat(page, "apply")
    prompt = page.locator("dialog.prompt")
    expect(prompt).to_be_visible()
    tick = {"effect": 1, "kind": "advantage", "done": True}
    assert as_page(bridge, {**mark, "marks": [tick]})["type"] == "ack"
    page.wait_for_function(
        f"{APP}.client.states.get('ambush').foundry.marks[{roll}]?.['1']?.by === 'web'"
    )
    prompt.locator("select").select_option(label="Soldier 1")
    prompt.locator("[data-action=ok]").click()
    page.wait_for_function(f"{LIVE_FIGHT} === 1")
    after = fighters(page)
    assert [after[t]["advantage"] for t in ("tok3", "tok4")] == [1, 0]  # untouched this time
    assert after["tok1"]["wounds"] == 12 - (9 - 0 - 3)
    page.evaluate("StandIn.chatLog(['gm1'])")
    record = page.locator("#chat-log .chat-message").last
    expect(record).to_contain_text("Done on the GM's page: Advantage")
    assert gm.state("ambush")["foundry"]["marks"] == {
        roll: {"0": {"by": "foundry", "result": dealt}, "1": {"by": "web"}}
    }
    # the Influence card shows both
    expect(page.locator(CARD).locator(".bb-fight-marks li")).to_have_text(
        [f"Applied in Foundry: Damage: {dealt}", "Done on the GM's page: Advantage"]
    )

    # Undo takes back Foundry's own mark; the page's tick (done by hand at the table) stays
    click_in_chat(page, "undo")
    page.wait_for_function(f"{LIVE_FIGHT} === 0")
    assert gm.state("ambush")["foundry"]["marks"] == {roll: {"1": {"by": "web"}}}

    # across a reload the card shows what is done, from the bridge
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=15_000)
    page.wait_for_function(
        f"{APP}.client?.states.get('ambush')?.foundry.marks[{roll}]?.['1']?.by === 'web'"
    )
    page.evaluate("StandIn.chatLog(['gm1'])")
    expect(page.locator(CARD).locator(".bb-fight-marks li")).to_have_text(
        ["Done on the GM's page: Advantage"]
    )


@pytest.fixture
def served(tmp_path: Path, site: str, bridge: Any) -> Iterator[BridgeProcess]:
    """A bridge serving the built page too (`--web web/dist`): the GM's page and the stand-in's
    Foundry on one bridge, with the tokens of the tests' own."""
    if not (DIST / "index.html").is_file():
        pytest.fail("web/dist is not built: run `make site` (make test-foundry does)")
    running = BridgeProcess(
        tmp_path / "served",
        bridge.gm_token,
        bridge.player_token,
        *("--origin", site, "--web", str(DIST)),
    )
    running.start()
    yield running
    running.stop()


def test_the_gm_applies_in_foundry_and_ticks_on_the_page_and_both_show_one_list(
    page: Page, open_foundry: Any, served: BridgeProcess, browser: Browser
) -> None:
    ws = f"ws://127.0.0.1:{served.port}/ws"
    panel = open_foundry(page, system="wfrp4e", url=ws)
    connected(panel)
    set_up_fight(page, panel)  # the dwarves (allies, 30; tok1-3) against the orcs (60; tok4)
    for token, fighter in FIGHTERS.items():
        page.evaluate("([token, fighter]) => StandIn.makeFighter(token, fighter)", [token, fighter])
    page.evaluate("StandIn.startCombat(['tok1', 'tok2', 'tok3', 'tok4'])")
    next_dice(page, (100, 100))  # the enemies' 130: 0, 1d10+4 to a PC; 1, +1 Advantage each foe
    panel.locator("[name=influenceSide]").select_option("enemies")
    panel.locator("[data-action=influence]").click()
    page.wait_for_function(f"game.messages.contents.some(m => {FLAGS}?.influence)")

    # the GM's page, live on the same bridge: the roll's effects to tick off
    context = browser.new_context(locale="en-US", viewport={"width": 412, "height": 900})
    web = context.new_page()
    web.goto(f"http://127.0.0.1:{served.port}/#token={served.gm_token}")
    web.wait_for_selector('html[data-live-battle="ambush"]', timeout=60_000)
    items = web.locator("#influence-result .fight-effects li")
    expect(items).to_have_count(2, timeout=60_000)
    boxes = [items.nth(i).get_by_role("checkbox") for i in (0, 1)]

    # Foundry applies the band: the page shows both ticked, "applied in Foundry", the damage dealt
    next_dice(page, (5, 10), (50, 100))  # 1d10+4 = 9 on the body
    apply_picking(page, "Soldier 1")
    page.wait_for_function(APPLIED)
    for box in boxes:
        expect(box).to_be_checked()
        expect(box).to_be_disabled()
    expect(items.nth(0)).to_contain_text("applied in Foundry")
    expect(items.nth(0).locator("output")).to_have_text("Soldier 1: 9 Damage (1d10+4)")

    # Undo in Foundry: both unticked on the page
    click_in_chat(page, "undo")
    page.wait_for_function(UNDONE)
    for box in boxes:
        expect(box).not_to_be_checked()
        expect(box).to_be_enabled()

    # the page ticks the Advantage off: the Influence card shows it done
    boxes[1].check()
    page.wait_for_function(
        f"Object.values({APP}.client.states.get('ambush').foundry.marks)[0]?.['1']?.by === 'web'"
    )
    page.evaluate("StandIn.chatLog(['gm1'])")
    expect(page.locator(CARD).locator(".bb-fight-marks li")).to_have_text(
        ["Done on the GM's page: Advantage"]
    )

    # Foundry's Apply now leaves the Advantage out (not twice) and applies the damage
    next_dice(page, (5, 10), (50, 100))
    apply_picking(page, "Soldier 1")
    page.wait_for_function(f"{LIVE_FIGHT} === 1")
    assert [fighters(page)[t]["advantage"] for t in ("tok3", "tok4")] == [1, 0]
    expect(boxes[0]).to_be_checked()
    expect(items.nth(0)).to_contain_text("applied in Foundry")

    # across a reload of both: the same list on each side
    web.reload()
    web.wait_for_selector('html[data-live-battle="ambush"]', timeout=60_000)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=15_000)
    expect(boxes[0]).to_be_checked()
    expect(boxes[1]).to_be_checked()
    expect(items.nth(0)).to_contain_text("applied in Foundry")
    page.wait_for_function(
        f"Object.values({APP}.client?.states.get('ambush')?.foundry.marks ?? {{}})[0]?.['0']"
    )
    page.evaluate("StandIn.chatLog(['gm1'])")
    expect(page.locator(CARD).locator(".bb-fight-marks li")).to_have_text(
        [
            "Applied in Foundry: Damage: Soldier 1: 9 Damage (1d10+4)",
            "Done on the GM's page: Advantage",
        ]
    )

    # Undo in Foundry after the reload: its damage unticked on the page, the page's tick stays
    click_in_chat(page, "undo")
    page.wait_for_function(f"{LIVE_FIGHT} === 0")
    expect(boxes[0]).not_to_be_checked()
    expect(boxes[1]).to_be_checked()
    context.close()
