"""``background-battle demo``: a seeded battle of dwarves against orcs, told round by round."""

from __future__ import annotations

import random
from typing import Any

from .battle import Battle, new_battle
from .log import apply
from .tables import fates_table
from .validate import SIDES
from .view import state_view

ARMY = [
    {"type": "add_unit", "name": "Ironbreakers", "side": "allies", "fighters": 10, "strength": 30},
    {"type": "add_unit", "name": "Rangers", "side": "allies", "fighters": 6, "rating": 2},
    {"type": "add_unit", "name": "Orc Boyz", "side": "enemies", "fighters": 12, "strength": 26},
    {
        "type": "add_unit",
        "name": "Goblin archers",
        "side": "enemies",
        "fighters": 16,
        "rating": 3,
        "size": "small",
    },
    {
        "type": "set_modifiers",
        "side": "allies",
        "modifiers": [{"name": "Holding the gate", "percent": 10}],
    },
    {"type": "start"},
]
NAMES = {"allies": "The dwarves", "enemies": "The greenskins"}
LEADERS = {  # round -> (side, leadership, what they shout)
    2: ("enemies", 45, "The orc boss bellows «WAAAGH!»"),
    4: ("allies", 55, "Thane Grimbold raises his hammer: «Khazukan Kazakit-ha!»"),
}
PCS_WIN_AFTER = 6


def play(seed: int = 7) -> str:
    """The whole story of one seeded battle, as text.

    >>> "Casualties" in play(7)
    True
    """
    rng = random.Random(seed)
    battle = new_battle("The Battle at the Gate of Karak Hirn")
    for command in ARMY:
        battle, _ = apply(battle, command, rng)
    out = [f"=== {battle.name} — фоновый бой (seed {seed}) ===", ""]
    out += _muster(battle)
    while battle.status == "fighting":
        number = battle.round + 1
        if number in LEADERS:
            side, leadership, shout = LEADERS[number]
            battle, events = apply(
                battle, {"type": "leader_command", "side": side, "leadership": leadership}, rng
            )
            out += _leader(shout, events[0])
        battle, events = apply(battle, {"type": "resolve_round", "mode": "auto"}, rng)
        out += _round(events[0])
        if battle.status == "fighting" and battle.round >= PCS_WIN_AFTER:
            out += ["", "Meanwhile the heroes cut down the orc boss! Half the greenskins flee."]
            battle, events = apply(battle, {"type": "pcs_won", "fleeing": "1/2"}, rng)
            won = events[0]
            out.append(
                f"  The {won['fighting_strength']} strength still fighting deal "
                f"{won['damage']} damage: the dwarves hold at {won['allies_strength']}."
            )
    out += _ending(battle)
    if battle.winner is not None:
        battle, events = apply(battle, {"type": "roll_influence", "side": battle.winner}, rng)
        out += _influence(events[0])
    out += _casualties(battle)
    return "\n".join(out) + "\n"


def _muster(battle: Battle) -> list[str]:
    view = state_view(battle)
    lines = []
    for side in SIDES:
        units = ", ".join(
            f"{u['name']} ({u['fighters']} fighters, strength {u['strength']})"
            for u in view["units"]
            if u["side"] == side
        )
        info = view["sides"][side]
        lines.append(f"{NAMES[side]}: {units} — S0 {info['initial']}")
    return [*lines, ""]


def _leader(shout: str, event: dict[str, Any]) -> list[str]:
    test = f"Leadership {event['leadership']}, roll {event['roll']:02d}"
    if event["success"]:
        result = f"SL {signed_sl(event['sl'], True)}: +{event['bonus']} for the next test"
    else:
        result = "failed — the troops do not hear it"
    return [f"  {shout} ({test}: {result})"]


def _round(event: dict[str, Any]) -> list[str]:
    lines = [f"Round {event['round']}"]
    for side in SIDES:
        success = event["success"][side]
        lines.append(
            f"  {NAMES[side]:15} roll {event['rolls'][side]:3} vs {event['targets'][side]:3}: "
            f"{'success' if success else 'failure'}, SL {signed_sl(event['sl'][side], success)}"
        )
    winner = event["winner"]
    if winner is None:
        lines.append("  Neither side gives ground.")
    else:
        loser = "enemies" if winner == "allies" else "allies"
        lines.append(
            f"  {NAMES[winner]} push on: {NAMES[loser].lower()} lose {event['lost'][loser]} "
            f"strength."
        )
    lines.append("  " + "   ".join(f"{s} {event['strength'][s]}" for s in SIDES))
    return lines


def signed_sl(sl: int, success: bool) -> str:
    """SL as WFRP writes it: ``+0`` is a success, ``−0`` a failure.

    >>> signed_sl(0, True), signed_sl(0, False), signed_sl(-4, False), signed_sl(3, True)
    ('+0', '−0', '−4', '+3')
    """
    return f"{'+' if success else '−'}{abs(sl)}"


def _ending(battle: Battle) -> list[str]:
    reason = {
        "strength_zero": "one side is broken (strength 0)",
        "pcs_won": "the heroes won their own fight",
        "declared": "the GM declared it over",
    }[battle.end_reason or "declared"]
    winner = NAMES[battle.winner] if battle.winner else "Nobody"
    return [
        "",
        f"The battle is over after {battle.round} rounds: {reason}. {winner} carry the day.",
    ]


def _influence(event: dict[str, Any]) -> list[str]:
    return [
        f"Influence (влияние): d100 {event['roll']} + {event['modifier']} = {event['total']}: "
        f"{event['band']['effect']['en']}"
    ]


def _casualties(battle: Battle) -> list[str]:
    units = [
        {"name": u["name"], "fighters": u["casualties"]["fighters"], **u["casualties"]}
        for u in state_view(battle)["units"]
        if u["casualties"] is not None
    ]
    return ["", fates_table("Casualties (потери)", units)]
