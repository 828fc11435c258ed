"""The calculator command line, ``background-battle`` (also ``python -m background_battle``).

Bad input: exit status 2, a message on stderr naming the option at fault, nothing on stdout.
Numbers are read exactly (``1e3`` is 1000, never a binary float); every strength-like option
is bounded like a unit's strength in the core (``MAX_STRENGTH``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from . import api, cli_fight
from .demo import play
from .errors import BattleError
from .tables import casualty_table, last_stand_text, leader_bonus_text, odds_table
from .units import MAX_FIGHTERS, MAX_RATING, MAX_STRENGTH
from .validate import whole

if TYPE_CHECKING:  # argparse is imported when the command line runs: the page imports this
    import argparse  # module (every core module is checked there) and ships no argparse

MAX_DIGITS = 100  # a number typed with more digits than this is refused before it is expanded
STRENGTH_OPTIONS = (
    "initial",
    "remaining",
    "strength",
    "enemy_strength",
    "allies_strength",
    "allies",
    "enemies",
)

BOUNDS = {
    **{field: (0, MAX_STRENGTH) for field in STRENGTH_OPTIONS},
    "fighters": (1, MAX_FIGHTERS),
    "rating": (0, MAX_RATING),
}
# Subcommand -> the core's op, and each request field -> the option (argparse attribute) it takes.
REQUESTS = {
    "casualties": ("casualties", {"initial": "initial", "remaining": "remaining", "units": "unit"}),
    "leader-bonus": ("leader_bonus", {"strength": "strength", "sl": "sl"}),
    "unit-strength": (
        "unit_strength",
        {"fighters": "fighters", "rating": "rating", "size": "size"},
    ),
    "last-stand": (
        "last_stand",
        {
            "enemy_strength": "enemy_strength",
            "fleeing": "fleeing",
            "allies_strength": "allies_strength",
        },
    ),
}

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
    "allies": "--allies",
    "enemies": "--enemies",
    "rolls.allies": "--allies-roll",
    "rolls.enemies": "--enemies-roll",
    "lost.allies": "--allies-lost",
    "lost.enemies": "--enemies-lost",
    "leadership": "--leadership",
    "roll": "--roll",
    "fighters": "--fighters",
    "rating": "--rating",
    "size": "--size",
    "move": "--move",
    "rolls": "--allies-roll and --enemies-roll",
}


def _bad_value(message: str) -> Exception:
    """argparse's error for a value an option cannot take (exit status 2, the option named)."""
    import argparse

    return argparse.ArgumentTypeError(message)


def number(value: str) -> int | str:
    """A whole number read exactly (``1e3`` is 1000); anything else is passed on as typed, for
    the core to refuse with the accepted range.

    >>> number("1e23"), number(" 26 "), number("2.5"), number("0x1A")
    (100000000000000000000000, 26, '2.5', '0x1A')

    Raises:
        argparse.ArgumentTypeError: for an empty value or one of more than 100 digits.
    """
    typed = value.strip()
    if not typed:
        raise _bad_value("expected a number, not an empty value")
    try:
        exact = Decimal(typed)
    except InvalidOperation:
        return value
    if not exact.is_finite() or exact != exact.to_integral_value():
        return value
    if exact.adjusted() >= MAX_DIGITS:
        raise _bad_value(f"{value!r} has more than {MAX_DIGITS} digits")
    return int(exact)


def share_text(value: str) -> str:
    """A share as typed (``0.5``, ``0,5``, ``1/2``, ``50%``), read by the core; never empty."""
    if not value.strip():
        raise _bad_value("expected a share from 0 to 1, like 1/2, 0.5, 0,5 or 50%, not ''")
    return value


def unit(value: str) -> dict[str, Any]:
    """``NAME=FIGHTERS`` (the name may itself hold ``=``; the last one splits)."""
    name, sep, fighters = value.rpartition("=")
    if not sep or not name.strip():
        raise _bad_value(f"expected NAME=FIGHTERS, like Dwarves=10, not {value!r}")
    return {"name": name.strip(), "fighters": number(fighters.strip())}


