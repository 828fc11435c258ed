"""Side modifiers: the sum of unit strengths becomes the initial strength S0 (docs/rules.md §3)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .plain import plain
from .rounding import round_half_down


@dataclass(frozen=True)
class Modifier:
    """A named change to a side's strength: a percentage of the sum and/or a flat amount."""

    name: str
    percent: int = 0
    flat: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form."""
        return plain(self)


def initial_strength(units_strength: int, modifiers: Iterable[Modifier] = ()) -> int:
    """``S0 = round(sum * (1 + percents / 100) + flats)``, never below 0.

    The seed's example: units of 20 and 60 become 100 "after all modifiers".

    >>> initial_strength(80, [Modifier("Fortified", percent=25)])
    100
    >>> initial_strength(80, [Modifier("Veterans", flat=20)])
    100
    >>> initial_strength(25, [Modifier("Tired", percent=-10)])
    22
    """
    modifiers = tuple(modifiers)
    percents = sum(m.percent for m in modifiers)
    flats = sum(m.flat for m in modifiers)
    total = units_strength * (1 + Fraction(percents, 100)) + flats
    return max(0, round_half_down(total))
