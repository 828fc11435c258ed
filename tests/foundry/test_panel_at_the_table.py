"""The panel at the table (1280×800): results where the GM clicked and in chat, a compact panel,
one command per click, typing that survives updates, nothing hidden reaching players, and both
sides from the scene. Real module files on the stand-in page, the real bridge, Chromium."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from foundry_steps import (
    Open,
    bridge_barrier,
    connected,
    create_battle,
    new_unit,
    record,
    remote_player,
    set_up_fight,
    shown_numbers,
    world_tokens,
)
from playwright.sync_api import Browser, Locator, Page, expect

pytestmark = pytest.mark.timeout(180)


SCREEN = {"width": 1280, "height": 800}
APP = "game.modules.get('background-battle').api.app"


def at_the_table(page: Page, open_foundry: Open, *, fight: bool = False, **options: Any) -> Locator:
    """The GM's panel on a 1280×800 screen, connected; with `fight`, a battle running."""
    page.set_viewport_size(SCREEN)
    panel = open_foundry(page, **options)
    connected(panel)
    if fight:
        set_up_fight(page, panel)
    return panel


def gm_view(page: Page) -> dict[str, Any]:
    return page.evaluate(f"structuredClone({APP}.state.view)")


def warnings(page: Page) -> list[str]:
    return [n["text"] for n in record(page, "notices") if n["level"] != "info"]


def rounds_played(page: Page) -> int:
    return sum(
        1
        for entry in gm_view(page)["log"]
        for event in entry["events"]
        if event["type"] == "round_resolved"
    )


def fully_visible(page: Page, locator: Locator) -> bool:
    """Inside the screen and inside the panel's visible (unscrolled) content."""
    return bool(
        locator.evaluate(
            """el => {
                 const box = el.getBoundingClientRect();
                 const content = el.closest('.window-content').getBoundingClientRect();
                 return box.top >= content.top && box.bottom <= content.bottom
                   && box.bottom <= window.innerHeight && box.right <= window.innerWidth
                   && el.closest('.window-content').scrollTop === 0;
               }"""
        )
    )


