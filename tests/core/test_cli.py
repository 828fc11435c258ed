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

from .builders import dwarves_and_orcs

CORE = Path(__file__).resolve().parents[2] / "core"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


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


@pytest.mark.parametrize("fleeing", ["0.5", "1/2"])
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
