"""The one rounding rule (docs/rules.md §2), in exact arithmetic."""

from __future__ import annotations

import math
from fractions import Fraction

HALF = Fraction(1, 2)


def round_half_down(value: Fraction | int) -> int:
    """Round to the nearest whole number; an exact half goes down (less damage, fewer dead).

    >>> round_half_down(Fraction(13, 2))
    6
    >>> round_half_down(Fraction(27, 4))
    7
    >>> round_half_down(Fraction(5, 4))
    1
    """
    value = Fraction(value)
    whole = math.floor(value)
    return whole + 1 if value - whole > HALF else whole


def strength_bonus(strength: int) -> int:
    """The tens digit of a strength, as a WFRP characteristic bonus: ``floor(S / 10)``.

    >>> strength_bonus(26), strength_bonus(60), strength_bonus(9)
    (2, 6, 0)
    """
    return strength // 10


def per_two_sl(sl: int) -> int:
    """One point for every two Success Levels: ``floor(SL / 2)``.

    >>> per_two_sl(7), per_two_sl(5), per_two_sl(1)
    (3, 2, 0)
    """
    return sl // 2
