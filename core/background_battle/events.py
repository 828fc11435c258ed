"""Events change a battle; folding them in order gives its state (trusted, nothing re-rolled)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from .battle import Battle
from .influence import table_from_dict
from .modifiers import Modifier
from .units import Unit


def unit_from_dict(data: dict[str, Any]) -> Unit:
    """A unit from its JSON-friendly form."""
    return Unit(
        id=data["id"],
        name=data["name"],
        side=data["side"],
        fighters=data["fighters"],
        strength=data["strength"],
        size=data.get("size", "average"),
        detached=data.get("detached", 0),
    )


def _unit_added(battle: Battle, event: dict[str, Any]) -> Battle:
    unit = unit_from_dict(event["unit"])
    number = int(unit.id[1:]) if unit.id[1:].isdigit() else 0
    return replace(battle, units=(*battle.units, unit), next_unit=max(battle.next_unit, number + 1))


def _unit_updated(battle: Battle, event: dict[str, Any]) -> Battle:
    new = unit_from_dict(event["unit"])
    units = tuple(new if unit.id == new.id else unit for unit in battle.units)
    return replace(battle, units=units)


def _unit_removed(battle: Battle, event: dict[str, Any]) -> Battle:
    return replace(battle, units=tuple(u for u in battle.units if u.id != event["unit"]))


def _modifiers_set(battle: Battle, event: dict[str, Any]) -> Battle:
    modifiers = tuple(Modifier(**m) for m in event["modifiers"])
    return battle.with_side(event["side"], modifiers=modifiers)


def _battle_started(battle: Battle, event: dict[str, Any]) -> Battle:
    for side in ("allies", "enemies"):
        s0 = event["initial"][side]
        battle = battle.with_side(side, initial=s0, strength=s0, pending_bonus=0)
    return replace(battle, status="fighting", round=0)


def _leader_commanded(battle: Battle, event: dict[str, Any]) -> Battle:
    return battle.with_side(event["side"], pending_bonus=event["bonus"])


def _round_resolved(battle: Battle, event: dict[str, Any]) -> Battle:
    for side in ("allies", "enemies"):
        battle = battle.with_side(side, strength=event["strength"][side], pending_bonus=0)
    return replace(battle, round=event["round"])


def _strength_set(battle: Battle, event: dict[str, Any]) -> Battle:
    return battle.with_side(event["side"], strength=event["strength"])


def _fighters_detached(battle: Battle, event: dict[str, Any]) -> Battle:
    units = tuple(
        replace(unit, detached=unit.detached + event["fighters"])
        if unit.id == event["unit"]
        else unit
        for unit in battle.units
    )
    battle = replace(battle, units=units)
    return battle.with_side(event["side"], initial=event["initial"], strength=event["strength"])


def _pcs_won(battle: Battle, event: dict[str, Any]) -> Battle:
    battle = battle.with_side("enemies", strength=event["fighting_strength"])
    return battle.with_side("allies", strength=event["allies_strength"])


def _battle_ended(battle: Battle, event: dict[str, Any]) -> Battle:
    return replace(battle, status="ended", winner=event["winner"], end_reason=event["reason"])


def _influence_table_set(battle: Battle, event: dict[str, Any]) -> Battle:
    table = event["table"]
    return replace(battle, influence_table=None if table is None else table_from_dict(table))


def _hidden_set(battle: Battle, event: dict[str, Any]) -> Battle:
    return replace(battle, hidden=frozenset(event["hidden"]))


def _renamed(battle: Battle, event: dict[str, Any]) -> Battle:
    return replace(battle, name=event["name"])


def _unchanged(battle: Battle, event: dict[str, Any]) -> Battle:
    return battle


EVOLVE: dict[str, Callable[[Battle, dict[str, Any]], Battle]] = {
    "unit_added": _unit_added,
    "unit_updated": _unit_updated,
    "unit_removed": _unit_removed,
    "modifiers_set": _modifiers_set,
    "battle_started": _battle_started,
    "leader_commanded": _leader_commanded,
    "round_resolved": _round_resolved,
    "strength_set": _strength_set,
    "fighters_detached": _fighters_detached,
    "pcs_won": _pcs_won,
    "battle_ended": _battle_ended,
    "influence_rolled": _unchanged,
    "influence_table_set": _influence_table_set,
    "hidden_set": _hidden_set,
    "renamed": _renamed,
}


def fold(battle: Battle, events: Iterable[dict[str, Any]]) -> Battle:
    """Apply events in order (``undone`` is handled by the log, not here)."""
    for event in events:
        battle = EVOLVE[event["type"]](battle, event)
    return battle
