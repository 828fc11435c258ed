"""Commands in, events out: ``apply`` validates, ``evolve`` folds, undo replays the rest."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Final

from . import fight_commands as fight
from . import setup_commands as setup
from . import table_commands as table
from .battle import Battle, Entry
from .dice import Dice
from .errors import BattleError
from .events import fold
from .history import History
from .shapes import SHAPES, command_type, normalise

MAX_LOG: Final = 100_000
Decide = Callable[[Battle, Mapping[str, Any], Dice], list[dict[str, Any]]]

RULES: Final[dict[str, Decide]] = {
    "add_unit": setup.add_unit,
    "update_unit": setup.update_unit,
    "remove_unit": setup.remove_unit,
    "set_modifiers": setup.set_modifiers,
    "start": setup.start,
    "leader_command": fight.leader_command,
    "resolve_round": fight.resolve_round,
    "set_strength": fight.set_strength,
    "detach_fighters": fight.detach_fighters,
    "pcs_won": fight.pcs_won,
    "end_battle": fight.end_battle,
    "roll_influence": fight.roll_influence,
    "set_influence_table": table.set_influence_table,
    "set_hidden": table.set_hidden,
    "rename": table.rename,
    "undo": table.undo,
}


def decide(battle: Battle, command: Any, dice: Dice) -> Entry:
    """Check a command against its shape and the battle; the log entry (nothing changes yet).

    The entry keeps the command as ``shapes.normalise`` gives it, never the raw input.

    Raises:
        BattleError: for an unknown command, a command out of its phase, or any bad field.
    """
    kind = command_type(command)
    if len(battle.log) >= MAX_LOG:
        raise BattleError("too_many", "log", f"a battle's log holds at most {MAX_LOG} entries")
    phases = SHAPES[kind].phases
    if battle.status not in phases:
        raise BattleError(
            "wrong_phase",
            "type",
            f"{kind} is possible only while the battle is {' or '.join(phases)}; "
            f"it is {battle.status}",
            status=battle.status,
            accepted=list(phases),
        )
    command = normalise(command)
    events = RULES[kind](battle, command, dice)
    return Entry(command, tuple(events))


def apply(
    battle: Battle, command: Any, rng: random.Random | None = None
) -> tuple[Battle, list[dict[str, Any]]]:
    """Apply one command; the new battle and the events it produced.

    >>> from background_battle import new_battle
    >>> battle, events = apply(new_battle("skirmish"), {"type": "add_unit", "name": "Dwarves",
    ...     "side": "allies", "fighters": 10, "strength": 30})
    >>> events[0]["unit"]["id"], battle.version
    ('u1', 1)

    Raises:
        BattleError: when the command is refused; the battle is unchanged.
    """
    entry = decide(battle, command, Dice(rng))
    return evolve(battle, entry), list(entry.events)


def evolve(battle: Battle, entry: Entry | Mapping[str, Any]) -> Battle:
    """Add an already-validated entry to the log (no rule checked, nothing re-rolled)."""
    if not isinstance(entry, Entry):
        entry = Entry(dict(entry["command"]), tuple(entry["events"]))
    log = (battle.log if isinstance(battle.log, History) else History(battle.log)).appended(entry)
    undone_now = [event["entry"] for event in entry.events if event["type"] == "undone"]
    if not undone_now:
        return replace(fold(battle, entry.events), log=log)
    return rebuild(replace(battle, log=log, undone=battle.undone | set(undone_now)))


def rebuild(battle: Battle) -> Battle:
    """The state as the replay of every entry that counts, from an empty battle."""
    state = Battle(name=battle.created_as, created_as=battle.created_as)
    for index in battle.active_entries():
        state = fold(state, battle.log[index].events)
    return replace(state, log=battle.log, undone=battle.undone)
