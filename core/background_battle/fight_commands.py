"""Commands of the fight: leader, rounds, strength, detaching, the end (docs/rules.md §4–§6, §8).

Each rule gets the command as ``shapes.normalise`` made it: its fields checked already.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .battle import Battle
from .dice import Dice
from .errors import BattleError
from .influence import influence_modifier
from .last_stand import last_stand
from .leader import leader_bonus
from .opposed import decided_by, opposed, wfrp_test
from .rounding import round_half_down
from .setup_commands import known_unit
from .validate import SIDES, Side, other_side

Event = dict[str, Any]


def leader_command(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """A Leadership test; on a success the side's next opposed test gets the leader's bonus."""
    leader_side: Side = command["side"]
    state = battle.side(leader_side)
    if state.pending_bonus:
        raise BattleError(
            "bonus_pending",
            "side",
            f"{leader_side} already have a leader's bonus of +{state.pending_bonus} waiting for "
            "their next opposed test; it does not stack",
            bonus=state.pending_bonus,
        )
    event: Event = {"type": "leader_commanded", "side": leader_side}
    if "leadership" in command:
        leadership = command["leadership"]
        if "roll" in command:
            roll = command["roll"]
        else:
            roll = dice.d100("roll")
            event["auto"] = True
        test = wfrp_test(leadership, roll)
        success, sl = test.success, test.sl
        event.update(leadership=leadership, roll=roll)
    elif "sl" not in command:
        # A failed test typed in needs no SL: it gives no bonus whatever its SL (docs/rules.md §4).
        if command.get("success", True):
            raise BattleError("required", "sl", "sl (or leadership) is required", min=0, max=100)
        success, sl = False, None
    else:
        success, sl = command.get("success", True), command["sl"]
        if success and sl < 0:
            raise BattleError(
                "out_of_range", "sl", f"sl of a passed test must be from 0 to 100, not {sl}", min=0
            )
        if not success and sl > 0:
            raise BattleError(
                "sl_on_failure",
                "sl",
                f"sl of a failed test must be 0 or less, not +{sl}: a failure gives no bonus",
                max=0,
            )
    strength = battle.strength(leader_side)
    bonus = leader_bonus(strength, sl) if success and sl is not None else 0
    event["success"] = success
    if sl is not None:  # a failure typed in without its SL has none
        event["sl"] = sl
    event.update(bonus=bonus, strength_for_next_test=strength + bonus)
    return [event]


def resolve_round(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """One opposed test between the sides: rolled here, rolls typed in, or the loss typed in."""
    mode = command.get("mode", "auto")
    targets = {s: battle.strength(s) + battle.side(s).pending_bonus for s in SIDES}
    event: Event = {"type": "round_resolved", "round": battle.round + 1, "mode": mode}
    # each side's strength before the round: a side driven to 0 may lose more than it had
    event["strength_before"] = {s: battle.strength(s) for s in SIDES}
    event["targets"] = targets
    if mode == "lost":
        lost: dict[Side, int] = command["lost"]
        winner: Side | None = None
    else:
        if mode == "rolls":
            rolls: dict[Side, int] = command["rolls"]
        else:
            rolls = {s: dice.d100(f"rolls.{s}") for s in SIDES}
            event["auto"] = True
        tests = {s: wfrp_test(targets[s], rolls[s]) for s in SIDES}
        winner, loss = opposed(tests["allies"], tests["enemies"])
        lost = {s: loss if winner == other_side(s) else 0 for s in SIDES}
        event.update(
            rolls=rolls,
            sl={s: tests[s].sl for s in SIDES},
            success={s: tests[s].success for s in SIDES},
            decided_by=decided_by(tests["allies"], tests["enemies"]),
        )
    strength = {s: max(0, battle.strength(s) - lost[s]) for s in SIDES}
    event.update(winner=winner, lost=lost, strength=strength)
    return [event, *_ended_by_strength(battle, strength)]


def set_strength(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """The GM sets a side's current strength by hand."""
    target: Side = command["side"]
    strength: int = command["strength"]
    after = {s: strength if s == target else battle.strength(s) for s in SIDES}
    event = {"type": "strength_set", "side": target, "strength": strength}
    return [event, *_ended_by_strength(battle, after)]


