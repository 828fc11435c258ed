"""fight_commands.py: the leader, the rounds, strength typed in, moving fighters, the end."""

from __future__ import annotations

from fractions import Fraction

import pytest

from background_battle import BattleError

from .builders import dwarves_and_orcs, run


def test_a_round_from_typed_rolls_records_both_rolls() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 12, "enemies": 77}},
    )
    event = battle.log[-1].events[0]
    assert event["rolls"] == {"allies": 12, "enemies": 77}
    assert (battle.strength("allies"), battle.strength("enemies")) == (30, 26 - (2 - -5))


def test_set_strength_is_the_gms_word() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "enemies", "strength": 11})
    assert battle.strength("enemies") == 11


def test_the_cost_of_a_fighter_is_its_units_share_of_s0() -> None:
    from background_battle.fight_commands import fighter_cost

    assert fighter_cost(dwarves_and_orcs(), "u1") == Fraction(30, 10)


def test_the_pcs_win_ends_the_battle_for_the_allies() -> None:
    battle = run(dwarves_and_orcs(), {"type": "pcs_won", "fleeing": "1/2"})
    assert (battle.status, battle.winner) == ("ended", "allies")
    assert battle.strength("allies") == 30 - 6


def test_only_the_winner_rolls_influence_after_the_end() -> None:
    battle = run(dwarves_and_orcs(), {"type": "end_battle"})
    with pytest.raises(BattleError):
        run(battle, {"type": "roll_influence", "side": "enemies", "roll": 50})
    rolled = run(battle, {"type": "roll_influence", "side": "allies", "roll": 50})
    assert rolled.log[-1].events[0]["total"] == 50 + 50 + 30
