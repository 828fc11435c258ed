"""The sender's ack goes out as soon as its change is stored, before the fan-out to the others;
every client still receives everything in the order it was decided (audience.py, answers.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from bridge_helpers import Peer, Running, started
from websockets.asyncio.server import ServerConnection, broadcast

from background_battle_bridge import audience, committer

ORDERS = {"type": "set_strength", "side": "allies", "strength": 25}


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Every frame the fan-out and the answers write: (connection, message type)."""
    log: list[tuple[int, str]] = []

    def recorded(connections: Any, message: str | bytes, **options: Any) -> None:
        for ws in connections:
            log.append((id(ws), json.loads(message)["type"]))
        broadcast(connections, message, **options)

    async def sent(ws: ServerConnection, message: Any, **options: Any) -> None:
        log.append((id(ws), json.loads(message)["type"]))
        await send(ws, message, **options)

    send = ServerConnection.send
    monkeypatch.setattr(audience, "broadcast", recorded)  # the fan-out
    monkeypatch.setattr(ServerConnection, "send", sent)  # the answers (answers.py)
    return log


async def watching(running: Running, players: int) -> list[Peer]:
    peers = []
    for _ in range(players):
        peer = await running.player(battle="ambush")
        await peer.until("state")
        peers.append(peer)
    return peers


def connection_of(running: Running, role: str) -> set[int]:
    return {id(c.ws) for c in running.bridge.hub.audience.clients if c.role == role}


async def test_the_ack_is_written_before_the_event_reaches_the_other_watchers(
    running: Running, written: list[tuple[int, str]]
) -> None:
    gm = await running.gm()
    await started(gm)
    await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    players = await watching(running, 12)
    sender = connection_of(running, "gm")
    written.clear()

    reply = await gm.command("ambush", ORDERS)

    assert reply["type"] == "ack" and reply["version"] == 4
    for player in players:
        assert (await player.until("event"))["version"] == 4
    order = [(ws in sender, kind) for ws, kind in written]
    assert order[:2] == [(True, "event"), (True, "ack")], order
    assert order[2:] == [(False, "event")] * 12, order


async def test_the_sender_receives_its_event_then_its_ack(running: Running) -> None:
    gm = await running.gm()
    await started(gm)
    await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    await watching(running, 5)

    await gm.send({"type": "command", "id": "o1", "battle": "ambush", "command": ORDERS})
    first, second = await gm.recv(), await gm.recv()

    assert (first["type"], first["version"]) == ("event", 4)
    assert (second["type"], second["id"], second["version"]) == ("ack", "o1", 4)


async def test_two_gms_sending_at_once_see_every_event_in_order_before_their_acks(
    running: Running,
) -> None:
    first = await running.gm()
    await started(first)
    second = await running.gm()
    players = await watching(running, 8)
    for gm in (first, second):
        await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    for n in range(10):  # sent without waiting: they share transactions
        for k, gm in enumerate((first, second)):
            body = {**ORDERS, "strength": 20 + n}
            await gm.send(
                {"type": "command", "id": f"g{k}-{n}", "battle": "ambush", "command": body}
            )

    strength = {}  # by version: what the command acknowledged at it set
    for k, gm in enumerate((first, second)):
        seen, acked = 3, []
        while len(acked) < 10:
            message = await gm.recv()
            if message["type"] == "event":
                assert message["version"] == seen + 1, message
                seen += 1
            elif message["type"] == "ack":
                assert message["version"] <= seen, (k, message, seen)
                acked.append(message["id"])
                strength[message["version"]] = 20 + int(message["id"].split("-")[1])
        assert acked == [f"g{k}-{n}" for n in range(10)]
    for player in players:  # each event carries the view of its own version, not a later one
        events = [await player.until("event") for _ in range(20)]
        assert [event["version"] for event in events] == list(range(4, 24))
        for event in events:
            assert event["view"]["version"] == event["version"]
            assert event["view"]["sides"]["allies"]["strength"] == strength[event["version"]]


async def test_commands_wait_for_a_fan_out_far_behind_and_all_are_answered(
    running: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audience, "BACKLOG", 1)  # two frames queued are a backlog
    gm = await running.gm()
    await started(gm)
    players = await watching(running, 10)
    crowd = running.bridge.hub.audience
    crowd.publish("ambush", {"type": "battles", "battles": []})  # queued for the 10 players
    waiting = asyncio.ensure_future(crowd.keep_up())
    await asyncio.sleep(0)
    assert not waiting.done() and crowd._frames > 1
    await waiting
    assert crowd._frames == 0

    for n in range(20):
        body = {"type": "command", "id": f"w{n}", "battle": "ambush", "command": ORDERS}
        await gm.send(body)
    acks = [await gm.until("ack") for _ in range(20)]

    assert [ack["version"] for ack in acks] == list(range(4, 24))
    for player in players:
        assert [(await player.until("event"))["version"] for _ in range(20)] == list(range(4, 24))


async def test_a_stored_change_is_told_before_anyone_can_read_it(
    running: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Taking a change into its room and queueing its event for the watchers are one step: a
    `subscribe` the moment the commit's report is done gets the change in its `state` and is
    not sent it again as an `event` (docs/protocol.md: each event is the previous version + 1)."""
    gm = await running.gm()
    await started(gm)
    player = await running.player()
    hub = running.bridge.hub
    (client,) = [c for c in hub.audience.clients if c.role == "player"]
    states: list[dict[str, Any]] = []
    reported = committer._finish

    def finish(write: committer.Write, error: committer.NotStored | None) -> None:
        reported(write, error)
        if error is None and not states:  # nothing else runs in between
            subscribing = hub.handle(client, {"type": "subscribe", "battle": "ambush"})
            with pytest.raises(StopIteration) as answered:
                subscribing.send(None)
            states.append(answered.value.value[0])

    monkeypatch.setattr(committer, "_finish", finish)
    acked = await gm.command("ambush", ORDERS)
    monkeypatch.setattr(committer, "_finish", reported)
    assert (states[0]["type"], states[0]["version"]) == ("state", acked["version"])

    await gm.command("ambush", {**ORDERS, "strength": 30})
    assert (await player.until("event"))["version"] == acked["version"] + 1