def detach_fighters(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """Move k fighters into the PCs' fight: the side loses k x cost of S0 and of its strength."""
    unit = known_unit(battle, command)
    fighters: int = command["fighters"]
    if fighters > unit.in_battle:
        raise BattleError(
            "out_of_range",
            "fighters",
            f"fighters must be from 1 to {unit.in_battle}, the fighters {unit.name} has left, "
            f"not {fighters}"
            if unit.in_battle
            else f"fighters: {unit.name} has no fighters left",
            min=1,
            max=unit.in_battle,
        )
    state = battle.side(unit.side)
    initial = state.initial or 0
    cost = round_half_down(fighters * fighter_cost(battle, unit.id))
    after = {s: battle.strength(s) for s in SIDES}
    after[unit.side] = max(0, after[unit.side] - cost)
    event = {
        "type": "fighters_detached",
        "unit": unit.id,
        "side": unit.side,
        "fighters": fighters,
        "strength_cost": cost,
        "initial": max(0, initial - cost),
        "strength": after[unit.side],
    }
    return [event, *_ended_by_strength(battle, after)]


def fighter_cost(battle: Battle, unit_id: str) -> Fraction:
    """A fighter's share of S0: the unit's share of the side's S0, divided by its fighters.

    Units keep their own strength per fighter; for a one-unit side this is S0 / N.
    """
    unit = battle.unit(unit_id)
    assert unit is not None
    units = battle.units_of(unit.side)
    initial = battle.side(unit.side).initial or 0
    in_battle = sum(u.in_battle for u in units)
    rated = sum(Fraction(u.strength * u.in_battle, u.fighters) for u in units)
    if rated == 0:
        return Fraction(initial, in_battle) if in_battle else Fraction(0)
    return initial * Fraction(unit.strength, unit.fighters) / rated


def pcs_won(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """The PCs beat their foes: some enemies flee, the rest deal 50% of their strength, the end."""
    fleeing = Fraction(command.get("fleeing", "0"))
    result = last_stand(battle.strength("enemies"), fleeing, battle.strength("allies"))
    event = {
        "type": "pcs_won",
        "fleeing": str(fleeing),
        "enemy_strength": battle.strength("enemies"),
        "fighting_strength": result.fighting_strength,
        "damage": result.damage,
        "allies_strength": result.allies_strength_after,
    }
    return [event, {"type": "battle_ended", "winner": "allies", "reason": "pcs_won"}]


def end_battle(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """The GM declares the background battle over (by default the stronger side has won)."""
    if "winner" in command:
        winner = command["winner"]
    else:
        allies, enemies = battle.strength("allies"), battle.strength("enemies")
        winner = None if allies == enemies else ("allies" if allies > enemies else "enemies")
    return [{"type": "battle_ended", "winner": winner, "reason": "declared"}]


def roll_influence(battle: Battle, command: Mapping[str, Any], dice: Dice) -> list[Event]:
    """A d100 on the Influence table for one side, with the modifier the rules give."""
    roller: Side = command["side"]
    over = battle.status == "ended"
    if over and battle.winner != roller:
        raise BattleError(
            "not_winner",
            "side",
            f"after the battle only the winner rolls on the Influence table; {roller} did not win",
            winner=battle.winner,
        )
    event: Event = {"type": "influence_rolled", "side": roller, "phase": battle.status}
    if "roll" in command:
        roll = command["roll"]
    else:
        roll = dice.d100("roll")
        event["auto"] = True
    modifier = influence_modifier(
        battle.strength(roller), battle.strength(other_side(roller)), battle_over=over
    )
    total = roll + modifier
    band = battle.table().band_for(total).for_side(roller)  # read for the side that rolled
    event.update(roll=roll, modifier=modifier, total=total, band=band.to_dict())
    return [event]


def _ended_by_strength(battle: Battle, strength: Mapping[Side, int]) -> list[Event]:
    """A side at 0 strength has lost the background battle (both at 0: nobody won)."""
    if battle.status != "fighting":
        return []
    beaten = [s for s in SIDES if strength[s] == 0]
    if not beaten:
        return []
    winner = other_side(beaten[0]) if len(beaten) == 1 else None
    return [{"type": "battle_ended", "winner": winner, "reason": "strength_zero"}]