def test_a_round_shows_its_result_where_the_gm_clicked_and_in_chat(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = at_the_table(page, open_foundry, fight=True)
    panel.locator("[name=leaderSide]").select_option("allies")
    panel.locator("[name=leaderSl]").fill("3")
    panel.locator("[data-action=leader]").click()
    expect(panel.locator(".bb-result")).to_have_attribute("data-step", "leader_commanded")
    panel.locator("[data-action=roundAuto]").click()

    result = panel.locator(".bb-result")
    expect(result).to_have_attribute("data-step", "round_resolved")
    expect(result).to_have_attribute("data-own", "1")
    event = gm_view(page)["log"][-1]["events"][0]
    rolls, sl, lost, after = event["rolls"], event["sl"], event["lost"], event["strength"]
    expect(result).to_contain_text("Round 1")
    for side, name in (("allies", "Allies"), ("enemies", "Enemies")):
        before = event["strength_before"][side]
        line = result.locator(".bb-result-line", has_text=name)
        expect(line).to_contain_text(f"d100 {rolls[side]} against {event['targets'][side]}")
        # the sign from the test's result: +0 passed, −0 failed (a true minus)
        sign = "+" if sl[side] > 0 or (sl[side] == 0 and event["success"][side]) else "−"
        expect(line).to_contain_text(f"SL {sign}{abs(sl[side])}")
        expect(line).to_contain_text(f"strength {before} → {after[side]} (lost {lost[side]})")
    # the leader's bonus went into the allies' test, with its working
    allies_line = result.locator(".bb-result-line", has_text="Allies")
    expect(allies_line).to_contain_text("30 + leader's bonus")
    if event["winner"]:
        expect(result).to_contain_text(f"{event['winner'].capitalize()} won")
    # the phase says how many rounds were played (not "Round 1" for the round just played)
    expect(panel.locator(".bb-phase")).to_contain_text("1 round played")
    assert fully_visible(page, result)

    # and a chat card of the round exists (public: the player view, enemies' numbers hidden)
    page.wait_for_function(
        "StandIn.record.chat.some(c => c.content.includes('Round 1'))", timeout=20_000
    )
    card = next(c for c in record(page, "chat") if "Round 1" in c["content"])
    assert card["whisper"] == []  # public
    assert f"d100 {rolls['allies']}" in card["content"]
    # the enemies' roll and SL would give their strength away: the player view hides them
    assert "Enemies: d100 ? against ?, SL ?" in card["content"]


def test_the_fighting_panel_in_compact_mode_is_small_and_remembered(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = at_the_table(page, open_foundry, fight=True)
    full = panel.bounding_box()
    assert full is not None
    panel.locator("[data-action=toggleCompact]").click()
    expect(panel.locator(".bb-compact")).to_have_count(1)
    expect(panel.locator(".bb-side")).to_have_count(2)
    expect(panel.locator("[data-action=roundAuto]")).to_be_visible()
    box = panel.bounding_box()
    assert box is not None and box["height"] <= 360, box
    panel.locator("[data-action=roundAuto]").click()
    expect(panel.locator(".bb-result")).to_have_attribute("data-step", "round_resolved")
    box = panel.bounding_box()
    assert box is not None and box["height"] <= 360, box

    # where the GM put it and how wide: kept (client setting) for the next opening
    page.evaluate(
        "foundry.applications.instances.get('background-battle-panel')"
        ".setPosition({left: 700, top: 120, width: 420})"
    )
    page.wait_for_function("game.settings.get('background-battle', 'panelPosition').left === 700")
    page.click("button[data-tool='background-battle']")
    page.click("button[data-tool='background-battle']")
    reopened = page.locator("#background-battle-panel")
    expect(reopened.locator(".bb-compact")).to_have_count(1)
    box = reopened.bounding_box()
    assert box is not None and (box["x"], box["y"], box["width"]) == (700, 120, 420)


def test_a_double_click_rolls_once_with_no_warning(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = at_the_table(page, open_foundry, fight=True)
    panel.locator("[data-action=roundAuto]").dblclick()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")
    assert bridge_barrier(page) == "wrong_phase"
    assert rounds_played(page) == 1
    assert warnings(page) == []
    # a second click while the first command is on its way does nothing either
    panel.evaluate(
        "el => { const b = el.querySelector('[data-action=roundAuto]'); b.click(); b.click(); }"
    )
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "2")
    assert bridge_barrier(page) == "wrong_phase"
    assert rounds_played(page) == 2
    assert warnings(page) == []
    # typed rolls: Enter in the field plays the round, once (the allies win it, so the battle
    # goes on whatever the two rolled rounds did to them)
    panel.locator("[name=rollAllies]").fill("5")
    panel.locator("[name=rollEnemies]").fill("95")
    panel.locator("[name=rollEnemies]").press("Enter")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "3")
    expect(panel.locator("[name=rollAllies]")).to_have_value("")
    assert rounds_played(page) == 3
    assert warnings(page) == []
    # taking the round back says so, in the panel and in chat
    panel.locator("[data-action=undo]").click()
    expect(panel.locator(".bb-result")).to_have_attribute("data-step", "undone")
    expect(panel.locator(".bb-result")).to_contain_text("Taken back: Round 3")
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "2")
    page.wait_for_function(
        "StandIn.record.chat.some(c => c.content.includes('Taken back: Round 3'))"
    )


def test_focus_and_typing_survive_another_gms_command(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = at_the_table(page, open_foundry, fight=True)
    field = panel.locator("[name=rollAllies]")
    field.click()
    field.type("4")

    second = browser.new_context().new_page()
    other = open_foundry(second, user="gm2", active="gm1", battle="ambush")
    connected(other)
    other.locator("[data-action=roundAuto]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-round", "1")
    assert page.evaluate("document.activeElement.name") == "rollAllies"
    expect(field).to_have_value("4")
    page.keyboard.type("2")
    expect(field).to_have_value("42")
    assert warnings(page) == []
    second.context.close()


def numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"-?\d+", text)}


