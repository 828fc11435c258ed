"""Live, the GM's tick-off list of Influence effects is the bridge's marks, shared with Foundry
(docs/web.md "Influence effects done in Foundry"): what Foundry applied shows ticked, "applied
in Foundry" with what it gave; a tick on the page reaches the bridge; both last across a reload;
Foundry's Undo unticks. The page's real files, the real bridge, Chromium; Foundry is a script
client speaking as the module does (`client: "foundry"`)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from live_pages import GM_TOKEN, Bridge, open_live, wait_live, wait_version
from playwright.sync_api import BrowserContext, expect
from websockets.sync.client import connect

# The allies win with strength 18; their roll of 72 is 72 + 50 + 18 = 140: the volley (126-150).
ROLLED = [
    {"type": "create_battle"},
    {"type": "add_unit", "side": "allies", "name": "Dwarves", "fighters": 10, "strength": 30},
    {"type": "add_unit", "side": "enemies", "name": "Orcs", "fighters": 12, "strength": 26},
    {"type": "start"},
    {"type": "set_strength", "side": "allies", "strength": 18},
    {"type": "end_battle", "winner": "allies"},
    {"type": "roll_influence", "side": "allies", "roll": 72},
]
ROLL = 6  # the Influence roll's version
APPLIED = "Orc boss: 11 Damage (1d10+4)"


def as_foundry(bridge: Bridge, message: dict[str, Any]) -> dict[str, Any]:
    """One request from a client saying it is Foundry (GM token); its ack or error."""
    with connect(f"ws://127.0.0.1:{bridge.port}/ws", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": GM_TOKEN, "client": "foundry"}))
        json.loads(ws.recv(timeout=30))  # welcome
        ws.send(json.dumps({"id": uuid.uuid4().hex, **message}))
        while True:
            reply: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if reply["type"] in ("ack", "error", "state"):
                return reply


def marks_on_the_bridge(bridge: Bridge) -> dict[str, Any]:
    state = as_foundry(bridge, {"type": "subscribe", "battle": "ambush"})
    return state["foundry"]["marks"]  # type: ignore[no-any-return]


def test_what_foundry_applied_shows_ticked_and_a_tick_on_the_page_reaches_the_bridge(
    bridge: Bridge, contexts: list[BrowserContext]
) -> None:
    for command in ROLLED:
        assert bridge.command("ambush", command)["type"] == "ack"
    gm = open_live(contexts[0], f"{bridge.url}#token={GM_TOKEN}")
    wait_live(gm)
    wait_version(gm, ROLL)
    items = gm.locator("#influence-result .fight-effects li")
    expect(items).to_have_count(2)  # 0: 1d10+4 Damage to a foe (GM's choice); 1: +1 Advantage
    expect(items.nth(0).get_by_role("checkbox")).not_to_be_checked()

    # Foundry applies the damage: the page ticks it, says where, and what it gave
    damage = {"effect": 0, "kind": "damage", "done": True, "result": APPLIED}
    mark = {"type": "mark_effects", "battle": "ambush", "version": ROLL}
    assert as_foundry(bridge, {**mark, "marks": [damage]})["type"] == "ack"
    expect(items.nth(0).get_by_role("checkbox")).to_be_checked()
    expect(items.nth(0).get_by_role("checkbox")).to_be_disabled()  # Undo is Foundry's
    expect(items.nth(0)).to_contain_text("applied in Foundry")
    expect(items.nth(0).locator("output")).to_have_text(APPLIED)

    # the GM ticks the Advantage off on the page: stored on the bridge as the page's
    items.nth(1).get_by_role("checkbox").check()
    gm.wait_for_function(
        "() => document.querySelector('#influence-result .fight-effects li:nth-child(2) input')"
        "?.disabled === false"
    )
    assert marks_on_the_bridge(bridge) == {
        str(ROLL): {"0": {"by": "foundry", "result": APPLIED}, "1": {"by": "web"}}
    }
    # Foundry, applying now, finds it done: the bridge refuses it there too
    advantage = {"effect": 1, "kind": "advantage", "done": True}
    refused = as_foundry(bridge, {**mark, "marks": [advantage]})
    assert (refused["code"], refused["field"]) == ("already_marked", "marks[0].effect")

    # both last across a reload
    gm.reload()
    wait_live(gm)
    wait_version(gm, ROLL)
    items = gm.locator("#influence-result .fight-effects li")
    expect(items.nth(0).get_by_role("checkbox")).to_be_checked()
    expect(items.nth(1).get_by_role("checkbox")).to_be_checked()
    expect(items.nth(0)).to_contain_text("applied in Foundry")

    # Foundry's Undo takes back what it applied: unticked on the page; the page's tick stays
    undo = {"effect": 0, "kind": "damage", "done": False}
    assert as_foundry(bridge, {**mark, "marks": [undo]})["type"] == "ack"
    expect(items.nth(0).get_by_role("checkbox")).not_to_be_checked()
    expect(items.nth(0).get_by_role("checkbox")).to_be_enabled()
    expect(items.nth(0)).not_to_contain_text("applied in Foundry")
    expect(items.nth(1).get_by_role("checkbox")).to_be_checked()
    # the page unticks its own
    items.nth(1).get_by_role("checkbox").uncheck()
    gm.wait_for_function(
        "() => document.querySelector('#influence-result .fight-effects li:nth-child(2) input')"
        "?.disabled === false"
    )
    assert marks_on_the_bridge(bridge) == {}
    assert gm.page_errors == []  # type: ignore[attr-defined]
