"""The leader's command (docs/rules.md §4)."""

from __future__ import annotations

from .rounding import per_two_sl, strength_bonus
from .units import MAX_STRENGTH
from .validate import whole


def leader_bonus(strength: int, sl: int) -> int:
    """Strength added for the side's next opposed test: ``1 + floor(S/10) + floor(SL/2)``.

    The orcs' WAAAGH!: strength 26, +7 SL.

    >>> leader_bonus(26, 7)
    6
    >>> leader_bonus(60, 5)  # the seed writes [1+6+2=8]; its own terms add to 9
    9

    Raises:
        BattleError: for a strength outside 0..MAX_STRENGTH, or an SL below 0 (a failed test
            gives nothing).
    """
    strength = whole(strength, "strength", 0, MAX_STRENGTH)
    sl = whole(sl, "sl", 0, 100)
    return 1 + strength_bonus(strength) + per_two_sl(sl)
