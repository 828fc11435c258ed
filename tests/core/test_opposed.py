"""opposed.py: a WFRP test's SL and success, and who wins the opposed test by how much (§5)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from background_battle.opposed import d100, loss_between, opposed, strength_lost, wfrp_test


def test_sl_is_the_tens_of_the_target_less_the_tens_of_the_roll() -> None:
    assert wfrp_test(45, 12).sl == 3
    assert wfrp_test(45, 78).sl == -3


def test_a_higher_sl_wins_and_the_loser_loses_the_difference() -> None:
    assert opposed(wfrp_test(60, 12), wfrp_test(50, 77)) == ("allies", 7)


def test_a_success_beats_a_failure_on_equal_sl_and_costs_one() -> None:
    assert opposed(wfrp_test(30, 35), wfrp_test(30, 30)) == ("enemies", 1)


def test_a_full_tie_costs_nobody() -> None:
    assert opposed(wfrp_test(40, 40), wfrp_test(40, 40)) == (None, 0)


def test_d100_is_one_to_a_hundred_and_seeded() -> None:
    rolls = [d100(random.Random(seed)) for seed in range(500)]
    assert min(rolls) >= 1 and max(rolls) <= 100
    assert d100(random.Random(1)) == 14


@given(
    st.integers(0, 1_000_000), st.integers(1, 100), st.integers(0, 1_000_000), st.integers(1, 100)
)
def test_the_fast_path_agrees_with_the_rule(a: int, ra: int, b: int, rb: int) -> None:
    first, second = wfrp_test(a, ra), wfrp_test(b, rb)
    winner, loser = (first, second) if first.rank >= second.rank else (second, first)
    assert loss_between(winner.rank, loser.rank) == strength_lost(winner, loser)
    assert strength_lost(winner, loser) == max(1, winner.sl - loser.sl)
