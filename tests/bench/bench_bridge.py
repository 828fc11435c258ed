"""Benchmark of the bridge, side by side with a bare `websockets` broadcast server in one run.

1. Fan-out: 100 clients watch one battle; one client sends 2,000 commands, one at a time.
   Latency = from sending a command to the last of the 100 clients having its event; median,
   p99 and commands/s; then the same 2,000 sent without waiting (throughput). The baseline is a
   bare `websockets` server that broadcasts each frame it gets (no rules, no disk), fed frames of
   the same size as the bridge's events. Each server runs as its own process; the clients share
   this one (on websockets' Sans-I/O protocol, cheap and the same for all). The servers take
   turns for 3 rounds and each one's latencies are pooled, so machine load hits all alike.
   The fan-out row is what 100 watchers cost (the bare server pays it too), not what the disk
   costs; it is set beside a lone fsync for information only.
2. Memory per idle client (RSS of the server process, 1,000 clients, bridge and baseline).
3. Start-up with a battle of 10,000 events: with snapshots (the default) and without.
4. Acks (`bridge_ack.py`), the promise of `--sync full`: with 100 clients watching and reading
   every event, the time from sending a command to its `ack` (stored: fsync included), one by
   one, back to back, and from 100 GM clients sending at once (group commit); beside a lone
   fsync on the same disk (one SQLite commit, synchronous=FULL), taking turns, as p99 ratios.
5. Issue 10 (`bridge_cost.py`): the bridge's work per command at version 10 and at version
   40,000; the largest messages of that long battle against the announced limit.

6. Eviction (`bridge_eviction.py`): 300 players that never read, evicted; the bridge's RSS and
   open files before, at the peak and after, and the time until both are back.

7. With `BENCH_BEFORE_BRIDGE=<a checkout of an older commit>` (`bridge_before.py`): this
   bridge and that one taking turns, fan-out and acks, beside the bare servers, with ratios.

Run: `make bench-bridge` (or `python tests/bench/bench_bridge.py [--quick]`). `BENCH_PARTS`
picks the parts run (comma-separated, of `fan-out`, `acks`, `length`, `work`, `memory`,
`eviction`, `start-up`, `before`; all by default).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bridge_ack import DURABLE, run_senders
from bridge_before import before_and_after
from bridge_cost import (
    SETUP,
    command,
    cost_by_length,
    lone_fsync,
    p99,
    report,
)
from bridge_eviction import eviction_release
from harness import goal
from websockets.asyncio.client import ClientConnection, connect
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from background_battle import redact_entry
from background_battle_bridge.audience import Client
from background_battle_bridge.guard import RateLimit
from background_battle_bridge.hub import Hub
from background_battle_bridge.storage import SqliteStorage

GM = "bench-gm-token"
PLAYER = "bench-player-token"

BASELINE = """
import asyncio
from websockets.asyncio.server import broadcast, serve
from websockets.exceptions import ConnectionClosed

clients = set()

async def handler(ws):
    clients.add(ws)
    try:
        async for frame in ws:
            broadcast([c for c in clients if c is not ws], frame)
            await ws.send('{"type":"ack"}')
    except ConnectionClosed:
        pass
    finally:
        clients.discard(ws)

async def main():
    async with serve(handler, "127.0.0.1", 0, compression=None, max_size=2**16) as server:
        print("port", server.sockets[0].getsockname()[1], flush=True)
        await asyncio.get_running_loop().create_future()

