"""How many fighters are killed, wounded and fit at the end (docs/rules.md §7)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import BattleError
from .plain import plain
from .rounding import round_half_down
from .units import MAX_FIGHTERS, MAX_STRENGTH
from .validate import whole

MAX_UNITS = 10_000


@dataclass(frozen=True)
class UnitCasualties:
    """The three fates of one unit's fighters."""

    fighters: int
    killed: int
    wounded: int
    fit: int

    def to_dict(self) -> dict[str, int]:
        """The JSON-friendly form."""
        return plain(self)


@dataclass(frozen=True)
class CasualtyReport:
    """A side's share of strength lost and each unit's fates, in the order given."""

    lost_share: Fraction
    units: tuple[UnitCasualties, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form (the share as a float)."""
        return {
            "lost_share": float(self.lost_share),
            "units": [unit.to_dict() for unit in self.units],
        }


def lost_share(initial: int, remaining: int) -> Fraction:
    """The share of strength lost, ``f = (S0 - clamp(S, 0, S0)) / S0``.

    Strength above S0 (a leader's bonus) is not an error: nothing was lost.

    >>> lost_share(30, 18), lost_share(100, 40), lost_share(30, 35)
    (Fraction(2, 5), Fraction(3, 5), Fraction(0, 1))

    Raises:
        BattleError: ``out_of_range`` for S0 below 1 or a negative remaining strength.
    """
    initial, remaining = _initial(initial), _remaining(remaining)
    return Fraction(initial - min(remaining, initial), initial)


def _initial(initial: int) -> int:
    return whole(initial, "initial", 1, MAX_STRENGTH)


def _remaining(remaining: int) -> int:
    return whole(remaining, "remaining", 0)


def unit_casualties(fighters: int, share: Fraction) -> UnitCasualties:
    """Half the lost strength is the dead; twice as many wounded, unless that leaves fewer than 0.

    The dwarves: 10 fighters, 12 of 30 strength lost.

    >>> unit_casualties(10, Fraction(12, 30))
    UnitCasualties(fighters=10, killed=2, wounded=4, fit=4)
    >>> unit_casualties(10, Fraction(9, 10))  # below a third of S0: all who live are wounded
    UnitCasualties(fighters=10, killed=4, wounded=6, fit=0)
    """
    killed = round_half_down(fighters * share / 2)
    wounded = min(2 * killed, fighters - killed)
    return UnitCasualties(fighters, killed, wounded, fighters - killed - wounded)


def casualties(initial: Any, remaining: Any, fighters: Sequence[Any]) -> CasualtyReport:
    """Casualties per unit of one side with initial strength S0 and current strength S.

    The seed's two units (10 and 20 fighters), S0 = 100 after modifiers, 40 left:

    >>> report = casualties(100, 40, [10, 20])
    >>> [(u.killed, u.wounded, u.fit) for u in report.units]
    [(3, 6, 1), (6, 12, 2)]

    Every bad value is found in one check (the first, with the others as its ``others``):

    >>> try:
    ...     casualties(0, -1, [10, "x"])
    ... except BattleError as error:
    ...     print([e.field for e in error.every()])
    ['initial', 'remaining', 'units[1].fighters']

    Raises:
        BattleError: for S0 below 1, a negative strength, or fighters that are not whole
            numbers from 0 to 100000.
    """
    if len(fighters) > MAX_UNITS:
        raise BattleError("too_many", "units", f"units must be at most {MAX_UNITS}", max=MAX_UNITS)
    found: list[BattleError] = []

    def checked(value: Any, check: Callable[[Any], int]) -> int:
        try:
            return check(value)
        except BattleError as error:
            found.append(error)
            return 0

    def fighters_of(i: int) -> Callable[[Any], int]:
        return lambda n: whole(n, f"units[{i}].fighters", 0, MAX_FIGHTERS)

    s0, s = checked(initial, _initial), checked(remaining, _remaining)
    counts = [checked(n, fighters_of(i)) for i, n in enumerate(fighters)]
    if found:
        raise BattleError.together(found)
    share = lost_share(s0, s)
    return CasualtyReport(share, tuple(unit_casualties(n, share) for n in counts))
