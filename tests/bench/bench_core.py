"""Core benchmarks (``make bench``): odds and casualties, each beside a baseline in the same run.

Goals (issue 2): 10,000 simulated battles of 2 sides x 3 units in under 1 s of CPython on one
core; casualties for a side of 1,000 units in under 50 ms.
"""

from __future__ import annotations

import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from background_battle import Battle, apply, casualties, from_json, new_battle, odds, to_json


def best_of(repeats: int, job: Callable[[], object]) -> float:
    """The fastest of several runs, in seconds (the least disturbed by the shared machine)."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        job()
        times.append(time.perf_counter() - started)
    return min(times)


def three_against_three() -> Battle:
    battle = new_battle("bench")
    for side, units in (
        ("allies", [("Ironbreakers", 10, 30), ("Rangers", 8, 16), ("Quarrellers", 12, 24)]),
        ("enemies", [("Boyz", 12, 26), ("Archers", 16, 24), ("Wolf riders", 6, 21)]),
    ):
        for name, fighters, strength in units:
            battle, _ = apply(
                battle,
                {
                    "type": "add_unit",
                    "name": name,
                    "side": side,
                    "fighters": fighters,
                    "strength": strength,
                },
            )
    battle, _ = apply(battle, {"type": "start"})
    return battle


def bench_odds() -> None:
    battle = three_against_three()
    runs = 10_000
    fast = best_of(3, lambda: odds(battle, runs, seed=1))

    def through_commands(count: int) -> None:  # baseline: each round a validated command
        rng = random.Random(1)
        for _ in range(count):
            played = battle
            while played.status == "fighting":
                played, _ = apply(played, {"type": "resolve_round", "mode": "auto"}, rng)

    sample = 200
    slow = best_of(3, lambda: through_commands(sample)) * runs / sample
    result = odds(battle, runs, seed=1)
    print(
        f"odds: {runs} battles of 3 v 3 units in {fast:.3f} s "
        f"= {runs / fast:,.0f} battles/s (goal: under 1 s) "
        f"[{result.expected_rounds:.1f} rounds each on average]"
    )
    print(
        f"  baseline, the same battles as validated commands: {slow:.2f} s "
        f"-> the simulation is {slow / fast:.0f}x faster"
    )


def bench_casualties() -> None:
    rng = random.Random(2)
    fighters = [rng.randint(1, 200) for _ in range(1000)]
    exact = best_of(20, lambda: casualties(100_000, 41_234, fighters))

    def floats() -> list[tuple[int, int, int]]:  # baseline: the naive float formula, no checks
        share = (100_000 - 41_234) / 100_000
        out = []
        for n in fighters:
            killed = round(n * share / 2)
            wounded = min(2 * killed, n - killed)
            out.append((killed, wounded, n - killed - wounded))
        return out

    naive = best_of(20, floats)
    print(
        f"casualties: a side of 1,000 units in {exact * 1000:.2f} ms (goal: under 50 ms); "
        f"naive floats {naive * 1000:.2f} ms -> exact arithmetic costs {exact / naive:.1f}x"
    )


def bench_replay() -> None:
    battle = three_against_three()
    rng = random.Random(3)
    for _ in range(300):
        battle, _ = apply(
            battle, {"type": "set_strength", "side": "allies", "strength": rng.randint(1, 90)}
        )
    data = to_json(battle)
    load = [best_of(1, lambda: from_json(data)) for _ in range(5)]
    print(
        f"load a battle of {len(data['log'])} log entries (checked by replay): "
        f"median {statistics.median(load) * 1000:.1f} ms"
    )


def bench_number_text() -> None:
    """Issue 26: a number in text costs microseconds whatever its text (it took 58 s for
    "1e30000000" when the core read it before checking its form); "1/2" beside it."""
    battle = three_against_three()
    texts = {
        '"1/2"': "1/2",
        '"1e30000000"': "1e30000000",
        '"0.5e-4299"': "0.5e-4299",
        "400 digits": "0." + "3" * 398,
        "500,000 digits": "9" * 500_000,
    }
    base = best_of(200, lambda: apply(battle, {"type": "pcs_won", "fleeing": "1/2"}))
    for name, typed in texts.items():

        def one(typed: str = typed) -> None:
            with contextlib.suppress(ValueError):  # a BattleError: refused
                apply(battle, {"type": "pcs_won", "fleeing": typed})

        spent = best_of(50, one)
        print(f"pcs_won fleeing {name}: {spent * 1e6:.0f} us ({spent / base:.2f}x that of 1/2)")


def main() -> int:
    """Each part on its own: one that fails is reported and the next one runs."""
    report = Report("bench-core")
    report.part("odds", bench_odds)
    report.part("casualties", bench_casualties)
    report.part("replay", bench_replay)
    report.part("number text", bench_number_text)
    return report.finish()


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    from harness import Report

    sys.exit(main())
