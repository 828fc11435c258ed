"""Origins, oversized frames, floods and slow readers: each dealt with, nobody else stalls."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket

import pytest
from bridge_helpers import GM, ORCS, WAIT, Running, StartBridge
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from background_battle_bridge.guard import Tokens, load_or_make_tokens


async def test_a_foreign_origin_is_refused_at_the_upgrade(running: Running) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with connect(running.url, origin="https://evil.example"):
            pass
    assert refused.value.response.status_code == 403
    gm = await running.gm()
    assert (await gm.ask({"type": "ping"}))["type"] == "pong"


@pytest.mark.parametrize(
    "origin",
    ["http://127.0.0.1:{port}", "http://localhost:30000", "http://127.0.0.1:30000", None],
)
async def test_own_foundry_and_no_origin_are_let_in(running: Running, origin: str | None) -> None:
    peer = await running.peer(origin=origin.format(port=running.port) if origin else None)
    assert (await peer.hello())["type"] == "welcome"


async def test_the_gm_may_allow_another_origin(start_bridge: StartBridge) -> None:
    allowed = frozenset({"http://foundry.lan:30000"})
    running = await start_bridge(origins=allowed)
    peer = await running.peer(origin="http://foundry.lan:30000")
    assert (await peer.hello())["type"] == "welcome"
    with pytest.raises(InvalidStatus):
        async with connect(running.url, origin="http://localhost:30000"):
            pass


async def test_an_oversized_frame_closes_that_connection_only(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    big = await running.gm()
    await big.send({"type": "ping", "data": "x" * (64 * 1024)})
    with pytest.raises(ConnectionClosed):
        await big.recv()
    assert big.ws.close_code == 1009
    assert (await gm.command("ambush", ORCS))["version"] == 1


async def test_a_frame_just_under_the_limit_is_fine(running: Running) -> None:
    gm = await running.gm()
    padding = 64 * 1024 - len(json.dumps({"type": "ping", "data": ""}))
    assert (await gm.ask({"type": "ping", "data": "x" * padding}))["type"] == "pong"


async def test_a_flood_at_1000_a_second_is_closed_after_flood_seconds(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge(rate=30.0, burst=60.0, flood_seconds=1.0)
    gm = await running.gm()
    await gm.create("ambush")
    flooder = await running.gm()
    loop = asyncio.get_running_loop()

    async def flood() -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:  # 10 pings every 10 ms: 1,000 a second, some admitted all along
                for _ in range(10):
                    await flooder.send({"type": "ping"})
                await asyncio.sleep(0.01)

    started = loop.time()
    flooding = asyncio.create_task(flood())
    replies = []
    with pytest.raises(ConnectionClosed):
        while True:
            replies.append(await flooder.recv())
    lasted = loop.time() - started
    flooding.cancel()
    assert flooder.ws.close_code == 1008
    assert 1.0 <= lasted < WAIT
    kinds = [reply["type"] for reply in replies]
    assert kinds.count("pong") >= 60  # the burst, then what the rate refilled meanwhile
    limited = [reply for reply in replies if reply["type"] == "error"]
    assert limited and all(reply["code"] == "rate_limited" for reply in limited)
    assert limited[0]["params"]["retry_after"] > 0
    assert len(limited) <= 1 + lasted  # without an id: one error a second
    # the GM next door never noticed
    assert (await gm.command("ambush", ORCS))["version"] == 1


async def test_every_request_dropped_by_the_rate_limit_is_answered_with_its_id(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge(rate=5.0, burst=10.0)
    gm = await running.gm()
    await gm.create("ambush")
    for n in range(40):
        await gm.send({"type": "list_battles", "id": f"l{n}"})
    for n in range(10):
        command = {"type": "rename", "name": f"n{n}"}
        await gm.send({"type": "command", "id": f"c{n}", "battle": "ambush", "command": command})
    answered: dict[str, str] = {}
    while len(answered) < 50:
        reply = await gm.recv()
        if "id" in reply:
            answered[reply["id"]] = reply.get("code", reply["type"])
    assert set(answered) == {f"l{n}" for n in range(40)} | {f"c{n}" for n in range(10)}
    assert set(answered.values()) <= {"battles", "ack", "rate_limited"}
    acked = [n for n in range(10) if answered[f"c{n}"] == "ack"]
    assert len(acked) <= 1  # the bucket refills 5 a second; the burst went to list_battles
    assert running.bridge.hub.rooms["ambush"].version == len(acked)  # none half-applied


async def test_a_slow_reader_is_cut_off_and_nobody_waits_for_it(start_bridge: StartBridge) -> None:
    running = await start_bridge(rate=100_000.0, burst=100_000.0)
    running.bridge.hub.audience.eviction.limit = 64 * 1024
    gm = await running.gm()
    await gm.create("ambush")
    watcher = await running.gm(client="cli")
    await watcher.ask({"type": "subscribe", "battle": "ambush"}, "state")

    # a client that stops reading: a tiny receive window, and websockets' own queue of 1 frame
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", running.port))
    slow = await running.stack.enter_async_context(connect(running.url, sock=sock, max_queue=1))
    await slow.send(json.dumps({"type": "hello", "token": GM, "client": "web", "battle": "ambush"}))

    # big events (about 40 kB each) so the kernel's socket buffers fill up soon
    modifiers = [{"name": f"m{i:03d}" + "x" * 190, "percent": 1} for i in range(50)]
    changes = 300

    async def watch() -> list[int]:
        return [(await watcher.until("event"))["version"] for _ in range(changes)]

    watching = asyncio.create_task(watch())
    for n in range(changes):
        command = {"type": "set_modifiers", "side": "allies", "modifiers": modifiers[n % 2 :]}
        ack = await gm.command("ambush", command)
        assert ack["type"] == "ack"
    versions = await watching
    assert versions == list(range(1, changes + 1))
    assert [client.kind for client in running.bridge.hub.audience.clients] == ["cli", "cli"]
    with pytest.raises(ConnectionClosed):
        while True:
            async with asyncio.timeout(20):
                await slow.recv()
    # 1013 when it read its close frame within the close deadline (5 s); else it was reset
    # then, its buffers freed (connection.py), and its side sees 1006
    assert slow.close_code in (1013, 1006)


async def test_without_tokens_everyone_is_gm(start_bridge: StartBridge) -> None:
    running = await start_bridge(tokens=Tokens(gm="", player="", open=True))
    peer = await running.peer()
    welcome = await peer.ask({"type": "hello", "client": "web"})
    assert welcome["role"] == "gm"
    assert (await peer.create("ambush"))["type"] == "ack"


def test_tokens_are_made_once_and_kept_private(tmp_path) -> None:  # type: ignore[no-untyped-def]
    first = load_or_make_tokens(tmp_path, None, None)
    again = load_or_make_tokens(tmp_path, None, None)
    assert first == again and first.gm != first.player and len(first.gm) >= 24
    assert (tmp_path / "secrets").stat().st_mode & 0o777 == 0o600
    chosen = load_or_make_tokens(tmp_path, "my-gm-token", "my-player-token")
    assert (chosen.gm, chosen.player) == ("my-gm-token", "my-player-token")
    with pytest.raises(ValueError, match="at least 8"):
        load_or_make_tokens(tmp_path, "short", None)
    with pytest.raises(ValueError, match="differ"):
        load_or_make_tokens(tmp_path, "same-token", "same-token")


def test_roles_come_from_the_tokens() -> None:
    tokens = Tokens(gm="gm-secret-1", player="player-secret-1")
    assert tokens.role_of("gm-secret-1") == "gm"
    assert tokens.role_of("player-secret-1") == "player"
    for wrong in ("gm-secret-", "", None, 5, "gm-secret-1 "):
        assert tokens.role_of(wrong) is None
    assert Tokens(gm="", player="", open=True).role_of(None) == "gm"
