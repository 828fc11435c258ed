"""Which effects of an Influence roll are done (influence_marks.py): marked by Foundry or the
page, stored before the ack, told to every GM and to no player, kept across a restart, refused
by field when they name no roll, no effect, or another client's mark."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bridge_helpers import DWARVES, ORCS, Peer, StartBridge

from background_battle_bridge.budget import FOUNDRY_MAX, size
from background_battle_bridge.storage import Storage

# The allies win with strength 18: their Influence roll of 72 is 72 + 50 + 18 = 140, the band
# 126-150 (effect 0: 1d10+4 Damage to a foe of the GM's choice; effect 1: +1 Advantage each PC).
ROLLED = [
    ORCS,
    DWARVES,
    {"type": "start"},
    {"type": "set_strength", "side": "allies", "strength": 18},
    {"type": "end_battle", "winner": "allies"},
    {"type": "roll_influence", "side": "allies", "roll": 72},
]
ROLL = 6  # the version (log entry) of the Influence roll
DAMAGE = {"effect": 0, "kind": "damage", "done": True, "result": "Orc boss: 11 Damage (1d10+4)"}
FOUNDRYS = {str(ROLL): {"0": {"by": "foundry", "result": DAMAGE["result"]}}}  # Foundry's damage


async def rolled(gm: Peer) -> None:
    await gm.create("ambush")
    for command in ROLLED:
        assert (await gm.command("ambush", command))["type"] == "ack"


def mark(*marks: dict[str, Any], version: int = ROLL, **extra: Any) -> dict[str, Any]:
    message = {"type": "mark_effects", "battle": "ambush", "version": version}
    return {**message, "marks": list(marks), **extra}


async def answer(peer: Peer, message: dict[str, Any]) -> dict[str, Any]:
    """The ack or error of a request (what comes on the way skipped)."""
    await peer.send(message)
    while True:
        reply = await peer.recv()
        if reply["type"] in ("ack", "error") and reply.get("id") == message.get("id"):
            return reply


async def test_foundrys_marks_reach_every_gm_with_their_result_and_no_player(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge()
    page = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    player = await running.player()
    await rolled(page)
    await page.ask({"type": "subscribe", "battle": "ambush"}, "state")
    await player.ask({"type": "subscribe", "battle": "ambush"}, "state")

    advantage = {"effect": 1, "kind": "advantage", "done": True}
    ack = await answer(foundry, mark(DAMAGE, advantage, id="m1"))
    assert ack["type"] == "ack"
    told = await page.until("effects_marked")
    assert told == {
        "type": "effects_marked",
        "battle": "ambush",
        "version": ROLL,
        "marks": {"0": {"by": "foundry", "result": DAMAGE["result"]}, "1": {"by": "foundry"}},
    }
    # the page's state carries them (GM-only); a player's has no Foundry data, hears nothing
    state = await page.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["marks"] == {str(ROLL): told["marks"]}
    forbidden = await answer(player, mark(DAMAGE, id="p1"))
    assert (forbidden["code"], forbidden["field"]) == ("forbidden", "type")
    await player.send({"type": "ping"})
    heard = [await player.recv()]
    while heard[-1]["type"] != "pong":
        heard.append(await player.recv())
    assert "effects_marked" not in [m["type"] for m in heard]
    # repeated with its id: not applied again
    again = await answer(foundry, mark(DAMAGE, advantage, id="m1"))
    assert again.get("duplicate") is True


async def test_the_page_ticks_and_unticks_its_own_but_not_foundrys(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge()
    page = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    await rolled(page)
    assert (await answer(page, mark({"effect": 1, "kind": "advantage", "done": True})))[
        "type"
    ] == "ack"
    # Foundry's Apply finds it done: marking it again is refused, naming it
    twice = await answer(foundry, mark(DAMAGE, {"effect": 1, "kind": "advantage", "done": True}))
    assert (twice["code"], twice["field"]) == ("already_marked", "marks[1].effect")
    assert twice["params"]["mark"] == {"by": "web"}
    # all or nothing: the damage of that refused message is not marked
    assert (await answer(foundry, mark(DAMAGE)))["type"] == "ack"
    # the page cannot take back Foundry's mark (Undo does, in Foundry)
    theirs = await answer(page, mark({"effect": 0, "kind": "damage", "done": False}))
    assert (theirs["code"], theirs["field"]) == ("not_marked", "marks[0].effect")
    mine = await answer(page, mark({"effect": 1, "kind": "advantage", "done": False}))
    assert mine["type"] == "ack"
    state = await page.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["marks"] == FOUNDRYS
    # Foundry's Undo clears its own: nothing is left of the roll
    assert (await answer(foundry, mark({"effect": 0, "kind": "damage", "done": False})))[
        "type"
    ] == "ack"
    state = await page.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["marks"] == {}


async def test_a_mark_naming_no_roll_no_effect_or_a_bad_field_is_refused_by_field(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge()
    gm = await running.gm(client="web")
    await rolled(gm)
    cases = [
        (mark(DAMAGE, battle="nowhere"), "unknown_battle", "battle"),
        (mark(DAMAGE, version=5), "unknown_roll", "version"),  # the end, not a roll
        (mark(DAMAGE, version=7), "out_of_range", "version"),
        (mark({**DAMAGE, "effect": 2}), "unknown_effect", "marks[0].effect"),
        (mark({**DAMAGE, "kind": "advantage"}), "unknown_effect", "marks[0].effect"),
        (mark({**DAMAGE, "effect": 10}), "out_of_range", "marks[0].effect"),
        (mark(DAMAGE, DAMAGE), "unknown_effect", "marks[1].effect"),
        (mark({**DAMAGE, "done": "yes"}), "not_bool", "marks[0].done"),
        (mark({**DAMAGE, "result": "x" * 201}), "out_of_range", "marks[0].result"),
        (mark({**DAMAGE, "result": "a\nb"}), "bad_text", "marks[0].result"),
        (mark({**DAMAGE, "by": "foundry"}), "bad_mark", "marks[0]"),
        (mark({**DAMAGE, "done": False}), "bad_mark", "marks[0].result"),
        (mark(), "not_list", "marks"),
        (mark(*[DAMAGE] * 11), "not_list", "marks"),
        (mark("damage"), "not_object", "marks[0]"),
    ]
    for message, code, field in cases:
        reply = await answer(gm, message)
        assert (reply["type"], reply.get("code"), reply.get("field")) == ("error", code, field)
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["marks"] == {}  # a refusal changes nothing
    # an undone roll is no roll: its marks are gone from the state, and none is taken
    assert (await answer(gm, mark(DAMAGE)))["type"] == "ack"
    assert (await gm.command("ambush", {"type": "undo"}))["type"] == "ack"
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["marks"] == {}
    undone = await answer(gm, mark({"effect": 1, "kind": "advantage", "done": True}))
    assert (undone["code"], undone["field"]) == ("unknown_roll", "version")


async def test_marks_are_stored_before_the_ack_and_survive_a_restart(
    start_bridge: StartBridge, storage_factory: Callable[[], Storage]
) -> None:
    first = await start_bridge(storage_factory())
    gm = await first.gm(client="foundry")
    await rolled(gm)
    assert (await answer(gm, mark(DAMAGE, id="m1")))["type"] == "ack"
    await first.stack.aclose()

    second = await start_bridge(storage_factory())
    again = await second.gm(client="web")
    state = await again.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["marks"] == FOUNDRYS
    foundry = await second.gm(client="foundry")
    assert (await answer(foundry, mark(DAMAGE, id="m1")))["duplicate"] is True


async def test_marks_that_would_pass_the_foundry_bound_are_refused_naming_marks(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge()
    gm = await running.gm(client="foundry")
    await rolled(gm)
    room = running.bridge.hub.rooms["ambush"]
    # the battle's Foundry data 100 bytes under its bound (token ids, as a GM may have sent)
    room.tokens["u1"] = [f"{n:0128d}" for n in range(900)]
    room.tokens["u2"] = []
    room.tokens["u2"] = [f"{n:04d}" for n in range((FOUNDRY_MAX - 100 - size(room.foundry())) // 7)]
    assert FOUNDRY_MAX - 110 < size(room.foundry()) <= FOUNDRY_MAX - 100  # '"0001",' each
    refused = await answer(gm, mark({**DAMAGE, "result": "x" * 200}))
    assert (refused["code"], refused["field"]) == ("too_large", "marks")
    assert refused["params"]["max"] == FOUNDRY_MAX
    assert room.marks == {}  # nothing stored
    room.tokens.clear()
    assert (await answer(gm, mark(DAMAGE)))["type"] == "ack"