asyncio.run(main())
"""


class Server:
    """A server process (bridge or baseline) on a free port."""

    def __init__(self, args: list[str], quiet: bool = False) -> None:
        tokens = {"BB_GM_TOKEN": GM, "BB_PLAYER_TOKEN": PLAYER}  # never on the command line
        self.process = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if quiet else None,
            text=True,
            env={**os.environ, **tokens},
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"(?:port |127\.0\.0\.1:)(\d+)", line)
        if not found:
            self.stop()
            raise RuntimeError(f"server did not start: {line!r}")
        self.port = int(found.group(1))

    def rss_kib(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()


def start_bridge(data: Path, sync: str = "full", quiet: bool = False) -> Server:
    return Server(
        [
            sys.executable,
            "-m",
            "background_battle_bridge.server",
            "--port",
            "0",
            "--data",
            str(data),
            "--rate",
            "1000000",
            "--burst",
            "1000000",
            "--sync",
            sync,
        ],
        quiet,
    )


def start_baseline() -> Server:
    return Server([sys.executable, "-c", BASELINE])


VERSION = re.compile(r'"version":(\d+)')
WINDOW = 50  # commands in flight at most in the pipelined run
STALL = 60.0  # seconds without the awaited event: the run fails


class Watcher(asyncio.Protocol):
    """One watching client on `websockets`' Sans-I/O protocol: its frames are handled as they
    arrive, with no task per client, so 100 of them in this process cost the client side little.
    """

    def __init__(self, url: str, greeting: str | None, watchers: Watchers) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**20)
        self.greeting = greeting
        self.watchers = watchers
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self.flush()

    def flush(self) -> None:
        assert self.transport is not None
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code != 101:
                    self.ready.set_exception(RuntimeError(f"refused: {event.status_code}"))
                elif self.greeting is None:
                    self.ready.set_result(None)
                else:
                    self.ws.send_text(self.greeting.encode())
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                frame = event.data.decode()
                if frame.startswith('{"type":"state"') and not self.ready.done():
                    self.ready.set_result(None)
                self.watchers.seen_frame(frame)
        self.flush()

    def close(self) -> None:
        if self.transport is not None:
            self.ws.send_close()
            self.flush()
            self.transport.close()


class Watchers:
    """N clients; each event frame's top-level `version` is counted; a future per version
    completes when the last client has it."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.seen: dict[int, int] = {}
        self.done: dict[int, asyncio.Future[float]] = {}
        self.clients: list[Watcher] = []
        self.sample: str | None = None
        self.largest = 0

    def waiter(self, version: int) -> asyncio.Future[float]:
        if version not in self.done:
            self.done[version] = asyncio.get_running_loop().create_future()
        return self.done[version]

    def seen_frame(self, frame: str) -> None:
        self.largest = max(self.largest, len(frame.encode()))
        if not frame.startswith('{"type":"event"'):
            return
        found = VERSION.search(frame)
        if found is None:
            return
        version = int(found.group(1))
        self.sample = self.sample or frame
        seen = self.seen[version] = self.seen.get(version, 0) + 1
        if seen == self.count:
            self.waiter(version).set_result(time.perf_counter())

    async def open(self, url: str, greeting: str | None) -> None:
        """Connect every watcher; with a greeting (the bridge's hello), wait for its state."""
        loop = asyncio.get_running_loop()
        host, port = url.split("//", 1)[1].split("/", 1)[0].split(":")
        for _ in range(self.count):
            _, watcher = await loop.create_connection(
                lambda: Watcher(url, greeting, self), host, int(port)
            )
            await watcher.ready
            self.clients.append(watcher)

    async def close(self) -> None:
        for watcher in self.clients:
            watcher.close()


async def drain(ws: ClientConnection) -> None:
    async for _ in ws:
        pass


async def timed_run(
    watchers: Watchers, send: Callable[[int], Awaitable[None]], first: int, n: int
) -> tuple[list[float], float]:
    """Latencies of n commands sent one at a time, and the rate of n more sent at once (at most
    `WINDOW` ahead of the slowest watcher, so that no watcher falls 1 MiB behind and is cut off).
    """
    latencies = []
    for i in range(first, first + n):
        started = time.perf_counter()
        await send(i)
        latencies.append(await arrived(watchers, i) - started)
    started = time.perf_counter()
    for i in range(first + n, first + 2 * n):
        if i - WINDOW >= first + n:
            await arrived(watchers, i - WINDOW)
        await send(i)
    finished = await arrived(watchers, first + 2 * n - 1)
    return latencies, n / (finished - started)


async def arrived(watchers: Watchers, version: int) -> float:
    """When the last watcher had this version (a run that stalls fails, it does not hang)."""
    return await asyncio.wait_for(asyncio.shield(watchers.waiter(version)), STALL)


async def bench_bridge(clients: int, commands: int, data: Path, sync: str) -> dict[str, Any]:
    server = start_bridge(data, sync)
    url = f"ws://127.0.0.1:{server.port}/ws"
    try:
        gm = await open_battle(url)
        acks = asyncio.create_task(drain(gm))
        watchers = Watchers(clients)
        await watchers.open(url, json.dumps(WATCH))
        first = len(SETUP) + 1

        async def send(version: int) -> None:
            await gm.send(json.dumps(message(f"b{version}", command(version))))

        latencies, rate = await timed_run(watchers, send, first, commands)
        result = {
            "latencies": latencies,
            "pipelined": rate,
            "sample": watchers.sample,
            "largest": watchers.largest,
        }
        await watchers.close()
        acks.cancel()
        await gm.close()
        return result
    finally:
        server.stop()


