"""battle.py: the battle as a frozen value that commands never change in place."""

from __future__ import annotations

import dataclasses

import pytest

from background_battle import new_battle

from .builders import dwarves_and_orcs, run


def test_a_new_battle_is_in_setup_with_the_default_hidden_numbers() -> None:
    battle = new_battle("ambush")
    assert (battle.name, battle.status, battle.round, battle.version) == ("ambush", "setup", 0, 0)
    assert battle.hidden  # the enemies' numbers are hidden by default


def test_a_battle_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        new_battle().status = "fighting"  # type: ignore[misc]


def test_a_side_reads_its_units_and_strength() -> None:
    battle = dwarves_and_orcs()
    assert [unit.name for unit in battle.units_of("allies")] == ["Dwarves"]
    assert (battle.strength("allies"), battle.strength("enemies")) == (30, 26)
    assert battle.unit("u2") is not None and battle.unit("u2").name == "Orcs"
    assert battle.unit("u99") is None


def test_undone_entries_no_longer_count_and_the_version_still_grows() -> None:
    battle = dwarves_and_orcs()
    before = battle.version
    undone = run(battle, {"type": "undo"})
    assert undone.version == before + 1
    assert len(undone.active_entries()) == len(battle.active_entries()) - 1
    assert undone.status == "setup" and undone.can_undo()
