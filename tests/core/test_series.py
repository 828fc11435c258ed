"""series.py: both sides' strength after the start and after each entry that counts."""

from __future__ import annotations

from background_battle.series import strength_series

from .builders import dwarves_and_orcs, run


def test_the_series_starts_at_s0_and_follows_each_round() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 5, "enemies": 0}},
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 0, "enemies": 3}},
    )
    points = strength_series(battle)
    assert [(p["round"], p["allies"], p["enemies"]) for p in points] == [
        (0, 30, 26),
        (1, 25, 26),
        (2, 25, 23),
    ]


def test_an_undone_round_leaves_the_series() -> None:
    battle = run(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "lost", "lost": {"allies": 5, "enemies": 0}},
        {"type": "undo"},
    )
    assert [(p["allies"], p["enemies"]) for p in strength_series(battle)] == [(30, 26)]


def test_the_set_up_has_no_point() -> None:
    assert strength_series(dwarves_and_orcs(start=False)) == []
