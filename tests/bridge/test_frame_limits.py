"""Issue 20, 1: every frame the bridge sends fits `max_message`, told in `welcome`.

The reproductions: a battle of units with 200-character names, 40 units of 480 Foundry token
ids, 4,000 battles created and archived. Each frame is measured as received by a real
`websockets` client whose `max_size` is the announced limit (a larger frame would close it).
What a real client would take too long to build (4,000 battles) is written through the
storage layer, then read through the bridge.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bridge_helpers import GM, PLAYER, WAIT, Peer, Running, StartBridge
from websockets.asyncio.client import connect

from background_battle_bridge import budget
from background_battle_bridge import protocol as p
from background_battle_bridge.storage import MemoryStorage


class Meter(Peer):
    """A client that measures every frame it receives (and cannot receive one over the limit)."""

    largest = 0
    frames = 0

    async def recv(self) -> dict[str, Any]:
        async with asyncio.timeout(WAIT):
            frame = await self.ws.recv()
        size = len(frame.encode() if isinstance(frame, str) else frame)
        self.largest, self.frames = max(self.largest, size), self.frames + 1
        message: dict[str, Any] = json.loads(frame)
        return message

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a request with an `id`; its `ack` or `error` (broadcasts on the way skipped)."""
        await self.send(message)
        while True:
            reply = await self.recv()
            if reply["type"] in ("ack", "error") and reply.get("id") == message["id"]:
                return reply

    async def drain(self) -> None:
        """Read everything sent so far: a `ping`'s `pong` comes after what is queued for it."""
        self.pings = getattr(self, "pings", 0) + 1
        ping = f"drained-{self.pings}"
        await self.send({"type": "ping", "id": ping})
        while (await self.recv()).get("id") != ping:
            pass


async def meter(running: Running, token: str = GM, client: str = "cli") -> Meter:
    ws = await running.stack.enter_async_context(connect(running.url, max_size=p.MAX_MESSAGE))
    peer = Meter(ws)
    welcome = await peer.hello(token, client)
    assert welcome["type"] == "welcome"
    assert welcome["limits"]["max_message"] == p.MAX_MESSAGE == 512 * 1024
    return peer


def unit(index: int, name: str) -> dict[str, Any]:
    side = "allies" if index % 2 else "enemies"
    return {"type": "add_unit", "name": name, "side": side, "fighters": 100_000, "strength": 10}


async def test_a_thousand_units_of_long_names_stop_at_the_bound_and_every_frame_fits(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge(rate=1_000_000.0, burst=1_000_000.0)
    gm, player = await meter(running), await meter(running, PLAYER, "web")
    await gm.create("horde")
    await gm.command("horde", {"type": "set_hidden", "hidden": ["enemies.fighters"]})
    await gm.ask({"type": "subscribe", "battle": "horde"}, "state")
    refused = None
    added = 0
    for index in range(1000):
        name = f"{index:04d} " + "Ш" * 195  # 200 characters, 395 bytes
        reply = await gm.command("horde", unit(index, name))
        if reply["type"] == "error":
            refused = reply
            break
        added += 1
    assert refused is not None, "a thousand units fitted: the bound is gone"
    assert (refused["code"], refused["field"]) == ("too_large", "name")
    assert refused["params"]["max"] <= budget.VIEW_MAX
    assert "max_message" in refused["message"]
    print(f"\nunits with 200-character names accepted: {added}; refused: {refused['message']}")
    # a battle set up to its bound can be started, fought, ended and watched
    await player.ask({"type": "list_battles"}, "battles")
    for command in (
        {"type": "start"},
        {"type": "leader_command", "side": "allies", "sl": 3},
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 5, "enemies": 95}},
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 3, "enemies": 4}},
        {"type": "set_hidden", "hidden": ["enemies.fighters", "enemies.strength"]},
        {"type": "detach_fighters", "unit": "u1", "fighters": 33333},
        {"type": "end_battle", "winner": "allies"},
    ):
        reply = await gm.command("horde", command)
        assert reply["type"] == "ack", reply
        if command["type"] == "start":
            await player.ask({"type": "subscribe", "battle": "horde"}, "state")
    await player.drain()
    gm_state = await gm.ask({"type": "subscribe", "battle": "horde"}, "state")
    player_state = await player.ask({"type": "subscribe", "battle": "horde"}, "state")
    assert len(gm_state["view"]["units"]) == len(player_state["view"]["units"]) == added
    for who in (gm, player):
        await who.ask({"type": "subscribe", "battle": "horde", "since_version": 0})
        await who.ask({"type": "log_page", "battle": "horde", "since_version": 0}, "log_page")
    print(f"largest frame: GM {gm.largest:,} bytes, player {player.largest:,} bytes")
    assert max(gm.largest, player.largest) <= p.MAX_MESSAGE
    assert gm_state["version"] == added + 1 + 7  # the refusal changed nothing


