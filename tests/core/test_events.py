"""events.py: folding a command's events gives the next state; nothing is rolled again."""

from __future__ import annotations

from background_battle.events import fold

from .builders import dwarves_and_orcs


def test_a_round_resolved_takes_the_loss_from_the_loser() -> None:
    battle = dwarves_and_orcs()
    event = {
        "type": "round_resolved",
        "round": 1,
        "mode": "lost",
        "lost": {"allies": 0, "enemies": 4},
        "strength": {"allies": 30, "enemies": 22},
    }
    after = fold(battle, [event])
    assert (after.round, after.strength("enemies"), after.strength("allies")) == (1, 22, 30)
    assert battle.strength("enemies") == 26  # the battle before is untouched


def test_folding_the_log_again_gives_the_same_battle() -> None:
    battle = dwarves_and_orcs()
    state = fold(dwarves_and_orcs(start=False), battle.log[-1].events)
    assert (state.status, state.strength("allies"), state.strength("enemies")) == (
        battle.status,
        battle.strength("allies"),
        battle.strength("enemies"),
    )
