"""What `--sync full` promises a GM: the time from sending a command to its `ack` (an ack means
stored, so it includes the fsync), measured while 100 clients watch the battle.

The senders run in a process of their own (this file, run as a script), so that the 100
watchers' frames, read in the benchmark's process, do not delay the reading of an ack:

- `one-by-one`: one GM client sends a command, waits for its ack, waits `--pause` seconds (a
  GM clicking fast: each event's fan-out to the watchers is done before the next command),
  sends the next;
- `back-to-back`: the same without the pause (the next command comes while the fan-out of the
  one before it is still being written);
- `concurrent`: `--senders` GM clients sending at once, each one command after the other
  (`bridge_cost.concurrent_senders`: they share transactions, one fsync each).

It prints one JSON object: the latencies of each, in seconds. `bench_bridge.py` starts it
beside the lone fsync and sets the p99s beside the fsync's.

`DURABLE`, the baseline of these acks: a bare `websockets` server that does for each command
only what any durable server must (one SQLite commit with synchronous=FULL, in a thread, then
the ack, then the event broadcast to the watchers), without rules, checks or views.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bridge_cost import command, concurrent_senders
from websockets.asyncio.client import ClientConnection, connect

DURABLE = """
import asyncio, json, sqlite3, sys
from websockets.asyncio.server import broadcast, serve
from websockets.exceptions import ConnectionClosed

db = sqlite3.connect(sys.argv[1], isolation_level=None, check_same_thread=False)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE IF NOT EXISTS r (n INTEGER PRIMARY KEY, data TEXT)")
clients, pad, version = set(), "x" * int(sys.argv[2]), [int(sys.argv[3])]
lock = asyncio.Lock()

async def handler(ws):
    try:
        async for frame in ws:
            message = json.loads(frame)
            if message["type"] == "hello":
                await ws.send('{"type":"welcome"}')
                continue
            async with lock:  # one writer at a time, as a real store
                await asyncio.to_thread(db.execute, "INSERT INTO r (data) VALUES (?)", (frame,))
                version[0] += 1
                event = json.dumps({"type": "event", "version": version[0], "pad": pad})
                event = event.replace(", ", ",").replace(": ", ":")  # as the bridge writes
            await ws.send(json.dumps({"type": "ack", "id": message["id"]}))
            broadcast(clients, event)
    except ConnectionClosed:
        pass

async def watcher(ws):
    clients.add(ws)
    try:
        await ws.wait_closed()
    finally:
        clients.discard(ws)

async def route(ws):
    await (watcher(ws) if ws.request.path == "/watch" else handler(ws))

async def main():
    async with serve(route, "127.0.0.1", 0, compression=None, max_size=2**16) as server:
        print("port", server.sockets[0].getsockname()[1], flush=True)
        await asyncio.get_running_loop().create_future()

asyncio.run(main())
"""


async def one_by_one(ws: ClientConnection, first: int, count: int, pause: float) -> list[float]:
    """Latencies from sending each command to reading its ack (other frames are passed over)."""
    latencies = []
    for n in range(first, first + count):
        body = {"type": "command", "id": f"a{n}", "battle": "bench", "command": command(n)}
        started = time.perf_counter()
        await ws.send(json.dumps(body))
        while True:
            reply = json.loads(await ws.recv())
            if reply.get("id") == f"a{n}":
                break
        latencies.append(time.perf_counter() - started)
        if reply["type"] != "ack":
            raise RuntimeError(f"refused: {reply}")
        if pause:
            await asyncio.sleep(pause)
    return latencies


async def senders(url: str, token: str, count: int, pause: float, many: int) -> dict[str, Any]:
    async with connect(url, compression=None, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "client": "cli"}))
        await ws.recv()
        paced = await one_by_one(ws, 0, count, pause)
        burst = await one_by_one(ws, count, count, 0.0)
    group = await concurrent_senders(url, token, many, max(1, count // many))
    return {"one-by-one": paced, "back-to-back": burst, "concurrent": group["latencies"]}


def run_senders(url: str, token: str, count: int, pause: float, many: int) -> dict[str, Any]:
    """Run the senders in their own process; their latencies, in seconds."""
    here = Path(__file__).parent
    arguments = [url, token, str(count), str(pause), str(many)]
    done = subprocess.run(
        [sys.executable, str(here / "bridge_ack.py"), *arguments],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"the senders failed: {done.stderr.strip().splitlines()[-1:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("count", type=int)
    parser.add_argument("pause", type=float)
    parser.add_argument("senders", type=int)
    args = parser.parse_args()
    result = asyncio.run(senders(args.url, args.token, args.count, args.pause, args.senders))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
