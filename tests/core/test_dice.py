"""dice.py: rolls from a passed-in generator, or from what a log entry recorded."""

from __future__ import annotations

import random

import pytest

from background_battle import BattleError
from background_battle.dice import Dice, RecordedDice, recorded_rolls


def test_the_same_seed_rolls_the_same() -> None:
    first, second = Dice(random.Random(5)), Dice(random.Random(5))
    assert [first.d100("roll") for _ in range(20)] == [second.d100("roll") for _ in range(20)]


def test_every_roll_is_a_d100() -> None:
    dice = Dice(random.Random(1))
    assert all(1 <= dice.d100("roll") <= 100 for _ in range(2_000))


def test_without_a_generator_the_roll_is_asked_for_by_its_field() -> None:
    with pytest.raises(BattleError) as refused:
        Dice(None).d100("rolls.allies")
    assert (refused.value.code, refused.value.field) == ("required", "rolls.allies")


def test_recorded_dice_give_back_the_rolls_in_order_then_refuse() -> None:
    dice = RecordedDice([14, 77])
    assert (dice.d100("a"), dice.d100("b")) == (14, 77)
    with pytest.raises(BattleError) as refused:
        dice.d100("c")
    assert refused.value.code == "bad_battle"


def test_only_the_cores_own_rolls_are_recorded() -> None:
    events = [
        {"type": "round_resolved", "auto": True, "rolls": {"allies": 14, "enemies": 77}},
        {"type": "leader_commanded", "auto": False, "roll": 30},
        {"type": "influence_rolled", "auto": True, "roll": 42},
    ]
    assert recorded_rolls(events) == [14, 77, 42]
