"""Readers that never read: closed within a bounded time, their memory and sockets given back
(`eviction.py`, `connection.py`). Measured on the real bridge process, from /proc."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import never_reading as peers
import pytest
from bridge_helpers import (
    ADDRESS,
    COMMAND,
    GM,
    PLAYER,
    STARTING,
    TOKENS_ENV,
    WAIT,
    Running,
    StartBridge,
    stop_gently,
)
from websockets.client import ClientProtocol
from websockets.http11 import Response
from websockets.sync.client import ClientConnection, connect
from websockets.uri import parse_uri

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

PLAYERS = 300
RELEASE_BOUND = 30.0  # seconds: the close deadline is 5 s; a guard against "never"
# the close deadline and a margin for a busy machine, under the keepalive's 20 s: what ends
# the stop is the close deadline, not the keepalive
STOP_BOUND = 15.0
# a battle whose events are big (a player's about 16 kB: every event carries the view), so that
# each player's buffer passes 1 MiB (the limit) within the 100 changes
MODIFIERS = [{"name": f"m{i:03d}" + "x" * 190, "percent": 1} for i in range(50)]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@contextmanager
def bridge(data: Path, log: Path) -> Iterator[tuple[int, int]]:
    """The real bridge on a free port, its log in a file; yields its pid and port."""
    with log.open("w") as err:
        process = subprocess.Popen(
            [*COMMAND, "--port", "0", "--data", str(data)],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=TOKENS_ENV,
        )
        try:
            assert process.stdout is not None
            found = ADDRESS.search(process.stdout.readline())
            assert found, log.read_text()
            yield process.pid, int(found.group(1))
        finally:
            stop_gently(process)
            process.wait(timeout=60)
            assert process.stdout is not None
            process.stdout.close()


def never_reading_player(port: int) -> socket.socket:
    """A player watching "ambush" that never reads again (tests/support/never_reading.py)."""
    return peers.never_reading(port, PLAYER, "ambush")


def came_and_went(port: int) -> None:
    """The baseline: 300 players that watched and left as usual (CPython's allocator keeps
    some 20 kB for each connection the process ever held at once; no leak, it is reused)."""
    hello = {"type": "hello", "token": PLAYER, "client": "web", "battle": "ambush"}
    with ExitStack() as players:
        for _ in range(PLAYERS):
            player = players.enter_context(connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22))
            player.send(json.dumps(hello))
            assert json.loads(player.recv(timeout=20))["type"] == "welcome"
            assert json.loads(player.recv(timeout=20))["type"] == "state"


def command(gm: ClientConnection, n: int, body: dict[str, object]) -> None:
    gm.send(json.dumps({"type": "command", "id": f"c{n}", "battle": "ambush", "command": body}))
    while True:
        reply = json.loads(gm.recv(timeout=60))
        if reply.get("id") == f"c{n}":
            assert reply["type"] == "ack", reply
            return


def settled(pid: int, rss: int, fds: int) -> bool:
    return rss_kib(pid) <= rss * 1.10 and open_fds(pid) <= fds


def test_300_never_reading_players_are_evicted_and_give_back_memory_and_sockets(
    tmp_path: Path,
) -> None:
    log = tmp_path / "bridge.log"
    with bridge(tmp_path / "data", log) as (pid, port), ExitStack() as stack:
        gm = stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22))
        gm.send(json.dumps({"type": "hello", "token": GM, "client": "cli"}))
        assert json.loads(gm.recv(timeout=20))["type"] == "welcome"
        orders = [
            {"type": "set_modifiers", "side": side, "modifiers": MODIFIERS}
            for side in ("allies", "enemies")
        ]
        for n, body in enumerate([{"type": "create_battle"}, *orders, *STARTING]):
            command(gm, n, body)
        came_and_went(port)
        time.sleep(1.0)
        rss, fds = rss_kib(pid), open_fds(pid)

        players = [never_reading_player(port) for _ in range(PLAYERS)]
        for sock in players:
            stack.callback(sock.close)
        for n in range(100):
            body = {"type": "set_strength", "side": "allies", "strength": 20 + n % 2}
            command(gm, 10 + n, body)
        peak_rss, peak_fds = rss_kib(pid), open_fds(pid)
        assert peak_fds >= fds + PLAYERS
        assert peak_rss > rss * 1.10, (rss, peak_rss)  # the buffers were there to be freed

        released = time.monotonic()
        while not settled(pid, rss, fds) and time.monotonic() - released < RELEASE_BOUND:
            time.sleep(0.2)
        took = time.monotonic() - released
        now_rss, now_fds = rss_kib(pid), open_fds(pid)
        assert now_fds <= fds, (fds, peak_fds, now_fds)
        assert now_rss <= rss * 1.10, (rss, peak_rss, now_rss)
        assert took < RELEASE_BOUND
        # the GM, who reads, was never held up and is still served
        command(gm, 200, {"type": "set_strength", "side": "allies", "strength": 25})
    said = log.read_text()
    assert said.count("closing a client that reads too slowly") == PLAYERS, said[-2000:]
    print(
        f"RSS {rss} -> {peak_rss} -> {now_rss} KiB, fds {fds} -> {peak_fds} -> {now_fds}, "
        f"released in {took:.1f} s"
    )


async def never_reading(port: int, hello: dict[str, object]) -> asyncio.StreamWriter:
    """The same never-reading client, on this process's event loop (beside a bridge in it)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws"))
    protocol.send_request(protocol.connect())
    writer.write(b"".join(protocol.data_to_send()))
    while not any(isinstance(event, Response) for event in protocol.events_received()):
        protocol.receive_data(await reader.read(1024))
    protocol.send_text(json.dumps(hello).encode())
    writer.write(b"".join(protocol.data_to_send()))
    await writer.drain()
    return writer


