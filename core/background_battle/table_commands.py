"""Commands about the battle itself: its name, what players see, the Influence table, undo."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .battle import Battle
from .dice import Dice
from .errors import BattleError

Event = dict[str, Any]


def set_influence_table(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Use the GM's own Influence table (checked by its shape), or null for the house default."""
    return [{"type": "influence_table_set", "table": command["table"]}]


def set_hidden(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Choose which numbers the player view hides."""
    return [{"type": "hidden_set", "hidden": sorted(set(command["hidden"]))}]


def rename(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Give the battle another name."""
    return [{"type": "renamed", "name": command["name"]}]


def undo(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Take back the latest command that still counts (its rolls go with it)."""
    active = battle.active_entries()
    if not active:
        raise BattleError("nothing_to_undo", None, "there is nothing to undo")
    return [{"type": "undone", "entry": active[-1]}]
