"""The page's essential paths in Firefox ESR and WebKitGTK (Chromium: tests/web): it boots, a
whole battle is played with typed rolls, undone and redone, the page reloads offline from its
service worker's copy, and live mode follows one battle on a GM's and a player's devices.

Each engine is a parameter of the ``engine`` fixture; the steps are in steps.py. Every number
the page shows is compared with the core in CPython (background_battle.api.handle)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engines import Browser, wait
from live_pages import GM_TOKEN, PLAYER_TOKEN, Bridge
from static_server import StaticServer
from steps import (
    add_unit,
    casualties,
    click_and_wait,
    html,
    open_page,
    ready,
    saved_battle,
    start,
    strength,
    text,
    typed_influence,
    typed_round,
    version,
)

from background_battle.api import handle

ROLLS = (12, 71)  # the allies' and the enemies' d100 each round: the orcs fall in four rounds
LIVE_TIMEOUT_S = 60


def applied(battle: dict[str, Any], command: dict[str, Any]) -> dict[str, Any]:
    """The core's reply in CPython to ``command`` on ``battle``."""
    reply = handle({"op": "apply", "battle": battle, "command": command})
    assert reply["ok"], reply
    return reply  # type: ignore[no-any-return]


def shows(tab: Any, reply: dict[str, Any]) -> None:
    """The page keeps the battle the core made, and shows its sides' strengths."""
    assert saved_battle(tab) == reply["battle"]
    for which in ("allies", "enemies"):
        assert strength(tab, which) == str(reply["view"]["sides"][which]["strength"])


def test_a_whole_battle_with_typed_rolls_undone_redone_and_reloaded_offline(
    engine: Browser, site: Path
) -> None:
    engine.errors.clear()
    server = StaticServer(site)
    tab = engine.tab()
    try:
        open_page(tab, server.url)
        assert text(tab, "#status").startswith("Ready"), text(tab, "#status")
        add_unit(tab, "allies", "Dwarves", 10, 30)
        add_unit(tab, "enemies", "Orcs", 12, 26)
        start(tab)

        rounds = 0
        while html(tab, "phase") == "fighting":
            before = saved_battle(tab)
            allies, enemies = ROLLS
            typed_round(tab, allies, enemies)
            rolls = {"allies": allies, "enemies": enemies}
            shows(tab, applied(before, {"type": "resolve_round", "mode": "rolls", "rolls": rolls}))
            rounds += 1
            assert rounds <= 4, "the battle goes on past the round the core ends it"
        assert rounds == 4
        wait(tab, "() => !document.querySelector('#battle-winner').hidden")
        assert text(tab, "#battle-winner").startswith("The allies won")
        ended = applied(before, {"type": "resolve_round", "mode": "rolls", "rolls": rolls})
        for unit in ended["view"]["units"]:
            assert casualties(tab, unit["name"]) == {
                key: unit["casualties"][key] for key in ("killed", "wounded", "fit")
            }

        # After the battle the winner rolls d100 + 50 + its strength on the Influence table.
        before = saved_battle(tab)
        typed_influence(tab, 40)
        influence = applied(before, {"type": "roll_influence", "side": "allies", "roll": 40})
        assert saved_battle(tab) == influence["battle"]
        assert text(tab, "#influence-result .big-line").startswith("Allies: d100 40 + ")

        # Undo takes the roll back; Redo sends it again, with the roll it had.
        click_and_wait(tab, '#undo-form button[type="submit"]')
        undone = applied(influence["battle"], {"type": "undo"})
        shows(tab, undone)
        wait(tab, "() => !document.querySelector('#redo-button').disabled")
        click_and_wait(tab, '#redo-form button[type="submit"]')
        redone = applied(undone["battle"], influence["battle"]["log"][-1]["command"])
        shows(tab, redone)
        kept = version(tab)
        assert engine.errors == []

        # Offline: the service worker's copy runs the page, and the battle is still there.
        wait(
            tab,
            "() => navigator.serviceWorker.controller !== null",
            timeout_s=120,
            what="the service worker to control the page",
        )
        server.close()
        tab.reload()
        ready(tab)
        wait(tab, "() => document.documentElement.dataset.offline === 'true'", what="offline")
        assert text(tab, "#status") == "Offline: working from this device's copy."
        assert version(tab) == kept
        shows(tab, redone)
    finally:
        tab.close()
        server.close()


def test_a_gm_and_a_player_follow_one_battle_live(engine: Browser, bridge: Bridge) -> None:
    engine.errors.clear()
    gm, player = engine.tab(), engine.tab()
    try:
        gm.goto(f"{bridge.url}#token={GM_TOKEN}")
        wait(gm, "() => document.documentElement.dataset.live === 'live'", timeout_s=LIVE_TIMEOUT_S)
        assert "token" not in gm.evaluate("() => location.href")
        gm.type('#live-create-form input[name="name"]', "ambush")
        gm.click('#live-create-form button[type="submit"]')
        wait(gm, "() => document.documentElement.dataset.liveBattle === 'ambush'")
        wait(gm, "() => document.documentElement.dataset.version === '0'")

        player.goto(f"{bridge.url}#token={PLAYER_TOKEN}")
        wait(player, "() => document.documentElement.dataset.live === 'live'")

        add_unit(gm, "allies", "Dwarves", 10, 30)
        add_unit(gm, "enemies", "Orcs", 12, 26)
        start(gm)
        wait(player, "() => document.documentElement.dataset.liveBattle === 'ambush'")
        typed_round(gm, *ROLLS)
        assert version(gm) == 4
        wait(player, "() => document.documentElement.dataset.version === '4'")

        # The player sees the allies' strength the GM sees, and not the enemies'.
        assert strength(gm, "allies") == "30" and strength(gm, "enemies") == "19"
        assert strength(player, "allies") == "30"
        assert strength(player, "enemies") == "?"
        names = "() => [...document.querySelectorAll('.unit-name')].map((e) => e.textContent)"
        assert gm.evaluate(names) == player.evaluate(names) == ["Dwarves", "Orcs"]
        # The player changes nothing: the bridge refuses it, whatever the page sends.
        refused = player.evaluate("() => window.backgroundBattle.live.command({ type: 'undo' })")
        assert refused["code"] == "forbidden"
        assert engine.errors == []
    finally:
        gm.close()
        player.close()
