"""The stand-in's world server (tests/support/foundry_server.py) as strict as a hosted Foundry,
in both generations: a reload or a second browser sees what was stored and nothing a page held
only; writes take the server's time and a document changes only once committed, even when the
page that wrote it is gone; `ready` comes seconds after login while the others already see the
user; `game.users.activeGM` is a logged-in GM, a full one before an assistant (docs/foundry.md,
"How close the stand-in is")."""

from __future__ import annotations

import json
import urllib.request

import pytest
from bridge_gm import BridgeGM, lost_battle
from foundry_server import FoundryServer
from foundry_steps import GENERATIONS, Open, world_tokens
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.timeout(120)

WRITE_ALL = """async () => {
  const flag = "flags.background-battle.note";
  await canvas.scene.updateEmbeddedDocuments("Token", [{_id: "tok1", name: "Renamed", [flag]: 7}]);
  await canvas.scene.tokens.get("tok2").actor.toggleStatusEffect("prone", {active: true});
  await ChatMessage.create({content: "<p>Kept</p>"});
  await game.settings.set("background-battle", "battle", "kept");
}"""
READ_ALL = """() => ({
  name: canvas.scene.tokens.get("tok1").name,
  flag: canvas.scene.tokens.get("tok1").flags["background-battle"]?.note ?? null,
  statuses: [...canvas.scene.tokens.get("tok2").actor.statuses],
  messages: game.messages.contents.map(m => m.content),
  battle: game.settings.get("background-battle", "battle"),
})"""
STORED = {
    "name": "Renamed",
    "flag": 7,
    "statuses": ["prone"],
    "messages": ["<p>Kept</p>"],
    "battle": "kept",
}


@pytest.mark.parametrize("generation", GENERATIONS)
def test_a_reload_and_a_second_browser_see_what_the_server_stored(
    browser: Browser, page: Page, open_foundry: Open, generation: int
) -> None:
    open_foundry(page, panel=False)
    page.evaluate(WRITE_ALL)
    assert page.evaluate(READ_ALL) == STORED
    # what the page held and never sent is gone with it
    page.evaluate("canvas.scene.tokens.get('tok3')._source.name = 'Only here'")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    assert page.evaluate(READ_ALL) == STORED
    assert page.evaluate("canvas.scene.tokens.get('tok3').name") == "Soldier 3"
    second = browser.new_context().new_page()
    open_foundry(second, user="gm2", panel=False)
    assert second.evaluate(READ_ALL) == STORED
    second.context.close()


def test_a_write_takes_the_servers_time_and_survives_its_page(
    browser: Browser, page: Page, open_foundry: Open, foundry_server: FoundryServer
) -> None:
    open_foundry(page, panel=False)
    other = browser.new_context().new_page()
    open_foundry(other, user="gm2", panel=False)
    foundry_server.latency = 0.3
    # sent, not yet committed: the writer's own document has not changed either
    seen = page.evaluate(
        """async () => {
             const doc = canvas.scene.tokens.get("tok1");
             const update = [{_id: "tok1", name: "Late"}];
             const done = canvas.scene.updateEmbeddedDocuments("Token", update);
             const before = doc.name;
             await done;
             return {before, after: doc.name};
           }"""
    )
    assert seen == {"before": "Soldier 1", "after": "Late"}
    expect_name(other, "tok1", "Late")
    # a page closed right after sending: the server commits what reached it all the same
    page.evaluate(
        """() => { canvas.scene.updateEmbeddedDocuments("Token", [{_id: "tok2", name: "Sent"}]);
                   canvas.scene.tokens.get("tok3").actor.toggleStatusEffect("prone",
                     {active: true}); }"""
    )
    page.wait_for_timeout(50)
    page.context.close()
    expect_name(other, "tok2", "Sent")
    other.wait_for_function("canvas.scene.tokens.get('tok3').actor.statuses.has('prone')")
    world = json.load(urllib.request.urlopen(f"{foundry_server.http_url}/world", timeout=10))
    assert [w["collection"] for w in world["writes"]] == ["Token", "Token", "ActiveEffect"]
    assert world["users"] == ["gm2"]
    other.context.close()


