"""Live mode: the page served by the real bridge follows the bridge's battle (docs/web.md).

The bridge runs as a subprocess on 127.0.0.1 (a free port) with fixed tokens and serves the
built page; a GM page and a player page, each in its own browser context, follow one battle.
"""

from __future__ import annotations

import re

from conftest import BOOT_TIMEOUT_MS
from gm import add_unit, lost_round, side_card, start, version
from live_pages import GM_TOKEN, PLAYER_TOKEN, Bridge, open_live, wait_live, wait_version
from playwright.sync_api import BrowserContext, Page, expect


def test_a_gm_page_and_a_player_page_follow_one_battle_live(
    bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    gm_ctx, player_ctx, _ = contexts
    gm = open_live(gm_ctx, f"{bridge.url}#token={GM_TOKEN}")
    wait_live(gm)
    # The token left the address bar and is kept for this origin.
    assert "token" not in gm.url
    assert gm.evaluate("localStorage.getItem('bb.live.token.v1')") == GM_TOKEN
    expect(gm.locator("#live-role")).to_contain_text("GM")
    gm.get_by_label("New battle's name").fill("ambush")
    gm.get_by_role("button", name="Create and follow").click()
    gm.wait_for_selector('html[data-live-battle="ambush"]')
    wait_version(gm, 0)
    # A second battle of the same name: the bridge's error, worded next to the name field.
    gm.get_by_label("New battle's name").fill("ambush")
    gm.get_by_role("button", name="Create and follow").click()
    expect(gm.locator("#live-create-form .field-error")).to_contain_text("exists already")

    player = open_live(player_ctx, f"{bridge.url}#token={PLAYER_TOKEN}")
    wait_live(player)
    assert "token" not in player.url
    expect(player.locator("#live-role")).to_contain_text("read-only")
    expect(player.locator("#live-create-form")).to_be_hidden()

    # The GM sets the battle up and plays a round; each change is a bridge command.
    add_unit(gm, "allies", "Dwarves", 10, strength=30)
    add_unit(gm, "enemies", "Orcs", 12, strength=26)
    # A battle in set-up is the GM's alone: the player's page is told of none.
    assert player.get_attribute("html", "data-live-battle") is None
    start(gm)
    # Once started it is the only battle the player is told of: followed without a click.
    player.wait_for_selector('html[data-live-battle="ambush"]')
    lost_round(gm, 2, 3)
    assert version(gm) == 4
    # The GM's result card by the button, from the bridge's event and the page's own core.
    expect(gm.locator("#round-result")).to_contain_text("Round 1: strength lost typed in")
    expect(gm.locator("#round-result").get_by_text("why?")).to_be_visible()
    assert gm.evaluate("window.backgroundBattle.live.view.version") == 4

    # The player's page follows without a reload: same units, the enemies' numbers hidden.
    wait_version(player, 4)
    expect(player.locator("#battle-phase")).to_have_attribute("data-phase", "fighting")
    for page in (gm, player):
        expect(page.locator(".unit-name")).to_have_text(["Dwarves", "Orcs"])
        expect(page.locator("#log > li")).to_have_count(4)
    allies_gm = side_card(gm, "allies").locator('[data-bind="strength"]').inner_text()
    expect(side_card(player, "allies").locator('[data-bind="strength"]')).to_have_text(allies_gm)
    enemies_gm = side_card(gm, "enemies").locator('[data-bind="strength"]').inner_text()
    assert enemies_gm.isdigit()
    expect(side_card(player, "enemies").locator('[data-bind="strength"]')).to_have_text("?")
    expect(side_card(player, "enemies").locator(".unit-line")).to_contain_text("?")
    assert "null" not in player.locator("#log").inner_text()
    player_view = player.evaluate("window.backgroundBattle.live.view")
    assert player_view["sides"]["enemies"]["strength"] is None
    assert [u["fighters"] for u in player_view["units"] if u["side"] == "enemies"] == [None]

    # The odds run in the GM page's own Pyodide, on the battle rebuilt from the bridge's log.
    gm.get_by_role("button", name="Simulate the rest of the battle").click()
    # (the GM's page may still be starting its own Python: nothing else needed it so far)
    expect(gm.locator("#odds-result .bars .bar-item")).to_have_count(2, timeout=BOOT_TIMEOUT_MS)
    assert version(gm) == 4

    # The player cannot change anything: forms hidden and disabled; the bridge refuses anyway.
    expect(player.locator("#round-form")).to_be_hidden()
    expect(player.locator("#undo-form")).to_be_hidden()
    assert player.evaluate(
        "[...document.querySelectorAll('#battle form[data-command]')]"
        ".every(f => [...f.elements].every(e => e.disabled))"
    )
    refused = player.evaluate("window.backgroundBattle.live.command({type: 'undo'})")
    assert refused["code"] == "forbidden"
    assert version(player) == 4 and version(gm) == 4

    # A refused GM command shows the bridge's (core's) error next to its field, nothing changes.
    detach = gm.locator("#detach-form")
    detach.locator('input[name="fighters"]').fill("99")
    detach.get_by_role("button", name="Move them").click()
    expect(
        detach.locator(".field-error, .form-error").filter(has_text=re.compile(r"\S"))
    ).to_have_count(1)
    assert version(gm) == 4

    # The bridge goes away: both pages say so and keep the last state on screen.
    bridge.stop()
    for page in (gm, player):
        page.wait_for_selector('html[data-live="offline"], html[data-live="reconnecting"]')
        expect(page.locator("#live-status")).to_contain_text(re.compile("bridge"))
        expect(page.locator(".unit-name")).to_have_text(["Dwarves", "Orcs"])
    # A change while offline is refused with a clear message; nothing is applied locally.
    gm.locator("#round-form").get_by_role("button", name="Resolve the round").click()
    expect(gm.locator("#round-form .form-error")).to_contain_text("Not connected to the bridge")
    assert version(gm) == 4
    # It comes back (same port, same data) and changes happen before the pages reconnect.
    bridge.start()
    ack = bridge.command(
        "ambush", {"type": "resolve_round", "mode": "lost", "lost": {"allies": 1, "enemies": 1}}
    )
    assert ack["type"] == "ack" and ack["version"] == 5
    for page in (gm, player):
        wait_live(page)
        wait_version(page, 5)
        expect(page.locator("#log > li")).to_have_count(5)
    lost_round(gm, 2, 3)
    wait_version(player, 6)
    expect(player.locator("#log > li")).to_have_count(6)

    # Back to local mode: the browser's own battle, run by the local core, forms enabled.
    gm.get_by_role("button", name="Back to local mode").click()
    gm.wait_for_selector('html[data-live="local"]')
    gm.wait_for_selector('html[data-ready="true"]')
    assert gm.get_attribute("html", "data-mode") is None
    expect(gm.locator("#battle-name")).to_have_text("battle")
    add_unit(gm, "allies", "Locals", 5, strength=10)
    expect(gm.locator(".unit-name")).to_have_text(["Locals"])
    assert bridge.command("ambush", {"type": "rename", "name": "still there"})["version"] == 7
    for page in (gm, player):
        assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_wrong_token_says_so_and_the_page_stays_local(
    bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    page = open_live(contexts[2], f"{bridge.url}#token=not-the-right-token")
    page.wait_for_selector('html[data-live="bad_token"]')
    expect(page.locator("#live-token-form")).to_contain_text("This token is wrong")
    assert page.evaluate("localStorage.getItem('bb.live.token.v1')") is None
    expect(page.locator("#live-status")).to_have_text("The bridge refused the token.")
    page.get_by_role("button", name="RU").click()
    expect(page.locator("#live-status")).to_have_text("Мост не принял токен.")
    expect(page.locator("#live-title")).to_have_text("Живой бой через мост")
    page.get_by_role("button", name="EN").click()
    # The page works locally as always.
    page.wait_for_selector('html[data-ready="true"]', timeout=120_000)
    add_unit(page, "allies", "Dwarves", 10, strength=30)
    expect(page.locator(".unit-name")).to_have_text(["Dwarves"])
    # The right token pasted into the field goes live.
    page.get_by_label("Token (from the bridge's start-up lines)").fill(PLAYER_TOKEN)
    page.get_by_role("button", name="Go live").click()
    wait_live(page)
    expect(page.locator("#live-role")).to_contain_text("read-only")
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_static_host_has_no_live_panel(page: Page) -> None:
    """Not served by a bridge: local mode exactly as before, no live panel."""
    expect(page.locator("#live-panel")).to_be_hidden()
    assert page.get_attribute("html", "data-live") is None


def test_live_mode_shows_every_bad_field_of_a_form_at_once(
    bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    """The bridge passes on every field the core found at fault (`others`); the page shows each."""
    assert bridge.command("ambush", {"type": "create_battle"})["type"] == "ack"
    gm = open_live(contexts[0], f"{bridge.url}#token={GM_TOKEN}")
    wait_live(gm)
    gm.wait_for_selector('html[data-live-battle="ambush"]')
    wait_version(gm, 0)
    form = gm.locator('.side[data-side="allies"] form.add-unit')
    form.locator('input[name="strength"]').fill("30")

    form.get_by_role("button", name="Add the unit").click()

    expect(form.locator('label:has(input[name="name"]) .field-error')).to_have_text(
        "name: this is needed"
    )
    expect(form.locator('label:has(input[name="fighters"]) .field-error')).to_have_text(
        "Fighters: needed, a whole number from 1 to 100000"
    )
    expect(form.locator('input[aria-invalid="true"]')).to_have_count(2)
    assert version(gm) == 0
    assert gm.page_errors == []  # type: ignore[attr-defined]