WATCH = {"type": "hello", "token": PLAYER, "client": "web", "battle": "bench"}


async def open_battle(url: str) -> ClientConnection:
    """A GM connection that has made the benchmark's battle and started it."""
    gm = await connect(url, compression=None, max_size=2**20)
    await gm.send(json.dumps({"type": "hello", "token": GM, "client": "cli"}))
    await gm.recv()
    await gm.send(json.dumps(message("create", {"type": "create_battle"})))
    for n, setup in enumerate(SETUP):
        await gm.send(json.dumps(message(f"s{n}", setup)))
    for _ in range(1 + len(SETUP)):
        while json.loads(await gm.recv())["type"] != "ack":
            pass
    return gm


async def bench_acks(
    clients: int, commands: int, senders: int, data: Path, pause: float, bare: int = 0
) -> dict[str, Any]:
    """Acks of `--sync full` while `clients` watch: the senders in their own process, the
    watchers here, reading every event; every watcher must have had every event. With `bare`
    (the size of the bridge's events), the same against `bridge_ack.DURABLE` instead."""
    if bare:
        data.mkdir(parents=True)
        server = Server([sys.executable, "-c", DURABLE, str(data / "r.sqlite3"), str(bare), "3"])
    else:
        server = start_bridge(data, "full")
    url = f"ws://127.0.0.1:{server.port}/" + ("" if bare else "ws")
    try:
        if not bare:
            gm = await open_battle(url)
            await gm.close()
        watchers = Watchers(clients)
        await watchers.open(url + ("watch" if bare else ""), None if bare else json.dumps(WATCH))
        result = await asyncio.to_thread(run_senders, url, GM, commands, pause, senders)
        last = len(SETUP) + sum(len(latencies) for latencies in result.values())
        await arrived(watchers, last)
        await watchers.close()
        return result
    finally:
        server.stop()