EXAMPLES = """examples:
  background-battle casualties --initial 100 --remaining 40 --unit Dwarves=10
  background-battle leader-bonus --strength 26 --sl 7
  background-battle round --allies 60 --enemies 50 --allies-roll 12 \\
      --enemies-roll 77
  background-battle odds battle.json --runs 10000 --seed 1
each command has --help; --json gives machine-readable output"""
JSON_HELP = "print the result as JSON (a contract other tools rely on); default: text"


def one_message(text: str) -> str:
    """A message for an 80-column terminal: wrapped between words, its continuation lines
    indented, a value longer than a line (a path) kept whole on a line of its own.

    >>> print(one_message("background-battle round: error: --allies-roll: " + "x " * 30), end="")
    background-battle round: error: --allies-roll: x x x x x x x x x x x x x x x x x
      x x x x x x x x x x x x x
    """
    import textwrap

    lines = textwrap.wrap(
        text, 80, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )
    return "\n".join(lines) + "\n"


def one_line_parser() -> type[argparse.ArgumentParser]:
    """argparse, but a mistake is one message on stderr (exit status 2) naming `--help`,
    without the usage block, within 80 columns; help laid out in at most 80 columns."""
    import argparse
    import shutil

    def formatter(prog: str) -> argparse.HelpFormatter:
        width = min(80, shutil.get_terminal_size((80, 24)).columns)
        return argparse.RawDescriptionHelpFormatter(prog, width=width, max_help_position=30)

    class OneLineParser(argparse.ArgumentParser):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("formatter_class", formatter)
            super().__init__(*args, **kwargs)

        def error(self, message: str) -> NoReturn:
            self.exit(2, one_message(f"{self.prog}: {message} (--help lists the options)"))

    return OneLineParser


def build_parser() -> argparse.ArgumentParser:
    """The command line's options; its output is a contract other tools rely on.

    A usage error prints one line and exits with status 2, nothing on stdout.
    """
    parser = one_line_parser()(
        prog="background-battle",
        description="Background battle (фоновый бой) calculator for WFRP 4e.",
        epilog=EXAMPLES,
    )
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", title="commands"
    )

    cas = commands.add_parser("casualties", help="killed / wounded / fit per unit of one side")
    _number(cas, "--initial", "S0", "the side's initial strength S0, after all modifiers", True)
    _number(cas, "--remaining", "S", "the side's strength left at the end", True)
    cas.add_argument(
        "--unit",
        type=unit,
        action="append",
        required=True,
        metavar="NAME=FIGHTERS",
        help="a unit and its fighters, e.g. Dwarves=10; once per unit (required)",
    )

    lead = commands.add_parser("leader-bonus", help="the leader's command bonus")
    _number(lead, "--strength", "S", "the side's strength", True)
    test = lead.add_mutually_exclusive_group(required=True)
    _number(test, "--sl", "SL", "SL of the passed Leadership test (or --leadership)")
    _number(
        test, "--leadership", "L", "the leader's Leadership, with --roll: the test is made here"
    )
    _number(lead, "--roll", "D100", "the d100 rolled for the Leadership test (with --leadership)")

    last = commands.add_parser("last-stand", help="PCs won: damage of the enemies still fighting")
    _number(last, "--enemy-strength", "S", "the enemies' strength when the PCs won", True)
    last.add_argument(
        "--fleeing",
        type=share_text,
        default="0",
        metavar="SHARE",
        help="the share of them that flees, 0.5 or 1/2 (default 0)",
    )
    shown = "the allies' strength, to show it after the damage (default: not shown)"
    _number(last, "--allies-strength", "S", shown)

    rnd = commands.add_parser("round", help="one round (opposed test) from rolls or losses")
    _number(rnd, "--allies", "S", "the allies' strength", True)
    _number(rnd, "--enemies", "S", "the enemies' strength", True)
    for side in ("allies", "enemies"):
        _number(rnd, f"--{side}-roll", "D100", f"the {side}' d100 (both rolls, or both losses)")
        _number(rnd, f"--{side}-lost", "N", f"strength the {side} lost, typed in instead of rolls")

    rate = commands.add_parser("unit-strength", help="a unit's strength: fighters x rating x size")
    _number(rate, "--fighters", "N", "the unit's fighters", True)
    _number(rate, "--rating", "R", "strength per fighter", True)
    rate.add_argument(
        "--size",
        default="average",
        help="tiny, little, small, average, large, enormous or monstrous (default average)",
    )

    move = commands.add_parser("move-fighters", help="fighters moved into the PCs' fight")
    _number(move, "--fighters", "N", "the unit's fighters", True)
    _number(move, "--strength", "S0", "the unit's strength S0", True)
    moved = "fighters moved at once; once per move, in order"
    move.add_argument(
        "--move",
        type=number,
        action="append",
        required=True,
        metavar="K",
        help=f"{moved} (required)",
    )

    odd = commands.add_parser("odds", help="chances from a battle file, by simulation")
    odd.add_argument(
        "battle",
        metavar="BATTLE.json",
        help="a battle saved by the tool, or a hand-written set-up (README)",
    )
    _number(odd, "--runs", "N", "battles simulated (default 10000)", default=10_000)
    _number(odd, "--seed", "N", "the random seed, for the same odds again (default: a new one)")
    for command in (cas, lead, last, rnd, rate, move, odd):
        command.add_argument("--json", action="store_true", help=JSON_HELP)

    demo = commands.add_parser("demo", help="play a seeded example battle in the terminal")
    _number(demo, "--seed", "N", "the random seed of the example (default 7)", default=7)
    return parser


