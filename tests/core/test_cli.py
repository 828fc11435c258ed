"""The command line's contract: subcommands, JSON shapes, and exit status 2 on bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from background_battle import to_json
from background_battle.cli import main
from background_battle.units import MAX_STRENGTH

from .builders import dwarves_and_orcs

CORE = Path(__file__).resolve().parents[2] / "core"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The exit status, stdout, and the message on stderr with its 80-column wrapping undone."""
    try:
        status = main(list(args))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, " ".join(err.split())


def test_casualties_json_lists_units_in_the_order_given(capsys: Any) -> None:
    status, out, _ = cli(
        capsys,
        "casualties",
        "--initial",
        "100",
        "--remaining",
        "40",
        "--unit",
        "First=10",
        "--unit",
        "Second=20",
        "--json",
    )
    assert status == 0
    assert json.loads(out) == {
        "lost_share": 0.6,
        "units": [
            {"name": "First", "fighters": 10, "killed": 3, "wounded": 6, "fit": 1},
            {"name": "Second", "fighters": 20, "killed": 6, "wounded": 12, "fit": 2},
        ],
    }


def test_casualties_table_is_readable(capsys: Any) -> None:
    status, out, _ = cli(
        capsys, "casualties", "--initial", "30", "--remaining", "18", "--unit", "Dwarves=10"
    )
    assert status == 0
    assert "Dwarves" in out and "40%" in out
    row = next(line for line in out.splitlines() if line.startswith("Dwarves"))
    assert row.split()[1:5] == ["10", "2", "4", "4"]


def test_leader_bonus_json(capsys: Any) -> None:
    status, out, _ = cli(capsys, "leader-bonus", "--strength", "26", "--sl", "7", "--json")
    assert (status, json.loads(out)) == (0, {"bonus": 6, "strength_for_next_test": 32})


@pytest.mark.parametrize("fleeing", ["0.5", "1/2", "0,5", "50%", "50 %"])
def test_last_stand_json_with_allies(capsys: Any, fleeing: str) -> None:
    status, out, _ = cli(
        capsys,
        "last-stand",
        "--enemy-strength",
        "26",
        "--fleeing",
        fleeing,
        "--allies-strength",
        "24",
        "--json",
    )
    assert (status, json.loads(out)) == (
        0,
        {"fighting_strength": 13, "damage": 6, "allies_strength_after": 18},
    )


def test_last_stand_without_allies_gives_two_fields(capsys: Any) -> None:
    _, out, _ = cli(capsys, "last-stand", "--enemy-strength", "26", "--json")
    assert json.loads(out) == {"fighting_strength": 26, "damage": 13}


def test_odds_from_a_battle_file(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(to_json(dwarves_and_orcs())))
    status, out, _ = cli(capsys, "odds", str(path), "--runs", "500", "--seed", "3", "--json")
    result = json.loads(out)
    assert status == 0 and result["runs"] == 500
    assert result["allies_win"] + result["enemies_win"] + result["unfinished"] == pytest.approx(1)
    _, text, _ = cli(capsys, "odds", str(path), "--runs", "500", "--seed", "3")
    assert "allies win" in text and "Dwarves" in text


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["casualties", "--initial", "0", "--remaining", "0", "--unit", "A=3"], "--initial"),
        (["casualties", "--initial", "30", "--remaining", "-1", "--unit", "A=3"], "--remaining"),
        (["casualties", "--initial", "30", "--remaining", "1", "--unit", "A=2.5"], "--unit"),
        (["casualties", "--initial", "30", "--remaining", "1", "--unit", "A"], "--unit"),
        (["leader-bonus", "--strength", "26", "--sl", "-1"], "--sl"),
        (["leader-bonus", "--strength", "x", "--sl", "1"], "--strength"),
        (["last-stand", "--enemy-strength", "26", "--fleeing", "3/2"], "--fleeing"),
        (["odds", "/nonexistent/battle.json"], "BATTLE.json"),
        (["odds", "--runs", "0", "/nonexistent.json"], "BATTLE.json"),
        (["casualties", "--remaining", "1", "--unit", "A=3"], "--initial"),
    ],
)
def test_bad_input_exits_2_naming_the_option_with_nothing_on_stdout(
    capsys: Any, args: list[str], option: str
) -> None:
    status, out, err = cli(capsys, *args)
    assert status == 2
    assert out == ""
    assert option in err


