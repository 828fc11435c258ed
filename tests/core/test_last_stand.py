"""last_stand.py: the PCs won; the enemies still fighting deal half their strength (§6)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from background_battle import BattleError
from background_battle.last_stand import last_stand


def test_half_the_orcs_flee_and_the_rest_deal_half_their_strength() -> None:
    assert last_stand(26, "1/2", 24).to_dict() == {
        "fighting_strength": 13,
        "damage": 6,
        "allies_strength_after": 18,
    }


def test_all_fleeing_deal_nothing_and_none_fleeing_deal_half() -> None:
    assert last_stand(40, 1).damage == 0
    assert last_stand(40, 0).damage == 20


def test_the_allies_never_drop_below_zero() -> None:
    assert last_stand(100, Fraction(0), 10).allies_strength_after == 0


def test_without_the_allies_the_result_leaves_them_out() -> None:
    assert "allies_strength_after" not in last_stand(26, 0).to_dict()


@pytest.mark.parametrize(
    ("strength", "fleeing", "field"), [(-1, 0, "enemy_strength"), (10, 2, "fleeing")]
)
def test_bad_figures_are_refused_by_field(strength: int, fleeing: int, field: str) -> None:
    with pytest.raises(BattleError) as refused:
        last_stand(strength, fleeing)
    assert refused.value.field == field