async def backlog(running: Running, kind: str, changes: int) -> None:
    """Big changes (about 40 kB each to a GM) while a never-reading `kind` client watches."""
    gm = await running.gm()
    await gm.create("ambush")
    hello = {"type": "hello", "token": GM, "client": kind, "battle": "ambush"}
    running.stack.callback((await never_reading(running.port, hello)).close)
    hub = running.bridge.hub
    async with asyncio.timeout(WAIT):
        while not any(client.kind == kind for client in hub.audience.clients):
            await asyncio.sleep(0.01)
    for n in range(changes):
        body = {"type": "set_modifiers", "side": "allies", "modifiers": MODIFIERS[n % 2 :]}
        assert (await gm.command("ambush", body))["type"] == "ack"


async def test_past_the_ceiling_a_new_watcher_is_refused_until_the_slow_reader_is_gone(
    start_bridge: StartBridge,
) -> None:
    running = await start_bridge(rate=100_000.0, burst=100_000.0)
    eviction = running.bridge.hub.audience.eviction
    eviction.ceiling = 100 * 1024
    await backlog(running, "web", 12)  # some 480 kB sent, at most 128 kB of it in the kernel
    held = eviction.buffered(c.ws for c in running.bridge.hub.audience.clients)
    assert held > eviction.ceiling

    late = await running.gm()
    refused = await late.ask({"type": "subscribe", "id": "s1", "battle": "ambush"})
    assert (refused["type"], refused["code"], refused["id"]) == ("error", "overloaded", "s1")
    assert refused["params"]["max"] == 100 * 1024 and refused["params"]["buffered"] > 100 * 1024
    assert "read slowly" in refused["message"]
    assert (await late.ask({"type": "ping"}))["type"] == "pong"  # the connection goes on

    [slow] = [c for c in running.bridge.hub.audience.clients if c.kind == "web"]
    await slow.ws.close(1013, "reader too slow")  # never read: aborted after the deadline
    state = await late.ask({"type": "subscribe", "id": "s2", "battle": "ambush"}, "state")
    assert state["version"] == 12


async def test_a_peer_that_reads_nothing_is_dropped_by_the_keepalive_deadline(
    start_bridge: StartBridge,
) -> None:
    """Below the eviction limit, but not reading: websockets' own ping would wait for the
    drain forever; here the ping's deadline counts from when it is due."""
    running = await start_bridge(rate=100_000.0, burst=100_000.0, ping_interval=2.0)
    await backlog(running, "web", 20)  # past the 32 kB that pause the writing, under 1 MiB
    hub = running.bridge.hub
    async with asyncio.timeout(WAIT):
        while any(client.kind == "web" for client in hub.audience.clients):
            await asyncio.sleep(0.05)
    assert [client.kind for client in hub.audience.clients] == ["cli"]


def test_the_bridge_stops_on_sigterm_while_players_never_read(tmp_path: Path) -> None:
    """Stopping closes every connection: a close frame behind unread data would wait for a drain
    that never comes; the close deadline ends it (exit 0, within `STOP_BOUND`)."""
    log = tmp_path / "bridge.log"
    with log.open("w") as err:
        process = subprocess.Popen(
            [*COMMAND, "--port", "0", "--data", str(tmp_path / "data")],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=TOKENS_ENV,
        )
        assert process.stdout is not None
        try:
            found = ADDRESS.search(process.stdout.readline())
            assert found, log.read_text()
            port = int(found.group(1))
            with ExitStack() as stack:
                gm = stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22))
                gm.send(json.dumps({"type": "hello", "token": GM, "client": "cli"}))
                gm.recv(timeout=20)
                orders = [
                    {"type": "set_modifiers", "side": side, "modifiers": MODIFIERS}
                    for side in ("allies", "enemies")
                ]
                for n, body in enumerate([{"type": "create_battle"}, *orders, *STARTING]):
                    command(gm, n, body)
                for _ in range(5):
                    stack.callback(never_reading_player(port).close)
                for n in range(15):  # some 240 kB each: the writing pauses, under 1 MiB
                    body = {"type": "set_strength", "side": "allies", "strength": 20 + n % 2}
                    command(gm, 10 + n, body)
                stopping = time.monotonic()
                stop_gently(process)
                assert process.wait(timeout=STOP_BOUND) == 0
                print(f"stopped {time.monotonic() - stopping:.1f} s after SIGTERM")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()