def card_text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def allowed_numbers(view: dict[str, Any]) -> set[int]:
    """Every number in the player view, and the strength before each round (after + lost)."""
    allowed = shown_numbers(view)
    for entry in view["log"]:
        for event in entry["events"]:
            if event["type"] != "round_resolved":
                continue
            for side in ("allies", "enemies"):
                after, lost = event["strength"][side], event["lost"][side]
                if after is not None and lost is not None:
                    allowed.add(after + lost)
    return allowed


def test_a_player_sees_no_number_the_player_view_hides(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, foundry_server: Any
) -> None:
    panel = at_the_table(page, open_foundry, server=foundry_server.url)
    create_battle(panel, "ambush")
    new_unit(page, panel, ["tok1", "tok2", "tok3"], name="Dwarves", side="allies", strength=300)
    new_unit(page, panel, ["tok4"], name="Orcs", side="enemies", strength=333, head_count=13)
    panel.locator("[data-action=start]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    # a small change after the start: a public card of changes
    assert page.evaluate(f"{APP}.command({{type: 'rename', name: 'Ambush at the ford'}})")
    panel.locator("[name=leaderSide]").select_option("enemies")
    panel.locator("[name=leaderSl]").fill("2")
    panel.locator("[data-action=leader]").click()
    for allies, enemies in ((20, 90), (50, 50)):
        panel.locator("[name=rollAllies]").fill(str(allies))
        panel.locator("[name=rollEnemies]").fill(str(enemies))
        panel.locator("[data-action=roundRolls]").click()
        expect(panel.locator(".bb-result")).to_contain_text(f"d100 {allies}")
    panel.locator("[name=influenceSide]").select_option("enemies")
    panel.locator("[data-action=influence]").click()
    expect(panel.locator(".bb-result")).to_have_attribute("data-step", "influence_rolled")
    # the core's reading of the total, for the side that rolled, where the GM clicked
    band = gm_view(page)["log"][-1]["events"][0]["band"]
    expect(panel.locator(".bb-result")).to_contain_text(band["effect"]["en"])
    panel.locator("[data-action=endBattle]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    # the Influence side follows the winner now
    winner = gm_view(page)["winner"]
    expect(panel.locator("[name=influenceSide]")).to_have_value(winner)
    panel.locator("[data-action=applyAll]").click()
    expect(panel.locator(".bb-applied")).to_have_count(2)
    end_step = gm_view(page)["version"]
    page.wait_for_function(
        "v => game.messages.contents"
        ".some(m => m.getFlag('background-battle', 'about')?.version === v)",
        arg=end_step,
    )

    # a battle the GM prepares and has not shown to players
    page.evaluate(f"{APP}.client.command('prepared', {{type: 'create_battle'}})")
    expect(panel.locator("[name=battle] option", has_text="prepared")).to_have_count(1)
    player_page = browser.new_context().new_page()
    player = remote_player(open_foundry, player_page, foundry_server.url)
    expect(player.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    # the battle list: only the battle the GM shows to players
    expect(player.locator("[name=battle] option")).to_have_text(["—", re.compile("ambush")])
    player_view = player_page.evaluate(f"structuredClone({APP}.state.view)")
    allowed = allowed_numbers(player_view)

    seen = page.evaluate(
        """() => game.messages.contents
             .filter(m => m.visibleTo(game.users.get('player1')))
             .map(m => m.content)"""
    )
    # start (with the units), the rename, leader, two rounds, Influence, the end (and casualties)
    assert len(seen) >= 7
    assert any("The battle is now called Ambush at the ford" in card for card in seen)
    assert any("Enemies: Orcs</p>" in card for card in seen)  # the start card: no head count
    for card in seen:
        text = card_text(card)
        assert numbers(text) <= allowed, (text, numbers(text) - allowed)
        assert 333 not in numbers(text)
        assert band["effect"]["en"] not in text  # its reading would give the total away
    # the end card tells the story: the chart (the allies' line only), the casualties
    end_card = next(card for card in seen if "The battle is over" in card)
    assert "bb-line bb-allies" in end_card and "bb-line bb-enemies" not in end_card
    assert "Dwarves" in end_card and "Orcs" in end_card
    # hidden numbers really were hidden from the players' numbers
    assert 333 not in allowed and 13 not in shown_numbers(player_view["units"])
    # token names: the mob's token does not carry its hidden head count
    assert all("13" not in token["name"] for token in world_tokens(page))
    # the GM's whispered cards, if any, go to the GMs only
    gm_only = page.evaluate(
        "game.messages.contents"
        ".filter(m => !m.visibleTo(game.users.get('player1'))).map(m => m.whisper)"
    )
    assert all(sorted(w) == ["gm1", "gm2"] for w in gm_only)
    # the set-up steps (the GM's numbers) are on the GMs' card only
    set_up = page.evaluate(
        "game.messages.contents"
        ".filter(m => m.getFlag('background-battle', 'about')?.kind === 'setup')"
        ".map(m => [m.whisper, m.getFlag('background-battle', 'lines')])"
    )
    assert [sorted(whisper) for whisper, _ in set_up] == [["gm1", "gm2"]]
    assert set_up[0][1][1] == "Enemies: Orcs added (13 fighters, strength 333)"
    # the GMs got the Influence reading the players' card could not give
    gm_cards = page.evaluate(
        "game.messages.contents"
        ".filter(m => !m.visibleTo(game.users.get('player1'))).map(m => m.content)"
    )
    assert any(band["effect"]["en"] in card_text(card) for card in gm_cards)

    # Undo apply withdraws the dwarves' public casualties card
    dwarves = panel.locator(".bb-unit", has_text="Dwarves")
    dwarves.locator("[data-action=undoApply]").click()
    expect(dwarves.locator(".bb-applied")).to_have_count(0)
    withdrawn = page.evaluate(
        """game.messages.contents
             .filter(m => m.getFlag('background-battle', 'about')?.kind === 'casualties')
             .filter(m => m.content.includes('Dwarves')).length"""
    )
    assert withdrawn == 0
    assert record(page, "chatUpdates")
    player_page.context.close()


def test_both_sides_from_the_scene_in_one_confirmation(
    page: Page, open_foundry: Open, bridge: Any
) -> None:
    panel = at_the_table(page, open_foundry, tokens=0)
    page.evaluate(
        """async () => {
             const add = (id, name, actorId, actorName, disposition, dead = false) =>
               StandIn.addToken({id, name, actorId, actorName, disposition, dead});
             for (let i = 1; i <= 5; i++) await add(`d${i}`, `Dwarf ${i}`, "dw", "Rangers", 1);
             for (let i = 1; i <= 8; i++) await add(`o${i}`, "Orc", "orc", "Orc boyz", -1);
             for (let i = 1; i <= 4; i++) await add(`g${i}`, "Goblin", "gob", "Goblins", -1);
             await add("dead", "Orc", "orc", "Orc boyz", -1, true);
             await add("cow", "Cow", "cow", "Cow", 0);
           }"""
    )
    create_battle(panel, "ambush")
    panel.locator("[data-action=sceneSides]").click()
    rows = panel.locator(".bb-proposed")
    expect(rows).to_have_count(3)
    assert [
        (r.get_attribute("data-side"), r.get_attribute("data-fighters")) for r in rows.all()
    ] == [
        ("allies", "5"),
        ("enemies", "8"),
        ("enemies", "4"),
    ]
    # nothing is sent before the GM confirms; a missing strength is refused by name
    assert gm_view(page)["units"] == []
    panel.locator("[data-action=sceneConfirm]").click()
    warned = page.locator("#notifications .warning")
    for name in ("Rangers", "Orc boyz", "Goblins"):  # each missing strength at once
        expect(warned.filter(has_text=f"Strength of {name} is required")).to_have_count(1)
    assert gm_view(page)["units"] == []
    for row, strength in zip(rows.all(), (40, 48, 16), strict=True):
        row.locator("input").fill(str(strength))
    panel.locator("[data-action=sceneConfirm]").click()
    expect(panel.locator(".bb-unit")).to_have_count(3)
    units = {u["name"]: (u["side"], u["fighters"], u["strength"]) for u in gm_view(page)["units"]}
    assert units == {
        "Rangers": ("allies", 5, 40),
        "Orc boyz": ("enemies", 8, 48),
        "Goblins": ("enemies", 4, 16),
    }
    counts = panel.locator(".bb-unit-tokens")
    expect(counts).to_have_text(["5 tokens", "8 tokens", "4 tokens"])
    flags = {t["id"]: t["flags"].get("background-battle", {}) for t in world_tokens(page)}
    assert "unit" not in flags["dead"] and "unit" not in flags["cow"]
    assert len({flags[f"o{i}"]["unit"]["unit"] for i in range(1, 9)}) == 1
    # asked again, the scene has no free token left: nothing is proposed twice
    panel.locator("[data-action=sceneSides]").click()
    expect(page.locator("#notifications .warning").last).to_contain_text("No friendly or hostile")
    expect(panel.locator(".bb-proposed")).to_have_count(0)


def every_control_worded(panel: Locator) -> None:
    missing = panel.evaluate(
        """el => [...el.querySelectorAll('button, input, select, summary')]
             .filter(c => !c.dataset.tooltip).map(c => c.outerHTML)"""
    )
    assert missing == []
    assert "BACKGROUND_BATTLE." not in panel.inner_html()


def test_show_to_players_a_token_drop_and_tooltips_in_russian(
    browser: Browser, page: Page, open_foundry: Open, bridge: Any, foundry_server: Any
) -> None:
    panel = at_the_table(page, open_foundry, lang="ru", server=foundry_server.url)
    create_battle(panel, "ambush")
    dwarves = new_unit(page, panel, ["tok1"], name="Dwarves", side="allies", strength=300)
    new_unit(page, panel, ["tok4"], name="Orcs", side="enemies", strength=60, head_count=10)
    # a token dropped on a unit joins it
    page.evaluate(
        """() => {
             const row = document.querySelector('.bb-unit[data-side=allies]');
             const data = new DataTransfer();
             const token = {type: 'Token', uuid: 'Scene.scene1.Token.tok2'};
             data.setData('text/plain', JSON.stringify(token));
             const drop = {dataTransfer: data, bubbles: true, cancelable: true};
             row.dispatchEvent(new DragEvent('drop', drop));
           }"""
    )
    expect(dwarves.locator(".bb-unit-tokens")).to_have_text("2 токена")
    # every control has a tooltip, and no key is left untranslated, in every phase
    every_control_worded(panel)
    panel.locator("[data-action=start]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    every_control_worded(panel)
    expect(panel.locator("abbr[title]").first).to_have_attribute("title", re.compile("очки силы"))
    # a refusal names the field in words, never by its path, with an example; nothing is sent
    version = gm_view(page)["version"]
    panel.locator("[name=rollAllies]").fill("150")
    panel.locator("[name=rollEnemies]").fill("5")
    panel.locator("[data-action=roundRolls]").click()
    notice = page.locator("#notifications .warning").last
    expect(notice).to_have_text("к100 союзников: нужно целое число от 1 до 100, например 42")
    assert gm_view(page)["version"] == version
    # the enemies' side, shown to players with one click (set_hidden), hidden again
    enemies = panel.locator(".bb-side.bb-enemies [data-action=toggleShown]")
    expect(enemies).to_have_attribute("data-shown", "0")
    enemies.click()
    expect(enemies).to_have_attribute("data-shown", "1")
    assert gm_view(page)["hidden"] == []
    player_page = browser.new_context().new_page()
    player = open_foundry(
        player_page,
        user="player1",
        gm_token=None,
        battle="ambush",
        lang="ru",
        server=foundry_server.url,
    )
    expect(player.locator(".bb-side.bb-enemies .bb-strength b")).to_have_text("60")
    player_page.context.close()
    # the end, then compact mode: still every control worded
    panel.locator("[data-action=endBattle]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "ended")
    every_control_worded(panel)
    panel.locator("[data-action=toggleCompact]").click()
    expect(panel.locator(".bb-compact")).to_have_count(1)
    every_control_worded(panel)
