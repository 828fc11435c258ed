"""Commands in, events out: ``apply`` validates, ``evolve`` folds, undo replays the rest."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Final

from . import fight_commands as fight
from . import setup_commands as setup
from . import table_commands as table
from .battle import Battle, Entry, Status
from .dice import Dice
from .errors import BattleError
from .events import fold
from .history import History
from .validate import mapping, one_of

MAX_LOG: Final = 100_000
Decide = Callable[[Battle, Mapping[str, Any], Dice], list[dict[str, Any]]]
ANY: Final[tuple[Status, ...]] = ("setup", "fighting", "ended")

COMMANDS: Final[dict[str, tuple[Decide, tuple[Status, ...]]]] = {
    "add_unit": (setup.add_unit, ("setup",)),
    "update_unit": (setup.update_unit, ("setup",)),
    "remove_unit": (setup.remove_unit, ("setup",)),
    "set_modifiers": (setup.set_modifiers, ("setup",)),
    "start": (setup.start, ("setup",)),
    "leader_command": (fight.leader_command, ("fighting",)),
    "resolve_round": (fight.resolve_round, ("fighting",)),
    "set_strength": (fight.set_strength, ("fighting", "ended")),
    "detach_fighters": (fight.detach_fighters, ("fighting", "ended")),
    "pcs_won": (fight.pcs_won, ("fighting",)),
    "end_battle": (fight.end_battle, ("fighting",)),
    "roll_influence": (fight.roll_influence, ("fighting", "ended")),
    "set_influence_table": (table.set_influence_table, ANY),
    "set_hidden": (table.set_hidden, ANY),
    "rename": (table.rename, ANY),
    "undo": (table.undo, ANY),
}


def decide(battle: Battle, command: Any, dice: Dice) -> Entry:
    """Validate a command against the battle and turn it into a log entry (nothing changes yet).

    Raises:
        BattleError: for an unknown command, a command out of its phase, or any bad field.
    """
    command = mapping(command, "command")
    kind = one_of(command.get("type"), "type", COMMANDS, "unknown_command")
    if len(battle.log) >= MAX_LOG:
        raise BattleError("too_many", "log", f"a battle's log holds at most {MAX_LOG} entries")
    rule, phases = COMMANDS[kind]
    if battle.status not in phases:
        raise BattleError(
            "wrong_phase",
            "type",
            f"{kind} is possible only while the battle is {' or '.join(phases)}; "
            f"it is {battle.status}",
            status=battle.status,
            accepted=list(phases),
        )
    events = rule(battle, command, dice)
    return Entry(_stored(command), tuple(events))


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


def _stored(command: Mapping[str, Any]) -> dict[str, Any]:
    """The command as the log keeps it: plain JSON values only, copied."""
    try:
        stored: dict[str, Any] = json.loads(json.dumps(dict(command), default=str))
    except (TypeError, ValueError) as error:
        raise BattleError("bad_command", "command", f"command is not plain JSON: {error}") from None
    return stored
