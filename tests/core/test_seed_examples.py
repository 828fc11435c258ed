"""Every worked example of docs/rules.md (and so of the seed text), as a test."""

from __future__ import annotations

from fractions import Fraction

from background_battle import (
    Modifier,
    casualties,
    initial_strength,
    last_stand,
    leader_bonus,
    state_view,
)

from .builders import casualties_of, dwarves_and_orcs, run, two_unit_allies


def test_orc_leader_waaagh_adds_six_for_strength_26_and_7_sl() -> None:
    bonus = leader_bonus(26, 7)
    assert bonus == 1 + 2 + 3 == 6
    assert 26 + bonus == 32


def test_seed_slip_strength_60_with_5_sl_gives_nine_not_eight() -> None:
    assert leader_bonus(60, 5) == 1 + 6 + 2 == 9


def test_leader_command_in_a_battle_raises_the_next_test_to_32() -> None:
    battle = run(dwarves_and_orcs(), {"type": "leader_command", "side": "enemies", "sl": 7})
    assert state_view(battle)["sides"]["enemies"]["pending_bonus"] == 6
    battle = run(
        battle, {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": 50, "enemies": 50}}
    )
    round_event = battle.log[-1].events[0]
    assert round_event["targets"] == {"allies": 30, "enemies": 32}


def test_half_the_fleeing_orcs_leave_13_strength_which_deals_6_and_dwarves_keep_18() -> None:
    result = last_stand(26, Fraction(1, 2), 24)
    assert (result.fighting_strength, result.damage, result.allies_strength_after) == (13, 6, 18)


def test_pcs_won_in_a_battle_follows_the_orc_boss_example() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "allies", "strength": 24})
    battle = run(battle, {"type": "pcs_won", "fleeing": "1/2"})
    assert (battle.strength("enemies"), battle.strength("allies")) == (13, 18)
    assert (battle.status, battle.winner, battle.end_reason) == ("ended", "allies", "pcs_won")


def test_dwarves_losing_12_of_30_have_2_killed_4_wounded_4_fit() -> None:
    unit = casualties(30, 18, [10]).units[0]
    assert (unit.killed, unit.wounded, unit.fit) == (2, 4, 4)


def test_dwarves_example_inside_a_battle() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "allies", "strength": 18})
    assert casualties_of(battle)["Dwarves"] == (2, 4, 4)


def test_two_units_20_and_60_become_100_after_modifiers() -> None:
    assert initial_strength(20 + 60, [Modifier("Banner", flat=20)]) == 100
    assert initial_strength(20 + 60, [Modifier("Holy ground", percent=25)]) == 100


def test_two_units_with_40_of_100_left_split_casualties_by_head_count() -> None:
    report = casualties(100, 40, [10, 20])
    assert report.lost_share == Fraction(3, 5)
    first, second = report.units
    assert (first.killed, first.wounded, first.fit) == (3, 6, 1)
    assert (second.killed, second.wounded, second.fit) == (6, 12, 2)


def test_two_units_example_inside_a_battle() -> None:
    battle = run(two_unit_allies(), {"type": "set_strength", "side": "allies", "strength": 40})
    assert battle.side("allies").initial == 100
    got = casualties_of(battle)
    assert got["First"] == (3, 6, 1)
    assert got["Second"] == (6, 12, 2)


def test_below_a_third_of_s0_everyone_not_killed_is_wounded() -> None:
    unit = casualties(30, 6, [10]).units[0]  # f = 0.8: killed 4, 2x4 = 8 > 6 left
    assert (unit.killed, unit.wounded, unit.fit) == (4, 6, 0)


def test_a_fighter_costs_s0_over_n_and_half_the_lost_strength_is_killed() -> None:
    # cost 3; 12 lost, 6 of it killed: 6 / 3 = 2 dead
    assert casualties(30, 18, [10]).units[0].killed == (12 // 2) // (30 // 10)
