"""The module against the stand-in's real behaviours of Foundry and WFRP4e (docs/foundry.md,
"How close the stand-in is"): the system's own condition rules, actors shared by linked
tokens, status ids a system does not know, the defeated overlay, render errors, drawn table
rows and HTML descriptions, the settings window. Battles are made and ended by a GM client of
the real bridge (tests/support/bridge_gm.py); the module applies them in Chromium."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from bridge_gm import BridgeGM, lost_battle, started_battle
from foundry_steps import GENERATIONS
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.timeout(180)

Open = Callable[..., Locator]
ALLIES = [f"Scene.scene1.Token.tok{i}" for i in (1, 2, 3, 4)]
# four dwarves lose: 1 killed, 2 wounded, 1 fit (checked in each test)
UNITS = {
    "dwarves": ("allies", 4, 40, ALLIES),
    "orcs": ("enemies", 10, 60, ["Scene.scene1.Token.tok5"]),
}


def tokens(page: Page) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in page.evaluate("StandIn.tokens()")}


def shown(page: Page) -> dict[str, Any]:
    """Every token's name, statuses, overlays and condition values."""
    return {
        i: (t["name"], t["statuses"], t["overlay"], t["values"]) for i, t in tokens(page).items()
    }


def record(page: Page, what: str) -> Any:
    return page.evaluate(f"structuredClone(StandIn.record.{what})")


def ready(page: Page, open_foundry: Open, gm: BridgeGM, **options: Any) -> Locator:
    """The battle `ambush` lost by the dwarves, and a GM's world showing it, connected."""
    assert lost_battle(gm, "ambush", UNITS)["dwarves"] == {
        "fighters": 4,
        "killed": 1,
        "wounded": 2,
        "fit": 1,
    }
    panel = open_foundry(page, battle="ambush", tokens=5, **options)
    expect(panel.locator(".bb-status")).to_have_attribute("data-state", "open")
    expect(panel.locator(".bb-unit[data-unit=dwarves]")).to_be_visible()
    return panel


def apply_dwarves(page: Page, gm: BridgeGM) -> None:
    gm.request("request_casualties", battle="ambush", unit="dwarves")


@pytest.mark.parametrize("generation", GENERATIONS)
def test_an_unknown_status_id_changes_nothing_and_names_the_token(
    page: Page, open_foundry: Open, gm: BridgeGM, generation: int
) -> None:
    # a system whose CONFIG.statusEffects has no "unconscious": core's toggleStatusEffect throws
    ready(page, open_foundry, gm, statuses="dead,prone,blind")
    before = shown(page)
    apply_dwarves(page, gm)
    notice = page.locator("#notifications .error")
    expect(notice).to_contain_text('no status "unconscious"')
    expect(notice).to_contain_text("Soldier 2")
    assert shown(page) == before
    assert record(page, "updates") == []
    assert record(page, "conditions") == []
    assert gm.state("ambush")["foundry"]["applied"] == {}


@pytest.mark.parametrize("generation", GENERATIONS)
def test_dead_is_the_systems_defeated_status_shown_as_the_overlay(
    page: Page, open_foundry: Open, gm: BridgeGM, generation: int
) -> None:
    panel = ready(
        page, open_foundry, gm, defeated="defeated", statuses="defeated,unconscious,prone"
    )
    before = shown(page)
    apply_dwarves(page, gm)
    dwarves = panel.locator(".bb-unit[data-unit=dwarves]")
    expect(dwarves.locator(".bb-applied")).to_be_visible()
    fallen = [t for t in tokens(page).values() if "defeated" in t["statuses"]]
    assert [t["overlay"] for t in fallen] == [["defeated"]]
    assert not [t for t in tokens(page).values() if "dead" in t["statuses"]]
    dwarves.locator("[data-action=undoApply]").click()
    expect(dwarves.locator(".bb-applied")).to_have_count(0)
    assert shown(page) == before


