"""Steps the Foundry module's browser tests share: the stand-in's records, a battle set up from
the panel, and a barrier that waits until the bridge's earlier messages were handled."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator, Page, expect

Open = Callable[..., Locator]

# The Foundry generations the stand-in plays (standin/generations.js); a test that must hold on
# both parametrises the `generation` fixture with them.
GENERATIONS = [13, 14]


def record(page: Page, what: str) -> Any:
    return page.evaluate(f"structuredClone(StandIn.record.{what})")


def world_tokens(page: Page) -> list[dict[str, Any]]:
    tokens: list[dict[str, Any]] = page.evaluate("StandIn.tokens()")
    return tokens


def bridge_barrier(page: Page, battle: str = "ambush") -> str:
    """A refused command from this page: once its error is back, every message the bridge sent
    this page before it has been handled (the module acts on a message before any await)."""
    code: str = page.evaluate(
        """async (battle) => {
             const app = game.modules.get("background-battle").api.app;
             try { await app.client.command(battle, {type: "start"}); }
             catch (error) { return error.code; }
             return "accepted";
           }""",
        battle,
    )
    return code


def connected(panel: Locator) -> None:
    expect(panel.locator(".bb-status")).to_have_attribute("data-state", "open")


def create_battle(panel: Locator, name: str) -> None:
    panel.locator("[name=newBattle]").fill(name)
    panel.locator("[data-action=createBattle]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "setup")
    expect(panel.locator("[name=battle]")).to_have_value(name)


def new_unit(
    page: Page,
    panel: Locator,
    tokens: list[str],
    *,
    name: str,
    side: str,
    strength: int,
    head_count: int | None = None,
) -> Locator:
    page.evaluate("ids => StandIn.select(ids)", tokens)
    panel.locator("[name=unitName]").fill(name)
    panel.locator("[name=unitSide]").select_option(side)
    panel.locator("[name=unitStrength]").fill(str(strength))
    if head_count is not None:
        panel.locator("[name=oneForMany]").check()
        panel.locator("[name=headCount]").fill(str(head_count))
    panel.locator("[data-action=newUnit]").click()
    row = panel.locator(".bb-unit", has_text=name)
    expect(row.locator(".bb-unit-tokens")).to_have_attribute("data-count", str(len(tokens)))
    # the bridge's token list can arrive before the action's own end, which clears the form:
    # typing the next unit before that would be wiped
    page.wait_for_function("!game.modules.get('background-battle').api.app.pending")
    return row


def set_up_fight(page: Page, panel: Locator, battle: str = "ambush") -> tuple[Locator, Locator]:
    create_battle(panel, battle)
    dwarves = new_unit(
        page, panel, ["tok1", "tok2", "tok3"], name="Dwarves", side="allies", strength=30
    )
    orcs = new_unit(page, panel, ["tok4"], name="Orcs", side="enemies", strength=60, head_count=10)
    panel.locator("[data-action=start]").click()
    expect(panel.locator(".bb-phase")).to_have_attribute("data-status", "fighting")
    return dwarves, orcs


def remote_player(open_foundry: Open, page: Page, server: str, **options: Any) -> Locator:
    """A player's panel on another computer: no bridge address and no token of its own; it
    follows the battle through the active GM's Foundry (the relay), on the shared server."""
    options = {"battle": "ambush", "user": "player1", **options}
    return open_foundry(page, gm_token=None, player_token=None, url="", server=server, **options)


def shown_numbers(value: Any) -> set[int]:
    """The numbers a view shows a player: its numbers and those in its texts, but not the digits
    of an id (a unit's id is made of the time and random digits: "u-f1712…" is no 12)."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int | float):
        return {int(value)}
    if isinstance(value, str):
        return {int(n) for n in re.findall(r"-?\d+", value)}
    if isinstance(value, dict):
        kept = [v for k, v in value.items() if k != "id" and not k.endswith("_id")]
        return set().union(*(shown_numbers(v) for v in kept))
    return set().union(*(shown_numbers(v) for v in value)) if value else set()
