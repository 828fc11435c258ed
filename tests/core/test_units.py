"""units.py: a unit's fighters, strength and size, and the size ladder (docs/rules.md §3)."""

from __future__ import annotations

import itertools

import pytest

from background_battle import BattleError
from background_battle.units import SIZES, Unit, size_multiplier, unit_strength


def test_strength_is_fighters_times_rating_times_size() -> None:
    assert unit_strength(10, 3) == 30
    assert unit_strength(3, 4, "large") == 24


def test_a_rated_strength_rounds_halves_down() -> None:
    assert unit_strength(5, 3, "small") == 7  # 7.5 -> 7


def test_the_ladder_doubles_at_each_step() -> None:
    multipliers = list(SIZES.values())
    assert all(b == 2 * a for a, b in itertools.pairwise(multipliers))
    assert size_multiplier("average") == 1


def test_an_unknown_size_is_refused() -> None:
    with pytest.raises(BattleError) as refused:
        size_multiplier("gargantuan")
    assert (refused.value.code, refused.value.field) == ("unknown_size", "size")


def test_fighters_moved_out_are_not_in_the_battle() -> None:
    ogres = Unit("u1", "Ogres", "enemies", fighters=3, strength=30, detached=2)
    assert ogres.in_battle == 1
    assert ogres.to_dict()["detached"] == 2