def message(command_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """A `command` message on the benchmark's battle."""
    return {"type": "command", "id": command_id, "battle": "bench", "command": body}


async def bench_baseline(clients: int, commands: int, sample: str) -> dict[str, Any]:
    server = start_baseline()
    url = f"ws://127.0.0.1:{server.port}"
    try:
        sender = await connect(url, compression=None, max_size=2**20)
        acks = asyncio.create_task(drain(sender))
        watchers = Watchers(clients)
        await watchers.open(url + "/", None)
        head, tail = sample.split('"version":', 1)
        tail = tail.lstrip("0123456789")

        async def send(version: int) -> None:
            await sender.send(f'{head}"version":{version}{tail}')

        latencies, rate = await timed_run(watchers, send, 1, commands)
        await watchers.close()
        acks.cancel()
        await sender.close()
        return {"latencies": latencies, "pipelined": rate}
    finally:
        server.stop()


def pool(runs: dict[str, dict[str, Any]], name: str, result: dict[str, Any]) -> None:
    """Add one round's result to a server's pool: latencies joined, rates listed."""
    pooled = runs.setdefault(name, {"latencies": [], "pipelined": []})
    pooled["latencies"] += result["latencies"]
    pooled["pipelined"].append(result["pipelined"])


async def idle_memory(count: int, data: Path) -> tuple[float, float]:
    """KiB of server RSS per idle client: bridge (hello + watching a battle), then baseline."""
    results = []
    for server in (start_bridge(data), start_baseline()):
        try:
            bridge = "--data" in server.process.args  # type: ignore[operator]
            url = f"ws://127.0.0.1:{server.port}" + ("/ws" if bridge else "")
            connections = []
            await asyncio.sleep(0.5)
            before = server.rss_kib()
            for _ in range(count):
                ws = await connect(url, compression=None)
                if bridge:
                    hello = {"type": "hello", "token": PLAYER, "client": "web", "battle": "bench"}
                    await ws.send(json.dumps(hello))
                    await ws.recv()
                    await ws.recv()
                connections.append(ws)
            await asyncio.sleep(1.0)
            results.append((server.rss_kib() - before) / count)
            await asyncio.gather(*(ws.close() for ws in connections), return_exceptions=True)
        finally:
            server.stop()
    return results[0], results[1]


def gm_client() -> Client:
    """A GM client with no connection (the hub is driven directly, no network)."""
    return Client(ws=None, role="gm", kind="cli", bucket=RateLimit(1e9, 1e9, 0.0))  # type: ignore[arg-type]


async def build_battle_async(path: Path, events: int, snapshot_every: int) -> None:
    storage = SqliteStorage(path)
    storage._db.execute("PRAGMA synchronous=OFF")  # building only; the bridge uses FULL
    hub = Hub(storage, snapshot_every=snapshot_every)
    client = gm_client()
    commands = [{"type": "create_battle"}, *SETUP]
    commands += [command(n) for n in range(events - len(SETUP))]
    for n, body in enumerate(commands):
        reply = await hub.handle(client, message(f"e{n}", body))
        assert reply[0]["type"] == "ack", reply
    await hub.close()
    storage.close()


def build_battle(path: Path, events: int, snapshot_every: int) -> None:
    """A data folder with one battle of `events` commands, written through the real hub."""
    asyncio.run(build_battle_async(path, events, snapshot_every))


async def work_per_command_async(path: Path, commands: int) -> list[float]:
    storage = SqliteStorage(path)
    hub = Hub(storage)
    client = gm_client()
    for n, body in enumerate([{"type": "create_battle"}, *SETUP]):
        await hub.handle(client, message(f"s{n}", body))
    room = hub.rooms["bench"]
    spent = []
    for n in range(commands):
        started = time.perf_counter()
        await hub.handle(client, message(f"w{n}", command(n)))
        for role in ("gm", "player"):
            seen = redact_entry(room.battle, room.battle.log[-1].to_dict(), role)
            json.dumps({"type": "event", **seen, "view": room.view_without_log(role)})
        spent.append(time.perf_counter() - started)
    await hub.close()
    storage.close()
    return spent


def work_per_command(path: Path, commands: int) -> list[float]:
    """The bridge's own work per command, no network: checks, core, SQLite (full), both views,
    the player's redacted entry and both encodings (what a fan-out to GM and players needs)."""
    return asyncio.run(work_per_command_async(path, commands))


def time_restore(path: Path) -> tuple[float, int]:
    started = time.perf_counter()
    hub = Hub(SqliteStorage(path), snapshot_every=10**9)
    replayed = hub.restore()
    return time.perf_counter() - started, replayed


def time_process_start(data: Path) -> float:
    started = time.perf_counter()
    server = start_bridge(data)
    ready = time.perf_counter() - started
    server.stop()
    return ready


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer clients and commands")
    args = parser.parse_args()
    clients, commands, idle, events, rounds = (
        (20, 200, 100, 1000, 1) if args.quick else (100, 2000, 1000, 10000, 3)
    )
    long, senders = (4000, 20) if args.quick else (40000, 100)
    evicted = 50 if args.quick else 300
    report = Report("bench-bridge")
    measured: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-bridge-") as tmp:
        print(
            f"bridge benchmark: {clients} clients, {commands} commands, {rounds} rounds, "
            f"loopback, {os.cpu_count()} cores, data on {tmp}"
        )
        parts: dict[str, tuple[str, Callable[[], object]]] = {
            "fan-out": (
                "fan-out",
                lambda: fan_out(Path(tmp), clients, commands, rounds, measured),
            ),
            "acks": (
                "acks with watchers",
                lambda: acks(Path(tmp), clients, commands, senders, rounds),
            ),
            "length": ("cost by battle length", lambda: by_length(Path(tmp), long, commands)),
            "work": ("work per command", lambda: own_work(Path(tmp), commands)),
            "memory": ("memory per idle client", lambda: memory(Path(tmp), idle)),
            "eviction": (
                "readers that never read, evicted",
                lambda: eviction(Path(tmp), evicted),
            ),
            "start-up": ("start-up", lambda: start_up(Path(tmp), events)),
        }
        before = os.environ.get("BENCH_BEFORE_BRIDGE")
        if before:
            parts["before"] = (
                "this bridge beside an older one",
                lambda: before_and_after(
                    sys.modules[__name__],
                    Path(tmp),
                    Path(before),
                    clients,
                    commands,
                    senders,
                    rounds,
                ),
            )
        chosen = os.environ.get("BENCH_PARTS")
        for key, (label, job) in parts.items():
            if chosen is None or key in chosen.split(","):
                report.part(label, job)
    return report.finish()


def fan_out(tmp: Path, clients: int, commands: int, rounds: int, measured: dict[str, Any]) -> None:
    """The servers take turns, round after round, so that the load of the machine falls on
    all of them alike; each one's latencies are pooled over the rounds. A lone fsync on the
    same disk takes its turn too: the baseline of `--sync full`."""
    runs: dict[str, dict[str, Any]] = {}
    sample = ""
    fsync: list[float] = []
    largest = 0
    for round_number in range(rounds):
        fsync += lone_fsync(tmp / "fsync", commands // 2)
        for sync in ("full", "normal"):
            folder = tmp / f"{sync}-{round_number}"
            result = asyncio.run(bench_bridge(clients, commands, folder, sync))
            sample = sample or result["sample"]
            largest = max(largest, result["largest"])
            pool(runs, f"bridge sync={sync}", result)
        pool(runs, "bare websockets", asyncio.run(bench_baseline(clients, commands, sample)))
    print(f"  event size {len(sample)} bytes (the baseline broadcasts frames of this size)")
    print(f"  {'':20} {'median ms':>10} {'p99 ms':>8} {'cmd/s 1-by-1':>13} {'cmd/s pipelined':>16}")
    rows = {}
    for name, result in runs.items():
        lat = result["latencies"]
        rows[name] = row = (
            statistics.median(lat) * 1e3,
            p99(lat) * 1e3,
            len(lat) / sum(lat),
            statistics.median(result["pipelined"]),
        )
        print(f"  {name:20} {row[0]:10.2f} {row[1]:8.2f} {row[2]:13.0f} {row[3]:16.0f}")
    sm, sp, sr, spp = rows["bare websockets"]
    for name in ("bridge sync=full", "bridge sync=normal"):
        bm, bp, br, bpp = rows[name]
        print(
            f"  {name} / bare: median {bm / sm:.2f}x, p99 {bp / sp:.2f}x, "
            f"cmd/s 1-by-1 {br / sr:.2f}x, pipelined {bpp / spp:.2f}x; "
            f"p99 {goal(bp, 10, '.2f', ' ms')}, p99 / bare {goal(bp / sp, 3, '.2f')}"
        )
    print(f"  largest frame a watcher received: {largest:,} B")
    lone = p99(fsync)
    full = rows["bridge sync=full"][1] / 1e3
    print(
        f"  lone fsync p99 {lone * 1e3:.2f} ms; fan-out to the last of {clients} watchers, "
        f"sync=full p99 / lone fsync p99: {full / lone:.2f}x, bare websockets' "
        f"{sp / 1e3 / lone:.2f}x (the fan-out's own cost, not the disk's: see the acks below)"
    )
    measured["fsync"] = fsync


ACK_PAUSE = 0.02  # between the one-by-one commands: a GM clicking 50 times a second


def acks(tmp: Path, clients: int, commands: int, senders: int, rounds: int) -> None:
    """The promise of `--sync full`: command -> ack p99 while `clients` watch, beside a lone
    fsync on the same disk and a bare durable server (`bridge_ack.DURABLE`), taking turns round
    after round, in turn first (see `bridge_ack.py`)."""
    fsync: list[float] = []
    pooled: dict[tuple[str, str], list[float]] = {}
    size = 3000  # about the bridge's event with 2 units (the fan-out part prints it)
    for round_number in range(rounds):
        fsync += lone_fsync(tmp / "fsync-acks", commands)
        servers = [("bridge", 0), ("bare", size)][:: 1 if round_number % 2 else -1]
        for name, bare in servers:
            folder = tmp / f"acks-{name}-{round_number}"
            result = asyncio.run(
                bench_acks(clients, commands // 2, senders, folder, ACK_PAUSE, bare)
            )
            for kind, latencies in result.items():
                pooled.setdefault((name, kind), []).extend(latencies)
    lone = p99(fsync)
    print(
        f"acks (--sync full) with {clients} clients watching, every one having every event; "
        f"{rounds} round(s) pooled; bare = a bare websockets server with one fsync'ed commit "
        "per command (bridge_ack.DURABLE):"
    )
    print(f"  {'':50} {'median ms':>10} {'p99 ms':>8} {'p99/fsync p99':>14} {'p99/bare p99':>13}")
    print(
        f"  {'lone fsync (one SQLite commit, FULL)':50} {statistics.median(fsync) * 1e3:10.2f} "
        f"{lone * 1e3:8.2f} {1:13.2f}x"
    )
    labels = {
        "one-by-one": f"one by one ({ACK_PAUSE * 1e3:.0f} ms apart)",
        "back-to-back": "back to back",
        "concurrent": f"{senders} GMs sending at once",
    }
    for kind, label in labels.items():
        for name in ("bare", "bridge"):
            latencies = pooled[(name, kind)]
            ratio = p99(latencies) / lone
            beside = p99(latencies) / p99(pooled[("bare", kind)])
            verdict = f"  (p99 / lone fsync p99 {goal(ratio, 1.5, '.2f')})"
            print(
                f"  {name + ': command -> ack, ' + label:50} "
                f"{statistics.median(latencies) * 1e3:10.2f} {p99(latencies) * 1e3:8.2f} "
                f"{ratio:13.2f}x {beside:12.2f}x{verdict if name == 'bridge' else ''}"
            )


def by_length(tmp: Path, long: int, commands: int) -> None:
    """Cost per command at version 10 and at `long`; the largest messages of that battle."""
    report(cost_by_length(tmp / "cost.sqlite3", long, commands // 4))


def own_work(tmp: Path, commands: int) -> None:
    spent = work_per_command(tmp / "work.sqlite3", commands)
    print(
        f"  the bridge's own work per command (in one process, no network, sync=full): "
        f"median {statistics.median(spent) * 1e3:.2f} ms, p99 {p99(spent) * 1e3:.2f} ms"
    )


def memory(tmp: Path, idle: int) -> None:
    data = tmp / "full-0"  # the fan-out's data: the players watch its battle
    if not data.is_dir():  # the fan-out part was not run: a battle of its own
        data = tmp / "memory"
        server = start_bridge(data)
        try:
            asyncio.run(_closed(open_battle(f"ws://127.0.0.1:{server.port}/ws")))
        finally:
            server.stop()
    per_bridge, per_base = asyncio.run(idle_memory(idle, data))
    print(
        f"memory per idle client ({idle} clients): bridge {per_bridge:.1f} KiB, "
        f"bare websockets {per_base:.1f} KiB ({per_bridge / max(per_base, 0.1):.2f}x)"
    )


async def _closed(opening: Awaitable[ClientConnection]) -> None:
    await (await opening).close()


def eviction(tmp: Path, players: int) -> None:
    """Never-reading players evicted: memory and files at the peak, and how soon they are back."""
    server = start_bridge(tmp / "eviction", quiet=True)  # not a line for each one evicted
    try:
        got = eviction_release(server.port, server.process.pid, GM, PLAYER, players)
    finally:
        server.stop()
    mib = 1024
    before, peak, after = got["before_rss"], got["peak_rss"], got["after_rss"]
    print(
        f"  {players} players that never read, {got['changes']} changes of ~16 kB each: RSS "
        f"{before / mib:.1f} MiB before (after {players} ordinary players came and went), "
        f"{peak / mib:.1f} MiB at the peak ({(peak - before) / players:.0f} KiB a player), "
        f"{after / mib:.1f} MiB after ({(after - before) / before * 100:+.1f} %); open files "
        f"{got['before_fds']} -> {got['peak_fds']} -> {got['after_fds']}"
    )
    released = got["released"]
    print(
        "  released (RSS within 10 % of before, no file left) "
        + (f"{released:.1f} s after the last change" if released is not None else "NOT in 60 s")
        + "; the close deadline is 5 s"
    )


def start_up(tmp: Path, events: int) -> None:
    timings = {}
    for label, every in (("with snapshots", 1000), ("without snapshots", 10**9)):
        folder = tmp / label.replace(" ", "-")
        folder.mkdir()
        build_battle(folder / "battles.sqlite3", events, every)
        timings[label] = time_restore(folder / "battles.sqlite3")
    print(f"start-up with a battle of {events} events:")
    for label, (seconds, replayed) in timings.items():
        print(f"  restore {label:18} {seconds * 1e3:8.1f} ms ({replayed} records replayed)")
    process = time_process_start(tmp / "with-snapshots")
    print(f"  whole process, start to listening (with snapshots): {process * 1e3:.0f} ms")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    from harness import Report

    sys.exit(main())
