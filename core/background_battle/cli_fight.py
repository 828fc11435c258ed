"""The command line's fight calculators: one round, the Leadership test, moving fighters.

Each builds a small battle and applies real commands to it: the core decides, nothing here
recomputes a rule.

>>> one_round(60, 50, rolls={"allies": 12, "enemies": 77})["lost"]
{'allies': 0, 'enemies': 7}
>>> [move["strength_cost"] for move in moves(10, 25, [1, 1])["moves"]]
[2, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .battle import Battle
from .errors import BattleError
from .log import apply
from .serialize import from_json
from .validate import SIDES

if TYPE_CHECKING:
    import argparse

OPPONENT = 1  # the other side's strength where a calculator needs only one side


def skirmish(allies: int, enemies: int, allied_fighters: int = 1) -> Battle:
    """A started battle of one allied unit against one enemy unit (a hand-written set-up)."""
    units = [
        {"name": "allies", "side": "allies", "fighters": allied_fighters, "strength": allies},
        {"name": "enemies", "side": "enemies", "fighters": 1, "strength": enemies},
    ]
    return from_json({"name": "calculator", "units": units, "started": True})


def one_round(
    allies: int,
    enemies: int,
    rolls: dict[str, int] | None = None,
    lost: dict[str, int] | None = None,
) -> dict[str, Any]:
    """One opposed test from the rolls typed in, or the strength each side lost typed in."""
    command: dict[str, Any] = {"type": "resolve_round"}
    if lost is not None:
        command.update(mode="lost", lost=lost)
    else:
        command.update(mode="rolls", rolls=rolls)
    _, events = apply(skirmish(allies, enemies), command)
    # the strengths before the round are the ones typed in
    result = {
        k: v for k, v in events[0].items() if k not in ("type", "round", "mode", "strength_before")
    }
    ended = [e for e in events if e["type"] == "battle_ended"]
    result["battle_ended"] = {"winner": ended[0]["winner"]} if ended else None
    return result


def leadership(strength: int, target: int, roll: int) -> dict[str, Any]:
    """A Leadership test rolled against ``target``; a success gives the leader's bonus."""
    _, events = apply(
        skirmish(strength, OPPONENT),
        {"type": "leader_command", "side": "allies", "leadership": target, "roll": roll},
    )
    keys = ("roll", "success", "sl", "bonus", "strength_for_next_test")
    return {key: events[0][key] for key in keys}


def moves(fighters: int, strength: int, steps: Sequence[int]) -> dict[str, Any]:
    """Move fighters of one unit into the PCs' fight, one step after another.

    Raises:
        BattleError: with field ``move`` when a step moves more fighters than are left.
    """
    battle = skirmish(strength, OPPONENT, fighters)
    done = []
    for index, step in enumerate(steps):
        try:
            battle, events = apply(
                battle, {"type": "detach_fighters", "unit": "u1", "fighters": step}
            )
        except BattleError as error:
            if error.field != "fighters":
                raise
            raise BattleError(
                error.code, "move", f"move {index + 1}: {error.message}", **error.params
            ) from None
        keys = ("fighters", "strength_cost", "initial", "strength")
        done.append({key: events[0][key] for key in keys})
    return {"moves": done}


def round_of(args: argparse.Namespace) -> dict[str, Any]:
    """``round``: both rolls (``--allies-roll``, ``--enemies-roll``) or both losses."""
    rolls: dict[str, int] = {s: getattr(args, f"{s}_roll") for s in SIDES}
    lost: dict[str, int] = {s: getattr(args, f"{s}_lost") for s in SIDES}
    typed = [v for v in (*rolls.values(), *lost.values()) if v is not None]
    if None not in lost.values() and len(typed) == 2:
        return one_round(args.allies, args.enemies, lost=lost)
    if None not in rolls.values() and len(typed) == 2:
        return one_round(args.allies, args.enemies, rolls=rolls)
    raise BattleError(
        "required",
        "rolls",
        "give both rolls (--allies-roll, --enemies-roll) or both losses "
        "(--allies-lost, --enemies-lost)",
    )


def leadership_of(args: argparse.Namespace) -> dict[str, Any]:
    """``leader-bonus --leadership L --roll R``: the test rolled, then the bonus."""
    if args.roll is None:
        raise BattleError("required", "roll", "roll is required with --leadership", min=1, max=100)
    return leadership(args.strength, args.leadership, args.roll)


def round_text(reply: dict[str, Any]) -> str:
    """One round in a few lines."""
    lines = []
    if "sl" in reply:
        for s in SIDES:
            verdict = "success" if reply["success"][s] else "failure"
            lines.append(
                f"{s}: d100 {reply['rolls'][s]} against {reply['targets'][s]}: "
                f"SL {reply['sl'][s]:+d} ({verdict})"
            )
    winner = reply["winner"] or "nobody"
    lines.append(
        f"winner: {winner}; lost {_pair(reply['lost'])}; strength {_pair(reply['strength'])}"
    )
    if reply["battle_ended"] is not None:
        lines.append(
            f"the background battle ends; winner: {reply['battle_ended']['winner'] or 'nobody'}"
        )
    return "\n".join(lines) + "\n"


def leadership_text(reply: dict[str, Any]) -> str:
    """The Leadership test and its bonus in one line."""
    verdict = "passed" if reply["success"] else "failed"
    return (
        f"Leadership test (проверка командования): d100 {reply['roll']}, SL {reply['sl']:+d}, "
        f"{verdict}: +{reply['bonus']} strength; next opposed test at "
        f"{reply['strength_for_next_test']}\n"
    )


def moves_text(reply: dict[str, Any]) -> str:
    """One line per move into the PCs' fight."""
    return "".join(
        f"moved {m['fighters']}: cost {m['strength_cost']} strength; "
        f"S0 now {m['initial']}, strength now {m['strength']}\n"
        for m in reply["moves"]
    )


def _pair(values: dict[str, int]) -> str:
    return f"allies {values['allies']}, enemies {values['enemies']}"