def _number(
    parser: Any, flag: str, metavar: str, help: str, required: bool = False, default: Any = None
) -> None:
    """A number option (read exactly, `number`); a required one says so in its help."""
    parser.add_argument(
        flag,
        type=number,
        required=required,
        default=default,
        metavar=metavar,
        help=f"{help} (required)" if required else help,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; 0 on success, 2 on bad input."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        output = run(args)
    except BattleError as error:
        option = _option(error.field)
        parser.exit(
            2, one_message(f"{parser.prog} {args.command}: error: {option}: {error.message}")
        )
    sys.stdout.write(output)
    return 0


def run(args: argparse.Namespace) -> str:
    """The text a subcommand prints."""
    if args.command == "demo":
        return play(_seed(args.seed))
    _bound_strengths(args)
    reply, text = _calculate(args)
    return json.dumps(reply, ensure_ascii=False) + "\n" if args.json else text(reply)


def _calculate(args: argparse.Namespace) -> tuple[dict[str, Any], Callable[[Any], str]]:
    """The subcommand's reply from the core, and how to print it as text."""
    if args.command == "round":
        return cli_fight.round_of(args), cli_fight.round_text
    if args.command == "move-fighters":
        return cli_fight.moves(args.fighters, args.strength, args.move), cli_fight.moves_text
    if args.command == "leader-bonus" and args.sl is None:
        return cli_fight.leadership_of(args), cli_fight.leadership_text
    reply = _reply(_request(args))
    if args.command == "casualties":
        return reply, partial(casualty_table, args.initial, args.remaining)
    if args.command == "leader-bonus":
        return reply, partial(leader_bonus_text, args.strength, args.sl)
    if args.command == "last-stand":
        return reply, partial(last_stand_text, args.enemy_strength)
    if args.command == "unit-strength":
        return reply, lambda r: f"Unit strength (ОС отряда): {r['strength']}\n"
    return reply, odds_table


def _reply(request: dict[str, Any]) -> dict[str, Any]:
    reply = api.handle(request)
    if not reply.pop("ok"):
        error = reply["error"]
        raise BattleError(error["code"], error["field"], error["message"], **error["params"])
    return reply


def _bound_strengths(args: argparse.Namespace) -> None:
    """Every bounded option within the core's bound (a strength 0 to MAX_STRENGTH, ...)."""
    for field, (low, high) in BOUNDS.items():
        value = getattr(args, field, None)
        if value is not None:
            setattr(args, field, whole(value, field, low, high))


def _request(args: argparse.Namespace) -> dict[str, Any]:
    """The core's request for a subcommand that one request answers."""
    if args.command == "odds":
        battle = _battle_file(args.battle)
        return {"op": "odds", "battle": battle, "runs": args.runs, "seed": args.seed}
    op, fields = REQUESTS[args.command]
    return {"op": op, **{key: getattr(args, attribute) for key, attribute in fields.items()}}


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
    if field in OPTION_OF_FIELD:
        return OPTION_OF_FIELD[field]
    head = field.split(".")[0].split("[")[0]
    if head == "battle":
        return "BATTLE.json" + (f" ({field})" if field != "battle" else "")
    return OPTION_OF_FIELD.get(head, field)
