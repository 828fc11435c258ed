"""casualties.py: the share lost, and each unit's dead, wounded and fit (docs/rules.md §7)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from background_battle import BattleError
from background_battle.casualties import MAX_UNITS, casualties, lost_share, unit_casualties


def test_the_share_lost_is_the_strength_lost_over_s0() -> None:
    assert lost_share(30, 18) == Fraction(2, 5)


def test_strength_above_s0_loses_nothing() -> None:
    assert lost_share(30, 36) == 0


def test_half_the_lost_strength_is_killed_and_twice_as_many_wounded() -> None:
    assert unit_casualties(10, Fraction(2, 5)) == unit_casualties(10, Fraction(12, 30))
    fates = unit_casualties(10, Fraction(2, 5))
    assert (fates.killed, fates.wounded, fates.fit) == (2, 4, 4)


def test_a_half_killed_rounds_down() -> None:
    # 5 x 1/5 / 2 = 1/2: halves down, so no one dies of it.
    assert unit_casualties(5, Fraction(1, 5)).killed == 0


def test_the_seeds_two_units_at_sixty_percent_lost() -> None:
    report = casualties(100, 40, [10, 20])
    assert [(u.killed, u.wounded, u.fit) for u in report.units] == [(3, 6, 1), (6, 12, 2)]
    assert report.to_dict()["lost_share"] == 0.6


@pytest.mark.parametrize(
    ("initial", "remaining", "fighters", "field"),
    [(0, 0, [1], "initial"), (10, -1, [1], "remaining"), (10, 5, [-1], "units[0].fighters")],
)
def test_bad_figures_are_refused_naming_the_field(
    initial: int, remaining: int, fighters: list[int], field: str
) -> None:
    with pytest.raises(BattleError) as refused:
        casualties(initial, remaining, fighters)
    assert refused.value.field == field


def test_more_units_than_the_bound_are_refused() -> None:
    with pytest.raises(BattleError) as refused:
        casualties(10, 5, [1] * (MAX_UNITS + 1))
    assert refused.value.code == "too_many"


@given(st.integers(0, 100_000), st.fractions(0, 1))
def test_every_fighter_has_exactly_one_fate(fighters: int, share: Fraction) -> None:
    fates = unit_casualties(fighters, share)
    assert fates.killed + fates.wounded + fates.fit == fighters
    assert min(fates.killed, fates.wounded, fates.fit) >= 0
