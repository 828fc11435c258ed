"""leader.py: the leader's command adds ``1 + floor(S/10) + floor(SL/2)`` (docs/rules.md §4)."""

from __future__ import annotations

import pytest

from background_battle import BattleError
from background_battle.leader import leader_bonus


def test_the_orcs_waaagh_gives_six() -> None:
    assert leader_bonus(26, 7) == 6


def test_the_seeds_slip_adds_up_to_nine_not_eight() -> None:
    assert leader_bonus(60, 5) == 9


def test_a_zero_sl_success_still_gives_one_and_the_strength_bonus() -> None:
    assert leader_bonus(9, 0) == 1
    assert leader_bonus(10, 1) == 2


@pytest.mark.parametrize(("strength", "sl", "field"), [(-1, 2, "strength"), (30, -1, "sl")])
def test_a_negative_strength_or_sl_is_refused(strength: int, sl: int, field: str) -> None:
    with pytest.raises(BattleError) as refused:
        leader_bonus(strength, sl)
    assert refused.value.field == field
