"""Odds: a Monte Carlo estimate of how the battle ends, from any state (automatic rounds)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .battle import Battle
from .casualties import lost_share, unit_casualties
from .errors import BattleError
from .log import apply
from .opposed import loss_between, wfrp_test
from .plain import plain
from .validate import SIDES, Side, whole

MAX_RUNS: Final = 100_000
MAX_ROUNDS: Final = 1_000
MAX_WORK: Final = 20_000_000  # rounds over all runs, at worst


@dataclass(frozen=True)
class UnitOdds:
    """A unit's expected fates over all runs."""

    id: str
    name: str
    side: str
    killed: float
    wounded: float
    fit: float


@dataclass(frozen=True)
class Odds:
    """Shares of runs each side won (or that ran past the round limit), and expectations."""

    runs: int
    allies_win: float
    enemies_win: float
    unfinished: float
    expected_rounds: float
    expected_strength: dict[str, float]
    units: tuple[UnitOdds, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form."""
        return {
            "runs": self.runs,
            "allies_win": self.allies_win,
            "enemies_win": self.enemies_win,
            "unfinished": self.unfinished,
            "expected_rounds": self.expected_rounds,
            "expected_strength": dict(self.expected_strength),
            "units": [plain(unit) for unit in self.units],
        }


def odds(battle: Battle, runs: int = 10_000, seed: int | None = None) -> Odds:
    """Play the battle out ``runs`` times with automatic rounds; the same seed, the same odds.

    >>> from background_battle import new_battle
    >>> b, _ = apply(new_battle(), {"type": "add_unit", "name": "Dwarves", "side": "allies",
    ...     "fighters": 10, "strength": 30})
    >>> b, _ = apply(b, {"type": "add_unit", "name": "Orcs", "side": "enemies",
    ...     "fighters": 12, "strength": 26})
    >>> result = odds(b, runs=2000, seed=7)
    >>> result.allies_win > result.enemies_win, result.allies_win + result.enemies_win
    (True, 1.0)

    Raises:
        BattleError: for runs outside 1..100000, a battle that cannot start, or a job so big
            (huge strengths times runs) that it would not finish in reasonable time.
    """
    runs = whole(runs, "runs", 1, MAX_RUNS)
    if seed is not None:
        seed = whole(seed, "seed", 0, 2**63)
    if battle.status == "setup":
        battle, _ = apply(battle, {"type": "start"})
    start = {s: battle.strength(s) for s in SIDES}
    bonus = {s: battle.side(s).pending_bonus for s in SIDES}
    longest = min(MAX_ROUNDS, start["allies"] + start["enemies"])
    if runs * longest > MAX_WORK:
        most = max(1, MAX_WORK // max(1, longest))
        raise BattleError(
            "too_many",
            "runs",
            f"runs must be at most {most} for strengths this large",
            min=1,
            max=most,
        )
    if battle.status == "ended":
        finals: Counter[tuple[int, int, int]] = Counter(
            {(start["allies"], start["enemies"], 0): runs}
        )
    else:
        finals = _play(start["allies"], start["enemies"], bonus, runs, random.Random(seed))
    return _summary(battle, finals, runs)


def _play(
    allies: int, enemies: int, bonus: Mapping[Side, int], runs: int, rng: random.Random
) -> Counter[tuple[int, int, int]]:
    """The hot loop: ranks of every roll per target, cached; the rules come from ``opposed``."""
    cache: dict[int, list[int]] = {}

    def ranks(target: int) -> list[int]:
        found = cache.get(target)
        if found is None:
            found = cache[target] = [wfrp_test(target, roll).rank for roll in range(1, 101)]
        return found

    draw = rng.random
    finals: Counter[tuple[int, int, int]] = Counter()
    first_a, first_e = allies + bonus["allies"], enemies + bonus["enemies"]
    for _ in range(runs):
        a, e, target_a, target_e, rounds = allies, enemies, first_a, first_e, 0
        while a > 0 and e > 0 and rounds < MAX_ROUNDS:
            rounds += 1
            rank_a = ranks(target_a)[int(draw() * 100)]
            rank_e = ranks(target_e)[int(draw() * 100)]
            if rank_a > rank_e:
                e = max(0, e - loss_between(rank_a, rank_e))
            elif rank_e > rank_a:
                a = max(0, a - loss_between(rank_e, rank_a))
            target_a, target_e = a, e
        finals[(a, e, rounds)] += 1
    return finals


def _summary(battle: Battle, finals: Counter[tuple[int, int, int]], runs: int) -> Odds:
    wins = {"allies": 0, "enemies": 0, "unfinished": 0}
    rounds_total = 0
    strength_total: dict[str, int] = {s: 0 for s in SIDES}
    by_strength: dict[str, Counter[int]] = {s: Counter() for s in SIDES}
    for (a, e, rounds), count in finals.items():
        key = (battle.winner or "unfinished") if battle.status == "ended" else _outcome(a, e)
        wins[key] += count
        rounds_total += rounds * count
        for side, value in zip(SIDES, (a, e), strict=True):
            strength_total[side] += value * count
            by_strength[side][value] += count
    units = []
    for unit in battle.units:
        initial = battle.side(unit.side).initial or 0
        sums = [0, 0, 0]
        for strength, count in by_strength[unit.side].items():
            if initial < 1:
                continue
            fates = unit_casualties(unit.in_battle, lost_share(initial, strength))
            sums[0] += fates.killed * count
            sums[1] += fates.wounded * count
            sums[2] += fates.fit * count
        units.append(UnitOdds(unit.id, unit.name, unit.side, *(total / runs for total in sums)))
    return Odds(
        runs,
        wins["allies"] / runs,
        wins["enemies"] / runs,
        wins["unfinished"] / runs,
        rounds_total / runs,
        {side: strength_total[side] / runs for side in SIDES},
        tuple(units),
    )


def _outcome(allies: int, enemies: int) -> str:
    """Who won a simulated run: the side left standing, or nobody within the round limit."""
    if enemies == 0 and allies > 0:
        return "allies"
    if allies == 0 and enemies > 0:
        return "enemies"
    return "unfinished"
