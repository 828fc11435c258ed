"""working.py: each computed number's working as a GM would write it down."""

from __future__ import annotations

from fractions import Fraction

from background_battle.working import (
    casualty_steps,
    leader_bonus_working,
    loss_working,
    number,
    rounded,
    sl_working,
    step,
)


def test_a_step_names_its_rule_and_side() -> None:
    assert step("leader_bonus", "1 + 2 = 3", "enemies") == {
        "rule": "leader_bonus",
        "text": "1 + 2 = 3",
        "side": "enemies",
    }


def test_whole_numbers_are_written_without_a_fraction() -> None:
    assert number(Fraction(12, 1)) == "12"
    assert rounded(Fraction(4)) == "= 4"


def test_a_rounded_half_shows_it_went_down() -> None:
    assert rounded(Fraction(13, 2)) == "= 6.5 → 6"


def test_the_leader_bonus_working_writes_out_the_rule() -> None:
    assert leader_bonus_working(26, 7) == "1 + floor(26/10) + floor(7/2) = 1 + 2 + 3 = 6"


def test_the_sl_and_loss_working_show_their_figures() -> None:
    assert sl_working(32, 14, 2) == "floor(32/10) - floor(14/10) = 3 - 1 = 2"
    assert loss_working(2, -1, 3) == "max(1, 2 - (-1)) = 3"


def test_the_casualty_steps_are_killed_then_wounded_then_fit() -> None:
    texts = [s["text"] for s in casualty_steps(10, Fraction(2, 5))]
    assert texts == ["10 × 2/5 / 2 = 2", "min(2 × 2, 10 - 2) = 4", "10 - 2 - 4 = 4"]
