"""A WFRP test and the opposed test between the two sides (docs/rules.md §5)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final, Literal

from .validate import Side

Reason = Literal["sl", "success", "target", "draw"]
REASONS: Final[tuple[Reason, ...]] = ("sl", "success", "target", "draw")
"""Why an opposed test went as it did: the higher SL; equal SL, a success over a failure (so
``+0`` beats ``-0``); equal SL and result, the higher target; all equal, a draw."""

TARGET_BITS = 24  # targets stay below 2**24: strength is capped at 1,000,000


@dataclass(frozen=True)
class TestRoll:
    """One side's d100 roll against its target: SL and success (``+0`` beats ``-0``)."""

    target: int
    roll: int
    sl: int
    success: bool

    @property
    def rank(self) -> int:
        """Higher SL wins; then a success beats a failure; then the higher target.

        One comparable number: ``(2 SL + success) << 24 | target``; ``rank >> 25`` is the SL.

        >>> wfrp_test(30, 30).rank > wfrp_test(30, 31).rank > wfrp_test(25, 31).rank
        True
        """
        return ((self.sl * 2 + self.success) << TARGET_BITS) + self.target


def d100(rng: random.Random) -> int:
    """One d100 roll, 1..100 (100 is "00"), drawn the same way in CPython and Pyodide.

    >>> d100(random.Random(1))
    14
    """
    return int(rng.random() * 100) + 1


def wfrp_test(target: int, roll: int) -> TestRoll:
    """``SL = floor(target/10) - floor(roll/10)``; 01-05 always succeed, 96-00 always fail.

    >>> wfrp_test(26, 14)
    TestRoll(target=26, roll=14, sl=1, success=True)
    >>> wfrp_test(3, 4).success, wfrp_test(3, 4).sl
    (True, 0)
    >>> wfrp_test(150, 97).success, wfrp_test(150, 97).sl
    (False, 0)
    """
    sl = target // 10 - roll // 10
    success = roll <= target
    if roll <= 5:
        success, sl = True, max(sl, 0)
    elif roll >= 96:
        success, sl = False, min(sl, 0)
    return TestRoll(target, roll, sl, success)


def strength_lost(winner: TestRoll, loser: TestRoll) -> int:
    """The loser loses ``max(1, winner SL - loser SL)``.

    >>> strength_lost(wfrp_test(60, 12), wfrp_test(50, 77))
    7
    >>> strength_lost(wfrp_test(30, 30), wfrp_test(30, 35))
    1
    """
    return loss_between(winner.rank, loser.rank)


def loss_between(winner_rank: int, loser_rank: int) -> int:
    """``max(1, winner SL - loser SL)``, from two ranks (the simulation's fast path).

    >>> loss_between(wfrp_test(60, 12).rank, wfrp_test(50, 77).rank)
    7
    """
    return max(1, (winner_rank >> (TARGET_BITS + 1)) - (loser_rank >> (TARGET_BITS + 1)))


def decided_by(allies: TestRoll, enemies: TestRoll) -> Reason:
    """Why the opposed test went as it did (``REASONS``), in the order the rank compares.

    >>> decided_by(wfrp_test(40, 12), wfrp_test(30, 55))
    'sl'
    >>> decided_by(wfrp_test(30, 30), wfrp_test(35, 38))  # SL 0 each: a success beats a failure
    'success'
    >>> decided_by(wfrp_test(100, 97), wfrp_test(30, 30))  # 97 fails: SL 1 moved to 0 (-0)
    'success'
    >>> decided_by(wfrp_test(38, 31), wfrp_test(35, 32))  # SL 0 each, both passed
    'target'
    >>> decided_by(wfrp_test(5, 4), wfrp_test(5, 4))
    'draw'
    """
    if allies.sl != enemies.sl:
        return "sl"
    if allies.success != enemies.success:
        return "success"
    if allies.target != enemies.target:
        return "target"
    return "draw"


def opposed(allies: TestRoll, enemies: TestRoll) -> tuple[Side | None, int]:
    """Who wins the opposed test, and how much strength the loser loses (no one on a full tie).

    >>> opposed(wfrp_test(40, 12), wfrp_test(30, 55))
    ('allies', 5)
    >>> opposed(wfrp_test(40, 40), wfrp_test(40, 40))
    (None, 0)
    """
    if allies.rank > enemies.rank:
        return "allies", strength_lost(allies, enemies)
    if enemies.rank > allies.rank:
        return "enemies", strength_lost(enemies, allies)
    return None, 0
