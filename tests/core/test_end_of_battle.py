"""How the battle ends (docs/rules.md §6) and moving fighters into the PCs' fight (§8)."""

from __future__ import annotations

import pytest

from background_battle import BattleError, default_table, new_battle, state_view

from .builders import casualties_of, dwarves_and_orcs, run, two_unit_allies, unit


def test_all_enemies_fleeing_deal_no_damage() -> None:
    battle = run(dwarves_and_orcs(), {"type": "pcs_won", "fleeing": 1})
    assert (battle.strength("enemies"), battle.strength("allies")) == (0, 30)


def test_no_enemy_fleeing_deal_half_their_strength() -> None:
    battle = run(dwarves_and_orcs(), {"type": "pcs_won"})
    assert battle.strength("allies") == 30 - 13


def test_declared_end_defaults_to_the_stronger_side() -> None:
    battle = run(dwarves_and_orcs(), {"type": "end_battle"})
    assert (battle.status, battle.winner, battle.end_reason) == ("ended", "allies", "declared")
    assert run(dwarves_and_orcs(), {"type": "end_battle", "winner": None}).winner is None
    assert run(dwarves_and_orcs(), {"type": "end_battle", "winner": "enemies"}).winner == "enemies"


def test_after_the_battle_the_winner_rolls_d100_plus_50_plus_its_strength() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "allies", "strength": 18})
    battle = run(
        battle,
        {"type": "end_battle", "winner": "allies"},
        {"type": "roll_influence", "side": "allies", "roll": 40},
    )
    event = battle.log[-1].events[0]
    assert (event["modifier"], event["total"]) == (68, 108)
    assert event["band"] == default_table().band_for(108).for_side("allies").to_dict()


def test_after_the_battle_the_loser_does_not_roll() -> None:
    battle = run(dwarves_and_orcs(), {"type": "end_battle"})
    with pytest.raises(BattleError) as caught:
        run(battle, {"type": "roll_influence", "side": "enemies", "roll": 40})
    assert caught.value.code == "not_winner"


def test_during_the_battle_influence_uses_the_strength_difference() -> None:
    battle = run(dwarves_and_orcs(), {"type": "roll_influence", "side": "enemies", "roll": 10})
    assert battle.log[-1].events[0]["modifier"] == 26 - 30
    assert battle.log[-1].events[0]["total"] == 6


def test_detaching_from_a_one_unit_side_costs_s0_over_n_per_fighter() -> None:
    battle = run(dwarves_and_orcs(), {"type": "detach_fighters", "unit": "u1", "fighters": 2})
    assert battle.side("allies").initial == 24
    assert battle.strength("allies") == 24
    assert battle.unit("u1").in_battle == 8  # type: ignore[union-attr]


def test_detaching_uses_the_units_own_share_of_s0() -> None:
    # Second unit: 60 of 80 rated, S0 100 -> a fighter costs 100 * 3 / 80 = 3.75; 3 cost 11.25 -> 11
    battle = run(two_unit_allies(), {"type": "detach_fighters", "unit": "u2", "fighters": 3})
    assert battle.side("allies").initial == 89
    assert battle.log[-1].events[0]["strength_cost"] == 11


def test_detaching_never_takes_strength_below_zero_and_can_end_the_battle() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "allies", "strength": 2})
    battle = run(battle, {"type": "detach_fighters", "unit": "u1", "fighters": 5})
    assert battle.strength("allies") == 0
    assert (battle.status, battle.winner) == ("ended", "enemies")


def test_detaching_fit_fighters_after_the_end_keeps_the_other_fates() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "allies", "strength": 18})
    battle = run(battle, {"type": "end_battle"})
    assert casualties_of(battle)["Dwarves"] == (2, 4, 4)
    battle = run(battle, {"type": "detach_fighters", "unit": "u1", "fighters": 2})
    assert casualties_of(battle)["Dwarves"] == (2, 4, 2)


def test_cannot_detach_more_fighters_than_the_unit_has_left() -> None:
    battle = run(dwarves_and_orcs(), {"type": "detach_fighters", "unit": "u1", "fighters": 8})
    with pytest.raises(BattleError) as caught:
        run(battle, {"type": "detach_fighters", "unit": "u1", "fighters": 3})
    assert (caught.value.code, caught.value.field, caught.value.params["max"]) == (
        "out_of_range",
        "fighters",
        2,
    )


def test_rounds_are_refused_once_the_battle_has_ended() -> None:
    battle = run(dwarves_and_orcs(), {"type": "end_battle"})
    with pytest.raises(BattleError) as caught:
        run(battle, {"type": "resolve_round", "mode": "auto"})
    assert caught.value.code == "wrong_phase"


def test_start_needs_a_unit_on_each_side() -> None:
    battle = run(new_battle("lonely"), unit("Dwarves", "allies", 10, 30))
    with pytest.raises(BattleError) as caught:
        run(battle, {"type": "start"})
    assert (caught.value.code, caught.value.field) == ("side_empty", "enemies")


def test_start_needs_strength_after_modifiers() -> None:
    battle = run(
        new_battle("weak"),
        unit("Ghosts", "allies", 3, 0),
        unit("Orcs", "enemies", 12, 26),
    )
    with pytest.raises(BattleError) as caught:
        run(battle, {"type": "start"})
    assert caught.value.code == "no_initial_strength"


def test_strength_can_be_rated_from_fighters_rating_and_size() -> None:
    battle = run(new_battle("rated"), unit("Trolls", "enemies", 3, None, rating=5, size="large"))
    assert state_view(battle)["units"][0]["strength"] == 30
