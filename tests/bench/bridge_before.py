"""This bridge beside an older one in one run: `BENCH_BEFORE_BRIDGE=<a checkout of it>`.

The two bridges (the older one's `core/` and `bridge/` put first on `PYTHONPATH` of its server
process) and the bare servers take turns, round after round, in alternating order, so that
the machine's load falls on all alike; each one's latencies are pooled. Two rows of each: the
fan-out (to the last of 100 watchers, `--sync full`) and the acks with 100 watchers (one by
one, back to back, GMs at once), each as median and p99, and as a ratio to the bare server's
and to the older bridge's.
"""

from __future__ import annotations

import asyncio
import os
import statistics
from pathlib import Path
from typing import Any

from bridge_cost import p99

KINDS = ("fan-out", "one-by-one", "back-to-back", "concurrent")
BARE_EVENT = 3000  # about the bridge's event with 2 units (as in the acks part)


def before_and_after(
    bench: Any, tmp: Path, before: Path, clients: int, commands: int, senders: int, rounds: int
) -> None:
    """`bench` is `bench_bridge` (its runners); `before` the older checkout."""
    servers = {"before": str(before), "this": ""}
    pooled: dict[tuple[str, str], list[float]] = {}
    sample = ""
    for number in range(rounds):
        for name in list(servers)[:: 1 if number % 2 == 0 else -1]:
            pythonpath(servers[name])
            folder = tmp / f"before-after-{name}-{number}"
            result = asyncio.run(bench.bench_bridge(clients, commands, folder / "f", "full"))
            sample = sample or result["sample"]
            pooled.setdefault((name, "fan-out"), []).extend(result["latencies"])
            acks = asyncio.run(
                bench.bench_acks(clients, commands // 2, senders, folder / "a", bench.ACK_PAUSE)
            )
            for kind, latencies in acks.items():
                pooled.setdefault((name, kind), []).extend(latencies)
        pythonpath("")
        bare = asyncio.run(bench.bench_baseline(clients, commands, sample))
        pooled.setdefault(("bare", "fan-out"), []).extend(bare["latencies"])
        folder = tmp / f"before-after-bare-{number}"
        acks = asyncio.run(
            bench.bench_acks(clients, commands // 2, senders, folder, bench.ACK_PAUSE, BARE_EVENT)
        )
        for kind, latencies in acks.items():
            pooled.setdefault(("bare", kind), []).extend(latencies)
    print(
        f"this bridge beside the one in {before} ({rounds} round(s) taking turns, {clients} "
        f"watchers, {commands} commands for the fan-out, {commands // 2} per ack kind):"
    )
    print(f"  {'':34} {'median ms':>10} {'p99 ms':>8} {'median/bare':>12} {'p99/bare':>9}")
    for kind in KINDS:
        bare_median, bare_p99 = median_p99(pooled[("bare", kind)])
        for name in ("bare", "before", "this"):
            median, high = median_p99(pooled[(name, kind)])
            print(
                f"  {kind + ', ' + name:34} {median * 1e3:10.2f} {high * 1e3:8.2f} "
                f"{median / bare_median:11.2f}x {high / bare_p99:8.2f}x"
            )
        this_median, this_p99 = median_p99(pooled[("this", kind)])
        before_median, before_p99 = median_p99(pooled[("before", kind)])
        print(
            f"  {kind + ', this / before':34} median {this_median / before_median:.2f}x, "
            f"p99 {this_p99 / before_p99:.2f}x"
        )


def median_p99(latencies: list[float]) -> tuple[float, float]:
    return statistics.median(latencies), p99(latencies)


def pythonpath(checkout: str) -> None:
    """The bridge processes started from now on run the checkout's code (none: this one's)."""
    if checkout:
        os.environ["PYTHONPATH"] = f"{checkout}/core{os.pathsep}{checkout}/bridge"
    else:
        os.environ.pop("PYTHONPATH", None)
