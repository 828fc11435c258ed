"""What the GM types and what the panel reads back (1280×800): a share however a GM writes a
half, a typo refused with nothing sent, the round by strength lost, and the imported default
Influence table read for the side that rolled. Real module files on the stand-in page, the
real bridge, Chromium."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from foundry_steps import Open, connected, record, set_up_fight
from playwright.sync_api import Locator, Page, WebSocket, expect

pytestmark = pytest.mark.timeout(180)

SCREEN = {"width": 1280, "height": 800}
APP = "game.modules.get('background-battle').api.app"


def gm_view(page: Page) -> dict[str, Any]:
    return page.evaluate(f"structuredClone({APP}.state.view)")


def events(page: Page, kind: str) -> list[dict[str, Any]]:
    return [e for entry in gm_view(page)["log"] for e in entry["events"] if e["type"] == kind]


def watch_frames(page: Page, bridge: Any) -> list[str]:
    """Records the frames the page sends to the bridge, as Chromium saw them leave."""
    sent: list[str] = []

    def on_socket(ws: WebSocket) -> None:
        if ws.url.startswith(bridge.url):
            ws.on("framesent", lambda payload: sent.append(str(payload)))

    page.on("websocket", on_socket)
    return sent


def fighting(page: Page, open_foundry: Open, **options: Any) -> Locator:
    page.set_viewport_size(SCREEN)
    panel = open_foundry(page, **options)
    connected(panel)
    set_up_fight(page, panel)
    return panel


def last_warning(page: Page) -> Locator:
    return page.locator("#notifications .warning").last


def text_of(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


@pytest.mark.parametrize("typed", ["0,5", "50%", "50 %"])
def test_a_half_fleeing_however_it_is_typed_ends_the_battle_with_half_fleeing(
    page: Page, open_foundry: Open, bridge: Any, typed: str
) -> None:
    panel = fighting(page, open_foundry)
    panel.locator("[name=fleeing]").fill(typed)
    panel.locator("[data-action=pcsWon]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    (won,) = events(page, "pcs_won")
    # the core read one half: half of the enemies' 60 flees, the other 30 fight the last stand
    assert won["fleeing"] == "1/2"
    assert (won["enemy_strength"], won["fighting_strength"]) == (60, 30)
    expect(panel.locator(".bb-result")).to_contain_text("Enemies fleeing 1/2")
    # the hands go on to Apply
    expect(panel.locator("[data-action=applyAll]")).to_be_focused()


def test_a_typo_is_refused_naming_the_field_and_nothing_reaches_the_bridge_or_chat(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    sent = watch_frames(page, bridge)
    panel = fighting(page, open_foundry)
    page.wait_for_function("StandIn.record.chat.some(c => c.content.includes('The battle begins'))")
    version = gm_view(page)["version"]
    commands, cards = len([f for f in sent if '"command"' in f]), len(record(page, "chat"))
    share = "Enemies fleeing: a share from 0 to 1, e.g. 1/2, 0.5, 0,5 or 50%"
    d100 = "a whole number from 1 to 100, e.g. 42"
    refusals = [
        ("fleeing", "abc", "pcsWon", share),
        ("fleeing", "150%", "pcsWon", share),
        ("rollAllies", "abc", "roundRolls", f"Allies' d100: {d100}"),
        ("rollAllies", "4,5", "roundRolls", f"Allies' d100: {d100}"),
        ("leaderSl", "", "leader", "SL is required, e.g. 2"),
        ("influenceRoll", "0", "influence", f"d100 (empty: roll): {d100}"),
    ]
    panel.locator("[name=rollEnemies]").fill("50")
    for name, typed, action, words in refusals:
        field = panel.locator(f"[name={name}]")
        field.fill(typed)
        panel.locator(f"[data-action={action}]").click()
        expect(last_warning(page)).to_have_text(words)
        # the field keeps what was typed, and the caret is back in it
        expect(field).to_have_value(typed)
        expect(field).to_be_focused()
        field.fill("")
    # the bridge received nothing (a later command shows the socket was live all along)
    assert len([f for f in sent if '"command"' in f]) == commands
    assert gm_view(page)["version"] == version
    assert len(record(page, "chat")) == cards
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    panel.locator("[name=rollAllies]").fill("50")
    panel.locator("[data-action=roundRolls]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")
    assert len([f for f in sent if '"command"' in f]) == commands + 1


def test_a_round_by_strength_lost_counts_as_a_round_on_its_card_and_the_chart(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = fighting(page, open_foundry)
    for round_ in (1, 2):
        panel.locator("[name=rollAllies]").fill("5")
        panel.locator("[name=rollEnemies]").fill("95")
        panel.locator("[data-action=roundRolls]").click()
        expect(panel.locator(".bb-phase")).to_have_attribute("data-round", str(round_))
    before = gm_view(page)["sides"]["enemies"]["strength"]
    # both blank: refused, nothing sent
    panel.locator("[data-action=roundLost]").click()
    expect(last_warning(page)).to_have_text("Type what at least one side lost (a blank reads 0)")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "2")
    # the allies' blank reads 0
    panel.locator("[name=lostEnemies]").fill("9")
    panel.locator("[name=lostEnemies]").press("Enter")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "3")
    (*_, third) = events(page, "round_resolved")
    lost = {"allies": 0, "enemies": 9}
    assert (third["mode"], third["round"], third["lost"]) == ("lost", 3, lost)
    result = panel.locator(".bb-result")
    expect(result).to_contain_text("Round 3: strength lost typed in")
    expect(result.locator(".bb-result-line", has_text="Enemies")).to_contain_text(
        f"strength {before} → {before - 9} (lost 9)"
    )
    expect(panel.locator(".bb-phase")).to_contain_text("3 rounds played")
    expect(panel.locator("[name=lostEnemies]")).to_have_value("")
    expect(panel.locator("[name=lostAllies]")).to_be_focused()
    page.wait_for_function("StandIn.record.chat.some(c => c.content.includes('Round 3'))")
    assert not any("strength set" in c["content"] for c in record(page, "chat"))
    # the end card's chart goes on to round 3, with the strength the round left
    panel.locator("[data-action=endBattle]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    history = page.evaluate(
        """async () => (await import('/foundry-module/client/battle-story.mjs'))
             .strengthHistory(game.modules.get('background-battle').api.app.state.view)"""
    )
    assert [p["round"] for p in history] == [0, 1, 2, 3]
    assert history[-1]["enemies"] == before - 9
    page.wait_for_function(
        "StandIn.record.chat.some(c => c.content.includes('The battle is over'))"
    )
    end_card = next(c for c in record(page, "chat") if "The battle is over" in c["content"])
    # the allies' row of bars: the start and 3 rounds (strength-chart.mjs)
    allies = re.search(r'<div class="bb-line bb-allies"[^>]*>(.*?)</div>', end_card["content"])
    assert allies is not None
    assert re.findall(r'class="bb-bar" data-round="(\d+)"', allies.group(1)) == ["0", "1", "2", "3"]


@pytest.mark.parametrize("side", ["allies", "enemies"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_imported_default_table_reads_like_the_cores_for_the_side_that_rolled(
    page: Page, open_foundry: Open, bridge: Any, side: str, lang: str
) -> None:
    panel = fighting(page, open_foundry, lang=lang)
    panel.locator("[data-action=importTable]").click()
    table = panel.locator("[name=influenceTable]")
    expect(table.locator("option")).to_have_count(2)
    imported = table.locator("option").nth(1).get_attribute("value")
    expect(table).to_have_value(imported or "")
    panel.locator("[name=influenceSide]").select_option(side)
    panel.locator("[name=influenceRoll]").fill("50")
    panel.locator("[data-action=influence]").click()
    result = panel.locator(".bb-result")
    expect(result).to_have_attribute("data-step", "influence_rolled")
    (rolled,) = events(page, "influence_rolled")
    reading = rolled["band"]["effect"][lang]  # the core's, read for the side that rolled
    assert "{" not in reading
    expect(result).to_contain_text(reading)
    assert "{" not in result.inner_text()
    # the GM's card (whispered when the player view hides the total) reads the same
    page.wait_for_function(
        """r => StandIn.record.chat.some(c => {
             const card = document.createElement('div');
             card.innerHTML = c.content;
             return card.textContent.includes(r);
           })""",
        arg=reading,
    )
    card = next(c for c in record(page, "chat") if reading in text_of(c["content"]))
    assert "{" not in text_of(card["content"])
    assert text_of(card["content"]).count(reading) == 1  # once, not as name and description


def test_a_tie_on_sl_0_reads_plus_0_minus_0_and_why_on_the_panel_and_its_card(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    """Issue 27: 30 vs 35 at strength 30: both SL 0, the allies passed (+0), the enemies failed
    (−0); the panel's result and the round's card say so, and why the allies won (the GM shows
    the players every number here: with a side hidden, its SL and the reason are "?" on the
    public card, as the player view has them)."""
    panel = fighting(page, open_foundry)
    page.evaluate(f"{APP}.command({{type: 'set_hidden', hidden: []}})")
    page.wait_for_function(f"{APP}.state.view.hidden.length === 0")
    for side in ("allies", "enemies"):
        page.evaluate(f"{APP}.command({{type: 'set_strength', side: '{side}', strength: 30}})")
        page.wait_for_function(f"{APP}.state.view.sides.{side}.strength === 30")
    panel.locator("[name=rollAllies]").fill("30")
    panel.locator("[name=rollEnemies]").fill("35")
    panel.locator("[data-action=roundRolls]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")
    (round_,) = events(page, "round_resolved")
    assert (round_["winner"], round_["decided_by"]) == ("allies", "success")
    result = panel.locator(".bb-result")
    expect(result).to_contain_text("Round 1: Allies won")
    expect(result.locator(".bb-result-line", has_text="Allies:")).to_contain_text(
        "d100 30 against 30, SL +0"
    )
    expect(result.locator(".bb-result-line", has_text="Enemies:")).to_contain_text(
        "d100 35 against 30, SL −0"
    )
    expect(result).to_contain_text("equal SL: a success beats a failure")
    page.wait_for_function("StandIn.record.chat.some(c => c.content.includes('Round 1'))")
    card = next(c for c in record(page, "chat") if "Round 1" in c["content"])
    words = text_of(card["content"])
    assert "SL +0" in words and "SL −0" in words, words
    assert "a success beats a failure" in words, words
