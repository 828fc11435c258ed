"""Units: their fighters, strength and size (docs/rules.md §3)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from .plain import plain
from .rounding import round_half_down
from .validate import Side, one_of

MAX_FIGHTERS: Final = 100_000
MAX_STRENGTH: Final = 1_000_000
MAX_RATING: Final = 1_000

SIZES: Final[dict[str, Fraction]] = {
    "tiny": Fraction(1, 8),
    "little": Fraction(1, 4),
    "small": Fraction(1, 2),
    "average": Fraction(1),
    "large": Fraction(2),
    "enormous": Fraction(4),
    "monstrous": Fraction(8),
}


@dataclass(frozen=True)
class Unit:
    """A group of fighters on one side, rated on its own (its figures feed the casualty split).

    ``detached`` counts fighters moved into the PCs' fight (docs/rules.md §8).
    """

    id: str
    name: str
    side: Side
    fighters: int
    strength: int
    size: str = "average"
    detached: int = 0

    @property
    def in_battle(self) -> int:
        """Fighters still in the background battle."""
        return self.fighters - self.detached

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form."""
        return plain(self)


def size_multiplier(size: str) -> Fraction:
    """The size multiplier X of the WFRP size ladder.

    >>> size_multiplier("large"), size_multiplier("small")
    (Fraction(2, 1), Fraction(1, 2))

    Raises:
        BattleError: ``unknown_size`` for a size not on the ladder.
    """
    return SIZES[one_of(size, "size", SIZES, "unknown_size")]


def unit_strength(fighters: int, rating: int, size: str = "average") -> int:
    """The house helper: ``fighters x rating x X``, rounded (halves down).

    >>> unit_strength(10, 3)
    30
    >>> unit_strength(5, 3, "small")
    7
    >>> unit_strength(3, 4, "large")
    24
    """
    return round_half_down(fighters * rating * size_multiplier(size))
