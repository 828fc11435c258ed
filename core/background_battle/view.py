"""What a GM and what a player see of a battle: the state as plain data, casualties included."""

from __future__ import annotations

from typing import Any, Final, Literal

from .battle import Battle
from .casualties import lost_share, unit_casualties
from .errors import BattleError
from .validate import SIDES, Side

Role = Literal["gm", "player"]
STRENGTH_KEYS: Final = frozenset(
    {
        "strength",
        "strength_before",
        "initial",
        "bonus",
        "strength_for_next_test",
        "modifiers",
        "strength_cost",
        "rating",
        "units_strength",
        "pending_bonus",
        "lost_share",
        "targets",
        "sl",
        "lost",
        "casualties",
    }
)
FIGHTER_KEYS: Final = frozenset({"fighters", "detached", "casualties"})
ROLL_KEYS: Final = frozenset({"rolls", "sl", "success"})  # per side, with that side's strength
DICE_KEYS: Final = frozenset({"leadership", "roll", "success"})
"""A side's own test, hidden with its strength: the leader's Leadership, the d100 of the leader's
test or of its Influence, and whether the test passed (Leadership and roll give SL and success;
SL gives the bonus, and the bonus the strength; the Influence roll gives its total, and the total
the strengths)."""
REDACTED: Final = "redacted"
"""The key that names, in each object of a player view, the values hidden there (as ``None``)."""


def state_view(battle: Battle, role: Role = "gm", *, log: bool = True) -> dict[str, Any]:
    """The battle as a shell shows it; a player's view has the hidden numbers as ``None``, each
    named in its object's ``"redacted"`` list (so a hidden number never looks like "no value").

    ``log=False`` leaves the log out (a live client that follows the events has it already).

    >>> from background_battle import new_battle, apply
    >>> battle, _ = apply(new_battle("x"), {"type": "add_unit", "name": "Orcs",
    ...     "side": "enemies", "fighters": 12, "strength": 26})
    >>> gm, player = state_view(battle), state_view(battle, "player")
    >>> gm["units"][0]["fighters"], player["units"][0]["fighters"]
    (12, None)
    """
    if role not in ("gm", "player"):
        raise BattleError("out_of_range", "role", f"role must be 'gm' or 'player', not {role!r}")
    view: dict[str, Any] = {
        "name": battle.name,
        "version": battle.version,
        "status": battle.status,
        "round": battle.round,
        "winner": battle.winner,
        "end_reason": battle.end_reason,
        "sides": {side: _side_view(battle, side) for side in SIDES},
        "units": [_unit_view(battle, unit.id) for unit in battle.units],
        "hidden": sorted(battle.hidden),
        "influence_table": battle.table().to_dict(),
        "log": [entry.to_dict() for entry in battle.log] if log else None,
        "undone": sorted(battle.undone),
        "can_undo": battle.can_undo(),
    }
    if role == "player":
        view = redact_view(battle, view)
    if not log:
        del view["log"]
    return view


def views_by_role(battle: Battle, *, log: bool = True) -> dict[Role, dict[str, Any]]:
    """``state_view`` for each role, the battle's view made once: the player's is the GM's with
    the hidden numbers blanked (new objects where a number is blanked; the rest shared, as
    every view is read, never changed).

    >>> from background_battle import new_battle, apply
    >>> battle, _ = apply(new_battle("x"), {"type": "add_unit", "name": "Orcs",
    ...     "side": "enemies", "fighters": 12, "strength": 26})
    >>> views = views_by_role(battle, log=False)
    >>> views["player"] == state_view(battle, "player", log=False)
    True
    >>> views["gm"]["units"][0]["fighters"], views["player"]["units"][0]["fighters"]
    (12, None)
    """
    gm = state_view(battle, log=log)
    player = {**gm, "log": gm.get("log")}  # redact_view replaces sides, units and the log
    player = redact_view(battle, player)
    if not log:
        del player["log"]
    return {"gm": gm, "player": player}


def _side_view(battle: Battle, side: Side) -> dict[str, Any]:
    state = battle.side(side)
    share = _share(battle, side)
    return {
        "units_strength": sum(unit.strength for unit in battle.units_of(side)),
        "modifiers": [modifier.to_dict() for modifier in state.modifiers],
        "initial": state.initial,
        "strength": state.strength,
        "pending_bonus": state.pending_bonus,
        "lost_share": None if share is None else float(share),
    }


def _share(battle: Battle, side: Side) -> Any:
    state = battle.side(side)
    if state.initial is None or state.strength is None or state.initial < 1:
        return None
    return lost_share(state.initial, state.strength)


def _unit_view(battle: Battle, unit_id: str) -> dict[str, Any]:
    unit = battle.unit(unit_id)
    assert unit is not None
    share = _share(battle, unit.side)
    view = unit.to_dict()
    view["casualties"] = None if share is None else unit_casualties(unit.in_battle, share).to_dict()
    return view


def redact_view(battle: Battle, view: dict[str, Any]) -> dict[str, Any]:
    """Blank out what the GM hides from players, in the state and in the log."""
    view["sides"] = {side: _redact(view["sides"][side], battle, side) for side in SIDES}
    view["units"] = [_redact(unit, battle, None) for unit in view["units"]]
    if view["log"] is not None:
        view["log"] = [redact_entry(battle, entry) for entry in view["log"]]
    return view