def test_bad_runs_name_the_runs_option(capsys: Any, tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(to_json(dwarves_and_orcs())))
    status, out, err = cli(capsys, "odds", str(path), "--runs", "0")
    assert (status, out) == (2, "")
    assert "--runs" in err and "1 to 100000" in err


def test_demo_tells_a_whole_battle(capsys: Any) -> None:
    status, out, _ = cli(capsys, "demo", "--seed", "7")
    assert status == 0
    assert "Round 1" in out and "Casualties" in out and "Influence" in out
    assert out == cli(capsys, "demo", "--seed", "7")[1]  # same seed, same story


def test_python_m_works_with_only_the_core_on_the_path(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(CORE), "PATH": os.environ.get("PATH", "")}
    done = subprocess.run(  # -S: no site-packages, only the standard library and core/
        [
            sys.executable,
            "-S",
            "-m",
            "background_battle",
            "leader-bonus",
            "--strength",
            "26",
            "--sl",
            "7",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"bonus": 6, "strength_for_next_test": 32}


def test_the_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "background-battle"
    done = subprocess.run(
        [str(script), "leader-bonus", "--strength", "60", "--sl", "5", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert json.loads(done.stdout)["bonus"] == 9


def test_e_notation_is_read_exactly(capsys: Any) -> None:
    status, out, _ = cli(capsys, "leader-bonus", "--strength", "1.5e1", "--sl", "4e0", "--json")
    assert (status, json.loads(out)) == (0, {"bonus": 4, "strength_for_next_test": 19})
    _, out, _ = cli(capsys, "leader-bonus", "--strength", "1e6", "--sl", "0", "--json")
    assert json.loads(out) == {"bonus": 100_001, "strength_for_next_test": 1_100_001}


def test_a_strength_beyond_the_cores_bound_exits_2_naming_it(capsys: Any) -> None:
    status, out, err = cli(capsys, "leader-bonus", "--strength", "1e23", "--sl", "0", "--json")
    assert (status, out) == (2, "")
    assert "--strength" in err and f"from 0 to {MAX_STRENGTH}" in err


def test_casualties_print_1e3_as_a_whole_number(capsys: Any) -> None:
    status, out, _ = cli(
        capsys, "casualties", "--initial", "1e3", "--remaining", "5e2", "--unit", "A=1e1"
    )
    assert status == 0
    assert "S0 1000," in out and "left 500" in out and "1000.0" not in out


STRENGTH_OPTIONS = [
    ["casualties", "--initial", "{}", "--remaining", "1", "--unit", "A=3"],
    ["casualties", "--initial", "30", "--remaining", "{}", "--unit", "A=3"],
    ["leader-bonus", "--strength", "{}", "--sl", "1"],
    ["last-stand", "--enemy-strength", "{}"],
    ["last-stand", "--enemy-strength", "26", "--allies-strength", "{}"],
    ["round", "--allies", "{}", "--enemies", "5", "--allies-lost", "1", "--enemies-lost", "1"],
    ["round", "--allies", "5", "--enemies", "{}", "--allies-lost", "1", "--enemies-lost", "1"],
    ["move-fighters", "--fighters", "10", "--strength", "{}", "--move", "1"],
]


@pytest.mark.parametrize("args", STRENGTH_OPTIONS, ids=lambda a: f"{a[0]} {a[a.index('{}') - 1]}")
def test_every_strength_option_has_the_cores_bound(capsys: Any, args: list[str]) -> None:
    option = args[args.index("{}") - 1]
    fill = [a.replace("{}", str(MAX_STRENGTH)) for a in args]
    assert cli(capsys, *fill)[0] == 0
    status, out, err = cli(capsys, *[a.replace("{}", f"{MAX_STRENGTH + 1}") for a in args])
    assert (status, out) == (2, "")
    assert option in err and f"from 0 to {MAX_STRENGTH}" in err


@pytest.mark.parametrize("args", STRENGTH_OPTIONS, ids=lambda a: f"{a[0]} {a[a.index('{}') - 1]}")
def test_an_empty_value_exits_2_naming_the_option(capsys: Any, args: list[str]) -> None:
    option = args[args.index("{}") - 1]
    status, out, err = cli(capsys, *[a.replace("{}", "") for a in args])
    assert (status, out) == (2, "")
    assert f"argument {option}" in err


def test_an_empty_fleeing_share_exits_2_naming_it(capsys: Any) -> None:
    status, out, err = cli(capsys, "last-stand", "--enemy-strength", "26", "--fleeing", "")
    assert (status, out) == (2, "")
    assert "argument --fleeing" in err and "0,5 or 50%" in err


def test_an_enormous_exponent_is_refused_before_it_is_expanded(capsys: Any) -> None:
    status, _, err = cli(capsys, "leader-bonus", "--strength", "1e999999999", "--sl", "0")
    assert status == 2 and "--strength" in err and "digits" in err


def test_a_fraction_or_text_is_not_a_whole_number(capsys: Any) -> None:
    for value in ("2.5", "1e-1", "inf", "x"):
        status, _, err = cli(capsys, "leader-bonus", "--strength", value, "--sl", "0")
        assert status == 2 and "--strength" in err and "whole number" in err, value


def test_a_round_from_typed_rolls(capsys: Any) -> None:
    args = ["round", "--allies", "60", "--enemies", "50"]
    status, out, _ = cli(capsys, *args, "--allies-roll", "12", "--enemies-roll", "77")
    assert status == 0
    assert "SL +5" in out and "SL -2" in out and "lost allies 0, enemies 7" in out
    status, _, err = cli(capsys, *args, "--allies-roll", "12")
    assert status == 2 and "--enemies-roll" in err
    status, _, err = cli(capsys, *args, "--allies-roll", "101", "--enemies-roll", "5")
    assert status == 2 and "--allies-roll" in err and "1 to 100" in err


def test_moving_more_fighters_than_are_left_names_the_move(capsys: Any) -> None:
    args = ["move-fighters", "--fighters", "10", "--strength", "25", "--move", "9", "--move", "2"]
    status, out, err = cli(capsys, *args)
    assert (status, out) == (2, "")
    assert "--move" in err and "move 2" in err


def test_a_leadership_test_needs_its_roll(capsys: Any) -> None:
    status, _, err = cli(capsys, "leader-bonus", "--strength", "26", "--leadership", "45")
    assert status == 2 and "--roll" in err
    status, out, _ = cli(
        capsys, "leader-bonus", "--strength", "26", "--leadership", "45", "--roll", "14"
    )
    assert status == 0 and "SL +3" in out and "+4 strength" in out and "at 30" in out


def test_unit_strength_rounds_halves_down_and_names_a_bad_size(capsys: Any) -> None:
    args = ["unit-strength", "--fighters", "5", "--rating", "3"]
    status, out, _ = cli(capsys, *args, "--size", "small", "--json")
    assert (status, json.loads(out)) == (0, {"strength": 7})
    status, _, err = cli(capsys, *args, "--size", "huge")
    assert status == 2 and "--size" in err and "monstrous" in err
    status, _, err = cli(capsys, "unit-strength", "--fighters", "5", "--rating", "1001")
    assert status == 2 and "--rating" in err and "0 to 1000" in err
