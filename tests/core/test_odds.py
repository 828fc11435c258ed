"""The Monte Carlo odds: repeatable, consistent with the rounds the core plays, bounded."""

from __future__ import annotations

import random

import pytest

from background_battle import BattleError, apply, odds

from .builders import dwarves_and_orcs, run, two_unit_allies


def test_the_same_seed_gives_the_same_odds() -> None:
    battle = dwarves_and_orcs()
    assert odds(battle, 500, seed=11) == odds(battle, 500, seed=11)
    assert odds(battle, 500, seed=11) != odds(battle, 500, seed=12)


def test_one_run_plays_exactly_the_rounds_the_battle_would_play_with_that_seed() -> None:
    battle = dwarves_and_orcs()
    for seed in range(20):
        simulated = odds(battle, 1, seed=seed)
        played, rng = battle, random.Random(seed)
        while played.status == "fighting" and played.round < 1000:
            played, _ = apply(played, {"type": "resolve_round", "mode": "auto"}, rng)
        assert simulated.expected_rounds == played.round
        assert simulated.allies_win == (played.winner == "allies")
        assert simulated.expected_strength == {s: played.strength(s) for s in ("allies", "enemies")}


def test_a_pending_leader_bonus_counts_in_the_first_simulated_round() -> None:
    plain = dwarves_and_orcs()
    led = run(plain, {"type": "leader_command", "side": "enemies", "sl": 9})
    assert odds(led, 3000, seed=1).enemies_win > odds(plain, 3000, seed=1).enemies_win


def test_a_much_stronger_side_almost_always_wins_and_chances_add_up() -> None:
    battle = run(dwarves_and_orcs(), {"type": "set_strength", "side": "allies", "strength": 90})
    result = odds(battle, 2000, seed=4)
    assert result.allies_win > 0.95
    assert result.allies_win + result.enemies_win + result.unfinished == pytest.approx(1.0)


def test_expected_casualties_keep_each_units_head_count() -> None:
    result = odds(two_unit_allies(), 1000, seed=2)
    for unit, fighters in zip(result.units, (10, 20, 30), strict=True):
        assert unit.killed + unit.wounded + unit.fit == pytest.approx(fighters)


def test_odds_from_the_setup_start_the_battle_first_and_from_the_end_are_certain() -> None:
    setup = dwarves_and_orcs(start=False)
    assert odds(setup, 100, seed=1) == odds(dwarves_and_orcs(), 100, seed=1)
    ended = run(dwarves_and_orcs(), {"type": "end_battle"})
    result = odds(ended, 100, seed=1)
    assert (result.allies_win, result.expected_rounds) == (1.0, 0.0)


def test_runs_are_bounded() -> None:
    with pytest.raises(BattleError) as caught:
        odds(dwarves_and_orcs(), 0)
    assert caught.value.field == "runs"
    huge = run(dwarves_and_orcs(), {"type": "set_strength", "side": "allies", "strength": 900_000})
    with pytest.raises(BattleError) as caught:
        odds(huge, 100_000)
    assert (caught.value.code, caught.value.field) == ("too_many", "runs")
