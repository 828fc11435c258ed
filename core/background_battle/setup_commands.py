"""Commands of the set-up: units, side modifiers, the start (RULES.md 3, 5.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .battle import Battle
from .dice import Dice
from .errors import BattleError
from .modifiers import Modifier, initial_strength
from .units import MAX_FIGHTERS, MAX_RATING, MAX_STRENGTH, SIZES, Unit, unit_strength
from .validate import SIDES, mapping, one_of, required, side, text, whole

MAX_BATTLE_UNITS: Final = 1000
MAX_MODIFIERS: Final = 50
Event = dict[str, Any]


def _strength_of(command: Mapping[str, Any], fighters: int, size: str) -> int:
    if command.get("strength") is not None:
        return whole(command["strength"], "strength", 0, MAX_STRENGTH)
    if command.get("rating") is not None:
        rating = whole(command["rating"], "rating", 0, MAX_RATING)
        return min(unit_strength(fighters, rating, size), MAX_STRENGTH)
    raise BattleError("required", "strength", "strength (or a rating per fighter) is required")


def _size(command: Mapping[str, Any], default: str = "average") -> str:
    return one_of(command.get("size") or default, "size", SIZES, "unknown_size")


def add_unit(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """A unit joins a side before the start; its strength is typed in or rated."""
    if len(battle.units) >= MAX_BATTLE_UNITS:
        raise BattleError("too_many", "units", f"a battle holds at most {MAX_BATTLE_UNITS} units")
    unit_id = text(command["id"], "id", 40) if command.get("id") else f"u{battle.next_unit}"
    if battle.unit(unit_id) is not None:
        raise BattleError("duplicate_id", "id", f"a unit with id {unit_id!r} already exists")
    name = text(required(command, "name"), "name")
    unit_side = side(required(command, "side"))
    fighters = whole(required(command, "fighters"), "fighters", 1, MAX_FIGHTERS)
    size = _size(command)
    strength = _strength_of(command, fighters, size)
    unit = Unit(unit_id, name, unit_side, fighters, strength, size)
    return [{"type": "unit_added", "unit": unit.to_dict()}]


def update_unit(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Change a unit's name, side, fighters, size or strength before the start."""
    unit = known_unit(battle, command)
    fighters = (
        whole(command["fighters"], "fighters", 1, MAX_FIGHTERS)
        if command.get("fighters") is not None
        else unit.fighters
    )
    size = _size(command, unit.size)
    rated = command.get("strength") is not None or command.get("rating") is not None
    changed = Unit(
        unit.id,
        text(command["name"], "name") if command.get("name") is not None else unit.name,
        side(command["side"]) if command.get("side") is not None else unit.side,
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
    modifier_side = side(required(command, "side"))
    raw = command.get("modifiers") or []
    if not isinstance(raw, list) or len(raw) > MAX_MODIFIERS:
        raise BattleError(
            "out_of_range",
            "modifiers",
            f"modifiers must be a list of at most {MAX_MODIFIERS}",
            max=MAX_MODIFIERS,
        )
    modifiers = []
    for i, item in enumerate(raw):
        field = f"modifiers[{i}]"
        item = mapping(item, field)
        modifiers.append(
            Modifier(
                text(required(item, "name", f"{field}.name"), f"{field}.name"),
                whole(item.get("percent") or 0, f"{field}.percent", -100, 1000),
                whole(item.get("flat") or 0, f"{field}.flat", -MAX_STRENGTH, MAX_STRENGTH),
            )
        )
    return [
        {
            "type": "modifiers_set",
            "side": modifier_side,
            "modifiers": [m.to_dict() for m in modifiers],
        }
    ]


def start(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Fix each side's S0 from its units and modifiers; the fight begins."""
    initial = {}
    for each in SIDES:
        units = battle.units_of(each)
        if not units:
            raise BattleError("side_empty", each, f"{each} need at least one unit to start")
        s0 = initial_strength(sum(u.strength for u in units), battle.side(each).modifiers)
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
    unit_id = required(command, "unit")
    unit = battle.unit(unit_id) if isinstance(unit_id, str) else None
    if unit is None:
        raise BattleError("unknown_unit", "unit", f"there is no unit {unit_id!r} in this battle")
    return unit
