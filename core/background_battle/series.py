"""Strength over the rounds: both sides after the start and after each entry of the fight."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .battle import Battle
from .events import fold
from .validate import SIDES

Point = dict[str, Any]


def strength_series(battle: Battle) -> list[Point]:
    """A point per entry that counts, from the start on: round, both strengths, marks.

    ``bonus`` marks a leader's command that succeeded (``{side: bonus}``); ``ended`` the end
    (``{"winner": ...}``). Undone entries are left out, as in the state.

    >>> from background_battle import new_battle, apply
    >>> b = new_battle("x")
    >>> for c in ({"type": "add_unit", "name": "Dwarves", "side": "allies", "fighters": 10,
    ...            "strength": 30}, {"type": "add_unit", "name": "Orcs", "side": "enemies",
    ...            "fighters": 12, "strength": 26}, {"type": "start"},
    ...           {"type": "leader_command", "side": "enemies", "sl": 7},
    ...           {"type": "resolve_round", "mode": "lost", "lost": {"allies": 5, "enemies": 0}},
    ...           {"type": "end_battle"}):
    ...     b, _ = apply(b, c)
    >>> [(p["round"], p["allies"], p["enemies"]) for p in strength_series(b)]
    [(0, 30, 26), (0, 30, 26), (1, 25, 26), (1, 25, 26)]
    >>> strength_series(b)[1]["bonus"], strength_series(b)[-1]["ended"]
    ({'enemies': 6}, {'winner': 'enemies'})
    """
    state = Battle(name=battle.created_as, created_as=battle.created_as)
    points: list[Point] = []
    for index in battle.active_entries():
        events = battle.log[index].events
        state = fold(state, events)
        point = series_point(state, index, events)
        if point is not None:
            points.append(point)
    return points


def series_point(state: Battle, index: int, events: Sequence[dict[str, Any]]) -> Point | None:
    """The point of entry ``index`` whose ``events`` gave ``state`` (none during the set-up)."""
    if state.status == "setup":
        return None
    point: Point = {"entry": index, "round": state.round}
    for side in SIDES:
        point[side] = state.strength(side)
    bonus = {e["side"]: e["bonus"] for e in events if e["type"] == "leader_commanded"}
    if any(bonus.values()):
        point["bonus"] = bonus
    for event in events:
        if event["type"] == "battle_ended":
            point["ended"] = {"winner": event["winner"]}
    return point
