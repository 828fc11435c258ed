"""Commands about the battle itself: its name, what players see, the Influence table, undo."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .battle import HIDEABLE, Battle
from .dice import Dice
from .errors import BattleError
from .influence import table_from_dict
from .validate import required, text

Event = dict[str, Any]


def set_influence_table(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Use the GM's own Influence table (checked first), or null for the house default."""
    if "table" not in command:
        raise BattleError("required", "table", "table is required (null for the house default)")
    raw = command["table"]
    table = None if raw is None else table_from_dict(raw).to_dict()
    return [{"type": "influence_table_set", "table": table}]


def set_hidden(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Choose which numbers the player view hides."""
    hidden = required(command, "hidden")
    if not isinstance(hidden, list) or any(item not in HIDEABLE for item in hidden):
        raise BattleError(
            "out_of_range",
            "hidden",
            f"hidden must be a list drawn from {', '.join(HIDEABLE)}",
            accepted=list(HIDEABLE),
        )
    return [{"type": "hidden_set", "hidden": sorted(set(hidden))}]


def rename(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Give the battle another name."""
    return [{"type": "renamed", "name": text(required(command, "name"), "name")}]


def undo(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Take back the latest command that still counts (its rolls go with it)."""
    active = battle.active_entries()
    if not active:
        raise BattleError("nothing_to_undo", None, "there is nothing to undo")
    return [{"type": "undone", "entry": active[-1]}]
