"""The opposed round between the sides (house default, docs/rules.md §5) and the leader's bonus."""

from __future__ import annotations

import pytest

from background_battle import BattleError, opposed, state_view, wfrp_test

from .builders import dwarves_and_orcs, run


def rolls(allies: int, enemies: int) -> dict[str, object]:
    return {
        "type": "resolve_round",
        "mode": "rolls",
        "rolls": {"allies": allies, "enemies": enemies},
    }


def test_sl_is_tens_of_target_minus_tens_of_roll() -> None:
    assert wfrp_test(45, 12).sl == 3
    assert wfrp_test(45, 67).sl == -2
    assert wfrp_test(45, 45) == wfrp_test(45, 45)
    assert wfrp_test(45, 45).success and not wfrp_test(45, 46).success


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5])
def test_01_to_05_always_succeed_with_at_least_plus_0(roll: int) -> None:
    test = wfrp_test(0, roll)
    assert test.success and test.sl == 0


@pytest.mark.parametrize("roll", [96, 97, 98, 99, 100])
def test_96_to_00_always_fail_with_at_most_minus_0(roll: int) -> None:
    test = wfrp_test(250, roll)
    assert not test.success and test.sl == 0


def test_plus_0_success_beats_minus_0_failure() -> None:
    winner, loss = opposed(wfrp_test(30, 30), wfrp_test(30, 31))
    assert (winner, loss) == ("allies", 1)


def test_equal_sl_and_success_goes_to_the_higher_target() -> None:
    winner, _ = opposed(wfrp_test(34, 34), wfrp_test(38, 38))
    assert winner == "enemies"


def test_full_tie_costs_nobody_strength() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "enemies", "strength": 30})
    battle = run(battle, rolls(22, 22))
    assert (battle.strength("allies"), battle.strength("enemies")) == (30, 30)
    assert battle.log[-1].events[0]["winner"] is None
    assert battle.round == 1


def test_loser_loses_the_sl_difference() -> None:
    battle = run(dwarves_and_orcs(), rolls(5, 95))  # allies +3 SL; orcs 26 vs 95: -7 SL
    assert battle.strength("enemies") == 26 - 10
    assert battle.strength("allies") == 30


def test_loser_loses_at_least_one() -> None:
    battle = run(dwarves_and_orcs(), rolls(25, 26))  # +1 vs +0... both success, SL 1 vs 0
    assert battle.strength("enemies") == 25


def test_automatic_round_records_its_rolls() -> None:
    battle = run(dwarves_and_orcs(), {"type": "resolve_round", "mode": "auto"}, seed=99)
    event = battle.log[-1].events[0]
    assert event["auto"] is True
    assert all(1 <= event["rolls"][s] <= 100 for s in ("allies", "enemies"))


def test_strength_lost_can_be_entered_directly_for_both_sides() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 4, "enemies": 7}},
    )
    assert (battle.strength("allies"), battle.strength("enemies")) == (26, 19)


def test_a_side_at_zero_has_lost_the_battle() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 0, "enemies": 40}},
    )
    assert battle.strength("enemies") == 0
    assert (battle.status, battle.winner, battle.end_reason) == ("ended", "allies", "strength_zero")


def test_both_sides_at_zero_means_nobody_won() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 99, "enemies": 99}},
    )
    assert (battle.status, battle.winner) == ("ended", None)


def test_leader_bonus_counts_for_the_next_opposed_test_only() -> None:
    battle = run(dwarves_and_orcs(), {"type": "leader_command", "side": "allies", "sl": 4})
    battle = run(battle, rolls(50, 50))
    assert battle.log[-1].events[0]["targets"]["allies"] == 30 + 1 + 3 + 2
    assert battle.side("allies").pending_bonus == 0
    battle = run(battle, rolls(50, 50))
    assert (
        battle.log[-1].events[0]["targets"]["allies"]
        == battle.log[-2].events[0]["strength"]["allies"]
    )


def test_a_second_command_while_a_bonus_is_pending_is_refused() -> None:
    battle = run(dwarves_and_orcs(), {"type": "leader_command", "side": "allies", "sl": 2})
    with pytest.raises(BattleError) as caught:
        run(battle, {"type": "leader_command", "side": "allies", "sl": 5})
    assert caught.value.code == "bonus_pending"
    run(battle, {"type": "leader_command", "side": "enemies", "sl": 5})  # the other side may


def test_a_failed_leadership_test_gives_nothing() -> None:
    battle = run(
        dwarves_and_orcs(), {"type": "leader_command", "side": "allies", "success": False, "sl": -2}
    )
    assert battle.side("allies").pending_bonus == 0
    assert battle.log[-1].events[0]["bonus"] == 0


def test_a_failed_leadership_test_is_recorded_without_an_sl() -> None:
    battle = run(dwarves_and_orcs(), {"type": "leader_command", "side": "allies", "success": False})
    event = battle.log[-1].events[0]
    assert (event["success"], event["bonus"], "sl" in event) == (False, 0, False)
    assert battle.side("allies").pending_bonus == 0


def test_a_passed_leadership_test_still_needs_its_sl() -> None:
    for command in ({"success": True}, {}):
        with pytest.raises(BattleError) as caught:
            run(dwarves_and_orcs(), {"type": "leader_command", "side": "allies", **command})
        assert (caught.value.code, caught.value.field) == ("required", "sl")


def test_leadership_can_be_rolled_by_the_core() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "leader_command", "side": "enemies", "leadership": 45, "roll": 12},
    )
    event = battle.log[-1].events[0]
    assert (event["success"], event["sl"], event["bonus"]) == (True, 3, 1 + 2 + 1)
    failed = run(
        dwarves_and_orcs(),
        {"type": "leader_command", "side": "enemies", "leadership": 45, "roll": 97},
    )
    assert failed.log[-1].events[0]["success"] is False


def test_leader_bonus_uses_the_current_strength() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "enemies", "strength": 60})
    battle = run(battle, {"type": "leader_command", "side": "enemies", "sl": 5})
    assert state_view(battle)["sides"]["enemies"]["pending_bonus"] == 9