async def test_forty_units_of_480_token_ids_stop_at_the_bound_and_the_gms_state_fits(
    running: Running,
) -> None:
    gm = await meter(running)
    foundry = await meter(running, client="foundry")
    await gm.create("scene")
    for index in range(40):
        assert (await gm.command("scene", unit(index, f"Unit {index}")))["type"] == "ack"
    await gm.ask({"type": "subscribe", "battle": "scene"}, "state")
    stored, refused = 0, None
    for index in range(40):
        ids = [f"{index:02d}{n:014d}" for n in range(480)]  # Foundry ids: 16 characters
        message = {"type": "tokens", "id": f"t{index}", "battle": "scene", "unit": f"u{index + 1}"}
        reply = await foundry.request({**message, "token_ids": ids})
        if reply["type"] == "error":
            refused = reply
            break
        assert reply["type"] == "ack", reply
        stored += 1
    assert refused is not None
    assert (refused["code"], refused["field"]) == ("too_large", "token_ids")
    assert refused["params"]["max"] == budget.FOUNDRY_MAX
    print(f"\nunits of 480 token ids accepted: {stored}; refused: {refused['message']}")
    await gm.drain()
    state = await gm.ask({"type": "subscribe", "battle": "scene"}, "state")
    assert len(state["foundry"]["tokens"]) == stored
    # a unit given fewer tokens (shrinking the data) is always taken
    fewer = {"type": "tokens", "id": "t-1", "battle": "scene", "unit": "u1"}
    assert (await foundry.request({**fewer, "token_ids": ["a" * 16]}))["type"] == "ack"
    print(f"largest frame: GM {gm.largest:,} bytes, Foundry {foundry.largest:,} bytes")
    assert max(gm.largest, foundry.largest) <= p.MAX_MESSAGE


async def test_four_thousand_archived_battles_come_in_pages(start_bridge: StartBridge) -> None:
    storage = MemoryStorage()
    for index in range(4000):
        name = f"battle {index:04d} " + "x" * 50  # 61 characters
        storage.append(name, 1, {"kind": "created", "id": f"c{index}", "digest": ""})
        storage.append(name, 2, {"kind": "archived", "id": f"a{index}", "digest": ""})
    running = await start_bridge(storage)
    gm = await meter(running)
    seen: list[str] = []
    after: str | None = None
    pages = 0
    while True:
        ask: dict[str, Any] = {"type": "list_battles", "id": f"l{pages}", "archived": True}
        if after is not None:
            ask["after"] = after
        page = await gm.ask(ask, "battles")
        pages += 1
        assert len(page["battles"]) <= p.BATTLES_PAGE
        seen += [battle["name"] for battle in page["battles"]]
        if not page["more"]:
            break
        after = page["battles"][-1]["name"]
    assert seen == sorted(seen) and len(set(seen)) == 4000
    assert pages == -(-4000 // p.BATTLES_PAGE)
    bad = await gm.ask({"type": "list_battles", "archived": True, "after": 7})
    assert (bad["code"], bad["field"]) == ("not_text", "after")
    unarchived = await gm.ask({"type": "list_battles"}, "battles")
    assert unarchived == {"type": "battles", "battles": [], "more": False}
    print(f"\n4,000 archived battles in {pages} pages; largest frame {gm.largest:,} bytes")
    assert gm.largest <= p.MAX_MESSAGE
