"""The page's work per live event (``make bench``): the core's requests after one event on the
GM's live page, today's way beside the way before, at logs of 15 to 120 entries.

Before: the whole log sent twice (``explain`` and ``series``, each replaying every entry).
Now: ``extend`` of the kept live battle by the event's entry alone (core following.py).
CPython's timings stand for the worker's (Pyodide runs the same code a few times slower, the
same for both). Printed: each length's fastest run per event, the ratio now / before, and the
flatness of each (120 entries / 15) with the goal that the new way's stays flat (<= 1.5x).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from harness import goal

from background_battle import apply, new_battle, to_json
from background_battle.api import handle

LENGTHS = (15, 30, 60, 120)
REPEATS = 30  # whole-log requests (tens of ms each)
REPEATS_NOW = 300  # an entry's request (a fraction of a ms): more runs for a steady least


def battle_log(length: int) -> list[dict[str, Any]]:
    """A fight of ``length`` entries: two units a side, the start, then rounds with the strength
    lost typed in (a few points a side, so that no round ends it)."""
    battle = new_battle("bench")
    setup = [
        {
            "type": "add_unit",
            "name": "Dwarves",
            "side": "allies",
            "fighters": 400,
            "strength": 2000,
        },
        {
            "type": "add_unit",
            "name": "Rangers",
            "side": "allies",
            "fighters": 300,
            "strength": 2000,
        },
        {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 500, "strength": 2000},
        {
            "type": "add_unit",
            "name": "Wolves",
            "side": "enemies",
            "fighters": 200,
            "strength": 2000,
        },
        {"type": "start"},
    ]
    for command in setup:
        battle, _ = apply(battle, command)
    while battle.version < length:
        n = battle.version
        lost = {"allies": 1 + n % 3, "enemies": 1 + (n + 1) % 3}  # both sides last the fight
        battle, _ = apply(battle, {"type": "resolve_round", "mode": "lost", "lost": lost})
    return to_json(battle)["log"]  # type: ignore[no-any-return]


def before(log: list[dict[str, Any]]) -> None:
    """What the page asked of its core per event before: two whole-log requests."""
    for op in ("explain", "series"):
        reply = handle(json.loads(json.dumps({"op": op, "log": log, "name": "bench"})))
        assert reply["ok"], reply


def now(log: list[dict[str, Any]]) -> None:
    """What it asks now: the event's one entry, on the battle the core keeps."""
    kept = handle({"op": "working", "log": log[:-1], "name": "bench", "keep": True})["kept"]
    started = time.perf_counter()
    reply = handle(json.loads(json.dumps({"op": "extend", "kept": kept, "entries": log[-1:]})))
    now.elapsed = time.perf_counter() - started  # type: ignore[attr-defined]
    assert reply["ok"], reply


def least_ms(job: Any, log: list[dict[str, Any]], timed_inside: bool) -> float:
    times = []
    for _ in range(REPEATS_NOW if timed_inside else REPEATS):
        started = time.perf_counter()
        job(log)
        times.append(now.elapsed if timed_inside else time.perf_counter() - started)  # type: ignore[attr-defined]
    return min(times) * 1000  # the least disturbed run on a shared machine


def main() -> int:
    print(
        "page's work per live event (the core's requests; CPython, the fastest of 30 and of 300):"
    )
    rows = {}
    for length in LENGTHS:
        log = battle_log(length)
        old, new = least_ms(before, log, False), least_ms(now, log, True)  # in turns per length
        rows[length] = (old, new)
        ratio = f"now / before {new / old:.3f}x"
        print(f"  {length:4d} entries: before {old:7.2f} ms, now {new:6.3f} ms, {ratio}")
    first, last = rows[LENGTHS[0]], rows[LENGTHS[-1]]
    span = f"{LENGTHS[-1]} / {LENGTHS[0]} entries"
    print(f"  before, {span}: {last[0] / first[0]:.1f}x (grows with the log)")
    flat = goal(last[1] / first[1], 1.5, ".2f")
    print(f"  now, {span}: {flat}")
    at60 = rows[60]
    ratio60 = at60[1] / at60[0]
    print(f"  at 60 entries: now {at60[1]:.3f} ms beside before {at60[0]:.2f} ms ({ratio60:.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
