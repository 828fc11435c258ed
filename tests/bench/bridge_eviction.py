"""Readers that never read, evicted: what they hold at the peak and how soon it is given back.

N players (real sockets with a 4 kB receive window) watch a battle whose events are about
16 kB each and never read; the GM makes changes until every one of them is past the 1 MiB
limit. Measured on the bridge process, from /proc: its RSS and open file descriptors before
(after N ordinary players came and went: what CPython's allocator keeps for N connections
held at once), at the peak, and the time from the last change until both are back (RSS
within 10 % of before, not one descriptor more). The bridge closes an evicted reader within
its close deadline (5 s) whatever the reader does, then frees what it held.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from never_reading import never_reading

CHANGES = 100
BOUND = 60.0  # seconds: a release slower than this is reported as not released
MODIFIERS = [{"name": f"m{i:03d}" + "x" * 190, "percent": 1} for i in range(50)]


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _command(gm: ClientConnection, n: int, body: dict[str, Any]) -> None:
    gm.send(json.dumps({"type": "command", "id": f"e{n}", "battle": "evict", "command": body}))
    while json.loads(gm.recv(timeout=120)).get("id") != f"e{n}":
        pass


def eviction_release(
    port: int, pid: int, gm_token: str, token: str, players: int
) -> dict[str, Any]:
    """Peak and release of `players` never-reading players on the bridge at `port` (`pid`)."""
    url = f"ws://127.0.0.1:{port}/ws"
    with ExitStack() as stack:
        gm = stack.enter_context(connect(url, max_size=2**22))
        gm.send(json.dumps({"type": "hello", "token": gm_token, "client": "cli"}))
        gm.recv(timeout=60)
        setup: list[dict[str, Any]] = [{"type": "create_battle"}]
        setup += [
            {"type": "set_modifiers", "side": side, "modifiers": MODIFIERS}
            for side in ("allies", "enemies")
        ]
        setup += [
            {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 40, "strength": 90},
            {
                "type": "add_unit",
                "name": "Dwarves",
                "side": "allies",
                "fighters": 30,
                "strength": 80,
            },
            {"type": "start"},
        ]
        for n, body in enumerate(setup):
            _command(gm, n, body)
        with ExitStack() as ordinary:  # the baseline: as many players came and went
            for _ in range(players):
                player = ordinary.enter_context(connect(url, max_size=2**22))
                player.send(
                    json.dumps(
                        {"type": "hello", "token": token, "client": "web", "battle": "evict"}
                    )
                )
                player.recv(timeout=60)
                player.recv(timeout=60)
        time.sleep(1.0)
        before_rss, before_fds = rss_kib(pid), open_fds(pid)
        for sock in [never_reading(port, token, "evict") for _ in range(players)]:
            stack.callback(sock.close)
        after_connect = rss_kib(pid)
        for n in range(CHANGES):  # each player's share passes 1 MiB after some 70 of them
            _command(
                gm, 100 + n, {"type": "set_strength", "side": "allies", "strength": 20 + n % 2}
            )
        peak_rss, peak_fds = rss_kib(pid), open_fds(pid)
        started = time.perf_counter()
        while time.perf_counter() - started < BOUND:
            if rss_kib(pid) <= before_rss * 1.10 and open_fds(pid) <= before_fds:
                break
            time.sleep(0.05)
        released = time.perf_counter() - started
        return {
            "players": players,
            "changes": CHANGES,
            "before_rss": before_rss,
            "connected_rss": after_connect,
            "peak_rss": max(peak_rss, after_connect),
            "after_rss": rss_kib(pid),
            "before_fds": before_fds,
            "peak_fds": peak_fds,
            "after_fds": open_fds(pid),
            "released": released if released < BOUND else None,
        }
