"""A form's command with several bad fields is refused with every field's error at once."""

from __future__ import annotations

from background_battle import BattleError, apply
from background_battle.api import handle

from .builders import dwarves_and_orcs
from .test_bad_input import refused


def test_a_unit_without_name_and_fighters_gets_both_errors_and_the_missing_strength() -> None:
    error = refused(dwarves_and_orcs(start=False), {"type": "add_unit", "side": "allies"})

    assert [(e.code, e.field) for e in error.every()] == [
        ("required", "name"),
        ("required", "fighters"),
        ("required", "strength"),
    ]
    assert error.every()[2].params["accepted"] == ["strength", "rating"]
    fighters = error.every()[1]
    assert (fighters.params["min"], fighters.params["max"]) == (1, 100_000)
    assert fighters.message == "fighters is required: a whole number from 1 to 100000"


def test_each_error_names_its_field_and_its_range() -> None:
    error = refused(
        dwarves_and_orcs(start=False),
        {"type": "add_unit", "name": "X", "side": "allies", "fighters": 0, "strength": -4},
    )

    assert [(e.code, e.field, e.params["min"]) for e in error.every()] == [
        ("out_of_range", "fighters", 1),
        ("out_of_range", "strength", 0),
    ]
    assert all(e.field and e.field in e.message for e in error.every())


def test_bad_items_of_a_list_are_each_reported() -> None:
    error = refused(
        dwarves_and_orcs(start=False),
        {
            "type": "set_modifiers",
            "side": "allies",
            "modifiers": [{"name": "", "percent": 500}, {"name": "Fog", "flat": "x"}],
        },
    )

    fields = [e.field for e in error.every()]
    assert "modifiers[1].flat" in fields and len(fields) >= 2
    assert fields[0].startswith("modifiers[0].")


def test_one_bad_field_is_reported_as_before_without_others() -> None:
    error = refused(
        dwarves_and_orcs(start=False),
        {"type": "add_unit", "name": "X", "side": "allies", "fighters": 0, "strength": 5},
    )

    assert error.others == [] and "others" not in error.to_dict()


def test_the_json_boundary_sends_the_other_errors_after_the_first() -> None:
    request = {"op": "new_battle", "name": "b"}
    battle = handle(request)["battle"]

    reply = handle({"op": "apply", "battle": battle, "command": {"type": "add_unit"}})

    assert reply["ok"] is False
    first, others = reply["error"], reply["error"]["others"]
    assert [first["field"], *(o["field"] for o in others)] == [
        "name",
        "side",
        "fighters",
        "strength",
    ]
    assert all(set(o) == {"code", "field", "message", "params"} for o in others)


def test_together_keeps_the_order_and_flattens_nested_errors() -> None:
    inner = BattleError.together(
        [BattleError("required", "a.x", "a.x is required"), BattleError("required", "a.y", "y")]
    )
    both = BattleError.together([inner, BattleError("required", "b", "b is required")])

    assert [e.field for e in both.every()] == ["a.x", "a.y", "b"]


def test_the_requests_bound_every_strength_like_the_command_line() -> None:
    for request in (
        {"op": "leader_bonus", "strength": 1_000_001, "sl": 2},
        {"op": "last_stand", "enemy_strength": 1_000_001, "fleeing": "1/2"},
        {"op": "last_stand", "enemy_strength": 26, "allies_strength": 1_000_001},
    ):
        reply = handle(request)
        assert reply["ok"] is False
        assert (reply["error"]["code"], reply["error"]["params"]["max"]) == (
            "out_of_range",
            1_000_000,
        )
    assert handle({"op": "leader_bonus", "strength": 1_000_000, "sl": 2})["ok"] is True


def test_null_is_refused_unless_it_is_a_value_of_its_own() -> None:
    battle = dwarves_and_orcs()
    error = refused(battle, {"type": "pcs_won", "fleeing": None})
    assert (error.code, error.field) == ("not_null", "fleeing")
    error = refused(dwarves_and_orcs(start=False), {"type": "add_unit", "name": None})
    assert ("not_null", "name") in [(e.code, e.field) for e in error.every()]
    ended, _ = apply(battle, {"type": "end_battle", "winner": None})  # null: nobody won
    assert (ended.status, ended.winner) == ("ended", None)
