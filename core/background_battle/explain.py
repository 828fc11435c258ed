"""Why each number is what it is: the working of a log entry, and of each unit's casualties.

The state before an entry is replayed from the log; each event's numbers are shown with the
arithmetic of its rule (``working.py``). Nothing is decided again and nothing is re-rolled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from .battle import Battle
from .casualties import lost_share
from .errors import BattleError
from .events import fold
from .fight_commands import fighter_cost
from .opposed import decided_by, wfrp_test
from .rounding import round_half_down
from .validate import SIDES, other_side, whole
from .working import (
    Step,
    casualty_steps,
    decided_working,
    difference,
    influence_modifier_working,
    initial_strength_working,
    leader_bonus_working,
    loss_working,
    lost_share_working,
    number,
    rounded,
    signed_sl,
    sl_working,
    step,
    sum_working,
)

Event = dict[str, Any]


def before_entry(battle: Battle, index: int) -> Battle:
    """The state just before entry ``index``: every entry that counts and came earlier."""
    state = Battle(name=battle.created_as, created_as=battle.created_as)
    for i in battle.active_entries():
        if i >= index:
            break
        state = fold(state, battle.log[i].events)
    return state


def explain_entry(battle: Battle, index: int | None = None) -> list[Step]:
    """The working of one log entry (by default the last one that counts).

    The orcs' WAAAGH! with 7 SL at strength 26:

    >>> from background_battle import new_battle, apply
    >>> b = new_battle("x")
    >>> for c in ({"type": "add_unit", "name": "Dwarves", "side": "allies", "fighters": 10,
    ...            "strength": 24}, {"type": "add_unit", "name": "Orcs", "side": "enemies",
    ...            "fighters": 12, "strength": 26}, {"type": "start"},
    ...           {"type": "leader_command", "side": "enemies", "sl": 7}):
    ...     b, _ = apply(b, c)
    >>> [s["text"] for s in explain_entry(b)]
    ['1 + floor(26/10) + floor(7/2) = 1 + 2 + 3 = 6', '26 + 6 = 32']

    Raises:
        BattleError: ``out_of_range`` for an entry the log does not have.
    """
    active = battle.active_entries()
    if index is None:
        if not active:
            return []
        index = active[-1]
    index = whole(index, "entry", 0, max(0, battle.version - 1))
    if not battle.log:
        raise BattleError("out_of_range", "entry", "the log is empty", max=0)
    return entry_working(before_entry(battle, index), battle.log[index].events)


def entry_working(before: Battle, events: Sequence[Event]) -> list[Step]:
    """The working of an entry's ``events`` from the state ``before`` it (a followed battle's
    newest entry is worked out from the state it already holds, without a replay)."""
    state = before
    steps: list[Step] = []
    for event in events:
        steps.extend(_EXPLAIN.get(event["type"], _nothing)(state, event))
        state = fold(state, [event])
    return steps


def casualty_working(battle: Battle) -> dict[str, list[Step]]:
    """Each unit's casualties worked out: the share lost, then killed, wounded, fit.

    >>> from background_battle import new_battle, apply
    >>> b = new_battle("x")
    >>> for c in ({"type": "add_unit", "name": "Dwarves", "side": "allies", "fighters": 10,
    ...            "strength": 30}, {"type": "add_unit", "name": "Orcs", "side": "enemies",
    ...            "fighters": 12, "strength": 26}, {"type": "start"},
    ...           {"type": "set_strength", "side": "allies", "strength": 18}):
    ...     b, _ = apply(b, c)
    >>> [s["text"] for s in casualty_working(b)["u1"]]
    ['(30 - 18) / 30 = 2/5', '10 × 2/5 / 2 = 2', 'min(2 × 2, 10 - 2) = 4', '10 - 2 - 4 = 4']
    """
    result: dict[str, list[Step]] = {}
    for unit in battle.units:
        state = battle.side(unit.side)
        if state.initial is None or state.strength is None or state.initial < 1:
            continue
        share = lost_share(state.initial, state.strength)
        steps = [step("lost_share", lost_share_working(state.initial, state.strength), unit.side)]
        result[unit.id] = steps + casualty_steps(unit.in_battle, share)
    return result


def _nothing(state: Battle, event: Event) -> list[Step]:
    return []


def _started(state: Battle, event: Event) -> list[Step]:
    steps = []
    for side in SIDES:
        modifiers = state.side(side).modifiers
        units = [unit.strength for unit in state.units_of(side)]
        percent, flat = sum(m.percent for m in modifiers), sum(m.flat for m in modifiers)
        text = initial_strength_working(units, percent, flat, event["initial"][side])
        steps.append(step("initial_strength", text, side))
    return steps


def _leader(state: Battle, event: Event) -> list[Step]:
    side = event["side"]
    steps = []
    if "leadership" in event:
        steps.append(step("sl", sl_working(event["leadership"], event["roll"], event["sl"]), side))
    if event["success"]:
        strength = state.strength(side)
        steps.append(step("leader_bonus", leader_bonus_working(strength, event["sl"]), side))
        steps.append(step("strength_for_next_test", sum_working(strength, event["bonus"]), side))
    return steps


def _round(state: Battle, event: Event) -> list[Step]:
    steps = []
    for side in SIDES:
        bonus = state.side(side).pending_bonus
        if bonus:
            steps.append(step("target", sum_working(state.strength(side), bonus), side))
    if "rolls" in event:
        for side in SIDES:
            target, roll = event["targets"][side], event["rolls"][side]
            steps.append(step("sl", sl_working(target, roll, event["sl"][side]), side))
        winner = event["winner"]
        first, second = (winner, other_side(winner)) if winner else SIDES
        # a round saved before events said why is decided again from its rolls, the same way
        reason = event.get("decided_by") or decided_by(
            *(wfrp_test(event["targets"][s], event["rolls"][s]) for s in SIDES)
        )
        sls = tuple(signed_sl(event["sl"][s], event["success"][s]) for s in (first, second))
        targets = (event["targets"][first], event["targets"][second])
        working = decided_working(reason, (sls[0], sls[1]), targets)
        if winner is None:
            steps.append(step("tie", working))
        else:
            loser = other_side(winner)
            steps.append(step(f"won_by_{reason}", working, winner))
            sl, loss = event["sl"], event["lost"][loser]
            steps.append(step("opposed_loss", loss_working(sl[winner], sl[loser], loss), loser))
    for side in SIDES:
        lost = event["lost"][side]
        if lost:
            text = difference(state.strength(side), lost, event["strength"][side])
            steps.append(step("strength_after", text, side))
    return steps


def _near(value: Fraction) -> str:
    """A share as the table reads it: exact when short ("2.5", "3"), else to two places.

    >>> _near(Fraction(5, 2)), _near(Fraction(1525, 676)), _near(Fraction(6))
    ('2.5', '2.26', '6')
    """
    exact = number(value)
    return exact if "/" not in exact else f"{float(value):.2f}"


def _detached(state: Battle, event: Event) -> list[Step]:
    """The fighters' cost in whole and short numbers, never a long fraction.

    >>> from background_battle import new_battle, apply
    >>> b = new_battle("x")
    >>> for c in ({"type": "add_unit", "name": "Ogres", "side": "allies", "fighters": 3,
    ...            "strength": 25}, {"type": "add_unit", "name": "Orcs", "side": "enemies",
    ...            "fighters": 12, "strength": 26}, {"type": "start"},
    ...           {"type": "detach_fighters", "unit": "u1", "fighters": 1}):
    ...     b, _ = apply(b, c)
    >>> explain_entry(b)[0]["text"]
    '1 × 8.33 ≈ 8.33 → 8'
    """
    side, fighters = event["side"], event["fighters"]
    each = fighter_cost(state, event["unit"])
    cost = fighters * each
    exact = "/" not in number(each) and "/" not in number(cost)
    worked = rounded(cost) if exact else f"≈ {_near(cost)} → {round_half_down(cost)}"
    return [
        step("fighter_cost", f"{fighters} × {_near(each)} {worked}", side),
        step(
            "strength_after",
            difference(state.strength(side), event["strength_cost"], event["strength"]),
            side,
        ),
    ]


def _pcs_won(state: Battle, event: Event) -> list[Step]:
    fleeing = Fraction(event["fleeing"])
    enemies, fighting = event["enemy_strength"], event["fighting_strength"]
    allies = state.strength("allies")
    return [
        step(
            "still_fighting",
            f"{enemies} × (1 - {fleeing}) {rounded(enemies * (1 - fleeing))}",
            "enemies",
        ),
        step("last_blow", f"{fighting} / 2 {rounded(Fraction(fighting, 2))}", "enemies"),
        step(
            "strength_after",
            difference(allies, event["damage"], event["allies_strength"]),
            "allies",
        ),
    ]


def _influence(state: Battle, event: Event) -> list[Step]:
    side = event["side"]
    own, other = state.strength(side), state.strength(other_side(side))
    over = event["phase"] == "ended"
    return [
        step("influence_modifier", influence_modifier_working(own, other, over), side),
        step("influence_total", sum_working(event["roll"], event["modifier"]), side),
    ]


def _ended(state: Battle, event: Event) -> list[Step]:
    """Both strengths at the end, compared only where the comparison is what decided the winner.

    The PCs' victory (or the GM's word) decides the winner whatever the strengths: then they are
    only listed, never put as "9 < 19" under the allies' win.

    >>> s = Battle(name="x", created_as="x")
    >>> _ended(s, {"type": "battle_ended", "winner": "allies", "reason": "pcs_won"})[0]["text"]
    '0 · 0'
    """
    allies, enemies = state.strength("allies"), state.strength("enemies")
    sign = "=" if allies == enemies else (">" if allies > enemies else "<")
    stronger = {"=": None, ">": "allies", "<": "enemies"}[sign]
    if event.get("reason") == "pcs_won" or event.get("winner") != stronger:
        sign = "·"
    return [step("strengths_at_end", f"{allies} {sign} {enemies}")]


_EXPLAIN: dict[str, Callable[[Battle, Event], list[Step]]] = {
    "battle_started": _started,
    "leader_commanded": _leader,
    "round_resolved": _round,
    "fighters_detached": _detached,
    "pcs_won": _pcs_won,
    "influence_rolled": _influence,
    "battle_ended": _ended,
}
