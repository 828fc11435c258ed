"""The battle as data: commands to events, replay, undo, and the JSON form."""

from __future__ import annotations

import json

import pytest

from background_battle import BattleError, apply, from_json, new_battle, rebuild, restore, to_json
from background_battle.serialize import SCHEMA

from .builders import dwarves_and_orcs, run, unit


def played() -> object:
    return run(
        dwarves_and_orcs(),
        {"type": "leader_command", "side": "enemies", "leadership": 40},
        {"type": "resolve_round", "mode": "auto"},
        {"type": "resolve_round", "mode": "auto"},
        {"type": "roll_influence", "side": "allies"},
        seed=5,
    )


def test_undo_takes_back_the_latest_command_and_its_rolls() -> None:
    battle = run(dwarves_and_orcs(), {"type": "resolve_round", "mode": "auto"}, seed=3)
    undone = run(battle, {"type": "undo"})
    assert undone.strength("allies") == 30 and undone.strength("enemies") == 26
    assert undone.round == 0
    assert undone.version == battle.version + 1  # undo is recorded, not erased


def test_undo_steps_back_through_the_setup_too() -> None:
    battle = dwarves_and_orcs()
    battle = run(battle, {"type": "undo"}, {"type": "undo"})
    assert battle.status == "setup"
    assert [u.name for u in battle.units] == ["Dwarves"]


def test_nothing_to_undo_is_an_error() -> None:
    with pytest.raises(BattleError) as caught:
        run(new_battle("empty"), {"type": "undo"})
    assert caught.value.code == "nothing_to_undo"


def test_undo_of_a_rename_restores_the_old_name() -> None:
    battle = run(new_battle("first"), {"type": "rename", "name": "second"}, {"type": "undo"})
    assert battle.name == "first"


def test_replay_of_the_log_gives_the_same_state() -> None:
    battle = played()
    assert rebuild(battle) == battle


def test_json_round_trip_is_identity() -> None:
    battle = played()
    data = json.loads(json.dumps(to_json(battle)))
    assert data["schema"] == SCHEMA
    assert from_json(data) == battle
    assert to_json(from_json(data)) == data


def test_loading_never_rerolls() -> None:
    battle = played()
    again = from_json(to_json(battle))
    assert [e.events for e in again.log] == [e.events for e in battle.log]


def test_a_tampered_log_is_refused() -> None:
    data = to_json(played())
    data["log"][5]["events"][0]["strength"]["enemies"] = 1
    with pytest.raises(BattleError) as caught:
        from_json(data)
    assert caught.value.code == "bad_battle"
    assert caught.value.field == "battle.log[5].events"


def test_a_log_with_a_refused_command_is_refused() -> None:
    data = to_json(dwarves_and_orcs())
    data["log"].insert(0, {"command": {"type": "start"}, "events": []})
    with pytest.raises(BattleError) as caught:
        from_json(data)
    assert (caught.value.code, caught.value.field) == ("bad_battle", "battle.log[0].command")


def test_a_newer_schema_is_refused() -> None:
    with pytest.raises(BattleError) as caught:
        from_json({"schema": SCHEMA + 1, "name": "future", "log": []})
    assert caught.value.code == "schema_too_new"


def test_schema_0_hand_written_setup_is_upgraded() -> None:
    old = {
        "name": "typed by hand",
        "units": [
            {"name": "Dwarves", "side": "allies", "fighters": 10, "strength": 30},
            {"name": "Orcs", "side": "enemies", "fighters": 12, "strength": 26},
        ],
        "modifiers": {"allies": [{"name": "Gate", "percent": 10}]},
        "strength": {"allies": 20},
    }
    battle = from_json(old)
    assert battle.status == "fighting"
    assert (battle.side("allies").initial, battle.strength("allies")) == (33, 20)


def test_a_refused_command_changes_nothing() -> None:
    battle = dwarves_and_orcs()
    before = to_json(battle)
    with pytest.raises(BattleError):
        apply(battle, {"type": "set_strength", "side": "allies", "strength": -1})
    assert to_json(battle) == before


def test_setup_commands_edit_and_remove_units() -> None:
    battle = run(
        new_battle("edit"),
        unit("Dwarves", "allies", 10, 30),
        {"type": "update_unit", "unit": "u1", "fighters": 12, "name": "Longbeards"},
        unit("Orcs", "enemies", 12, 26),
        {"type": "remove_unit", "unit": "u2"},
    )
    assert [(u.name, u.fighters, u.strength) for u in battle.units] == [("Longbeards", 12, 30)]


def test_unit_ids_are_unique() -> None:
    battle = run(new_battle("ids"), unit("A", "allies", 1, 1, id="x"))
    with pytest.raises(BattleError) as caught:
        run(battle, unit("B", "allies", 1, 1, id="x"))
    assert caught.value.code == "duplicate_id"


def test_restore_of_our_own_json_gives_the_same_battle_undo_included() -> None:
    battle = run(played(), {"type": "undo"}, {"type": "undo"}, {"type": "rename", "name": "later"})
    assert restore(to_json(battle)) == battle