@pytest.mark.parametrize("generation", GENERATIONS)
def test_each_generation_of_the_standin_is_as_strict_as_that_foundry(
    page: Page, open_foundry: Open, generation: int
) -> None:
    open_foundry(page, panel=False)
    v14 = generation >= 14
    seen = page.evaluate(
        """async () => {
             const effects = CONFIG.statusEffects;
             const tok = canvas.scene.tokens.get("tok1");
             const flag = "flags.background-battle";
             const update = (change) =>
               canvas.scene.updateEmbeddedDocuments("Token", [{_id: "tok1", ...change}]);
             await update({[`${flag}.a`]: 1, [`${flag}.b`]: 2});
             const operators = foundry.data.operators;
             if (operators) await update({[`${flag}.a`]: operators.ForcedDeletion.create()});
             const afterOperator = Object.keys(tok.flags["background-battle"]).sort();
             await update({[`${flag}.-=b`]: null});
             return {
               generation: game.release.generation,
               array: Array.isArray(effects),
               some: typeof effects.some,
               byId: Array.isArray(effects) ? null : effects.dead?.id,
               operators: Boolean(operators),
               del: typeof globalThis._del,
               afterOperator,
               afterLegacy: Object.keys(tok.flags["background-battle"]).sort(),
               deprecations: StandIn.record.deprecations.length,
             };
           }"""
    )
    assert seen == {
        "generation": generation,
        # api v13 and v14 `CONFIG.statusEffects`: an array, then an object keyed by id
        "array": not v14,
        "some": "undefined" if v14 else "function",
        "byId": "dead" if v14 else None,
        # api v14 `foundry.data.operators` (and the `_del` shorthand); none in v13
        "operators": v14,
        "del": "object" if v14 else "undefined",
        "afterOperator": ["b"] if v14 else ["a", "b"],
        # `-=key` removes the key in both; v14 logs that the syntax is deprecated
        "afterLegacy": [] if v14 else ["a"],
        "deprecations": 1 if v14 else 0,
    }
    # a deprecation fails a test like an error: this one was on purpose
    assert [e.split(":")[0] for e in open_foundry.errors] == (
        ["stand-in deprecation"] if v14 else []
    )
    open_foundry.errors.clear()


@pytest.mark.parametrize("generation", GENERATIONS)
def test_each_generation_says_who_sees_a_roll_its_own_way(
    page: Page, open_foundry: Open, generation: int
) -> None:
    open_foundry(page, panel=False)
    v14 = generation >= 14
    seen = page.evaluate(
        """async () => {
             const roll = async (options) => {
               const message = await new Roll("1d100").toMessage({}, options);
               return [message.whisper.sort(), message.blind];
             };
             return {
               modes: Object.keys(CONFIG.ChatMessage?.modes ?? {}).sort(),
               applyMode: typeof ChatMessage.applyMode,
               gm: await roll({messageMode: "gm"}),
               blind: await roll({messageMode: "blind"}),
               gmroll: await roll({rollMode: "gmroll"}),
               deprecations: StandIn.record.deprecations.length,
             };
           }"""
    )
    gms = [["gm1", "gm2"], False]
    assert seen == {
        # api v14 `CONFIG.ChatMessage.modes`; none in v13
        "modes": ["blind", "gm", "ic", "public", "self"] if v14 else [],
        "applyMode": "function" if v14 else "undefined",
        # v14 applies the message mode; v13 knows no `messageMode`: the default, public
        "gm": gms if v14 else [[], False],
        "blind": [["gm1", "gm2"], True] if v14 else [[], False],
        # a v13 roll mode: v13's own; v14 maps it, with a deprecation warning
        "gmroll": gms,
        "deprecations": 1 if v14 else 0,
    }
    assert [e.split(":")[0] for e in open_foundry.errors] == (
        ["stand-in deprecation"] if v14 else []
    )
    open_foundry.errors.clear()


def test_tokens_of_one_linked_actor_count_together_and_undo_touches_only_apply(
    page: Page, open_foundry: Open, gm: BridgeGM
) -> None:
    panel = ready(page, open_foundry, gm, system="wfrp4e")
    # tok2 and tok3 are one linked actor (a WFRP4e character is always linked); it is fatigued
    page.evaluate("StandIn.shareActor(['tok2', 'tok3'], 'Hero')")
    page.evaluate("StandIn.setStatus('tok2', 'fatigued', true)")
    before = shown(page)
    apply_dwarves(page, gm)
    dwarves = panel.locator(".bb-unit[data-unit=dwarves]")
    expect(dwarves.locator(".bb-applied")).to_be_visible()
    expect(page.locator("#notifications")).to_contain_text("Soldier 2, Soldier 3 share one actor")

    now = tokens(page)
    # the two singles take a fate each; the shared actor holds the other two fighters as counts
    # (1 wounded, 1 fit: someone stands, so the actor shows no fate) and is called never
    assert "dead" in now["tok1"]["statuses"]
    assert {"unconscious", "prone"} <= set(now["tok4"]["statuses"])
    assert now["tok2"]["statuses"] == now["tok3"]["statuses"] == ["fatigued"]
    assert (now["tok2"]["name"], now["tok3"]["name"]) == ("Soldier 2 (1/2)", "Soldier 3 (1/2)")
    calls = record(page, "conditions")
    assert sorted((c["actor"], c["id"]) for c in calls) == sorted(
        [(now["tok1"]["actor"], "dead"), (now["tok4"]["actor"], "unconscious")]
    )
    chat = record(page, "chat")[-1]["content"]
    assert "Soldier 2 (1/2), Soldier 3 (1/2) — one actor: 0 killed, 1 wounded, 1 fit of 2" in chat

    # the GM adds bleeding to the wounded dwarf after Apply: Undo leaves it, takes back the rest
    page.evaluate("StandIn.setStatus('tok4', 'bleeding', true)")
    dwarves.locator("[data-action=undoApply]").click()
    expect(dwarves.locator(".bb-applied")).to_have_count(0)
    after = shown(page)
    assert after["tok4"][1] == ["bleeding"]
    after["tok4"] = before["tok4"]
    assert after == before


