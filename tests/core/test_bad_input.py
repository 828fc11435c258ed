"""docs/rules.md §10: bad input gets a clear message naming the field and range; nothing changes."""

from __future__ import annotations

from typing import Any

import pytest

from background_battle import BattleError, apply, casualties, last_stand, leader_bonus, to_json
from background_battle.api import handle

from .builders import dwarves_and_orcs, run


def refused(battle: Any, command: dict[str, Any]) -> BattleError:
    """The command is refused with a code and a message, and the battle is unchanged."""
    before = to_json(battle)
    with pytest.raises(BattleError) as caught:
        apply(battle, command)
    assert to_json(battle) == before
    error = caught.value
    assert error.code and error.message
    if error.field is not None and error.code not in ("wrong_phase", "side_empty"):
        assert error.field.split("[")[0].split(".")[0] in error.message
    return error


@pytest.mark.parametrize(
    ("fighters", "code"),
    [
        (-1, "out_of_range"),
        (0, "out_of_range"),
        (2.5, "not_integer"),
        ("ten", "not_integer"),
        (True, "not_integer"),
    ],
)
def test_negative_zero_or_fractional_fighters_are_refused(fighters: Any, code: str) -> None:
    battle = dwarves_and_orcs(start=False)
    error = refused(
        battle,
        {"type": "add_unit", "name": "X", "side": "allies", "fighters": fighters, "strength": 5},
    )
    assert (error.code, error.field) == (code, "fighters")
    assert error.params["min"] == 1
    assert "fighters must be" in error.message and "1 to 100000" in error.message


def test_negative_strength_is_refused() -> None:
    error = refused(
        dwarves_and_orcs(start=False),
        {"type": "add_unit", "name": "X", "side": "allies", "fighters": 3, "strength": -4},
    )
    assert (error.code, error.field, error.params["min"]) == ("out_of_range", "strength", 0)


def test_casualties_with_s0_of_zero_are_refused() -> None:
    with pytest.raises(BattleError) as caught:
        casualties(0, 0, [10])
    assert (caught.value.code, caught.value.field, caught.value.params["min"]) == (
        "out_of_range",
        "initial",
        1,
    )


def test_casualties_with_negative_remaining_strength_are_refused() -> None:
    with pytest.raises(BattleError) as caught:
        casualties(30, -1, [10])
    assert caught.value.field == "remaining"


def test_strength_above_s0_is_not_an_error_nothing_was_lost() -> None:
    unit = casualties(30, 36, [10]).units[0]
    assert (unit.killed, unit.wounded, unit.fit) == (0, 0, 10)


def test_an_sl_bonus_on_a_failed_test_is_refused() -> None:
    error = refused(
        dwarves_and_orcs(), {"type": "leader_command", "side": "allies", "success": False, "sl": 3}
    )
    assert (error.code, error.field) == ("sl_on_failure", "sl")


def test_a_negative_sl_on_a_passed_test_is_refused() -> None:
    with pytest.raises(BattleError) as caught:
        leader_bonus(30, -1)
    assert (caught.value.code, caught.value.field) == ("out_of_range", "sl")


def test_a_unit_on_an_unknown_side_is_refused() -> None:
    error = refused(
        dwarves_and_orcs(start=False),
        {"type": "add_unit", "name": "X", "side": "orcs", "fighters": 3, "strength": 4},
    )
    assert (error.code, error.field, error.params["accepted"]) == (
        "unknown_side",
        "side",
        ["allies", "enemies"],
    )


@pytest.mark.parametrize("roll", [0, 101, -5, 50.5])
def test_a_roll_outside_1_to_100_is_refused(roll: Any) -> None:
    error = refused(
        dwarves_and_orcs(),
        {"type": "resolve_round", "mode": "rolls", "rolls": {"allies": roll, "enemies": 50}},
    )
    assert error.field == "rolls.allies"
    assert "1 to 100" in error.message


def test_an_unknown_command_or_a_command_out_of_phase_is_refused() -> None:
    assert refused(dwarves_and_orcs(), {"type": "fireball"}).code == "unknown_command"
    assert refused(dwarves_and_orcs(), "start").code == "not_object"  # type: ignore[arg-type]
    assert refused(dwarves_and_orcs(start=False), {"type": "resolve_round"}).code == "wrong_phase"
    assert (
        refused(
            dwarves_and_orcs(),
            {"type": "add_unit", "name": "X", "side": "allies", "fighters": 1, "strength": 1},
        ).code
        == "wrong_phase"
    )


def test_an_automatic_roll_without_a_generator_asks_for_the_roll() -> None:
    error = refused(dwarves_and_orcs(), {"type": "resolve_round", "mode": "auto"})
    assert (error.code, error.field) == ("required", "rolls.allies")


def test_a_fleeing_share_outside_0_to_1_is_refused() -> None:
    for fleeing in ("3/2", -0.1, "half", float("nan")):
        with pytest.raises(BattleError) as caught:
            last_stand(26, fleeing, 24)
        assert caught.value.field == "fleeing"
    error = refused(dwarves_and_orcs(), {"type": "pcs_won", "fleeing": 2})
    assert error.field == "fleeing"


def test_missing_and_unknown_units_are_named() -> None:
    assert (
        refused(dwarves_and_orcs(), {"type": "detach_fighters", "unit": "u9", "fighters": 1}).code
        == "unknown_unit"
    )
    error = refused(
        dwarves_and_orcs(start=False),
        {"type": "add_unit", "side": "allies", "fighters": 1, "strength": 1},
    )
    assert (error.code, error.field) == ("required", "name")


def test_too_many_units_are_refused() -> None:
    battle = dwarves_and_orcs(start=False)
    commands = [
        {"type": "add_unit", "name": f"U{i}", "side": "allies", "fighters": 1, "strength": 1}
        for i in range(998)
    ]
    battle = run(battle, *commands)
    error = refused(
        battle,
        {"type": "add_unit", "name": "one more", "side": "allies", "fighters": 1, "strength": 1},
    )
    assert error.code == "too_many"


def test_casualties_only_names_every_bad_field_in_one_answer() -> None:
    reply = handle(
        {"op": "casualties", "remaining": -1, "units": [{"name": "Ogre", "fighters": "x"}]}
    )
    error = reply["error"]
    fields = [error["field"], *(other["field"] for other in error.get("others", []))]
    assert fields == ["initial", "remaining", "units[0].fighters"]
