"""A followed battle's working, entry by entry: what a live page shows after each event.

A page that follows a battle held elsewhere (the bridge) shows the working of the newest entry,
each unit's casualties worked out and the strength chart. Worked out from the whole log, that
costs a replay per event, growing with the log; here the battle the page's core already holds
takes the new entries alone (each checked by replay with the rolls it recorded), and the
working, the casualties and the chart's new points come from the state it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .battle import Battle
from .errors import BattleError
from .explain import casualty_working, entry_working, explain_entry
from .log import MAX_LOG, evolve
from .serialize import checked_entry
from .series import series_point, strength_series

Working = dict[str, Any]


def working_of(battle: Battle) -> Working:
    """The whole working: the last entry that counts, the casualties and every chart point.

    >>> from background_battle import new_battle
    >>> working_of(new_battle("x"))
    {'entry': None, 'steps': [], 'casualties': {}, 'points': [], 'restart': True}
    """
    active = battle.active_entries()
    entry = active[-1] if active else None
    return {
        "entry": entry,
        "steps": [] if entry is None else explain_entry(battle, entry),
        "casualties": casualty_working(battle),
        "points": strength_series(battle),
        "restart": True,
    }


def extended(battle: Battle, entries: Sequence[Any]) -> tuple[Battle, Working]:
    """``battle`` with ``entries`` added (each checked), and the working they bring.

    ``points`` are the chart's new points (``restart`` false: add them to those shown), unless
    an entry undid another: then the whole working comes again (``restart`` true).

    >>> from background_battle import apply, new_battle, to_json
    >>> whole, _ = apply(new_battle("x"), {"type": "add_unit", "name": "Dwarves",
    ...     "side": "allies", "fighters": 10, "strength": 30})
    >>> whole, _ = apply(whole, {"type": "add_unit", "name": "Orcs", "side": "enemies",
    ...     "fighters": 12, "strength": 26})
    >>> whole, _ = apply(whole, {"type": "start"})
    >>> held, _ = apply(whole, {"type": "leader_command", "side": "enemies", "sl": 7})
    >>> later, _ = apply(held, {"type": "resolve_round", "mode": "rolls",
    ...     "rolls": {"allies": 45, "enemies": 12}})
    >>> _, working = extended(whole, to_json(later)["log"][3:])
    >>> working["entry"], working["steps"][-1]["text"], [p["allies"] for p in working["points"]]
    (4, '30 - 3 = 27', [30, 27])

    Raises:
        BattleError: ``bad_battle`` naming ``entries[i]`` when an entry is not what its
            command gives, ``too_many`` past the log's bound.
    """
    if len(battle.log) + len(entries) > MAX_LOG:
        raise BattleError("too_many", "entries", f"a battle's log holds at most {MAX_LOG} entries")
    points: list[dict[str, Any]] = []
    newest: tuple[int, list[Any]] | None = None
    undid = False
    for offset, raw in enumerate(entries):
        index = len(battle.log)
        entry = checked_entry(battle, raw, f"entries[{offset}]")
        after = evolve(battle, entry)
        if any(event["type"] == "undone" for event in entry.events):
            undid = True
        else:
            newest = (index, entry_working(battle, entry.events))
            point = series_point(after, index, entry.events)
            if point is not None:
                points.append(point)
        battle = after
    if undid or newest is None:
        return battle, working_of(battle)
    entry_index, steps = newest
    return battle, {
        "entry": entry_index,
        "steps": steps,
        "casualties": casualty_working(battle),
        "points": points,
        "restart": False,
    }