def test_a_panel_that_fails_to_render_closes_and_fails_the_test(
    page: Page, open_foundry: Any, bridge: Any
) -> None:
    panel = open_foundry(page)
    expect(panel).to_be_visible()
    error = page.evaluate(
        """async () => {
             const app = foundry.applications.instances.get("background-battle-panel");
             app._prepareContext = async () => { throw new Error("broken panel"); };
             try { await app.render(); } catch (e) { return e.message; }
             return "rendered";
           }"""
    )
    assert error == "broken panel"  # render() rejects, as ApplicationV2's does
    expect(page.locator("#background-battle-panel")).to_have_count(0)  # and the window closed
    caught = open_foundry.errors
    assert [e for e in caught if "failed to render: broken panel" in e], caught
    caught.clear()  # this test caused it on purpose; any other test with it fails


def test_influence_reads_a_drawn_row_and_shows_its_html(
    page: Page, open_foundry: Open, gm: BridgeGM
) -> None:
    started_battle(gm, "ambush", {"dwarves": ("allies", 4, 40, []), "orcs": ("enemies", 4, 40, [])})
    page_panel = open_foundry(page, battle="ambush", panel=False)
    page.evaluate(
        """StandIn.addTable({_id: "infl", name: "My influence", formula: "1d100",
             replacement: false, results: [{range: [-1000, 1000], name: "Help arrives",
             drawn: true, description: "<p>The <em>reeve</em> sends @UUID[Actor.abc]{Captain}</p>"
           }]})"""
    )
    page.click("button[data-tool='background-battle']")
    expect(page_panel.locator(".bb-status")).to_have_attribute("data-state", "open")
    page_panel.locator("[name=influenceTable]").select_option("infl")
    page_panel.locator("[name=influenceSide]").select_option("allies")
    page_panel.locator("[name=influenceRoll]").fill("50")
    page_panel.locator("[data-action=influence]").click()
    # the players' card hides the total (the enemies' strength is hidden), the GMs' reads it
    page.wait_for_function("StandIn.record.chat.some(c => c.content.includes('Help arrives'))")
    card = next(c["content"] for c in record(page, "chat") if "Help arrives" in c["content"])
    assert "<strong>Help arrives</strong>" in card
    assert (
        '<p>The <em>reeve</em> sends <a class="content-link" data-uuid="Actor.abc">Captain</a></p>'
        in card
    )
    assert "&lt;" not in card
    assert record(page, "enriched")[0]["content"].startswith("<p>The <em>reeve</em>")


def test_players_see_only_the_settings_that_help_them(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    open_foundry(page, user="player1", gm_token=None, panel=False)
    keys = [s["key"] for s in page.evaluate("StandIn.settingsWindow()")]
    assert keys == ["background-battle.debug"]


def test_a_gm_enters_the_gm_token_in_the_gm_menu(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = open_foundry(page, gm_token=None, player_token=None)
    expect(panel.locator(".bb-status-text")).to_contain_text("GM token")
    window = page.evaluate("StandIn.settingsWindow()")
    assert "background-battle.gmTokenMenu" in [s["key"] for s in window]
    assert "background-battle.gmToken" not in [s["key"] for s in window]
    page.evaluate("StandIn.openMenu('background-battle.gmTokenMenu')")
    page.locator("#background-battle-gm-menu [name=gmToken]").fill(bridge.gm_token)
    page.locator("#background-battle-gm-menu [data-action=save]").click()
    expect(page.locator("#background-battle-gm-menu")).to_have_count(0)
    expect(panel.locator(".bb-status-text")).to_have_text("Connected (GM)")
