"""Parts of the bridge benchmark that ask "does it cost more as things grow?" (issue 10).

- `lone_fsync`: the disk's own price, one SQLite transaction with `synchronous=FULL` at a time
  (the baseline of `--sync full`).
- `cost_by_length`: the bridge's work per command (checks, core, SQLite, both views and
  encodings; no network) on a battle at version 10 and one at version 40,000, taking turns.
- `largest_messages`: the biggest `state` and `log_page` of that long battle, against the
  `max_message` the bridge announces.
- `concurrent_senders`: many GM clients sending at once to a real bridge process with
  `--sync full`: latencies and commands per second, to set beside the lone fsync.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

from harness import goal
from websockets.asyncio.client import connect

from background_battle import apply, new_battle
from background_battle_bridge import pages
from background_battle_bridge import protocol as p
from background_battle_bridge.audience import Client
from background_battle_bridge.guard import RateLimit
from background_battle_bridge.hub import Hub
from background_battle_bridge.storage import SqliteStorage

SETUP = [
    {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 40, "strength": 90},
    {"type": "add_unit", "name": "Dwarves", "side": "allies", "fighters": 30, "strength": 80},
    {"type": "start"},
]


def command(n: int) -> dict[str, Any]:
    """The n-th benchmark command: the GM adjusts the allies' strength (a real core command)."""
    return {"type": "set_strength", "side": "allies", "strength": 20 + n % 60}


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def lone_fsync(folder: Path, count: int) -> list[float]:
    """Seconds per commit of one small record, one transaction at a time, fsync'ed (FULL)."""
    folder.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(folder / "fsync.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS r (n INTEGER PRIMARY KEY, data TEXT)")
    record = json.dumps({"kind": "entry", "entry": {"command": command(1)}, "pad": "x" * 150})
    spent = []
    for _ in range(count):
        started = time.perf_counter()
        db.execute("INSERT INTO r (data) VALUES (?)", (record,))
        spent.append(time.perf_counter() - started)
    db.close()
    return spent


def write_battle(storage: SqliteStorage, name: str, version: int) -> None:
    """A battle of `version` entries written as the bridge writes it (records, no snapshot)."""
    battle = new_battle(name)
    rng = random.Random(1)
    rows: list[tuple[str, int, dict[str, Any]]] = [(name, 1, {"kind": "created", "id": "c"})]
    for n in range(version):
        body = SETUP[n] if n < len(SETUP) else command(n)
        battle, _ = apply(battle, body, rng)
        record = {"kind": "entry", "id": f"e{n}", "entry": battle.log[-1].to_dict()}
        rows.append((name, n + 2, record))
        if len(rows) >= 5000:
            storage.append_many(rows)
            rows = []
    storage.append_many(rows)


async def _cost_by_length(path: Path, long: int, commands: int) -> dict[str, Any]:
    build = SqliteStorage(path)
    build._db.execute("PRAGMA synchronous=OFF")  # building only
    write_battle(build, "short", 10)
    write_battle(build, "long", long)
    build.close()
    storage = SqliteStorage(path, sync="normal")  # the bridge's own work, not the disk's
    hub = Hub(storage)  # snapshots every 1,000 records: the long battle's first one runs now
    started = time.perf_counter()
    hub.restore()
    restored = time.perf_counter() - started
    client = Client(ws=None, role="gm", kind="cli", bucket=RateLimit(1e9, 1e9, 0.0))  # type: ignore[arg-type]
    spent: dict[str, list[float]] = {"short": [], "long": []}
    for n in range(commands):
        for name in ("short", "long"):  # taking turns: the machine's load falls on both alike
            room = hub.rooms[name]
            message = {"type": "command", "id": f"w{n}", "battle": name, "command": command(n)}
            started = time.perf_counter()
            reply = await hub.handle(client, message)
            for role in ("gm", "player"):  # what the fan-out encodes per role
                entry = room.battle.log[-1].to_dict()
                p.dumps({"type": "event", "entry": entry, "view": room.view_without_log(role)})
            spent[name].append(time.perf_counter() - started)
            assert reply[0]["type"] == "ack", reply
    room = hub.rooms["long"]
    sizes = {
        f"state ({role})": len(p.dumps(pages.state(room, role)).encode())
        for role in ("gm", "player")
    }
    sizes["log_page"] = len(p.dumps(pages.log_page(room, "gm", 0, room.version)).encode())
    snapshots = hub.snapshots.written
    await hub.close()
    storage.close()
    return {
        "spent": spent,
        "restored": restored,
        "sizes": sizes,
        "version": room.version,
        "snapshots": snapshots,
    }


def cost_by_length(path: Path, long: int, commands: int) -> dict[str, Any]:
    return asyncio.run(_cost_by_length(path, long, commands))


async def concurrent_senders(url: str, token: str, senders: int, each: int) -> dict[str, Any]:
    """`senders` GM clients, each sending `each` commands one after the other, all at once."""
    latencies: list[float] = []

    async def sender(k: int) -> None:
        async with connect(url, compression=None, max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "client": "cli"}))
            await ws.recv()
            for n in range(each):
                body = {"type": "rename", "name": f"s{k}-{n}"}
                started = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {"type": "command", "id": f"s{k}-{n}", "battle": "bench", "command": body}
                    )
                )
                while True:
                    reply = json.loads(await ws.recv())
                    if reply.get("id") == f"s{k}-{n}":
                        assert reply["type"] == "ack", reply
                        break
                latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(sender(k) for k in range(senders)))
    return {"latencies": latencies, "rate": len(latencies) / (time.perf_counter() - started)}


def report(cost: dict[str, Any]) -> None:
    """Print the ratios the issue asks for, beside their baselines."""
    short, long = cost["spent"]["short"], cost["spent"]["long"]
    ratio = statistics.median(long) / statistics.median(short)
    print(
        f"command cost by battle length (own work, no network; {len(short)} commands each):\n"
        f"  at version 10: median {statistics.median(short) * 1e3:.3f} ms, p99 "
        f"{p99(short) * 1e3:.3f} ms; at version {cost['version']:,}: median "
        f"{statistics.median(long) * 1e3:.3f} ms, p99 {p99(long) * 1e3:.3f} ms\n"
        f"  ratio of medians {goal(ratio, 1.2, '.2f')}; "
        f"restoring both took {cost['restored'] * 1e3:.0f} ms\n"
        f"  slowest command while the long battle's snapshot was written in its thread "
        f"({cost['snapshots']} written meanwhile): {max(long) * 1e3:.1f} ms "
        f"(at version 10: {max(short) * 1e3:.1f} ms)"
    )
    largest = max(cost["sizes"].values())
    listed = ", ".join(f"{name} {size:,} B" for name, size in cost["sizes"].items())
    print(
        f"largest messages of the long battle: {listed}; announced max_message "
        f"{p.MAX_MESSAGE:,} B: {'under' if largest <= p.MAX_MESSAGE else 'OVER'}"
    )
