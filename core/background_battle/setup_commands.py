"""Commands of the set-up: units, side modifiers, the start (docs/rules.md §3).

Each rule gets the command as ``shapes.normalise`` made it: its fields checked already.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .battle import Battle
from .dice import Dice
from .errors import BattleError
from .modifiers import Modifier, initial_strength
from .units import MAX_STRENGTH, Unit, unit_strength
from .validate import SIDES, Side

MAX_BATTLE_UNITS: Final = 1000
Event = dict[str, Any]


def _strength_of(command: Mapping[str, Any], fighters: int, size: str) -> int:
    if command.get("strength") is not None:
        strength: int = command["strength"]
        return strength
    return min(unit_strength(fighters, command["rating"], size), MAX_STRENGTH)


def add_unit(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """A unit joins a side before the start; its strength is typed in or rated."""
    if len(battle.units) >= MAX_BATTLE_UNITS:
        raise BattleError("too_many", "units", f"a battle holds at most {MAX_BATTLE_UNITS} units")
    unit_id = command.get("id") or f"u{battle.next_unit}"
    if battle.unit(unit_id) is not None:
        raise BattleError("duplicate_id", "id", f"a unit with id {unit_id!r} already exists")
    size = command.get("size", "average")
    strength = _strength_of(command, command["fighters"], size)
    unit = Unit(unit_id, command["name"], command["side"], command["fighters"], strength, size)
    return [{"type": "unit_added", "unit": unit.to_dict()}]


def update_unit(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Change a unit's name, side, fighters, size or strength before the start."""
    unit = known_unit(battle, command)
    fighters = command.get("fighters", unit.fighters)
    size = command.get("size", unit.size)
    rated = "strength" in command or "rating" in command
    changed = Unit(
        unit.id,
        command.get("name", unit.name),
        command.get("side", unit.side),
        fighters,
        _strength_of(command, fighters, size) if rated else unit.strength,
        size,
    )
    return [{"type": "unit_updated", "unit": changed.to_dict()}]


def remove_unit(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Take a unit out before the start."""
    unit = known_unit(battle, command)
    return [{"type": "unit_removed", "unit": unit.id}]


def set_modifiers(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Replace a side's named modifiers (percent of the units' sum and/or flat)."""
    modifiers = [Modifier(**item) for item in command.get("modifiers", [])]
    return [
        {
            "type": "modifiers_set",
            "side": command["side"],
            "modifiers": [m.to_dict() for m in modifiers],
        }
    ]


def planned_initial(battle: Battle, each: Side) -> int:
    """The S0 a side would start with now: its units' strength and its modifiers (set-up shows it).

    >>> from background_battle import new_battle, apply
    >>> b, _ = apply(new_battle("x"), {"type": "add_unit", "name": "Dwarves", "side": "allies",
    ...                                "fighters": 10, "strength": 56})
    >>> b, _ = apply(b, {"type": "set_modifiers", "side": "allies",
    ...                  "modifiers": [{"name": "Walls", "percent": 10}]})
    >>> planned_initial(b, "allies"), planned_initial(b, "enemies")
    (62, 0)
    """
    units = battle.units_of(each)
    return initial_strength(sum(u.strength for u in units), battle.side(each).modifiers)


def start(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Fix each side's S0 from its units and modifiers; the fight begins."""
    initial = {}
    for each in SIDES:
        units = battle.units_of(each)
        if not units:
            raise BattleError("side_empty", each, f"{each} need at least one unit to start")
        s0 = planned_initial(battle, each)
        if s0 < 1:
            raise BattleError(
                "no_initial_strength",
                each,
                f"{each} start with strength {s0}; it must be at least 1 after modifiers",
                min=1,
            )
        initial[each] = s0
    return [{"type": "battle_started", "initial": initial}]


def known_unit(battle: Battle, command: Mapping[str, Any]) -> Unit:
    """The unit a command names, or ``unknown_unit``."""
    unit = battle.unit(command["unit"])
    if unit is None:
        raise BattleError(
            "unknown_unit", "unit", f"there is no unit {command['unit']!r} in this battle"
        )
    return unit
