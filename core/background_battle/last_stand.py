"""The PCs beat their own foes: the enemies still fighting deal a last blow (docs/rules.md §6)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .rounding import round_half_down
from .units import MAX_STRENGTH
from .validate import share, whole


@dataclass(frozen=True)
class LastStand:
    """The enemies' strength still fighting, the damage it deals, and the allies after it."""

    fighting_strength: int
    damage: int
    allies_strength_after: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form (``allies_strength_after`` only when the allies were given)."""
        result: dict[str, Any] = {
            "fighting_strength": self.fighting_strength,
            "damage": self.damage,
        }
        if self.allies_strength_after is not None:
            result["allies_strength_after"] = self.allies_strength_after
        return result


def last_stand(
    enemy_strength: int,
    fleeing: Fraction | float | str | int = 0,
    allies_strength: int | None = None,
) -> LastStand:
    """Those who flee count as lost; the rest deal the allies 50% of their strength.

    The orc boss falls, half the orcs (26 strength) flee, the dwarves have 24:

    >>> last_stand(26, "1/2", 24)
    LastStand(fighting_strength=13, damage=6, allies_strength_after=18)

    Raises:
        BattleError: for a strength outside 0..MAX_STRENGTH (the core's bound for any
            strength) or a fleeing share outside 0..1.
    """
    enemy_strength = whole(enemy_strength, "enemy_strength", 0, MAX_STRENGTH)
    fled = share(fleeing, "fleeing")
    fighting = round_half_down(enemy_strength * (1 - fled))
    damage = round_half_down(Fraction(fighting, 2))
    if allies_strength is None:
        return LastStand(fighting, damage)
    allies_strength = whole(allies_strength, "allies_strength", 0, MAX_STRENGTH)
    return LastStand(fighting, damage, max(0, allies_strength - damage))
