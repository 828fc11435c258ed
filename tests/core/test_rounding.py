"""The one rounding rule: nearest whole number, halves down; bonuses floor."""

from __future__ import annotations

from fractions import Fraction

import pytest

from background_battle import round_half_down, strength_bonus
from background_battle.rounding import per_two_sl


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Fraction(13, 2), 6),
        (Fraction(1, 2), 0),
        (Fraction(3, 2), 1),
        (Fraction(51, 100), 1),
        (Fraction(49, 100), 0),
        (7, 7),
        (Fraction(-1, 2), -1),
        (Fraction(15, 2), 7),
    ],
)
def test_halves_round_down_and_the_rest_to_nearest(value: Fraction, expected: int) -> None:
    assert round_half_down(value) == expected


def test_exact_arithmetic_does_not_land_on_the_wrong_side_of_a_half() -> None:
    # 0.1 * 3 * 5 as floats is 1.5000000000000002, which would round up
    assert round_half_down(Fraction(1, 10) * 3 * 5) == 1


def test_strength_bonus_is_the_tens_digit_and_sl_counts_per_two() -> None:
    assert [strength_bonus(s) for s in (0, 9, 10, 26, 99, 100)] == [0, 0, 1, 2, 9, 10]
    assert [per_two_sl(sl) for sl in (0, 1, 2, 3, 7)] == [0, 0, 1, 1, 3]
