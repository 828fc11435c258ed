"""validate.py: every bad value becomes a BattleError naming its field and its range."""

from __future__ import annotations

from fractions import Fraction

import pytest

from background_battle import BattleError
from background_battle.validate import one_of, other_side, share, side, text, whole


def test_a_whole_number_in_range_is_taken_and_a_whole_float_too() -> None:
    assert whole(3, "fighters", 1, 10) == 3
    assert whole(3.0, "fighters", 1, 10) == 3


@pytest.mark.parametrize("value", [0, 11, 2.5, "3", True, None])
def test_anything_else_is_refused_by_field(value: object) -> None:
    with pytest.raises(BattleError) as refused:
        whole(value, "fighters", 1, 10)
    assert refused.value.field == "fighters"


def test_a_share_reads_a_fraction_or_a_decimal() -> None:
    assert share("1/2", "fleeing") == share(0.5, "fleeing") == Fraction(1, 2)


def test_a_share_above_one_is_refused() -> None:
    with pytest.raises(BattleError) as refused:
        share("3/2", "fleeing")
    assert refused.value.field == "fleeing"


def test_sides_and_choices() -> None:
    assert side("allies") == "allies" and other_side("allies") == "enemies"
    with pytest.raises(BattleError):
        side("orcs")
    with pytest.raises(BattleError) as refused:
        one_of("huge", "size", ["small", "large"], "unknown_size")
    assert refused.value.code == "unknown_size"


def test_a_text_is_trimmed_and_bounded() -> None:
    assert text("  Dwarves ", "name") == "Dwarves"
    with pytest.raises(BattleError):
        text("x" * 201, "name")
