"""errors.py: one exception family with a code, the field and the parameters to say it."""

from __future__ import annotations

from background_battle import BattleError


def test_an_error_is_a_value_error_with_its_code_and_field() -> None:
    error = BattleError(
        "out_of_range", "fighters", "fighters must be 1 to 100000", min=1, max=100000
    )
    assert isinstance(error, ValueError)
    assert error.to_dict() == {
        "code": "out_of_range",
        "field": "fighters",
        "message": "fighters must be 1 to 100000",
        "params": {"min": 1, "max": 100000},
    }


def test_several_errors_travel_as_one_with_the_first_field_first() -> None:
    name = BattleError("required", "name", "name is required")
    count = BattleError("required", "fighters", "fighters is required")
    side = BattleError("unknown_side", "side", "side must be allies or enemies")
    together = BattleError.together([name, BattleError.together([count, side])])
    assert [error.field for error in together.every()] == ["name", "fighters", "side"]
    assert [other["field"] for other in together.to_dict()["others"]] == ["fighters", "side"]


def test_a_lone_error_has_no_others_in_its_json() -> None:
    assert "others" not in BattleError("required", "name", "name is required").to_dict()