def redact_entry(battle: Battle, entry: dict[str, Any], role: Role = "player") -> dict[str, Any]:
    """A log entry as a role may see it (the GM sees everything).

    >>> from background_battle import new_battle, apply
    >>> battle, _ = apply(new_battle("x"), {"type": "add_unit", "name": "Orcs",
    ...     "side": "enemies", "fighters": 12, "strength": 26})
    >>> redact_entry(battle, battle.log[0].to_dict())["command"]
    {'type': 'add_unit', 'name': 'Orcs', 'side': 'enemies', 'fighters': None, 'strength': None, \
'redacted': ['fighters', 'strength']}
    """
    if role == "gm":
        return entry
    rounds = [e["strength"] for e in entry["events"] if e.get("type") == "round_resolved"]
    return {
        # a loss typed into a round's command is the loss its event shows: hidden alike
        "command": _redact(entry["command"], battle, None, rounds[0] if rounds else None),
        "events": [_redact(event, battle, None) for event in entry["events"]],
    }


def _redact(data: Any, battle: Battle, side: Side | None, after: Any = None) -> Any:
    """Walk JSON data; numbers that belong to a hidden side's strength or head count, or that
    would give them away, become ``None`` and are named in the object's ``REDACTED`` list.

    ``after``: each side's strength after the round a ``resolve_round`` command played (its
    event's ``strength``), which decides whether the loss typed in it is shown."""
    if isinstance(data, list):
        return [_redact(item, battle, side) for item in data]
    if not isinstance(data, dict):
        return data
    own = _side_of(data, battle) or side
    result: dict[str, Any] = {}
    redacted: list[str] = []
    for key, value in data.items():
        if _per_side(value):  # a value per side: {"allies": .., "enemies": ..}
            result[key] = {}
            for s, item in value.items():
                if _hidden_of_side(battle, s, key, data, after):
                    result[key][s] = None
                    redacted.append(f"{key}.{s}")
                else:
                    result[key][s] = _redact(item, battle, s)
        elif _hidden(battle, own, key) or _hidden_roll(battle, data, key):
            result[key] = None
            redacted.append(key)
        else:
            result[key] = _redact(value, battle, own)
    if redacted:
        result[REDACTED] = redacted
    return result


def _per_side(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and set(value) <= set(SIDES)


def _side_of(data: dict[str, Any], battle: Battle) -> Side | None:
    if data.get("side") in SIDES:
        side: Side = data["side"]
        return side
    unit_id = data.get("unit")
    unit = battle.unit(unit_id) if isinstance(unit_id, str) else None
    return unit.side if unit is not None else None


def _hidden(battle: Battle, side: Side | None, key: str) -> bool:
    sides = SIDES if side is None else (side,)
    if key in STRENGTH_KEYS or key in DICE_KEYS:
        return any(f"{s}.strength" in battle.hidden for s in sides)
    if key in FIGHTER_KEYS:
        return any(f"{s}.fighters" in battle.hidden for s in sides)
    return False


def _hidden_of_side(
    battle: Battle, side: Side, key: str, data: dict[str, Any], after: Any = None
) -> bool:
    """One side's part of a value per side: its roll, SL and success go with its strength.

    The loss a side took is what the other side dealt: with the other's strength hidden it
    would give the other's SL away, unless players can already tell it: a round that leaves
    this (shown) side above 0 shows its strength before and after, so its loss is shown too
    (never "?" beside two numbers shown). A side driven to 0 may have been dealt more than it
    had: then its loss stays hidden. A loss typed into a ``resolve_round`` command is the
    loss its event shows (``after``: the event's strength after the round), shown or hidden alike.
    """
    if key in ROLL_KEYS:
        return f"{side}.strength" in battle.hidden
    if key == "lost" and any(f"{s}.strength" in battle.hidden for s in SIDES):
        if data.get("type") == "round_resolved":
            after = data.get("strength")
        left = after.get(side) if isinstance(after, dict) else None
        return _hidden(battle, side, key) or not (isinstance(left, int) and left > 0)
    return _hidden(battle, side, key)


def _hidden_roll(battle: Battle, data: dict[str, Any], key: str) -> bool:
    """Numbers of an Influence roll or of the PCs' win that would give a strength away."""
    kind = data.get("type")
    if kind == "influence_rolled" and key in ("modifier", "total", "band"):
        # after the battle the modifier is the roller's own strength; during it, both sides'
        sides = (data["side"],) if data.get("phase") == "ended" else SIDES
        return any(f"{s}.strength" in battle.hidden for s in sides)
    if kind == "round_resolved" and key == "decided_by":
        # why the round went so compares both sides' SL, results and targets
        return any(f"{s}.strength" in battle.hidden for s in SIDES)
    if kind == "pcs_won" and key == "damage":
        # the allies' loss: shown with their strength when it leaves them above 0 (before and
        # after shown give it); one driven to 0 may have been dealt more than it had
        left = data.get("allies_strength")
        shown_loss = "allies.strength" not in battle.hidden and isinstance(left, int) and left > 0
        return "enemies.strength" in battle.hidden and not shown_loss
    if kind == "pcs_won" and key in ("enemy_strength", "fighting_strength"):
        return "enemies.strength" in battle.hidden
    if kind == "pcs_won" and key == "allies_strength":
        return "allies.strength" in battle.hidden
    return False
