"""The calculator's help helps: every option described (its default where it has one), examples,
at most 80 columns; a mistake is one message on stderr, within 80 columns, without argparse's
usage block."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from background_battle.cli import build_parser, main


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def test_every_option_of_every_command_is_described() -> None:
    for name, sub in subcommands(build_parser()).items():
        for action in sub._actions:
            assert action.help, f"{name} {action.option_strings or action.dest}"
            if action.default not in (None, False, argparse.SUPPRESS) and action.dest != "help":
                assert "default" in action.help, f"{name} {action.option_strings}"


def test_the_help_fits_80_columns_and_shows_examples(capsys: Any) -> None:
    parser = build_parser()
    texts = [parser.format_help()]
    texts += [sub.format_help() for sub in subcommands(parser).values()]
    assert all(len(line) <= 80 for text in texts for line in text.splitlines())
    assert "examples:" in texts[0] and "background-battle casualties --initial" in texts[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["casualties", "--bogus"],
        ["nonsense"],
        ["round", "--allies", "1"],
        [],
        ["round", "--allies", "10", "--enemies", "10", "--allies-roll", "500"],
        ["unit-strength", "--fighters", "5", "--rating", "2", "--size", "huge"],
    ],
)
def test_a_mistake_is_one_message_within_80_columns(capsys: Any, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "usage" not in err
    first, *rest = err.splitlines()
    assert not first.startswith(" ") and all(line.startswith("  ") for line in rest)
    assert all(len(line) <= 80 for line in err.splitlines()), err
    said = " ".join(err.split())
    assert said.endswith("(--help lists the options)") or ": error: " in first
