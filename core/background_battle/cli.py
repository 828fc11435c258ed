"""The calculator command line, ``background-battle`` (also ``python -m background_battle``).

Bad input: exit status 2, a message on stderr naming the option at fault, nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import api
from .demo import play
from .errors import BattleError
from .tables import casualty_table, last_stand_text, leader_bonus_text, odds_table

OPTION_OF_FIELD = {
    "initial": "--initial",
    "remaining": "--remaining",
    "units": "--unit",
    "strength": "--strength",
    "sl": "--sl",
    "enemy_strength": "--enemy-strength",
    "fleeing": "--fleeing",
    "allies_strength": "--allies-strength",
    "runs": "--runs",
    "seed": "--seed",
}


class Parser(argparse.ArgumentParser):
    """argparse, with every usage error as exit status 2 and nothing on stdout."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def number(value: str) -> int | float | str:
    """Pass numbers on as typed (the core checks them and names the accepted range)."""
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def unit(value: str) -> dict[str, Any]:
    """``NAME=FIGHTERS`` (the name may itself hold ``=``; the last one splits)."""
    name, sep, fighters = value.rpartition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=FIGHTERS, like Dwarves=10, not {value!r}")
    return {"name": name.strip(), "fighters": number(fighters.strip())}


def build_parser() -> Parser:
    """The command line's options; its output is a contract other tools rely on."""
    parser = Parser(
        prog="background-battle",
        description="Background battle (фоновый бой) calculator for WFRP 4e.",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    cas = commands.add_parser("casualties", help="killed / wounded / fit per unit of one side")
    cas.add_argument("--initial", type=number, required=True, help="S0, after all modifiers")
    cas.add_argument("--remaining", type=number, required=True, help="strength left at the end")
    cas.add_argument("--unit", type=unit, action="append", required=True, metavar="NAME=FIGHTERS")
    cas.add_argument("--json", action="store_true")

    lead = commands.add_parser("leader-bonus", help="the leader's command bonus")
    lead.add_argument("--strength", type=number, required=True, help="the side's strength")
    lead.add_argument("--sl", type=number, required=True, help="SL of the passed Leadership test")
    lead.add_argument("--json", action="store_true")

    last = commands.add_parser("last-stand", help="PCs won: damage of the enemies still fighting")
    last.add_argument("--enemy-strength", type=number, required=True)
    last.add_argument("--fleeing", default="0", help="share of enemies fleeing: 0.5 or 1/2")
    last.add_argument("--allies-strength", type=number)
    last.add_argument("--json", action="store_true")

    odd = commands.add_parser("odds", help="chances from a battle file, by simulation")
    odd.add_argument("battle", metavar="BATTLE.json")
    odd.add_argument("--runs", type=number, default=10_000)
    odd.add_argument("--seed", type=number)
    odd.add_argument("--json", action="store_true")

    demo = commands.add_parser("demo", help="play a seeded example battle in the terminal")
    demo.add_argument("--seed", type=number, default=7)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; 0 on success, 2 on bad input."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        output = run(args)
    except BattleError as error:
        option = _option(error.field)
        parser.exit(2, f"{parser.prog} {args.command}: error: {option}: {error.message}\n")
    sys.stdout.write(output)
    return 0


def run(args: argparse.Namespace) -> str:
    """The text a subcommand prints."""
    if args.command == "demo":
        return play(_seed(args.seed))
    request = _request(args)
    reply = api.handle(request)
    if not reply.pop("ok"):
        error = reply["error"]
        raise BattleError(error["code"], error["field"], error["message"], **error["params"])
    if args.json:
        return json.dumps(reply, ensure_ascii=False) + "\n"
    if args.command == "casualties":
        return casualty_table(request["initial"], request["remaining"], reply)
    if args.command == "leader-bonus":
        return leader_bonus_text(request["strength"], request["sl"], reply)
    if args.command == "last-stand":
        return last_stand_text(request["enemy_strength"], reply)
    return odds_table(reply)


def _request(args: argparse.Namespace) -> dict[str, Any]:
    if args.command == "casualties":
        return {
            "op": "casualties",
            "initial": args.initial,
            "remaining": args.remaining,
            "units": args.unit,
        }
    if args.command == "leader-bonus":
        return {"op": "leader_bonus", "strength": args.strength, "sl": args.sl}
    if args.command == "last-stand":
        return {
            "op": "last_stand",
            "enemy_strength": args.enemy_strength,
            "fleeing": args.fleeing,
            "allies_strength": args.allies_strength,
        }
    return {"op": "odds", "battle": _battle_file(args.battle), "runs": args.runs, "seed": args.seed}


def _battle_file(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise BattleError("bad_battle", "battle", f"cannot read {path}: {error.strerror}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise BattleError("bad_battle", "battle", f"{path} is not JSON: {error}") from None


def _seed(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BattleError(
            "not_integer", "seed", f"seed must be a whole number of at least 0, not {value!r}"
        )
    return value


def _option(field: str | None) -> str:
    if field is None:
        return "input"
    head = field.split(".")[0].split("[")[0]
    if head == "battle":
        return "BATTLE.json" + (f" ({field})" if field != "battle" else "")
    return OPTION_OF_FIELD.get(head, field)
