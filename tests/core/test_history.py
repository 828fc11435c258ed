"""The log grows without copying, and a battle is still a value: older battles never change."""

from __future__ import annotations

from background_battle import apply, new_battle, restore, to_json

ORCS = {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 12, "strength": 26}


def test_extending_an_older_battle_two_ways_keeps_both() -> None:
    base, _ = apply(new_battle("x"), ORCS)
    renamed, _ = apply(base, {"type": "rename", "name": "y"})
    other, _ = apply(base, {"type": "rename", "name": "z"})
    assert (base.version, renamed.version, other.version) == (1, 2, 2)
    assert renamed.log[-1].command["name"] == "y"
    assert other.log[-1].command["name"] == "z"
    assert base.log == (base.log[0],)


def test_a_restored_battle_equals_the_one_built_entry_by_entry() -> None:
    battle = new_battle("x")
    for strength in (26, 27, 28):
        battle, _ = apply(battle, {**ORCS, "strength": strength})
    battle, _ = apply(battle, {"type": "undo"})
    assert restore(to_json(battle)) == battle
    assert battle.can_undo()


def test_nothing_to_undo_after_every_entry_is_undone() -> None:
    battle, _ = apply(new_battle("x"), ORCS)
    battle, _ = apply(battle, {"type": "undo"})
    assert not battle.can_undo()
    assert battle.log[1].command["type"] == "undo"