def expect_name(page: Page, token: str, name: str) -> None:
    page.wait_for_function(f"canvas.scene.tokens.get('{token}').name === '{name}'")


def test_ready_comes_late_while_the_others_already_see_the_user(
    browser: Browser, page: Page, open_foundry: Open
) -> None:
    open_foundry(page, panel=False)
    page.evaluate(
        """() => { window.seen = [];
                   Hooks.on("userConnected", (user, on) => window.seen.push([user.id, on])); }"""
    )
    late = browser.new_context().new_page()
    late.goto(page.url.replace("user=gm1", "user=gm2") + "&readyDelay=1500")
    page.wait_for_function("window.seen.length === 1")
    assert page.evaluate("window.seen") == [["gm2", True]]
    assert late.evaluate("game.ready") is False  # logged in, still loading the world
    expect(late.locator("body")).to_have_attribute("data-ready", "1", timeout=10_000)
    assert late.evaluate("game.ready") is True
    late.context.close()


@pytest.mark.parametrize("generation", GENERATIONS)
def test_the_active_gm_is_a_logged_in_gm_a_full_one_before_an_assistant(
    page: Page, open_foundry: Open, foundry_server: FoundryServer, generation: int
) -> None:
    open_foundry(page, user="player1", panel=False)

    def active(expected: str | None) -> None:
        page.wait_for_function("id => (game.users.activeGM?.id ?? null) === id", arg=expected)

    active(None)  # no GM logged in
    foundry_server.log_in("gm2")  # an assistant GM
    active("gm2")
    foundry_server.log_in("gm1")  # the Game Master comes: preferred
    active("gm1")
    foundry_server.log_out("gm1")
    active("gm2")
    foundry_server.log_out("gm2")
    active(None)
    assert page.evaluate("[game.users.get('gm1').isGM, game.users.get('gm2').isGM]") == [True, True]


@pytest.mark.parametrize(("generation", "system"), [(13, None), (14, "wfrp4e")])
def test_apply_and_undo_on_a_hosted_worlds_time_survive_a_reload(
    page: Page,
    open_foundry: Open,
    foundry_server: FoundryServer,
    gm: BridgeGM,
    generation: int,
    system: str | None,
) -> None:
    # a hosted world: 40 ms a write, `ready` 4 s after login
    foundry_server.latency = 0.04
    foundry_server.ready_delay = 4
    units = {
        "dwarves": ("allies", 4, 40, [f"Scene.scene1.Token.tok{i}" for i in (1, 2, 3, 4)]),
        "orcs": ("enemies", 10, 60, []),
    }
    fates = lost_battle(gm, "ambush", units)["dwarves"]
    panel = open_foundry(page, battle="ambush", tokens=5, system=system)
    expect(panel.locator(".bb-status")).to_have_attribute("data-state", "open")
    dwarves = panel.locator(".bb-unit[data-unit=dwarves]")
    dwarves.locator("[data-action=applyUnit]").click()
    expect(dwarves.locator(".bb-applied")).to_be_visible(timeout=15_000)

    def counted(tokens: list[dict[str, object]]) -> tuple[int, int]:
        dead = sum("dead" in str(t["statuses"]) for t in tokens)
        return dead, sum("unconscious" in str(t["statuses"]) for t in tokens)

    applied = counted(world_tokens(page))
    assert applied == (fates["killed"], fates["wounded"])
    # a reload forgets the page, not the world: the tokens still show what was applied
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=15_000)
    assert counted(world_tokens(page)) == applied
    page.click("button[data-tool='background-battle']")
    dwarves = page.locator("#background-battle-panel .bb-unit[data-unit=dwarves]")
    dwarves.locator("[data-action=undoApply]").click()
    expect(dwarves.locator(".bb-applied")).to_have_count(0, timeout=15_000)
    assert counted(world_tokens(page)) == (0, 0)
    assert all(t["statuses"] == [] for t in world_tokens(page))
