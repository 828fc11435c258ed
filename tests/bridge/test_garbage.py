"""10,000 frames of random garbage and random valid-looking JSON: one answer each, no harm done."""

from __future__ import annotations

import asyncio
import json
import random
import string
from typing import Any

from bridge_helpers import ORCS, Peer, Running, StartBridge

from background_battle import to_json
from background_battle_bridge import protocol

FRAMES = 10_000
TYPES = [*sorted(protocol.CLIENT_TYPES), "pong", "", "COMMAND"]
FIELDS = [
    "id",
    "battle",
    "expected_version",
    "since_version",
    "command",
    "token",
    "client",
    "unit",
    "token_ids",
    "archived",
    "version",
    "killed",
    "wounded",
    "fit",
    "note",
    "data",
]


def junk_value(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON value, biased towards the edges: huge, negative, empty, wrong type, nested."""
    choice = rng.randrange(12 if depth < 3 else 8)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.choice([0, -1, 1, 2**31, 2**63, -(2**70), 10**30])
    if choice == 3:
        return rng.uniform(-1e300, 1e300)
    if choice == 4:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(0, 80)))
    if choice == 5:
        return rng.choice(["ambush", "u1", "gm", "web", "foundry", "", " ", "\u0000", "é" * 70])
    if choice == 6:
        return rng.choice(["create_battle", "archive_battle", "add_unit", "undo", "start"])
    if choice == 7:
        return chr(rng.randrange(0x20, 0x2FFF)) * rng.randrange(1, 5)
    if choice in (8, 9):
        return [junk_value(rng, depth + 1) for _ in range(rng.randrange(0, 5))]
    return {
        rng.choice([*FIELDS, "type", "name", "side"]): junk_value(rng, depth + 1)
        for _ in range(rng.randrange(0, 6))
    }


def valid_looking(rng: random.Random) -> str:
    message: dict[str, Any] = {"type": rng.choice(TYPES)}
    for field in rng.sample(FIELDS, rng.randrange(0, 7)):
        message[field] = junk_value(rng)
    if message["type"] == "command" and rng.random() < 0.5:
        message["command"] = {
            "type": rng.choice(["add_unit", "create_battle", "archive_battle", "undo", "x"]),
            **{k: junk_value(rng) for k in rng.sample(["name", "side", "fighters"], 2)},
        }
    return json.dumps(message)


def garbage(rng: random.Random) -> str | bytes:
    choice = rng.randrange(6)
    if choice == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    if choice == 1:
        return "".join(chr(rng.randrange(1, 0xD7FF)) for _ in range(rng.randrange(1, 200)))
    if choice == 2:
        whole = valid_looking(rng)
        return whole[: rng.randrange(1, len(whole))]  # cut short
    if choice == 3:
        return json.dumps(junk_value(rng))  # JSON, but rarely an object with a type
    if choice == 4:
        return rng.choice(["[", "{"]) * rng.randrange(1, 3000)
    return rng.choice(["null", "true", "1e999", "NaN", '{"type": null}', '{"type": {}}', "{}"])


async def send_and_count(peer: Peer, frames: list[str | bytes]) -> list[dict[str, Any]]:
    """Send every frame while reading the answers; the answers, all of them."""

    async def read() -> list[dict[str, Any]]:
        return [await peer.recv() for _ in frames]

    reader = asyncio.create_task(read())
    for frame in frames:
        await peer.send(frame)
    return await reader


async def test_garbage_and_random_json_each_get_an_answer_and_change_nothing(
    start_bridge: StartBridge,
) -> None:
    running: Running = await start_bridge(rate=1_000_000.0, burst=1_000_000.0)
    gm = await running.gm()
    await gm.create("ambush")
    await gm.command("ambush", ORCS)
    bystander = await running.gm(client="web")
    await bystander.ask({"type": "subscribe", "battle": "ambush"}, "state")
    before = to_json(running.bridge.hub.rooms["ambush"].battle)

    rng = random.Random(4)
    # garbage from a GM connection: nothing in it is a well-formed message
    junk = [garbage(rng) for _ in range(FRAMES // 2)]
    # valid-looking JSON of every type from a player connection: it may not change anything
    player = await running.player()
    shaped = [valid_looking(rng) for _ in range(FRAMES // 2)]
    junk_answers, shaped_answers = await asyncio.gather(
        send_and_count(gm, junk), send_and_count(player, shaped)
    )

    assert len(junk_answers) + len(shaped_answers) == FRAMES
    assert [a for a in junk_answers if a["type"] != "error"] == []
    assert {a["code"] for a in junk_answers} <= {
        "bad_frame",
        "bad_json",
        "bad_message",
        "unknown_type",
    }
    kinds = {answer["type"] for answer in shaped_answers}
    assert kinds <= {"error", "pong", "battles", "state", "events", "unsubscribed"}
    codes = {a["code"] for a in shaped_answers if a["type"] == "error"}
    assert "internal" not in codes
    assert {"forbidden", "unknown_type", "already_welcomed"} <= codes

    # the state is unchanged, and the server goes on serving everyone
    assert to_json(running.bridge.hub.rooms["ambush"].battle) == before
    assert set(running.bridge.hub.rooms) == {"ambush"}
    ack = await gm.command("ambush", {"type": "rename", "name": "Still here"})
    assert ack["version"] == 2
    seen = await bystander.until("event")
    assert seen["view"]["name"] == "Still here"
