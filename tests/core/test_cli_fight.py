"""cli_fight.py: the command line's one round, Leadership test and moves, through the core."""

from __future__ import annotations

import pytest

from background_battle import BattleError
from background_battle.cli_fight import leadership, moves, one_round


def test_one_round_from_typed_rolls_says_who_won_and_the_loss() -> None:
    reply = one_round(30, 26, rolls={"allies": 12, "enemies": 77})
    assert reply["winner"] == "allies" and reply["lost"] == {"allies": 0, "enemies": 7}
    assert reply["battle_ended"] is None


def test_one_round_that_empties_a_side_ends_the_battle() -> None:
    reply = one_round(30, 3, lost={"allies": 0, "enemies": 3})
    assert reply["battle_ended"] == {"winner": "allies"}


def test_a_passed_leadership_test_gives_the_bonus() -> None:
    reply = leadership(26, 45, 12)
    assert (reply["success"], reply["sl"], reply["bonus"]) == (True, 3, 1 + 2 + 1)


def test_moves_take_their_cost_one_after_another_and_name_the_bad_one() -> None:
    reply = moves(10, 30, [2, 3])
    assert [m["fighters"] for m in reply["moves"]] == [2, 3]
    with pytest.raises(BattleError) as refused:
        moves(10, 30, [6, 6])
    assert refused.value.field == "move"
